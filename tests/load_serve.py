"""The load test of ``fantasyland serve``: many solves from many clients at once.

Each client sends its share of seeded hands (13 to 17 cards, all distinct) to
``POST /api/solve`` and checks that the answer is its own hand's. The figures are the
latency of each solve as a client sees it (queueing included), and the wall time.

    python tests/load_serve.py [--solves 200] [--clients 20] [--workers 2]

starts a server of its own and prints them; tests/test_web_server.py runs the same load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fantasyland.evaluator.cards import card_name  # noqa: E402
from tests.serving import Server, serve_process  # noqa: E402


@dataclass(frozen=True)
class Load:
    latencies: tuple[float, ...]  # seconds a solve, in the order sent
    wall: float
    answers: tuple[dict, ...]
    hands: tuple[tuple[str, ...], ...]

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def summary(self) -> str:
        return (f"{len(self.latencies)} solves in {self.wall:.1f} s "
                f"({len(self.latencies) / self.wall:.1f} a second): latency median "
                f"{statistics.median(self.latencies) * 1e3:,.0f} ms, p95 "
                f"{self.percentile(0.95) * 1e3:,.0f} ms, max {max(self.latencies) * 1e3:,.0f} ms")


def hands(count: int, seed: int = 0) -> list[tuple[str, ...]]:
    """``count`` distinct hands of 13 to 17 cards."""
    rng = random.Random(f"load:{seed}")
    made: list[tuple[str, ...]] = []
    while len(made) < count:
        cards = tuple(sorted(rng.sample(range(52), 13 + len(made) % 5), reverse=True))
        named = tuple(card_name(card, ascii=True) for card in cards)
        if named not in made:
            made.append(named)
    return made


def run_load(server: Server, solves: int, clients: int, samples: int = 200) -> Load:
    """``solves`` solves from ``clients`` threads, the ``i``-th from client ``i % clients``
    (each client a loopback address of its own, as the server tells clients apart); each
    answer is checked to be its hand's."""
    dealt = hands(solves)
    latencies = [0.0] * solves
    answers: list[dict] = [{}] * solves

    def one(i: int) -> None:
        started = time.perf_counter()
        status, answer = server.post("solve", {"cards": " ".join(dealt[i]), "samples": samples,
                                              "seed": i}, source=f"127.0.0.{10 + i % clients}")
        latencies[i] = time.perf_counter() - started
        if status != 200:
            raise AssertionError(f"solve {i}: HTTP {status}: {answer}")
        if sorted(answer["cards"]) != sorted(dealt[i]):
            raise AssertionError(f"solve {i} was answered with another hand: {answer['cards']}")
        answers[i] = answer

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        for future in [pool.submit(one, i) for i in range(solves)]:
            future.result()
    return Load(tuple(latencies), time.perf_counter() - started, tuple(answers), tuple(dealt))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solves", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--samples", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work, \
            serve_process(Path(work), "--workers", str(options.workers)) as server:
        load = run_load(server, options.solves, options.clients, options.samples)
    workers = f"{options.workers} worker{'s' * (options.workers != 1)}"
    print(f"{options.clients} clients, {workers}, ev at {options.samples} samples: "
          f"{load.summary()}")


if __name__ == "__main__":
    main()
