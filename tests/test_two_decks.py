"""The 5-card order with two decks, against a plain reference ranker.

Two decks deal hands one deck cannot: five of a kind, and flushes holding a pair or two pair
(two copies of a card). A 5-card hand's strength depends only on its ranks and on whether
its five cards share a suit, so every distinct hand from two decks is one pattern: a
multiset of five ranks (no rank more than five times), suited or not, where suited needs
no rank more than twice (two copies of each suited card). Every pattern is ranked here by
``evaluator.strength`` and by the plain ranker below, written from docs/rules.md alone, and
the two orders must agree, ties included.
"""

from collections import Counter
from itertools import combinations_with_replacement

import numpy as np

from fantasyland.evaluator.strength import class_name, hand_name, rank5_array


def reference_key(ranks: tuple[int, ...], suited: bool) -> tuple:
    """A sortable key: category first (high card 0 .. five of a kind 9), then the ranks that
    decide ties. A straight (A-2-3-4-5 the lowest) ranks by its high card; a flush with a
    pair is still a flush, ranked by its five ranks from the highest down."""
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    distinct = sorted(counts, reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_high = 3
    if shape == [5]:
        return (9, distinct[0])
    if suited and straight_high is not None:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, *by_count)
    if shape == [3, 2]:
        return (6, *by_count)
    if suited:
        return (5, *sorted(ranks, reverse=True))
    if straight_high is not None:
        return (4, straight_high)
    category = {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[tuple(shape)]
    return (category, *by_count)


def patterns():
    """Every (ranks, suited) pattern of five cards from two decks, and a hand showing it."""
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        # Not suited: the cards in suits 0, 1, 2, 3, 0 in turn, so a rank's copies take
        # distinct suits (five of a kind repeats one suit, two decks deep) and the hand is
        # never one suit.
        hand = [rank * 4 + i % 4 for i, rank in enumerate(ranks)]
        yield ranks, False, hand
        if max(counts.values()) <= 2:
            yield ranks, True, [rank * 4 for rank in ranks]  # all clubs, two copies at most


def test_every_two_deck_pattern_is_ranked_as_the_reference_ranks_it():
    found = list(patterns())
    hands = np.array([hand for _, _, hand in found])
    ours = rank5_array(hands)
    keys = [reference_key(ranks, suited) for ranks, suited, _ in found]
    distinct = sorted(set(keys))
    theirs = np.array([distinct.index(key) for key in keys])
    order = np.argsort(theirs, kind="stable")
    assert (np.diff(ours[order]) >= 0).all()  # the same order
    assert ((np.diff(theirs[order]) == 0) == (np.diff(ours[order]) == 0)).all()  # same ties
    # Every multiset of five ranks not suited (C(17, 5), the 13 five of a kinds among them),
    # and suited every one with no rank more than twice: no pair, one pair, two pair.
    assert sum(1 for _, suited, _ in found if not suited) == 6188
    assert sum(1 for _, suited, _ in found if suited) == 1287 + 13 * 220 + 78 * 11


def test_the_hands_only_two_decks_deal():
    hand = np.array([[48, 48, 44, 28, 0]])  # A A K 9 2 of clubs
    assert class_name(int(rank5_array(hand)[0])) == "flush"
    plain = np.array([[48, 44, 40, 36, 28]])  # A K Q J 9 of clubs
    assert rank5_array(hand)[0] > rank5_array(plain)[0]
    five = np.array([[48, 49, 50, 51, 48]])
    assert hand_name(int(rank5_array(five)[0])) == "Five Aces"
    royal = np.array([[48, 44, 40, 36, 32]])
    assert rank5_array(five)[0] > rank5_array(royal)[0]
