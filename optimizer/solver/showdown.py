"""Classic Chinese Poker's decision before the showdown: set the cards, declare a natural, or
surrender.

A player dealt a natural of the rules' schedule may declare it instead of setting the cards:
it then wins its value from every player who sets, and settles with a player who declares
one too by the schedule (``evaluator.naturals.settle_naturals``). Under rules with a
surrender, a player may give up and pay its cost to each player. Each choice is valued
against the sample the set was solved against (``OpponentField``: its boards are the other
players' hands, and who of them declares), so the three values compare like for like.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.naturals import Held, best_natural, settle_naturals
from fantasyland.optimizer.solver.ev import ExpectedValue


@dataclass(frozen=True)
class ShowdownChoice:
    """The worth of each choice, in points a hand against the sample, and the best one."""

    set_value: float  # the solved set's value
    natural: Held | None  # the best natural of the schedule the dealt cards hold
    declare_value: float | None  # None without a natural
    surrender_value: float | None  # None where the rules have no surrender

    @property
    def choice(self) -> str:
        """``"set"``, ``"declare"`` or ``"surrender"``: the most valuable, setting first and
        declaring second among equals."""
        options = [("set", self.set_value), ("declare", self.declare_value),
                   ("surrender", self.surrender_value)]
        best = max(value for _, value in options if value is not None)
        return next(name for name, value in options if value is not None and value >= best)


def showdown_choice(cards, rules, objective: ExpectedValue, set_value: float
                    ) -> ShowdownChoice | None:
    """The choice before the showdown for the dealt ``cards`` (13), whose best set is worth
    ``set_value`` against ``objective``'s sample; None where there is none to make (no
    natural is held and the rules have no surrender, or the sample is not one of hands)."""
    field = objective.field
    schedule, cost = rules.showdown.naturals, rules.showdown.surrender
    natural = best_natural(cards, schedule) if schedule.hands and len(cards) == 13 else None
    if (natural is None and cost is None) or field.boards is None:
        return None
    declare = None
    if natural is not None:
        boards = field.boards.reshape(-1, 13)
        won = np.full(len(boards), float(natural.natural.value))
        for i in np.flatnonzero(field.declaring):
            theirs = best_natural(boards[i].tolist(), schedule)
            assert theirs is not None  # a board declares the natural it holds
            won[i] = settle_naturals(natural, theirs, schedule)
        declare = float(won.reshape(field.samples, -1).sum(axis=1).mean())
    surrender = None if cost is None else -float(cost * field.opponents)
    return ShowdownChoice(set_value, natural, declare, surrender)
