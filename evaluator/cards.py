"""Cards as plain ints, the deck they are dealt from, and the parser and formatter.

A card is ``rank * 4 + suit`` with ranks ``2..A`` as 0..12 and suits ``c d h s`` as 0..3,
so ``2c`` is 0 and ``As`` is 51; a joker is ``JOKER`` (52). A card is its face, not one
physical card: under two decks a hand may hold ``As`` twice, as the same int twice, and the
positions of a dealt hand (not its ints) tell its cards apart. So every 52-card hand is what
it always was, and the evaluator's tables index ranks and suits by ``card >> 2`` and
``card & 3`` as before; a joker is resolved to a face before any table sees it
(``evaluator.jokers``). Only this module knows about text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fantasyland.evaluator.errors import InputError

Card = int

#: The joker: wild, it stands for a face chosen when the set is scored (``evaluator.jokers``).
JOKER: Card = 52
JOKER_SYMBOL = "\N{PLAYING CARD BLACK JOKER}"

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines",
                "Tens", "Jacks", "Queens", "Kings", "Aces")

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUIT_CHARS)}
_SUIT_OF_CHAR.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
_SUIT_OF_CHAR.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})  # the outlined variants
_RANK_OF_TEXT = {c: i for i, c in enumerate(RANK_CHARS)}
_RANK_OF_TEXT["10"] = 8

# A card is a rank (``10`` or one character) followed by a suit (letter or symbol), or a
# joker (``Jk``, ``joker``, the joker symbol); ``joker`` before ``Jk``, and both before a jack.
_TOKEN = re.compile("(joker|jk|\N{PLAYING CARD BLACK JOKER})|(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])",
                    re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")
# Emoji presentation selectors that phones append to suit symbols (``A♠️``) carry no meaning.
_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


class CardError(InputError):
    """Cards that cannot be read: a bad token, a duplicate, or a wrong count."""


@dataclass(frozen=True)
class Deck:
    """What is dealt (a rules file's ``[deck]``): ``decks`` copies of the 52 faces, plus
    ``jokers``; ``five_of_a_kind`` says whether five cards of a rank rank as five of a kind
    (two decks always hold it; with one deck only jokers make it)."""

    decks: int = 1
    jokers: int = 0
    five_of_a_kind: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck, each face ``decks`` times, then the jokers."""
        return tuple(range(52)) * self.decks + (JOKER,) * self.jokers

    def copies(self, card: Card) -> int:
        """How many of ``card`` the deck holds."""
        return self.jokers if card == JOKER else self.decks

    def check(self, cards: Sequence[Card], *, tokens: Sequence[str] | None = None) -> None:
        """Refuse more of any card than the deck holds, naming the token."""
        names = tokens if tokens is not None else [card_name(c, ascii=True) for c in cards]
        seen: dict[Card, int] = {}
        for token, card in zip(names, cards):
            seen[card] = seen.get(card, 0) + 1
            if seen[card] <= self.copies(card):
                continue
            if card == JOKER:
                if self.jokers == 0:
                    raise CardError(f"bad card {token!r}: a joker, and these rules deal none "
                                    "(a rules file's [deck] jokers = 1 or 2 deals them)")
                raise CardError(f"too many jokers: {token!r} is joker {seen[card]}, and the "
                                f"deck holds {self.jokers}")
            if self.decks == 1:
                raise CardError(f"duplicate card {token!r}: each card can be dealt only once")
            raise CardError(f"a third {token!r}: two decks hold two of each card")


ONE_DECK = Deck()


def is_joker(card: Card) -> bool:
    return card == JOKER


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    return rank * 4 + suit


_EXPECTED = ("expected a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s or "
             "♣ ♦ ♥ ♠), or Jk for a joker")


def parse_card(text: str) -> Card:
    """Parse one card such as ``As``, ``10h``, ``td``, ``K♥`` or ``Jk`` (a joker)."""
    match = _TOKEN.fullmatch(text.strip().translate(_SELECTORS))
    if match is None:
        raise CardError(f"bad card {text.strip()!r}: {_EXPECTED}")
    joker, rank_text, suit_text = match.groups()
    if joker:
        return JOKER
    return make_card(_RANK_OF_TEXT[rank_text.upper()], _SUIT_OF_CHAR[suit_text.lower()])


def _tokens(text: str) -> list[str]:
    """Split text into card tokens, allowing run-together cards like ``AsKd7h``."""
    tokens: list[str] = []
    for chunk in _SEPARATORS.split(text.translate(_SELECTORS).strip()):
        if not chunk:
            continue
        position = 0
        while position < len(chunk):
            match = _TOKEN.match(chunk, position)
            if match is None and position == 0:
                tokens.append(chunk)  # parse_card names it
                break
            if match is None:  # run-together cards: quote the word as typed, and the rest
                raise CardError(f"bad card {chunk[position:]!r} in {chunk!r}: {_EXPECTED}")
            tokens.append(match.group(0))
            position = match.end()
    return tokens


def parse_cards(text: str | Iterable[str], *, count: int | range | None = None,
                deck: Deck = ONE_DECK) -> tuple[Card, ...]:
    """Parse cards from text (``"As Kd 7h"``, ``"AsKd7h"``, ``"A♠,K♥"``) or from tokens.

    ``count`` is an exact number or a range of allowed numbers. More of a card than ``deck``
    holds is refused: a second ``As`` under one deck, a third under two, a joker where the
    deck has none.

    >>> format_cards(parse_cards("As 10h k♦"))
    'A♠ T♥ K♦'
    >>> parse_cards("As Xx")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    fantasyland.evaluator.cards.CardError: bad card 'Xx': expected a rank (2-9, T or 10, J,
    Q, K, A) followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠), or Jk for a joker
    """
    tokens = _tokens(text) if isinstance(text, str) else [t for s in text for t in _tokens(s)]
    cards = tuple(parse_card(token) for token in tokens)
    deck.check(cards, tokens=tokens)
    if count is not None:
        allowed = range(count, count + 1) if isinstance(count, int) else count
        if len(cards) not in allowed:
            expected = (f"{allowed.start}" if len(allowed) == 1
                        else f"{allowed.start} to {allowed.stop - 1}")
            raise CardError(f"got {len(cards)} cards: expected {expected}")
    return cards


def card_name(card: Card, *, ascii: bool = False) -> str:
    if card == JOKER:
        return "Jk" if ascii else JOKER_SYMBOL
    suits = SUIT_CHARS if ascii else SUIT_SYMBOLS
    return RANK_CHARS[rank_of(card)] + suits[suit_of(card)]


def format_cards(cards: Iterable[Card], *, ascii: bool = False, sep: str = " ") -> str:
    """Format cards, with suit symbols unless ``ascii`` (then ``As Kd``, which parses back);
    a joker is the joker symbol, or ``Jk``."""
    return sep.join(card_name(card, ascii=ascii) for card in cards)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards from the highest rank down, suits in ``s h d c`` order within a rank; jokers
    first."""
    return tuple(sorted(cards, reverse=True))


def ascii_names(cards: Sequence[Card]) -> list[str]:
    """Two-character ASCII names, as used in JSON (``["Td", "As"]``)."""
    return [card_name(card, ascii=True) for card in cards]


FULL_DECK: tuple[Card, ...] = tuple(range(52))
