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

from fantasyland.optimizer.solver.candidates import Candidates, RowCandidates
from fantasyland.optimizer.solver.part import INF, Part

Pair = tuple[np.ndarray, np.ndarray]  # (any, stay) by budget: (jokers + 1, columns)


def _columns(strength: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of sorted ``strength``, and the column of each entry."""
    new = np.concatenate([[True], strength[1:] != strength[:-1]]) if len(strength) else \
        np.zeros(0, dtype=bool)
    return strength[new], np.cumsum(new) - 1


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
        distinct, cell = _columns(rc.strength)
        any_ = np.full((budget + 1, len(distinct)), -INF, dtype=np.int64)
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
        return _Grid(distinct, cell, any_, stay)


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
        # By (side, row, what): reach, its prefix bests, and the rest beyond each column.
        self._reach: dict[tuple, Pair] = {}
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
        if (side, i, "reach") not in self._reach:
            grid = self.grid(i)
            if self._next(side, i) is None:  # the end row: its cells of b jokers or fewer
                reach = (np.maximum.accumulate(grid.any, axis=0),
                         np.maximum.accumulate(grid.stay, axis=0))
            else:
                rest_any, rest_stay = self.own_rest(side, i)
                reach_any = np.full(grid.any.shape, -INF, dtype=np.int64)
                reach_stay = reach_any.copy()
                for j in range(self.budget + 1):  # own jokers j, b - j at most beyond
                    left = self.budget + 1 - j
                    reach_any[j:] = np.maximum(reach_any[j:], grid.any[j] + rest_any[:left])
                    reach_stay[j:] = np.maximum(reach_stay[j:], np.maximum(
                        grid.stay[j] + rest_any[:left], grid.any[j] + rest_stay[:left]))
                reach = (_settled(reach_any), _settled(reach_stay))
            self._reach[side, i, "reach"] = reach
        return self._reach[side, i, "reach"]

    def _prefix(self, side: str, j: int) -> Pair:
        """``reach(side, j)`` at its best up to each column (below) or from it (above)."""
        if (side, j, "prefix") not in self._reach:
            any_, stay = self.reach(side, j)
            if side == "below":
                any_, stay = (np.maximum.accumulate(any_, axis=1),
                              np.maximum.accumulate(stay, axis=1))
            else:
                any_ = np.maximum.accumulate(any_[:, ::-1], axis=1)[:, ::-1]
                stay = np.maximum.accumulate(stay[:, ::-1], axis=1)[:, ::-1]
            self._reach[side, j, "prefix"] = (any_, stay)
        return self._reach[side, j, "prefix"]

    def own_rest(self, side: str, i: int) -> Pair:
        """``rest`` for row ``i``'s own strengths, computed once."""
        if (side, i, "rest") not in self._reach:
            self._reach[side, i, "rest"] = self.rest(side, i, self.grid(i).strength)
        return self._reach[side, i, "rest"]

    def rest(self, side: str, i: int, query: np.ndarray) -> Pair:
        """The best of the rows beyond row ``i`` on ``side`` that a row-``i`` candidate of
        each ``query`` strength (ascending) can have, by budget: a prefix best over the next
        row's strengths (weaker or equal below, stronger or equal above)."""
        j = self._next(side, i)
        assert j is not None  # asked only of a row with rows beyond it
        strength = self.grid(j).strength
        shape = (self.budget + 1, len(query))
        if not len(strength):
            return np.full(shape, -INF, dtype=np.int64), np.full(shape, -INF, dtype=np.int64)
        any_, stay = self._prefix(side, j)
        if side == "below":
            where = np.searchsorted(strength, query, side="right") - 1
            ok = where >= 0
        else:
            where = np.searchsorted(strength, query, side="left")
            ok = where < len(strength)
        if ok.all():
            return any_[:, where], stay[:, where]
        where = np.clip(where, 0, len(strength) - 1)
        return np.where(ok, any_[:, where], -INF), np.where(ok, stay[:, where], -INF)

    def others_of(self, row: str, rc: RowCandidates) -> Part:
        """The most the other rows can add to each of ``rc``, candidates of ``row`` (its own
        or any others in strength order, as the probes of deferred middles are)."""
        i = self.chain.index(row)
        own = rc is self.cands.row(row)
        strength, cell = (self.grid(i).strength, self.grid(i).cell) if own else \
            _columns(rc.strength)
        sides = [self.own_rest(side, i) if own else self.rest(side, i, strength)
                 for side in ("below", "above") if self._next(side, i) is not None]
        best_any, best_stay = self._together(sides, len(strength))
        jokers = rc.jokers.astype(np.int64)
        return Part(best_any[jokers, cell], best_stay[jokers, cell])

    def others_within(self, row: str, low: np.ndarray, high: np.ndarray, jokers: np.ndarray
                      ) -> Part:
        """For bands of would-be candidates of ``row``, band ``b`` holding strengths from
        ``low[b]`` to ``high[b]`` and ``jokers[b]`` jokers: at least the most the other rows
        can add to any of them (the rows below as for its strongest, the rows above as for
        its weakest)."""
        i = self.chain.index(row)
        sides = [self.rest(side, i, high if side == "below" else low)
                 for side in ("below", "above") if self._next(side, i) is not None]
        best_any, best_stay = self._together(sides, len(low))
        band = np.arange(len(low))
        return Part(best_any[jokers, band], best_stay[jokers, band])

    def _together(self, sides: list[Pair], size: int) -> Pair:
        """The best of the rows on both sides together, for a candidate holding each count
        of jokers (a row per count), the jokers it leaves split every way between them."""
        best_any = np.full((self.budget + 1, size), -INF, dtype=np.int64)
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
        return _settled(best_any), _settled(best_stay)

    def others(self) -> dict[str, Part]:
        """``chain_bounds`` for the hand: every row's candidates."""
        return {row: self.others_of(row, self.cands.row(row)) for row in self.chain}
