"""CP-SAT, loaded the first time a model is built or solved, never at import.

Importing ``ortools.sat.python.cp_model`` takes longer than most solves (it brings pandas
along; docs/benchmarks.md, "Start-up"), and many solves never need it: the bounds alone prove
the incumbent optimal, and commands such as ``score`` solve nothing. So the modules that
build models ask ``cp_model()`` for the module where they use it.

The seconds spent loading it are kept off ``clock()``, the clock that a solve's deadline is
set on: a time limit buys the same search whether or not this process had loaded CP-SAT
before.
"""

from __future__ import annotations

import time
from types import ModuleType

_module: ModuleType | None = None
_loading = 0.0  # seconds this process has spent importing CP-SAT


def cp_model() -> ModuleType:
    """``ortools.sat.python.cp_model``, imported on the first call."""
    global _module, _loading
    if _module is None:
        start = time.perf_counter()
        from ortools.sat.python import cp_model as module

        _loading += time.perf_counter() - start
        _module = module
    return _module


def loading_seconds() -> float:
    """The seconds this process has spent loading CP-SAT so far (0 until it first loads)."""
    return _loading


def clock() -> float:
    """``time.perf_counter()`` less the time spent loading CP-SAT: the solver's deadlines
    are points on this clock."""
    return time.perf_counter() - _loading
