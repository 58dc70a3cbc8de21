"""Hand specs: the words a rules file uses for "at least this hand"."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import fantasyland.evaluator.handspec
from fantasyland.evaluator.cards import Deck, parse_cards
from fantasyland.evaluator.handspec import HandSpec, HandSpecError, Scale, parse_spec
from fantasyland.evaluator.strength import (DESCRIPTORS, FLUSH, FULL_HOUSE, HIGH_CARD,
                                            LOW_DESCRIPTORS, PAIR, QUADS, STRAIGHT, STRAIGHT_FLUSH,
                                            TRIPS, TWO_PAIR, lowball_of, strength_of)


def strength(text: str) -> int:
    return strength_of(parse_cards(text, deck=Deck(decks=2)))


def low(text: str) -> int:
    return lowball_of(parse_cards(text))


@pytest.mark.parametrize("text, cls", [
    ("high card", HIGH_CARD), ("nothing", HIGH_CARD), ("pair", PAIR), ("one pair", PAIR),
    ("two pair", TWO_PAIR), ("trips", TRIPS), ("three of a kind", TRIPS), ("set", TRIPS),
    ("straight", STRAIGHT), ("flush", FLUSH), ("full house", FULL_HOUSE),
    ("Full_House", FULL_HOUSE), ("full-house", FULL_HOUSE), ("quads", QUADS),
    ("four of a kind", QUADS), ("straight flush", STRAIGHT_FLUSH),
])
def test_class_words_parse_to_their_class(text, cls):
    spec = parse_spec(text)
    assert (spec.cls, spec.digits, spec.exact) == (cls, (), False)


@pytest.mark.parametrize("text, spec", [
    ("QQ", HandSpec("QQ", PAIR, (11,))),
    ("qq", HandSpec("qq", PAIR, (11,))),
    ("1010", HandSpec("1010", PAIR, (9,))),
    ("222", HandSpec("222", TRIPS, (1,))),
    ("royal flush", HandSpec("royal flush", STRAIGHT_FLUSH, (13,))),
    ("T-high", HandSpec("T-high", HIGH_CARD, (9,))),
    ("10-high", HandSpec("10-high", HIGH_CARD, (9,))),
    ("9high", HandSpec("9high", HIGH_CARD, (8,))),
    ("75432", HandSpec("75432", HIGH_CARD, (6, 4, 3, 2, 1), exact=True)),
    ("23457", HandSpec("23457", HIGH_CARD, (6, 4, 3, 2, 1), exact=True)),
    ("AKQ", HandSpec("AKQ", HIGH_CARD, (13, 12, 11), exact=True)),
])
def test_rank_specs_parse_to_their_digits(text, spec):
    assert parse_spec(text) == spec
    assert str(parse_spec(text)) == text


@pytest.mark.parametrize("text", ["QX", "QQQQ", "7543", "77432", "Q", "royal", "", "J-low"])
def test_bad_spec_raises_hand_spec_error_quoting_it(text):
    with pytest.raises(HandSpecError, match=f"bad hand spec '{text}'"):
        parse_spec(text)


def test_hand_spec_error_is_a_value_error():
    assert issubclass(HandSpecError, ValueError)


@pytest.mark.parametrize("spec, weakest", [
    ("QQ", "Qs Qh 2d"),            # the 3-card pair with the lowest kicker
    ("66", "6s 6h 2d"),
    ("222", "2s 2h 2d"),           # 3-card trips sit below every 5-card trips
    ("trips", "2s 2h 2d"),
    ("straight", "5d 4h 3s 2c Ad"),
    ("flush", "4c 3c 3c 2c 2c"),  # two decks: a flush may hold two pair
    ("five of a kind", "2c 2d 2h 2s 2c"),
    ("full house", "2c 2d 2h 3s 3c"),
    ("quads", "2c 2d 2h 2s 3c"),
    ("straight flush", "5d 4d 3d 2d Ad"),
    ("royal flush", "As Ks Qs Js Ts"),
])
def test_high_threshold_is_the_weakest_hand_of_the_category(spec, weakest):
    assert parse_spec(spec).threshold(Scale.HIGH) == strength(weakest)


@pytest.mark.parametrize("spec, weakest", [
    ("T-high", "Th 9d 8s 7c 5h"),   # T9876 is a straight, so T9875 is the weakest T-high
    ("9-high", "9h 8d 7s 6c 4h"),
    ("8-high", "8h 7d 6s 5c 3h"),
    ("7-high", "7h 6d 5s 4c 2h"),
    ("75432", "7h 5d 4s 3c 2h"),
])
def test_deuce_to_seven_threshold_is_the_highest_no_pair_hand_of_the_category(spec, weakest):
    assert parse_spec(spec).threshold(Scale.DEUCE_TO_SEVEN) == low(weakest)


def test_at_least_t_high_on_the_deuce_scale_is_exactly_the_no_pair_t_high_or_lower_hands():
    threshold = parse_spec("T-high").threshold(Scale.DEUCE_TO_SEVEN)
    qualifying = LOW_DESCRIPTORS[threshold:]
    assert (qualifying[:, 0] == HIGH_CARD).all()
    ten = parse_spec("T-high").digits[0]  # a digit is rank + 1: the ten is 9
    assert (qualifying[:, 1] <= ten).all()
    refused = LOW_DESCRIPTORS[:threshold]
    assert ((refused[:, 0] != HIGH_CARD) | (refused[:, 1] > ten)).all()


def test_matches_selects_the_category_on_the_descriptor_table():
    pairs_of_queens = DESCRIPTORS[parse_spec("QQ").matches(DESCRIPTORS)]
    assert (pairs_of_queens[:, :2] == (PAIR, 11)).all()
    # 3-card QQx has 12 kickers, 5-card QQxyz has C(12, 3) kicker sets
    assert len(pairs_of_queens) == 12 + 220
    assert parse_spec("75432").matches(DESCRIPTORS).sum() == 1


def test_spec_that_names_no_hand_on_the_scale_raises():
    # A-5-4-3-2 offsuit is the wheel on the high scale, so no high-card hand has those
    # ranks there; in 2-7 the ace is high and it is an ordinary ace-high hand.
    with pytest.raises(HandSpecError, match="'A5432' names no hand on the high scale"):
        parse_spec("A5432").threshold(Scale.HIGH)
    assert parse_spec("A5432").threshold(Scale.DEUCE_TO_SEVEN) == low("Ah 5d 4s 3c 2h")


def test_thresholds_lie_on_their_scales():
    assert parse_spec("five of a kind").threshold(Scale.HIGH) == len(DESCRIPTORS) - 13
    assert parse_spec("royal flush").threshold(Scale.HIGH) == len(DESCRIPTORS) - 14
    assert parse_spec("75432").threshold(Scale.DEUCE_TO_SEVEN) == len(LOW_DESCRIPTORS) - 1
    assert np.all(np.diff([parse_spec(s).threshold(Scale.HIGH)
                           for s in ("pair", "two pair", "trips", "straight", "flush",
                                     "full house", "quads", "straight flush",
                                     "five of a kind")]) > 0)


@pytest.mark.parametrize("spec, high, deuce", [
    ("pair", (3, 5), (5,)), ("QQ", (3, 5), (5,)), ("222", (3, 5), (5,)),
    ("trips", (3, 5), (5,)), ("T-high", (3, 5), (5,)), ("high card", (3, 5), (5,)),
    ("AKQ", (3,), ()),                      # exactly A-K-Q: only a 3-card hand
    ("75432", (5,), (5,)), ("two pair", (5,), (5,)), ("straight", (5,), (5,)),
    ("flush", (5,), (5,)), ("full house", (5,), (5,)), ("quads", (5,), (5,)),
    ("straight flush", (5,), (5,)), ("royal flush", (5,), (5,)),
])
def test_row_sizes_say_which_rows_can_make_a_spec(spec, high, deuce):
    assert parse_spec(spec).row_sizes(Scale.HIGH) == high
    assert parse_spec(spec).row_sizes(Scale.DEUCE_TO_SEVEN) == deuce


def test_the_high_scale_holds_one_value_per_three_card_rank_multiset():
    # 286 no-pair, 13 x 12 pairs and 13 trips: C(13 + 2, 3) = 455 three-card hands
    sizes = fantasyland.evaluator.handspec._cards_of(Scale.HIGH)
    counts = np.bincount(sizes)
    assert (counts[3], counts[5]) == (455, len(DESCRIPTORS) - 455)
    assert strength("Qs Qh 7d") in np.flatnonzero(sizes == 3)


def test_handspec_doctests_pass():
    # pyproject's testpaths hold only tests/, so the module's examples are run from here.
    result = doctest.testmod(fantasyland.evaluator.handspec)
    assert result.attempted > 0 and result.failed == 0
