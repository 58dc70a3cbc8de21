"""Cards as plain ints, and the parser and formatter that convert them.

A card is ``rank * 4 + suit`` with ranks ``2..A`` as 0..12 and suits ``c d h s`` as 0..3,
so ``2c`` is 0 and ``As`` is 51. Only this module knows about text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Card = int

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

# A card is a rank (``10`` or one character) followed by a suit (letter or symbol).
_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")
# Emoji presentation selectors that phones append to suit symbols (``A♠️``) carry no meaning.
_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


class CardError(ValueError):
    """Cards that cannot be read: a bad token, a duplicate, or a wrong count."""


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    return rank * 4 + suit


_EXPECTED = "expected a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠)"


def parse_card(text: str) -> Card:
    """Parse one card such as ``As``, ``10h``, ``td`` or ``K♥``."""
    match = _TOKEN.fullmatch(text.strip())
    if match is None:
        raise CardError(f"bad card {text.strip()!r}: {_EXPECTED}")
    rank_text, suit_text = match.groups()
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


def parse_cards(text: str | Iterable[str], count: int | range | None = None) -> tuple[Card, ...]:
    """Parse cards from text (``"As Kd 7h"``, ``"AsKd7h"``, ``"A♠,K♥"``) or from tokens.

    ``count`` is an exact number or a range of allowed numbers. Duplicates are refused.

    >>> format_cards(parse_cards("As 10h k♦"))
    'A♠ T♥ K♦'
    >>> parse_cards("As Xx")
    Traceback (most recent call last):
    ...
    evaluator.cards.CardError: bad card 'Xx': expected a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠)
    """
    tokens = _tokens(text) if isinstance(text, str) else [t for s in text for t in _tokens(s)]
    cards = tuple(parse_card(token) for token in tokens)
    seen: set[Card] = set()
    for token, card in zip(tokens, cards):
        if card in seen:
            raise CardError(f"duplicate card {token!r}: each card can be dealt only once")
        seen.add(card)
    if count is not None:
        allowed = range(count, count + 1) if isinstance(count, int) else count
        if len(cards) not in allowed:
            expected = (f"{allowed.start}" if len(allowed) == 1
                        else f"{allowed.start} to {allowed.stop - 1}")
            raise CardError(f"got {len(cards)} cards: expected {expected}")
    return cards


def card_name(card: Card, ascii: bool = False) -> str:
    suits = SUIT_CHARS if ascii else SUIT_SYMBOLS
    return RANK_CHARS[rank_of(card)] + suits[suit_of(card)]


def format_cards(cards: Iterable[Card], ascii: bool = False, sep: str = " ") -> str:
    """Format cards, with suit symbols unless ``ascii`` (then ``As Kd``, which parses back)."""
    return sep.join(card_name(card, ascii) for card in cards)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards from the highest rank down, suits in ``s h d c`` order within a rank."""
    return tuple(sorted(cards, reverse=True))


def ascii_names(cards: Sequence[Card]) -> list[str]:
    """Two-character ASCII names, as used in JSON (``["Td", "As"]``)."""
    return [card_name(card, ascii=True) for card in cards]


FULL_DECK: tuple[Card, ...] = tuple(range(52))
