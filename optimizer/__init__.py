"""Exact Fantasyland sets, and the work built on them.

The package root is the stable face: ``from optimizer import solve, value_of_set, Solution``.
Its concerns, lowest first (each may import only those before it, and ``evaluator``):
``opponents`` (the opponent model), ``solver`` (the exact solve), then ``training``,
``ordinary`` and ``batch`` side by side, and ``play`` (the game at a table) above them.
None of them imports the command line, or this root.
docs/architecture.md draws the layers, and tests/test_architecture.py holds them.

The face loads the solver when one of its names is first asked for, so that a module below
it (``optimizer.solver.dealing``, say) imports without the solver behind the face.
"""

__all__ = ["ModeResult", "ObjectiveError", "Sample", "SetValue", "Solution", "TableSpec",
           "make_objective", "solve", "value_of_set"]


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from fantasyland.optimizer.solver.mode import ModeResult
    from fantasyland.optimizer.solver.objective import ObjectiveError
    from fantasyland.optimizer.solver.solve import (SetValue, Solution, make_objective, solve,
                                                    value_of_set)
    from fantasyland.optimizer.solver.table import Sample, TableSpec

    face = {"ModeResult": ModeResult, "ObjectiveError": ObjectiveError, "SetValue": SetValue,
            "Solution": Solution, "Sample": Sample, "TableSpec": TableSpec,
            "make_objective": make_objective, "solve": solve, "value_of_set": value_of_set}
    globals().update(face)
    return face[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
