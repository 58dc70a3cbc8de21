"""The bots at the table: who plays their ordinary streets, and who sets their Fantasyland.

A bot plays its streets by the learned bot where models were learned for the game, looking
one street further on its middle streets (``learned.shipped.table_bot``), else by the
stronger heuristic bot, valuing boards by the table's row odds, as the adviser's rollouts
do. It sees what a player at a real table sees: its own cards and discards, and the cards
placed face up on the other boards; the rest are unseen. A bot in Fantasyland is set by the
solver, for royalties plus the worth of staying (``solve``): the solver is exact, and the
bot sets its hand blind, before the boards it would be scored against are finished.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.bot import deck_counts, remaining
from fantasyland.optimizer.opponents.pools import dealing_for

#: A bot's street: the layout it plays, given its layout, the cards dealt, how many it
#: keeps, its unseen cards, the streets to come and its random draws.
Policy = Callable[[np.ndarray, Sequence[int], int, np.ndarray, int, np.random.Generator],
                  np.ndarray]

#: Seconds the solver may take to set a bot's Fantasyland hand.
SET_TIME_LIMIT = 10.0


@cache
def bot_policy(rules: Rules) -> Policy:
    """The policy that plays the bots' ordinary streets under ``rules``."""
    from fantasyland.optimizer.opponents.learned.shipped import table_bot

    learned = table_bot(rules)
    if learned is not None:
        return learned
    from fantasyland.optimizer.opponents.learned.positions import bot_policy as heuristic
    from fantasyland.optimizer.opponents.pools import STRONG_PARAMS, table_odds

    dealing = dealing_for(rules)
    return heuristic(rules, dealing, STRONG_PARAMS[dealing.name], table_odds(rules))


def bot_name(rules: Rules) -> str:
    """Which bot plays: ``"learned"`` or ``"heuristic"``."""
    from fantasyland.optimizer.opponents.learned.shipped import shipped_models

    return "learned" if shipped_models(rules) is not None else "heuristic"


def unseen_by(rules: Rules, own: Sequence[Card], shown: Sequence[Card]) -> np.ndarray:
    """The sorted cards a seat has not seen: the deck less its ``own`` cards (board, dealt,
    discards) and the cards ``shown`` face up on the other boards."""
    counts = deck_counts(rules.deck)
    np.subtract.at(counts, list(own) + list(shown), 1)
    return remaining(counts)


def bot_street(rules: Rules, layout: np.ndarray, new: Sequence[Card], unseen: np.ndarray,
               rounds_left: int, rng: np.random.Generator) -> np.ndarray:
    """The layout a bot plays when dealt ``new`` onto ``layout``."""
    keep = len(new) if not (layout != -1).any() else dealing_for(rules).keep
    return np.asarray(bot_policy(rules)(layout, list(new), keep, unseen, rounds_left, rng),
                      dtype=np.int64)


def bot_set(rules: Rules, cards: Sequence[Card]) -> Board:
    """The set the solver makes of a bot's Fantasyland hand."""
    from fantasyland.optimizer.solver.objective import ObjectiveName
    from fantasyland.optimizer.solver.solve import solve

    return solve(tuple(cards), variant=rules, objective=ObjectiveName.ROYALTIES,
                 time_limit=SET_TIME_LIMIT).board
