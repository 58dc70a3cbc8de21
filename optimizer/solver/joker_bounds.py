"""The chain bound of a hand holding jokers: the jokers counted.

``bounds.chain_bounds`` ignores which cards the rows share. With jokers that is loose: every
row would take both jokers if it could, and a set has only as many as were dealt. So here
the dynamic programme over the chain also counts the jokers: each step knows how many the
rows so far hold, and no set holds more than the hand. The other shared cards are still
ignored, so this is still an upper bound, and a much tighter one.

What a candidate can reach depends only on its strength and its jokers, so the programme
runs over each row's distinct strengths (``_Grid``: a few thousand, where a 17-card middle
may have tens of thousands of candidates). Arrays have a row per number of jokers ``b``:
the best with at most ``b`` jokers in the rows so far.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from optimizer.solver.bounds import INF, Part
from optimizer.solver.candidates import Candidates, RowCandidates

Pair = tuple[np.ndarray, np.ndarray]  # (any, stay) by budget: (jokers + 1, columns)


@dataclass(frozen=True)
class _Grid:
    """One row's candidates by (jokers held, strength): each distinct strength once (sorted),
    and for each count of jokers the best weight of the candidates there, with any row and
    with a staying one (-INF where there is none)."""

    strength: np.ndarray  # (U,) distinct strengths, ascending
    cell: np.ndarray  # (n,) each candidate's column
    any: np.ndarray  # (jokers + 1, U)
    stay: np.ndarray  # (jokers + 1, U)

    @staticmethod
    def of(rc: RowCandidates, budget: int) -> _Grid:
        strength = rc.strength  # sorted: candidates are kept in strength order
        new = np.concatenate([[True], strength[1:] != strength[:-1]]) if len(strength) else \
            np.zeros(0, dtype=bool)
        cell = np.cumsum(new) - 1
        any_ = np.full((budget + 1, int(new.sum())), -INF, dtype=np.int64)
        stay = any_.copy()
        weight = rc.bound.astype(np.int64)
        staying = np.where(rc.stays, weight, -INF)
        for jokers in range(budget + 1):
            held = np.flatnonzero(rc.jokers == jokers)
            if not len(held):
                continue
            at = cell[held]  # ascending: runs of one column
            starts = np.flatnonzero(np.concatenate([[True], at[1:] != at[:-1]]))
            any_[jokers, at[starts]] = np.maximum.reduceat(weight[held], starts)
            stay[jokers, at[starts]] = np.maximum.reduceat(staying[held], starts)
        return _Grid(strength[new], cell, any_, stay)


def _settled(values: np.ndarray) -> np.ndarray:
    """Sums taken without checks, "none" made -INF again: a term of -INF leaves a sum at or
    below -INF / 2 (weights are far smaller than INF), and two leave it above -3 * INF."""
    return np.where(values <= -INF // 2, -INF, values)


class JokerChain:
    """The jokers-counted chain programme of one hand's candidates (the module docstring)."""

    def __init__(self, cands: Candidates) -> None:
        self.cands = cands
        self.chain = list(cands.rules.order)
        self.budget = cands.joker_count
        self._reach: dict[tuple[str, int], Pair] = {}
        self._grids: dict[int, _Grid] = {}

    def grid(self, i: int) -> _Grid:
        if i not in self._grids:
            self._grids[i] = _Grid.of(self.cands.row(self.chain[i]), self.budget)
        return self._grids[i]

    def _next(self, side: str, i: int) -> int | None:
        """The chain row beyond row ``i`` on ``side`` (``below``: weaker rows), if any."""
        j = i + 1 if side == "below" else i - 1
        return j if 0 <= j < len(self.chain) else None

    def reach(self, side: str, i: int) -> Pair:
        """The best of row ``i`` and the rows beyond it on ``side``, through each of row
        ``i``'s columns, by budget."""
        if (side, i) not in self._reach:
            grid = self.grid(i)
            if self._next(side, i) is None:  # the end row: its cells of b jokers or fewer
                reach = (np.maximum.accumulate(grid.any, axis=0),
                         np.maximum.accumulate(grid.stay, axis=0))
            else:
                rest_any, rest_stay = self.rest(side, i, grid.strength)
                reach_any = np.full(grid.any.shape, -INF, dtype=np.int64)
                reach_stay = reach_any.copy()
                for j in range(self.budget + 1):  # own jokers j, b - j at most beyond
                    left = self.budget + 1 - j
                    reach_any[j:] = np.maximum(reach_any[j:], grid.any[j] + rest_any[:left])
                    reach_stay[j:] = np.maximum(reach_stay[j:], np.maximum(
                        grid.stay[j] + rest_any[:left], grid.any[j] + rest_stay[:left]))
                reach = (_settled(reach_any), _settled(reach_stay))
            self._reach[side, i] = reach
        return self._reach[side, i]

    def rest(self, side: str, i: int, query: np.ndarray) -> Pair:
        """The best of the rows beyond row ``i`` on ``side`` that a row-``i`` candidate of
        each ``query`` strength (ascending) can have, by budget: a prefix best over the next
        row's strengths (weaker or equal below, stronger or equal above)."""
        j = self._next(side, i)
        strength = self.grid(j).strength
        any_, stay = self.reach(side, j)
        shape = (self.budget + 1, len(query))
        if not len(strength):
            return np.full(shape, -INF, dtype=np.int64), np.full(shape, -INF, dtype=np.int64)
        if side == "below":
            any_, stay = np.maximum.accumulate(any_, axis=1), np.maximum.accumulate(stay, axis=1)
            where = np.searchsorted(strength, query, side="right") - 1
            ok = where >= 0
        else:
            any_ = np.maximum.accumulate(any_[:, ::-1], axis=1)[:, ::-1]
            stay = np.maximum.accumulate(stay[:, ::-1], axis=1)[:, ::-1]
            where = np.searchsorted(strength, query, side="left")
            ok = where < len(strength)
        where = np.clip(where, 0, len(strength) - 1)
        return np.where(ok, any_[:, where], -INF), np.where(ok, stay[:, where], -INF)

    def others_of(self, row: str, rc: RowCandidates) -> Part:
        """The most the other rows can add to each of ``rc``, candidates of ``row`` (its own
        or any others in strength order, as the probes of deferred middles are)."""
        i = self.chain.index(row)
        grid = self.grid(i) if rc is self.cands.row(row) else _Grid.of(rc, self.budget)
        sides = [self.rest(side, i, grid.strength) for side in ("below", "above")
                 if self._next(side, i) is not None]
        best_any = np.full((self.budget + 1, len(grid.strength)), -INF, dtype=np.int64)
        best_stay = best_any.copy()
        for j in range(self.budget + 1):
            spare = self.budget - j  # the jokers left to the other rows
            if len(sides) == 1:
                best_any[j], best_stay[j] = sides[0][0][spare], sides[0][1][spare]
            elif not sides:
                best_any[j], best_stay[j] = 0, 0
            else:  # b of the spare jokers below, the rest above
                (down_any, down_stay), (up_any, up_stay) = sides
                flip = slice(spare, None, -1) if spare else slice(0, 1)
                ua, us = up_any[flip], up_stay[flip]  # up[spare - b] for b = 0 .. spare
                da, ds = down_any[:spare + 1], down_stay[:spare + 1]
                best_any[j] = (da + ua).max(axis=0)
                best_stay[j] = np.maximum(da + us, ds + ua).max(axis=0)
        best_any, best_stay = _settled(best_any), _settled(best_stay)
        jokers = rc.jokers.astype(np.int64)
        return Part(best_any[jokers, grid.cell], best_stay[jokers, grid.cell])

    def others(self) -> dict[str, Part]:
        """``chain_bounds`` for the hand: every row's candidates."""
        return {row: self.others_of(row, self.cands.row(row)) for row in self.chain}
