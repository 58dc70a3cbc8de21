"""How a mode's optimum is proved, and the proof by CP-SAT.

By default each mode is proved by the fastest route its hand allows (``Proof``): exact
completion when a set is worth its rows' weights summed (royalties); under shared terms
(the ev's scoops) the bounds alone, or every set that could beat the incumbent valued, or
CP-SAT on what the bounds leave. ``ProofMethod.CPSAT`` asks for the model on every hand: the
candidates that survive the bounds above the incumbent's value go into it (``build_model``),
and CP-SAT finds a better set and proves it optimal, or proves that none is (an infeasible
model); then further solves, held to the optimum, find the set the tie-break prefers among
those worth it, row by row. The two routes then check each other
(tests/test_cpsat_agreement.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from fantasyland.evaluator.rules import ROWS, Row, Word
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.bounds import INF, tighten
from fantasyland.optimizer.solver.candidates import Candidates
from fantasyland.optimizer.solver.model import SetModel, build_model
from fantasyland.optimizer.solver.objective import Objective, ObjectiveError
from fantasyland.optimizer.solver.search import Pick, pick_of

if TYPE_CHECKING:  # CP-SAT loads where a model is built or solved (cpsat.py)
    from ortools.sat.python import cp_model


class ProofMethod(Word):
    """How a solve is asked to prove its optimum: ``solve(proof=...)``, ``--proof``."""

    FASTEST = "fastest"  # the fastest route the hand allows (the default)
    CPSAT = "cpsat"  # CP-SAT's model on every hand, the tie-break included


class Proof(Word):
    """What proved an optimum: a mode's ``ModeStats.proof``, and a solve's
    ``Solution.proof`` (``"proof"`` in ``solve --json``)."""

    COMPLETION = "completion"  # every set that could reach it completed exactly
    BOUNDS = "bounds"  # no set could beat the incumbent by the bounds alone
    EVERY_SET_VALUED = "every set valued"  # every set that could beat it valued exactly
    CPSAT = "cpsat"  # CP-SAT's model

    @property
    def cost(self) -> int:
        """Its place from the cheapest proof to the costliest: the order of the members."""
        return list(Proof).index(self)


def costliest(proofs: Iterable[Proof]) -> Proof | None:
    """Of the proofs of a solve's modes, the one that cost the most: the hand's proof."""
    return max(proofs, key=lambda proof: proof.cost, default=None)


def check_method(method: str) -> ProofMethod:
    """``method`` as a ``ProofMethod``; ``ObjectiveError`` naming it if it is none."""
    try:
        return ProofMethod(method)
    except ValueError:
        raise ObjectiveError(f"bad proof {method!r}: expected "
                             + " or ".join(m.value for m in ProofMethod)) from None


class ProofFigures(TypedDict, total=False):
    """What a proof by CP-SAT records of itself: fields of ``mode.ModeStats``."""

    literals: int  # the model's size
    cp_sat_status: str
    proof: Proof
    build_ms: float
    solve_ms: float
    tiebreak_ms: float


def _solver(deadline: float) -> cp_model.CpSolver:
    cp_model = cpsat.cp_model()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine has two cores
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = max(deadline - cpsat.clock(), 0.01)
    return solver


def _chosen(solver: cp_model.CpSolver, set_model: SetModel, cands: Candidates,
            weight: int) -> Pick:
    return pick_of(cands, weight, {row: [solver.boolean_value(lit)
                                         for lit in set_model.picks[row]].index(True)
                                   for row in ROWS})


def prove(cands: Candidates, need_stay: bool, objective: Objective, floor: int | None,
          deadline: float, stats: ProofFigures) -> tuple[Pick | None, bool, int]:
    """Search ``cands`` for the best set worth ``floor`` or more. Returns it (or None),
    whether the search is complete, and the best bound on the mode's value."""
    set_model, solver, status = _solve(cands, need_stay, objective, floor, deadline, stats)
    cp_model = cpsat.cp_model()
    if status == cp_model.INFEASIBLE:
        return None, True, floor - 1 if floor is not None else int(-INF)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False, int(solver.best_objective_bound)
    weight = int(round(solver.objective_value))
    return (_chosen(solver, set_model, cands, weight), status == cp_model.OPTIMAL,
            int(solver.best_objective_bound))


