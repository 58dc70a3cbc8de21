"""The showdown of a hand: every board scored, every pair settled, and who is in Fantasyland
next.

Every pair of seats settles on its own (``evaluator.scoring.settle_table``, as ``score
--against`` settles a table): rows won and lost, the scoop, fouls and royalties. A seat that
finished an ordinary hand unfouled with an entry goes to Fantasyland with the entry's cards;
a seat that played Fantasyland and stays is dealt the repeat (``Rules.repeat_cards_after``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fantasyland.evaluator.board import BoardReport
from fantasyland.evaluator.cards import Card, format_cards
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.scoring import Seat, row_results, scoops, settle_table


@dataclass(frozen=True)
class SeatResult:
    """One seat at the showdown: its board scored, the Fantasyland it played (its cards, or
    None for an ordinary hand), its discards, and its net points."""

    seat: int
    report: BoardReport
    fantasyland: int | None
    discards: tuple[Card, ...]
    points: int

    @property
    def entered(self) -> int | None:
        """The cards of the Fantasyland this ordinary hand earned (None: none)."""
        if self.fantasyland is not None or self.report.fouled:
            return None
        return self.report.fantasyland_cards

    def next_fantasyland(self, rules: Rules) -> int | None:
        """The cards this seat is dealt in Fantasyland next hand (None: an ordinary hand)."""
        if self.fantasyland is None:
            return self.entered
        if self.report.fouled or not self.report.stays:
            return None
        return rules.repeat_cards_after(self.fantasyland)

    def record(self) -> dict:
        r = self.report
        return {"seat": self.seat, "board": r.board.format(ascii=True),
                "discards": format_cards(self.discards, ascii=True),
                "fantasyland": self.fantasyland, "fouled": r.fouled,
                "royalties": r.royalties.total, "points": self.points,
                "entered": self.entered}


@dataclass(frozen=True)
class Showdown:
    """A hand's end: the seats in seat order and ``pairs[i][j]``, what seat i won from j."""

    seats: tuple[SeatResult, ...]
    pairs: tuple[tuple[int, ...], ...]

    def rows(self, i: int, j: int) -> tuple[int, int, int] | None:
        """Seat i's rows against seat j's, +1 won, 0 tied, -1 lost; None if either fouled."""
        a, b = self.seats[i].report, self.seats[j].report
        return None if a.fouled or b.fouled else row_results(a, b)

    def scoops(self, i: int, j: int) -> bool:
        return scoops(self.seats[i].report, self.seats[j].report)

    def record(self) -> dict:
        return {"seats": [s.record() for s in self.seats],
                "pairs": [list(row) for row in self.pairs]}


def showdown(rules: Rules, reports: Sequence[BoardReport],
             fantasyland: Sequence[int | None], discards: Sequence[tuple[Card, ...]]
             ) -> Showdown:
    """Settle the seats' finished ``reports`` (seat order) under ``rules``."""
    result = settle_table([Seat(report=r) for r in reports], rules)
    seats = tuple(SeatResult(i, r, fl, d, points) for i, (r, fl, d, points) in
                  enumerate(zip(reports, fantasyland, discards, result.totals)))
    return Showdown(seats, result.pairs)
