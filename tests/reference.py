"""An independent exhaustive search for the best Fantasyland set: the yardstick for the optimizer.

It shares nothing with ``optimizer/`` and prunes nothing. Every way to pick a bottom (5 cards),
then a middle (5 of the rest), then a top (3 of what is left) is scored, and the rest are the
discards. Only the rules engine is used: the vectorized rankers give each row its strength on
the shared high scale and its value on its own scale, and the rules' tables give royalties,
stays and qualifying hands.

The deterministic tie-break among equal-value sets (the optimizer must return the same set):

1. the strongest bottom on the high scale;
2. between equally strong bottoms, the higher cards, compared card by card from the highest
   card down by card id (``As`` = 51 is the highest, then ``Ah``, ``Ad``, ``Ac``, ``Ks`` ...);
3. and 4. the same two steps for the middle (its high-scale strength, also under 2-7);
5. and 6. the same two steps for the top.

Comparing two sets of *equally many* distinct card ids card by card from the highest down is
the same as comparing the integers ``sum(1 << id)``: at the first place where the sorted lists
differ, the larger card ``a`` is in one set only, every card above ``a`` is in both or neither,
and ``1 << a`` outweighs all the smaller bits together. The vectorized step below uses these
integers within a chunk of bottoms; the choice between the chunks' winners compares the sorted
tuples themselves, and ``tests/test_reference.py`` checks that the two orders agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import numpy as np

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card, parse_cards
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.evaluator.strength import lowball_array, rank3_array, rank5_array


def card_key(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The tie-break key of one row's cards: the card ids from the highest down."""
    return tuple(sorted(cards, reverse=True))


def id_mask(cards: Sequence[Card]) -> int:
    """``sum(1 << id)``: orders equal-sized rows exactly as ``card_key`` does."""
    return sum(1 << card for card in cards)


@cache
def _combos(n: int, k: int) -> np.ndarray:
    """All k-subsets of ``range(n)`` as an ``(C(n, k), k)`` array."""
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


@cache
def _rest_layout(m: int) -> tuple[np.ndarray, np.ndarray]:
    """For ``m`` cards left after the bottom: every (middle, top) pick, as local bitmasks.

    Returns ``middles`` of shape ``(M, 1)`` and ``tops`` of shape ``(M, T)``: for middle
    ``i``, ``tops[i]`` lists every 3 of the ``m - 5`` cards the middle leaves. Bit ``p`` of a
    local mask is the ``p``-th card left after the bottom.
    """
    middles = _combos(m, 5)
    tops = np.empty((len(middles), math.comb(m - 5, 3)), dtype=np.int64)
    for i, middle in enumerate(middles):
        left = np.array([p for p in range(m) if p not in middle], dtype=np.int64)
        tops[i] = (1 << left[_combos(m - 5, 3)]).sum(axis=1)
    return (1 << middles).sum(axis=1)[:, None], tops


def _positions(mask: int) -> list[int]:
    return [p for p in range(mask.bit_length()) if mask >> p & 1]


_CHUNK = 1 << 15  # (bottom, middle, top) triples scored at once; small chunks stay in cache


class _RowTable:
    """Everything about the k-card subsets of the dealt hand, indexed by position bitmask."""

    def __init__(self, dealt: np.ndarray, k: int, rows: tuple[str, ...], rules: Rules):
        n = len(dealt)
        positions = _combos(n, k)
        masks = (1 << positions).sum(axis=1)
        hands = dealt[positions]
        size = 1 << n
        strength = rank5_array(hands) if k == 5 else rank3_array(hands)
        self.strength = np.full(size, -1, dtype=np.int64)
        self.strength[masks] = strength
        self.ids = np.zeros(size, dtype=np.int64)  # sum(1 << card id), for the tie-break
        self.ids[masks] = (np.int64(1) << hands).sum(axis=1)
        self.royalty, self.stays, self.qualifies = {}, {}, {}
        for row in rows:
            if rules.scale(row) is Scale.DEUCE_TO_SEVEN:
                value = lowball_array(hands)
            else:
                value = strength
            royalty = np.zeros(size, dtype=np.int64)
            royalty[masks] = rules.royalty_table(row)[value]
            stays = np.zeros(size, dtype=bool)
            stays[masks] = rules.stay_table(row)[value]
            qualifies = np.zeros(size, dtype=bool)
            qualifies[masks] = rules.qualify_table(row)[value]
            self.royalty[row], self.stays[row], self.qualifies[row] = royalty, stays, qualifies


