"""What a set is worth: the objectives the optimizer maximizes.

An objective gives every candidate row an integer *weight* (points times ``units``). A set's
integer value is the sum of its rows' weights plus any terms the rows share (a scoop needs all
three rows to win), which ``extend`` adds to the CP-SAT model and ``exact`` computes for one
set. The worth of staying, ``fl_value`` points, is added outside the integer model: the solver
finds the best set that stays and the best that does not, and compares them in points.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import ROWS, Row, Rules, Word
from fantasyland.evaluator.rules_files import MAX_POINTS

if TYPE_CHECKING:  # CP-SAT loads where a model is built or solved (cpsat.py)
    from ortools.sat.python import cp_model

    # (for the annotations only: the command line reads ObjectiveName without the solver)
    from fantasyland.optimizer.solver.candidates import Candidates


class ObjectiveName(Word):
    """What a set is solved for: ``royalties``, or ``ev``, the points it wins against sampled
    opponents; either plus the worth of staying (docs/ev-and-opponents.md). Also the choices
    of ``--objective``, in the order its help lists them: ``solve``'s default first."""

    ROYALTIES = "royalties"
    EV = "ev"


#: The options of ``solve`` that only the ev objective reads (its sample of opponents).
EV_OPTIONS = ("opponents", "samples", "seed")


def ev_options(objective: str, **options: int) -> dict[str, int]:
    """``options`` for ``solve``, less the sampling options when ``objective`` takes none."""
    return {name: value for name, value in options.items()
            if objective == ObjectiveName.EV or name not in EV_OPTIONS}


class ObjectiveError(InputError):
    """An unknown objective name or a bad parameter."""


class Objective(Protocol):
    # Read-only members (properties), as the objectives are frozen dataclasses.
    @property
    def name(self) -> str: ...

    @property
    def units(self) -> int: ...

    @property
    def fl_value(self) -> float: ...

    @property
    def separable(self) -> bool:
        """Whether a set's value is just the sum of its rows' weights (no shared terms)."""

    @property
    def compares_rows(self) -> bool:
        """Whether a row's value counts beyond its royalty and stay (row wins against
        opponents): then more of the ways a row with jokers can play may matter
        (``candidates``)."""

    def weigh(self, cands: Candidates) -> Candidates:
        """The candidates with ``weight`` and ``bound`` set."""

    def exact(self, cands: Candidates, ranks: dict[str, int]) -> int:
        """The integer value of one set (its rows named by tie-break rank), shared terms
        included."""

    def shared(self, values: dict[str, np.ndarray]) -> np.ndarray:
        """The shared terms of many sets, from each row's values (arrays over the sets)."""

    def extend(self, model: cp_model.CpModel, row_values: dict[str, cp_model.IntVar],
               cands: Candidates) -> cp_model.LinearExprT:
        """Add the shared terms to ``model``; return them as an expression (0 if none)."""

    def points(self, weight: int, stays: bool) -> float:
        """A set's value in points from its integer value and whether it stays."""


def row_weight(cands: Candidates, ranks: dict[str, int]) -> int:
    """The sum of the three rows' weights of the set whose rows have the tie-break ``ranks``."""
    return sum(int(cands.row(row).weight[cands.row(row).index_of(ranks[row])]) for row in ROWS)


@dataclass(frozen=True)
class Royalties:
    """Royalties plus ``fl_value`` for staying in Fantasyland."""

    fl_value: float
    name: str = ObjectiveName.ROYALTIES
    units: int = 1
    separable: bool = True
    compares_rows: bool = False

    def weigh(self, cands: Candidates) -> Candidates:
        return cands.replace(**{r: cands.row(r).with_weight(cands.row(r).royalty) for r in ROWS})

    def exact(self, cands: Candidates, ranks: dict[str, int]) -> int:
        return row_weight(cands, ranks)

    def shared(self, values: dict[str, np.ndarray]) -> np.ndarray:
        return np.zeros(len(values[Row.TOP]), dtype=np.int64)

    def extend(self, model, row_values, cands) -> int:
        return 0

    def points(self, weight: int, stays: bool) -> float:
        return weight / self.units + (self.fl_value if stays else 0.0)


#: The objectives in the order the output lists them (errors, ``batch --bench``, the page).
OBJECTIVES = tuple(sorted(ObjectiveName))


def check_fl_value(fl_value: float) -> float:
    """A worth of staying a caller gives: points from 0 to ``MAX_POINTS``, the bound the rules
    files put on the same figure (and ``--fl-value`` on the command line)."""
    if isinstance(fl_value, bool) or not isinstance(fl_value, (int, float)) \
            or not 0 <= fl_value <= MAX_POINTS:
        raise ObjectiveError(f"bad fl_value {fl_value!r}: expected points from 0 to "
                             f"{MAX_POINTS}")
    return float(fl_value)


def default_fl_value(rules: Rules, objective: str, dealt: int, *, opponents: int = 1) -> float:
    """The worth of staying when the user gives none, in the objective's points: the rules'
    ``repeat_value`` for a hand of ``dealt`` cards under the royalties objective; under ev,
    their ``ev_repeat_value`` (points from one opponent) times the opponents, since a
    Fantasyland hand wins from each opponent alike."""
    if check_name(objective) is ObjectiveName.ROYALTIES:
        return rules.repeat_value_after(dealt)
    return rules.ev_repeat_value_after(dealt) * opponents


def check_name(name: str) -> ObjectiveName:
    """The objective named ``name`` (``"ev"`` or ``"royalties"``)."""
    if name not in OBJECTIVES:
        raise ObjectiveError(f"unknown objective {name!r}: expected one of "
                             + ", ".join(OBJECTIVES))
    return ObjectiveName(name)


def check_objective(rules: Rules, name: str) -> str:
    """``name``, once it is known that hands under ``rules`` can be solved for it: the ev
    objective needs opponent boards played under their foul rules (``OpponentModelError``
    otherwise), and a weighting of them that meets the rules' ``opponents.mean_royalties``
    (``CalibrationError`` otherwise). Commands call it before they start work."""
    # (under closed dealing the model sets the opponents' hands: no pool to check)
    if check_name(name) is ObjectiveName.EV and not rules.dealing.closed:
        # the pools load on first use
        from fantasyland.optimizer.opponents.draw import pool_calibration
        from fantasyland.optimizer.opponents.pools import pool_for

        with opponent_model():
            pool_calibration(pool_for(rules), rules)
    return name


@contextmanager
def opponent_model() -> Iterator[None]:
    """The opponent model's refusals (``OpponentModelError``, ``CalibrationError``) raised
    as an ``ObjectiveError``: without opponents the ev objective cannot be built."""
    from fantasyland.optimizer.opponents.errors import OpponentModelError

    try:
        yield
    except OpponentModelError as error:
        raise ObjectiveError(str(error)) from error
