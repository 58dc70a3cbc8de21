"""Hand strength: one scale for 3- and 5-card rows, and the 2-7 lowball scale.

The 5-card order is checked over all C(52, 5) hands against eval7, an independent
evaluator; the 3-card order and the 2-7 order against plain references written here.
"""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from collections import Counter
from importlib import resources
from itertools import combinations, combinations_with_replacement
from math import comb

import eval7
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fantasyland.evaluator.strength as scale
from fantasyland.evaluator import tables
from fantasyland.evaluator.cards import RANK_CHARS, SUIT_CHARS, parse_cards
from fantasyland.evaluator.strength import (CLASS_NAMES, CLASS_OF_STRENGTH, DESCRIPTORS,
                                            FIVE_OF_A_KIND, FLUSH, NUM_LOW, NUM_STRENGTHS,
                                            class_name, hand_name, is_royal, lowball_array,
                                            lowball_name, lowball_of, rank3_array, rank5_array,
                                            strength_of)
from fantasyland.evaluator.strength import CARDS_OF_STRENGTH

CHUNK = 250_000


def strength(text: str) -> int:
    return strength_of(parse_cards(text))


def low(text: str) -> int:
    return lowball_of(parse_cards(text))


def in_chunks(function, hands: np.ndarray) -> np.ndarray:
    return np.concatenate([function(hands[i:i + CHUNK]) for i in range(0, len(hands), CHUNK)])


@pytest.fixture(scope="module")
def strengths(all_five_card_hands) -> np.ndarray:
    return in_chunks(rank5_array, all_five_card_hands)


@pytest.fixture(scope="module")
def eval7_values(all_five_card_hands) -> np.ndarray:
    """eval7's value of every hand (higher is better), one Python call per hand."""
    deck = [eval7.Card(RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3]) for c in range(52)]
    evaluate = eval7.evaluate
    return np.fromiter((evaluate([deck[a], deck[b], deck[c], deck[d], deck[e]])
                        for a, b, c, d, e in all_five_card_hands.tolist()),
                       dtype=np.int64, count=len(all_five_card_hands))


# --- five cards: against eval7 over every hand -------------------------------------------

def test_five_card_order_matches_eval7_on_all_2598960_hands(
        strengths, eval7_values, assert_same_order):
    assert_same_order(eval7_values, strengths)
    assert len(np.unique(strengths)) == 7462


def test_five_card_classes_match_eval7_hand_types(strengths, eval7_values):
    names = {"high card": "High Card", "pair": "Pair", "two pair": "Two Pair",
             "trips": "Trips", "straight": "Straight", "flush": "Flush",
             "full house": "Full House", "quads": "Quads", "straight flush": "Straight Flush"}
    values, first = np.unique(eval7_values, return_index=True)
    for value, index in zip(values.tolist(), first.tolist()):
        assert names[class_name(int(strengths[index]))] == eval7.handtype(value)


def test_five_card_class_counts_match_combinatorics(strengths):
    # Counted from first principles: ranks choose x suits, minus the straights and flushes.
    straight_flushes = 10 * 4
    expected = {
        "high card": (comb(13, 5) - 10) * (4 ** 5 - 4),
        "pair": 13 * comb(4, 2) * comb(12, 3) * 4 ** 3,
        "two pair": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        "trips": 13 * comb(4, 3) * comb(12, 2) * 4 ** 2,
        "straight": 10 * 4 ** 5 - straight_flushes,
        "flush": 4 * comb(13, 5) - straight_flushes,
        "full house": 13 * comb(4, 3) * 12 * comb(4, 2),
        "quads": 13 * 48,
        "straight flush": straight_flushes,
        "five of a kind": 0,  # one deck without jokers never makes it
    }
    counts = np.bincount(CLASS_OF_STRENGTH[strengths], minlength=len(CLASS_NAMES))
    assert dict(zip(CLASS_NAMES, counts.tolist())) == expected
    assert sum(expected.values()) == comb(52, 5)


def test_order_of_all_five_card_hands_matches_pinned_digest(strengths):
    # Dense ranks (0 = worst) in combinations(range(52), 5) order: changes only if the
    # order of some pair of hands changes.
    _, dense = np.unique(strengths, return_inverse=True)
    digest = hashlib.sha256(dense.astype("<u2").tobytes()).hexdigest()
    assert digest == "915368d8101d00b07f992aa5df74de3677e75b25e89d7e8d087e24e1fad77ef2"


