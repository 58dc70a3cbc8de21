"""What a row holding jokers can be (``evaluator.jokers``): the few faces tried for each
joker make every strength that the plain enumeration of every face makes, and no other."""

import random
from importlib import resources
from itertools import combinations

import numpy as np
import pytest

from fantasyland.evaluator import joker_patterns, tables
from fantasyland.evaluator.cards import JOKER, Deck, parse_cards
from fantasyland.evaluator.jokers import every_face, played_as, substitutes
from fantasyland.evaluator.strength import hand_name, rank3_array, rank5_array, strength_of

DECKS = {"one deck, two jokers": Deck(1, 2, False),
         "one deck, two jokers, five of a kind": Deck(1, 2, True),
         "two decks, two jokers": Deck(2, 2, True)}


def rank(rows: np.ndarray) -> np.ndarray:
    return (rank5_array if rows.shape[1] == 5 else rank3_array)(rows)


def strengths_tried(row: tuple[int, ...], deck: Deck) -> set[int]:
    owner, played = substitutes(np.array([row]), deck)
    assert (owner == 0).all()
    return set(rank(played).tolist())


def strengths_possible(row: tuple[int, ...], deck: Deck) -> set[int]:
    choices = every_face(row, deck)
    if not choices:
        return set()
    return set(rank(np.array([played_as(row, faces) for faces in choices])).tolist())


def random_rows(deck: Deck, seed: int, count: int):
    """Rows of 3 or 5 cards with one or two jokers, drawn to be suited or paired often."""
    rng = random.Random(seed)
    full = list(range(52)) * deck.decks
    made = 0
    while made < count:
        size, jokers = rng.choice([3, 5]), rng.choice([1, 2])
        draw = rng.random()
        if draw < 0.4:
            suit = rng.randrange(4)
            pool = [c for c in full if c & 3 == suit]
        elif draw < 0.6:
            low = rng.randrange(13)
            pool = [c for c in full if c >> 2 in (low, (low + 1) % 13)]
        else:
            pool = full
        real = rng.sample(pool, size - jokers)
        row = real + [JOKER] * jokers
        rng.shuffle(row)
        made += 1
        yield tuple(row)


@pytest.mark.parametrize("name", DECKS)
def test_the_faces_tried_make_every_strength_that_any_face_makes(name):
    deck = DECKS[name]
    for row in random_rows(deck, seed=len(name), count=300):
        assert strengths_tried(row, deck) == strengths_possible(row, deck), row


@pytest.mark.parametrize("text, deck, best", [
    ("Jk Qs Qh", DECKS["one deck, two jokers"], "Three Queens"),
    ("Jk Jk Qh", DECKS["one deck, two jokers"], "Three Queens"),
    ("Jk As Ah Ad Ac", DECKS["one deck, two jokers"], "Four Aces"),  # no five of a kind
    ("Jk As Ah Ad Ac", DECKS["one deck, two jokers, five of a kind"], "Five Aces"),
    ("Jk Jk Ah Ad Ac", DECKS["one deck, two jokers, five of a kind"], "Five Aces"),
    ("Jk Kh Qh Jh Th", DECKS["one deck, two jokers"], "Royal flush"),
    ("Jk Jk Qh Jh Th", DECKS["one deck, two jokers"], "Royal flush"),
    ("Jk Ah Ah Kh 2h", DECKS["two decks, two jokers"], "Ace-high flush"),
])
def test_the_best_a_row_can_be(text, deck, best):
    row = parse_cards(text, deck=deck)
    assert hand_name(max(strengths_tried(row, deck))) == best


def test_a_row_without_jokers_is_itself():
    rows = np.array([parse_cards("As Kd Qh Jc 9s"), parse_cards("2c 3c 4c 5c 6c")])
    owner, played = substitutes(rows, Deck(1, 2))
    assert owner.tolist() == [0, 1] and (played == rows).all()


def test_a_joker_never_repeats_a_card_of_its_row():
    # Qs Qh + a joker: trips with Qd or Qc, never a third Qs; under one deck Jk Jk Qh cannot
    # be Qh Qh Qh either.
    for text in ("Jk Qs Qh", "Jk Jk Qh"):
        row = parse_cards(text, deck=Deck(1, 2))
        _, played = substitutes(np.array([row]), Deck(1, 2))
        for hand in played.tolist():
            assert len(set(hand)) == 3, hand


def test_three_jokers_in_a_row_are_refused():
    with pytest.raises(ValueError, match="at most two jokers"):
        substitutes(np.array([[JOKER, JOKER, JOKER]]), Deck(1, 2))


def test_the_strength_of_a_row_needs_its_jokers_resolved():
    with pytest.raises(ValueError):
        strength_of((JOKER, 0, 1))


# --- patterns (evaluator.joker_patterns) -----------------------------------------------------

@pytest.mark.parametrize("name", DECKS)
def test_rows_of_one_pattern_make_the_same_strengths_as_its_representative(name):
    """What the pattern tables rest on: a row's strengths depend on its pattern alone."""
    deck = DECKS[name]
    for row in random_rows(deck, seed=7 + len(name), count=400):
        key = int(joker_patterns.pattern_keys(np.array([row]))[0])
        stand_in = joker_patterns.representative(key, len(row))
        assert joker_patterns.pattern_keys(np.array([stand_in]))[0] == key, (row, stand_in)
        assert strengths_tried(row, deck) == strengths_tried(tuple(stand_in), deck), row
        table = joker_patterns.pattern_strengths(deck, len(row))
        assert set(table.of(np.array([key]))[0].tolist()) == strengths_tried(row, deck), row


def test_the_one_deck_patterns_are_every_pattern_one_deck_deals():
    for k in (3, 5):
        dealt = set()
        for jokers in (1, 2):
            real = np.array(list(combinations(range(52), k - jokers)))
            rows = np.concatenate([real, np.full((len(real), jokers), JOKER)], axis=1)
            dealt |= set(joker_patterns.pattern_keys(rows).tolist())
        assert set(joker_patterns.one_deck_keys(k).tolist()) == dealt


def test_the_shipped_pattern_table_is_a_fresh_build_byte_for_byte():
    shipped = resources.files("fantasyland.evaluator.data").joinpath(
        joker_patterns.PATTERNS_FILE).read_bytes()
    assert shipped == tables.fresh(table="joker-patterns"), \
        "the joker rules changed: rewrite the file with `python -m fantasyland.evaluator.tables`"
