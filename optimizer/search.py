"""A quick incumbent: the exact best completion of the most promising candidates.

For one bottom, every (middle, top) pair of the remaining cards is scored at once with numpy
(792 x 35 pairs for 17 cards); likewise for a middle or a top. Taking bottoms in order of their upper bound and stopping once
the next bound cannot beat the best found is a small branch and bound; it is cut off after a
budget of bottoms, and whatever it found is only an incumbent: the CP-SAT model proves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from evaluator.rules import ROW_SIZE, ROWS
from optimizer.bounds import INF
from optimizer.candidates import Candidates, subsets
from optimizer.objective import Objective


@dataclass(frozen=True)
class Pick:
    """One set as the bitmask of each row over the dealt positions, with its value."""

    value: int
    masks: dict[str, int]


@cache
def _completion_layout(rest: int, first: int, second: int) -> tuple[np.ndarray, np.ndarray]:
    """For ``rest`` positions: local bitmasks of every ``first``-subset, ``(F,)``, and of every
    ``second``-subset of what each one leaves, ``(F, S)``."""
    firsts = subsets(rest, first)
    taken = np.zeros((len(firsts), rest), dtype=bool)
    taken[np.arange(len(firsts))[:, None], firsts] = True
    # The positions each first subset leaves, in increasing order, one row per subset.
    left = np.argsort(taken, axis=1, kind="stable")[:, : rest - first]
    seconds = left[:, subsets(rest - first, second)]  # (F, S, second)
    layout = ((np.int64(1) << firsts).sum(axis=1), (np.int64(1) << seconds).sum(axis=2))
    for array in layout:
        array.flags.writeable = False
    return layout


def _index_of_mask(cands: Candidates, row: str) -> np.ndarray:
    table = np.full(1 << len(cands.cards), -1, dtype=np.int64)
    table[cands.row(row).masks] = np.arange(len(cands.row(row)))
    return table


_BYTE = np.arange(256, dtype=np.int64)


def _depositor(positions: np.ndarray):
    """Map local bitmasks (bit i = ``positions[i]``) to global ones, a byte at a time."""
    tables = []
    for start in range(0, len(positions), 8):
        chunk = positions[start:start + 8]
        bits = (_BYTE[:, None] >> np.arange(len(chunk)) & 1).astype(bool)
        tables.append((start, (bits * (np.int64(1) << chunk)).sum(axis=1)))

    def deposit(local: np.ndarray) -> np.ndarray:
        out = np.zeros(local.shape, dtype=np.int64)
        for start, table in tables:
            out |= table[local >> start & 255]
        return out
    return deposit


class Completer:
    """Scores the best completion of a candidate of ``fixed`` row, under the current rows."""

    def __init__(self, cands: Candidates, need_stay: bool, fixed: str):
        self.cands = cands
        self.need_stay = need_stay
        self.fixed = fixed
        self.first, self.second = [row for row in ("middle", "bottom", "top") if row != fixed]
        self.lookup = {row: _index_of_mask(cands, row) for row in (self.first, self.second)}
        n = len(cands.cards)
        rest = n - ROW_SIZE[fixed]
        self.local_first, self.local_second = _completion_layout(
            rest, ROW_SIZE[self.first], ROW_SIZE[self.second])
        self.all_positions = np.arange(n)
        chain = cands.rules.order
        self.checks = [(a, b) for a, b in cands.rules.order_pairs]
        self.chain = chain

    def _fits(self, row: str, index: np.ndarray, known: dict[str, np.ndarray]) -> np.ndarray:
        """Whether ``row``'s candidates keep the foul order with the rows already known."""
        ok = np.ones(index.shape, dtype=bool)
        strength = self.cands.row(row).strength[index]
        for stronger, weaker in self.checks:
            if stronger == row and weaker in known:
                ok &= strength >= known[weaker]
            elif weaker == row and stronger in known:
                ok &= strength <= known[stronger]
        return ok

    def best(self, fixed_index: int) -> Pick | None:
        cands = self.cands
        fc, c1, c2 = cands.row(self.fixed), cands.row(self.first), cands.row(self.second)
        mask = int(fc.masks[fixed_index])
        deposit = _depositor(self.all_positions[(mask >> self.all_positions & 1) == 0])
        first = self.lookup[self.first][deposit(self.local_first)]
        fixed_strength = {self.fixed: fc.strength[fixed_index]}
        ok = first >= 0
        ok[ok] = self._fits(self.first, first[ok], fixed_strength)
        rows = np.flatnonzero(ok)
        if len(rows) == 0:
            return None
        first = first[rows]
        second = self.lookup[self.second][deposit(self.local_second[rows])]  # (F', S)
        valid = second >= 0
        safe = np.where(valid, second, 0)
        known = {self.fixed: fc.strength[fixed_index],
                 self.first: c1.strength[first][:, None]}
        valid &= self._fits(self.second, safe, known)
        if self.need_stay and not fc.stays[fixed_index]:
            valid &= c1.stays[first][:, None] | c2.stays[safe]
        if not valid.any():
            return None
        value = np.where(valid, fc.weight[fixed_index] + c1.weight[first][:, None]
                         + c2.weight[safe], -INF)
        top_value = value.max()
        # Among equal values prefer the tie-break order, so that the incumbent is often
        # already the answer: bottom, then middle, then top.
        tb = {self.fixed: np.int64(fc.tiebreak[fixed_index]),
              self.first: c1.tiebreak[first][:, None], self.second: c2.tiebreak[safe]}
        key = (tb["bottom"] << 26) + (tb["middle"] << 13) + tb["top"]
        key = np.where(value == top_value, key, -1)
        i, j = np.unravel_index(int(np.argmax(key)), key.shape)
        masks = {self.fixed: mask, self.first: int(c1.masks[first[i]]),
                 self.second: int(c2.masks[second[i, j]])}
        return Pick(int(top_value), masks)


