"""Timing and checking this version against an older checkout, hand by hand (bench --against).

The older checkout's solver runs in a subprocess (``Worker``) through the one face every
version has, ``from optimizer import solve``, and the two are timed hand by hand in turn
(``compare``), so the machine's load falls on both alike. Each side times only its own
``solve`` call, inside its own process. ``identical_results`` solves a fixed mix of hands with
both and reports any difference (``bench --verify``).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.batch.benchmark import (ADVERSARIAL_CARDS, KINDS, Timings,
                                                   adversarial_hands, joker_hands, random_hands)
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.objective import ObjectiveName
from fantasyland.optimizer.solver.solve import solve
from fantasyland.optimizer.solver.table import Sample


#: What a worker runs: JSON lines in (one solve's arguments), JSON lines out (its time and its
#: result as plain data). It uses only ``solve`` of the optimizer's face and attributes of the
#: solution that every version has, so that it runs on old checkouts too; ``PKG.`` stands for
#: where a checkout keeps its packages (``package_prefix``).
WORKER = r"""
import json, sys, time
from PKG.optimizer import solve
try:  # CP-SAT loaded before any clock starts (an older checkout may load it at import)
    from PKG.optimizer.solver.cpsat import cp_model
    cp_model()
except ImportError:
    pass
try:  # the sample's options as one Sample (an older checkout takes them flat)
    from PKG.optimizer import Sample
except ImportError:
    Sample = None

def arguments(job):
    if Sample is not None and "samples" in job:
        job["sample"] = Sample(samples=job.pop("samples"))
    return job

def rows(board):
    return [sorted(int(c) for c in getattr(board, r)) for r in ("top", "middle", "bottom")]

def mode(result):
    if result is None:
        return None
    return {"value": round(float(result.points), 9), "rows": rows(result.board)}

def record(s):
    return {"rows": rows(s), "discards": sorted(int(c) for c in s.discards),
            "value": round(float(s.value), 9), "status": s.status,
            "bound": round(float(s.bound), 9), "stays": bool(s.stays),
            "best_staying": mode(s.best_staying), "best_not_staying": mode(s.best_not_staying),
            "alternatives": [{"value": round(float(a.value), 9), "rows": rows(a.board)}
                             for a in s.alternatives]}

for line in sys.stdin:
    job = json.loads(line)
    start = time.perf_counter()
    solution = solve(job.pop("cards"), time_limit=60.0, **arguments(job))
    ms = (time.perf_counter() - start) * 1e3
    print(json.dumps({"ms": ms, "record": record(solution)}), flush=True)
"""


def package_prefix(root: Path) -> str:
    """How the code of the checkout ``root`` is imported: ``fantasyland.`` where its layers
    are the subpackages of ``fantasyland``, nothing for a checkout from before that, whose
    layers were packages of their own."""
    return "fantasyland." if (Path(root) / "fantasyland" / "__init__.py").is_file() else ""


class Worker:
    """A subprocess solving with the code of one checkout (``root`` holds its ``optimizer``
    and ``evaluator`` packages), one job at a time."""

    def __init__(self, root: Path):
        self.root = Path(root)
        env = dict(os.environ, PYTHONPATH=str(self.root), PYTHONHASHSEED="0")
        worker = WORKER.replace("PKG.", package_prefix(self.root))
        self.process = subprocess.Popen([sys.executable, "-c", worker], cwd=self.root,
                                        env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def solve(self, job: dict) -> tuple[float, dict]:
        """Milliseconds of one ``solve`` call inside the worker, and its result."""
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(job) + "\n")
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the solver of {self.root} stopped (job {job})")
        answer = json.loads(line)
        return answer["ms"], answer["record"]

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin
            self.process.stdin.close()
            self.process.wait(timeout=30)

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def current_root() -> Path:
    """The folder holding this code's ``optimizer`` and ``evaluator`` packages."""
    return Path(__file__).resolve().parents[2]


class CheckoutError(InputError):
    """``--against`` names neither a folder nor a revision."""


@contextmanager
def checkout(rev_or_path: str) -> Iterator[tuple[Path, str]]:
    """A checkout to time: a folder as given, or a git revision of this code's repository
    added as a temporary worktree (removed afterwards). Yields its root and a label."""
    path = Path(rev_or_path)
    if path.is_dir():
        yield path.resolve(), str(rev_or_path)
        return
    repo = current_root()
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev_or_path}^{{commit}}"],
                            cwd=repo, capture_output=True, text=True)
    if commit.returncode != 0:
        raise CheckoutError(f"{rev_or_path!r} is neither a folder nor a revision of {repo.name}")
    sha = commit.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="fantasyland-bench-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), sha],
                       cwd=repo, check=True, capture_output=True)
        try:
            yield tree, f"{rev_or_path} ({sha[:10]})"
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=repo,
                           capture_output=True)


