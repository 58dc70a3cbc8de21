"""Special 13-card hands of classic Chinese Poker ("naturals"), and how two of them compare.

A natural is a whole 13-card hand that wins automatically against any ordinary setting when
its holder declares it (docs/rules.md, "Classic Chinese Poker"). Which naturals a game
pays, in what order and for how much is its rules file's ``[naturals]`` schedule
(``Schedule``); what each one *is* is a detector here, under the name schedules give it. A
detector says whether 13 cards hold the hand and, for the naturals whose holders compare,
gives the key that decides (higher wins): six pairs by their pairs from the top, three
straights and three flushes by the back, then the middle, then the front. Holders of any
other natural tie.

Cards are ids (``rank * 4 + suit``, suits c d h s); a natural is dealt from one deck
without jokers, as classic Chinese Poker is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

import numpy as np

from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.strength import rank3_array, rank5_array

ACE, KING, JACK, EIGHT = 12, 11, 9, 6
RED_SUITS = (1, 2)  # diamonds, hearts

Key = tuple[int, ...]
Detector = Callable[[tuple[Card, ...]], Key | None]

#: The rank sets of the five-card straights, each with its high card (the wheel is 5-high),
#: and of the three-card ones (A-2-3 is 3-high, Q-K-A ace-high).
_STRAIGHTS5 = tuple((frozenset(range(low, low + 5)), low + 4) for low in range(9)) + (
    (frozenset({ACE, 0, 1, 2, 3}), 3),)
_STRAIGHTS3 = tuple((frozenset(range(low, low + 3)), low + 2) for low in range(11)) + (
    (frozenset({ACE, 0, 1}), 1),)

#: The rank counts of each three-card straight, to its ranks and high card.
_FRONT_STRAIGHTS = {tuple(int(r in ranks) for r in range(13)): (ranks, high)
                    for ranks, high in _STRAIGHTS3}


def _ranks(cards: tuple[Card, ...]) -> np.ndarray:
    return np.bincount(np.asarray(cards) >> 2, minlength=13)


def _suits(cards: tuple[Card, ...]) -> np.ndarray:
    return np.bincount(np.asarray(cards) & 3, minlength=4)


def _six_pairs(cards: tuple[Card, ...]) -> Key | None:
    """Six pairs and an odd card (trips count as a pair and the odd card, quads as two
    pairs); holders compare their pairs from the highest down."""
    counts = _ranks(cards)
    if int((counts // 2).sum()) != 6:
        return None
    return tuple(sorted((r for r in range(13) for _ in range(counts[r] // 2)), reverse=True))


def _five_pairs_and_trips(cards: tuple[Card, ...]) -> Key | None:
    counts = sorted(_ranks(cards).tolist(), reverse=True)
    return () if counts[:6] == [3, 2, 2, 2, 2, 2] else None


def _four_trips(cards: tuple[Card, ...]) -> Key | None:
    """Four threes of a kind and an odd card (a four of a kind holds a three and the odd
    card)."""
    return () if int((_ranks(cards) >= 3).sum()) == 4 else None


def _three_quads(cards: tuple[Card, ...]) -> Key | None:
    return () if int((_ranks(cards) == 4).sum()) == 3 else None


def _straight_rows(cards: tuple[Card, ...]) -> list[tuple[frozenset[int], int, frozenset[int],
                                                          int, frozenset[int], int]]:
    """Every way to cut the ranks into a back and a middle straight and a three-card front
    straight: (back ranks, high, middle ranks, high, front ranks, high), back >= middle."""
    counts = _ranks(cards).tolist()
    if max(counts) > 3:  # three straights hold each rank at most three times
        return []
    found = []
    for back, b_high in _STRAIGHTS5:
        if any(counts[r] == 0 for r in back):
            continue
        for r in back:
            counts[r] -= 1
        for middle, m_high in _STRAIGHTS5:
            if m_high > b_high or any(counts[r] == 0 for r in middle):
                continue
            for r in middle:
                counts[r] -= 1
            front = _FRONT_STRAIGHTS.get(tuple(counts))
            if front is not None:
                found.append((back, b_high, middle, m_high, *front))
            for r in middle:
                counts[r] += 1
        for r in back:
            counts[r] += 1
    return found


def _three_straights(cards: tuple[Card, ...]) -> Key | None:
    """The back and middle five-card straights and the front a three-card straight;
    holders compare the back straights, then the middle, then the front."""
    cuts = _straight_rows(cards)
    return max(((b, m, f) for _, b, _, m, _, f in cuts), default=None)


def _three_straight_flushes(cards: tuple[Card, ...]) -> Key | None:
    """Three straights, each row of one suit."""
    held = set(cards)
    keys = []
    for back, b_high, middle, m_high, front, f_high in _straight_rows(cards):
        for suits in product(range(4), repeat=3):
            rows = [{r * 4 + s for r in ranks} for ranks, s in zip((back, middle, front), suits)]
            if set().union(*rows) == held and sum(map(len, rows)) == 13:
                keys.append((b_high, m_high, f_high))
    return max(keys, default=None)


def _best_rows(cards: Sequence[Card], sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The strongest rows of ``sizes`` (5 or 3 cards, the first the strongest) that
    ``cards`` (one suit) make, as strengths: the first row as strong as it can be, then the
    next from what is left."""
    left, strengths = list(cards), []
    for size in sizes[:-1]:
        options = np.array(list(combinations(left, size)), dtype=np.int64)
        values = (rank5_array if size == 5 else rank3_array)(options)
        best = options[int(np.argmax(values))]
        strengths.append(int(values.max()))
        left = [c for c in left if c not in set(best.tolist())]
    last = np.array([left], dtype=np.int64)
    strengths.append(int((rank5_array if sizes[-1] == 5 else rank3_array)(last)[0]))
    return tuple(strengths)


