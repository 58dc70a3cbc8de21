"""Settling finished boards: row points, scoops, fouls and royalties, pair by pair.

Every pair of players settles on its own (A-B, A-C, B-C ...) and a player's total is the sum
of their pairs. Points are zero-sum within a pair. Classic Chinese Poker adds what a pair of
sets cannot say (``Rules.showdown``): a player may surrender, or declare a natural, and a
player who scoops every other player may be paid a sweep bonus by each (``settle_table``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fantasyland.evaluator.board import BoardError, BoardReport, evaluate_board
from fantasyland.evaluator.cards import CardError, card_name, parse_cards
from fantasyland.evaluator.naturals import Held, best_natural, settle_naturals
from fantasyland.evaluator.rules import ROWS, Rules, Scoring


def row_results(a: BoardReport, b: BoardReport) -> tuple[int, int, int]:
    """+1, 0 or -1 for each row (top, middle, bottom) from ``a``'s side, neither fouled."""
    return tuple((x > y) - (x < y) for x, y in
                 ((a.row(r).value, b.row(r).value) for r in ROWS))  # type: ignore[return-value]


def settle(a: BoardReport, b: BoardReport, *, scoring: Scoring | None = None) -> int:
    """Points ``a`` wins from ``b`` (negative when ``a`` pays).

    >>> from evaluator.board import evaluate_board
    >>> ivey = evaluate_board("6s6c4h / TdTs9cQs8c / 3h3d3s2h2d", rules="standard")
    >>> hellmuth = evaluate_board("AhKdQd / 9h9d5h5d4c / KsJs9s8s7s", rules="standard")
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


def score_table(boards: Sequence[BoardReport], *, scoring: Scoring | None = None) -> TableResult:
    """Settle every pair among 2 to 4 players."""
    if not 2 <= len(boards) <= 4:
        raise ValueError(f"a table has 2 to 4 players, got {len(boards)}")
    pairs = tuple(tuple(0 if i == j else settle(a, b, scoring=scoring)
                        for j, b in enumerate(boards))
                  for i, a in enumerate(boards))
    return TableResult(pairs)


def scoops(a: BoardReport, b: BoardReport) -> bool:
    """Whether ``a`` wins all three rows from ``b``: every row higher, or ``b`` fouled and
    ``a`` not (a fouled set loses every row)."""
    if a.fouled:
        return False
    return b.fouled or row_results(a, b) == (1, 1, 1)


@dataclass(frozen=True)
class Seat:
    """A player at the showdown: a finished set (``report``), or a declared natural, or a
    surrender (then neither is shown)."""

    report: BoardReport | None = None
    natural: Held | None = None
    surrendered: bool = False
    cards: tuple[int, ...] = ()  # a declared natural's 13 cards, when known

    def __post_init__(self) -> None:
        if (self.report is not None) + (self.natural is not None) + self.surrendered != 1:
            raise ValueError("a seat is a finished set, a declared natural or a surrender")

    @property
    def shown(self) -> tuple[int, ...]:
        """The cards the seat shows."""
        return self.report.board.cards if self.report is not None else self.cards


def settle_table(seats: Sequence[Seat], rules: Rules) -> TableResult:
    """Settle a table of 2 to 4 players under ``rules``, every pair on its own.

    A player who surrenders pays ``rules.showdown.surrender`` to each other player (two who
    surrender pay each other alike). A declared natural wins its value from every set; two
    settle by the schedule (``evaluator.naturals.settle_naturals``). Sets settle as
    ``settle`` says, and a player who scoops every other player (all of them sets, three or
    more players) is paid ``sweep_bonus`` more by each.
    """
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"a table has 2 to 4 players, got {len(seats)}")
    showdown = rules.showdown
    if any(seat.surrendered for seat in seats) and showdown.surrender is None:
        raise ValueError(f"{rules.name} has no surrender")
    if any(seat.natural is not None for seat in seats) and not showdown.naturals.hands:
        raise ValueError(f"{rules.name} pays no naturals")
    n = len(seats)
    pairs = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            points = _settle_pair(seats[i], seats[j], rules)
            pairs[i][j], pairs[j][i] = points, -points
    if n >= 3 and showdown.sweep_bonus:
        for i, seat in enumerate(seats):
            if seat.report is not None and all(
                    other.report is not None and scoops(seat.report, other.report)
                    for j, other in enumerate(seats) if j != i):
                for j in range(n):
                    if j != i:
                        pairs[i][j] += showdown.sweep_bonus
                        pairs[j][i] -= showdown.sweep_bonus
    return TableResult(tuple(map(tuple, pairs)))


def _settle_pair(a: Seat, b: Seat, rules: Rules) -> int:
    showdown = rules.showdown
    if a.surrendered or b.surrendered:
        cost = showdown.surrender
        assert cost is not None, "settle_table refuses a surrender the rules do not have"
        return (cost if b.surrendered else 0) - (cost if a.surrendered else 0)
    if a.natural is not None and b.natural is not None:
        return settle_naturals(a.natural, b.natural, showdown.naturals)
    if a.natural is not None:
        return a.natural.natural.value
    if b.natural is not None:
        return -b.natural.natural.value
    # a seat that neither surrenders nor declares a natural shows a set (``Seat`` checks)
    assert a.report is not None and b.report is not None
    return settle(a.report, b.report, scoring=rules.scoring)


def read_seat(text: str, rules: Rules) -> Seat:
    """A seat as a player types it: a finished set (``"TOP / MIDDLE / BOTTOM"``), or
    ``"surrender"``, or ``"natural"`` and the 13 cards of a declared natural. Raises
    ``CardError`` naming what cannot be."""
    words = text.strip()
    if words.lower() == "surrender":
        if rules.showdown.surrender is None:
            raise CardError(f"bad seat {words!r}: {rules.name} has no surrender")
        return Seat(surrendered=True)
    if words.lower().startswith("natural"):
        cards = parse_cards(words[len("natural"):], deck=rules.deck)
        if len(cards) != 13:
            raise CardError(f"bad natural {words!r}: expected 'natural' and the 13 cards "
                            f"dealt, got {len(cards)} cards")
        if not rules.showdown.naturals.hands:
            raise CardError(f"bad seat {words!r}: {rules.name} pays no special hands")
        held = best_natural(cards, rules.showdown.naturals)
        if held is None:
            schedule = ", ".join(n.name for n in rules.showdown.naturals.hands)
            raise CardError(f"bad natural {words!r}: these cards hold none of {rules.name}'s "
                            f"special hands ({schedule})")
        return Seat(natural=held, cards=tuple(cards))
    return Seat(evaluate_board(words, rules=rules))


def check_table(seats: Sequence[Seat], rules: Rules, texts: Sequence[str]) -> None:
    """Refuse a card in more seats than the deck holds it, naming the card and the seats."""
    where: dict[int, list[int]] = {}
    for i, seat in enumerate(seats):
        for card in seat.shown:
            where.setdefault(card, []).append(i)
            if len(where[card]) > rules.deck.copies(card):
                first = where[card][0]
                raise BoardError(f"card {card_name(card, ascii=True)!r} is in "
                                 f"{texts[first]!r} and in {texts[i]!r}: the deck holds it "
                                 + ("once" if rules.deck.copies(card) == 1 else "twice"))
