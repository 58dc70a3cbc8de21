"""Hand strength on one integer scale for 3-card and 5-card rows, plus the 2-7 lowball scale.

Every hand is first *described* by a tuple ``(class, d1, d2, d3, d4, d5)``: its class, then the
ranks that define it, most significant first, then kickers. A digit is ``rank + 1`` and 0
means "no card there", which is how a 3-card top row sits on the same scale as a 5-card row:
top ``QQ7`` is ``(PAIR, Q, 7, 0, 0, 0)`` and beats middle ``QQ654`` on the first kicker, while
top ``AKQ`` against middle ``AKQ32`` ties every card the top has and then loses to the zeros,
which is legal (equal is legal). The sorted set of all descriptors numbers the scale densely,
so "middle >= top" is one integer comparison, and the tables below map a hand to its number.

Two classes exist only beyond one plain deck, and every table holds them, so that one scale
serves every rules file: five of a kind (a joker beside quads, or two decks), above every
straight flush, and under two decks a flush holding a pair or two pair (two copies of a
card), still a flush, compared with other flushes by its ranks from the highest down:
A-A-K-9-2 of hearts is ``(FLUSH, A, A, K, 9, 2)`` and beats A-K-Q-J-9. A 52-card hand never
reaches them, and its strengths keep their order.

The tables are generated from these rules by ``build_tables``, never typed in by hand. They
are built once, by ``python -m fantasyland.evaluator.tables``, into the package data file
``evaluator/data/strength.npz``, which import loads (building them takes longer than the rest
of the import); a test holds that file byte-identical to a fresh build.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from importlib import resources
from itertools import combinations, combinations_with_replacement

import numpy as np

from fantasyland.evaluator.cards import RANK_NAMES, RANK_PLURALS

Strength = int

(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH,
 FIVE_OF_A_KIND) = range(10)
CLASS_NAMES = ("high card", "pair", "two pair", "trips", "straight", "flush", "full house",
               "quads", "straight flush", "five of a kind")
ACE = 12

Descriptor = tuple[int, int, int, int, int, int]


def _straight_high(distinct_desc: tuple[int, ...], wheel: bool) -> int | None:
    """The high rank of five distinct ranks that form a straight, else None."""
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if wheel and distinct_desc == (ACE, 3, 2, 1, 0):
        return 3  # A-2-3-4-5 is a five-high straight, the lowest one
    return None


def describe(ranks: tuple[int, ...], *, flush: bool = False, wheel: bool = True) -> Descriptor:
    """Describe a 3- or 5-card hand from its ranks (0 = deuce .. 12 = ace).

    ``wheel=False`` ranks for 2-7 lowball, where the ace is always high and A-2-3-4-5 is
    no straight. Three cards never make a straight or a flush. A suited hand with a pair or
    two pair (two decks) is a flush of those ranks, highest first.
    """
    counts = Counter(ranks)
    # Most cards of a rank first, then the higher rank: the order that decides ties.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    digits = [rank + 1 for rank, _ in groups]
    if len(ranks) == 5 and shape == (1, 1, 1, 1, 1):
        high = _straight_high(tuple(r for r, _ in groups), wheel)
        if high is not None:
            cls = STRAIGHT_FLUSH if flush else STRAIGHT
            return (cls, high + 1, 0, 0, 0, 0)
        cls = FLUSH if flush else HIGH_CARD
    elif flush and len(ranks) == 5 and shape in ((2, 1, 1, 1), (2, 2, 1)):
        return (FLUSH, *sorted((rank + 1 for rank in ranks), reverse=True))  # type: ignore
    else:
        cls = {
            (1, 1, 1): HIGH_CARD, (2, 1): PAIR, (3,): TRIPS,
            (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS,
            (3, 2): FULL_HOUSE, (4, 1): QUADS, (5,): FIVE_OF_A_KIND,
        }[shape]
    digits += [0] * (5 - len(digits))
    return (cls, *digits)  # type: ignore[return-value]


# A rank multiset's key: its counts as digits in base 6 (five of a kind counts 5).
_POW6 = 6 ** np.arange(13, dtype=np.int64)


def _multiset_key(ranks: tuple[int, ...]) -> int:
    return int(sum(_POW6[r] for r in ranks))


def build_tables() -> dict[str, np.ndarray]:
    """Every table, generated from ``describe``: what ``evaluator/data/strength.npz`` holds."""
    high: dict[Descriptor, None] = {}
    five_plain, five_flush, three = {}, {}, {}
    low_plain, low_flush = {}, {}
    paired_flush, low_paired_flush = {}, {}
    for ranks in combinations_with_replacement(range(13), 5):
        ranks = ranks[::-1]
        five_plain[_multiset_key(ranks)] = describe(ranks)
        low_plain[_multiset_key(ranks)] = describe(ranks, wheel=False)
        if 4 >= len(set(ranks)) >= 3 and max(Counter(ranks).values()) == 2:
            # Two copies of a suited card at most: a flush holds a pair or two pair.
            paired_flush[_multiset_key(ranks)] = describe(ranks, flush=True)
            low_paired_flush[_multiset_key(ranks)] = describe(ranks, flush=True, wheel=False)
    for ranks in combinations(range(13), 5):
        ranks = ranks[::-1]
        mask = sum(1 << r for r in ranks)
        five_flush[mask] = describe(ranks, flush=True)
        low_flush[mask] = describe(ranks, flush=True, wheel=False)
    for trio in combinations_with_replacement(range(13), 3):
        three[_multiset_key(trio[::-1])] = describe(trio[::-1])
    for table in (five_plain, five_flush, three, paired_flush):
        high.update(dict.fromkeys(table.values()))
    descriptors = sorted(high)
    strength_of = {d: i for i, d in enumerate(descriptors)}
    low_descriptors = sorted(set(low_plain.values()) | set(low_flush.values())
                             | set(low_paired_flush.values()))
    # Goodness in lowball: the lowest hand gets the highest number.
    low_of = {d: len(low_descriptors) - 1 - i for i, d in enumerate(low_descriptors)}

    def keyed(table: dict[int, Descriptor],
              number: dict[Descriptor, int]) -> tuple[np.ndarray, np.ndarray]:
        keys = np.array(sorted(table), dtype=np.int64)
        return keys, np.array([number[table[k]] for k in keys], dtype=np.int32)

    def masked(table: dict[int, Descriptor], number: dict[Descriptor, int]) -> np.ndarray:
        values = np.full(1 << 13, -1, dtype=np.int32)
        for mask, d in table.items():
            values[mask] = number[d]
        return values

    tables = {"descriptors": np.array(descriptors, dtype=np.int8),
              "low_descriptors": np.array(low_descriptors[::-1], dtype=np.int8)}
    tables["key5"], tables["plain5"] = keyed(five_plain, strength_of)
    tables["key3"], tables["plain3"] = keyed(three, strength_of)
    _, tables["low_plain5"] = keyed(low_plain, low_of)
    tables["flush5"] = masked(five_flush, strength_of)
    tables["low_flush5"] = masked(low_flush, low_of)
    tables["paired_flush_key5"], tables["paired_flush5"] = keyed(paired_flush, strength_of)
    _, tables["low_paired_flush5"] = keyed(low_paired_flush, low_of)
    return tables


#: The package data file that holds ``build_tables()`` (written by ``evaluator.tables``).
TABLES_FILE = "strength.npz"
#: Its arrays, in the order they are written.
TABLE_NAMES = ("descriptors", "low_descriptors", "key5", "plain5", "key3", "plain3",
               "low_plain5", "flush5", "low_flush5", "paired_flush_key5", "paired_flush5",
               "low_paired_flush5")


def _load_tables() -> dict[str, np.ndarray]:
    """The shipped tables; built afresh only where the file is missing or lacks a table (a
    checkout that deleted it, or a stale one): ``python -m fantasyland.evaluator.tables``
    writes it again, and a test holds the shipped file to a fresh build."""
    try:
        shipped = resources.files("fantasyland.evaluator.data").joinpath(TABLES_FILE)
        with shipped.open("rb") as file, np.load(file, allow_pickle=False) as archive:
            return {name: archive[name] for name in TABLE_NAMES}
    except (FileNotFoundError, KeyError):  # missing, or written before a table was added
        return build_tables()


_T = _load_tables()
for _array in _T.values():
    _array.flags.writeable = False

#: Descriptor of every strength: ``DESCRIPTORS[s]`` is ``(class, d1, .., d5)``.
DESCRIPTORS: np.ndarray = _T["descriptors"]
#: Descriptor of every lowball goodness (index 0 is the worst 2-7 hand).
LOW_DESCRIPTORS: np.ndarray = _T["low_descriptors"]
NUM_STRENGTHS = len(DESCRIPTORS)
NUM_LOW = len(LOW_DESCRIPTORS)
CLASS_OF_STRENGTH: np.ndarray = DESCRIPTORS[:, 0].astype(np.int8)
#: How many cards (3 or 5) the hand behind every strength holds: the shared scale ranks
#: 3-card tops and 5-card rows together, and no strength is both.
CARDS_OF_STRENGTH: np.ndarray = np.full(NUM_STRENGTHS, 5, dtype=np.int8)
CARDS_OF_STRENGTH[_T["plain3"]] = 3
CARDS_OF_STRENGTH.flags.writeable = False


def _lookup(cards: np.ndarray, keys: np.ndarray, plain: np.ndarray,
            flush_tables: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    # Widen first: ``1 << rank`` below overflows a narrow dtype such as int8 (1 << 12 == 0).
    ranks = np.asarray(cards, dtype=np.int64) >> 2
    values: np.ndarray = plain[np.searchsorted(keys, _POW6[ranks].sum(axis=1))]
    if flush_tables is not None:
        suits = cards & 3
        is_flush = (suits == suits[:, :1]).all(axis=1)
        if is_flush.any():
            flush_table, paired_table = flush_tables
            flush_ranks = ranks[is_flush]
            bits = 1 << flush_ranks
            mask = bits.sum(axis=1)
            values[is_flush] = flush_table[np.minimum(mask, len(flush_table) - 1)]
            paired = mask != np.bitwise_or.reduce(bits, axis=1)  # two copies of a card
            if paired.any():
                where = np.flatnonzero(is_flush)[paired]
                key = _POW6[flush_ranks[paired]].sum(axis=1)
                values[where] = paired_table[np.searchsorted(_T["paired_flush_key5"], key)]
    return values


def rank5_array(cards: np.ndarray) -> np.ndarray:
    """Strengths of an ``(n, 5)`` array of faces (no jokers; unchecked, see ``strength_of``);
    two copies of a face, as two decks deal, are allowed."""
    return _lookup(cards, _T["key5"], _T["plain5"], (_T["flush5"], _T["paired_flush5"]))


def rank3_array(cards: np.ndarray) -> np.ndarray:
    """Strengths of an ``(n, 3)`` array of faces, on the same scale as 5-card hands."""
    return _lookup(cards, _T["key3"], _T["plain3"], None)


def lowball_array(cards: np.ndarray) -> np.ndarray:
    """2-7 lowball goodness of an ``(n, 5)`` array: higher is better (7-5-4-3-2 is best)."""
    return _lookup(cards, _T["key5"], _T["low_plain5"],
                   (_T["low_flush5"], _T["low_paired_flush5"]))


def _as_row(cards: Iterable[int]) -> np.ndarray:
    row = np.asarray(tuple(cards), dtype=np.int64)
    if row.ndim != 1 or len(row) not in (3, 5):
        raise ValueError(f"a row has 3 or 5 cards, got {len(row)}")
    counts = np.bincount(row, minlength=52) if row.min() >= 0 else None
    if counts is None or len(counts) > 52 or counts.max() > 2:
        raise ValueError(f"a row needs faces 0..51 (jokers resolved), each at most twice, "
                         f"got {row.tolist()}")
    return row[None, :]


def strength_of(cards: Iterable[int]) -> Strength:
    """The strength of one 3- or 5-card row on the shared high scale."""
    row = _as_row(cards)
    return int((rank5_array if row.shape[1] == 5 else rank3_array)(row)[0])


def lowball_of(cards: Iterable[int]) -> int:
    """The 2-7 lowball goodness of one 5-card row (higher is better)."""
    row = _as_row(cards)
    if row.shape[1] != 5:
        raise ValueError("2-7 lowball ranks 5-card rows only")
    return int(lowball_array(row)[0])


def hand_class(strength: Strength) -> int:
    return int(CLASS_OF_STRENGTH[strength])


def class_name(strength: Strength) -> str:
    return CLASS_NAMES[hand_class(strength)]


def describe_name(descriptor: Iterable[int]) -> str:
    """A readable name such as "Kings full of Sevens" or "Pair of Queens"."""
    cls, *digits = (int(x) for x in descriptor)
    ranks = [d - 1 for d in digits if d]
    name, plural = RANK_NAMES[ranks[0]], RANK_PLURALS[ranks[0]]
    if cls == HIGH_CARD:
        return f"{name} high"
    if cls == PAIR:
        return f"Pair of {plural}"
    if cls == TWO_PAIR:
        return f"Two pair, {plural} and {RANK_PLURALS[ranks[1]]}"
    if cls == TRIPS:
        return f"Three {plural}"
    if cls == STRAIGHT:
        return f"{name}-high straight"
    if cls == FLUSH:
        return f"{name}-high flush"
    if cls == FULL_HOUSE:
        return f"{plural} full of {RANK_PLURALS[ranks[1]]}"
    if cls == QUADS:
        return f"Four {plural}"
    if cls == FIVE_OF_A_KIND:
        return f"Five {plural}"
    return "Royal flush" if ranks[0] == ACE else f"{name}-high straight flush"


def hand_name(strength: Strength) -> str:
    return describe_name(DESCRIPTORS[strength])


def lowball_class_name(goodness: int) -> str:
    """The class of a 2-7 hand: ace high, so A-5-4-3-2 is a high card hand, not a straight."""
    return CLASS_NAMES[int(LOW_DESCRIPTORS[goodness][0])]


def lowball_name(goodness: int) -> str:
    """A 2-7 name: ``7-5-4-3-2`` for a no-pair hand, else the hand's high name."""
    descriptor = LOW_DESCRIPTORS[goodness]
    if descriptor[0] == HIGH_CARD:
        return "-".join("23456789TJQKA"[d - 1] for d in descriptor[1:]) + " low"
    return describe_name(descriptor)


def is_royal(strength: Strength) -> bool:
    d = DESCRIPTORS[strength]
    return int(d[0]) == STRAIGHT_FLUSH and int(d[1]) == ACE + 1