def test_strength_numbers_of_all_five_card_hands_match_pinned_digest(strengths):
    # The raw numbers also pin where the 3-card hands sit between the 5-card ones. A
    # deliberate change of the scale's layout updates this digest, and only this one (the
    # last: five of a kind and the flushes with a pair joined the scale, and the order
    # digest above stayed as it was).
    digest = hashlib.sha256(strengths.astype("<i4").tobytes()).hexdigest()
    assert digest == "ba509f9a7142f8a064efe1508f4fcd006e9de3ed68e86d61bdef96f770735a4f"


def test_rank5_array_gives_the_same_answer_for_any_integer_dtype(all_five_card_hands, strengths):
    # int8 is a natural dtype for cards; a narrow dtype once overflowed the flush lookup.
    for dtype in (np.int8, np.uint8, np.int16, np.int32):
        assert (in_chunks(rank5_array, all_five_card_hands.astype(dtype)) == strengths).all()
    suits = all_five_card_hands & 3
    flushes = all_five_card_hands[(suits == suits[:, :1]).all(axis=1)]
    assert (lowball_array(flushes) == lowball_array(flushes.astype(np.int64))).all()


@pytest.mark.parametrize("better, worse", [
    ("As Ks Qs Js Ts", "Kh Qh Jh Th 9h"),   # royal over king-high straight flush
    ("6c 5c 4c 3c 2c", "5d 4d 3d 2d Ad"),   # the steel wheel is the lowest straight flush
    ("2c 2d 2h 2s 3c", "Ac Ad Ah Kc Kd"),   # any quads over any full house
    ("6d 5h 4s 3c 2d", "5d 4h 3s 2c Ad"),   # A-2-3-4-5 is the lowest straight
    ("5d 4h 3s 2c Ad", "Ac Ad Ah Kc Qd"),   # ... but still a straight
    ("Kc Kd 8h 8s 2c", "Kh Ks 7c 7d Ac"),   # two pair: the second pair before the kicker
    ("Kc Kd 7h 7s 3c", "Kh Ks 7c 7d 2d"),   # ... and then the kicker
    ("Qc Qd 9h 8s 3c", "Qh Qs 9c 8d 2d"),   # a pair's kickers card by card
])
def test_five_card_examples_order_as_the_rules_say(better, worse):
    assert strength(better) > strength(worse)


def test_suits_never_break_ties():
    assert strength("Ac Kd 9h 7s 2c") == strength("As Kh 9d 7c 2h")
    assert strength("Ac Kc 9c 7c 2c") == strength("As Ks 9s 7s 2s")
    assert strength("Qc Qd 7h") == strength("Qh Qs 7c")


# --- three cards: against a plain reference ------------------------------------------------

