"""Many finished boards at once: the vectorized twin of ``evaluate_board``.

Boards come as an ``(n, 13)`` array of card ids laid out top (3), middle (5), bottom (5).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.board import row_strengths, row_values
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import ROWS, Row, Rules

ROW_SLICES: dict[str, slice] = {Row.TOP: slice(0, 3), Row.MIDDLE: slice(3, 8),
                               Row.BOTTOM: slice(8, 13)}


@dataclass(frozen=True)
class BoardArrays:
    """Per-board results, each an array over the boards."""

    values: dict[str, np.ndarray]  # each row's value on its own scale
    strengths: dict[str, np.ndarray]  # each row's strength on the high scale
    fouled: np.ndarray
    royalties: dict[str, np.ndarray]  # zero on a fouled board
    stays: np.ndarray
    entry_cards: np.ndarray  # cards dealt on entering Fantasyland, 0 when not entering
    # the cards the rows' hands would enter with, fouled or not: a fouled board with some
    # is an entry lost to the foul (a chase that failed)
    entry_made: np.ndarray

    @property
    def entry_lost(self) -> np.ndarray:
        """Whether the board fouls though its rows make an entry: a chase that failed."""
        lost: np.ndarray = (self.entry_made > 0) & self.fouled
        return lost

    @property
    def royalty_total(self) -> np.ndarray:
        top, middle, bottom = (self.royalties[row] for row in ROWS)
        total: np.ndarray = top + middle + bottom
        return total


def evaluate_boards(boards: np.ndarray, rules: Rules) -> BoardArrays:
    """Fouls, royalties, staying and entry for every board of an ``(n, 13)`` array."""
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 13)
    values = {r: row_values(r, boards[:, ROW_SLICES[r]], rules) for r in ROWS}
    # a row on the high scale is valued by its strength: rank it once
    strengths = {r: values[r] if rules.scale(r) is Scale.HIGH
                 else row_strengths(boards[:, ROW_SLICES[r]]) for r in ROWS}
    return from_rows(values, strengths, rules)


def from_rows(values: dict[str, np.ndarray], strengths: dict[str, np.ndarray],
              rules: Rules) -> BoardArrays:
    """Fouls, royalties, staying and entry of boards whose rows' values (each on its own
    scale) and strengths (on the high scale) are known."""
    fouled = np.zeros(len(values[ROWS[0]]), dtype=bool)
    for stronger, weaker in rules.order_pairs:
        fouled |= strengths[stronger] < strengths[weaker]
    for row in ROWS:
        fouled |= ~rules.qualify_table(row)[values[row]]
    royalties = {r: np.where(fouled, 0, rules.royalty_table(r)[values[r]]) for r in ROWS}
    stays = np.zeros(len(fouled), dtype=bool)
    for row in ROWS:
        stays |= rules.stay_table(row)[values[row]]
    stays &= ~fouled
    made = np.zeros(len(fouled), dtype=np.int64)
    for rung in rules.entry:
        met = np.ones(len(fouled), dtype=bool)
        for requirement in rung.requires:
            met &= values[requirement.row] >= requirement.spec.threshold(
                rules.scale(requirement.row))
        made = np.where(met, np.maximum(made, rung.cards), made)
    return BoardArrays(values, strengths, fouled, royalties, stays,
                       np.where(fouled, 0, made), made)