def _solve(cands: Candidates, need_stay: bool, objective: Objective, floor: int | None,
           deadline: float, stats: ProofFigures
           ) -> tuple[SetModel, cp_model.CpSolver, cp_model.CpSolverStatus]:
    """The model of ``cands`` built and solved: the model, its solver and the status."""
    clock = time.perf_counter()
    set_model = build_model(cands, need_stay, objective, floor=floor)
    stats["build_ms"] = (time.perf_counter() - clock) * 1e3
    stats["literals"] = sum(len(p) for p in set_model.picks.values())
    clock = time.perf_counter()
    solver = _solver(deadline)
    status = solver.solve(set_model.model)
    stats["solve_ms"] = (time.perf_counter() - clock) * 1e3
    stats["cp_sat_status"] = solver.status_name(status)
    return set_model, solver, status


def prove_by_model(cands: Candidates, need_stay: bool, objective: Objective,
                   incumbent: Pick | None, deadline: float, stats: ProofFigures
                   ) -> tuple[Pick | None, bool, int]:
    """The best set of ``cands`` proved by CP-SAT, and of the sets worth as much the one the
    tie-break prefers, found by CP-SAT too. ``cands`` must hold every set worth the
    ``incumbent``'s value or more (every legal set, without one). First CP-SAT looks for a
    set that beats the incumbent among the candidates that could (none: a proof that it is
    the optimum); then, held to the optimum, for the tie-break's choice. Returns the set (or
    None: there is none, or the time ran out before one was found), whether it is proved,
    tie-break included, and the best bound on the mode's value."""
    cp_model = cpsat.cp_model()
    stats["proof"] = Proof.CPSAT
    floor = None if incumbent is None else incumbent.value + 1
    above = cands if floor is None else tighten(cands, need_stay, floor)
    best, value = incumbent, None if incumbent is None else incumbent.value
    if all(len(above.row(row)) for row in ROWS):  # else the bounds say that none beats it
        set_model, solver, status = _solve(above, need_stay, objective, floor, deadline, stats)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            value = int(round(solver.objective_value))
            best = _chosen(solver, set_model, above, value)
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):  # the time ran out
            return best, False, int(solver.best_objective_bound)
    if best is None or value is None:
        return None, True, int(-INF)  # no legal set
    clock = time.perf_counter()
    # Held to the optimum, over the candidates that survive the bounds at it, the tie-break
    # row by row: the highest bottom (its place in its tie-break order), held to it the
    # highest middle, then the highest top.
    tied = tighten(cands, need_stay, value)
    # The floor holds the sets to the optimum, as none is worth more: "at least" propagates
    # better than "exactly" (a 14-card hand's tie-break under ev: 1.5 s, then 0.9 s).
    held = build_model(tied, need_stay, objective, floor=value)
    model = held.model
    chosen = {row: best.ranks[row] for row in ROWS}
    for row in TIEBREAK_ORDER:
        rank = tied.row(row).tiebreak
        place = np.argsort(np.argsort(rank, kind="stable"))
        model.maximize(cp_model.LinearExpr.weighted_sum(held.picks[row], place.tolist()))
        model.clear_hints()
        for other in ROWS:  # the best set so far: where the solve starts
            for literal, own in zip(held.picks[other], tied.row(other).tiebreak.tolist()):
                model.add_hint(literal, own == chosen[other])
        tiebreak = _solver(deadline)
        status = tiebreak.solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        chosen = _chosen(tiebreak, held, tied, value).ranks
        if status != cp_model.OPTIMAL:
            break
        model.add(held.picks[row][int(np.flatnonzero(rank == chosen[row])[0])] == 1)
    stats["tiebreak_ms"] = (time.perf_counter() - clock) * 1e3
    # where the bounds alone left no set to beat the incumbent, the model is the tie-break's
    stats.setdefault("literals", sum(len(p) for p in held.picks.values()))
    stats.setdefault("cp_sat_status", tiebreak.status_name(status))
    return (pick_of(tied, value, {row: int(np.flatnonzero(tied.row(row).tiebreak ==
                                                          chosen[row])[0]) for row in ROWS}),
            status == cp_model.OPTIMAL, value)


#: The tie-break's rows, the first it compares first.
TIEBREAK_ORDER = (Row.BOTTOM, Row.MIDDLE, Row.TOP)
