"""Exact Fantasyland sets: the enumerator, its bounds, and the CP-SAT model.

Knows nothing of the command line.
"""

from optimizer.objective import ObjectiveError
from optimizer.solve import ModeResult, Solution, solve

__all__ = ["ModeResult", "ObjectiveError", "Solution", "solve"]
