"""The opponent model under the decks that are data: two jokers, and two decks.

docs/rules.md, "Jokers" and "Two decks": the bot deals from the rules' deck (jokers at their real
frequency, two copies of each face under two decks), plays a row holding jokers as what it
can best play as, and its boards are stored as they play; card removal counts copies; two
decks seat up to five opponents.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from math import prod

import numpy as np
import pytest

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.board_arrays import evaluate_boards
from fantasyland.evaluator.cards import JOKER, CardError, Deck, parse_cards
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.opponents.bot import deck_counts
from fantasyland.optimizer.opponents.draw import (bot_stats, candidate_pairs, dealt_array,
                                                  max_opponents, opponent_boards, pair_boards,
                                                  pair_jokers)
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.bot import BotParams
from fantasyland.optimizer.opponents.players import build_pool, heuristic
from fantasyland.optimizer.opponents.pools import (PERMUTATIONS, Pool, deal_from, play_hands,
                                                   pool_file_name, pool_for, relabel, shipped_pools)
from fantasyland.optimizer.opponents.resolve import evaluate_played

JOKERS = Deck(1, 2, False)
TWO_DECKS = Deck(2, 0, True)
SEEN = 17  # cards a Pineapple player sees: 13 placed and 4 thrown away


def _rules(deck: Deck):
    return dataclasses.replace(find_rules("pineapple"), deck=deck)


def _seen(pool: Pool) -> np.ndarray:
    """Each board's cards as its player saw them: jokers as jokers, then the discards."""
    return np.concatenate([pool.placed, pool.discards], axis=1)


# --- dealing ---------------------------------------------------------------------------------

def test_a_hand_is_dealt_from_the_rules_deck():
    assert deal_from(Deck()).tolist() == list(range(52))  # one plain deck: as before
    assert Counter(deal_from(JOKERS).tolist())[JOKER] == 2 and len(deal_from(JOKERS)) == 54
    two = Counter(deal_from(TWO_DECKS).tolist())
    assert len(two) == 52 and set(two.values()) == {2}
    left = Counter(deal_from(TWO_DECKS, removed=[51, 51, 0]).tolist())
    assert 51 not in left and left[0] == 1 and sum(left.values()) == 101


def _within(observed: float, expected: float, sd: float, n: int, errors: float = 4.0) -> bool:
    return abs(observed - expected) <= errors * sd / np.sqrt(n)


def test_the_joker_pool_saw_jokers_at_their_real_frequency():
    # 17 cards of 54 hold each of the two jokers with chance 17/54: a hypergeometric count.
    pool = pool_for(_rules(JOKERS))
    jokers = (_seen(pool) == JOKER).sum(axis=1)
    p, n_deck = 2 / 54, 54
    mean = SEEN * p
    sd = np.sqrt(SEEN * p * (1 - p) * (n_deck - SEEN) / (n_deck - 1))
    assert _within(jokers.mean(), mean, sd, len(pool))
    assert jokers.max() == 2 and (pool.jokers.sum(axis=1) <= 2).all()


def test_the_double_deck_pool_saw_identical_cards_as_often_as_two_decks_deal_them():
    pool = pool_for(_rules(TWO_DECKS))
    seen = np.sort(_seen(pool), axis=1)
    twice = (np.diff(seen, axis=1) == 0).any(axis=1)
    # The chance that 17 cards of 104 hold no face twice: each next card avoids the faces
    # already dealt (2 copies of each of them gone from the 104 - i left, one already dealt).
    distinct = prod((104 - 2 * i) / (104 - i) for i in range(SEEN))
    share = 1 - distinct
    assert _within(twice.mean(), share, np.sqrt(share * (1 - share)), len(pool))


# --- the bot's play --------------------------------------------------------------------------

@pytest.mark.parametrize("deck", [JOKERS, TWO_DECKS], ids=["jokers", "two-decks"])
def test_the_bot_never_plays_a_card_more_often_than_the_deck_holds_it(deck):
    rules = _rules(deck)
    played = play_hands(rules, pool_for(rules).dealing, 3, seed=5,
                        player=heuristic(rules, BotParams()))
    for pool in (played, pool_for(rules)):
        seen = _seen(pool)
        assert seen.shape[1] == SEEN
        counts = np.stack([np.bincount(row, minlength=JOKER + 1) for row in seen])
        assert (counts <= deck_counts(deck)).all()