def _branches(cands: Candidates, bounds: dict[str, np.ndarray], need_stay: bool
              ) -> list[tuple[str, int]]:
    """Candidates to complete, best bound first (then tie-break order).

    Every set has a bottom; a staying set also has a staying candidate in some row, and
    there are far fewer of those, so the stay mode branches on them.
    """
    rows = ROWS if need_stay else ("bottom",)
    names, index, bound, tiebreak = [], [], [], []
    for row in rows:
        rc = cands.row(row)
        pool = np.flatnonzero(rc.stays) if need_stay else np.arange(len(rc))
        pool = pool[bounds[row][pool] > -INF // 2]
        names += [row] * len(pool)
        index.append(pool)
        bound.append(bounds[row][pool])
        tiebreak.append(rc.tiebreak[pool])
    if not names:
        return []
    index_all = np.concatenate(index)
    order = np.lexsort((np.concatenate(tiebreak), np.concatenate(bound)))[::-1]
    return [(names[i], int(index_all[i])) for i in order.tolist()]


def _compatible(cands: Candidates, row: str, strength: int, other: str) -> np.ndarray:
    """Which candidates of ``other`` may stand with a ``row`` of ``strength`` in the order."""
    chain = cands.rules.order
    oc = cands.row(other)
    if row not in chain or other not in chain:
        return np.ones(len(oc), dtype=bool)
    if chain.index(row) < chain.index(other):
        return oc.strength <= strength
    return oc.strength >= strength


def greedy(cands: Candidates, row: str, index: int, tries: int = 24) -> Pick | None:
    """A good (not always best) completion of one candidate: try the heaviest few candidates
    of one other row, each with the heaviest fitting candidate of the last row."""
    first, second = [r for r in ("bottom", "middle", "top") if r != row]
    mask = int(cands.row(row).masks[index])
    strength = int(cands.row(row).strength[index])
    fc, sc = cands.row(first), cands.row(second)
    fits = ((fc.masks & mask) == 0) & _compatible(cands, row, strength, first)
    options = np.flatnonzero(fits)
    options = options[np.lexsort((fc.tiebreak[options], fc.weight[options]))[::-1][:tries]]
    best: Pick | None = None
    second_fits = ((sc.masks & mask) == 0) & _compatible(cands, row, strength, second)
    for f in options.tolist():
        ok = second_fits & ((sc.masks & fc.masks[f]) == 0)
        ok &= _compatible(cands, first, int(fc.strength[f]), second)
        if not ok.any():
            continue
        pool = np.flatnonzero(ok)
        s = pool[np.lexsort((sc.tiebreak[pool], sc.weight[pool]))[-1]]
        value = int(cands.row(row).weight[index] + fc.weight[f] + sc.weight[s])
        if best is None or value > best.value:
            best = Pick(value, {row: mask, first: int(fc.masks[f]), second: int(sc.masks[s])})
    return best


def incumbent(cands: Candidates, bounds: dict[str, np.ndarray], need_stay: bool,
              objective: Objective, budget: int = 48) -> tuple[Pick | None, int, bool]:
    """The best set found by completing up to ``budget`` candidates, best bound first.

    Returns the pick (None if none was found), how many candidates were completed, and
    whether every candidate whose bound could beat the pick was completed, which proves the
    pick optimal.
    """
    if any(len(cands.row(row)) == 0 for row in ROWS):
        return None, 0, True
    completers: dict[str, Completer] = {}
    best: Pick | None = None
    tried = 0
    for row, candidate in _branches(cands, bounds, need_stay):
        if best is not None and bounds[row][candidate] <= best.value:
            return best, tried, True
        if tried == budget:
            return best, tried, False
        tried += 1
        if row not in completers:
            completers[row] = Completer(cands, need_stay, row)
        pick = completers[row].best(candidate)
        if pick is not None and not objective.separable:
            # The completion maximized the rows' own weights; value it exactly.
            pick = Pick(objective.exact(cands, pick.masks), pick.masks)
        if pick is not None and (best is None or pick.value > best.value):
            best = pick
    return best, tried, True


def first_in_tiebreak_order(cands: Candidates, value: int, need_stay: bool) -> Pick | None:
    """The set of weight ``value`` that the tie-break rule prefers, by exact enumeration.

    Bottoms are tried from the strongest (tie-break order) down; the first whose best
    completion reaches ``value`` holds the answer, and its completion already prefers the
    strongest middle, then top. ``cands`` must hold every candidate of every set worth
    ``value`` (prune with floor ``value``), and no set may be worth more. Only for an
    objective whose value is the sum of its rows' weights.
    """
    if any(len(cands.row(row)) == 0 for row in ROWS):
        return None
    completer = Completer(cands, need_stay, "bottom")
    for bottom in np.argsort(cands.bottom.tiebreak)[::-1]:
        pick = completer.best(int(bottom))
        if pick is not None and pick.value == value:
            return pick
    return None
