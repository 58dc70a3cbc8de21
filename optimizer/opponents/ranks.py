"""Row values for the bot's hot path: ``evaluator.board.row_values`` by direct lookup.

The bot ranks millions of rows a hand, and ``evaluator.strength`` finds a row's ranks by a
binary search of its keys. Here a row's ranks, sorted, index a table of every rank multiset
(13^5 entries for five cards), built once from ``evaluator.strength`` itself: a row that is
not a flush is worth what its ranks are. The rows of one suit are few and are ranked by
``evaluator.strength``, as are 2-7 rows, so every value is the evaluator's
(tests/test_bot_strength.py compares them).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np

from fantasyland.evaluator.board import row_values as evaluator_row_values
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.strength import rank3_array, rank5_array

_RANKER = {3: rank3_array, 5: rank5_array}


@cache
def _place_values(size: int) -> np.ndarray:
    """``13 ** i`` for the ``size`` sorted ranks of a row, the highest place first."""
    return 13 ** np.arange(size - 1, -1, -1, dtype=np.int64)


@cache
def _by_ranks(size: int) -> np.ndarray:
    """Strength of a row of ``size`` cards that is not a flush, indexed by its sorted ranks.

    Each rank multiset is ranked once as cards whose suits run 0, 1, 2, 3, 0 along the row:
    never one suit, and two cards of one rank never share a suit short of five of a rank
    (two copies of a face, which two decks deal)."""
    ranks = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    cards = ranks * 4 + np.arange(size) % 4
    table = np.full(13 ** size, -1, dtype=np.int64)
    table[ranks @ _place_values(size)] = _RANKER[size](cards)
    table.flags.writeable = False
    return table


#: Sorting networks: the compare-and-swaps that sort 3 and 5 values. Run on columns they sort
#: every row at once, about three times faster than ``np.sort`` of short rows.
_NETWORKS = {3: ((0, 1), (1, 2), (0, 1)),
             5: ((0, 1), (3, 4), (2, 4), (2, 3), (1, 4), (0, 3), (0, 2), (1, 3), (1, 2))}


def rank_index(ranks: np.ndarray) -> np.ndarray:
    """``(n,)``: each row of ``ranks`` (``(n, 3|5)``, 0..12) sorted, read in base 13."""
    columns = [ranks[:, i] for i in range(ranks.shape[1])]
    for low, high in _NETWORKS[ranks.shape[1]]:
        columns[low], columns[high] = (np.minimum(columns[low], columns[high]),
                                       np.maximum(columns[low], columns[high]))
    index = columns[0]
    for column in columns[1:]:
        index = index * 13 + column
    return index


def row_strengths(cards: np.ndarray) -> np.ndarray:
    """``evaluator.board.row_strengths`` of an ``(n, 3|5)`` array of faces."""
    cards = np.asarray(cards, dtype=np.int64)
    size = cards.shape[1]
    values = _by_ranks(size)[rank_index(cards >> 2)]
    if size == 5:
        suits = cards & 3
        flush = (suits[:, 0] == suits[:, 1]) & (suits[:, 0] == suits[:, 2]) \
            & (suits[:, 0] == suits[:, 3]) & (suits[:, 0] == suits[:, 4])
        if flush.any():
            values[flush] = rank5_array(cards[flush])
    return values


def row_values(row: str, cards: np.ndarray, rules: Rules) -> np.ndarray:
    """``evaluator.board.row_values``: a high row's strength, a 2-7 row's lowball value."""
    if rules.scale(row) is not Scale.HIGH:
        return evaluator_row_values(row, cards, rules)
    return row_strengths(cards)