def test_the_bot_plays_the_same_seeded_hands_again():
    rules = _rules(JOKERS)
    first, again = (play_hands(rules, pool_for(rules).dealing, 2, seed=11,
                               player=heuristic(rules, BotParams())) for _ in range(2))
    assert (first.boards == again.boards).all() and (first.jokers == again.jokers).all()


def _board(cards, jokers=None) -> Board:
    held = [JOKER if wild else card for card, wild in zip(cards, jokers)] if jokers is not None \
        else list(cards)
    faces = tuple(c for c, wild in zip(cards, jokers) if wild) if jokers is not None else ()
    return Board(tuple(held[:3]), tuple(held[3:8]), tuple(held[8:]), faces)


def test_joker_boards_are_stored_as_they_play_and_compare_as_faces():
    rules = _rules(JOKERS)
    pool = pool_for(rules)
    assert pool.boards.max() <= 51 and pool.jokers.any()
    out = evaluate_boards(pool.boards, rules)  # rows of faces: what the EV objective compares
    for i in np.flatnonzero(pool.jokers.any(axis=1))[:60]:
        chosen = evaluate_board(_board(pool.placed[i]), rules=rules)  # the jokers chosen afresh
        stored = evaluate_board(_board(pool.boards[i], pool.jokers[i]), rules=rules)
        # The real cards stay where they are; each joker's face plays as the evaluator's
        # choice for the set does (the face may differ where two make the same hand: the
        # pool's boards are relabelled after the choice).
        real = ~pool.jokers[i]
        assert (pool.boards[i][real] == pool.placed[i][real]).all()
        assert stored.fouled == chosen.fouled == out.fouled[i]
        assert stored.royalties.total == chosen.royalties.total == out.royalty_total[i]
        for row in ("top", "middle", "bottom"):
            assert stored.row(row).value == chosen.row(row).value == out.values[row][i]


@pytest.mark.parametrize("deck", [JOKERS, Deck(1, 1, True), Deck(2, 2, True)],
                         ids=["two-jokers", "one-joker-five", "two-decks-two-jokers"])
@pytest.mark.parametrize("variant", ["pineapple", "progressive"])
def test_the_bots_joker_play_is_worth_what_evaluate_board_chooses(variant, deck):
    # The greedy choice down the foul order (optimizer.opponents.resolve) against the
    # evaluator's choice over every combination of the rows' plays.
    rules = dataclasses.replace(find_rules(variant), deck=deck)
    rng = np.random.default_rng(3)
    boards = np.array([rng.permutation(deal_from(deck))[:13] for _ in range(600)])
    boards = boards[(boards == JOKER).any(axis=1)][:120]
    out = evaluate_played(boards, rules)
    for i, cards in enumerate(boards.tolist()):
        report = evaluate_board(_board(cards), rules=rules)
        assert report.fouled == out.fouled[i]
        assert report.royalties.total == out.royalty_total[i]
        assert (report.fantasyland_cards or 0) == out.entry_cards[i]
        assert report.stays == out.stays[i]
        if not report.fouled:
            for row in ("top", "middle", "bottom"):
                assert report.row(row).strength == out.strengths[row][i]


# --- pools -----------------------------------------------------------------------------------

def test_pool_files_name_the_deck_unless_it_is_one_plain_deck():
    assert pool_file_name(find_rules("pineapple")) == "three-keep-two-pineapple.npz"
    assert pool_file_name(find_rules("standard")) == "one-at-a-time-standard.npz"
    assert pool_file_name(_rules(JOKERS)) == "three-keep-two-2-jokers-pineapple.npz"
    assert pool_file_name(_rules(TWO_DECKS)) == "three-keep-two-2-decks-pineapple.npz"


