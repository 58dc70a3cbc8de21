"""What a row holding jokers can play as, by the row's pattern, shipped as a table.

What a row holding jokers can play as depends on little of its real cards
(``evaluator.jokers``): their ranks, whether all of them share a suit, and, where two decks
let a row hold a card twice, how many distinct faces of each rank it holds. That is the
row's *pattern* (``pattern_keys``). Rows of one pattern, whatever their suits, make the same
strengths, so the strengths are worked out once for a pattern, from a representative row
(``representative``), with ``jokers.substitutes``.

One deck has 3,380 patterns of rows with one or two jokers (122,031 strengths), so their
strengths are shipped as package data (``evaluator/data/joker_patterns.npz``, written by
``python -m fantasyland.evaluator.tables``), one table for decks with five of a kind and one
for decks without. Patterns only two decks have (a card held twice) are worked out when first
met.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from itertools import combinations_with_replacement

import numpy as np

from fantasyland.evaluator.cards import JOKER, Deck
from fantasyland.evaluator.jokers import substitutes
from fantasyland.evaluator.strength import rank3_array, rank5_array

PATTERNS_FILE = "joker_patterns.npz"
_DIGITS = 27  # a real card's digit is 1 + rank * 2 + (whether it repeats the card before)
RANKS = 13


def pattern_keys(hands: np.ndarray) -> np.ndarray:
    """The pattern of each row of ``hands`` (an ``(m, k)`` array holding jokers), as an int:
    its real cards' ranks, each marked where it repeats a face the row already holds, and
    whether a five-card row's real cards all share a suit. Rows with equal keys make the
    same strengths, with any jokers."""
    m, k = hands.shape
    cards = np.sort(hands, axis=1)  # jokers last; a repeated card beside its twin
    real = cards != JOKER
    repeat = np.zeros_like(real)
    repeat[:, 1:] = (cards[:, 1:] == cards[:, :-1]) & real[:, 1:]
    digits = np.sort(np.where(real, 1 + (cards >> 2) * 2 + repeat, 0), axis=1)
    suits = cards & 3
    suited = (k == 5) & ((suits == suits[:, :1]) | ~real).all(axis=1)
    key: np.ndarray = suited.astype(np.int64)
    for i in range(k):
        key = key * _DIGITS + digits[:, i]
    return key


def representative(key: int, k: int) -> list[int]:
    """A row of ``k`` cards with pattern ``key``: its real cards, then its jokers."""
    digits = []
    for _ in range(k):
        key, digit = divmod(key, _DIGITS)
        digits.append(digit)
    suited = bool(key)
    held: dict[int, list[int]] = {}  # rank -> the faces dealt, in order
    for digit in sorted(d for d in digits if d):
        rank, repeats = divmod(digit - 1, 2)
        faces = held.setdefault(rank, [])
        faces.append(faces[0] if repeats else rank * 4 + (0 if suited else len(faces)))
    real = [face for rank in sorted(held) for face in held[rank]]
    if k == 5 and not suited and len({face & 3 for face in real}) == 1:
        low = real[0] >> 2  # all in one suit by chance: move the lowest rank's cards out
        real = [face + 1 if face >> 2 == low else face for face in real]
    return real + [JOKER] * (k - len(real))


def plays(keys: list[int], k: int, deck: Deck) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each pattern of ``keys``: its distinct strengths (ascending), and a row of the
    pattern that plays at each (its representative, jokers given faces), worked out."""
    if not keys:
        return []
    rows = np.array([representative(key, k) for key in keys], dtype=np.int64)
    owner, played = substitutes(rows, deck)
    strength = (rank3_array if k == 3 else rank5_array)(played)
    order = np.lexsort((strength, owner))
    owner, strength, played = owner[order], strength[order], played[order]
    first = np.concatenate([[True], (owner[1:] != owner[:-1]) | (strength[1:] != strength[:-1])])
    owner, strength, played = owner[first], strength[first], played[first]
    cut = np.searchsorted(owner, np.arange(len(keys) + 1))
    return [(strength[cut[i]:cut[i + 1]], played[cut[i]:cut[i + 1]]) for i in range(len(keys))]


def one_deck_keys(k: int) -> np.ndarray:
    """Every pattern of a ``k``-card row with one or two jokers under one deck, ascending."""
    keys = []
    for jokers in (1, 2):
        real = k - jokers
        for ranks in combinations_with_replacement(range(RANKS), real):
            if max(ranks.count(rank) for rank in ranks) > 4:
                continue
            key = 0
            for digit in [0] * jokers + [1 + rank * 2 for rank in ranks]:  # as pattern_keys
                key = key * _DIGITS + digit
            keys.append(key)
            if k == 5 and len(set(ranks)) == real:  # distinct ranks can also share a suit
                keys.append(key + _DIGITS ** k)
    return np.unique(np.array(keys, dtype=np.int64))


TABLE_NAMES = tuple(f"{five}_{k}_{part}" for five in ("five", "no_five") for k in (3, 5)
                    for part in ("keys", "count", "strength"))


def build_tables() -> dict[str, np.ndarray]:
    """The shipped tables: for decks with and without five of a kind, and rows of 3 and 5
    cards, every one-deck pattern's key (ascending), how many strengths it makes, and those
    strengths, pattern after pattern."""
    tables = {}
    for five in ("five", "no_five"):
        deck = Deck(1, 2, five_of_a_kind=five == "five")
        for k in (3, 5):
            keys = one_deck_keys(k)
            found = plays(keys.tolist(), k, deck)
            tables[f"{five}_{k}_keys"] = keys
            tables[f"{five}_{k}_count"] = np.array([len(s) for s, _ in found], dtype=np.int32)
            tables[f"{five}_{k}_strength"] = np.concatenate([s for s, _ in found]).astype(
                np.int16)
    return tables


@cache
def _shipped() -> dict[str, np.ndarray]:
    """The shipped tables (built afresh where the file is missing or stale)."""
    try:
        shipped = resources.files("fantasyland.evaluator.data").joinpath(PATTERNS_FILE)
        with shipped.open("rb") as file, np.load(file, allow_pickle=False) as archive:
            return {name: archive[name] for name in TABLE_NAMES}
    except (FileNotFoundError, KeyError):
        return build_tables()


class PatternStrengths:
    """The strengths of rows of ``k`` cards, by pattern, under ``deck``: the shipped table,
    and the patterns it lacks worked out as they are met."""

    def __init__(self, deck: Deck, k: int) -> None:
        self.deck, self.k = deck, k
        tables = _shipped()
        five = "five" if deck.five_of_a_kind else "no_five"
        self.keys = tables[f"{five}_{k}_keys"]
        self.count = tables[f"{five}_{k}_count"].astype(np.int64)
        self.start = np.cumsum(self.count) - self.count
        self.strength = tables[f"{five}_{k}_strength"].astype(np.int64)
        self.more: dict[int, np.ndarray] = {}

    def of(self, keys: np.ndarray) -> list[np.ndarray]:
        """The distinct strengths (ascending) of each pattern of ``keys``."""
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        shipped = self.keys[at] == keys
        new = [int(key) for key in keys[~shipped] if int(key) not in self.more]
        for key, (strength, _) in zip(new, plays(new, self.k, self.deck)):
            self.more[key] = strength
        return [self.strength[self.start[i]:self.start[i] + self.count[i]] if hit
                else self.more[int(key)] for key, i, hit in zip(keys, at, shipped)]


@cache
def pattern_strengths(deck: Deck, k: int) -> PatternStrengths:
    return PatternStrengths(deck, k)
