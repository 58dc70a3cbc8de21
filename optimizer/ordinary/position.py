"""A decision in an ordinary hand: the board so far, the cards just dealt, and what is dead.

A street starts where the last one ended: under Pineapple (``three-keep-two``) the first
street deals 5 cards onto an empty board and each later one deals 3 onto a board of 5, 7, 9
or 11 cards, of which 2 are kept; under classic OFC (``one-at-a-time``) 5, then 1 a street.
``read_position`` checks a position as a player types it and refuses, with one line that
quotes the input, what cannot be: a row with too many cards, a card in two places, a board
that already fouls, a board between streets, or the wrong number of cards for the street.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card, format_cards, parse_cards
from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS
from fantasyland.optimizer.opponents.params import Dealing
from fantasyland.optimizer.opponents.pools import dealing_for
from fantasyland.optimizer.solver.table import (
    KnownBoard,
    TableError,
    already_fouls,
    read_board,
    refuse_copies,
)


class PositionError(InputError):
    """A position that cannot be played: the message quotes the input and says what was
    expected."""


@dataclass(frozen=True)
class Position:
    """The player's ``board`` so far (rows possibly short), the ``cards`` just dealt, and
    the ``dead`` cards: seen elsewhere, or thrown away earlier in the hand."""

    rules: Rules
    board: KnownBoard
    cards: tuple[Card, ...]
    dead: tuple[Card, ...] = ()

    @property
    def dealing(self) -> Dealing:
        return dealing_for(self.rules)

    @property
    def placed(self) -> int:
        return len(self.board.cards)

    @property
    def keep(self) -> int:
        """Cards this street keeps: all five on the first street, else ``dealing.keep``."""
        return len(self.cards) if self.placed == 0 else self.dealing.keep

    @property
    def street(self) -> int:
        """1 for the first street (5 cards), then 2, 3, ..."""
        return 1 if self.placed == 0 else 2 + (self.placed - self.dealing.first) \
            // self.dealing.keep

    @property
    def rounds_left(self) -> int:
        """Streets still to come after this one: 0 on the last street, where every play
        finishes the board."""
        return (13 - self.placed - self.keep) // self.dealing.keep

    @property
    def last_street(self) -> bool:
        return self.rounds_left == 0

    @cached_property
    def layout(self) -> np.ndarray:
        """The board as 13 slots (``optimizer.opponents.layout``), ``EMPTY`` where no card is."""
        layout = np.full(13, EMPTY, dtype=np.int64)
        for row in ROWS:
            cards = self.board.row(row)
            layout[list(ROW_SLOTS[row])[:len(cards)]] = cards
        layout.flags.writeable = False
        return layout

    @property
    def known(self) -> tuple[Card, ...]:
        """Every card the player knows is out of the deck: the board, the cards just dealt,
        and the dead cards."""
        return self.board.cards + self.cards + self.dead

    def record(self) -> dict:
        """The position as plain data (JSON)."""
        return {"board": self.board.format(ascii=True),
                "cards": format_cards(self.cards, ascii=True),
                "dead": format_cards(self.dead, ascii=True), "street": self.street,
                "rounds_left": self.rounds_left}


def street_starts(dealing: Dealing) -> tuple[int, ...]:
    """The board sizes a street starts from: 0, then 5, 7, 9 and 11 under Pineapple."""
    return (0,) + tuple(dealing.first + k * dealing.keep for k in range(dealing.rounds))


def _dealt_for(dealing: Dealing, placed: int) -> int:
    return dealing.first if placed == 0 else dealing.per_round


def read_position(rules: Rules, board: str | Board, cards: str | Sequence[Card],
                  *, discards: str | Sequence[Card] = ()) -> Position:
    """The position of a player whose board is ``board`` (``"TOP / MIDDLE / BOTTOM"``, rows
    short or empty) when ``cards`` are dealt, the player's own earlier ``discards`` being out
    of the deck (the position's first ``dead`` cards). Raises ``PositionError``."""
    if rules.dealing.closed:
        raise PositionError(f"{rules.name} sets all 13 cards at once: there are no streets to "
                            "advise on (use solve)")
    try:
        seen = read_board(board, rules)
        dealt = tuple(parse_cards(cards, deck=rules.deck)) if isinstance(cards, str) \
            else tuple(cards)
        gone = tuple(parse_cards(discards, deck=rules.deck)) if isinstance(discards, str) \
            else tuple(discards)
    except ValueError as error:
        raise PositionError(str(error)) from None
    text = seen.text or seen.format(ascii=True)
    dealing = dealing_for(rules)
    placed = len(seen.cards)
    if placed == 13:
        raise PositionError(f"the board {text!r} is finished: there is nothing left to play")
    starts = street_starts(dealing)
    if placed not in starts:
        raise PositionError(
            f"the board {text!r} holds {placed} cards, between streets under {rules.name}: "
            f"a street starts from {', '.join(map(str, starts[:-1]))} or {starts[-1]} cards")
    wanted = _dealt_for(dealing, placed)
    if len(dealt) != wanted:
        shown = format_cards(dealt, ascii=True) or "none"
        keep = wanted if placed == 0 else dealing.keep
        raise PositionError(
            f"got {len(dealt)} dealt card{'s' * (len(dealt) != 1)} ({shown}): the street "
            f"after a board of {placed} cards deals {wanted}"
            + (f", keeping {keep}" if keep != wanted else ""))
    try:
        refuse_copies(rules, [("the board", seen.cards), ("the dealt cards", dealt),
                              ("your discards", gone)])
    except TableError as error:
        raise PositionError(str(error)) from None
    why = already_fouls(seen, rules)
    if why is not None:
        raise PositionError(f"the board {text!r} already fouls ({why}): no play can save it")
    return Position(rules, seen, dealt, gone)
