"""``fantasyland serve``: the page, and the JSON API it speaks (docs/serve.md).

``app`` builds the Starlette app, ``api`` lists the endpoints and their fields (``fields``
reads them), ``jobs`` answers each with the record its CLI command prints with ``--json``,
``workers`` runs the heavy jobs in processes under a time limit, and ``history`` keeps the
trainer's hands in SQLite. ``static/`` is the page: plain HTML, CSS and JavaScript, served
as they are.
"""