#: The suit counts three flushes can have: three suits, or one suit filling two rows, or all.
_FLUSH_SUIT_COUNTS = {(3, 5, 5), (3, 10), (5, 8), (13,)}


def _three_flushes(cards: tuple[Card, ...]) -> Key | None:
    """The back and middle five-card flushes and the front a three-card flush (a suit may
    fill two rows); holders compare the back hands, then the middle, then the front."""
    counts = _suits(cards)
    if tuple(sorted(counts[counts > 0].tolist())) not in _FLUSH_SUIT_COUNTS:
        return None
    keys = []
    for suits in product(range(4), repeat=3):  # the suit of the back, middle and front
        need = np.zeros(4, dtype=np.int64)
        for suit, size in zip(suits, (5, 5, 3)):
            need[suit] += size
        if not (need == counts).all():
            continue
        strengths = {}
        for suit in set(suits):
            rows = tuple(size for s, size in zip(suits, (5, 5, 3)) if s == suit)
            strengths[suit] = list(_best_rows([c for c in cards if c & 3 == suit], rows))
        keys.append(tuple(strengths[s].pop(0) for s in suits))
    return max(keys, default=None)


def _complete_straight(cards: tuple[Card, ...]) -> Key | None:
    """One card of each rank, 2 to A, suits mixed or not."""
    return () if (_ranks(cards) == 1).all() else None


def _one_suit(cards: tuple[Card, ...]) -> Key | None:
    return () if _suits(cards).max() == 13 else None


def _red_cards(cards: tuple[Card, ...]) -> int:
    suits = _suits(cards)
    return int(suits[list(RED_SUITS)].sum())


def _one_colour(cards: tuple[Card, ...]) -> Key | None:
    return () if _red_cards(cards) in (0, 13) else None


def _twelve_of_one_colour(cards: tuple[Card, ...]) -> Key | None:
    """Twelve red cards and one black, or twelve black and one red."""
    return () if _red_cards(cards) in (1, 12) else None


def _small(cards: tuple[Card, ...]) -> Key | None:
    """Every card a 2 to an 8."""
    return () if max(cards) >> 2 <= EIGHT else None


def _big(cards: tuple[Card, ...]) -> Key | None:
    """Every card an 8 to an ace."""
    return () if min(cards) >> 2 >= EIGHT else None


def _twelve_picture_cards(cards: tuple[Card, ...]) -> Key | None:
    """All twelve jacks, queens and kings, and any thirteenth card."""
    return () if (_ranks(cards)[JACK:ACE] == 4).all() else None


#: The naturals a rules file may name (docs/rules-files.md, "Keys").
DETECTORS: dict[str, Detector] = {
    "six pairs": _six_pairs,
    "five pairs and trips": _five_pairs_and_trips,
    "four trips": _four_trips,
    "three quads": _three_quads,
    "three straights": _three_straights,
    "three flushes": _three_flushes,
    "three straight flushes": _three_straight_flushes,
    "complete straight": _complete_straight,
    "one suit": _one_suit,
    "one colour": _one_colour,
    "twelve of one colour": _twelve_of_one_colour,
    "small": _small,
    "big": _big,
    "twelve picture cards": _twelve_picture_cards,
}
#: Other spellings of the same naturals, as schedules write them.
ALIASES = {"six and a half pairs": "six pairs", "dragon": "complete straight",
           "thirteen of one suit": "one suit", "one color": "one colour",
           "twelve of one color": "twelve of one colour", "all one colour": "one colour",
           "all one color": "one colour", "four threes of a kind": "four trips",
           "three fours of a kind": "three quads"}


def detector_name(name: str) -> str | None:
    """The detector a schedule's name means (its own name or an alias), or None."""
    key = " ".join(name.lower().split())
    key = ALIASES.get(key, key)
    return key if key in DETECTORS else None


@dataclass(frozen=True)
class Natural:
    """One special hand of a schedule: its detector's name and what it wins."""

    name: str
    value: int


@dataclass(frozen=True)
class Schedule:
    """The naturals a game pays, lowest first (so a later one outranks an earlier one), and
    how two declared naturals settle: ``"higher"``, the higher wins its own value from the
    lower (the usual way); ``"difference"``, it wins the difference of their values (as a
    schedule played against a bank settles)."""

    hands: tuple[Natural, ...] = ()
    between: str = "higher"


@dataclass(frozen=True)
class Held:
    """The highest natural of a schedule that 13 cards hold: its place in the schedule, the
    natural, and the key that compares two holders of it."""

    rank: int
    natural: Natural
    key: Key


def best_natural(cards: Sequence[Card], schedule: Schedule) -> Held | None:
    """The highest natural of ``schedule`` that the 13 ``cards`` hold, or None."""
    hand = tuple(sorted(cards))
    if len(hand) != 13:
        raise ValueError(f"a natural is a 13-card hand, got {len(hand)} cards")
    for rank in range(len(schedule.hands) - 1, -1, -1):
        natural = schedule.hands[rank]
        key = DETECTORS[natural.name](hand)
        if key is not None:
            return Held(rank, natural, key)
    return None


def settle_naturals(a: Held, b: Held, schedule: Schedule) -> int:
    """Units the holder of ``a`` wins from the holder of ``b``, both declared."""
    if (a.rank, a.key) == (b.rank, b.key):
        return 0
    winner, loser, sign = (a, b, 1) if (a.rank, a.key) > (b.rank, b.key) else (b, a, -1)
    if schedule.between == "difference":
        return sign * (winner.natural.value - loser.natural.value)
    return sign * winner.natural.value
