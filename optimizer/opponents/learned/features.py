"""What the learned value sees of a board in progress: each row's made hand and draws, and the
live cards that feed them.

``features(layouts, left)`` describes ``(N, 13)`` layouts (``optimizer.opponents.layout``:
top slots 0-2, middle 3-7, bottom 8-12, ``EMPTY`` where no card is yet) given ``left``, the
counts of each card the player has not seen (``(N, 53)`` or one ``(53,)`` for all), as an
``(N, FEATURES)`` float32 array. Everything is computed as arrays over the N boards, for the
labels value millions of boards. Per row:

* how many slots are free, and the made hand so far (pair, two pair, trips, quads, full
  house), the rank of its best group and its highest card;
* the live cards that pair the row's cards and that make trips of its pair;
* the middle and bottom's flush draw (one suit so far, how many, how many of it are live)
  and straight draw (the five-rank windows that still hold the row, and those whose missing
  ranks all have a live card);
* the top's pair rank (which decides Fantasyland) and the live queens, kings and aces.

Across rows: whether a row's made hand already beats the row below it (the foul it
threatens), and how many cards are left to place and to see. A joker counts as a card of no
rank or suit here; the presets with jokers keep the heuristic bot (docs/ordinary.md).
"""

from __future__ import annotations

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.rules import ROWS, Row

#: Slots of each row, in the layout's order: top, middle, bottom.
ROW_SLOTS = (range(0, 3), range(3, 8), range(8, 13))
RANKS = 13
SUITS = 4

#: The ten five-rank windows of a straight, ace-low first: ``(10, 13)`` booleans by rank.
WINDOWS = np.zeros((10, RANKS), dtype=bool)
WINDOWS[0, [12, 0, 1, 2, 3]] = True
for _start in range(9):
    WINDOWS[_start + 1, _start:_start + 5] = True



def _names() -> tuple[str, ...]:
    names: list[str] = []
    for row in ROWS:
        names += [f"{row}.free", f"{row}.pair", f"{row}.two_pair", f"{row}.trips",
                  f"{row}.quads", f"{row}.full", f"{row}.group_rank", f"{row}.high",
                  f"{row}.pair_outs", f"{row}.trips_outs"]
        if row == Row.TOP:
            names += [f"top.pair_{r}" for r in range(RANKS)]
            names += ["top.trips_rank", "top.q", "top.k", "top.a", "top.live_q", "top.live_k",
                      "top.live_a"]
        else:
            names += [f"{row}.suited", f"{row}.flush_live", f"{row}.flush_made",
                      f"{row}.windows", f"{row}.windows_live", f"{row}.straight_made"]
    names += ["middle_over_bottom", "top_over_middle", "top_pair_over_middle_pair",
              "middle_pair_over_bottom_pair", "to_place", "unseen"]
    return tuple(names)


NAMES = _names()
FEATURES = len(NAMES)


