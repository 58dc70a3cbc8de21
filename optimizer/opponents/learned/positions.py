"""Boards to learn from: heads-up hands dealt from a seed and played street by street.

Each table seats two players, dealt from one shuffled deck as at a real table, who act in
turn; each sees its own cards and the other's board so far. After every placement but the
last, the board and the player's unseen cards are kept: the positions one street from the
end, two streets, and so on. A player plays by a ``Policy`` (the heuristic bot, or the
learned one), and with chance ``explore`` makes a random legal play instead, so that the
models also see the boards a mistake leaves. Table ``t`` of a seed is dealt and played from
``(seed, t)`` alone, so that any range of tables can be played apart (in chunks, on worker
processes) and joined in order, the same as one run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.bot import deck_counts, remaining
from fantasyland.optimizer.opponents.layout import EMPTY, placements
from fantasyland.optimizer.opponents.odds import RowOdds
from fantasyland.optimizer.opponents.params import BotParams, Dealing


class Policy(Protocol):
    """A player: the layout it plays when dealt ``new`` onto ``layout``, keeping ``keep``,
    with ``unseen`` the sorted cards it has not seen and ``rounds_left`` streets to come."""

    def __call__(self, layout: np.ndarray, new: Sequence[int], keep: int, unseen: np.ndarray,
                 rounds_left: int, rng: np.random.Generator) -> np.ndarray: ...


@dataclass(frozen=True)
class Positions:
    """Boards after a placement, ``streets`` from the end of the hand: ``layouts``
    ``(N, 13)`` and ``left`` ``(N, 53)``, the counts of the cards their player had not seen
    (int8)."""

    layouts: np.ndarray
    left: np.ndarray

    def __len__(self) -> int:
        return len(self.layouts)

    @staticmethod
    def join(parts: Sequence[Positions]) -> Positions:
        return Positions(np.concatenate([p.layouts for p in parts]),
                         np.concatenate([p.left for p in parts]))


@dataclass(frozen=True)
class Played:
    """What some tables played: the ``positions`` by the streets still to come after each
    (1 for the street before the last, up to ``dealing.rounds`` after the first cards), and
    the ``finished`` boards ``(tables * seats, 13)``, table by table, seat by seat."""

    positions: dict[int, Positions]
    finished: np.ndarray


def play_tables(rules: Rules, dealing: Dealing, policies: Sequence[Policy], tables: range, *,
                seed: int, explore: float) -> Played:
    """Play ``tables`` (a range of table numbers of ``seed``); seat ``s`` plays by
    ``policies[s]``."""
    kept: dict[int, tuple[list[np.ndarray], list[np.ndarray]]] = {
        r: ([], []) for r in range(1, dealing.rounds + 1)}
    seats = len(policies)
    full = deck_counts(rules.deck)
    finished = []
    for table in tables:
        rng = np.random.default_rng([seed, table])
        deck = rng.permutation(remaining(full))
        hands = [deck[s * dealing.seen:(s + 1) * dealing.seen] for s in range(seats)]
        layouts = [np.full(13, EMPTY, dtype=np.int64) for _ in range(seats)]
        lefts = [full.copy() for _ in range(seats)]
        start = 0
        for index, (count, keep) in enumerate(dealing.streets):
            rounds_left = dealing.rounds - index
            for seat in range(seats):
                new = hands[seat][start:start + count]
                np.subtract.at(lefts[seat], new, 1)
                left = lefts[seat].copy()
                for other in range(seats):
                    if other != seat:
                        shown = layouts[other][layouts[other] != EMPTY]
                        np.subtract.at(left, shown, 1)
                if rng.random() < explore:
                    options = placements(layouts[seat], new.tolist(), keep)
                    layouts[seat] = options[rng.integers(len(options))]
                else:
                    layouts[seat] = np.asarray(policies[seat](
                        layouts[seat], new.tolist(), keep, remaining(left), rounds_left, rng))
                if rounds_left:
                    kept[rounds_left][0].append(layouts[seat].copy())
                    kept[rounds_left][1].append(left.astype(np.int8))
            start += count
        finished += layouts
    return Played({r: Positions(np.array(boards, dtype=np.int64).reshape(-1, 13),
                                np.array(counts, dtype=np.int8).reshape(-1, JOKER + 1))
                   for r, (boards, counts) in kept.items()},
                  np.array(finished, dtype=np.int64).reshape(-1, 13))


def bot_policy(rules: Rules, dealing: Dealing, params: BotParams, odds: RowOdds | None
               ) -> Policy:
    """The heuristic bot (``optimizer.opponents.bot.choose``) as a policy."""
    from fantasyland.optimizer.opponents.bot import choose

    def play(layout: np.ndarray, new: Sequence[int], keep: int, unseen: np.ndarray,
             rounds_left: int, rng: np.random.Generator) -> np.ndarray:
        return choose(rules, dealing, layout, list(new), keep, unseen, rounds_left, params, rng,
                      odds=odds)

    return play


def play_alone(rules: Rules, dealing: Dealing, policy: Policy, cards: Sequence[int],
               rng: np.random.Generator) -> np.ndarray:
    """The board ``policy`` finishes from ``cards`` (``dealing.seen`` of them, in the order
    they arrive), seeing no other board: its unseen cards are the deck less its own."""
    layout = np.full(13, EMPTY, dtype=np.int64)
    left = deck_counts(rules.deck)
    start = 0
    for index, (count, keep) in enumerate(dealing.streets):
        new = list(cards[start:start + count])
        start += count
        np.subtract.at(left, new, 1)
        layout = np.asarray(policy(layout, new, keep, remaining(left), dealing.rounds - index,
                                   rng))
    return layout
