"""The exhaustive reference search, checked on hands small enough to reason about by hand.

The optimizer is judged against ``tests/reference.py``, so the reference itself must be right:
these tests pin it to hand-reasoned answers, to a one-board-at-a-time search through
``evaluate_board``, and to the golden hands in ``fixtures/golden_hands.jsonl``.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from fantasyland.evaluator.board import parse_board
from fantasyland.evaluator.cards import format_cards, parse_cards
from reference import best_sets, card_key, id_mask, plain_best_sets

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden_hands.jsonl"


def shown(board) -> str:
    return board.format(ascii=True) if board is not None else "no legal set"


def check(cards: str, variant: str, fl_value: float, value: float, board: str | None) -> None:
    got_value, got = best_sets(cards, variant, fl_value)
    assert got_value == value, (cards, variant, fl_value, got_value, shown(got))
    expected = parse_board(board) if board is not None else None
    if expected is None:
        assert got is None
    else:
        assert got is not None, shown(got)
        assert {r: card_key(got.row(r)) for r in ("top", "middle", "bottom")} == \
            {r: card_key(expected.row(r)) for r in ("top", "middle", "bottom")}, shown(got)


# --- the tie-break's card comparison ----------------------------------------------------------

def test_id_masks_order_rows_as_their_cards_from_the_highest_down():
    rng = random.Random(20240501)
    for size in (3, 5):
        for _ in range(2000):
            a, b = rng.sample(range(52), size), rng.sample(range(52), size)
            assert (card_key(a) < card_key(b)) == (id_mask(a) < id_mask(b)), (a, b)
            assert (card_key(a) == card_key(b)) == (id_mask(a) == id_mask(b))


def test_card_key_puts_the_ace_of_spades_first():
    assert card_key(parse_cards("Ac As Kh")) == (51, 48, 46)


# --- hand-reasoned answers --------------------------------------------------------------------

def test_13_cards_royal_bottom_quads_middle_trips_top_standard():
    # Only one royal flush, so the bottom royal (25) over middle quads (20) is forced; the
    # deuces go on top (222 = 10) and the 3c is the quads' kicker. All three rows stay.
    cards = "As Ks Qs Js Ts 9c 9d 9h 9s 2c 2d 2h 3c"
    best = "2c 2d 2h / 9c 9d 9h 9s 3c / As Ks Qs Js Ts"
    check(cards, "standard", 0.0, 55.0, best)
    check(cards, "standard", 15.0, 70.0, best)


def test_trips_on_top_beats_quads_on_the_bottom_pineapple():
    # Four queens: QQQ on top (20) over a 4-8 straight middle (4) and a hearts flush bottom
    # (4) is 28; QQQQ on the bottom (10) with a hearts flush middle (8) is only 18. Both stay,
    # so the worth of staying adds the same 15 to each. The Qh goes in the flush (K-Q-J-9-3
    # beats K-J-9-3-2), and the 2h is the discard.
    cards = "Qc Qd Qh Qs 4s 5d 6c 7s 8d 2h 3h 9h Jh Kh"
    best = "Qs Qd Qc / 8d 7s 6c 5d 4s / Kh Qh Jh 9h 3h"
    check(cards, "pineapple", 0.0, 28.0, best)
    check(cards, "pineapple", 15.0, 43.0, best)


def test_deuce_best_low_middle_under_royal_bottom_and_aces_on_top():
    # Each row takes its best hand at once: 7-5-4-3-2 (8), royal (25), AAA (22); 9d discarded.
    check("7c 5d 4h 3s 2c As Ks Qs Js Ts Ac Ad Ah 9d", "deuce", 15.0, 70.0,
          "Ac Ad Ah / 7c 5d 4h 3s 2c / As Ks Qs Js Ts")


def test_deuce_without_five_low_ranks_has_no_legal_set():
    # The 2-7 middle must be 10-high or lower: impossible with only jacks and up.
    assert best_sets("Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs Jc", "deuce", 15.0) == (-math.inf, None)


def test_fantasyland_value_flips_the_choice_pineapple():
    # Without the worth of staying, two full houses win: 77333 middle (12) under JJ555 bottom
    # (6) = 18. With 15 for staying, 333 on top (11) over 555 (2) and a 7-J straight (2) wins:
    # 15 + 15 = 30. No set with trips on top does better (555 on top needs a middle above it,
    # and the straight cannot also leave a full house).
    cards = "Js Jc Ts 9h 8d 7s 7d 5h 5d 5c 3s 3h 3c"
    check(cards, "pineapple", 0.0, 18.0, "Ts 9h 8d / 7s 7d 3s 3h 3c / Js Jc 5h 5d 5c")
    check(cards, "pineapple", 15.0, 30.0, "3s 3h 3c / Jc 7d 5h 5d 5c / Js Ts 9h 8d 7s")


def test_equal_stays_break_ties_by_the_stronger_bottom():
    # 222 top (10) + 9-K straight (4) + hearts flush (4) and 2222 bottom (10) + hearts flush
    # middle (8) are both worth 18 and both stay: the quads bottom is stronger, and it takes
    # the Ah as its kicker even though that leaves the middle a weaker flush.
    check("2c 2d 2h 2s 9s Th Jd Qc Kc 3h 5h 7h 8h Ah", "pineapple", 15.0, 33.0,
          "Kc Qc Jd / Th 8h 7h 5h 3h / Ah 2s 2h 2d 2c")


def test_the_wheel_is_the_lowest_straight():
    # Two straights: the wheel must go under the 6-high one, and KK goes on top: 4 + 2 + 8.
    check("Ac 2d 3h 4s 5c 6d 2h 3s 4d 5h Kd Kh Qs 9c", "pineapple", 0.0, 14.0,
          "Kh Kd Qs / Ac 5c 4d 3h 2d / 6d 5h 4s 3s 2h")


# --- against a search one board at a time -----------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("variant", ["pineapple", "standard", "deuce"])
@pytest.mark.parametrize("fl_value", [0.0, 15.0])
def test_reference_matches_the_board_by_board_search(variant, fl_value):
    # Random 13-card hands from 5 ranks: many pairs and trips, so many fouls and many ties.
    rng = random.Random(f"plain-{variant}-{fl_value}")
    ranks = rng.sample(range(13), 5)
    cards = rng.sample([r * 4 + s for r in ranks for s in range(4)], 13)
    assert best_sets(cards, variant, fl_value) == plain_best_sets(cards, variant, fl_value), \
        format_cards(cards, ascii=True)


# --- the golden hands -------------------------------------------------------------------------

def golden_hands() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("hand", golden_hands(), ids=lambda h: h["id"])
def test_golden_hand_matches_the_reference(hand):
    value = hand["expected_value"]
    check(hand["cards"], hand["variant"], hand["fl_value"],
          -math.inf if value is None else value, hand["expected_set"])
