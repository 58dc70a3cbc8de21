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
import time
from dataclasses import replace

import numpy as np
import pytest
from reference_jokers import best_of_each_kind, best_value

from fantasyland.evaluator import Board, evaluate_board, find_rules
from fantasyland.evaluator.cards import JOKER, Deck
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver.bounds import INF, chain_bounds, set_bounds
from fantasyland.optimizer.solver.candidates import enumerate_candidates
from fantasyland.optimizer.solver.complete import Found
from fantasyland.optimizer.solver.joker_bounds import JokerChain
from fantasyland.optimizer.solver.mode import _bring_back, solve_mode
from fantasyland.optimizer.solver.solve import make_objective
from fantasyland.optimizer.solver.table import PLAIN
from fantasyland.optimizer.solver.table import Sample

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
    report = evaluate_board(solution.board, rules=rules)
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
    report = evaluate_board(board, rules=JOKERS)
    assert not report.fouled
    assert report.top.name == "Pair of Queens" and report.top.royalty == 7
    # a ten, as high as it can be, and one not already on the board (Tc is in the middle)
    (face,) = report.board.jokers
    assert face >> 2 == 8 and face not in report.board.cards


def test_two_jokers_on_top_make_trips_that_stay():
    report = evaluate_board("Jk Jk Qh / Kc Kd Ks 8s 8c / Ah Ad Ac 9s 9d", rules=JOKERS)
    assert report.top.name == "Three Queens" and report.top.royalty == 20 and report.stays


@pytest.mark.parametrize("rules, name, royalty", [
    (JOKERS, "Four Aces", 10), (JOKERS_FIVE, "Five Aces", 15)])
def test_five_of_a_kind_only_where_the_rules_have_it(rules, name, royalty):
    report = evaluate_board("2c 3d 4h / Kc Kd 7s 7c 5h / Jk As Ah Ad Ac", rules=rules)
    assert report.bottom.name == name and report.bottom.royalty == royalty


def test_a_flush_holding_a_pair_beats_a_higher_plain_flush_under_two_decks():
    low = evaluate_board("2c 3d 4h / Ah Kh Qh Jh 9h / As As Ks 9s 2s", rules=TWO_DECKS)
    assert not low.fouled  # A-A-K-9-2 of spades beats A-K-Q-J-9 of hearts
    high = evaluate_board("2c 3d 4h / As As Ks 9s 2s / Ah Kh Qh Jh 9h", rules=TWO_DECKS)
    assert high.fouled



# --- the best set of each kind, its jokers played as they must be -----------------------------

PINEAPPLE_JOKER = find_rules("pineapple-joker")


def paired_joker_hands(seed: int, count: int):
    """Seeded 13-card hands of two jokers and eleven cards of five ranks (2, 4, T, J, Q): so
    many pairs and trips that the jokers make trips on top, full houses and quads often."""
    rng = random.Random(seed)
    deck = [rank * 4 + suit for rank in (0, 2, 8, 9, 10) for suit in range(4)]
    for _ in range(count):
        yield tuple(sorted(rng.sample(deck, 11) + [JOKER] * 2))


def test_the_best_set_that_does_not_stay_plays_its_jokers_as_score_does():
    # Jk Jk 4s on top as A-A-4 does not stay (27 royalties), but over a middle of twos full
    # its jokers play as fours, and the set stays: the best that does not stay is worth 25.
    cards = "4h 2c Tc Qs 2h Qh Jk Jh 4s Jk 2s Qc Ts Jc"
    solution = solve(cards, variant=PINEAPPLE_JOKER, fl_value=0.0)
    keep = solution.best_not_staying
    assert (keep.points, keep.royalties) == (25.0, 25)
    assert solution.break_even_fl_value == -19.0
    played = evaluate_board(Board(keep.board.top, keep.board.middle, keep.board.bottom),
                            rules=PINEAPPLE_JOKER)
    assert not played.stays and played.royalties.total == 25
    assert solution.best_staying.points == 44.0


def test_the_best_set_of_each_kind_matches_the_plain_search_as_jokers_play():
    """Both kinds against every set of the hand, each played as ``score`` plays it. In each
    of these three hands the best set that does not stay, its jokers at any faces, plays
    into staying."""
    for cards in paired_joker_hands(seed=3, count=3):
        staying, not_staying = best_of_each_kind(cards, PINEAPPLE_JOKER, 5.0)
        solution = solve(cards, variant=PINEAPPLE_JOKER, fl_value=5.0)
        for expected, mode in ((staying, solution.best_staying),
                               (not_staying, solution.best_not_staying)):
            if expected is None:
                assert mode is None, cards
                continue
            assert mode.points == pytest.approx(expected), cards
            played = evaluate_board(Board(mode.board.top, mode.board.middle, mode.board.bottom),
                                    rules=PINEAPPLE_JOKER)
            assert played.stays == mode.stays, (cards, mode.board.format(ascii=True))

