"""The next-best sets after the optimum, for ``--alternatives``.

Two sets count as the same alternative when their three rows have the same strengths (they
differ only by suits that change nothing). Within one mode (staying or not) CP-SAT finds the
best value left, then among the sets worth exactly that the one the tie-break rule prefers,
then the best that differs from those found, and so on. The candidates are pruned at a
floor, first the optimum itself, lowered until enough sets are found or nothing is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fantasyland.evaluator.board import Board, BoardReport, evaluate_board, faces_playing
from fantasyland.evaluator.rules import ROWS, Row
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.candidates import Candidates
from fantasyland.optimizer.solver.bounds import INF, chain_bounds, set_bounds, tighten
from fantasyland.optimizer.solver.model import SetModel, build_model
from fantasyland.optimizer.solver.objective import Objective

if TYPE_CHECKING:  # CP-SAT loads where a model is built or solved (cpsat.py)
    from ortools.sat.python import cp_model


@dataclass(frozen=True, repr=False)
class Alternative:
    value: float
    report: BoardReport

    @property
    def board(self) -> Board:
        return self.report.board

    def __repr__(self) -> str:
        return f"<Alternative {self.board.format(ascii=True)}: {self.value:g}>"


@dataclass(frozen=True)
class _Found:
    """One set a solve found, with what orders it among the others."""

    points: float
    masks: dict[str, int]  # each row's cards, as a bitmask over the dealt positions
    strengths: tuple[int, int, int]  # top, middle, bottom, on the high scale
    tiebreak: tuple[int, int, int]  # bottom, middle, top ranks; higher is preferred


def _board(cands: Candidates, tiebreak: tuple[int, int, int]) -> Board:
    """The set whose bottom, middle and top have these tie-break ranks, each row from its
    highest card down (jokers first), its jokers standing for their chosen faces."""
    masks, strengths = cands.chosen(dict(zip(ROWS[::-1], tiebreak)))
    rows = [sorted(cands.cards_of(masks[row]), reverse=True) for row in ROWS]
    return faces_playing(Board(*(tuple(row) for row in rows)), strengths, cands.rules)


def _tiebreak_score(cands: Candidates, set_model: SetModel) -> cp_model.LinearExpr:
    """The tie-break rule as one number to maximize: the bottom's rank first, then the
    middle's, then the top's (dense ranks, so the weights stay small)."""
    cp_model = cpsat.cp_model()
    ranks = {row: np.unique(cands.row(row).tiebreak, return_inverse=True)[1] for row in ROWS}
    scale: dict[str, int] = {Row.TOP: 1, Row.MIDDLE: int(ranks[Row.TOP].max()) + 1}
    scale[Row.BOTTOM] = scale[Row.MIDDLE] * (int(ranks[Row.MIDDLE].max()) + 1)
    return sum(cp_model.LinearExpr.weighted_sum(set_model.picks[row],
                                                (ranks[row] * scale[row]).tolist())
               for row in ROWS)


def _read(solver: cp_model.CpSolver, set_model: SetModel, cands: Candidates,
          points: float) -> _Found:
    picked = {row: [solver.boolean_value(lit) for lit in set_model.picks[row]].index(True)
              for row in ROWS}
    strength = {row: solver.value(set_model.strength[row]) for row in ROWS}
    tiebreak = {row: int(cands.row(row).tiebreak[picked[row]]) for row in ROWS}
    return _Found(points, {row: int(cands.row(row).masks[picked[row]]) for row in ROWS},
                  (strength[Row.TOP], strength[Row.MIDDLE], strength[Row.BOTTOM]),
                  (tiebreak[Row.BOTTOM], tiebreak[Row.MIDDLE], tiebreak[Row.TOP]))


def mode_alternatives(cands: Candidates, need_stay: bool, count: int, best_weight: int,
                      objective: Objective, deadline: float) -> list[_Found]:
    """Up to ``count`` best sets of one mode with distinct row strengths, best first, and
    among sets of equal value in the order of the tie-break rule (docs/solving.md, "Ties")."""
    cp_model = cpsat.cp_model()
    cands = cands if need_stay else cands.without_stays()
    found: list[_Found] = []
    levels = _floor_levels(cands, need_stay)
    floor: int | None = best_weight  # the optimum's ties first, in a small model
    gap = max(objective.units, 1)
    while cpsat.clock() < deadline:
        # With no floor, still drop the candidates that no legal set can hold (bound -INF).
        pruned = tighten(cands, need_stay, int(-INF // 2) if floor is None else floor)
        if all(len(pruned.row(r)) for r in ROWS):
            set_model = build_model(pruned, need_stay, objective, floor=floor)
            for item in found:
                set_model.exclude_strengths(dict(zip(ROWS,
                                                     item.strengths)))
            preference = _tiebreak_score(pruned, set_model)
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            solver.parameters.random_seed = 0
            while len(found) < count and cpsat.clock() < deadline:
                solver.parameters.max_time_in_seconds = max(deadline - cpsat.clock(), 0.01)
                status = solver.solve(set_model.model)
                if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    break
                weight = int(round(solver.objective_value))
                first = _read(solver, set_model, pruned, objective.points(weight, need_stay))
                # Among the sets worth ``weight``, the one the tie-break rule prefers; the set
                # just found is a start, and stands if time runs out.
                tied = set_model.model.clone()
                tied.add(set_model.value == weight)
                tied.maximize(preference)
                for row in ROWS:
                    for literal in set_model.picks[row]:
                        tied.add_hint(literal, solver.boolean_value(literal))
                solver.parameters.max_time_in_seconds = max(deadline - cpsat.clock(), 0.01)
                status = solver.solve(tied)
                chosen = _read(solver, set_model, pruned, first.points) if status in (
                    cp_model.OPTIMAL, cp_model.FEASIBLE) else first
                found.append(chosen)
                set_model.exclude_strengths(dict(zip(ROWS,
                                                     chosen.strengths)))
        if len(found) >= count or floor is None:
            break
        # Down a point at least, past a range where no candidate's chain bound lies, but by at
        # most a gap that doubles each pass: the card-aware bound can admit candidates inside
        # such a range, and one long drop would admit them all at once. Below every bound all
        # candidates are in, and the last pass lifts the floor altogether.
        below = levels[levels < floor]
        step = max(objective.units, 1)
        floor = max(min(int(below[-1]), floor - step), floor - gap) if len(below) else None
        gap *= 2
    return found[:count]


def _floor_levels(cands: Candidates, need_stay: bool) -> np.ndarray:
    """The chain bounds of the mode's candidates, sorted. A candidate is admitted only once
    the floor is at or below its chain bound, so the floor steps toward the next one (the
    sets worth less than the lowest are found once the floor is lifted)."""
    bounds = set_bounds(cands, chain_bounds(cands), need_stay)
    levels = np.unique(np.concatenate([bounds[row] for row in ROWS]))
    return levels[levels > -INF // 2]


def alternatives(cands: Candidates, modes: list[tuple[bool, int]], count: int,
                 objective: Objective, deadline: float,
                 chosen: tuple[int, int, int]) -> list[Alternative]:
    """The ``count`` best sets over both modes other than the chosen one (given by its row
    strengths: top, middle, bottom), best first."""
    pooled: list[_Found] = []
    # The mode with the better optimum first; the other is searched only if its optimum
    # could still make the list (a staying hand often fills it from the staying sets alone).
    by_best = sorted(modes, key=lambda mode: -objective.points(mode[1], mode[0]))
    for need_stay, best_weight in by_best:
        kept = sorted(item.points for item in pooled)[-(count + 1):]
        if len(kept) == count + 1 and kept[0] > objective.points(best_weight, need_stay) + 1e-9:
            continue
        pooled += mode_alternatives(cands, need_stay, count + 1, best_weight, objective,
                                    deadline)
    pooled = [item for item in pooled if item.strengths != chosen]
    # Best first; sets of equal value (to the last few digits, as the two modes add the
    # worth of staying in points) in tie-break order.
    pooled.sort(key=lambda item: (-round(item.points, 9), tuple(-r for r in item.tiebreak)))
    return [Alternative(item.points,
                        evaluate_board(_board(cands, item.tiebreak), rules=cands.rules))
            for item in pooled[:count]]
