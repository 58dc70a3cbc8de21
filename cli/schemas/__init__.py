"""JSON Schemas (draft 2020-12) of the command line's machine-readable output.

One ``<output>.schema.json`` per output (``solve --json``, a line of a batch's output file,
...), and ``common.schema.json`` with the pieces they share by relative ``$ref``. They are
package data: read them with ``importlib.resources.files("fantasyland.cli.schemas")``. A
package, so that ``importlib.resources`` finds the files; it holds no code.
"""
