"""The table during a hand: each seat's cards and board, and the player's turn.

A seat holds the run of cards it is dealt (``seating.runs``), its board so far (13 slots,
``opponents.layout``), its discards, and for a Fantasyland seat the set it made. The
player's ``Turn`` is what the player decides on: a street (its ``Position``) or a
Fantasyland hand, with the table the adviser values it against, as the player sees it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.layout import EMPTY
from fantasyland.optimizer.ordinary.plays import board_text
from fantasyland.optimizer.play.grades import decision_seed
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.play.settings import PlaySettings
from fantasyland.optimizer.solver.objective import ObjectiveName
from fantasyland.optimizer.solver.table import TableSpec, already_fouls, read_board


@dataclass
class SeatHand:
    """One seat's hand: its ``cards`` (in the order they arrive), the Fantasyland it plays
    (its cards; None for an ordinary hand), its board and discards so far."""

    seat: int
    cards: tuple[Card, ...]
    fantasyland: int | None
    layout: np.ndarray = field(default_factory=lambda: np.full(13, EMPTY, dtype=np.int64))
    discards: tuple[Card, ...] = ()
    board: Board | None = None  # a Fantasyland seat's set, hidden until the showdown

    def street_cards(self, rules: Rules, street: int) -> tuple[Card, ...]:
        """The cards of street ``street`` (0 the first) of an ordinary hand."""
        streets = rules.dealing.streets
        start = sum(count for count, _ in streets[:street])
        return self.cards[start:start + streets[street][0]]

    @property
    def placed(self) -> tuple[Card, ...]:
        return tuple(c for c in self.layout.tolist() if c != EMPTY)

    @property
    def known(self) -> tuple[Card, ...]:
        """The cards this seat has seen of its own: its board and its discards."""
        return self.placed + self.discards

    def place(self, layout: np.ndarray, new: Sequence[Card]) -> None:
        """Take the board ``layout`` left after being dealt ``new``: what it did not place
        of them is thrown away."""
        added = Counter(c for c in layout.tolist() if c != EMPTY)
        added.subtract(self.placed)
        left = Counter(new)
        left.subtract(added)
        self.layout = np.array(layout, dtype=np.int64)
        self.discards = self.discards + tuple(sorted(left.elements(), reverse=True))

    def set_board(self, board: Board) -> None:
        """A Fantasyland seat's set: the cards it leaves out are its discards."""
        left = Counter(self.cards)
        left.subtract(board.cards)
        self.board = board
        self.discards = tuple(sorted(left.elements(), reverse=True))

    def board_text(self) -> str:
        """The board, ``TOP / MIDDLE / BOTTOM``: the set in Fantasyland."""
        if self.board is not None:
            return self.board.format(ascii=True)
        return board_text(self.layout)

    def position(self, rules: Rules, new: tuple[Card, ...]) -> Position:
        """The player's position on a street dealt ``new`` (whether or not the board already
        fouls, which ``read_position`` would refuse)."""
        return Position(rules, read_board(board_text(self.layout), rules), new, self.discards)


@dataclass(frozen=True)
class Turn:
    """The player's turn: hand ``hand``, ``street`` (1 the first; 0 a Fantasyland hand to
    set), the street's ``position`` (None in Fantasyland), the ``cards`` dealt, and the
    ``table`` the adviser values it against."""

    hand: int
    street: int
    position: Position | None
    cards: tuple[Card, ...]
    table: TableSpec

    @property
    def fantasyland(self) -> bool:
        return self.position is None

    @property
    def fouled(self) -> bool:
        """The board already fouls, whatever is played."""
        return self.position is not None and already_fouls(self.position.board,
                                                           self.position.rules) is not None


def visible_boards(seats: Sequence[SeatHand], *, but: int) -> tuple[str, ...]:
    """The boards face up at the table but seat ``but``'s: the ordinary seats' with a card."""
    return tuple(board_text(s.layout) for s in seats
                 if s.seat != but and s.fantasyland is None and s.placed)


def player_table(rules: Rules, seats: Sequence[SeatHand], settings: PlaySettings) -> TableSpec:
    """The table the adviser values the player's decision against: under ev, the boards
    face up and the opponents in Fantasyland (their cards); under royalties, the count."""
    if settings.objective != ObjectiveName.EV:
        return TableSpec(opponents=settings.opponents)
    return TableSpec(opponents=settings.opponents, against=visible_boards(seats, but=0),
                     opponent_fantasyland=tuple(s.fantasyland for s in seats
                                                if s.seat != 0 and s.fantasyland is not None))


def hand_id(seed: int, hand: int) -> str:
    """The id the history gives a hand's streets: ``s1h3``, hand 3 of seed 1."""
    return f"s{seed}h{hand}"


def review_line(game, turn: Turn, move) -> dict:
    """The player's street as a line of ``review``'s history (cli/schemas/history.schema.json):
    the board before it, the cards, the play, the hand's id, the variant, the opponents,
    under ev the boards seen and the opponents in Fantasyland, and the seed the adviser
    valued the street with: what ``review`` needs to grade it against the same table."""
    assert turn.position is not None
    line = {"hand": hand_id(game.settings.seed, turn.hand), "variant": game.settings.variant,
            "board": board_text(turn.position.layout),
            "cards": _cards(turn.cards), "play": move.describe(),
            "opponents": game.settings.opponents,
            "seed": decision_seed(game.settings.seed, turn.hand, turn.street)}
    if turn.table.against:
        line["against"] = [str(b) for b in turn.table.against]
    if turn.table.opponent_fantasyland:
        line["opponent_fantasyland"] = list(turn.table.opponent_fantasyland)
    return line


def _cards(cards: Sequence[Card]) -> str:
    from fantasyland.evaluator.cards import format_cards

    return format_cards(cards, ascii=True)


def unseen_counts(rules: Rules, seats: Sequence[SeatHand], dealt: Sequence[Card]
                  ) -> tuple[dict[str, int], dict[str, int]]:
    """How many cards of each rank and of each suit the player has not seen: the deck less
    the player's board, discards and ``dealt`` cards, and the cards face up elsewhere."""
    from fantasyland.evaluator.cards import JOKER, RANK_CHARS, SUIT_CHARS, rank_of, suit_of

    left = Counter(rules.deck.cards)
    me = seats[0]
    left.subtract(me.known + tuple(dealt))
    left.subtract(c for s in seats if s.seat != 0 and s.fantasyland is None for c in s.placed)
    ranks = {r: 0 for r in reversed(RANK_CHARS)}
    suits = {s: 0 for s in SUIT_CHARS}
    for card, count in left.items():
        if card == JOKER or count <= 0:
            continue
        ranks[RANK_CHARS[rank_of(card)]] += count
        suits[SUIT_CHARS[suit_of(card)]] += count
    return ranks, suits
