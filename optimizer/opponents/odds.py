"""What a finished board wins at the table: the row odds against the table's boards.

The stronger bot (``BotParams.table_points``) values a finished board in the points it wins
heads-up, not in royalties alone: each row is won or lost against the boards a table of bots
makes, and winning all three is a scoop. ``RowOdds`` holds, for every value of each row on
its own scale, the chance that an opponent's row is lower and that it is higher, taken
from the pool that serves the rules (its boards that do not foul: ``pools.table_odds``),
and the pool's foul rate; the bot is given them (``bot.play_hand``), since the pools import
the bot.
A row's odds are read one row at a time, and the scoop from their product, as if the rows
were independent: they are not quite (a strong board is strong throughout), which a bot
choosing between boards of one hand can bear.

Rules that no pool serves (house foul rules) get even odds: every row a toss-up, so the
bot then plays for royalties, Fantasyland and no foul, as the first bot did.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from fantasyland.evaluator.board_arrays import BoardArrays
from fantasyland.evaluator.rules import ROWS, Rules


@dataclass(frozen=True, eq=False)
class RowOdds:
    """Per row, indexed by the row's value: the chance an opponent's row is lower (``wins``)
    and higher (``losses``), against boards that do not foul; and how often boards foul."""

    wins: dict[str, np.ndarray]
    losses: dict[str, np.ndarray]
    foul_rate: float

    @cached_property
    def fingerprint(self) -> str:
        """A digest of the odds: what a saved chunk of the stronger bot's play records of
        the boards it played against."""
        digest = hashlib.sha256(repr(self.foul_rate).encode())
        for row in ROWS:
            for table in (self.wins[row], self.losses[row]):
                digest.update(np.ascontiguousarray(table, dtype=np.float64).tobytes())
        return digest.hexdigest()[:16]

    def points(self, values: dict[str, np.ndarray]) -> np.ndarray:
        """Row and scoop points that legal boards with these row values win on average from a
        table board that does not foul (-6 to +6), rows taken as independent."""
        win = [self.wins[row][values[row]] for row in ROWS]
        loss = [self.losses[row][values[row]] for row in ROWS]
        return sum(w - lost for w, lost in zip(win, loss)) + 3 * (np.prod(win, axis=0)
                                                                   - np.prod(loss, axis=0))


def odds_from_boards(boards: BoardArrays, rules: Rules) -> RowOdds:
    """The odds against finished boards ``boards`` (evaluated under ``rules``)."""
    legal = ~boards.fouled
    wins, losses = {}, {}
    for row in ROWS:
        size = len(rules.royalty_table(row))
        counts = np.bincount(boards.values[row][legal], minlength=size).astype(float)
        share = counts / max(counts.sum(), 1.0)
        below = np.cumsum(share) - share
        wins[row], losses[row] = below, 1.0 - below - share
    return RowOdds(wins, losses, float(boards.fouled.mean()) if len(legal) else 0.0)


def even_odds(rules: Rules) -> RowOdds:
    """Every row a toss-up, no fouls: odds that change no decision (the module docstring)."""
    half = {row: np.full(len(rules.royalty_table(row)), 0.5) for row in ROWS}
    return RowOdds(half, half, 0.0)
