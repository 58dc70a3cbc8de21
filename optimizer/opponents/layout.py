"""A board in progress, as the opponent bot holds it: 13 slots, ``EMPTY`` where no card is yet.

Slots 0-2 are the top, 3-7 the middle and 8-12 the bottom. Placed cards fill a row's slots
from its first one, so a row's empty slots come last.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

import numpy as np

from fantasyland.evaluator.board_arrays import ROW_SLICES
from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import ROWS

#: Slot ranges of the rows in a 13-card layout: top 0-2, middle 3-7, bottom 8-12 (the
#: order of a finished board, ``evaluator.board_arrays.ROW_SLICES``).
ROW_SLOTS = {row: range(s.start, s.stop) for row, s in ROW_SLICES.items()}
EMPTY = -1


@cache
def row_moves(free: tuple[tuple[int, ...], ...], count: int, keep: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """Every way to keep ``keep`` of ``count`` new cards and put them in rows whose empty
    slots are ``free`` (one tuple a row): ``(M, keep)`` indices of the cards kept and the
    slots they go to. A layout's next card in a row goes to the row's first empty slot."""
    picks, slots = [], []
    for kept in combinations(range(count), keep):
        for rows in product(range(len(ROWS)), repeat=keep):
            if any(rows.count(row) > len(free[row]) for row in range(len(ROWS))):
                continue
            used = [0] * len(ROWS)
            targets = []
            for row in rows:
                targets.append(free[row][used[row]])
                used[row] += 1
            picks.append(kept)
            slots.append(targets)
    return (np.array(picks, dtype=np.int64).reshape(-1, keep),
            np.array(slots, dtype=np.int64).reshape(-1, keep))


def placements(layout: np.ndarray, new: Sequence[Card], keep: int) -> np.ndarray:
    """Every distinct layout reachable by keeping ``keep`` of ``new`` and placing them in
    rows with room for them, in a fixed order: rows ascending as ``np.unique`` sorts them.

    The moves depend only on which slots are empty, so they are built once per pattern
    (``row_moves``) and applied to the layout as arrays: the bot calls this for every deal of
    its search, where a loop over the moves cost a seventh of its time."""
    layout = np.asarray(layout, dtype=np.int64)
    free = tuple(tuple(s for s in ROW_SLOTS[row] if layout[s] == EMPTY) for row in ROWS)
    picks, slots = row_moves(free, len(new), keep)
    out = np.broadcast_to(layout, (len(picks), 13)).copy()
    out[np.arange(len(picks))[:, None], slots] = np.asarray(list(new), dtype=np.int64)[picks]
    out = out[np.lexsort(out.T[::-1])]
    return out[np.r_[True, (out[1:] != out[:-1]).any(axis=1)]] if len(out) else out
