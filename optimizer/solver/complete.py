"""Exact completion of many bottoms at once: the best set when a set's value is the sum of
its rows' weights (the royalties objective).

Bottoms are taken in order of their upper bound, a few at a time. For each bottom, every
middle that fits beside it (no shared card, the foul order) and whose pair bound can still
reach the best value found is paired with it; for each (bottom, middle) pair, the cards left
over hold only C(n - 10, 3) possible tops (35 for 17 cards), looked up in a table shared by
all hands of that size. The best top of a pair is the legal one of highest weight, and among
equal weights the one the tie-break prefers, so tops are ranked in that order once and the
best top is the legal one of lowest rank.

The search stops when the next bottom's bound is below the best value found: no set through
it (or any later bottom) can reach that value. Bottoms whose bound equals it are still
completed, unless the tie-break prefers the best set's bottom to theirs, because a set of
equal value may win the tie-break. Every set worth the best value was therefore seen, and
the one returned is the tie-break's choice among them: the strongest bottom (by tie-break
rank), then middle, then top. Nothing is sampled or cut off by a budget: this is a proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from fantasyland.evaluator.rules import ROWS, Row
from fantasyland.optimizer.solver.bounds import INF
from fantasyland.optimizer.solver.candidates import Candidates, by_mask, preferred, subsets
from fantasyland.optimizer.solver.search import Pick

NONE = np.int16(32767)  # a rank above every real one (at most 680 tops): "no legal top"
PAIR_CELLS = 1 << 18  # (bottom, middle) cells looked at per step
TOP_CELLS = 1 << 19  # (pair, top) cells looked at per step
#: (bottom, middle) cells ``every_set`` looks at all at once, whatever its limit of pairs: a
#: few milliseconds' work. Few of them are pairs that could beat the incumbent (in one
#: 14-card hand 59,280 cells held 2,070 sets), so the limit of pairs, not of cells, decides
#: whether every set is valued.
EVERY_SET_CELLS = 1 << 20
LAYOUT_FACTOR = 3  # middles per leftover subset above which the leftovers are enumerated


def tops_to_try(n: int) -> int:
    """The tops each (bottom, middle) pair of ``n`` dealt cards leaves to try: C(n - 10, 3)."""
    return comb(n - 10, 3)


@cache
def _leftover_tops(n: int) -> tuple[np.ndarray, np.ndarray]:
    """For ``n`` dealt cards: a table from the bitmask of any ``n - 10`` positions to its row,
    and for each row the bitmasks of its 3-subsets, ``(C(n, n-10), C(n-10, 3))``."""
    rest = n - 10
    rows = subsets(n, rest)  # (R, rest) positions
    row_of = np.full(1 << n, -1, dtype=np.int32)
    row_of[(np.int64(1) << rows).sum(axis=1)] = np.arange(len(rows), dtype=np.int32)
    tops = (np.int64(1) << rows[:, subsets(rest, 3)]).sum(axis=2)  # (R, C(rest, 3))
    for array in (row_of, tops):
        array.flags.writeable = False
    return row_of, tops


@dataclass
class Found:
    """The best set found so far, with its tie-break key (bottom, middle, top ranks)."""

    value: int
    key: tuple[int, int, int]
    masks: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class _Search:
    """What ``best_set`` builds once per search and ``_complete`` reads for each chunk of
    bottoms: the candidates, the lookups of middles and tops by the cards a row leaves, the
    tops ranked best first, the order checks, and the most a top can add under each row."""

    cands: Candidates
    need_stay: bool
    full: int  # the mask of every dealt card
    row_of: np.ndarray  # ``_leftover_tops``
    leftover: np.ndarray
    rank_of: tuple[int, Callable[[np.ndarray], np.ndarray]]  # ``by_mask`` of the ranked tops
    middle_of: tuple[int, Callable[[np.ndarray], np.ndarray]]  # ``by_mask`` of the middles
    top_weight: np.ndarray  # the ranked tops' (index NONE clipped to the last)
    top_strength: np.ndarray
    top_stays: np.ndarray
    top_tiebreak: np.ndarray
    top_checks: list[tuple[str, bool]]  # ``_order_checks``
    middle_checks: list[tuple[str, bool]]
    middle_cap_any: np.ndarray  # the most a top adds under each middle (staying or not)
    middle_cap_stay: np.ndarray
    bottom_cap_any: np.ndarray
    bottom_cap_stay: np.ndarray


def _order_checks(order_pairs, row: str, known: tuple[str, ...]) -> list[tuple[str, bool]]:
    """For ``row``: each known row it is checked against, and whether that row is stronger."""
    checks = []
    for stronger, weaker in order_pairs:
        if weaker == row and stronger in known:
            checks.append((stronger, True))
        elif stronger == row and weaker in known:
            checks.append((weaker, False))
    return checks


def best_set(cands: Candidates, need_stay: bool, floor: int | None, bottom_bound: np.ndarray,
             *, deadline: float | None = None, max_bottoms: int | None = None,
             found: Found | None = None) -> tuple[Found | None, bool, int]:
    """The best legal set of ``cands`` worth ``floor`` or more (staying if asked), and the
    tie-break's choice among equals, for an objective whose value is the rows' weights summed.

    ``bottom_bound`` bounds every set through each bottom. ``found`` is a set already known
    (its value then serves as the floor). Returns the best found (or None), whether the search
    is complete (``False`` if it stopped at ``max_bottoms`` bottoms, or at the deadline once it
has a set: "no legal set" is only ever said after a complete search), and
    the best bound on what is left unsearched (``-INF`` when complete).
    """
    bottoms, middles, tops = cands.bottom, cands.middle, cands.top
    if not (len(bottoms) and len(middles) and len(tops)):
        return found, True, int(-INF)
    n = len(cands.cards)
    full = (1 << n) - 1
    pairs_order = cands.rules.order_pairs
    row_of, leftover = _leftover_tops(n)

    # Tops ranked by weight, then tie-break, best first; a lookup from mask to ranks (a mask
    # holding jokers may name several tops).
    ranked = np.lexsort((-tops.tiebreak, -tops.weight))
    shared = cands.has_jokers  # several candidates may share a mask
    rank_of = by_mask(tops.masks[ranked], n, np.arange(len(ranked), dtype=np.int16), NONE,
                      shared=shared)
    top_weight = np.append(tops.weight[ranked], -INF)  # index NONE clipped to the last
    top_strength = np.append(tops.strength[ranked], 0)
    top_stays = np.append(tops.stays[ranked], False)
    top_tiebreak = np.append(tops.tiebreak[ranked], -1)
    top_checks = _order_checks(pairs_order, Row.TOP, (Row.BOTTOM, Row.MIDDLE))
    middle_checks = _order_checks(pairs_order, Row.MIDDLE, (Row.BOTTOM,))

    # The most a top can add, given the rows it must stay below (upper limits only).
    by_strength = np.argsort(tops.strength, kind="stable")
    sorted_strength = tops.strength[by_strength]
    best_any = np.maximum.accumulate(tops.weight[by_strength])
    best_stay = np.maximum.accumulate(np.where(tops.stays[by_strength], tops.weight[by_strength],
                                               -INF))

    def top_cap(strength: np.ndarray, table: np.ndarray) -> np.ndarray:
        where = np.searchsorted(sorted_strength, strength, side="right") - 1
        return np.where(where >= 0, table[np.maximum(where, 0)], -INF)

    def cap_by(row: str, strength: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if any(other == row and stronger for other, stronger in top_checks):
            return top_cap(strength, best_any), top_cap(strength, best_stay)
        return (np.full(len(strength), best_any[-1]), np.full(len(strength), best_stay[-1]))

    middle_cap_any, middle_cap_stay = cap_by(Row.MIDDLE, middles.strength)
    middle_of = by_mask(middles.masks, n, np.arange(len(middles), dtype=np.int32), -1,
                        shared=shared)
    bottom_cap_any, bottom_cap_stay = cap_by(Row.BOTTOM, bottoms.strength)

    search = _Search(cands=cands, need_stay=need_stay, full=full, row_of=row_of,
                     leftover=leftover, rank_of=rank_of, middle_of=middle_of,
                     top_weight=top_weight, top_strength=top_strength, top_stays=top_stays,
                     top_tiebreak=top_tiebreak, top_checks=top_checks,
                     middle_checks=middle_checks, middle_cap_any=middle_cap_any,
                     middle_cap_stay=middle_cap_stay, bottom_cap_any=bottom_cap_any,
                     bottom_cap_stay=bottom_cap_stay)
    order = np.lexsort((-bottoms.tiebreak, -bottom_bound))
    order = order[bottom_bound[order] > -INF // 2]
    if floor is not None:
        order = order[bottom_bound[order] >= floor]
    # One chunk when the (bottom, middle) cells fit, else growing from a few bottoms: fewer
    # where each leftover holds several tops (jokers), as the first chunk has no target to
    # prune its pairs with.
    first = max(1, 8 // rank_of[0])
    done, step = 0, max(8, PAIR_CELLS // max(len(middles), 1)) if found is not None else first
    while done < len(order):
        if max_bottoms is not None and done >= max_bottoms:
            return found, False, int(bottom_bound[order[done]])
        if found is not None and deadline is not None and time.perf_counter() > deadline:
            return found, False, int(bottom_bound[order[done]])  # never before a first set
        target = found.value if found is not None else floor
        chunk = order[done:done + step]
        done += len(chunk)
        if target is not None:
            reach = bottom_bound[chunk] >= target
            if found is not None:  # bound equal to the best: only a better tie-break counts
                # (the best's own bottom too: ``found`` may come from fewer middles)
                reach &= (bottom_bound[chunk] > target) | (
                    bottoms.tiebreak[chunk] >= found.key[0])
            if not reach.any():
                if bottom_bound[chunk[-1]] < target:
                    break
                continue
            chunk = chunk[reach]
        step = min(max(PAIR_CELLS // max(len(middles), 1), 1), step * 2)
        found = _complete(search, chunk, target, found)
    return found, True, int(-INF)


def _complete(search: _Search, chunk: np.ndarray, target: int | None,
              found: Found | None) -> Found | None:
    """Complete the bottoms ``chunk`` and fold their best sets into ``found``."""
    cands, need_stay, full = search.cands, search.need_stay, search.full
    row_of, leftover, rank_of, middle_of = (search.row_of, search.leftover, search.rank_of,
                                            search.middle_of)
    bottoms, middles = cands.bottom, cands.middle
    top_weight, top_strength, top_stays, top_tiebreak = (
        search.top_weight, search.top_strength, search.top_stays, search.top_tiebreak)
    top_checks, middle_checks = search.top_checks, search.middle_checks
    middle_cap_any, middle_cap_stay, bottom_cap_any, bottom_cap_stay = (
        search.middle_cap_any, search.middle_cap_stay, search.bottom_cap_any,
        search.bottom_cap_stay)
    # The middles that could reach the target beside the chunk's best bottom, in one pass
    # over the middles, before the (bottom, middle) matrix.
    mid = np.flatnonzero(middle_cap_any > -INF // 2)  # a top fits under it
    if target is not None:
        upper = middles.weight[mid] + middle_cap_any[mid]
        mid = mid[upper >= target - bottoms.weight[chunk].max()]
    for other, stronger in middle_checks:  # other is the bottom
        if stronger:
            mid = mid[middles.strength[mid] <= bottoms.strength[chunk].max()]
        else:
            mid = mid[middles.strength[mid] >= bottoms.strength[chunk].min()]
    if len(mid) == 0:
        return found
    n = len(cands.cards)
    local = subsets(n - 5, 5)
    if len(mid) > LAYOUT_FACTOR * len(local):
        # Many middles left: rather than test each against each bottom, take the C(n - 5, 5)
        # five-card subsets of the cards each bottom leaves (126 for 14 cards), and look
        # them up among the candidates.
        bits = (bottoms.masks[chunk][:, None] >> np.arange(n)) & 1
        left = np.argsort(bits, axis=1, kind="stable")[:, :n - 5]  # positions, in order
        index = middle_of[1]((np.int64(1) << left[:, local]).sum(axis=2))  # (K, S, width)
        index = index.reshape(len(chunk), -1)  # -1: none
        allowed = np.zeros(len(middles) + 1, dtype=bool)
        allowed[mid] = True
        pick = np.where(index >= 0, index, len(middles))
        ok = allowed[pick]
        pick = np.where(ok, pick, 0)
        m_strength, m_weight = middles.strength[pick], middles.weight[pick]
        m_cap_any, m_cap_stay, m_stays = (middle_cap_any[pick], middle_cap_stay[pick],
                                          middles.stays[pick])
    else:
        pick = np.broadcast_to(mid[None, :], (len(chunk), len(mid)))
        ok = (bottoms.masks[chunk][:, None] & middles.masks[mid][None, :]) == 0
        m_strength, m_weight = middles.strength[mid][None, :], middles.weight[mid][None, :]
        m_cap_any, m_cap_stay, m_stays = (middle_cap_any[mid][None, :],
                                          middle_cap_stay[mid][None, :],
                                          middles.stays[mid][None, :])
    for other, stronger in middle_checks:
        if stronger:
            ok &= m_strength <= bottoms.strength[chunk][:, None]
        else:
            ok &= m_strength >= bottoms.strength[chunk][:, None]
    cap = np.minimum(m_cap_any, bottom_cap_any[chunk][:, None])
    if need_stay:
        either = bottoms.stays[chunk][:, None] | m_stays
        cap = np.where(either, cap, np.minimum(m_cap_stay, bottom_cap_stay[chunk][:, None]))
    pair_value = bottoms.weight[chunk][:, None] + m_weight
    ok &= cap > -INF // 2
    if target is not None:
        ok &= pair_value + cap >= target
    bi, mi = np.nonzero(ok)
    if len(bi) == 0:
        return found
    b, m = chunk[bi], pick[bi, mi]
    width, lookup = rank_of
    per = leftover.shape[1] * width
    for start in range(0, len(b), max(TOP_CELLS // per, 1)):
        part = slice(start, start + max(TOP_CELLS // per, 1))
        pb, pm = b[part], m[part]
        rest = full ^ (bottoms.masks[pb] | middles.masks[pm])
        # (P, per): every top of the cards left; NONE where none is a candidate
        rank = lookup(leftover[row_of[rest]]).reshape(len(pb), per)
        legal = rank < NONE
        safe = np.where(legal, rank, len(top_weight) - 1)
        for other, stronger in top_checks:
            strength = (bottoms if other == Row.BOTTOM else middles).strength[
                pb if other == Row.BOTTOM else pm][:, None]
            if stronger:
                legal &= top_strength[safe] <= strength
            else:
                legal &= top_strength[safe] >= strength
        if need_stay:
            either = bottoms.stays[pb] | middles.stays[pm]
            legal &= either[:, None] | top_stays[safe]
        best_rank = np.where(legal, rank, NONE).min(axis=1)
        has = best_rank < NONE
        if not has.any():
            continue
        pb, pm, best_rank = pb[has], pm[has], best_rank[has]
        value = bottoms.weight[pb] + middles.weight[pm] + top_weight[best_rank]
        top_value = int(value.max())
        if found is not None and top_value < found.value:
            continue
        at = np.flatnonzero(value == top_value)
        i = at[preferred(bottoms.tiebreak[pb[at]], middles.tiebreak[pm[at]],
                         top_tiebreak[best_rank[at]])]
        new_key = (int(bottoms.tiebreak[pb[i]]), int(middles.tiebreak[pm[i]]),
                   int(top_tiebreak[best_rank[i]]))
        if found is None or top_value > found.value or new_key > found.key:
            t_index = int(np.flatnonzero(cands.top.tiebreak == new_key[2])[0])
            found = Found(top_value, new_key, {
                Row.BOTTOM: int(bottoms.masks[pb[i]]), Row.MIDDLE: int(middles.masks[pm[i]]),
                Row.TOP: int(cands.top.masks[t_index])})
    return found


def as_pick(found: Found) -> Pick:
    bottom, middle, top = found.key
    return Pick(found.value, {Row.BOTTOM: bottom, Row.MIDDLE: middle, Row.TOP: top},
                {row: found.masks[row] for row in ROWS})


#: The (bottom, middle) pairs of 13 cards: every setting of a hand with nothing to discard.
SETTINGS_OF_13 = 72_072


def every_set(cands: Candidates, need_stay: bool, floor: int, limit: int,
              *, max_sets: int | None = None) -> dict[str, np.ndarray] | None:
    """Every legal set of ``cands`` (staying if asked) whose rows' bounds add up to ``floor``
    or more, as each row's candidate index over the sets; None if there are more than
    ``limit`` (bottom, middle) pairs to look at, or more than ``max_sets`` sets (by default
    ``8 * limit``), or past 13 cards more (pair, top) cells to try than ``limit`` pairs
    would have without jokers (or ``TOP_CELLS``). For objectives with shared terms, whose
    value the caller computes exactly for each. The (bottom, middle) cells whose bounds
    reach ``floor`` are looked at all at once, up to ``EVERY_SET_CELLS`` or ``4 * limit`` of
    them, or every one where 13 cards have no more disjoint pairs than ``limit``."""
    bottoms, middles, tops = cands.bottom, cands.middle, cands.top
    empty = {row: np.zeros(0, dtype=np.int64) for row in ROWS}
    if not (len(bottoms) and len(middles) and len(tops)):
        return empty
    n = len(cands.cards)
    pairs_order = cands.rules.order_pairs
    # By bound alone, the middles a bottom could pair with are a prefix of the middles in
    # order of bound, best first: only those prefixes' cells are looked at.
    by_bound = np.argsort(-middles.bound, kind="stable")
    least = floor - tops.bound.max() - bottoms.bound  # the bound each bottom's middle needs
    counts = np.searchsorted(-middles.bound[by_bound], -least, side="right")
    cells = int(counts.sum())
    if cells > max(limit * 4, EVERY_SET_CELLS) and not (n == 13 and limit >= SETTINGS_OF_13):
        return None
    b = np.repeat(np.arange(len(bottoms)), counts)
    m = by_bound[np.arange(cells) - np.repeat(np.cumsum(counts) - counts, counts)]
    ok = (bottoms.masks[b] & middles.masks[m]) == 0
    for other, stronger in _order_checks(pairs_order, Row.MIDDLE, (Row.BOTTOM,)):
        if stronger:
            ok &= middles.strength[m] <= bottoms.strength[b]
        else:
            ok &= middles.strength[m] >= bottoms.strength[b]
    b, m = b[ok], m[ok]
    order = np.lexsort((m, b))  # bottom by bottom, each bottom's middles in their order
    b, m = b[order], m[order]
    if len(b) > limit:
        return None
    if len(b) == 0:
        return empty
    row_of, leftover = _leftover_tops(n)
    width, index_of = by_mask(tops.masks, n, np.arange(len(tops), dtype=np.int32), -1,
                              shared=cands.has_jokers)
    # Each pair has C(n - 10, 3) tops to try, each as many candidates as a joker's choices
    # make of one mask: past 13 cards, no more (pair, top) cells than its pairs would have
    # without jokers, or ``TOP_CELLS``.
    tried = tops_to_try(n)
    if n > 13 and len(b) * tried * width > max(TOP_CELLS, limit * tried):
        return None
    rest = ((1 << n) - 1) ^ (bottoms.masks[b] | middles.masks[m])
    t = index_of(leftover[row_of[rest]]).reshape(len(b), -1)  # -1 where not a candidate
    legal = t >= 0
    safe = np.where(legal, t, 0)
    for other, stronger in _order_checks(pairs_order, Row.TOP, (Row.BOTTOM, Row.MIDDLE)):
        strength = (bottoms.strength[b] if other == Row.BOTTOM else middles.strength[m])[:, None]
        legal &= (tops.strength[safe] <= strength) if stronger else (
            tops.strength[safe] >= strength)
    if need_stay:
        legal &= (bottoms.stays[b] | middles.stays[m])[:, None] | tops.stays[safe]
    legal &= (bottoms.bound[b] + middles.bound[m])[:, None] + tops.bound[safe] >= floor
    i, j = np.nonzero(legal)
    if len(i) > (8 * limit if max_sets is None else max_sets):
        return None
    return {Row.BOTTOM: b[i], Row.MIDDLE: m[i], Row.TOP: safe[i, j].astype(np.int64)}