def test_each_deck_gets_the_pool_dealt_from_it():
    plain, jokers, two = (pool_for(_rules(d)) for d in (Deck(), JOKERS, TWO_DECKS))
    assert len({id(plain), id(jokers), id(two)}) == 3
    assert plain is pool_for(find_rules("pineapple")) and "deck" not in plain.meta
    assert jokers.deck == JOKERS and two.deck == TWO_DECKS
    for pool in (jokers, two):
        assert pool.meta["hands"] == len(pool) and pool.meta["seconds"] > 0


@pytest.mark.parametrize("deck", [JOKERS, TWO_DECKS], ids=["jokers", "two-decks"])
def test_the_shipped_pools_of_the_new_decks_are_what_the_code_plays(deck):
    # As tests/test_opponents.py checks the others: a change to the bot that was not followed
    # by `opponents --regenerate` fails here.
    shipped, fresh = pool_for(_rules(deck)), build_pool(_rules(deck), hands=3)
    assert fresh.meta["seed"] == shipped.meta["seed"] and fresh.meta["deck"] == \
        shipped.meta["deck"]
    assert (fresh.boards == shipped.boards[:3]).all()
    assert (fresh.discards == shipped.discards[:3]).all()
    assert (fresh.placed == shipped.placed[:3]).all()


def test_a_deck_without_a_pool_is_a_clear_error():
    with pytest.raises(OpponentModelError, match=r"three-keep-two, 1-joker"):
        pool_for(_rules(Deck(1, 1, False)))


def test_stats_name_the_deck_of_the_dealing():
    assert bot_stats(_rules(JOKERS), 200, 0)["dealing"] == "three-keep-two, 2-jokers"
    assert bot_stats(find_rules("pineapple"), 200, 0)["dealing"] == "three-keep-two"


# --- card removal ----------------------------------------------------------------------------

def _synthetic_pool(deck: Deck, seed: int, n: int = 40) -> Pool:
    rng = np.random.default_rng(seed)
    seen = np.array([rng.permutation(deal_from(deck))[:SEEN] for _ in range(n)])
    placed, discards = seen[:, :13], seen[:, 13:]
    jokers = placed == JOKER
    boards = np.where(jokers, 0, placed)  # the faces the jokers play as do not matter here
    meta = {"rules": "test", "dealing": "three-keep-two", "foul_signature": "",
            "deck": dataclasses.asdict(deck)}
    return Pool(boards, discards, meta, jokers if deck.jokers else None)


def _fits(deck: Deck, dealt, cards) -> bool:
    used = Counter(list(dealt)) + Counter(list(cards))
    return all(count <= deck.copies(card) for card, count in used.items())


@pytest.mark.parametrize("deck", [JOKERS, TWO_DECKS, Deck(2, 1, True)],
                         ids=["jokers", "two-decks", "two-decks-one-joker"])
def test_removal_counts_copies_exactly(deck):
    # Every (board, relabelling) pair is checked against a plain count of the cards it uses
    # together with the dealt hand.
    pool = _synthetic_pool(deck, seed=2)
    rng = np.random.default_rng(8)
    for trial in range(3):
        dealt = rng.permutation(deal_from(deck))[:14 + trial]
        exact, relaxed = candidate_pairs(pool, dealt_array(dealt, deck=deck))
        exact, relaxed = set(exact.tolist()), set(relaxed.tolist())
        for pair in range(len(pool) * 24):
            board, perm = divmod(pair, 24)
            moved = relabel(_seen(pool)[board][None], PERMUTATIONS[perm][None])[0]
            placed_fits = _fits(deck, dealt, moved[:13])
            seen_fits = _fits(deck, dealt, moved)
            assert (pair in exact) == seen_fits
            assert (pair in relaxed) == (placed_fits and not seen_fits)


def test_one_ace_of_spades_dealt_leaves_one_for_the_opponents_under_two_decks():
    pool = pool_for(_rules(TWO_DECKS))
    one, two = dealt_array([51], deck=TWO_DECKS), dealt_array([51, 51], deck=TWO_DECKS)
    for dealt, most in ((one, 1), (two, 0)):
        exact, relaxed = candidate_pairs(pool, dealt)
        boards = pair_boards(pool, np.concatenate([exact, relaxed]))
        assert (boards == 51).sum(axis=1).max() == most
    # Nothing is dealt twice but the ace: the boards with one ace of spades remain.
    assert len(candidate_pairs(pool, one)[0]) > len(candidate_pairs(pool, two)[0]) > 0


