"""The best set of one *mode*: sets that stay in Fantasyland, or sets that do not.

Within a mode the objective is an integer, so the optimum is exact:
1. Bound every candidate (the chain bound, once: it does not depend on any floor) and
   complete the most promising ones exactly (``complete``) for an incumbent.
2. Prove it. When a set's value is the sum of its rows' weights (royalties), complete every
   bottom whose bound reaches the best found, after pruning at its value: that search is
   the proof, and it yields the tie-break's choice too. When the rows share terms (the EV's
   scoops), prune to the candidates that could beat the incumbent and let CP-SAT search what
   is left: an empty remainder is a proof by the bounds alone, an infeasible model a proof
   by CP-SAT, and a better set found by CP-SAT becomes the answer.
3. Among the sets worth the optimum, pick by exact enumeration the one the tie-break rule
   prefers: the strongest bottom, then between equally strong bottoms the one with the
   higher cards (compared from the highest card down, suits s > h > d > c); then the same
   for the middle, then the top.

Asked for CP-SAT on every hand (``ProofMethod.CPSAT``, ``optimizer.solver.proof``), steps 2
and 3 are the model's instead, from a second incumbent (``_second``): the candidates that
survive the bounds above its value go into the model, CP-SAT proves the optimum and then,
held to it, finds the tie-break's choice. Each mode's ``ModeStats.proof`` says which proof
settled it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from fantasyland.evaluator.board import Board, BoardReport, evaluate_board, faces_playing
from fantasyland.evaluator.rules import ROWS, Row
from fantasyland.optimizer.solver.bounds import (INF, chain_bounds, set_bounds, tighten,
                                                  tighten_counted)
from fantasyland.optimizer.solver.complete import (SETTINGS_OF_13, TOP_CELLS, Found, as_pick,
                                                   best_set, every_set, tops_to_try)
from fantasyland.optimizer.solver.joker_bounds import JokerChain
from fantasyland.optimizer.solver.candidates import Candidates, preferred
from fantasyland.optimizer.solver.objective import Objective
from fantasyland.optimizer.solver.proof import (Proof, ProofFigures, ProofMethod, prove,
                                               prove_by_model)
from fantasyland.optimizer.solver.search import Pick, first_in_tiebreak_order, pick_of

TIEBREAK_ROWS = ROWS[::-1]


@dataclass(frozen=True)
class ModeStats:
    """How one mode's search went: its sizes, and its phases in milliseconds. A phase the
    search did not run (CP-SAT, when the bounds or the completion proved the set) is None."""

    candidates: int = 0  # the mode's candidate rows
    kept: int | None = None  # those left after pruning
    deferred: int | None = None  # deferred middles (a hand with jokers), and those built
    brought_back: int | None = None
    prune_rounds: int | None = None
    literals: int | None = None  # the CP-SAT model's size
    cp_sat_status: str | None = None
    proof: Proof | None = None  # what proved the mode's optimum
    searches_as_played: int | None = None  # the parts a hand with jokers was searched in
    bound_ms: float | None = None
    prune_ms: float | None = None
    complete_ms: float | None = None
    build_ms: float | None = None
    solve_ms: float | None = None
    tiebreak_ms: float | None = None


class ModeFigures(ProofFigures, total=False):
    """``ModeStats``'s fields as the search records them, phase by phase (mypy checks them
    against ``ModeStats`` where it is made of them); those of CP-SAT's proof are
    ``ProofFigures``'."""

    candidates: int
    kept: int
    deferred: int
    brought_back: int
    prune_rounds: int
    bound_ms: float
    prune_ms: float
    complete_ms: float


@dataclass(frozen=True, repr=False)
class ModeResult:
    """The best set of one mode, and how it was found."""

    stays: bool
    weight: int  # the objective's integer value, before the worth of staying
    points: float  # the value in points, the worth of staying included
    tiebreak: tuple[int, int, int]  # the rows' tie-break ranks: bottom, middle, top
    proved: bool
    bound: float  # the best bound in points (equal to ``points`` when proved)
    board_report: BoardReport
    stats: ModeStats = field(default_factory=ModeStats)

    @property
    def board(self) -> Board:
        return self.board_report.board

    @property
    def royalties(self) -> int:
        return self.board_report.royalties.total

    def __repr__(self) -> str:
        return (f"<ModeResult {self.board.format(ascii=True)}: worth {self.points:g}, "
                f"{'stays' if self.stays else 'does not stay'}, "
                f"{'proved' if self.proved else f'bound {self.bound:g}'}>")


