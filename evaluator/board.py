"""A finished board (top, middle, bottom) and what the rules make of it.

A foul is a result, not an exception: ``evaluate_board`` reports it with its reasons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from evaluator.cards import Card, CardError, format_cards, parse_cards
from evaluator.handspec import Scale
from evaluator.rules import ROW_SIZE, ROWS, Rules
from evaluator.rules_files import find_rules
from evaluator.strength import (class_name, hand_name, lowball_array, lowball_class_name,
                                lowball_name, rank3_array, rank5_array)


class BoardError(CardError):
    """Text that is not a board of 3 / 5 / 5 distinct cards."""


@dataclass(frozen=True)
class Board:
    """Three rows of cards: top (3), middle (5), bottom (5)."""

    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]

    def row(self, name: str) -> tuple[Card, ...]:
        return getattr(self, name)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.top + self.middle + self.bottom

    def format(self, ascii: bool = False) -> str:
        return " / ".join(format_cards(self.row(r), ascii) for r in ROWS)


def parse_board(text: str) -> Board:
    """Parse ``"TOP / MIDDLE / BOTTOM"`` (``|`` also separates rows); 13 cards with no
    separator are read in that order, 3 / 5 / 5.

    >>> parse_board("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d").format(ascii=True)
    '6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d'
    >>> parse_board("6s 6c / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
    Traceback (most recent call last):
    ...
    evaluator.board.BoardError: the top row has 2 cards ('6s 6c'): expected 3
    """
    parts = re.split(r"[/|]", text)
    if len(parts) == 1:
        cards = parse_cards(text)
        if len(cards) != 13:
            raise BoardError(f"got {len(cards)} cards in {text.strip()!r}: a set is 13 cards, "
                             "typed as TOP / MIDDLE / BOTTOM (3 / 5 / 5)")
        rows = [cards[:3], cards[3:8], cards[8:]]
    elif len(parts) != 3:
        raise BoardError(f"expected three rows separated by '/' (top / middle / bottom), "
                         f"got {len(parts)} in {text.strip()!r}")
    else:
        rows = []
        for name, part in zip(ROWS, parts):
            cards = parse_cards(part)
            if len(cards) != ROW_SIZE[name]:
                raise BoardError(f"the {name} row has {len(cards)} cards ({part.strip()!r}): "
                                 f"expected {ROW_SIZE[name]}")
            rows.append(cards)
    board = Board(*rows)
    _check_board(board)
    return board


def _check_board(board: Board) -> None:
    """Refuse a board whose rows are not 3 / 5 / 5 distinct cards 0..51."""
    seen: dict[Card, str] = {}
    for name in ROWS:
        cards = board.row(name)
        if len(cards) != ROW_SIZE[name]:
            raise BoardError(f"the {name} row has {len(cards)} cards: expected {ROW_SIZE[name]}")
        for card in cards:
            if not isinstance(card, Integral) or not 0 <= card < 52:
                raise BoardError(f"the {name} row holds {card!r}: expected a card 0..51")
            if card in seen:
                where = (f"twice in the {name} row" if seen[card] == name
                         else f"in the {seen[card]} and {name} rows")
                raise BoardError(f"duplicate card {format_cards([card], ascii=True)!r} {where}")
            seen[card] = name


def row_values(row: str, cards: np.ndarray, rules: Rules) -> np.ndarray:
    """Values of an ``(n, 3|5)`` card array on ``row``'s own scale (higher is better)."""
    if rules.scale(row) is Scale.DEUCE_TO_SEVEN:
        return lowball_array(cards)
    return rank3_array(cards) if cards.shape[1] == 3 else rank5_array(cards)


def row_strengths(cards: np.ndarray) -> np.ndarray:
    """Strengths on the shared high scale, which decides the foul order."""
    return rank3_array(cards) if cards.shape[1] == 3 else rank5_array(cards)


@dataclass(frozen=True)
class RowReport:
    row: str
    cards: tuple[Card, ...]
    value: int  # on the row's own scale: what row-against-row comparisons use
    strength: int  # on the high scale: what the foul order uses
    class_name: str
    name: str
    royalty: int


@dataclass(frozen=True)
class Royalties:
    top: int
    middle: int
    bottom: int

    @property
    def total(self) -> int:
        return self.top + self.middle + self.bottom


@dataclass(frozen=True)
class BoardReport:
    board: Board
    rules: Rules
    top: RowReport
    middle: RowReport
    bottom: RowReport
    foul_reasons: tuple[str, ...]
    stay_rows: tuple[str, ...]  # rows that keep the player in Fantasyland
    fantasyland_cards: int | None  # cards dealt on entering Fantasyland, None if not entering

    def row(self, name: str) -> RowReport:
        return getattr(self, name)

    @property
    def fouled(self) -> bool:
        return bool(self.foul_reasons)

    @property
    def royalties(self) -> Royalties:
        if self.fouled:
            return Royalties(0, 0, 0)
        return Royalties(self.top.royalty, self.middle.royalty, self.bottom.royalty)

    @property
    def stays(self) -> bool:
        """Whether this board, played in Fantasyland, earns a repeat."""
        return bool(self.stay_rows)


def _row_report(row: str, cards: tuple[Card, ...], rules: Rules) -> RowReport:
    array = np.array([cards], dtype=np.int64)
    value = int(row_values(row, array, rules)[0])
    strength = int(row_strengths(array)[0])
    if rules.scale(row) is Scale.DEUCE_TO_SEVEN:
        name, cls = lowball_name(value), lowball_class_name(value)
    else:
        name, cls = hand_name(strength), class_name(strength)
    return RowReport(row, cards, value, strength, cls, name,
                     int(rules.royalty_table(row)[value]))


def evaluate_board(board: Board | str, rules: Rules | str = "standard") -> BoardReport:
    """Fouls, royalties, Fantasyland entry and staying for a finished board."""
    if isinstance(board, str):
        board = parse_board(board)
    else:
        _check_board(board)  # a Board built in code skips the parser's checks
    rules = find_rules(rules)
    reports = {row: _row_report(row, board.row(row), rules) for row in ROWS}
    reasons = []
    for stronger, weaker in rules.order_pairs:
        if reports[stronger].strength < reports[weaker].strength:
            kickers = " on kickers" if reports[weaker].name == reports[stronger].name else ""
            reasons.append(f"the {weaker} row ({reports[weaker].name}) beats the {stronger} row "
                           f"({reports[stronger].name}){kickers}")
    for requirement in rules.qualify:
        report = reports[requirement.row]
        if not rules.qualify_table(requirement.row)[report.value]:
            reasons.append(f"the {requirement.row} row ({report.name}) must be "
                           f"{requirement.spec} or better")
    fouled = bool(reasons)
    stay_rows = () if fouled else tuple(
        row for row in ROWS if rules.stay_table(row)[reports[row].value])
    entry = None
    if not fouled:
        met = [rung.cards for rung in rules.entry
               if all(rules.meets(req, reports[req.row].value) for req in rung.requires)]
        entry = max(met, default=None)
    return BoardReport(board, rules, reports["top"], reports["middle"], reports["bottom"],
                       tuple(reasons), stay_rows, entry)
