"""Measurements behind ``fantasyland bench``: ranking speed and solving speed.

Timings are wall-clock milliseconds of the real public calls on seeded random hands, so the
figures are reproducible in what they measure (the hands), not in the machine's noise.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from evaluator.strength import rank3_array, rank5_array
from optimizer.solver.candidates import subsets
from optimizer.solver.solve import solve


@dataclass(frozen=True)
class Timings:
    """Milliseconds of repeated runs of one thing."""

    label: str
    ms: np.ndarray

    @property
    def median(self) -> float:
        return float(np.median(self.ms))

    @property
    def p95(self) -> float:
        return float(np.percentile(self.ms, 95))

    @property
    def max(self) -> float:
        return float(self.ms.max())


def random_hands(count: int, cards: int, seed: int) -> list[list[int]]:
    """``count`` seeded random hands of ``cards`` distinct cards."""
    rng = random.Random(f"{seed}:{cards}")
    return [rng.sample(range(52), cards) for _ in range(count)]


def time_ranking(repeats: int = 200, seed: int = 1) -> Timings:
    """Ranking every 5-card (6,188) and 3-card (680) subset of a 17-card hand."""
    hands = random_hands(repeats, 17, seed)
    fives, threes = subsets(17, 5), subsets(17, 3)
    ms = []
    for hand in hands:
        dealt = np.asarray(hand, dtype=np.int64)
        start = time.perf_counter()
        rank5_array(dealt[fives])
        rank3_array(dealt[threes])
        ms.append((time.perf_counter() - start) * 1e3)
    return Timings("rank all 5- and 3-card subsets of 17 cards", np.array(ms))


def time_solving(card_counts: Iterable[int], hands: int, seed: int, variant: str,
                 objective: str, fl_value: float | None,
                 progress: Callable[[int, int], None] | None = None) -> list[Timings]:
    """Solving seeded random hands to proved optimality, per card count."""
    results = []
    for cards in card_counts:
        dealt = random_hands(hands, cards, seed)
        solve(dealt[0], variant, objective, fl_value)  # warm the caches first
        ms = []
        for i, hand in enumerate(dealt):
            start = time.perf_counter()
            solution = solve(hand, variant, objective, fl_value, time_limit=60.0)
            ms.append((time.perf_counter() - start) * 1e3)
            if solution.status != "optimal" and solution.status != "fouled":
                raise RuntimeError(f"hand {hand} was not proved optimal: {solution.status}")
            if progress:
                progress(cards, i + 1)
        results.append(Timings(f"{cards} cards", np.array(ms)))
    return results
