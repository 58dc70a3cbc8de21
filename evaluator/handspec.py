"""Hand specs: the words a rules file uses for "at least this hand".

A spec names a category of hands: a class (``"full house"``, ``"quads"``, ``"royal flush"``),
a pair or trips by rank (``"QQ"``, ``"222"``), a high card (``"T-high"``), or an exact no-pair
hand (``"75432"``). On a row's scale its *threshold* is the weakest hand in the category, so
"at least QQ" is every hand that is as good as the weakest pair of queens or better. On the
2-7 lowball scale "better" means lower, so "at least 9-high" is every no-pair 9-high or lower.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache

import numpy as np

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.cards import RANK_CHARS
from fantasyland.evaluator.strength import (CARDS_OF_STRENGTH, CLASS_NAMES, DESCRIPTORS, HIGH_CARD,
                                LOW_DESCRIPTORS, PAIR, STRAIGHT_FLUSH, TRIPS)


class Scale(str, Enum):
    """How a row is ranked: ordinary high poker, or 2-7 lowball."""

    HIGH = "high"
    DEUCE_TO_SEVEN = "deuce-to-seven"


class HandSpecError(InputError):
    """A hand spec that names no hand, quoted in the message."""


_CLASS_ALIASES = {name.replace(" ", ""): cls for cls, name in enumerate(CLASS_NAMES)}
_CLASS_ALIASES.update({
    "threeofakind": TRIPS, "set": TRIPS, "fourofakind": CLASS_NAMES.index("quads"),
    "onepair": PAIR, "highcard": HIGH_CARD, "nothing": HIGH_CARD,
})
_RANKS = "(?:10|[2-9TJQKA])"


def _rank_digits(text: str) -> list[int]:
    """Digits (rank + 1) of a run of rank characters such as ``"QQ"`` or ``"1010"``."""
    return [RANK_CHARS.index("T" if r == "10" else r) + 1
            for r in re.findall(_RANKS, text.upper())]


@dataclass(frozen=True)
class HandSpec:
    """A parsed spec: which descriptors ``(class, d1..d5)`` belong to the category."""

    text: str
    cls: int
    digits: tuple[int, ...] = ()  # leading digits the descriptor must start with
    exact: bool = False  # digits must be the whole descriptor (an exact no-pair hand)

    def matches(self, descriptors: np.ndarray) -> np.ndarray:
        ok: np.ndarray = descriptors[:, 0] == self.cls
        for i, d in enumerate(self.digits):
            ok &= descriptors[:, 1 + i] == d
        if self.exact:
            ok &= (descriptors[:, 1 + len(self.digits):] == 0).all(axis=1)
        return ok

    def threshold(self, scale: Scale) -> int:
        """The weakest hand of the category on ``scale`` (high strength or lowball goodness)."""
        return _threshold(self, scale)

    def row_sizes(self, scale: Scale) -> tuple[int, ...]:
        """How many cards the category's hands hold on ``scale``: a row of 3 cards makes
        ``QQ`` or ``AKQ`` but never a straight or ``75432``, and a row of 5 never ``AKQ``."""
        return _row_sizes(self, scale)

    def __str__(self) -> str:
        return self.text


@cache
def _threshold(spec: HandSpec, scale: Scale) -> int:
    table = DESCRIPTORS if scale is Scale.HIGH else LOW_DESCRIPTORS
    hits = np.flatnonzero(spec.matches(table))
    if len(hits) == 0:
        raise HandSpecError(f"hand spec {spec.text!r} names no hand on the {scale.value} scale")
    return int(hits[0])  # both tables run from the weakest hand to the best


def _cards_of(scale: Scale) -> np.ndarray:
    """The number of cards (3 or 5) of the hand behind every value on ``scale``."""
    if scale is not Scale.HIGH:
        return np.full(len(LOW_DESCRIPTORS), 5)  # 2-7 lowball ranks 5-card rows only
    return CARDS_OF_STRENGTH


@cache
def _row_sizes(spec: HandSpec, scale: Scale) -> tuple[int, ...]:
    table = DESCRIPTORS if scale is Scale.HIGH else LOW_DESCRIPTORS
    return tuple(sorted(set(_cards_of(scale)[spec.matches(table)].tolist())))


@cache
def parse_spec(text: str) -> HandSpec:
    """Parse a spec such as ``"QQ"``, ``"222"``, ``"full house"``, ``"T-high"``, ``"75432"``.

    >>> parse_spec("full house").cls
    6
    >>> parse_spec("QX")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    fantasyland.evaluator.handspec.HandSpecError: bad hand spec 'QX': expected a class (pair,
    trips, straight, flush, full house, quads, straight flush, royal flush, five of a kind ...),
    a pair or trips by rank (QQ, 222), a high card (T-high), or five ranks (75432)
    """
    raw = str(text).strip()
    word = re.sub(r"[\s_-]", "", raw.lower())
    if word in _CLASS_ALIASES:
        return HandSpec(raw, _CLASS_ALIASES[word])
    if word == "royalflush":
        return HandSpec(raw, STRAIGHT_FLUSH, (13,))
    high = re.fullmatch(rf"({_RANKS})-?high", raw, re.IGNORECASE)
    if high:
        return HandSpec(raw, HIGH_CARD, tuple(_rank_digits(high.group(1))))
    if re.fullmatch(f"{_RANKS}+", raw, re.IGNORECASE):
        digits = _rank_digits(raw)
        if len(digits) in (2, 3) and len(set(digits)) == 1:
            return HandSpec(raw, PAIR if len(digits) == 2 else TRIPS, (digits[0],))
        if len(digits) in (3, 5) and len(set(digits)) == len(digits):
            return HandSpec(raw, HIGH_CARD, tuple(sorted(digits, reverse=True)), exact=True)
    raise HandSpecError(
        f"bad hand spec {raw!r}: expected a class (pair, trips, straight, flush, full house, "
        "quads, straight flush, royal flush, five of a kind ...), a pair or trips by rank "
        "(QQ, 222), a high card (T-high), or five ranks (75432)")
