"""Training and measurement: grading a player's set, training sessions, the worth of Fantasyland.

Owns grading a set against the optimum (``grading``, ``percentile``), the trainer's session
(``session``) and the simulation behind ``value`` (``worth``). Imports ``evaluator`` and
``optimizer.solver``; never ``optimizer.batch`` or the command line.

Its face is ``__all__``: what the command line and the browser app use, which import it from
here and never from a module below (tests/test_architecture.py). Each name loads its module
on first use, so that importing the package costs nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

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


def __getattr__(name: str) -> Any:
    if name not in _FACE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, defined = _FACE[name].partition(":")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), defined or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
