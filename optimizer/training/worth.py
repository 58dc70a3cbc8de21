"""The worth of Fantasyland, by simulating optimal play for every hand size a variant deals.

For each size ``n``, ``samples`` seeded random hands are solved. ``solve`` returns the best set
that stays and the best that does not, each found without regard to the worth of staying,
so one solve gives a hand's optimal play for *every* worth of staying ``F``: with ``a`` the
value of the best set that does not stay and ``b`` that of the best set that stays (values
in the objective, without ``F``), optimal play is worth ``max(a, b + F)``.

The worth of an entry with ``n`` cards, ``W(n)``, is the expected objective points of that
Fantasyland hand and of every repeat it earns::

    W(n) = E_n + P_n * W(r(n)),  with E_n, P_n the mean value and stay rate when F = W(r(n))

where ``r(n)`` is the repeat size (``Rules.repeat_cards_after``). Where ``r(n) = n`` (every
repeat size, and every size when a repeat deals "same") this is a fixed point
``W = mean max(a, b + W)``, found exactly by Newton's method, which here is
``W <- E(W) / (1 - P(W))``. ``W`` is measured from zero: it does not subtract what a normal,
non-Fantasyland hand would have earned instead (no model of those hands here).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.solver.dealing import seeded_hand
from fantasyland.optimizer.solver.objective import check_objective
from fantasyland.optimizer.solver.solve import ModeResult, Solution, solve
from fantasyland.optimizer.solver.table import Sample, TableSpec

DEFAULT_SAMPLES = 500
BOOTSTRAP = 200  # resamples behind the standard error of W


@dataclass(frozen=True)
class Outcomes:
    """Optimal play of ``len(best)`` hands of one size, for any worth of staying."""

    cards: int
    best: np.ndarray  # value of the best set that does not stay (-inf: every legal set stays)
    best_staying: np.ndarray  # value of the best set that stays, without F (-inf: none)
    royalties: np.ndarray  # royalties of those two sets, shape (hands, 2)
    stay_on_tie: np.ndarray  # whether solve's tie-break prefers the staying set

    def choose(self, fl_value: float) -> np.ndarray:
        """Whether optimal play stays, hand by hand, when staying is worth ``fl_value``."""
        stay = self.best_staying + fl_value
        return (stay > self.best) | ((stay == self.best) & self.stay_on_tie)

    def play(self, fl_value: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per hand: the chosen set's value (without ``fl_value``), royalties, and stay."""
        stays = self.choose(fl_value)
        value = np.where(stays, self.best_staying, self.best)
        return value, self.royalties[np.arange(len(stays)), stays.astype(int)], stays

    def take(self, index: np.ndarray) -> Outcomes:
        return Outcomes(self.cards, self.best[index], self.best_staying[index],
                        self.royalties[index], self.stay_on_tie[index])


def _own_value(mode: ModeResult, fl_value: float) -> float:
    return mode.points - (fl_value if mode.stays else 0.0)


def outcome_of(solution: Solution) -> tuple[float, float, int, int, bool]:
    """(a, b, royalties of a, royalties of b, tie goes to staying) for one solved hand."""
    keep, stay = solution.best_not_staying, solution.best_staying
    if keep is None and stay is None:  # every set fouls
        return solution.value, -math.inf, 0, 0, False
    a = _own_value(keep, solution.fl_value) if keep is not None else -math.inf
    b = _own_value(stay, solution.fl_value) if stay is not None else -math.inf
    tie = keep is None or (stay is not None and stay.tiebreak > keep.tiebreak)
    return (a, b, keep.royalties if keep is not None else 0,
            stay.royalties if stay is not None else 0, tie)


def _solve_hands(task: tuple) -> list[tuple]:
    """Solve hands ``start..stop-1`` of one size (a unit of work for a process pool)."""
    rules, objective, cards, start, stop, seed, opponents = task
    results = []
    for i in range(start, stop):
        hand = seeded_hand(seed, cards, i, deck=rules.deck)
        solution = solve(hand, variant=rules, objective=objective, time_limit=60.0,
                         sample=Sample(table=TableSpec(opponents=opponents),
                                       seed=seed * 100_003 + i))
        results.append(outcome_of(solution))
    return results


