"""The player's moves: a street's play, or a Fantasyland set, read as the player types them.

A street is typed as ``train --ordinary`` and ``advise`` read it (``plays.read_play``): each
kept card and its row, ``Kd top 7c mid 3h x`` or the adviser's own ``Kd top, 7c middle,
discard 3h``. A Fantasyland set is typed as ``train`` reads it, ``TOP / MIDDLE / BOTTOM``,
the cards left out being the discards. A move that cannot be made raises ``MoveError``,
which quotes the input and says what was expected; nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.ordinary.plays import Play, read_play
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.play.grades import set_text


class MoveError(InputError):
    """A move that cannot be made where the player is: the message quotes it."""


@dataclass(frozen=True)
class StreetMove:
    """A street's play."""

    play: Play

    def describe(self) -> str:
        return self.play.describe()


@dataclass(frozen=True)
class SetMove:
    """A Fantasyland set and the cards it leaves out."""

    board: Board
    discards: tuple[Card, ...]

    def describe(self) -> str:
        return set_text(self.board, self.discards)


Move = StreetMove | SetMove


def read_street(position: Position, text: str) -> StreetMove:
    """The play ``text`` names on the player's street. Raises ``MoveError``."""
    try:
        return StreetMove(read_play(position, text))
    except InputError as error:
        raise MoveError(str(error)) from None


def read_set(rules: Rules, cards: Sequence[Card], text: str) -> SetMove:
    """The set ``text`` names for the Fantasyland hand ``cards``. Raises ``MoveError``."""
    from fantasyland.optimizer.training.grading import discards_of, parse_set

    try:
        board = parse_set(text, cards, deck=rules.deck)
    except InputError as error:
        raise MoveError(f"bad set {text.strip()!r}: {error}") from None
    return SetMove(board, discards_of(cards, board))
