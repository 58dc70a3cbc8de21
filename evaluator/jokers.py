"""What a row holding jokers can be: the faces its jokers may stand for.

A joker is wild (docs/rules.md, "Jokers"): it stands for any face, chosen when the set is
scored.
Within one row a joker never repeats a card of that row (a real card or the other joker's
face), except where it makes five of a kind, which counts only where the deck says
``five_of_a_kind``. Beside quads, a joker then stands for another rank.

A row's strength depends on its ranks and on whether all five cards share a suit, nothing
else. So the faces worth trying for a joker are few: for each rank, the face in the suit the
row's real cards share (which may make a flush), and one face in another suit (which does
not). Every strength that any legal choice of faces makes, one of these makes too:
- a flush needs every joker in the real cards' suit, at distinct ranks: those faces are
  tried as they are;
- a hand that is no flush depends on its ranks only, and for any ranks the jokers can take
  legally, the first free faces of those ranks (one of them off the suit when the real cards
  share one) are legal too, since the choice that was legal shows they exist;
- five of a kind needs only the rank.
``substitutes`` lists those choices for many rows at once; ``every_face`` lists every legal
choice, face by face, for the plain checks (tests/test_jokers.py compares the two).
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product

import numpy as np

from fantasyland.evaluator.cards import JOKER, Card, Deck

SUITS = 4
RANKS = 13


class _Rows:
    """What the choices of faces depend on, for each row's real cards: which faces it holds
    (a 52-bit mask), how many cards of each rank, and the suit all of them share (-1: none,
    or no flush possible in a 3-card row)."""

    def __init__(self, real: np.ndarray, flushes: bool) -> None:
        self.present = np.bitwise_or.reduce(np.int64(1) << real, axis=1)
        self.counts = np.zeros((len(real), RANKS), dtype=np.int64)
        np.add.at(self.counts, (np.arange(len(real))[:, None], real >> 2), 1)
        suits = real & 3
        same = (suits == suits[:, :1]).all(axis=1) & flushes
        self.shared = np.where(same, suits[:, 0], -1)

    def holds(self, row: np.ndarray, face: np.ndarray) -> np.ndarray:
        held: np.ndarray = (self.present[row] >> np.maximum(face, 0)) & 1 == 1
        return held

    def free_face(self, row: np.ndarray, rank: np.ndarray, avoid_suit: np.ndarray,
                  taken: np.ndarray) -> np.ndarray:
        """For each (row, rank): the face of ``rank`` in the lowest suit that is not
        ``avoid_suit`` (-1: none to avoid), not held by the row and not ``taken`` (-1:
        none); -1 where there is no such face."""
        best = np.full(len(row), -1, dtype=np.int64)
        for suit in range(SUITS - 1, -1, -1):  # the lowest free suit wins
            face = rank * SUITS + suit
            free = (suit != avoid_suit) & (face != taken) & ~self.holds(row, face)
            best = np.where(free, face, best)
        return best

    def suited_face(self, row: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The face of ``rank`` in the row's shared suit, if there is one and it is free."""
        shared = self.shared[row]
        face = rank * SUITS + shared
        return np.where((shared >= 0) & ~self.holds(row, face), face, -1)


def _one_joker(rows: _Rows, m: int, five: bool) -> tuple[np.ndarray, np.ndarray]:
    """(row, face) for every choice worth trying for rows with one joker: each rank, in no
    flush and in the shared suit, all rows and ranks at once."""
    row = np.repeat(np.arange(m), RANKS)
    rank = np.tile(np.arange(RANKS, dtype=np.int64), m)
    fifth = rows.counts[row, rank] == 4  # the joker as this rank makes five of a kind
    face = np.stack([rows.free_face(row, rank, rows.shared[row], np.full(len(row), -1)),
                     rows.suited_face(row, rank)], axis=1)
    if five:
        face = np.where(fifth[:, None], (rank * SUITS)[:, None], face)
    else:
        face[fifth] = -1
    at, which = np.nonzero(face >= 0)
    return row[at], face[at, which][:, None]


#: The unordered pairs of ranks two jokers may take.
_RANK_PAIRS = np.array(list(combinations_with_replacement(range(RANKS), 2)), dtype=np.int64)