def simulate(variant: str | Rules, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
             objective: str = "royalties", opponents: int = 1,
             sizes: Sequence[int] | None = None, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> dict[int, Outcomes]:
    """Solve ``samples`` seeded hands of every size the variant deals (or ``sizes``).

    Hand ``i`` of ``n`` cards is the same for a seed however the work is split, so ``jobs``
    processes give the same numbers as one. ``progress`` is called with hands just solved.
    """
    rules = find_rules(variant)
    check_objective(rules, objective)
    if samples < 2:
        raise ValueError(f"bad samples {samples!r}: expected 2 or more hands per size")
    sizes = tuple(sizes or rules.dealt_counts)
    step = max(1, min(25, samples // 4))
    tasks = [(rules, objective, n, start, min(start + step, samples), seed, opponents)
             for n in sizes for start in range(0, samples, step)]
    rows: dict[int, list[tuple]] = {n: [] for n in sizes}
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for task, results in zip(tasks, pool.map(_solve_hands, tasks)):
                rows[task[2]] += results
                if progress:
                    progress(len(results))
    else:
        for task in tasks:
            results = _solve_hands(task)
            rows[task[2]] += results
            if progress:
                progress(len(results))
    out = {}
    for n, results in rows.items():
        a, b, ra, rb, tie = (np.array(column) for column in zip(*results))
        out[n] = Outcomes(n, a.astype(float), b.astype(float), np.stack([ra, rb], axis=1),
                          tie.astype(bool))
    return out


class InfiniteWorth(InputError):
    """Staying is certain, so Fantasyland never ends and has no finite worth: the rules
    given (or too few hands simulated under them) leave nothing to value."""


def fixed_point(outcomes: Outcomes) -> float:
    """The ``W`` with ``W = mean max(a, b + W)``: the worth of a run of repeats."""
    worth = 0.0
    for _ in range(1000):
        value, _, stays = outcomes.play(worth)
        rate = stays.mean()
        if rate >= 1:
            raise InfiniteWorth(f"every simulated {outcomes.cards}-card hand can stay: "
                                "the worth of Fantasyland has no finite value")
        new = float(value.mean() / (1 - rate))
        if abs(new - worth) <= 1e-12 * max(1.0, abs(new)):
            return new
        worth = new
    return worth


def worths(outcomes: dict[int, Outcomes], rules: Rules) -> dict[int, float]:
    """``W(n)`` for every simulated size (see the module docstring)."""
    result = {}
    for n, hands in outcomes.items():
        if rules.repeat_cards_after(n) == n:
            result[n] = fixed_point(hands)
    for n, hands in outcomes.items():
        if n not in result:
            repeat = rules.repeat_cards_after(n)
            if repeat not in result:
                raise ValueError(f"{n}-card hands repeat with {repeat} cards, which were not "
                                 "simulated")
            value, _, stays = hands.play(result[repeat])
            result[n] = float(value.mean() + stays.mean() * result[repeat])
    return result


@dataclass(frozen=True)
class SizeRow:
    """One row of the table: optimal play of ``cards``-card hands, with standard errors."""

    cards: int
    hands: int
    fl_value: float  # the worth of staying that optimal play used: W(repeat size)
    royalties: float
    royalties_se: float
    value: float  # mean objective value of the hand itself (no repeat)
    value_se: float
    stay_rate: float
    stay_rate_se: float
    stay_rate_at_f0: float  # stay rate when staying is worth nothing
    stay_possible: float  # share of hands with any legal set that stays
    worth: float  # W(cards)
    worth_se: float


@dataclass(frozen=True)
class WorthTable:
    rules: Rules
    objective: str
    samples: int
    seed: int
    opponents: int
    rows: tuple[SizeRow, ...]

    def row(self, cards: int) -> SizeRow:
        return next(r for r in self.rows if r.cards == cards)

    @property
    def repeat_value(self) -> float:
        """The worth of staying to give ``solve`` (``--fl-value``): W of the repeat size.

        Where the repeat size depends on the hand (``"same"``), that of the smallest size.
        """
        smallest = min(r.cards for r in self.rows)
        return self.row(self.rules.repeat_cards_after(smallest)).worth

    def entries(self) -> list[tuple[str, int, float]]:
        """(requirement, cards, W) for every entry rung, such as ("QQ+ top", 14, 21.3)."""
        found = {r.cards for r in self.rows}
        return [(" and ".join(f"{req.spec}+ {req.row}" for req in rung.requires), rung.cards,
                 self.row(rung.cards).worth) for rung in self.rules.entry
                if rung.cards in found]


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def worth_table(outcomes: dict[int, Outcomes], rules: Rules, *, objective: str = "royalties",
                seed: int = 0, opponents: int = 1) -> WorthTable:
    """The table ``fantasyland value`` prints, with bootstrap standard errors for ``W``."""
    w = worths(outcomes, rules)
    rng = np.random.default_rng(seed)
    boot = []
    for _ in range(BOOTSTRAP):
        resampled = {n: o.take(rng.integers(0, len(o.best), len(o.best)))
                     for n, o in outcomes.items()}
        try:
            boot.append(worths(resampled, rules))
        except InfiniteWorth:
            continue
    rows = []
    for n, hands in sorted(outcomes.items()):
        fl = w[rules.repeat_cards_after(n)]
        value, royalties, stays = hands.play(fl)
        _, _, greedy = hands.play(0.0)
        rows.append(SizeRow(
            n, len(value), fl, float(royalties.mean()), _se(royalties.astype(float)),
            float(value.mean()), _se(value), float(stays.mean()), _se(stays.astype(float)),
            float(greedy.mean()), float(np.isfinite(hands.best_staying).mean()), w[n],
            float(np.std([b[n] for b in boot], ddof=1)) if len(boot) > 1 else 0.0))
    samples = min(len(o.best) for o in outcomes.values())
    return WorthTable(rules, objective, samples, seed, opponents, tuple(rows))
