"""Measurements behind ``fantasyland bench``: ranking speed and solving speed.

Timings are wall-clock milliseconds of the real public calls on seeded random hands, so the
figures are reproducible in what they measure (the hands), not in the machine's noise.

Besides random hands there is an *adversarial* suite: hands drawn from few suits or few
ranks, where many sets are worth nearly the same and the bounds prune least (``KINDS``).
Timing an older checkout on the same hands is ``optimizer.batch.against``.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.cards import JOKER, ONE_DECK, Deck
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.evaluator.strength import rank3_array, rank5_array
from fantasyland.optimizer.solver.candidates import subsets
from fantasyland.optimizer.solver.solve import solve
from fantasyland.optimizer.solver.table import Sample



def machine() -> str:
    """The processor model, its cores and the Python version, for benchmark headers."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


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

    def figures(self) -> dict[str, float]:
        return {"median_ms": self.median, "p95_ms": self.p95, "max_ms": self.max}


def random_hands(count: int, cards: int, seed: int, *, deck: Deck = ONE_DECK) -> list[list[int]]:
    """``count`` seeded random hands of ``cards`` cards of ``deck`` (one deck: distinct)."""
    rng = random.Random(f"{seed}:{cards}")
    return [rng.sample(deck.cards, cards) for _ in range(count)]


def joker_hands(count: int, cards: int, seed: int) -> tuple[list[list[int]], list[list[int]]]:
    """``count`` seeded hands of ``cards`` cards holding two jokers, and the same hands with
    each joker replaced by a random card not in the hand: what jokers cost the solve."""
    rng = random.Random(f"jokers:{seed}:{cards}")
    with_jokers, replaced = [], []
    for _ in range(count):
        real = rng.sample(range(52), cards)
        with_jokers.append(real[:-2] + [JOKER, JOKER])
        replaced.append(real)
    return with_jokers, replaced


# --- the adversarial suite --------------------------------------------------------------------
# Card ids are rank * 4 + suit, ranks 0 (deuce) to 12 (ace).

def _two_suits(rng: random.Random, cards: int) -> list[int]:
    suits = rng.sample(range(4), 2)
    return rng.sample([rank * 4 + suit for rank in range(13) for suit in suits], cards)


def _two_suits_nine_ranks(rng: random.Random, cards: int) -> list[int]:
    suits, ranks = rng.sample(range(4), 2), rng.sample(range(13), 9)
    return rng.sample([rank * 4 + suit for rank in ranks for suit in suits], cards)


def _seven_connected(rng: random.Random, cards: int) -> list[int]:
    low = rng.randrange(-1, 7)  # -1: ace, deuce ... seven (the wheel's ranks and two more)
    ranks = [(low + i) % 13 for i in range(7)]
    return rng.sample([rank * 4 + suit for rank in ranks for suit in range(4)], cards)


def _pairs_and_trips(rng: random.Random, cards: int) -> list[int]:
    """Every rank dealt is dealt two or three times (one may be dealt once to fit)."""
    hand: list[int] = []
    for rank in rng.sample(range(13), 13):
        take = min(rng.choice((2, 3)), cards - len(hand))
        hand += [rank * 4 + suit for suit in rng.sample(range(4), take)]
        if len(hand) == cards:
            break
    return hand


#: The adversarial kinds, by name.
KINDS: dict[str, Callable[[random.Random, int], list[int]]] = {
    "two-suits": _two_suits,
    "two-suits-nine-ranks": _two_suits_nine_ranks,
    "seven-connected": _seven_connected,
    "pairs-and-trips": _pairs_and_trips,
}
ADVERSARIAL_HANDS = 30  # per kind
ADVERSARIAL_CARDS = 17


def adversarial_hands(kind: str, *, count: int = ADVERSARIAL_HANDS, cards: int = ADVERSARIAL_CARDS,
                      seed: int = 1) -> list[list[int]]:
    """``count`` seeded hands of one adversarial ``kind`` (a key of ``KINDS``)."""
    rng = random.Random(f"adversarial:{kind}:{seed}:{cards}")
    return [KINDS[kind](rng, cards) for _ in range(count)]


def time_ranking(*, repeats: int = 200, seed: int = 1) -> Timings:
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
                 *, progress: Callable[[int, int], None] | None = None,
                 samples: int | None = None) -> list[Timings]:
    """Solving seeded random hands to proved optimality, per card count."""
    results = []
    sample = Sample(samples=samples)  # None: the default sample
    for cards in card_counts:
        dealt = random_hands(hands, cards, seed, deck=find_rules(variant).deck)
        solve(dealt[0], variant=variant, objective=objective, fl_value=fl_value,
              sample=sample)  # warm the caches first
        ms = []
        for i, hand in enumerate(dealt):
            start = time.perf_counter()
            solution = solve(hand, variant=variant, objective=objective, fl_value=fl_value,
                             time_limit=60.0, sample=sample)
            ms.append((time.perf_counter() - start) * 1e3)
            if not solution.status.proved:
                raise RuntimeError(f"hand {hand} was not proved optimal: {solution.status}")
            if progress:
                progress(cards, i + 1)
        results.append(Timings(f"{cards} cards", np.array(ms)))
    return results