def _two_jokers(rows: _Rows, m: int, five: bool) -> tuple[np.ndarray, np.ndarray]:
    """(row, faces) for every choice worth trying for rows with two jokers: each pair of
    ranks, in no flush and both in the shared suit, all rows and pairs at once."""
    row = np.repeat(np.arange(m), len(_RANK_PAIRS))
    r1, r2 = np.tile(_RANK_PAIRS[:, 0], m), np.tile(_RANK_PAIRS[:, 1], m)
    shared, none = rows.shared[row], np.full(len(row), -1, dtype=np.int64)
    fifth = (r1 == r2) & (rows.counts[row, r1] == 3)
    # No flush: the first joker off the shared suit, the second anywhere free; or the first
    # in the shared suit and the second off it.
    off1 = rows.free_face(row, r1, shared, none)
    any2 = rows.free_face(row, r2, none, off1)
    on1, on2 = rows.suited_face(row, r1), rows.suited_face(row, r2)
    off2 = rows.free_face(row, r2, shared, on1)
    plain_first = (off1 >= 0) & (any2 >= 0)
    plain = np.stack([np.where(plain_first, off1, on1), np.where(plain_first, any2, off2)],
                     axis=1)
    plain[(plain < 0).any(axis=1)] = -1
    # A flush: both jokers in the shared suit, at two ranks.
    suited = np.stack([on1, on2], axis=1)
    suited[(r1 == r2) | (on1 < 0) | (on2 < 0)] = -1
    choice = np.stack([plain, suited], axis=1)  # (row and pair, kind, joker)
    if five:
        choice = np.where(fifth[:, None, None], (r1 * SUITS)[:, None, None], choice)
    else:
        choice[fifth] = -1
    at, kind = np.nonzero((choice >= 0).all(axis=2))
    return row[at], choice[at, kind]


def substitutes(hands: np.ndarray, deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """Every row of ``hands`` (an ``(m, 3|5)`` array of cards, jokers included) as the hands
    its jokers may make: ``(owner, played)``, where ``played[i]`` is row ``owner[i]`` with its
    jokers replaced by faces. A row without jokers appears once, as it is; a row with jokers
    once for each choice worth trying (the module's docstring says which), in a fixed order.
    Different choices may make the same strength: the caller keeps what it needs."""
    hands = np.asarray(hands, dtype=np.int64)
    m, k = hands.shape
    is_joker = hands == JOKER
    count = is_joker.sum(axis=1)
    if count.max(initial=0) > 2:
        raise ValueError("a row holds at most two jokers")
    owners, played = [np.flatnonzero(count == 0)], [hands[count == 0]]
    for jokers, expand in ((1, _one_joker), (2, _two_jokers)):
        which = np.flatnonzero(count == jokers)
        if len(which) == 0:
            continue
        # Real cards first, jokers last, in each row: the order the expansions fill.
        order = np.argsort(is_joker[which], axis=1, kind="stable")
        arranged = np.take_along_axis(hands[which], order, axis=1)
        real = arranged[:, :k - jokers]
        row, faces = expand(_Rows(real, flushes=k == 5), len(real), deck.five_of_a_kind)
        filled = np.concatenate([real[row], faces], axis=1)
        back = np.empty_like(filled)  # each face where its joker was
        np.put_along_axis(back, order[row], filled, axis=1)
        owners.append(which[row])
        played.append(back)
    owner = np.concatenate(owners)
    at = np.argsort(owner, kind="stable")
    return owner[at], np.concatenate(played)[at]


def every_face(cards: tuple[Card, ...], deck: Deck) -> list[tuple[Card, ...]]:
    """Every legal choice of faces for the jokers of one row, face by face (the plain
    enumeration that ``substitutes`` must agree with): each joker any face that is not a
    card of the row nor the other joker's, or any face at all where the row then holds five
    cards of one rank and the deck has five of a kind."""
    real = [card for card in cards if card != JOKER]
    jokers = len(cards) - len(real)
    choices = []
    for faces in product(range(52), repeat=jokers):
        if jokers == 2 and faces[0] > faces[1]:
            continue  # the jokers are alike: one order of each pair
        ranks = [card >> 2 for card in real + list(faces)]
        if len(ranks) == 5 and len(set(ranks)) == 1:
            if deck.five_of_a_kind:
                choices.append(faces)
            continue
        if len(set(faces)) == len(faces) and not set(faces) & set(real):
            choices.append(faces)
    return choices


def played_as(cards: tuple[Card, ...], faces: tuple[Card, ...]) -> tuple[Card, ...]:
    """The row with its jokers, in order, replaced by ``faces``."""
    it = iter(faces)
    return tuple(next(it) if card == JOKER else card for card in cards)