@dataclass(frozen=True)
class Group:
    """One set of hands timed together: random hands of one card count, or one adversarial
    kind, each with its solve options (``samples`` only for the ev objective)."""

    suite: str  # "random" or "adversarial"
    label: str
    cards: int
    hands: tuple[tuple[int, ...], ...]
    options: dict = field(default_factory=dict)
    kind: str | None = None

    @property
    def samples(self) -> int | None:
        return self.options.get("samples")

    def solve_options(self) -> dict:
        """``options`` as this checkout's ``solve`` takes them: the samples in a ``Sample``
        (the workers' jobs keep them flat, as JSON, and ``WORKER`` makes the same change)."""
        options = dict(self.options)
        if "samples" in options:
            options["sample"] = Sample(samples=options.pop("samples"))
        return options


class SuiteError(InputError):
    """A suite that the rules cannot deal (the jokers suite under rules without jokers)."""


def groups(suite: str, card_counts: Iterable[int], hands: int, seed: int, variant: str,
           objective: str, fl_value: float | None,
           *, samples: Iterable[int | None] = (None,)) -> list[Group]:
    """The hands ``bench`` times: ``suite`` is "random", "adversarial", "all" or "jokers"
    (hands with two jokers, and the same hands with the jokers replaced by random cards, for
    each card count; the variant must deal two jokers)."""
    found, deck = [], find_rules(variant).deck
    for count in samples:
        options = {"variant": variant, "objective": objective, "fl_value": fl_value}
        if count is not None and objective == ObjectiveName.EV:
            options["samples"] = count
        tail = f", {count} samples" if "samples" in options else ""
        if suite in ("random", "all"):
            for cards in card_counts:
                found.append(Group("random", f"{cards} cards{tail}", cards, tuple(
                    tuple(h) for h in random_hands(hands, cards, seed, deck=deck)), options))
        if suite == "jokers":
            if deck.jokers < 2:
                raise SuiteError(f"the jokers suite needs rules that deal two jokers, and "
                                 f"{variant!r} deals {deck.jokers}: use --variant "
                                 "pineapple-joker or progressive-joker")
            for cards in card_counts:
                jokers, replaced = joker_hands(hands, cards, seed)
                found.append(Group("jokers", f"{cards} cards, two jokers{tail}", cards,
                                   tuple(map(tuple, jokers)), options, "two jokers"))
                found.append(Group("jokers", f"{cards} cards, jokers replaced{tail}", cards,
                                   tuple(map(tuple, replaced)), options, "jokers replaced"))
        if suite in ("adversarial", "all"):
            for kind in KINDS:
                found.append(Group("adversarial", f"{kind}{tail}", ADVERSARIAL_CARDS, tuple(
                    tuple(h) for h in adversarial_hands(kind, seed=seed)), options, kind))
    return found


@dataclass(frozen=True)
class Comparison:
    """One group timed on this code and (if given) on another checkout, hand by hand."""

    group: Group
    current: Timings
    other: Timings | None = None
    differ: int = 0  # hands whose results differ between the two

    @property
    def worst(self) -> tuple[tuple[int, ...], float, float] | None:
        """The hand slowest on the other checkout: its cards, then its milliseconds here
        and there."""
        if self.other is None:
            return None
        i = int(np.argmax(self.other.ms))
        return self.group.hands[i], float(self.current.ms[i]), float(self.other.ms[i])

    @property
    def ratio(self) -> dict[str, float] | None:
        """How many times faster this code is: the other's figure over this one's."""
        if self.other is None:
            return None
        return {key: self.other.figures()[key] / max(value, 1e-9)
                for key, value in self.current.figures().items()}


