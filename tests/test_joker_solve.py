"""The solver with jokers and two decks, against a plain exhaustive search.

``tests/reference_jokers.py`` shares nothing with the optimizer: it tries every face for every
joker in every row of every set. The solver must find the same value, and its set must be
worth that value when the evaluator scores it with the faces the solver chose. The fast
suite solves a few seeded hands of each kind; ``-m slow`` runs more, up to 17 cards, as
many as ``FANTASYLAND_CROSSCHECK`` says (a multiple of the lean default that CI runs:
``FANTASYLAND_CROSSCHECK=10`` for the closing notes' thousands of hands).
"""

import os
import random
from dataclasses import replace

import pytest
from reference_jokers import best_value

from evaluator import evaluate_board, find_rules
from evaluator.cards import JOKER, Deck
from optimizer import solve

JOKERS = replace(find_rules("pineapple"), deck=Deck(1, 2, False))
JOKERS_FIVE = replace(find_rules("pineapple"), deck=Deck(1, 2, True))
TWO_DECKS = replace(find_rules("pineapple"), deck=Deck(2, 0, True))
SCALE = int(os.environ.get("FANTASYLAND_CROSSCHECK", "1"))


def joker_hands(seed: int, count: int, sizes: tuple[int, ...], kinds=(1, 2)):
    """Seeded hands of one or two jokers (``kinds``) and real cards of one deck."""
    rng = random.Random(seed)
    for _ in range(count):
        jokers, size = rng.choice(list(kinds)), rng.choice(sizes)
        yield tuple(sorted(rng.sample(range(52), size - jokers) + [JOKER] * jokers))


def two_deck_hands(seed: int, count: int, sizes: tuple[int, ...]):
    """Seeded hands from two decks, every other one drawn to hold pairs of identical cards."""
    rng = random.Random(seed)
    for index in range(count):
        size = rng.choice(sizes)
        if index % 2 == 0:
            faces = rng.sample(range(52), size // 2 + 1)
            cards = (faces * 2)[:size]
        else:
            cards = rng.sample(list(range(52)) * 2, size)
        yield tuple(sorted(cards))


def check(cards, rules, fl_value):
    solution = solve(cards, variant=rules, fl_value=fl_value)
    expected = best_value(cards, rules, fl_value)
    if expected is None:
        assert solution.status == "fouled", cards
        return
    assert solution.status == "optimal"
    assert solution.value == pytest.approx(expected), (cards, solution.board.format(ascii=True))
    # The set as the solver chose its jokers' faces is worth what it says.
    report = evaluate_board(solution.board, rules)
    assert len(solution.board.jokers) == solution.board.cards.count(JOKER)
    assert not report.fouled
    worth = report.royalties.total + (fl_value if report.stays else 0.0)
    assert worth == pytest.approx(solution.value)


@pytest.mark.parametrize("fl_value", [0.0, 15.0])
@pytest.mark.parametrize("rules", [JOKERS, JOKERS_FIVE], ids=["jokers", "five-of-a-kind"])
def test_joker_hands_match_the_plain_search(rules, fl_value):
    for cards in joker_hands(seed=int(fl_value) + rules.deck.five_of_a_kind, count=3,
                             sizes=(13,)):
        check(cards, rules, fl_value)


@pytest.mark.parametrize("fl_value", [0.0, 15.0])
def test_two_deck_hands_match_the_plain_search(fl_value):
    for cards in two_deck_hands(seed=int(fl_value), count=4, sizes=(13,)):
        check(cards, TWO_DECKS, fl_value)


@pytest.mark.slow
@pytest.mark.parametrize("fl_value", [0.0, 15.0])
@pytest.mark.parametrize("rules", [JOKERS, JOKERS_FIVE], ids=["jokers", "five-of-a-kind"])
def test_many_joker_hands_match_the_plain_search(rules, fl_value):
    for cards in joker_hands(seed=100 + int(fl_value) + 7 * rules.deck.five_of_a_kind,
                             count=6 * SCALE, sizes=(13, 14)):
        check(cards, rules, fl_value)


@pytest.mark.slow
@pytest.mark.parametrize("size", [15, 16] + ([17] if SCALE > 1 else []))
def test_big_joker_hands_match_the_plain_search(size):
    # The plain search takes a minute or more for 16 cards with two jokers, and minutes for
    # 17: the lean run takes one hand with one joker of 15 and 16 cards, a scaled run both
    # kinds, and 17 cards too.
    kinds = (1,) if SCALE == 1 else (1, 2)
    for cards in joker_hands(seed=size, count=SCALE, sizes=(size,), kinds=kinds):
        check(cards, JOKERS, 13.7)


@pytest.mark.slow
@pytest.mark.parametrize("fl_value", [0.0, 15.0])
def test_many_two_deck_hands_match_the_plain_search(fl_value):
    for cards in two_deck_hands(seed=200 + int(fl_value), count=20 * SCALE, sizes=(13, 14)):
        check(cards, TWO_DECKS, fl_value)


def test_a_joker_is_played_down_when_the_middle_cannot_beat_trips():
    # Jk Qs Qh on top, the middle a pair of queens: trips would foul, so the joker is a
    # kicker, at most the middle's best: Q Q T against Q Q T 8 5.
    board = "Jk Qs Qh / Qc Qd 5h 8s Tc / Ah Ad 9c 9s 4d"
    report = evaluate_board(board, JOKERS)
    assert not report.fouled
    assert report.top.name == "Pair of Queens" and report.top.royalty == 7
    # a ten, as high as it can be, and one not already on the board (Tc is in the middle)
    (face,) = report.board.jokers
    assert face >> 2 == 8 and face not in report.board.cards


def test_two_jokers_on_top_make_trips_that_stay():
    report = evaluate_board("Jk Jk Qh / Kc Kd Ks 8s 8c / Ah Ad Ac 9s 9d", JOKERS)
    assert report.top.name == "Three Queens" and report.top.royalty == 20 and report.stays


@pytest.mark.parametrize("rules, name, royalty", [
    (JOKERS, "Four Aces", 10), (JOKERS_FIVE, "Five Aces", 15)])
def test_five_of_a_kind_only_where_the_rules_have_it(rules, name, royalty):
    report = evaluate_board("2c 3d 4h / Kc Kd 7s 7c 5h / Jk As Ah Ad Ac", rules)
    assert report.bottom.name == name and report.bottom.royalty == royalty


def test_a_flush_holding_a_pair_beats_a_higher_plain_flush_under_two_decks():
    low = evaluate_board("2c 3d 4h / Ah Kh Qh Jh 9h / As As Ks 9s 2s", TWO_DECKS)
    assert not low.fouled  # A-A-K-9-2 of spades beats A-K-Q-J-9 of hearts
    high = evaluate_board("2c 3d 4h / As As Ks 9s 2s / Ah Kh Qh Jh 9h", TWO_DECKS)
    assert high.fouled