def _row(cards: np.ndarray, left_ranks: np.ndarray, left_suits: np.ndarray, size: int,
         top: bool) -> tuple[list[np.ndarray], dict[str, np.ndarray]]:
    """The features of one row's ``cards`` ``(N, size)`` and what the cross-row ones need."""
    placed = (cards >= 0) & (cards != JOKER)
    ranks = np.where(placed, cards >> 2, -1)
    suits = np.where(placed, cards & 3, -1)
    rank_counts = (ranks[:, :, None] == np.arange(RANKS)).sum(axis=1)  # (N, 13)
    suit_counts = (suits[:, :, None] == np.arange(SUITS)).sum(axis=1)  # (N, 4)
    count = (cards >= 0).sum(axis=1)
    free = size - count
    ordered = np.sort(rank_counts, axis=1)
    most, second = ordered[:, -1], ordered[:, -2]
    # the rank of the best group: most cards, then the highest rank
    group = np.argmax(rank_counts * 16 + np.arange(RANKS), axis=1)
    has_group = most >= 2
    present = rank_counts > 0
    high = np.where(present.any(axis=1), RANKS - 1 - np.argmax(present[:, ::-1], axis=1), -1)
    pair_outs = (left_ranks * present).sum(axis=1)
    trips_outs = np.where(has_group, np.take_along_axis(left_ranks, group[:, None], 1)[:, 0], 0)
    out = [free / 5.0, has_group, second >= 2, most >= 3, most >= 4, (most >= 3) & (second >= 2),
           np.where(has_group, (group + 1) / RANKS, 0.0), (high + 1) / RANKS,
           pair_outs / 12.0, trips_outs / 3.0]
    facts = {"most": most, "second": second, "group": np.where(has_group, group, -1)}
    if top:
        pair_rank = np.where(most == 2, group, -1)
        out += list((pair_rank[:, None] == np.arange(RANKS)).T)
        out += [np.where(most >= 3, (group + 1) / RANKS, 0.0)]
        out += [present[:, 10], present[:, 11], present[:, 12]]
        out += [left_ranks[:, 10] / 4.0, left_ranks[:, 11] / 4.0, left_ranks[:, 12] / 4.0]
        return out, facts
    one_suit = (suit_counts > 0).sum(axis=1) <= 1
    suit = np.argmax(suit_counts, axis=1)
    suited = np.where(one_suit, count, 0)
    flush_live = np.where(one_suit, np.take_along_axis(left_suits, suit[:, None], 1)[:, 0], 0)
    distinct = most <= 1
    holds = ~(present[:, None, :] & ~WINDOWS[None]).any(axis=2) & distinct[:, None]  # (N, 10)
    missing = WINDOWS[None] & ~present[:, None, :]
    live = holds & ~(missing & (left_ranks[:, None, :] == 0)).any(axis=2)
    out += [suited / 5.0, flush_live / 13.0, one_suit & (count == size),
            holds.sum(axis=1) / 5.0, live.sum(axis=1) / 5.0,
            (free == 0) & holds.any(axis=1)]
    facts["flush"] = one_suit & (count == size)
    facts["straight"] = (free == 0) & holds.any(axis=1)
    return out, facts


def _strength(facts: dict[str, np.ndarray]) -> np.ndarray:
    """A floor of a row's made hand as one number, for comparing rows: its groups, then the
    rank of its best group (a made flush or straight counts above trips)."""
    most, second, group = facts["most"], facts["second"], facts["group"]
    kind = np.select([most >= 4, (most >= 3) & (second >= 2), facts.get("flush", most < 0),
                      facts.get("straight", most < 0), most >= 3, second >= 2, most >= 2],
                     [7, 6, 5, 4, 3, 2, 1], 0)
    return kind * 16 + group + 1


def features(layouts: np.ndarray, left: np.ndarray) -> np.ndarray:
    """``(N, FEATURES)`` float32: what the learned value sees of each layout (module
    docstring). ``left`` counts the unseen cards, ``(N, 53)`` or ``(53,)``."""
    layouts = np.asarray(layouts).reshape(-1, 13)
    left = np.broadcast_to(np.asarray(left), (len(layouts), JOKER + 1))
    faces = left[:, :JOKER].reshape(len(layouts), RANKS, SUITS)
    left_ranks, left_suits = faces.sum(axis=2), faces.sum(axis=1)
    columns: list[np.ndarray] = []
    facts = []
    for slots, is_top in zip(ROW_SLOTS, (True, False, False)):
        out, fact = _row(layouts[:, slots.start:slots.stop], left_ranks, left_suits,
                         len(slots), is_top)
        columns += out
        facts.append(fact)
    top, middle, bottom = (_strength(f) for f in facts)
    placed = (layouts >= 0).sum(axis=1)
    columns += [middle > bottom, top > middle,
                (facts[0]["group"] >= 0) & (facts[0]["group"] > facts[1]["group"]),
                (facts[1]["group"] >= 0) & (facts[1]["group"] > facts[2]["group"]),
                (13 - placed) / 13.0, left.sum(axis=1) / 52.0]
    return np.stack([np.asarray(c, dtype=np.float32) for c in columns], axis=1)
