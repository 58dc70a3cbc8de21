"""What a finished board of an ordinary hand is worth: the end of every play ``advise`` weighs.

A finished board is worth its royalties, plus the worth of the Fantasyland it enters, by the
cards the entry deals (``Rules.entry_value``: the rules' ``entry_value``, or what stands in
for it), less what a foul costs:

* **royalties**, in royalty points from one opponent (as ``solve``'s royalties objective
  counts them): every row is a toss-up, so a board that stands wins nothing from the
  opponent on average, and a foul loses the rows and the scoop: the rules' ``foul_penalty``
  (6 under 1-6 scoring). Each opponent pays alike, so the ranking holds at any table.
* **ev**: the points the board wins at the table against a sample of the opponents' boards
  (``optimizer.solver.table``: the opponent model, the visible boards completed by the bot,
  the known ones exactly), royalties and fouls on both sides included, plus each entry's
  ``ev_entry_value`` from every opponent.

The sample is drawn once for the position and every board is scored against the same one,
so that two plays differ by their boards alone. The opponents' boards avoid every card the
player has seen; they do not avoid the cards a rollout deals the player later in the hand.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.board_arrays import BoardArrays
from fantasyland.evaluator.rules import ROWS, EntryValue, Rules
from fantasyland.optimizer.opponents.learned.worth import Outcome, Worth
from fantasyland.optimizer.opponents.resolve import evaluate_played
from fantasyland.optimizer.solver.ev import OpponentField
from fantasyland.optimizer.solver.objective import ObjectiveName

#: Player boards scored against the opponents' distinct boards at a time.
CHUNK = 4096


@dataclass(frozen=True, eq=False)
class Valuation:
    """The worth of finished boards under ``objective`` (module docstring). ``field`` is the
    opponents' sample under ev (None under royalties); ``entries`` the worth of each entry
    size used, from one opponent."""

    rules: Rules
    objective: str
    opponents: int
    entries: tuple[EntryValue, ...]
    field: OpponentField | None = None
    # Made from the above once (``__post_init__``): the worth of each entry size, the
    # royalties objective's worth of boards (under royalties only), and the field's distinct
    # boards (under ev only).
    _entry_worth: np.ndarray = dataclasses.field(init=False, repr=False, compare=False)
    _royalties: Worth = dataclasses.field(init=False, repr=False, compare=False)
    _against: tuple[_Boards, np.ndarray] = dataclasses.field(init=False, repr=False,
                                                             compare=False)

    def __post_init__(self) -> None:
        size = max((e.cards for e in self.entries), default=0) + 1
        worth = np.zeros(size)
        scale = self.opponents if self.objective == ObjectiveName.EV else 1
        for entry in self.entries:
            worth[entry.cards] = entry.value * scale
        object.__setattr__(self, "_entry_worth", worth)
        if self.field is None:
            object.__setattr__(self, "_royalties", Worth(self.rules, entry=worth))
        else:
            object.__setattr__(self, "_against", _distinct(self.field))

    def entry_worth(self, cards: np.ndarray) -> np.ndarray:
        """What entering with ``cards`` cards (0: no entry) adds, at this table."""
        return self._entry_worth[cards]

    def __call__(self, boards: np.ndarray) -> Outcome:
        """The outcome of ``(N, 13)`` finished boards (jokers as dealt)."""
        if self.field is None:
            return self._royalties(boards)
        out = evaluate_played(np.asarray(boards).reshape(-1, 13), self.rules)
        entry = self.entry_worth(out.entry_cards)
        value = self._points(out) + np.where(out.fouled, 0.0, entry)
        return Outcome(value.astype(float), out.fouled, out.entry_cards)

    def _points(self, out: BoardArrays) -> np.ndarray:
        """Mean points a deal that the boards ``out`` win from the opponents' sample. Boards
        that score alike (the same row values, royalties and foul) are scored once: the
        boards of one street's finishes share most rows."""
        columns = np.stack([out.fouled.astype(np.int64)] + [out.values[r] for r in ROWS]
                           + [out.royalties[r] for r in ROWS], axis=1)
        unique, inverse = np.unique(columns, axis=0, return_inverse=True)
        alike = _Boards({r: unique[:, 1 + i] for i, r in enumerate(ROWS)},
                        {r: unique[:, 4 + i] for i, r in enumerate(ROWS)}, unique[:, 0] == 1)
        return self._points_of(alike)[inverse.reshape(-1)]

    def _points_of(self, out: _Boards) -> np.ndarray:
        against, counts = self._against
        assert self.field is not None  # a field is there to play against: under ev
        scoring = self.rules.scoring
        total = np.empty(len(out.fouled))
        for start in range(0, len(total), CHUNK):
            part = slice(start, start + CHUNK)
            ours = {r: out.values[r][part, None] for r in ROWS}
            mine = {r: out.royalties[r][part, None] for r in ROWS}
            won = _added((ours[r] > against.values[r]).astype(np.int64) for r in ROWS)
            lost = _added((ours[r] < against.values[r]).astype(np.int64) for r in ROWS)
            if scoring.royalties_to_row_winner_only:
                royalty = _added(np.where(ours[r] > against.values[r], mine[r], 0)
                                 - np.where(ours[r] < against.values[r], against.royalties[r], 0)
                                 for r in ROWS)
            else:
                royalty = _added(mine[r] for r in ROWS) - _added(against.royalties[r] for r in ROWS)
            standing = won - lost + scoring.scoop_bonus * ((won == 3).astype(np.int64)
                                                           - (lost == 3)) \
                + scoring.majority_bonus * ((won >= 2).astype(np.int64) - (lost >= 2)) \
                + royalty
            theirs_fouled = against.fouled
            mine_total = _added(mine[r] for r in ROWS)
            legal = np.where(theirs_fouled, scoring.foul_penalty + mine_total, standing)
            theirs_total = _added(against.royalties[r] for r in ROWS)
            foul = np.where(theirs_fouled, 0, -(scoring.foul_penalty + theirs_total))
            points = np.where(out.fouled[part, None], foul, legal)
            total[part] = points @ counts
        return total / self.field.samples


@dataclass(frozen=True)
class _Boards:
    values: dict[str, np.ndarray]
    royalties: dict[str, np.ndarray]
    fouled: np.ndarray


def _added(arrays: Iterable[np.ndarray]) -> np.ndarray:
    """The arrays added up (the rows' counts and royalties: one array, not ``sum``'s 0 +)."""
    return functools.reduce(operator.add, arrays)


def _distinct(field: OpponentField) -> tuple[_Boards, np.ndarray]:
    """The field's distinct opponent boards (as far as scoring sees them), each a row
    ``(1, U)``, and how many of the sample's boards each stands for."""
    columns = np.stack([field.fouled.astype(np.int64)]
                       + [field.values[r] for r in ROWS] + [field.royalties[r] for r in ROWS],
                       axis=1)
    unique, counts = np.unique(columns, axis=0, return_counts=True)
    row = {r: unique[None, :, 1 + i] for i, r in enumerate(ROWS)}
    royalty = {r: np.where(unique[:, 0] == 1, 0, unique[:, 4 + i])[None]
               for i, r in enumerate(ROWS)}
    return _Boards(row, royalty, unique[None, :, 0] == 1), counts.astype(float)
