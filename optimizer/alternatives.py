"""The next-best sets after the optimum, for ``--alternatives``.

Two sets count as the same alternative when their three rows have the same strengths (they
differ only by suits that change nothing). Within one mode (staying or not) CP-SAT finds the
best set, then the best that differs from it, and so on; the candidates are pruned at a floor
below the optimum, and the floor is lowered until enough sets are found or nothing is left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from evaluator.board import Board, BoardReport, evaluate_board
from evaluator.rules import ROWS
from optimizer.candidates import Candidates
from optimizer.bounds import tighten
from optimizer.model import build_model
from optimizer.objective import Objective


@dataclass(frozen=True)
class Alternative:
    value: float
    report: BoardReport

    @property
    def board(self) -> Board:
        return self.report.board


def _board(cands: Candidates, masks: dict[str, int]) -> Board:
    return Board(*(tuple(sorted(cands.cards_of(masks[row]), reverse=True)) for row in ROWS))


def mode_alternatives(cands: Candidates, need_stay: bool, count: int, best_weight: int,
                      objective: Objective, deadline: float) -> list[tuple[float, dict[str, int], tuple[int, int, int]]]:
    """Up to ``count`` best sets of one mode with distinct row strengths, best first."""
    cands = cands if need_stay else cands.without_stays()
    found: list[tuple[float, dict[str, int], tuple[int, int, int]]] = []
    gap, total = max(objective.units, 1) * 4, sum(cands.sizes.values())
    while time.perf_counter() < deadline:
        floor = best_weight - gap
        pruned = tighten(cands, need_stay, floor)
        if all(len(pruned.row(r)) for r in ROWS):
            set_model = build_model(pruned, need_stay, objective, floor)
            for _, _, strengths in found:
                set_model.exclude_strengths(dict(zip(("top", "middle", "bottom"), strengths)))
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            solver.parameters.random_seed = 0
            while len(found) < count and time.perf_counter() < deadline:
                solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.01)
                status = solver.solve(set_model.model)
                if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    break
                masks = {row: int(pruned.row(row).masks[
                    [solver.boolean_value(lit) for lit in set_model.picks[row]].index(True)])
                    for row in ROWS}
                strengths = {row: solver.value(set_model.strength[row]) for row in ROWS}
                weight = int(round(solver.objective_value))
                found.append((objective.points(weight, need_stay), masks,
                              tuple(strengths[r] for r in ("top", "middle", "bottom"))))
                set_model.exclude_strengths(strengths)
        if len(found) >= count or sum(pruned.sizes.values()) == total:
            break
        gap *= 2
    return found[:count]


def alternatives(cands: Candidates, modes: list[tuple[bool, int]], count: int,
                 objective: Objective, deadline: float,
                 chosen: tuple[int, int, int]) -> list[Alternative]:
    """The ``count`` best sets over both modes other than the chosen one (given by its row
    strengths: top, middle, bottom), best first."""
    pooled = []
    for need_stay, best_weight in modes:
        pooled += mode_alternatives(cands, need_stay, count + 1, best_weight, objective,
                                    deadline)
    pooled = [item for item in pooled if item[2] != chosen]
    pooled.sort(key=lambda item: -item[0])  # stable: ties keep the modes' own order
    return [Alternative(points, evaluate_board(_board(cands, masks), cands.rules))
            for points, masks, _ in pooled[:count]]
