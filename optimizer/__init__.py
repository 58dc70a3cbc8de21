"""Exact Fantasyland sets: the enumerator, its bounds, and the CP-SAT model.

Knows nothing of the command line.
"""

from optimizer.objective import ObjectiveError
from optimizer.mode import ModeResult
from optimizer.solve import SetValue, Solution, make_objective, solve, value_of_set

__all__ = ["ModeResult", "ObjectiveError", "SetValue", "Solution", "make_objective", "solve",
           "value_of_set"]