def board_of(cands: Candidates, ranks: dict[str, int]) -> Board:
    """The set whose rows have the tie-break ``ranks``, each row from its highest position
    down, its jokers standing for the faces its candidate chose."""
    masks, strengths = cands.chosen(ranks)
    dealt = cands.cards
    board = Board(*(tuple(c for i, c in reversed(tuple(enumerate(dealt))) if masks[row] >> i & 1)
                    for row in ROWS))
    return faces_playing(board, strengths, cands.rules)


#: For the incumbent, the candidates of highest bound completed before the first prune:
#: enough for a good set on most hands, and few enough to be quick.
FIRST: dict[str, int] = {Row.BOTTOM: 24, Row.MIDDLE: 384, Row.TOP: 680}


def _most_promising(cands: Candidates, bounds: dict[str, np.ndarray], need_stay: bool
                    ) -> tuple[Candidates, np.ndarray]:
    """The candidates of highest bound in each row (in their order), and the bottoms' bounds."""
    rows, kept = {}, {}
    for row in ROWS:
        bound = bounds[row]
        if len(bound) > FIRST[row]:
            best = np.zeros(len(bound), dtype=bool)
            best[np.argpartition(-bound, FIRST[row] - 1)[:FIRST[row]]] = True
            if need_stay:  # the few staying candidates too, so that a staying set is found
                best |= cands.row(row).stays & (bound > -INF // 2)
            kept[row] = np.flatnonzero(best)
            rows[row] = cands.row(row).take(kept[row])
    if not rows:
        return cands, bounds[Row.BOTTOM]
    return cands.replace(**rows), bounds[Row.BOTTOM][kept[Row.BOTTOM]] if Row.BOTTOM in kept \
        else bounds[Row.BOTTOM]


def _result(cands: Candidates, need_stay: bool, objective: Objective, choice: Pick,
            tiebreak: tuple[int, int, int], proved: bool, bound: int, stats: ModeFigures
            ) -> ModeResult:
    report = evaluate_board(board_of(cands, choice.ranks), rules=cands.rules)
    return ModeResult(need_stay, choice.value, objective.points(choice.value, need_stay),
                      tiebreak, proved, objective.points(max(bound, choice.value), need_stay),
                      report, ModeStats(**stats))


def _parts(cands: Candidates, bounds: dict[str, np.ndarray], need_stay: bool
           ) -> list[tuple[Candidates, dict[str, np.ndarray], bool]]:
    """The mode's sets as parts to search, each with its bounds and whether it must still
    ask for a staying row: the whole, or in the stay mode one part per row that has staying
    candidates, that row held to them (a staying set has a staying row)."""
    if not need_stay:
        return [(cands, bounds, False)]
    return [(cands.replace(**{row: cands.row(row).take(cands.row(row).stays)}),
             {**bounds, row: bounds[row][cands.row(row).stays]}, False)
            for row in ROWS[::-1] if cands.row(row).stays.any()]


def _bring_back(chain: JokerChain, need_stay: bool, objective: Objective,
                found: Found | None, stats: ModeFigures) -> Candidates:
    """The candidates of ``chain`` with the deferred middles that a set worth ``found``'s
    value could use built (all of them if nothing was found). A set is worth no more than
    the bound of any of its rows, so a middle whose bound is below the incumbent's value is
    in no set worth as much."""
    cands = chain.cands
    if found is None:
        return objective.weigh(cands.with_deferred())
    deferred = cands.deferred
    assert deferred is not None  # _solve_separable makes a chain only of deferred middles
    probe = objective.weigh(cands.replace(middle=deferred.probe)).middle
    which = np.zeros(len(probe), dtype=bool)
    # First by bands (a hand class and a count of jokers): most bands cannot reach it.
    bands = deferred.bands
    rest = chain.others_within(Row.MIDDLE, bands.low, bands.high, bands.jokers)
    reach = bands.best(probe.bound) + (rest.stay if need_stay else rest.any) >= found.value
    if reach.any():  # (deferred middles never stay)
        near = np.flatnonzero(reach[bands.band])  # in strength order
        rest = chain.others_of(Row.MIDDLE, probe.take(near))
        bound = probe.bound[near] + (rest.stay if need_stay else rest.any)
        which[probe.tiebreak[near[bound >= found.value]]] = True
    stats["deferred"], stats["brought_back"] = len(which), int(which.sum())
    built = cands.with_deferred(which=which)
    return objective.weigh(built) if which.any() else built


def _solve_separable(cands: Candidates, need_stay: bool, objective: Objective,
                     deadline: float, stats: ModeFigures,
                     *, method: ProofMethod = ProofMethod.FASTEST) -> ModeResult | None:
    """A mode of an objective with no shared terms, by exact completion (``complete``):
    the most promising candidates first for an incumbent, then every candidate that could
    reach it. The chain bound is computed once: it does not depend on the floor, so pruning
    at the incumbent's value is one comparison.

    The stay mode is searched in parts (``_parts``), one per row that has staying
    candidates (there are few); the best over the parts, ties broken by the same rule, is
    the best staying set.

    Deferred middles (``candidates.Deferred``) wait until the incumbent is found: then those
    whose bound reaches its value are built, and the proof goes over them too.
    """
    clock = time.perf_counter()
    chain = JokerChain(cands) if cands.deferred is not None else None
    bounds = set_bounds(cands, chain.others() if chain else chain_bounds(cands), need_stay)
    few, few_bound = _most_promising(cands, bounds, need_stay)
    found, complete, rest = best_set(few, need_stay, None, few_bound, deadline=deadline)
    if chain is not None:
        more = _bring_back(chain, need_stay, objective, found, stats)
        if more.sizes != cands.sizes:
            bounds = set_bounds(more, chain_bounds(more), need_stay)
        cands = more
    stats["bound_ms"] = (time.perf_counter() - clock) * 1e3
    if method is ProofMethod.CPSAT:
        if found is None:  # the most promising rows share cards: an incumbent from them all
            for part, part_bounds, part_stay in _parts(cands, bounds, need_stay):
                found, _, _ = best_set(part, part_stay, None, part_bounds[Row.BOTTOM],
                                       deadline=deadline, found=found)
        incumbent = as_pick(found) if found is not None else None
        if incumbent is not None:  # a second one, as under shared terms (``_second``)
            incumbent = _second(cands, bounds, need_stay, objective, incumbent)
        floor = incumbent.value if incumbent is not None else None
        return _by_model(_survivors(cands, bounds, need_stay, floor), need_stay, objective,
                         incumbent, deadline, stats)
    stats["proof"] = Proof.COMPLETION
    if few is not cands or not complete:
        clock = time.perf_counter()
        complete, rest, kept = True, int(-INF), 0
        for part, part_bounds, part_stay in _parts(cands, bounds, need_stay):
            if found is not None:  # every set through a candidate is worth at most its bound
                keep = {row: part_bounds[row] >= found.value for row in ROWS}
                part = part.replace(**{row: part.row(row).take(keep[row]) for row in ROWS})
                part_bounds = {row: part_bounds[row][keep[row]] for row in ROWS}
            kept += sum(part.sizes.values())
            found, done, left = best_set(part, part_stay, None, part_bounds[Row.BOTTOM],
                                         deadline=deadline, found=found)
            complete, rest = complete and done, max(rest, left)
        stats["kept"] = kept
        stats["complete_ms"] = (time.perf_counter() - clock) * 1e3
    if found is None:
        return None  # the search was complete: no legal set
    return _result(cands, need_stay, objective, as_pick(found), found.key, complete,
                   found.value if complete else rest, stats)


#: (bottom, middle) pairs up to which every set that could beat the incumbent is valued, at
#: the least; and the sets valued at most (about 70 ms of ``shared`` at the most).
EVERY_SET_PAIRS = 1 << 13
VALUED_SETS = 8 * EVERY_SET_PAIRS


def _valued_pairs(cards: int) -> int:
    """The (bottom, middle) pairs up to which every set that could beat the incumbent is
    valued rather than left to CP-SAT: every setting of 13 cards (72,072, valued in tens of
    milliseconds, where CP-SAT's proof can take a second against many shared terms); of
    more, as many as leave ``TOP_CELLS`` (pair, top) cells to look at, ``EVERY_SET_PAIRS``
    at the least (a 14-card pair has 4 tops to try, a 17-card pair 35)."""
    if cards == 13:
        return SETTINGS_OF_13
    return max(EVERY_SET_PAIRS, TOP_CELLS // tops_to_try(cards))


#: Sets up to which the tie-break values every candidate set at once.
TIED_SETS = 1 << 13


def _values_of(cands: Candidates, sets: dict[str, np.ndarray], objective: Objective
               ) -> np.ndarray:
    """The exact value of each of ``sets`` (each row's candidate index over the sets)."""
    weight = sum(cands.row(row).weight[sets[row]] for row in ROWS)
    values = np.stack([cands.row(row).value[sets[row]] for row in ROWS], axis=1)
    distinct, inverse = np.unique(values, axis=0, return_inverse=True)
    shared = objective.shared({row: distinct[:, i] for i, row in enumerate(ROWS)})
    return weight + shared[inverse.ravel()]


def _best_of(cands: Candidates, sets: dict[str, np.ndarray], objective: Objective) -> Pick:
    """The most valuable of ``sets``, valued exactly."""
    total = _values_of(cands, sets, objective)
    k = int(np.argmax(total))
    return pick_of(cands, int(total[k]), {row: sets[row][k] for row in ROWS})


def _heaviest(cands: Candidates, need_stay: bool, objective: Objective) -> Pick | None:
    """The set of most weight (the rows' own terms) among ``cands``, valued exactly: a
    second incumbent, from the candidates that could beat the first, where the first came
    from too few of them to be good (the most promising by bound, not by the rows' terms)."""
    bounds = set_bounds(cands, chain_bounds(cands), need_stay)
    found = None
    for part, part_bounds, part_stay in _parts(cands, bounds, need_stay):
        found, _, _ = best_set(part, part_stay, None, part_bounds[Row.BOTTOM], found=found)
    if found is None:
        return None
    pick = as_pick(found)
    return Pick(objective.exact(cands, pick.ranks), pick.ranks, pick.masks)


def _preferred_at(cands: Candidates, value: int, need_stay: bool, objective: Objective
                  ) -> Pick | None:
    """The set worth ``value`` that the tie-break prefers, when ``cands`` holds every set
    worth that much and none worth more: all sets whose bounds reach it, valued exactly
    (``first_in_tiebreak_order`` one bottom at a time when they are too many)."""
    sets = every_set(cands, need_stay, value, EVERY_SET_PAIRS, max_sets=TIED_SETS)
    if sets is None:
        return first_in_tiebreak_order(cands, value, need_stay, objective)
    hits = np.flatnonzero(_values_of(cands, sets, objective) == value) if len(
        sets[Row.TOP]) else np.zeros(0, dtype=np.int64)
    if len(hits) == 0:
        return None
    k = hits[preferred(*(cands.row(row).tiebreak[sets[row][hits]] for row in TIEBREAK_ROWS))]
    return pick_of(cands, value, {row: sets[row][k] for row in ROWS})


def _survivors(cands: Candidates, bounds: dict[str, np.ndarray], need_stay: bool,
               floor: int | None) -> Candidates:
    """The candidates that survive the bounds at ``floor``: every set worth as much is made
    of them. Without a floor, those in some legal set by the chain bound (a candidate with
    none has an infinitely low bound)."""
    if floor is None:
        return cands.replace(**{row: cands.row(row).take(bounds[row] > -INF // 2)
                                for row in ROWS})
    # every set through a candidate is worth at most its bound
    kept = cands.replace(**{row: cands.row(row).take(bounds[row] >= floor) for row in ROWS})
    return tighten(kept, need_stay, floor)


def _second(cands: Candidates, bounds: dict[str, np.ndarray], need_stay: bool,
            objective: Objective, first: Pick) -> Pick:
    """The incumbent the model starts from under ``--proof cpsat``: the heaviest set (by
    the rows' own terms, valued exactly) of the candidates that could beat ``first``, if it
    does beat it, else ``first``. Under royalties it is the optimum itself, found by the
    completion, and CP-SAT's part is to prove that no set beats it, and the tie-break."""
    beats = _survivors(cands, bounds, need_stay, first.value + 1)
    if not all(len(beats.row(row)) for row in ROWS):
        return first
    better = _heaviest(beats, need_stay, objective)
    return better if better is not None and better.value > first.value else first


def _by_model(cands: Candidates, need_stay: bool, objective: Objective,
              incumbent: Pick | None, deadline: float, stats: ModeFigures) -> ModeResult | None:
    """The mode's best set, tie-break included, proved by CP-SAT over ``cands``, which hold
    every set worth the ``incumbent``'s value or more. Without an incumbent the completion
    has found no legal set, and CP-SAT proves that over every candidate in one."""
    stats["kept"] = sum(cands.sizes.values())
    stats["proof"] = Proof.CPSAT
    if not all(len(cands.row(row)) for row in ROWS):
        return None  # only without an incumbent, whose rows are kept
    pick, proved, bound = prove_by_model(cands, need_stay, objective, incumbent, deadline,
                                         stats)
    if pick is None:
        return None  # no legal set, proved (or the time ran out first: the completion's word)
    tiebreak = (pick.ranks[Row.BOTTOM], pick.ranks[Row.MIDDLE], pick.ranks[Row.TOP])
    return _result(cands, need_stay, objective, pick, tiebreak, proved, bound, stats)


def solve_mode(cands: Candidates, need_stay: bool, objective: Objective,
               deadline: float, *, method: ProofMethod = ProofMethod.FASTEST
               ) -> ModeResult | None:
    """The best set of one mode, or None if the mode has no legal set; proved by the fastest
    route, or by CP-SAT on every hand (``method``: ``optimizer.solver.proof``)."""
    stats: ModeFigures = {}
    clock = time.perf_counter()
    if not need_stay:
        cands = cands.without_stays()
    elif not any(cands.row(r).stays.any() for r in ROWS):
        return None
    stats["candidates"] = sum(cands.sizes.values())
    if objective.separable:
        return _solve_separable(cands, need_stay, objective, deadline, stats, method=method)
    cands = objective.weigh(cands.with_deferred()) if cands.deferred is not None else cands
    others = chain_bounds(cands)  # computed once: bounds do not depend on the floor
    bounds = set_bounds(cands, others, need_stay)
    # The incumbent: the set of most weight (the rows' own terms), valued exactly.
    few, few_bound = _most_promising(cands, bounds, need_stay)
    found, _, _ = best_set(few, need_stay, None, few_bound)
    if found is None:  # the best rows share cards, or the mode has no legal set at all
        for part, part_bounds, part_stay in _parts(cands, bounds, need_stay):
            found, _, _ = best_set(part, part_stay, None, part_bounds[Row.BOTTOM], found=found)
        if found is None and method is ProofMethod.CPSAT:  # CP-SAT to prove it too
            return _by_model(_survivors(cands, bounds, need_stay, None), need_stay, objective,
                             None, deadline, stats)
        if found is None:
            return None
    found_pick = as_pick(found)
    pick = Pick(objective.exact(cands, found_pick.ranks), found_pick.ranks, found_pick.masks)
    stats["bound_ms"] = (time.perf_counter() - clock) * 1e3
    clock = time.perf_counter()
    start = pick.value
    # Every set worth the incumbent or more (what the tie-break needs if it is the optimum),
    # then, from those, the sets that beat it.
    keep = {row: bounds[row] >= start for row in ROWS}  # the chain bound, at no cost
    at_pick = cands.replace(**{row: cands.row(row).take(keep[row]) for row in ROWS})
    if method is ProofMethod.CPSAT:  # what survives the bounds at the incumbent's value
        pick = _second(cands, bounds, need_stay, objective, pick)
        survivors = _survivors(cands, bounds, need_stay, pick.value)
        stats["prune_ms"] = (time.perf_counter() - clock) * 1e3
        return _by_model(survivors, need_stay, objective, pick, deadline, stats)
    above, stats["prune_rounds"] = tighten_counted(at_pick, need_stay, start + 1)
    left = above
    # When few sets could beat it, value them all exactly: the best becomes the incumbent,
    # and what is left for CP-SAT to search shrinks to a proof.
    cards = len(cands.cards)
    sets = every_set(above, need_stay, start + 1, _valued_pairs(cards),
                     max_sets=None if cards == 13 else VALUED_SETS)
    best: Pick | None
    if sets is not None and len(sets[Row.TOP]):
        best = _best_of(above, sets, objective)
    else:  # too many to value one by one: the heaviest of them, valued exactly
        best = _heaviest(above, need_stay, objective) if sets is None else None
    if best is not None and best.value > start:
        pick = best
        left = tighten(above, need_stay, pick.value + 1)
    stats["prune_ms"] = (time.perf_counter() - clock) * 1e3
    stats["kept"] = sum(left.sizes.values())
    floor = pick.value + 1
    proved, bound = True, pick.value
    if sets is not None:  # every set that could beat the incumbent was valued: a proof
        stats["proof"] = Proof.EVERY_SET_VALUED
    elif all(len(left.row(r)) for r in ROWS):
        stats["proof"] = Proof.CPSAT
        better, proved, bound = prove(left, need_stay, objective, floor, deadline, stats)
        if better is not None:
            pick = better
    else:  # no set survives the bounds above the incumbent
        stats["proof"] = Proof.BOUNDS
    value = pick.value
    clock = time.perf_counter()
    tied = at_pick if value == start else tighten(above, need_stay, value)
    choice = _preferred_at(tied, value, need_stay, objective) or pick
    stats["tiebreak_ms"] = (time.perf_counter() - clock) * 1e3
    tiebreak = (choice.ranks[Row.BOTTOM], choice.ranks[Row.MIDDLE], choice.ranks[Row.TOP])
    report = evaluate_board(board_of(cands, choice.ranks), rules=cands.rules)
    return ModeResult(need_stay, value, objective.points(value, need_stay), tiebreak, proved,
                      objective.points(max(bound, value), need_stay), report,
                      ModeStats(**stats))