def best_sets(cards: str | Sequence[Card], rules: Rules | str,
              fl_value: float) -> tuple[float, Board | None]:
    """The best value and the one set the tie-break picks, by trying every set.

    The value of a legal set is its royalty total plus ``fl_value`` if it stays in
    Fantasyland. With no legal set at all the answer is ``(-inf, None)``. Rows in the board
    list their cards from the highest id down.
    """
    dealt_cards = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    if not 13 <= len(dealt_cards) <= 17 or len(set(dealt_cards)) != len(dealt_cards):
        raise ValueError(f"expected 13 to 17 distinct cards, got {list(dealt_cards)}")
    rules = find_rules(rules)
    dealt = np.array(dealt_cards, dtype=np.int64)
    n = len(dealt)
    five = _RowTable(dealt, 5, ("middle", "bottom"), rules)
    three = _RowTable(dealt, 3, ("top",), rules)
    middles_local, tops_local = _rest_layout(n - 5)

    bottoms = _combos(n, 5)
    # rest[k]: the positions bottom k leaves, in order; local_to_global[k, x] is the dealt-hand
    # mask of local mask x after bottom k (bit p of x is rest[k][p], see _rest_layout).
    rest = np.array([[p for p in range(n) if p not in bottom] for bottom in bottoms.tolist()],
                    dtype=np.int64)
    local = np.arange(1 << (n - 5), dtype=np.int64)
    local_to_global = (np.int64(1) << rest) @ ((local[None, :] >> np.arange(n - 5)[:, None]) & 1)
    chunk = max(1, _CHUNK // tops_local.size)
    winner = None  # the best (value, then the tie-break keys of each row) so far
    for start in range(0, len(bottoms), chunk):
        ks = np.arange(start, min(start + chunk, len(bottoms)))
        b = (np.int64(1) << bottoms[ks]).sum(axis=1)[:, None, None]  # (K, 1, 1)
        m = local_to_global[ks][:, middles_local]  # (K, M, 1)
        t = local_to_global[ks][:, tops_local]  # (K, M, T)
        shape = t.shape
        table = {"bottom": (five, b), "middle": (five, m), "top": (three, t)}
        strength = {row: tab.strength[mask] for row, (tab, mask) in table.items()}
        legal = np.ones(shape, dtype=bool)
        for stronger, weaker in rules.order_pairs:
            legal &= strength[stronger] >= strength[weaker]
        for row in {requirement.row for requirement in rules.qualify}:
            tab, mask = table[row]
            legal &= tab.qualifies[row][mask]
        if not legal.any():
            continue
        royalty = sum(tab.royalty[row][mask] for row, (tab, mask) in table.items())
        stays = np.zeros(shape, dtype=bool)
        for row, (tab, mask) in table.items():
            stays = stays | tab.stays[row][mask]
        value = np.where(legal, royalty + fl_value * stays, -np.inf)
        # The chunk's best sets, then the tie-break row by row (see the module docstring for
        # why the id masks order equal-sized rows as their sorted cards do).
        best_value = value.max()
        k, i, j = np.unravel_index(np.flatnonzero(value == best_value), shape)
        picked = {"bottom": b[k, 0, 0], "middle": m[k, i, 0], "top": t[k, i, j]}
        for row in ("bottom", "middle", "top"):
            tab = three if row == "top" else five
            for key in (tab.strength, tab.ids):
                best = key[picked[row]] == key[picked[row]].max()
                picked = {r: masks[best] for r, masks in picked.items()}
        candidate = (float(best_value),)  # what is left is one set, maybe several times
        for row in ("bottom", "middle", "top"):
            tab = three if row == "top" else five
            mask = int(picked[row][0])
            candidate += (int(tab.strength[mask]), card_key(dealt[_positions(mask)].tolist()))
        # Plain tuple order: value, then bottom strength and cards, middle, top.
        winner = candidate if winner is None else max(winner, candidate)
    if winner is None:
        return -math.inf, None
    value, _, bottom, _, middle, _, top = winner
    return value, Board(top, middle, bottom)


def plain_best_sets(cards: Sequence[Card], rules: Rules | str,
                    fl_value: float) -> tuple[float, Board | None]:
    """The same search one board at a time through ``evaluate_board``: slow, for checking."""
    from fantasyland.evaluator.board import evaluate_board

    rules = find_rules(rules)
    best = None
    dealt = tuple(cards)
    for bottom in combinations(dealt, 5):
        rest = [c for c in dealt if c not in bottom]
        for middle in combinations(rest, 5):
            left = [c for c in rest if c not in middle]
            for top in combinations(left, 3):
                board = Board(card_key(top), card_key(middle), card_key(bottom))
                report = evaluate_board(board, rules=rules)
                if report.fouled:
                    continue
                value = report.royalties.total + fl_value * report.stays
                key = (value, report.bottom.strength, board.bottom, report.middle.strength,
                       board.middle, report.top.strength, board.top)
                if best is None or key > best[0]:
                    best = (key, board)
    if best is None:
        return -math.inf, None
    return best[0][0], best[1]

