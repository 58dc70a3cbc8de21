"""Dealing Fantasyland hands: how many cards, and which, from an explicit seed.

Hands are dealt from the rules' deck (``Rules.deck.cards``): a joker turns up as often as it
would at the table, and under two decks a hand may hold both copies of a card. One deck
without jokers is ``range(52)`` as it always was, so the same seed deals the same hands.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType

from fantasyland.evaluator.cards import ONE_DECK, Card, CardError, Deck, format_cards
from fantasyland.evaluator.rules import Rules

#: How often a progressive-Pineapple Fantasyland hand has 14, 15, 16 or 17 cards.
#:
#: An assumption, not a measurement (no public source gives these frequencies): entries split
#: QQ 35%, KK 30%, AA 25%, trips 10% (each pair rank is about as easy to make on top, a player
#: who holds QQ early often settles for it, and trips on top are rare), and about a fifth of
#: all Fantasyland hands are 14-card repeats. So 14 cards = 0.2 + 0.8 * 0.35 ~ 0.45. The fifth
#: agrees with the stay rates `fantasyland value` measures: at these shares about 21% of
#: Fantasyland hands stay, so about as many of them are repeats.
#: Read-only: the trainer and ``fantasyland deal --cards mixed`` share it.
PROGRESSIVE_MIX: Mapping[int, float] = MappingProxyType({14: 0.45, 15: 0.25, 16: 0.20, 17: 0.10})


class SizeError(CardError):
    """A card count or a list of counts that cannot be dealt."""


_COUNTS = "13 to 17, a range like 14-17 or a list like 14,16"


_COUNT_SPAN = re.compile(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?")


def _counts(part: str) -> range | None:
    """``"15"`` or ``"14-17"`` as a range of counts from 13 to 17, else None: a range needs
    both its ends (``14-`` is not 14), in ASCII digits."""
    match = _COUNT_SPAN.fullmatch(part)
    if match is None:
        return None
    low, high = match.group(1), match.group(2) or match.group(1)
    span = range(int(low), int(high) + 1)
    return span if span and all(13 <= n <= 17 for n in span) else None


def parse_sizes(text: str) -> tuple[int, ...]:
    """Card counts from ``"15"``, ``"14-17"`` or ``"14,16"``.

    >>> parse_sizes("14-16")
    (14, 15, 16)
    >>> parse_sizes("12")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    fantasyland.optimizer.solver.dealing.SizeError: bad card count '12': expected 13 to 17,
    a range like 14-17 or a list like 14,16
    """
    sizes: list[int] = []
    for part in text.split(","):
        span = _counts(part)
        if span is None:
            raise SizeError(f"bad card count {part.strip()!r}: expected {_COUNTS}")
        sizes += [n for n in span if n not in sizes]
    return tuple(sizes)


def parse_size_weights(text: str, rules: Rules) -> dict[int, float]:
    """Hand sizes and how often to deal each, as ``fantasyland deal --cards`` reads them:
    ``"mixed"`` (the variant's sizes at the trainer's frequencies, ``size_mix``), counts as
    ``parse_sizes`` reads them (equally often), or counts with weights, ``"14:8,15:4,16-17:1"``
    (a range's weight goes to each of its counts).

    >>> from evaluator import find_rules
    >>> parse_size_weights("15:3,17:1", find_rules("progressive"))
    {15: 0.75, 17: 0.25}
    """
    if text.strip().lower() == "mixed":
        return size_mix(rules)
    weights: dict[int, float] = {}
    weighted: set[int] = set()  # counts given a weight: one of them given twice is ambiguous
    for part in text.split(","):
        counts, colon, weight = part.partition(":")
        span = _counts(counts)
        try:
            w = float(weight) if colon else 1.0
        except ValueError:
            w = 0.0
        if span is None or not 0 < w < float("inf"):
            raise SizeError(f"bad card count {part.strip()!r}: expected {_COUNTS}, each with "
                            "an optional weight like 14:8, or 'mixed'")
        twice = [n for n in span if n in weights and (colon or n in weighted)]
        if twice:
            raise SizeError(f"bad card count {part.strip()!r}: {twice[0]} is given twice and "
                            "has a weight; expected a weighted count once")
        weighted.update(span if colon else ())
        weights.update({n: w for n in span if n not in weights or colon})
    total = sum(weights.values())
    return {n: w / total for n, w in weights.items()}


def size_mix(rules: Rules, *, sizes: Sequence[int] | None = None) -> dict[int, float]:
    """The frequency of each hand size the trainer deals.

    Given ``sizes``, each is equally likely. Otherwise the variant's own sizes at the
    ``PROGRESSIVE_MIX`` frequencies (renormalized), or equally likely if the mix does not
    cover them all (a house variable-value Fantasyland with 13 cards, say).
    """
    if sizes:
        return {n: 1 / len(sizes) for n in sizes}
    counts = rules.dealt_counts or (13,)
    if all(n in PROGRESSIVE_MIX for n in counts):
        total = sum(PROGRESSIVE_MIX[n] for n in counts)
        return {n: PROGRESSIVE_MIX[n] / total for n in counts}
    return {n: 1 / len(counts) for n in counts}


def pick_size(rng: random.Random, mix: Mapping[int, float]) -> int:
    sizes = sorted(mix)
    return rng.choices(sizes, weights=[mix[n] for n in sizes])[0]


def deal(rng: random.Random, cards: int, *, deck: Deck = ONE_DECK) -> tuple[Card, ...]:
    """``cards`` cards of ``deck`` (each of its cards at most once: under two decks a face may
    come twice), sorted from the highest down, jokers first."""
    return tuple(sorted(rng.sample(deck.cards, cards), reverse=True))


def seeded_hand(seed: int, cards: int, index: int, *, deck: Deck = ONE_DECK) -> tuple[Card, ...]:
    """Hand number ``index`` of ``cards`` cards for ``seed``: the same wherever it is dealt,
    so that a simulation split across processes deals what a single process would."""
    return deal(random.Random(f"{seed}:{cards}:{index}"), cards, deck=deck)


def deal_hands(count: int, sizes: Mapping[int, float], seed: int,
               *, deck: Deck = ONE_DECK) -> Iterator[tuple[Card, ...]]:
    """``count`` random hands of ``deck``, each from the highest card down, from one
    ``random.Random(seed)`` stream: a size by weight (only when there is a choice), then the
    cards. So the first hands of a longer deal are the same as a shorter one's."""
    if count < 0 or seed < 0:
        raise ValueError(f"bad count {count} or seed {seed}: expected numbers >= 0")
    rng = random.Random(seed)
    for _ in range(count):
        yield deal(rng, next(iter(sizes)) if len(sizes) == 1 else pick_size(rng, sizes), deck=deck)


def hand_line(cards: Sequence[Card]) -> str:
    """A dealt hand as a line of ``fantasyland batch`` input: ``"As Kd 7h ..."``."""
    return format_cards(cards, ascii=True)
