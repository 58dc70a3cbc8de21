"""How far classic Chinese Poker's opponent model is from a fixed point: what a player gains
by deviating from it.

The model sets a hand by row worths (``optimizer.opponents.closed``). Its best response is
this project's solve: the setting worth most against a sample of the model's players, the
rows' joint terms (the scoop) and every bonus counted. The gain of deviating, hand by hand,
is what the best response wins more than the model's own setting, both valued against a
second, independent sample, so that the best response's fit to its own sample is not
counted as a gain. A model at its fixed point gains nothing; the published anchor is Paul
Hankin's open strategy for classic Chinese Poker, which loses 0.0068 points a hand against
its best response.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.rules import Row, Rules
from fantasyland.optimizer.opponents.closed import model_worths, opponent_boards, set_hand
from fantasyland.optimizer.solver.dealing import seeded_hand
from fantasyland.optimizer.solver.objective import ObjectiveName
from fantasyland.optimizer.solver.solve import make_objective, solve, value_of_set
from fantasyland.optimizer.solver.table import Sample


@dataclass(frozen=True)
class Deviation:
    """The gain of deviating from the model, in units a hand, over ``hands`` hands."""

    hands: int
    samples: int
    opponents: int
    gain: float  # against the independent sample: the honest figure
    gain_se: float
    fitted_gain: float  # against the sample the best response was chosen on (an upper figure)
    differs: float  # the share of hands where the best response is another setting


def _board(cards: np.ndarray) -> Board:
    return Board(tuple(cards[:3].tolist()), tuple(cards[3:8].tolist()),
                 tuple(cards[8:].tolist()))


def deviation(rules: Rules, *, hands: int = 200, samples: int = 50, opponents: int = 1,
              seed: int = 0, progress: Callable[[int], None] | None = None) -> Deviation:
    """What a best response to the model gains over the model's own setting (module
    docstring), on ``hands`` seeded 13-card hands, each against ``samples`` deals of
    ``opponents`` model players to choose on and as many others to value on."""
    worths = model_worths(rules)
    gains: list[float] = []
    fitted: list[float] = []
    differs = 0
    for i in range(hands):
        dealt = seeded_hand(seed, 13, i)
        cards = np.array(dealt)
        model = _board(set_hand(cards, worths))
        chosen_on = opponent_boards(rules, cards, samples, opponents, seed * 1_000_003 + 2 * i)
        valued_on = opponent_boards(rules, cards, samples, opponents,
                                    seed * 1_000_003 + 2 * i + 1)
        best = solve(dealt, variant=rules, objective=ObjectiveName.EV,
                     sample=Sample(boards=chosen_on)).board
        differs += sorted(best.cards) != sorted(model.cards) or any(
            sorted(best.row(r)) != sorted(model.row(r)) for r in (Row.TOP, Row.MIDDLE))
        for boards, out in ((valued_on, gains), (chosen_on, fitted)):
            goal = make_objective(ObjectiveName.EV, rules, dealt, None,
                                  sample=Sample(boards=boards))
            out.append(value_of_set(dealt, best, variant=rules, objective=goal).value
                       - value_of_set(dealt, model, variant=rules, objective=goal).value)
        if progress:
            progress(1)
    spread = float(np.std(gains, ddof=1)) if hands > 1 else 0.0
    return Deviation(hands, samples, opponents, float(np.mean(gains)),
                     spread / math.sqrt(hands), float(np.mean(fitted)), differs / hands)