def test_a_joker_dealt_leaves_the_other_and_two_leave_none():
    pool = pool_for(_rules(JOKERS))
    for dealt, most in (([], 2), ([JOKER], 1), ([JOKER, JOKER], 0)):
        exact, relaxed = candidate_pairs(pool, dealt_array(dealt, deck=JOKERS))
        pairs = np.concatenate([exact, relaxed])
        assert len(pairs) and pair_jokers(pool, pairs).sum(axis=1).max() == most


def test_dealt_cards_are_checked_against_the_deck():
    assert dealt_array([51, 51], deck=TWO_DECKS).tolist() == [51, 51]
    assert dealt_array(parse_cards("Jk As Jk", deck=JOKERS), deck=JOKERS).tolist() == \
        [JOKER, 51, JOKER]
    with pytest.raises(CardError, match="a third 'As'"):
        dealt_array([51, 51, 51], deck=TWO_DECKS)
    with pytest.raises(CardError, match="too many jokers"):
        dealt_array([JOKER] * 3, deck=JOKERS)
    with pytest.raises(CardError, match="distinct"):
        dealt_array([51, 51])


# --- opponents at the table ------------------------------------------------------------------

DEALT_DOUBLE = parse_cards("As As Ks Kh Qd Qd Jc Ts 9s 8h 7d 6c 5s 4h", deck=TWO_DECKS)


@pytest.mark.parametrize("opponents", [3, 4, 5])
def test_two_decks_seat_up_to_five_opponents(opponents):
    rules = _rules(TWO_DECKS)
    boards = opponent_boards(rules, DEALT_DOUBLE, 60, opponents, seed=3)
    assert boards.shape == (60, opponents, 13) and boards.max() <= 51
    assert (boards == opponent_boards(rules, DEALT_DOUBLE, 60, opponents, seed=3)).all()
    for board in boards.reshape(-1, 13):
        assert _fits(TWO_DECKS, DEALT_DOUBLE, board)  # each board fits with the dealt hand
    assert not (boards == 51).any()  # both aces of spades are dealt


def test_one_deck_seats_two_opponents_and_two_decks_five():
    assert max_opponents(find_rules("pineapple")) == max_opponents(_rules(JOKERS)) == 2
    assert max_opponents(_rules(TWO_DECKS)) == 5
    with pytest.raises(OpponentModelError, match="1 to 5 opponents"):
        opponent_boards(_rules(TWO_DECKS), DEALT_DOUBLE, 10, 6, 0)
    with pytest.raises(OpponentModelError, match="1 to 2 opponents"):
        opponent_boards(_rules(JOKERS), [JOKER, 51], 10, 3, 0)


def test_joker_opponents_are_drawn_under_removal_and_the_seed():
    rules = _rules(JOKERS)
    dealt = parse_cards("Jk Jk Ac Kd Qh Jc Ts 9h 8d 7c 6s 5h 4d 3c", deck=JOKERS)
    boards = opponent_boards(rules, dealt, 200, 2, seed=1)
    assert (boards == opponent_boards(rules, dealt, 200, 2, seed=1)).all()
    assert not (boards == opponent_boards(rules, dealt, 200, 2, seed=2)).all()
    real = [c for c in dealt if c != JOKER]
    # Both jokers are ours, so every board is real cards only, none of them dealt.
    assert not np.isin(boards, real).any()


def test_the_shipped_pools_of_every_deck_load():
    decks = {p.deck for p in shipped_pools()}
    assert {Deck(), JOKERS, TWO_DECKS} <= decks


@pytest.mark.parametrize("variant, boards", [("pineapple-joker", 1000), ("double-deck", 2000)])
def test_stats_without_hands_take_all_of_a_pool_smaller_than_the_default(variant, boards):
    from typer.testing import CliRunner

    from fantasyland.cli.main import app

    result = CliRunner().invoke(app, ["opponents", "--stats", "--variant", variant, "--json"])
    assert result.exit_code == 0, result.output
    assert '"boards": %d' % boards in result.stdout
