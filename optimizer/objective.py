"""What a set is worth: the objective the optimizer maximizes.

An objective gives every candidate row an integer *weight* (points times ``units``), so that a
set's value before Fantasyland is the sum of its three rows' weights. The worth of staying,
``fl_value`` points, is added outside the integer model: the solver finds the best set that
stays and the best that does not, and compares them exactly in points.
"""

from __future__ import annotations

from dataclasses import dataclass

from evaluator.rules import ROWS
from optimizer.candidates import Candidates


class ObjectiveError(ValueError):
    """An unknown objective name or a bad parameter."""


@dataclass(frozen=True)
class Royalties:
    """Royalties plus ``fl_value`` for staying in Fantasyland."""

    fl_value: float
    name: str = "royalties"
    units: int = 1

    def weigh(self, cands: Candidates) -> Candidates:
        return cands.replace(**{r: cands.row(r).with_weight(cands.row(r).royalty) for r in ROWS})

    def points(self, weight: int, stays: bool) -> float:
        """A set's value in points from its integer weight and whether it stays."""
        return weight / self.units + (self.fl_value if stays else 0.0)


OBJECTIVES = ("royalties",)


def make_objective(name: str, fl_value: float) -> Royalties:
    if name not in OBJECTIVES:
        raise ObjectiveError(f"unknown objective {name!r}: expected one of "
                             + ", ".join(OBJECTIVES))
    if not fl_value >= 0 or fl_value != fl_value or fl_value == float("inf"):
        raise ObjectiveError(f"bad fl_value {fl_value!r}: expected a finite number >= 0")
    return Royalties(float(fl_value))