def compare(group_list: list[Group], other: Path | None,
            *, progress: Callable[[Group, int], None] | None = None) -> list[Comparison]:
    """Time every group's hands on this code, and on ``other``'s code when given, in turn
    hand by hand (which one goes first alternates). Without ``other`` this code is timed
    in this process, the groups of one card count in turn hand by hand (hands with jokers
    and the same hands without, say), so that a change in the machine's load falls on
    both alike. CP-SAT is loaded before the clocks start, on both sides: its import is a
    process's start-up (docs/benchmarks.md, "Start-up"), and would fall on whichever hand
    first needs a model."""
    results = []
    if other is None:
        cpsat.cp_model()
        by_count: dict[int, list[Group]] = {}
        for group in group_list:
            by_count.setdefault(group.cards, []).append(group)
        timed: dict[int, list[float]] = {id(group): [] for group in group_list}
        for bundle in by_count.values():
            for group in bundle:
                solve(list(group.hands[0]), **group.solve_options())  # warm the caches first
            for i in range(max(len(group.hands) for group in bundle)):
                for group in bundle[i % len(bundle):] + bundle[:i % len(bundle)]:
                    if i >= len(group.hands):
                        continue
                    start = time.perf_counter()
                    solution = solve(list(group.hands[i]), time_limit=60.0,
                                     **group.solve_options())
                    timed[id(group)].append((time.perf_counter() - start) * 1e3)
                    if not solution.status.proved:
                        raise RuntimeError(f"hand {list(group.hands[i])} was not proved optimal")
                    if progress:
                        progress(group, i + 1)
        return [Comparison(group, Timings(group.label, np.array(timed[id(group)])))
                for group in group_list]
    with Worker(current_root()) as mine, Worker(other) as theirs:
        for group in group_list:
            warm = {"cards": list(group.hands[0]), **group.options}
            mine.solve(dict(warm))
            theirs.solve(dict(warm))
            ours, old, differ = [], [], 0
            for i, hand in enumerate(group.hands):
                job = {"cards": list(hand), **group.options}
                pair = (mine, theirs) if i % 2 == 0 else (theirs, mine)
                answers = {id(w): w.solve(dict(job)) for w in pair}
                (a_ms, a_rec), (b_ms, b_rec) = answers[id(mine)], answers[id(theirs)]
                ours.append(a_ms)
                old.append(b_ms)
                differ += a_rec != b_rec
                if progress:
                    progress(group, i + 1)
            results.append(Comparison(group, Timings(group.label, np.array(ours)),
                                      Timings(group.label, np.array(old)), differ))
    return results


def identical_results(jobs: Iterable[dict], other: Path,
                      *, progress: Callable[[int], None] | None = None) -> list[tuple[dict, dict,
                                                                                dict]]:
    """Solve every job (``solve``'s arguments, ``cards`` included) with this code and with
    ``other``'s; return the jobs whose results differ, with both results."""
    differ = []
    with Worker(current_root()) as mine, Worker(other) as theirs:
        for i, job in enumerate(jobs):
            _, ours = mine.solve(dict(job))
            _, old = theirs.solve(dict(job))
            if ours != old:
                differ.append((job, ours, old))
            if progress:
                progress(i + 1)
    return differ


PRESETS = ("pineapple", "standard", "deuce", "progressive", "ultimate")
JOKER_PRESETS = ("pineapple-joker", "progressive-joker")


def identity_jobs(*, seed: int = 1, per_count: int = 80) -> list[dict]:
    """A mix of solves on which two versions of the solver must agree exactly: ``per_count``
    seeded random hands of each count 13 to 17 over the presets, the royalties objective
    with the default worth of staying and with none, every fifth with three alternatives,
    every fourth under the ev objective on a small sample; then the adversarial suite; then
    hands with two jokers (``joker_presets``: 8 of each count) and from two decks."""
    jobs = []
    for cards in range(13, 18):
        rng = random.Random(f"identity:{seed}:{cards}")
        for i in range(per_count):
            hand = rng.sample(range(52), cards) if i % 3 else KINDS["pairs-and-trips"](
                rng, cards) if i % 2 else KINDS["two-suits"](rng, cards)
            job = {"cards": hand, "variant": PRESETS[i % len(PRESETS)],
                   "objective": "royalties", "fl_value": 0.0 if i % 7 == 3 else None}
            if i % 4 == 1:
                job.update(objective="ev", samples=25 + (i % 3) * 40, seed=i)
            if i % 5 == 2:
                job["alternatives"] = 3
            jobs.append(job)
    for kind in KINDS:
        for i, hand in enumerate(adversarial_hands(kind, seed=seed)):
            job = {"cards": hand, "variant": PRESETS[i % 3], "objective": "royalties",
                   "fl_value": None}
            if i % 6 == 5:
                job.update(objective="ev", samples=50, seed=i)
            if i % 5 == 4:
                job["alternatives"] = 3
            jobs.append(job)
    for cards in range(13, 18):
        with_jokers, _ = joker_hands(8, cards, seed)
        for i, hand in enumerate(with_jokers):
            job = {"cards": hand, "variant": JOKER_PRESETS[i % len(JOKER_PRESETS)],
                   "objective": "royalties", "fl_value": 0.0 if i % 4 == 3 else None}
            if i % 4 == 1:
                job.update(objective="ev", samples=25, seed=i)
            if i % 4 == 2:
                job["alternatives"] = 3
            jobs.append(job)
        rng = random.Random(f"identity:two-decks:{seed}:{cards}")
        for i in range(4):
            hand = rng.sample(list(range(52)) * 2, cards)
            jobs.append({"cards": hand, "variant": "double-deck", "objective": "royalties",
                         "fl_value": None, **({"alternatives": 3} if i == 2 else {})})
    return jobs
