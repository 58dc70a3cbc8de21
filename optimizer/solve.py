"""``solve``: the best Fantasyland set for a dealt hand, proved optimal by CP-SAT.

The search runs in two *modes*: sets that stay in Fantasyland and sets that do not. Each mode
has an integer objective (the rows' weights), so CP-SAT proves each exactly; the worth of
staying is then added in points and the better mode wins. This also yields the decision a
progressive-Pineapple player faces: the best set that stays against the best that does not.

Equal values are broken by a fixed rule: the strongest bottom, then between equally strong
bottoms the one whose cards are higher (compared from the highest card down, suits
s > h > d > c), then the same for the middle, then the top.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from evaluator.board import Board, BoardReport, Royalties, evaluate_board, row_strengths
from evaluator.cards import Card, CardError, parse_cards
from evaluator.rules import ROW_SIZE, ROWS, Rules, find_rules
from optimizer.bounds import INF, chain_bounds, set_bounds, tighten
from optimizer.candidates import Candidates, enumerate_candidates, subsets
from optimizer.model import build_model
from optimizer.objective import Royalties as RoyaltiesObjective
from optimizer.objective import ObjectiveError, make_objective
from optimizer.alternatives import Alternative
from optimizer.alternatives import alternatives as find_alternatives
from optimizer.search import Pick, first_in_tiebreak_order, incumbent

MIN_CARDS, MAX_CARDS = 13, 17


@dataclass(frozen=True)
class ModeResult:
    """The best set of one mode (staying or not), as row masks over the dealt positions."""

    stays: bool
    weight: int  # integer objective value, before the worth of staying
    points: float  # the value in points, the worth of staying included
    masks: dict[str, int]
    tiebreak: tuple[int, int, int]
    proved: bool
    bound: float  # best bound in points (equals ``points`` when proved)
    stats: dict[str, float | int]
    board: Board

    @property
    def royalties(self) -> int:
        return self.board_report.royalties.total

    @property
    def board_report(self) -> BoardReport:
        return self._report

    def with_report(self, rules: Rules) -> ModeResult:
        object.__setattr__(self, "_report", evaluate_board(self.board, rules))
        return self


@dataclass(frozen=True)
class Solution:
    """The chosen set for a dealt hand, and how it was found."""

    cards: tuple[Card, ...]
    rules: Rules
    objective: str
    fl_value: float
    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    discards: tuple[Card, ...]
    report: BoardReport
    value: float
    status: str  # "optimal" (proved), "feasible" (time limit hit), or "fouled" (no legal set)
    bound: float  # the best proved bound on the value
    best_staying: ModeResult | None = None
    best_not_staying: ModeResult | None = None
    alternatives: tuple[Alternative, ...] = ()
    stats: dict[str, object] = field(default_factory=dict)

    @property
    def board(self) -> Board:
        return self.report.board

    @property
    def royalties(self) -> Royalties:
        return self.report.royalties

    @property
    def stays(self) -> bool:
        return self.report.stays

    @property
    def stay_rows(self) -> tuple[str, ...]:
        return self.report.stay_rows

    @property
    def fouled(self) -> bool:
        return self.report.fouled

    @property
    def fantasyland_cards_next(self) -> int | None:
        """Cards dealt on the repeat, or None when the set does not stay."""
        return self.rules.repeat_cards_after(len(self.cards)) if self.stays else None

    @property
    def usual_count(self) -> bool:
        """Whether the variant ever deals this many cards in Fantasyland."""
        return len(self.cards) in self.rules.dealt_counts


def _dealt(cards: str | Sequence[Card]) -> tuple[Card, ...]:
    if isinstance(cards, str):
        dealt = parse_cards(cards)
    else:
        dealt = tuple(int(c) for c in cards)
        for card in dealt:
            if not 0 <= card < 52:
                raise CardError(f"bad card id {card!r}: expected 0..51")
        if len(set(dealt)) != len(dealt):
            raise CardError("duplicate card in the dealt hand: each card can be dealt once")
    if not MIN_CARDS <= len(dealt) <= MAX_CARDS:
        raise CardError(f"got {len(dealt)} cards: a Fantasyland hand has "
                        f"{MIN_CARDS} to {MAX_CARDS}")
    return tuple(sorted(dealt))  # canonical order: the answer cannot depend on input order


def _solve_mode(cands: Candidates, need_stay: bool, objective: RoyaltiesObjective,
                deadline: float) -> ModeResult | None:
    """The best set of one mode, or None if the mode has no legal set.

    1. Bound every candidate and complete the most promising ones for an incumbent.
    2. Prove it: prune to candidates that could beat it, and let CP-SAT search what is left.
       An empty remainder is a proof by the bounds alone; an infeasible model is a proof by
       CP-SAT; a better set found by CP-SAT becomes the incumbent.
    3. Among the sets worth the optimum, pick the tie-break's choice by exact enumeration.
    """
    stats: dict[str, float | int] = {}
    clock = time.perf_counter()
    if not need_stay:
        cands = cands.without_stays()
    elif not any(cands.row(r).stays.any() for r in ROWS):
        return None
    stats["candidates"] = sum(cands.sizes.values())
    bounds = set_bounds(cands, chain_bounds(cands), need_stay)
    pick, tried, searched = incumbent(cands, bounds, need_stay)
    stats["completed"] = tried
    stats["bound_ms"] = (time.perf_counter() - clock) * 1e3
    if pick is None and searched:
        return None
    clock = time.perf_counter()
    floor = pick.value + 1 if pick is not None else None
    better = tighten(cands, need_stay, floor, stats) if floor is not None else cands
    stats["prune_ms"] = (time.perf_counter() - clock) * 1e3
    stats["kept"] = sum(better.sizes.values())
    proved, bound_weight = True, pick.value if pick is not None else None
    if all(len(better.row(r)) for r in ROWS):
        found, proved, bound_weight = _prove(better, need_stay, floor, deadline, stats)
        if found is not None:
            pick = found
        elif pick is None:
            return None
    value = pick.value
    clock = time.perf_counter()
    tied = tighten(cands, need_stay, value)
    choice = first_in_tiebreak_order(tied, value, need_stay) or pick
    stats["tiebreak_ms"] = (time.perf_counter() - clock) * 1e3
    tiebreak = tuple(int(_row_tiebreak(cands, row, choice.masks[row]))
                     for row in ("bottom", "middle", "top"))
    bound_points = objective.points(max(bound_weight, value), need_stay)
    return ModeResult(need_stay, value, objective.points(value, need_stay), choice.masks,
                      tiebreak, proved, bound_points, stats,
                      _board_of(cands.cards, choice.masks)).with_report(cands.rules)


def _board_of(dealt: tuple[Card, ...], masks: dict[str, int]) -> Board:
    """The rows named by masks over the dealt positions, each from its highest card down."""
    return Board(*(tuple(c for i, c in reversed(tuple(enumerate(dealt))) if masks[row] >> i & 1)
                   for row in ROWS))


def _row_tiebreak(cands: Candidates, row: str, mask: int) -> int:
    rc = cands.row(row)
    return int(rc.tiebreak[np.flatnonzero(rc.masks == mask)[0]])


def _prove(cands: Candidates, need_stay: bool, floor: int | None, deadline: float,
           stats: dict) -> tuple[Pick | None, bool, int]:
    """Search ``cands`` for a set worth ``floor`` or more; return it (or None), whether the
    search is complete, and the best bound on the mode's weight."""
    clock = time.perf_counter()
    set_model = build_model(cands, need_stay, floor)
    stats["build_ms"] = (time.perf_counter() - clock) * 1e3
    stats["literals"] = sum(len(p) for p in set_model.picks.values())
    clock = time.perf_counter()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine has two cores
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.01)
    status = solver.solve(set_model.model)
    stats["solve_ms"] = (time.perf_counter() - clock) * 1e3
    stats["cp_sat_status"] = solver.status_name(status)
    if status == cp_model.INFEASIBLE:
        return None, True, floor - 1 if floor is not None else int(-INF)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False, int(solver.best_objective_bound)
    masks = {row: int(cands.row(row).masks[[solver.boolean_value(lit)
                                             for lit in set_model.picks[row]].index(True)])
             for row in ROWS}
    weight = int(round(solver.objective_value))
    return Pick(weight, masks), status == cp_model.OPTIMAL, int(solver.best_objective_bound)


