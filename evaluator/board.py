"""A finished board (top, middle, bottom) and what the rules make of it.

A foul is a result, not an exception: ``evaluate_board`` reports it with its reasons.

A board may hold jokers. The faces they stand for are part of the board (``Board.jokers``),
given by whoever chose them (the solver says what its set plays as), or else chosen by
``evaluate_board`` for the whole set (docs/rules.md, "Jokers"): the faces that make it worth
the most without fouling, so a joker may be played down to keep the set legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from fantasyland.evaluator.cards import (JOKER, ONE_DECK, Card, CardError, Deck, format_cards,
                                         parse_cards)
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.jokers import played_as, substitutes
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Row, Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.evaluator.strength import (class_name, hand_name, lowball_array,
                                            lowball_class_name, lowball_name, rank3_array,
                                            rank5_array)


class BoardError(CardError):
    """Text that is not a board of 3 / 5 / 5 distinct cards."""


@dataclass(frozen=True, repr=False)
class Board:
    """Three rows of cards: top (3), middle (5), bottom (5). ``jokers`` are the faces the
    board's jokers stand for, in board order (top to bottom, left to right); empty until
    they are chosen."""

    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    jokers: tuple[Card, ...] = ()

    def row(self, name: str) -> tuple[Card, ...]:
        cards: tuple[Card, ...] = getattr(self, name)
        return cards

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.top + self.middle + self.bottom

    @property
    def joker_count(self) -> int:
        return self.cards.count(JOKER)

    def faces(self, name: str) -> tuple[Card, ...]:
        """The faces the jokers of row ``name`` stand for, in order (empty if unchosen)."""
        if not self.jokers:
            return ()
        before = sum(self.row(r).count(JOKER) for r in ROWS[:ROWS.index(name)])
        return self.jokers[before:before + self.row(name).count(JOKER)]

    def played(self, name: str) -> tuple[Card, ...]:
        """Row ``name`` as it plays: each joker replaced by the face it stands for."""
        return played_as(self.row(name), self.faces(name))

    def with_jokers(self, faces: tuple[Card, ...]) -> Board:
        return Board(self.top, self.middle, self.bottom, tuple(faces))

    def format(self, *, ascii: bool = False) -> str:
        return " / ".join(format_cards(self.row(r), ascii=ascii) for r in ROWS)

    def __repr__(self) -> str:
        """The set as text that ``parse_board`` reads back, and the faces its jokers play.

        >>> parse_board("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
        <Board 6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d>
        """
        faces = f" (jokers as {format_cards(self.jokers, ascii=True)})" if self.jokers else ""
        return f"<Board {self.format(ascii=True)}{faces}>"


def parse_board(text: str, *, deck: Deck = ONE_DECK) -> Board:
    """Parse ``"TOP / MIDDLE / BOTTOM"`` (``|`` also separates rows); 13 cards with no
    separator are read in that order, 3 / 5 / 5. ``deck`` says how many of each card (and
    how many jokers) a board may hold.

    >>> parse_board("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d").format(ascii=True)
    '6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d'
    >>> parse_board("6s 6c / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
    Traceback (most recent call last):
    ...
    fantasyland.evaluator.board.BoardError: the top row has 2 cards ('6s 6c'): expected 3
    """
    parts = re.split(r"[/|]", text)
    if len(parts) == 1:
        cards = parse_cards(text, deck=deck)
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
            cards = parse_cards(part, deck=deck)
            if len(cards) != ROW_SIZE[name]:
                raise BoardError(f"the {name} row has {len(cards)} cards ({part.strip()!r}): "
                                 f"expected {ROW_SIZE[name]}")
            rows.append(cards)
    board = Board(*rows)
    _check_board(board, deck)
    return board


def _check_board(board: Board, deck: Deck = ONE_DECK) -> None:
    """Refuse a board whose rows are not 3 / 5 / 5 cards of ``deck``, or whose jokers stand
    for other than one face each."""
    seen: dict[Card, list[str]] = {}
    for name in ROWS:
        cards = board.row(name)
        if len(cards) != ROW_SIZE[name]:
            raise BoardError(f"the {name} row has {len(cards)} cards: expected {ROW_SIZE[name]}")
        for card in cards:
            if not isinstance(card, Integral) or not 0 <= card <= JOKER:
                raise BoardError(f"the {name} row holds {card!r}: expected a card 0..51 or a "
                                 f"joker ({JOKER})")
            rows = seen.setdefault(card, [])
            rows.append(name)
            if len(rows) > deck.copies(card):
                shown = format_cards([card], ascii=True)
                named = list(dict.fromkeys(rows))
                where = (f"twice in the {name} row" if rows.count(name) == len(rows) == 2
                         else f"in the {named[0]} row" if len(named) == 1
                         else f"in the {' and '.join(named)} rows")
                if card == JOKER or deck.decks > 1:
                    try:
                        deck.check([card] * len(rows))
                    except CardError as error:
                        raise BoardError(f"{error} ({where})") from None
                raise BoardError(f"duplicate card {shown!r} {where}")
    if board.jokers and (len(board.jokers) != board.joker_count
                         or not all(isinstance(f, Integral) and 0 <= f < 52
                                    for f in board.jokers)):
        raise BoardError(f"a board with {board.joker_count} jokers stands them for "
                         f"{len(board.jokers)} faces {list(board.jokers)}: expected one face "
                         "0..51 for each")


def row_values(row: str, cards: np.ndarray, rules: Rules) -> np.ndarray:
    """Values of an ``(n, 3|5)`` card array on ``row``'s own scale (higher is better)."""
    if rules.scale(row) is Scale.DEUCE_TO_SEVEN:
        return lowball_array(cards)
    return rank3_array(cards) if cards.shape[1] == 3 else rank5_array(cards)


def row_strengths(cards: np.ndarray) -> np.ndarray:
    """Strengths on the shared high scale, which decides the foul order."""
    return rank3_array(cards) if cards.shape[1] == 3 else rank5_array(cards)


@dataclass(frozen=True, repr=False)
class RowReport:
    row: str
    cards: tuple[Card, ...]  # as dealt, jokers included
    played: tuple[Card, ...]  # as it plays: each joker the face it stands for
    value: int  # on the row's own scale: what row-against-row comparisons use
    strength: int  # on the high scale: what the foul order uses
    class_name: str
    name: str
    royalty: int

    @property
    def faces(self) -> tuple[Card, ...]:
        """The faces the row's jokers stand for, in the row's order (empty without jokers)."""
        return tuple(face for card, face in zip(self.cards, self.played) if card == JOKER)

    def __repr__(self) -> str:
        played = (f" as {format_cards(self.played, ascii=True)}" if self.played != self.cards
                  else "")
        return (f"<RowReport {self.row} {format_cards(self.cards, ascii=True)}{played}: "
                f"{self.name}, royalty {self.royalty}>")


@dataclass(frozen=True)
class Royalties:
    top: int
    middle: int
    bottom: int

    @property
    def total(self) -> int:
        return self.top + self.middle + self.bottom


@dataclass(frozen=True, repr=False)
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
        report: RowReport = getattr(self, name)
        return report

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

    def __repr__(self) -> str:
        """The set, and what it scores under its rules.

        >>> evaluate_board(parse_board("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"))
        <BoardReport 6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d: royalties 7, stays no (standard)>
        """
        return f"<BoardReport {self.board.format(ascii=True)}: {summary(self)} ({self.rules.name})>"


def summary(report: BoardReport) -> str:
    """What a set scores, in a few words: ``royalties 7, stays no``, or ``fouls``."""
    if report.fouled:
        return "fouls"
    return f"royalties {report.royalties.total}, stays {'yes' if report.stays else 'no'}"


def _row_report(row: str, cards: tuple[Card, ...], played: tuple[Card, ...],
                rules: Rules) -> RowReport:
    array = np.array([played], dtype=np.int64)
    value = int(row_values(row, array, rules)[0])
    strength = int(row_strengths(array)[0])
    if rules.scale(row) is Scale.DEUCE_TO_SEVEN:
        name, cls = lowball_name(value), lowball_class_name(value)
    else:
        name, cls = hand_name(strength), class_name(strength)
    return RowReport(row, cards, played, value, strength, cls, name,
                     int(rules.royalty_table(row)[value]))


def _row_choices(row: str, cards: tuple[Card, ...], rules: Rules, elsewhere: set[Card],
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                            np.ndarray]:
    """Each distinct way row ``cards`` can play (its jokers' faces): the faces, and the
    value, strength, royalty, stay and qualify of each, as arrays. Of the faces that play
    alike, those not on the board already (``elsewhere``) are preferred: a joker shown as a
    card that is in another row is legal, but reads oddly."""
    faces = _faces_tried(cards, rules, elsewhere)
    played = np.array([played_as(cards, f) for f in faces], dtype=np.int64).reshape(
        len(faces), len(cards))
    value, strength = row_values(row, played, rules), row_strengths(played)
    clash = np.array([sum(f in elsewhere for f in choice) for choice in faces])
    order = np.lexsort((clash, value, strength))
    key = np.stack([strength, value], axis=1)[order]
    first = order[np.concatenate([[True], (key[1:] != key[:-1]).any(axis=1)])]
    played, value, strength = played[first], value[first], strength[first]
    faces = np.asarray(faces, dtype=np.int64).reshape(len(faces), -1)[first]
    return (faces, value, strength, rules.royalty_table(row)[value],
            rules.stay_table(row)[value], rules.qualify_table(row)[value])


def _faces_tried(cards: tuple[Card, ...], rules: Rules,
                 elsewhere: set[Card]) -> list[tuple[Card, ...]]:
    """The faces worth trying for the row's jokers (``substitutes``), and for each the same
    ranks in suits not on the board, where the row's jokers can take them and stay a
    flush or not as they were."""
    _, played = substitutes(np.array([cards], dtype=np.int64), rules.deck)
    at = [i for i, card in enumerate(cards) if card == JOKER]
    tried = [tuple(int(c) for c in hand[at]) for hand in played]
    real = [card for card in cards if card != JOKER]
    more = []
    for faces in tried:
        for suit in range(4):  # the same ranks, all in one other suit if free
            other = tuple((face & ~3) | suit for face in faces)
            if other != faces and not set(other) & set(real) and len(set(other)) == len(other):
                more.append(other)
    return tried + more


def plainest_faces(board: Board, rules: Rules) -> Board:
    """The board with each joker's face replaced, where it can be, by one that plays the
    row exactly as well (the same strength, so the same value) and is not on the board
    already."""
    if not board.jokers:
        return board
    return faces_playing(board, {row: int(row_strengths(np.array([board.played(row)]))[0])
                                 for row in ROWS if board.faces(row)}, rules)


def faces_playing(board: Board, strengths: dict[str, int], rules: Rules) -> Board:
    """The board with the faces of its jokers chosen so that each row holding one plays at
    ``strengths[row]`` (on the high scale), preferring faces not on the board already.
    Raises ``ValueError`` if a row cannot play at its strength."""
    elsewhere = {card for card in board.cards if card != JOKER}
    faces = []
    for row in ROWS:
        cards = board.row(row)
        if JOKER not in cards:
            continue
        # The first of the faces ``substitutes`` tries that plays at the strength and shows
        # no card of the board; failing that, every face tried (``_row_choices``).
        _, played = substitutes(np.array([cards], dtype=np.int64), rules.deck)
        at = [i for i, card in enumerate(cards) if card == JOKER]
        match = played[row_strengths(played) == strengths[row]][:, at]
        fresh = [choice for choice in match.tolist() if not set(choice) & elsewhere]
        if fresh:
            faces += fresh[0]
            continue
        choices, _, strength = _row_choices(row, cards, rules, elsewhere)[:3]
        match = np.flatnonzero(strength == strengths[row])
        if not len(match):
            raise ValueError(f"the {row} {format_cards(cards, ascii=True)} cannot play at "
                             f"strength {strengths[row]}")
        faces += [int(f) for f in choices[match[0]]]
    return board.with_jokers(tuple(faces))


def choose_jokers(board: Board, rules: Rules) -> Board:
    """The board with its jokers' faces chosen for the whole set: legal if any choice is,
    then worth the most (royalties, plus the rules' worth of staying if it stays), then the
    strongest bottom, middle and top. A fouled board gets each row at its strongest."""
    elsewhere = {card for card in board.cards if card != JOKER}
    choices = {row: _row_choices(row, board.row(row), rules, elsewhere) for row in ROWS}
    sizes = [len(choices[row][0]) for row in ROWS]
    index = dict(zip(ROWS, (grid.ravel() for grid in np.meshgrid(
        *(np.arange(n) for n in sizes), indexing="ij"))))
    pick = {row: {name: part[index[row]] for name, part in zip(
        ("faces", "value", "strength", "royalty", "stays", "qualifies"), choices[row])}
        for row in ROWS}
    legal = np.ones(len(index[Row.TOP]), dtype=bool)
    for stronger, weaker in rules.order_pairs:
        legal &= pick[stronger]["strength"] >= pick[weaker]["strength"]
    for row in ROWS:
        legal &= pick[row]["qualifies"]
    stays = np.zeros(len(legal), dtype=bool)
    for row in ROWS:
        stays |= pick[row]["stays"]
    worth = sum(pick[row]["royalty"] for row in ROWS) + np.where(stays, rules.repeat_value, 0)
    order = np.lexsort(tuple(pick[row]["strength"] for row in ROWS)
                       + (np.where(legal, worth, -np.inf), legal))
    best = order[-1]
    return board.with_jokers(tuple(int(face) for row in ROWS for face in pick[row]["faces"][best]))


def evaluate_board(board: Board | str, *, rules: Rules | str = "standard") -> BoardReport:
    """Fouls, royalties, Fantasyland entry and staying for a finished board; a board whose
    jokers stand for no faces yet gets the faces ``choose_jokers`` picks."""
    rules = find_rules(rules)
    if isinstance(board, str):
        board = parse_board(board, deck=rules.deck)
    else:
        _check_board(board, rules.deck)  # a Board built in code skips the parser's checks
    if board.joker_count and not board.jokers:
        board = choose_jokers(board, rules)
    reports = {row: _row_report(row, board.row(row), board.played(row), rules) for row in ROWS}
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
    return BoardReport(board, rules, reports[Row.TOP], reports[Row.MIDDLE], reports[Row.BOTTOM],
                       tuple(reasons), stay_rows, entry)
