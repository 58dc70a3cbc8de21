"""Settling finished boards: row points, scoops, fouls and royalties, pair by pair.

Every pair of players settles on its own (A-B, A-C, B-C ...) and a player's total is the sum
of their pairs. Points are zero-sum within a pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaluator.board import BoardReport
from evaluator.rules import ROWS, Scoring


def row_results(a: BoardReport, b: BoardReport) -> tuple[int, int, int]:
    """+1, 0 or -1 for each row (top, middle, bottom) from ``a``'s side, neither fouled."""
    return tuple((x > y) - (x < y) for x, y in
                 ((a.row(r).value, b.row(r).value) for r in ROWS))  # type: ignore[return-value]


def settle(a: BoardReport, b: BoardReport, scoring: Scoring | None = None) -> int:
    """Points ``a`` wins from ``b`` (negative when ``a`` pays).

    >>> from evaluator.board import evaluate_board
    >>> ivey = evaluate_board("6s6c4h / TdTs9cQs8c / 3h3d3s2h2d", "standard")
    >>> hellmuth = evaluate_board("AhKdQd / 9h9d5h5d4c / KsJs9s8s7s", "standard")
    >>> settle(ivey, hellmuth)
    4
    """
    scoring = scoring or a.rules.scoring
    if a.fouled and b.fouled:
        return 0
    if a.fouled:
        return -(scoring.foul_penalty + b.royalties.total)
    if b.fouled:
        return scoring.foul_penalty + a.royalties.total
    results = row_results(a, b)
    points = sum(results)
    won, lost = results.count(1), results.count(-1)
    if won == 3:
        points += scoring.scoop_bonus
    elif lost == 3:
        points -= scoring.scoop_bonus
    if won >= 2:
        points += scoring.majority_bonus
    elif lost >= 2:
        points -= scoring.majority_bonus
    for row, result in zip(ROWS, results):
        ours, theirs = getattr(a.royalties, row), getattr(b.royalties, row)
        if scoring.royalties_to_row_winner_only:
            ours, theirs = ours * (result > 0), theirs * (result < 0)
        points += ours - theirs
    return points


@dataclass(frozen=True)
class TableResult:
    """``pairs[i][j]`` is what player i wins from player j; ``totals[i]`` sums row i."""

    pairs: tuple[tuple[int, ...], ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(row) for row in self.pairs)


def score_table(boards: Sequence[BoardReport], scoring: Scoring | None = None) -> TableResult:
    """Settle every pair among 2 to 4 players."""
    if not 2 <= len(boards) <= 4:
        raise ValueError(f"a table has 2 to 4 players, got {len(boards)}")
    pairs = tuple(tuple(0 if i == j else settle(a, b, scoring) for j, b in enumerate(boards))
                  for i, a in enumerate(boards))
    return TableResult(pairs)
