"""Exact Fantasyland sets, and the work built on them.

The package root is the stable face: ``from optimizer import solve, value_of_set, Solution``.
Its concerns, lowest first (each may import only those before it, and ``evaluator``):
``opponents`` (the opponent model), ``solver`` (the exact solve), then ``training`` and
``batch`` side by side. None of them imports the command line, or this root.
docs/architecture.md draws the layers, and tests/test_architecture.py holds them.
"""

from optimizer.solver.mode import ModeResult
from optimizer.solver.objective import ObjectiveError
from optimizer.solver.solve import SetValue, Solution, make_objective, solve, value_of_set

__all__ = ["ModeResult", "ObjectiveError", "SetValue", "Solution", "make_objective", "solve",
           "value_of_set"]