def reference_three_card_key(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Trips > pair > high card, then ranks; three to a straight or flush counts for nothing."""
    counts = Counter(c >> 2 for c in cards)
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (max(counts.values()), *ordered)


def test_three_card_order_matches_reference_on_all_22100_tops(assert_same_order):
    tops = list(combinations(range(52), 3))
    keys = sorted({reference_three_card_key(t) for t in tops})
    reference = np.array([keys.index(reference_three_card_key(t)) for t in tops])
    assert_same_order(reference, rank3_array(np.array(tops)))
    assert len(keys) == comb(13, 3) + 13 * 12 + 13


def test_three_card_straights_and_flushes_are_only_high_card():
    assert strength("Qh Jh Th") == strength("Qc Jd Th")
    assert class_name(strength("4s 3s 2s")) == "high card"
    assert strength("Kc Qd 9h") > strength("Qh Jh Th")


# --- one scale for top and middle ----------------------------------------------------------

def test_three_and_five_card_hands_share_one_dense_scale(strengths):
    tops = rank3_array(np.array(list(combinations(range(52), 3))))
    used = np.union1d(np.unique(tops), np.unique(strengths))
    assert len(np.intersect1d(tops, strengths)) == 0  # a 3-card hand never ties a 5-card one
    # One deck reaches every strength but those that need two copies of a card: five of a
    # kind and the flushes that hold a pair (tests/test_two_decks.py reaches those).
    unused = np.setdiff1d(np.arange(NUM_STRENGTHS), used)
    paired_flush = (DESCRIPTORS[unused, 0] == FLUSH) & (
        np.diff(DESCRIPTORS[unused, 1:], axis=1) == 0).any(axis=1)
    assert ((DESCRIPTORS[unused, 0] == FIVE_OF_A_KIND) | paired_flush).all()
    assert len(unused) == 13 + 13 * comb(12, 3) + comb(13, 2) * 11
    assert (CARDS_OF_STRENGTH[np.unique(tops)] == 3).all()
    assert (CARDS_OF_STRENGTH[np.unique(strengths)] == 5).all()


@pytest.mark.parametrize("top, middle", [
    ("Qs Qh 7d", "Qc Qd 6s 5h 4d"),   # docs/rules.md: 7 beats 6 on the first kicker
    ("As Kd Qh", "Ac Kc Jd Td 9h"),   # Q beats J on the third card
    ("As Kd 5h", "Ac Kc 4d 3d 2h"),
    ("Ks Kh Kd", "Qs Qh Qd 7c 2c"),
    ("2s 2h 4d", "Ac Kd Qh Jc 9s"),   # any pair beats any high card
])
def test_top_above_middle_on_the_shared_scale(top, middle):
    assert strength(top) > strength(middle)


@pytest.mark.parametrize("top, middle", [
    ("Qs Qh 7d", "Qc Qd 9s 8h 2d"),   # docs/rules.md: QQ982 is above QQ7
    ("As Kd Qh", "Ac Kc Qd 3d 2h"),   # docs/rules.md: every compared card ties, the middle has more
    ("Qs Qh 7d", "Qc Qd 7c 5h 2d"),   # equal kickers as far as the top goes
    ("As Kd 4h", "Ac Kc 4d 3d 2h"),
    ("As Ah Kd", "2c 2d 3h 3s 4c"),   # two pair over any pair
    ("As Ah Ad", "5c 4d 3h 2s Ac"),   # the wheel over top trips
    ("Qs Qh Qd", "Kc Kd Ks 7c 2c"),
])
def test_middle_at_or_above_top_on_the_shared_scale(top, middle):
    assert strength(middle) > strength(top)


# --- names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, name", [
    ("As Ks Qs Js Ts", "Royal flush"),
    ("9h 8h 7h 6h 5h", "Nine-high straight flush"),
    ("7c 7d 7h 7s 2c", "Four Sevens"),
    ("Kc Kd Kh 7s 7c", "Kings full of Sevens"),
    ("Ac Jc 8c 4c 2c", "Ace-high flush"),
    ("5d 4h 3s 2c Ad", "Five-high straight"),
    ("Qs Qh Qd", "Three Queens"),
    ("Jc Jd 4h 4s 2c", "Two pair, Jacks and Fours"),
    ("Qs Qh 7d", "Pair of Queens"),
    ("As Kd Qh", "Ace high"),
])
def test_hand_names(cards, name):
    assert hand_name(strength(cards)) == name


def test_is_royal_only_for_the_ace_high_straight_flush():
    assert is_royal(strength("As Ks Qs Js Ts"))
    assert not is_royal(strength("Ks Qs Js Ts 9s"))
    assert not is_royal(strength("As Kd Qs Js Ts"))


@pytest.mark.parametrize("cards", [
    [0, 1, 2, 3], [0, 1, 2, 3, 4, 5], [0, 0, 0, 1, 2], [0, 1, 52], [-1, 1, 2],
])
def test_strength_of_refuses_rows_that_are_not_three_or_five_faces_of_two_decks(cards):
    with pytest.raises(ValueError):
        strength_of(cards)


# --- 2-7 lowball ---------------------------------------------------------------------------

def reference_deuce_key(ranks: tuple[int, ...], flush: bool) -> tuple[int, ...]:
    """Plain 2-7 reference: ordinary high classes with the ace always high and no wheel.

    Lower is better, so the best hand has the smallest key.
    """
    counts = Counter(ranks)
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight = len(counts) == 5 and max(ranks) - min(ranks) == 4
    if straight and flush:
        cls = 8
    elif shape == [4, 1]:
        cls = 7
    elif shape == [3, 2]:
        cls = 6
    elif flush:
        cls = 5
    elif straight:
        cls = 4
    else:
        cls = {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[tuple(shape)]
    return (cls, *ordered)


def rank_patterns():
    """One hand for every distinct (rank multiset, flush) pattern: 7,462 in all."""
    for ranks in combinations_with_replacement(range(13), 5):
        if len(set(ranks)) > 1:
            # Suits 0,1,2,3,0 along the sorted ranks: copies of a rank get distinct suits
            # and five cards are never one suit.
            yield ranks, False, [r * 4 + i % 4 for i, r in enumerate(ranks)]
    for ranks in combinations(range(13), 5):
        yield ranks, True, [r * 4 for r in ranks]


def test_deuce_to_seven_order_matches_reference_on_every_rank_pattern(assert_same_order):
    patterns = list(rank_patterns())
    keys = sorted({reference_deuce_key(r, f) for r, f, _ in patterns})
    index = {key: i for i, key in enumerate(keys)}
    badness = np.array([index[reference_deuce_key(r, f)] for r, f, _ in patterns])
    goodness = lowball_array(np.array([hand for _, _, hand in patterns]))
    assert_same_order(-badness, goodness)
    # The rest of the scale holds what needs two copies of a card (test_two_decks.py).
    assert len(patterns) == 7462 == NUM_LOW - 13 - 13 * comb(12, 3) - comb(13, 2) * 11


def test_deuce_to_seven_is_eval7_reversed_away_from_the_wheel(
        all_five_card_hands, eval7_values, assert_same_order):
    # 2-7 reverses the high order, except that A-2-3-4-5 is no straight there.
    rank_sets = (1 << (all_five_card_hands.astype(np.int64) >> 2)).sum(axis=1)
    wheel = 1 << 12 | 0b1111
    keep = rank_sets != wheel
    assert_same_order(-eval7_values[keep], in_chunks(lowball_array, all_five_card_hands[keep]))


def test_75432_offsuit_is_the_best_deuce_to_seven_hand():
    assert low("7h 5d 4s 3c 2h") == NUM_LOW - 1
    assert lowball_name(NUM_LOW - 1) == "7-5-4-3-2 low"


def test_ace_is_high_in_deuce_to_seven_so_a5432_is_ace_high_not_a_straight():
    assert lowball_name(low("Ah 5d 4s 3c 2h")) == "A-5-4-3-2 low"
    assert low("Ah 5d 4s 3c 2h") < low("Kh Qd Js 9c 8h")


@pytest.mark.parametrize("worse, better", [
    ("6h 5d 4s 3c 2h", "Ah Kd Qs Jc 9h"),   # a straight counts against you
    ("9h 7h 5h 3h 2h", "Ah Kd Qs Jc 9h"),   # a flush counts against you
    ("2h 2d 4s 3c 5h", "Ah Kd Qs Jc 9h"),   # any pair is worse than any no-pair hand
    ("8h 6d 4s 3c 2h", "7h 6d 4s 3c 2d"),   # lower high card is better
    ("7h 6d 5s 3c 2h", "7h 6d 4s 3c 2d"),   # then the next card
    ("9h 7h 5h 3h 2h", "6h 5d 4s 3c 2h"),   # a flush is worse than a straight
])
def test_deuce_to_seven_examples(worse, better):
    assert low(better) > low(worse)


def test_lowball_of_refuses_three_cards():
    with pytest.raises(ValueError, match="5-card"):
        lowball_of(parse_cards("7h 5d 2c"))


# --- suits are labels ----------------------------------------------------------------------

@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True),
       st.permutations(range(4)))
def test_relabelling_suits_keeps_every_strength(cards, suits):
    relabelled = [c - (c & 3) + suits[c & 3] for c in cards]
    assert strength_of(relabelled) == strength_of(cards)
    assert strength_of(relabelled[:3]) == strength_of(cards[:3])
    assert lowball_of(relabelled) == lowball_of(cards)


# --- the tables, shipped as package data ---------------------------------------------------

def _arrays(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def test_the_shipped_tables_are_a_fresh_build_from_the_rules_byte_for_byte():
    shipped = resources.files("fantasyland.evaluator.data").joinpath(scale.TABLES_FILE).read_bytes()
    fresh = tables.fresh()
    assert tables.digest(shipped) == tables.digest(fresh), \
        "the strength rules changed: rewrite the file with `python -m fantasyland.evaluator.tables`"
    assert shipped == fresh
    built, loaded = scale.build_tables(), _arrays(shipped)
    assert list(loaded) == list(built) == list(scale.TABLE_NAMES)
    for name, array in built.items():
        assert loaded[name].dtype == array.dtype and loaded[name].shape == array.shape, name
        assert np.array_equal(loaded[name], array), name


def test_import_uses_the_shipped_tables_read_only():
    for name, array in scale.build_tables().items():
        table = scale._T[name]
        assert table.dtype == array.dtype and np.array_equal(table, array), name
        assert not table.flags.writeable, name


def test_writing_the_tables_twice_gives_the_same_bytes(tmp_path):
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    strength = ["--table", "strength"]
    assert tables.main(argv=[*strength, "--output", str(first)]) == 0
    assert tables.main(argv=[*strength, "--output", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes() == tables.fresh()
    assert tables.main(argv=["--check", *strength, "--output", str(first)]) == 0
    first.write_bytes(first.read_bytes()[:-1])
    assert tables.main(argv=["--check", *strength, "--output", str(first)]) == 1


def test_the_module_checks_the_shipped_file_from_the_command_line():
    done = subprocess.run([sys.executable, "-m", "fantasyland.evaluator.tables", "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "a fresh build" in done.stdout
