"""A plain exhaustive search for hands with jokers or from two decks: the optimizer's yardstick.

It shares nothing with ``optimizer/`` and prunes nothing. Every way to pick a bottom, a middle
and a top from the dealt positions is scored; in each row, every face each joker may stand for
is tried (``evaluator.jokers.every_face``, face by face, not the evaluator's few faces worth
trying), and the set counts at its best legal choice of faces: the most royalties, plus
``fl_value`` if it stays. Of a bottom's ways that pay alike only the strongest is kept, and of
a top's only the weakest: the bottom only has to reach the middle, the top to stay under it.
Only the rules engine ranks rows and gives royalties, stays and qualifying hands. It knows the
usual foul order only (bottom >= middle >= top), which every preset with jokers or two decks
uses.

``best_of_each_kind`` finds the best set that stays and the best that does not, each played
as ``score`` plays it: a set stays or not as its best way, the rules' worth of staying
counted, does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from fantasyland.evaluator.board import row_strengths, row_values
from fantasyland.evaluator.cards import JOKER, Card
from fantasyland.evaluator.jokers import every_face, played_as
from fantasyland.evaluator.rules import ROWS, Rules


@cache
def _ways(cards: tuple[Card, ...], rules: Rules) -> dict[str, tuple[np.ndarray, ...]]:
    """Every way the row ``cards`` plays, by row: its strengths, royalties, stays, sorted by
    strength (equal ways once), where the row qualifies."""
    faces = every_face(cards, rules.deck) if JOKER in cards else [()]
    played = np.array([played_as(cards, f) for f in faces], dtype=np.int64).reshape(-1, len(cards))
    out = {}
    for row in ROWS:
        if (row == "top") != (len(cards) == 3):
            continue
        value = row_values(row, played, rules)
        strength = row_strengths(played)
        ok = rules.qualify_table(row)[value]
        table = np.unique(np.stack([strength[ok], rules.royalty_table(row)[value[ok]],
                                    rules.stay_table(row)[value[ok]]], axis=1), axis=0)
        if row != "middle":
            # The bottom only has to be at least the middle, so of two ways that pay alike
            # the stronger is never worse; the top only has to be at most the middle, so the
            # weaker is. (The middle has both to meet: every way of it stays.)
            pays = {}
            for way in table[::-1] if row == "bottom" else table:
                pays.setdefault((way[1], way[2]), way)
            table = np.array(sorted(pays.values(), key=lambda w: w[0])).reshape(-1, 3)
        out[row] = (table[:, 0], table[:, 1], table[:, 2].astype(bool))
    return out


def _every_way(cards: tuple[Card, ...], rules: Rules, row: str, size: int):
    """Every (subset, way) of one row: position masks, strengths, royalties, stays."""
    parts = [], [], [], []
    for positions in combinations(range(len(cards)), size):
        strength, royalty, stays = _ways(tuple(cards[i] for i in positions), rules)[row]
        parts[0].append(np.full(len(strength), sum(1 << i for i in positions)))
        for part, values in zip(parts[1:], (strength, royalty, stays)):
            part.append(values)
    return tuple(np.concatenate(part) for part in parts)


NO = -(1 << 30)  # below every royalty: no legal top


@dataclass(frozen=True)
class _Tops:
    """Every way of every top (3 positions), sorted by mask, then strength; ``key`` finds a
    way by (its mask's group, strength), and ``best`` gives each way the most of a value
    among its mask's ways up to its strength."""

    royalty: np.ndarray
    stays: np.ndarray
    group: np.ndarray
    first_of: np.ndarray  # each mask's first way
    key: np.ndarray
    masks: np.ndarray  # the masks that have ways, ascending
    span: int = 1 << 20

    def best(self, values: np.ndarray) -> np.ndarray:
        return np.maximum.accumulate(values + self.group * self.span) - self.group * self.span


def _tops(cards: tuple[Card, ...], rules: Rules) -> _Tops:
    tm, ts, tr, tt = _every_way(cards, rules, "top", 3)
    order = np.lexsort((ts, tm))
    tm, ts, tr, tt = tm[order], ts[order], tr[order], tt[order]
    start = np.concatenate([[True], tm[1:] != tm[:-1]])
    group = np.cumsum(start) - 1
    first_of = np.flatnonzero(start)
    return _Tops(tr, tt, group, first_of, group * _Tops.span + ts, tm[first_of])


def _legal_pairs(n: int, bm: np.ndarray, bs: np.ndarray, mm: np.ndarray, ms: np.ndarray,
                 tops: _Tops):
    """Every (bottom way, middle way) pair of disjoint positions with the middle no stronger,
    in chunks of 64 bottoms: yields the pairs' indices (``bi``, ``mi``), the masks of every 3
    of the positions each pair leaves (``top_masks``, one column a trio), whether that mask
    has a way no stronger than the middle (``fits``), and the index of its strongest such
    way (``safe``, valid where it fits)."""
    full = (1 << n) - 1
    trio = np.array(list(combinations(range(n - 10), 3)))
    for chunk in range(0, len(bm), 64):
        b = np.arange(chunk, min(chunk + 64, len(bm)))
        ok = ((bm[b][:, None] & mm[None, :]) == 0) & (ms[None, :] <= bs[b][:, None])
        bi, mi = np.nonzero(ok)
        if not len(bi):
            continue
        bi = b[bi]
        left = full ^ (bm[bi] | mm[mi])
        positions = (left[:, None] >> np.arange(n)) & 1
        spots = np.argsort(-positions, axis=1, kind="stable")[:, :n - 10]
        top_masks = (np.int64(1) << spots[:, trio]).sum(axis=2)  # (pairs, C(n-10, 3))
        where = np.minimum(np.searchsorted(tops.masks, top_masks), len(tops.masks) - 1)
        at = np.searchsorted(tops.key, where * tops.span + ms[mi][:, None], side="right") - 1
        fits = (tops.masks[where] == top_masks) & (at >= tops.first_of[where])
        yield bi, mi, top_masks, fits, np.maximum(at, 0)


def best_value(cards: tuple[Card, ...], rules: Rules, fl_value: float) -> float | None:
    """The most a set of ``cards`` is worth (royalties, plus ``fl_value`` if it stays), or
    None if every set fouls.

    Every (bottom way, middle way) pair of disjoint subsets with the middle no stronger, and
    for each, every top way of every 3 of the positions left over no stronger than the
    middle: the best top royalty, and the best among staying tops.
    """
    assert rules.order == ("bottom", "middle", "top"), rules.order
    n = len(cards)
    bm, bs, br, bt = _every_way(cards, rules, "bottom", 5)
    mm, ms, mr, mt = _every_way(cards, rules, "middle", 5)
    tops = _tops(cards, rules)
    # each mask's prefix maxima of royalty: any top, and staying tops
    best_any = tops.best(tops.royalty)
    best_stay = tops.best(np.where(tops.stays, tops.royalty, NO))
    best = None
    for bi, mi, _, fits, safe in _legal_pairs(n, bm, bs, mm, ms, tops):
        any_top = np.where(fits, best_any[safe], NO).max(axis=1)
        stay_top = np.where(fits, best_stay[safe], NO).max(axis=1)
        stays = bt[bi] | mt[mi]
        worth = np.maximum(np.where(any_top > NO, any_top + np.where(stays, fl_value, 0.0),
                                    -np.inf),
                           np.where(stay_top > NO, stay_top + fl_value, -np.inf))
        worth = worth + br[bi] + mr[mi]
        if np.isfinite(worth).any():
            value = float(worth[np.isfinite(worth)].max())
            best = value if best is None else max(best, value)
    return best



def best_of_each_kind(cards: tuple[Card, ...], rules: Rules, fl_value: float
                      ) -> tuple[float | None, float | None]:
    """The most a set of ``cards`` that stays is worth, and the most one that does not (None
    where there is none), each set played as ``score`` plays it: its jokers at the legal
    faces worth the most royalties, plus the rules' worth of staying if the set stays
    (``rules.repeat_value``: a fraction, so that a way that stays never ties one that does
    not).

    For every set (a bottom, a middle, a top of the cards left: its three masks), the most
    royalties of its legal ways that stay and of those that do not, as ``best_value`` finds
    them (every (bottom way, middle way) pair, each top mask's best way under the middle);
    the set stays as it is played where the first, with the repeat's worth, beats the second.
    """
    assert rules.order == ("bottom", "middle", "top"), rules.order
    assert rules.repeat_value % 1, rules.repeat_value
    n = len(cards)
    bm, bs, br, bt = _every_way(cards, rules, "bottom", 5)
    mm, ms, mr, mt = _every_way(cards, rules, "middle", 5)
    tops = _tops(cards, rules)
    best_stay = tops.best(np.where(tops.stays, tops.royalty, NO))
    best_not = tops.best(np.where(tops.stays, NO, tops.royalty))
    sets, stay, keep = [], [], []
    for bi, mi, top_masks, fits, safe in _legal_pairs(n, bm, bs, mm, ms, tops):
        top_stay = np.where(fits, best_stay[safe], NO)
        top_not = np.where(fits, best_not[safe], NO)
        rows_stay = (bt[bi] | mt[mi])[:, None]
        pair = (br[bi] + mr[mi])[:, None]
        any_top = np.maximum(top_stay, top_not)
        stay.append(np.where(rows_stay, np.where(any_top > NO, pair + any_top, NO),
                             np.where(top_stay > NO, pair + top_stay, NO)).ravel())
        keep.append(np.where(~rows_stay & (top_not > NO), pair + top_not, NO).ravel())
        sets.append(((bm[bi] << 2 * n | mm[mi] << n)[:, None] | top_masks).ravel())
    if not sets:
        return None, None
    distinct, which = np.unique(np.concatenate(sets), return_inverse=True)
    best = {}
    for kind, worth in ((True, stay), (False, keep)):
        best[kind] = np.full(len(distinct), NO, dtype=np.int64)
        np.maximum.at(best[kind], which.ravel(), np.concatenate(worth))
    played_stays = (best[True] > NO) & (best[True] + rules.repeat_value > best[False])
    plays_not = ~played_stays & (best[False] > NO)
    return (float(best[True][played_stays].max()) + fl_value if played_stays.any() else None,
            float(best[False][plays_not].max()) if plays_not.any() else None)
