"""The last street, exactly: what a board one street from the end is worth over every deal.

A board with ``keep`` empty slots (the street before the last has been played) is finished by
the last street: ``per_round`` cards are dealt from the unseen ones, ``keep`` of them go
into the empty slots, the player choosing the best finish. Its worth is the mean, over every
deal the unseen cards allow, of that best finish (by the valuation given: ``advise``'s,
``optimizer.ordinary.worth``, or the learned value's), with nothing sampled: C(38, 3) =
8,436 deals in heads-up Pineapple.

Valuing each deal's finishes one by one would value the same boards over and over: every
finish is the board with some unseen cards in its empty slots. So each board is valued once
for every way to fill its empty slots with distinct unseen cards (38 x 37 = 1,406 boards),
and a deal's best finish is the largest of the entries its cards pick out of that table.
Fills that score alike are valued once: a card's suit matters only to a row that can still
make a flush. A
tie goes to the finish ``optimizer.ordinary.rollouts.finish`` would take (the board that sorts
first), so that the chances of a foul and an entry are those of the rollouts' player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations
from math import comb
from typing import Protocol

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS
from fantasyland.optimizer.opponents.params import Dealing


class Finished(Protocol):
    """What a valuation says of finished boards: each one's worth, whether it fouled, and
    the cards of the Fantasyland it enters (0: none)."""

    @property
    def value(self) -> np.ndarray: ...

    @property
    def fouled(self) -> np.ndarray: ...

    @property
    def entry_cards(self) -> np.ndarray: ...


#: A valuation: ``(N, 13)`` finished boards in, what they are worth out.
Valuation = Callable[[np.ndarray], Finished]

#: The most deals one board's exact worth may enumerate: more would be a street that is not
#: the last but one (the table of fills grows as the unseen cards to the power ``keep``).
MOST_DEALS = 200_000


@dataclass(frozen=True)
class ExactWorth:
    """What each of some boards one street from the end is worth, over every last deal:
    ``value`` the mean of the best finish, ``foul_chance`` the share of deals whose best
    finish fouls, ``entry_chances`` the share entering Fantasyland with each number of cards
    (``{cards: (boards,) shares}``, sizes that never happen left out), ``deals`` how many
    deals each mean is over."""

    value: np.ndarray
    foul_chance: np.ndarray
    entry_chances: dict[int, np.ndarray]
    deals: int


@cache
def _deal_picks(unseen: int, per_round: int, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """Every deal of ``per_round`` of ``unseen`` cards (indices, ascending), and for each the
    flat indices, into the table of fills, of its finishes: ``(deals, finishes)``, the
    finishes of a deal in the order their boards sort (the first of a tie is the one
    ``finish`` keeps)."""
    deals = np.array(list(combinations(range(unseen), per_round)), dtype=np.int64)
    orders = np.array(list(permutations(range(per_round), keep)), dtype=np.int64)
    weights = unseen ** np.arange(keep - 1, -1, -1, dtype=np.int64)
    picked = deals[:, orders]  # (deals, finishes, keep): the card for each empty slot
    return deals, picked @ weights


@cache
def _fills(unseen: int, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered choice of ``keep`` indices of ``unseen`` cards, as a ``(unseen ** keep,
    keep)`` grid, and which of them are distinct (no deal picks an index twice)."""
    grid = np.indices((unseen,) * keep).reshape(keep, -1).T.astype(np.int64)
    distinct = (np.diff(np.sort(grid, axis=1), axis=1) != 0).all(axis=1)
    grid.flags.writeable = False
    distinct.flags.writeable = False
    return grid, distinct


def _classes(layout: np.ndarray, empty: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """``(keep, U)``: for each empty slot, a class of each unseen card such that two cards of
    one class in that slot leave boards that score alike. A card's suit matters only to a
    row that can still make a flush (a five-card row whose cards so far share one suit), and
    there only as that suit or not; elsewhere its rank is all. A joker is its own class."""
    ranks, suits = unseen >> 2, unseen & 3
    keys = np.empty((len(empty), len(unseen)), dtype=np.int64)
    for k, slot in enumerate(empty.tolist()):
        row = next(r for r in ROW_SLOTS.values() if slot in r)
        placed = layout[row.start:row.stop]
        faces = placed[(placed != EMPTY) & (placed != JOKER)]
        flush_suits = np.unique(faces & 3)
        if len(row) < 5 or len(flush_suits) > 1:
            keys[k] = ranks
        elif len(flush_suits) == 1:
            keys[k] = ranks * 2 + (suits == flush_suits[0])
        else:  # no face yet: any suit may flush
            keys[k] = unseen
        keys[k][unseen == JOKER] = -1
    return keys


def exact_worth(valuation: Valuation, layouts: np.ndarray, unseen: np.ndarray,
                dealing: Dealing) -> ExactWorth:
    """The worth of each of ``layouts`` (``(P, 13)`` boards with ``dealing.keep`` empty
    slots each) over every last deal of the ``unseen`` cards (module docstring)."""
    layouts = np.asarray(layouts, dtype=np.int64).reshape(-1, 13)
    unseen = np.asarray(unseen, dtype=np.int64)
    per_round, keep = dealing.per_round, dealing.keep
    count = len(unseen)
    if comb(count, per_round) > MOST_DEALS:
        raise ValueError(f"{comb(count, per_round)} last deals: more than {MOST_DEALS}; "
                         "a board one street from the end has fewer")
    deals, picks = _deal_picks(count, per_round, keep)
    fills, distinct = _fills(count, keep)
    values = np.empty((len(layouts), len(deals)))
    fouled = np.empty((len(layouts), len(deals)), dtype=bool)
    entries = np.empty((len(layouts), len(deals)), dtype=np.int64)
    for i, layout in enumerate(layouts):
        empty = np.flatnonzero(layout == EMPTY)
        if len(empty) != keep:
            raise ValueError(f"a board with {len(empty)} empty slots: expected {keep}, one "
                             "street from the end")
        # fills that score alike are valued once: one of each class (``_classes``)
        classes = _classes(layout, empty, unseen) + 1  # 0 and up
        key = np.zeros(int(distinct.sum()), dtype=np.int64)
        for k in range(keep):
            key = key * (int(classes.max()) + 1) + classes[k][fills[distinct][:, k]]
        _, first, alike = np.unique(key, return_index=True, return_inverse=True)
        boards = np.broadcast_to(layout, (len(first), 13)).copy()
        boards[:, empty] = unseen[fills[distinct][first]]
        out = valuation(boards)
        alike = alike.reshape(-1)
        table = np.full(len(fills), -np.inf)
        foul_table = np.zeros(len(fills), dtype=bool)
        entry_table = np.zeros(len(fills), dtype=np.int64)
        table[distinct], foul_table[distinct], entry_table[distinct] = \
            out.value[alike], out.fouled[alike], out.entry_cards[alike]
        options = table[picks]
        best = picks[np.arange(len(picks)), np.argmax(options, axis=1)]
        values[i], fouled[i], entries[i] = table[best], foul_table[best], entry_table[best]
    sizes = np.unique(entries)
    return ExactWorth(values.mean(axis=1), fouled.mean(axis=1),
                      {int(n): (entries == n).mean(axis=1) for n in sizes if n},
                      len(deals))