def _fouled_board(dealt: tuple[Card, ...]) -> Board:
    """When no legal set exists: the strongest rows from the bottom up (which still foul)."""
    left = list(dealt)
    rows = {}
    for row in ("bottom", "middle", "top"):
        hands = np.array(left)[subsets(len(left), ROW_SIZE[row])]
        best = hands[np.argmax(row_strengths(hands))]
        rows[row] = tuple(sorted((int(c) for c in best), reverse=True))
        left = [c for c in left if c not in rows[row]]
    return Board(rows["top"], rows["middle"], rows["bottom"])


def solve(cards: str | Sequence[Card], variant: str | Rules = "pineapple",
          objective: str = "royalties", fl_value: float | None = None,
          time_limit: float = 10.0, alternatives: int = 0) -> Solution:
    """The best set for ``cards`` (13 to 17) under ``variant``; see the module docstring.

    ``fl_value`` is the worth of staying in Fantasyland in points; by default the variant's
    ``repeat_value``. ``alternatives`` asks for that many next-best distinct sets.
    Raises ``CardError`` for bad cards, ``RulesError`` for an unknown variant, and
    ``ObjectiveError`` for a bad objective, fl_value, time limit or alternatives count.
    """
    started = time.perf_counter()
    dealt = _dealt(cards)
    rules = find_rules(variant)
    goal = make_objective(objective, rules.repeat_value if fl_value is None else fl_value)
    if not time_limit > 0:
        raise ObjectiveError(f"bad time limit {time_limit!r}: expected seconds > 0")
    if not 0 <= alternatives <= 50:
        raise ObjectiveError(f"bad alternatives count {alternatives!r}: expected 0 to 50")
    deadline = started + time_limit
    clock = time.perf_counter()
    cands = goal.weigh(enumerate_candidates(dealt, rules))
    stats: dict[str, object] = {"enumerate_ms": (time.perf_counter() - clock) * 1e3,
                                "candidates": {r: len(cands.row(r)) for r in ROWS}}
    # Both modes are solved in full: the player wants to see the best of each.
    not_staying = _solve_mode(cands, False, goal, deadline)
    staying = _solve_mode(cands, True, goal, deadline)
    results = [r for r in (not_staying, staying) if r is not None]
    for result in results:
        stats["stay" if result.stays else "no_stay"] = result.stats
    if not results:
        board = _fouled_board(dealt)
        stats["total_ms"] = (time.perf_counter() - started) * 1e3
        return Solution(dealt, rules, goal.name, goal.fl_value, board.top, board.middle,
                        board.bottom, _discards(dealt, board), evaluate_board(board, rules),
                        0.0, "fouled", 0.0, stats=stats)
    best = max(results, key=lambda r: (r.points, r.tiebreak))
    stats["solve_ms"] = (time.perf_counter() - started) * 1e3
    others: tuple[Alternative, ...] = ()
    if alternatives:
        chosen = tuple(best.board_report.row(r).strength for r in ROWS)
        others = tuple(find_alternatives(cands, [(r.stays, r.weight) for r in results],
                                         alternatives, goal, deadline, chosen))
    stats["total_ms"] = (time.perf_counter() - started) * 1e3
    proved = all(r.proved for r in results)
    board = best.board
    return Solution(dealt, rules, goal.name, goal.fl_value, board.top, board.middle,
                    board.bottom, _discards(dealt, board), best.board_report, best.points,
                    "optimal" if proved else "feasible", max(r.bound for r in results),
                    staying, not_staying, others, stats)


def _discards(dealt: tuple[Card, ...], board: Board) -> tuple[Card, ...]:
    used = set(board.cards)
    return tuple(c for c in sorted(dealt, reverse=True) if c not in used)
