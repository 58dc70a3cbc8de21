"""Training and measurement: grading a player's set, training sessions, the worth of Fantasyland.

Owns grading a set against the optimum (``grading``, ``percentile``), the trainer's session
(``session``) and the simulation behind ``value`` (``worth``). Imports ``evaluator`` and
``optimizer.solver``; never ``optimizer.batch`` or the command line.

Its face is ``__all__``: what the command line and the browser app use, which import it from
here and never from a module below (tests/test_architecture.py). Each name loads its module
on first use, so that importing the package costs nothing.
"""

from __future__ import annotations

from fantasyland.evaluator.faces import lazy_face

#: Each name of the face and the module that defines it (``module:name`` where the face
#: renames it: a module named as its function would hide the function once imported).
_FACE = {
    "Grade": "grading", "grade": "grading", "grade_record": "grading",
    "Session": "session",
    "DEFAULT_SAMPLES": "worth", "InfiniteWorth": "worth", "WorthTable": "worth",
    "simulate": "worth", "worth_table": "worth",
    "fixed_point_deviation": "deviation:deviation",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
