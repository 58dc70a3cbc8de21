"""Upper bounds on the best set through each candidate, and the prunes they justify.

A *completion* of a candidate is a choice of the other two rows. Each bound below relaxes the
real problem (it ignores some constraint), so it is never below the best completion's value.
A candidate whose bound is below a target value ``floor`` cannot be part of any set worth
``floor`` or more, so dropping it loses no such set: every prune here keeps all sets at or
above ``floor``, ties included, which is what the tie-break needs.

Values are integers (the objective's scaled units). Each candidate's ``bound`` is its own
weight plus the most it can add to terms the rows share (a scoop needs every row to win), so
a set is never worth more than the sum of its rows' bounds. ``-INF`` marks "no completion".
A set in the *stay* mode must have at least one row that keeps the player in Fantasyland.
"""

from __future__ import annotations

import numpy as np

from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.solver.candidates import Candidates
from fantasyland.optimizer.solver.joker_bounds import JokerChain
from fantasyland.optimizer.solver.part import INF, Part

__all__ = ["INF", "Part", "card_aware_others", "chain_bounds", "prune", "set_bounds",
           "tighten", "tighten_counted"]


def _combine(parts: list[Part], size: int) -> Part:
    """Best of independent groups added together; a stay needs just one group to stay."""
    total = np.zeros(size, dtype=np.int64)
    for part in parts:
        total = total + part.any
    stay = np.full(size, -INF, dtype=np.int64)
    for part in parts:
        stay = np.maximum(stay, total - part.any + part.stay)
    bad = np.zeros(size, dtype=bool)
    for part in parts:
        bad |= part.any <= -INF // 2
    total[bad], stay[bad] = -INF, -INF
    stay[stay <= -INF // 2] = -INF
    return Part(total, stay)


def _prefix_best(strength: np.ndarray, any_: np.ndarray, stay: np.ndarray, query: np.ndarray,
                 at_most: bool) -> Part:
    """For each query strength, the best (any, stay) over entries with strength <= (or >=) it.

    ``strength`` is sorted (candidates are kept in strength order)."""
    if len(strength) == 0:
        return Part(np.full(len(query), -INF), np.full(len(query), -INF))
    s, a, t = strength, any_, stay
    if at_most:
        a, t = np.maximum.accumulate(a), np.maximum.accumulate(t)
        where = np.searchsorted(s, query, side="right") - 1
        ok = where >= 0
    else:
        a = np.maximum.accumulate(a[::-1])[::-1]
        t = np.maximum.accumulate(t[::-1])[::-1]
        where = np.searchsorted(s, query, side="left")
        ok = where < len(s)
    where = np.clip(where, 0, len(s) - 1)
    return Part(np.where(ok, a[where], -INF), np.where(ok, t[where], -INF))


def _own(weights: np.ndarray, stays: np.ndarray) -> Part:
    return Part(weights.astype(np.int64), np.where(stays, weights, -INF).astype(np.int64))


def _extend(own: Part, rest: Part) -> Part:
    """A row's own value on top of the best of the rows beyond it."""
    any_ = np.where(rest.any <= -INF // 2, -INF, own.any + rest.any)
    stay = np.maximum(np.where(own.stay <= -INF // 2, -INF, own.stay + rest.any),
                      np.where(rest.stay <= -INF // 2, -INF, own.any + rest.stay))
    stay = np.where(any_ <= -INF // 2, -INF, stay)
    return Part(any_, stay)


def chain_bounds(cands: Candidates) -> dict[str, Part]:
    """Best completion of every candidate, keeping the foul order but ignoring shared cards.

    The order is a chain (bottom >= middle >= top, or bottom >= top under 2-7); a dynamic
    programme over it, with prefix maxima over strength, gives for each candidate the best the
    other rows can add. Rows outside the chain only need their own best. Dropping the rule
    that rows use different cards can only raise the best, so this is an upper bound.
    """
    rules = cands.rules
    chain = list(rules.order)
    if cands.has_jokers and len(chain) == len(ROWS):
        return JokerChain(cands).others()  # the jokers counted
    own = {r: _own(cands.row(r).bound, cands.row(r).stays) for r in ROWS}
    strength = {r: cands.row(r).strength for r in ROWS}
    # below[i]: best of chain rows i.. as a function of row i's own candidates.
    below: dict[int, Part] = {}
    above: dict[int, Part] = {}
    # rest_below[i]: the best of chain rows i+1.. under each of row i's candidates (and
    # rest_above[i] of rows ..i-1 over them), each computed once.
    rest_below: dict[int, Part] = {}
    rest_above: dict[int, Part] = {}
    for i in reversed(range(len(chain))):
        row = chain[i]
        if i == len(chain) - 1:
            below[i] = own[row]
        else:
            nxt = chain[i + 1]
            rest_below[i] = _prefix_best(strength[nxt], below[i + 1].any, below[i + 1].stay,
                                         strength[row], at_most=True)
            below[i] = _extend(own[row], rest_below[i])
    for i in range(len(chain)):
        row = chain[i]
        if i == 0:
            above[i] = own[row]
        else:
            prv = chain[i - 1]
            rest_above[i] = _prefix_best(strength[prv], above[i - 1].any, above[i - 1].stay,
                                         strength[row], at_most=False)
            above[i] = _extend(own[row], rest_above[i])
    free = [r for r in ROWS if r not in chain]
    free_best = {r: Part(np.array([own[r].any.max(initial=-INF)]),
                         np.array([own[r].stay.max(initial=-INF)])) for r in free}
    others: dict[str, Part] = {}
    for row in ROWS:
        size = len(cands.row(row))
        parts = []
        if row in chain:
            i = chain.index(row)
            if i + 1 < len(chain):
                parts.append(rest_below[i])
            if i > 0:
                parts.append(rest_above[i])
        for r in free:
            if r != row:
                parts.append(Part(np.repeat(free_best[r].any, size),
                                  np.repeat(free_best[r].stay, size)))
        if row in free and chain:  # a free row completes with the best of the whole chain
            parts.append(Part(np.repeat(below[0].any.max(initial=-INF), size),
                              np.repeat(below[0].stay.max(initial=-INF), size)))
        others[row] = _combine(parts, size)
    return others


def set_bounds(cands: Candidates, others: dict[str, Part], need_stay: bool
               ) -> dict[str, np.ndarray]:
    """The bound on a whole set through each candidate: its own weight plus the others' best."""
    bounds = {}
    for row in ROWS:
        part = others[row]
        if need_stay:
            rest = np.where(cands.row(row).stays, part.any, part.stay)
        else:
            rest = part.any
        bounds[row] = np.where(rest <= -INF // 2, -INF, cands.row(row).bound + rest)
    return bounds


def card_aware_others(cands: Candidates, high: dict[str, np.ndarray]) -> dict[str, Part]:
    """Best completion when the other rows must avoid the candidate's own cards.

    For each other row, the best is either a candidate from its short list ``high`` (checked
    for shared cards and for the order against this candidate) or, for any other candidate,
    at most the largest weight left off the list (a cap that needs no check). The two other
    rows are bounded separately, ignoring the constraints between them, which only raises
    the bound.
    """
    result = {}
    for row in ROWS:
        rc = cands.row(row)
        size = len(rc)
        parts = []
        for other in ROWS:
            if other == row:
                continue
            oc = cands.row(other)
            w = oc.bound
            listed = high[other]
            rest = np.ones(len(oc), dtype=bool)
            rest[listed] = False
            cap_any = w[rest].max(initial=-INF) if rest.any() else -INF
            cap_stay = w[rest & oc.stays].max(initial=-INF) if (rest & oc.stays).any() else -INF
            best_any = np.full(size, cap_any, dtype=np.int64)
            best_stay = np.full(size, cap_stay, dtype=np.int64)
            if len(listed):
                ok = (rc.masks[:, None] & oc.masks[listed][None, :]) == 0
                ok &= _order_ok(cands, row, rc.strength, other, oc.strength[listed])
                lw = np.where(ok, w[listed][None, :], -INF)
                best_any = np.maximum(best_any, lw.max(axis=1))
                lws = np.where(oc.stays[listed][None, :], lw, -INF)
                best_stay = np.maximum(best_stay, lws.max(axis=1))
            parts.append(Part(best_any, best_stay))
        result[row] = _combine(parts, size)
    return result


def _order_ok(cands: Candidates, row: str, strength: np.ndarray, other: str,
              other_strength: np.ndarray) -> np.ndarray:
    """Whether each (candidate, listed candidate) pair can stand in the foul order."""
    chain = cands.rules.order
    if row not in chain or other not in chain:
        return np.ones((len(strength), len(other_strength)), dtype=bool)
    if chain.index(row) < chain.index(other):  # row is the stronger one
        return strength[:, None] >= other_strength[None, :]
    return strength[:, None] <= other_strength[None, :]


def prune(cands: Candidates, bounds: dict[str, np.ndarray], floor: int) -> Candidates:
    """Keep only candidates whose bound reaches ``floor``."""
    return cands.replace(**{row: cands.row(row).take(bounds[row] >= floor) for row in ROWS})


SHORT_LIST = 192  # candidates per row checked card by card in the card-aware bound


def _short_list(cands: Candidates) -> dict[str, np.ndarray]:
    """The heaviest candidates of each row (staying ones first among equals)."""
    lists = {}
    for row in ROWS:
        rc = cands.row(row)
        order = np.lexsort((rc.stays, rc.bound))[::-1]
        lists[row] = np.sort(order[:SHORT_LIST])
    return lists


def tighten(cands: Candidates, need_stay: bool, floor: int) -> Candidates:
    """Prune with the chain bound and the card-aware bound until neither removes anything.

    Each round can only remove candidates that no set worth ``floor`` uses, and removing
    them can only lower the other candidates' bounds, so repeating is safe.
    """
    return tighten_counted(cands, need_stay, floor)[0]


def tighten_counted(cands: Candidates, need_stay: bool, floor: int) -> tuple[Candidates, int]:
    """``tighten``'s candidates, and the rounds it took (a mode's stats report them)."""
    rounds = 0
    for rounds in range(1, 5):
        if any(len(cands.row(r)) == 0 for r in ROWS):
            break
        before = sum(cands.sizes.values())
        cands = prune(cands, set_bounds(cands, chain_bounds(cands), need_stay), floor)
        if any(len(cands.row(r)) == 0 for r in ROWS):
            break
        others = card_aware_others(cands, _short_list(cands))
        cands = prune(cands, set_bounds(cands, others, need_stay), floor)
        if sum(cands.sizes.values()) == before:
            break
    return cands, rounds