# --- deferred middles (optimizer.solver.candidates.Deferred) ---------------------------------

def _weighed(cards, rules):
    goal = make_objective("royalties", rules, cards, None,
                          sample=Sample(table=PLAIN, samples=200, seed=0, boards=None))
    return goal, goal.weigh(enumerate_candidates(cards, rules, compares_rows=goal.compares_rows))


def _middles(rc):
    return set(zip(rc.masks.tolist(), rc.strength.tolist()))


@pytest.mark.parametrize("seed", range(4))
def test_deferred_middles_come_back_exactly_where_their_bound_reaches(seed):
    """The banded first bound never turns away a middle whose own bound reaches the value."""
    for cards in joker_hands(100 + seed, 3, (13, 15, 17), kinds=(2,)):
        goal, cands = _weighed(cards, JOKERS)
        assert cands.deferred is not None
        everything = _middles(cands.with_deferred().middle)
        for need_stay in (False, True):
            mode = cands if need_stay else cands.without_stays()
            chain = JokerChain(mode)
            probe = goal.weigh(mode.replace(middle=mode.deferred.probe)).middle
            rest = chain.others_of("middle", probe)
            exact = probe.bound + (rest.stay if need_stay else rest.any)
            for value in sorted({int(v) for v in exact if v > -INF // 2})[::3]:
                found = Found(value, (0, 0, 0), {})
                built = _bring_back(JokerChain(mode), need_stay, goal, found, {})
                assert built.deferred is None
                reach = probe.tiebreak[exact >= value]  # the choices' places in build order
                which = np.zeros(len(probe), dtype=bool)
                which[reach] = True
                expected = _middles(mode.with_deferred(which=which).middle)
                assert _middles(built.middle) == expected, (cards, need_stay, value)
                assert expected <= everything


@pytest.mark.parametrize("seed", range(3))
def test_deferring_middles_changes_no_set(seed):
    """Each mode's best set, ties included, with the played-down middles deferred and with
    every middle built from the start."""
    for cards in joker_hands(200 + seed, 4, (13, 14, 16, 17)):
        goal, cands = _weighed(cards, JOKERS_FIVE)
        if cands.deferred is None:
            continue
        whole = goal.weigh(cands.with_deferred())
        for need_stay in (False, True):
            deferred = solve_mode(cands, need_stay, goal, time.perf_counter() + 60)
            built = solve_mode(whole, need_stay, goal, time.perf_counter() + 60)
            if built is None:
                assert deferred is None
                continue
            assert (deferred.weight, deferred.tiebreak) == (built.weight, built.tiebreak), cards
            assert deferred.board == built.board


@pytest.mark.parametrize("need_stay", [False, True])
def test_the_jokers_counted_chain_bound_is_never_below_a_set_through_the_candidate(need_stay):
    """Every legal set of a 13-card hand (the three cards a bottom and a middle leave are the
    top's), against the bound of each of its rows' candidates."""
    for cards in joker_hands(300 + need_stay, 2, (13,), kinds=(2,)):
        goal, cands = _weighed(cards, JOKERS)
        cands = goal.weigh(cands.with_deferred())
        bounds = set_bounds(cands, chain_bounds(cands), need_stay)
        b, m, t = cands.bottom, cands.middle, cands.top
        bi, mi = np.nonzero(((b.masks[:, None] & m.masks[None, :]) == 0)
                            & (m.strength[None, :] <= b.strength[:, None]))
        rest = ((1 << len(cards)) - 1) ^ (b.masks[bi] | m.masks[mi])
        pair, ti = np.nonzero(rest[:, None] == t.masks[None, :])
        bi, mi = bi[pair], mi[pair]
        legal = t.strength[ti] <= m.strength[mi]
        if need_stay:
            legal &= b.stays[bi] | m.stays[mi] | t.stays[ti]
        bi, mi, ti = bi[legal], mi[legal], ti[legal]
        value = b.weight[bi] + m.weight[mi] + t.weight[ti]
        assert len(value), cards
        for row, index in (("bottom", bi), ("middle", mi), ("top", ti)):
            best = np.full(len(cands.row(row)), -INF)
            np.maximum.at(best, index, value)
            assert (bounds[row] >= best).all(), (cards, row)
