"""The two proofs of the optimum on the same hands (``bench --proof cpsat``).

Each hand is solved twice in this process, by CP-SAT's model on every hand and by the fastest
proof (which goes first alternates, so that a change in the machine's load falls on both
alike), each call timed on its own. The results must be the same set, value and tie-break
alike; the count of hands where they are not is reported, as is which proof the fastest
route took on each hand (``Proof``): the shares docs/solving.md gives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.batch.against import Group
from fantasyland.optimizer.batch.benchmark import Timings
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.proof import Proof, ProofMethod
from fantasyland.optimizer.solver.solve import Solution, solve


@dataclass(frozen=True)
class ProofComparison:
    """One group of hands solved by both proofs: their times, the hands whose results
    differ, and how many hands each proof settled on the fastest route."""

    group: Group
    model: Timings  # CP-SAT on every hand
    fastest: Timings
    differ: int
    settled: dict[Proof, int]

    @property
    def ratio(self) -> dict[str, float]:
        """How many times longer the model takes: its figure over the fastest proof's."""
        fast = self.fastest.figures()
        return {key: value / max(fast[key], 1e-9) for key, value in self.model.figures().items()}

    @property
    def shares(self) -> dict[Proof, float]:
        """The share of the group's hands each proof settled on the fastest route."""
        return {proof: self.settled.get(proof, 0) / len(self.group.hands) for proof in Proof}

    @property
    def slowest(self) -> tuple[tuple[int, ...], float, float]:
        """The hand the model took longest on: its cards, then its milliseconds by the model
        and by the fastest proof."""
        i = int(np.argmax(self.model.ms))
        return self.group.hands[i], float(self.model.ms[i]), float(self.fastest.ms[i])


def _result(solution: Solution) -> tuple:
    """What both proofs must agree on: the set, its value and status, both modes' best."""
    def mode(result) -> tuple | None:
        return None if result is None else (round(result.points, 9), result.board)

    return (tuple(solution.board.row(row) for row in ROWS), solution.discards,
            round(solution.value, 9), solution.status, mode(solution.best_staying),
            mode(solution.best_not_staying))


def compare_proofs(group_list: list[Group],
                   *, progress: Callable[[Group, int], None] | None = None
                   ) -> list[ProofComparison]:
    """Solve every group's hands by both proofs, in turn hand by hand. CP-SAT is loaded
    before the clocks start: its import is the process's, not a hand's."""
    cpsat.cp_model()
    found = []
    for group in group_list:
        options = group.solve_options()
        for method in ProofMethod:  # warm the caches first
            solve(list(group.hands[0]), proof=method, **options)
        times: dict[ProofMethod, list[float]] = {method: [] for method in ProofMethod}
        settled: dict[Proof, int] = {}
        differ = 0
        for i, hand in enumerate(group.hands):
            results = {}
            order = list(ProofMethod) if i % 2 == 0 else list(ProofMethod)[::-1]
            for method in order:
                start = time.perf_counter()
                solution = solve(list(hand), time_limit=60.0, proof=method, **options)
                times[method].append((time.perf_counter() - start) * 1e3)
                if not solution.status.proved:
                    raise RuntimeError(f"hand {list(hand)} was not proved optimal by "
                                       f"{method}: {solution.status}")
                results[method] = solution
            fastest = results[ProofMethod.FASTEST]
            settled[fastest.proof] = settled.get(fastest.proof, 0) + 1
            differ += _result(results[ProofMethod.CPSAT]) != _result(fastest)
            if progress:
                progress(group, i + 1)
        found.append(ProofComparison(
            group, Timings(group.label, np.array(times[ProofMethod.CPSAT])),
            Timings(group.label, np.array(times[ProofMethod.FASTEST])), differ, settled))
    return found
