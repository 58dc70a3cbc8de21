"""What the opponent model refuses: rules that no pool serves, targets it cannot reach.

The solver turns these into its own ``ObjectiveError`` where it asks for opponents, so that
this package never imports the solver above it.
"""


class OpponentModelError(ValueError):
    """Rules that no shipped pool serves, or bad arguments; the message says which."""


class CalibrationError(OpponentModelError):
    """A target that no weighting of the boards can reach."""
