"""What the opponent model refuses: rules that no pool serves, targets it cannot reach.

The solver turns these into its own ``ObjectiveError`` where it asks for opponents, so that
this package never imports the solver above it.
"""

from fantasyland.evaluator.errors import InputError


class OpponentModelError(InputError):
    """Rules that no shipped pool serves, or bad arguments; the message says which."""


class CalibrationError(OpponentModelError):
    """A target that no weighting of the boards can reach. ``reason`` says why without
    naming the target, for a message that names where the target came from."""

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        self.reason = message if reason is None else reason
