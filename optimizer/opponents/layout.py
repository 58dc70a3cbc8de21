"""A board in progress, as the opponent bot holds it: 13 slots, ``EMPTY`` where no card is yet.

Slots 0-2 are the top, 3-7 the middle and 8-12 the bottom. Placed cards fill a row's slots
from its first one, so a row's empty slots come last.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

import numpy as np

from evaluator.board_arrays import ROW_SLICES
from evaluator.cards import Card
from evaluator.rules import ROWS

#: Slot ranges of the rows in a 13-card layout: top 0-2, middle 3-7, bottom 8-12 (the
#: order of a finished board, ``evaluator.board_arrays.ROW_SLICES``).
ROW_SLOTS = {row: range(s.start, s.stop) for row, s in ROW_SLICES.items()}
EMPTY = -1


def placements(layout: np.ndarray, new: Sequence[Card], keep: int) -> np.ndarray:
    """Every distinct layout reachable by keeping ``keep`` of ``new`` and placing them in
    rows with room for them, in a fixed order (``np.unique``'s)."""
    free = {row: [s for s in ROW_SLOTS[row] if layout[s] == EMPTY] for row in ROWS}
    out = []
    for kept in combinations(new, keep):
        for rows in product(ROWS, repeat=keep):
            if any(rows.count(row) > len(free[row]) for row in ROWS):
                continue
            placed = layout.copy()
            used = dict.fromkeys(ROWS, 0)
            for card, row in zip(kept, rows):
                placed[free[row][used[row]]] = card
                used[row] += 1
            out.append(placed)
    return np.unique(np.array(out, dtype=np.int64), axis=0)
