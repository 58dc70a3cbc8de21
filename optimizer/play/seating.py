"""Who sits where, who acts when, and which cards each seat is dealt, hand by hand.

The player sits in seat 0 and the bots in seats 1, 2, ... The button moves one seat a hand;
the seat after the button acts first on every street and the button acts last. Each hand's
deck is shuffled once from the session's seed and the hand's deal number, so that a hand is
the same cards however the hands before it went (a resumed session deals it again alike),
and each acting position is dealt its own run of that deck: the first to act the first
cards, and so on, a Fantasyland seat as many as its size. Dealing the runs street by street
from the top in turn would hand out the same cards in law; runs keep a seat's cards its own
whoever sits there, which is what the duplicate mode replays.

In duplicate mode each deal is played once for every seat, the player taking each acting
position, and so each run of cards, in turn, the bots the others: over a deal's replays
every player has held every hand, and the luck of the cards cancels.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules

#: The player's seat.
PLAYER = 0


@dataclass(frozen=True)
class Seating:
    """One hand's table: ``players`` seats (the player and the bots) and the button's."""

    players: int
    button: int

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in the order they act: the one after the button first."""
        return tuple((self.button + 1 + k) % self.players for k in range(self.players))

    def position(self, seat: int) -> int:
        """When ``seat`` acts: 0 first, ``players - 1`` on the button."""
        return self.order.index(seat)

    def on_button(self, seat: int) -> bool:
        return seat == self.button


def deal_of(hand: int, players: int, *, duplicate: bool) -> tuple[int, int]:
    """Hand ``hand`` (1 the first) as (its deal number, its replay of that deal): each hand is
    a deal of its own, or under duplicate each deal is replayed once a seat."""
    if not duplicate:
        return hand, 0
    return (hand - 1) // players + 1, (hand - 1) % players


def seating_for(hand: int, players: int, *, duplicate: bool) -> Seating:
    """The table of hand ``hand``: the button on seat ``hand - 1`` (mod the seats); under
    duplicate, on the seat that puts the player in acting position ``deal + replay - 1``,
    so that the replays of a deal seat the player in every position once."""
    if not duplicate:
        return Seating(players, (hand - 1) % players)
    deal, replay = deal_of(hand, players, duplicate=True)
    wanted = (deal + replay - 1) % players
    # position(PLAYER) = (PLAYER - button - 1) mod players
    return Seating(players, (PLAYER - wanted - 1) % players)


def hand_deck(rules: Rules, seed: int, deal: int) -> tuple[Card, ...]:
    """The deck of deal ``deal`` of the session seeded ``seed``, shuffled once."""
    cards = list(rules.deck.cards)
    random.Random(f"play:{seed}:{deal}").shuffle(cards)
    return tuple(cards)


def runs(rules: Rules, deck: tuple[Card, ...], seating: Seating,
         fantasyland: Mapping[int, int]) -> dict[int, tuple[Card, ...]]:
    """Each seat's cards for the hand: in acting order, a run of the deck as long as what the
    seat sees, the ordinary hand's cards or its Fantasyland's (``fantasyland``: seat to
    cards)."""
    seen = rules.dealing.seen
    out: dict[int, tuple[Card, ...]] = {}
    start = 0
    for seat in seating.order:
        count = fantasyland.get(seat, seen)
        out[seat] = deck[start:start + count]
        start += count
    if start > len(deck):  # Rules.seats bounds the table: this would be a bug
        raise RuntimeError(f"a deck of {len(deck)} cards cannot deal {start}")
    return out
