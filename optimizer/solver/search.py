"""Every completion of one candidate, for the tie-break under an objective with shared terms.

For one bottom, every (middle, top) pair of the remaining cards is scored at once with numpy
(792 x 35 pairs for 17 cards); likewise for a middle or a top. ``first_in_tiebreak_order``
takes bottoms in the tie-break's order and returns the preferred set of a given value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Row
from fantasyland.optimizer.solver.candidates import Candidates, by_mask, preferred, subsets
from fantasyland.optimizer.solver.objective import Objective


@dataclass(frozen=True)
class Pick:
    """One set, with its value: each row's candidate named by its tie-break rank (unique in
    its row: with jokers, several candidates may share a mask), and each row's bitmask over
    the dealt positions."""

    value: int
    ranks: dict[str, int]
    masks: dict[str, int]


def pick_of(cands: Candidates, value: int, index: dict[str, int]) -> Pick:
    """The set of the candidates at ``index`` in each row of ``cands``."""
    return Pick(value, {row: int(cands.row(row).tiebreak[index[row]]) for row in ROWS},
                {row: int(cands.row(row).masks[index[row]]) for row in ROWS})


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
        self.first, self.second = [row for row in (Row.MIDDLE, Row.BOTTOM, Row.TOP) if row != fixed]
        # A row's candidates by mask (a mask holding jokers may name several).
        self.lookup = {row: by_mask(cands.row(row).masks, len(cands.cards),
                                    np.arange(len(cands.row(row))), -1, shared=cands.has_jokers)[1]
                       for row in (self.first, self.second)}
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

    def completions(self, fixed_index: int) -> tuple[dict[str, np.ndarray], np.ndarray] | None:
        """Every legal completion of one candidate: each row's candidate index and the rows'
        summed weight, as flat arrays (None if there is none)."""
        cands = self.cands
        fc, c1, c2 = cands.row(self.fixed), cands.row(self.first), cands.row(self.second)
        mask = int(fc.masks[fixed_index])
        deposit = _depositor(self.all_positions[(mask >> self.all_positions & 1) == 0])
        first = self.lookup[self.first](deposit(self.local_first))  # (F, width)
        width = first.shape[1]
        first = first.ravel()
        ok = first >= 0
        ok[ok] = self._fits(self.first, first[ok], {self.fixed: fc.strength[fixed_index]})
        rows = np.flatnonzero(ok)
        if len(rows) == 0:
            return None
        first = first[rows]
        second = self.lookup[self.second](deposit(self.local_second[rows // width]))
        second = second.reshape(len(rows), -1)  # (F', S x width)
        valid = second >= 0
        safe = np.where(valid, second, 0)
        known = {self.fixed: fc.strength[fixed_index],
                 self.first: c1.strength[first][:, None]}
        valid &= self._fits(self.second, safe, known)
        if self.need_stay and not fc.stays[fixed_index]:
            valid &= c1.stays[first][:, None] | c2.stays[safe]
        i, j = np.nonzero(valid)
        if len(i) == 0:
            return None
        index = {self.fixed: np.full(len(i), fixed_index), self.first: first[i],
                 self.second: second[i, j]}
        weight = sum(cands.row(row).weight[index[row]] for row in ROWS)
        return index, weight

    def best(self, fixed_index: int) -> Pick | None:
        """The completion of highest weight, the tie-break's choice among equals."""
        found = self.completions(fixed_index)
        if found is None:
            return None
        index, weight = found
        return _preferred(self.cands, index, weight == weight.max(), int(weight.max()))


def _preferred(cands: Candidates, index: dict[str, np.ndarray], among: np.ndarray,
               value: int) -> Pick:
    """Of the sets ``among`` marks, the one the tie-break prefers: bottom, middle, top."""
    at = np.flatnonzero(among)
    best = int(at[preferred(*(cands.row(row).tiebreak[index[row][at]]
                              for row in ROWS[::-1]))])
    return pick_of(cands, value, {row: index[row][best] for row in ROWS})


def first_in_tiebreak_order(cands: Candidates, value: int, need_stay: bool,
                            objective: Objective) -> Pick | None:
    """The set worth exactly ``value`` that the tie-break rule prefers, by exact enumeration.

    Bottoms are tried from the strongest (tie-break order) down; the first with a completion
    worth ``value`` holds the answer, the strongest middle and then top among those.
    ``cands`` must hold every candidate of every set worth ``value`` (prune with floor
    ``value``), and no set may be worth more. Shared terms (scoops) are computed exactly,
    only for the completions whose bound can reach ``value``.
    """
    if any(len(cands.row(row)) == 0 for row in ROWS):
        return None
    completer = Completer(cands, need_stay, Row.BOTTOM)
    for bottom in np.argsort(cands.bottom.tiebreak)[::-1]:
        found = completer.completions(int(bottom))
        if found is None:
            continue
        index, weight = found
        if not objective.separable:
            cap = sum(cands.row(row).bound[index[row]] - cands.row(row).weight[index[row]]
                      for row in ROWS)
            close = np.flatnonzero(weight + cap >= value)
            index = {row: idx[close] for row, idx in index.items()}
            weight = weight[close] + objective.shared(
                {row: cands.row(row).value[index[row]] for row in ROWS})
        hits = weight == value
        if hits.any():
            return _preferred(cands, index, hits, value)
    return None
