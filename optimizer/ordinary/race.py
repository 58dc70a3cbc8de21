"""The race of rollouts that ranks a street's plays when the hand is not yet at its end.

Rollouts come in batches of ``BATCH`` for every play still in the race, every play dealt the
same futures (``optimizer.ordinary.rollouts``). After ``MIN_ROLLOUTS``, a play falls out once
the best play is ahead of it by ``Z`` standard errors of their difference, measured over the
rollouts they share; the race ends when no play is left within that of the best, or when the
best has had the budget's rollouts. The plays still within ``Z`` standard errors at the end are
"close". With ``workers`` above 1 each batch's rollouts are split across processes; a play's
rollout depends only on the seed, its index and the play, so the result does not change.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from fantasyland.optimizer.ordinary.plays import Play
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.ordinary.rollouts import Rollouts, roll_out
from fantasyland.optimizer.ordinary.worth import Valuation

#: Rollouts of every play still in the race, between two looks at the race.
BATCH = 16
#: Rollouts before any play can fall out of the race.
MIN_ROLLOUTS = 32
#: Standard errors of the difference by which the best play must lead.
Z = 2.0


@dataclass(frozen=True)
class PlayValue:
    """A play and what it is worth: the mean over its rollouts (exact on the last street),
    the standard error of that mean, the chances that the hand fouls and that it enters
    Fantasyland with each number of cards, and how it stands against the best play."""

    play: Play
    value: float | None
    standard_error: float | None
    foul_chance: float | None
    entry_chances: dict[int, float] | None
    rollouts: int
    behind: float | None  # the best play's value less this one's, over the rollouts they share
    behind_error: float | None  # the standard error of ``behind``
    close: bool  # within ``Z`` standard errors of the best (never the best itself)
    # Left out of the race by the screen (``SCREEN``): no rollouts, and the figures above
    # are None; ``screen`` is the bot's first-look score that left it out.
    screened: bool = False
    screen: float | None = None



_WORKER: dict = {}


def _start_worker(position: Position, valuation: Valuation, layouts: np.ndarray,
                  seed: int) -> None:
    _WORKER.update(position=position, valuation=valuation, layouts=layouts, seed=seed)


def _work(job: tuple[np.ndarray, np.ndarray]) -> Rollouts:
    plays, indices = job
    w = _WORKER
    return roll_out(w["position"], w["valuation"], w["layouts"][plays], indices, w["seed"])


def race(position: Position, valuation: Valuation, plays: list[Play], seed: int, budget: int,
          workers: int, progress: Callable[[int, int], None] | None) -> tuple[PlayValue, ...]:
    layouts = np.stack([p.layout for p in plays])
    count = len(plays)
    value: list[list[float]] = [[] for _ in range(count)]
    fouled: list[list[bool]] = [[] for _ in range(count)]
    entry: list[list[int]] = [[] for _ in range(count)]
    active = np.arange(count)
    done, most = 0, count * budget
    pool = ProcessPoolExecutor(workers, initializer=_start_worker,
                               initargs=(position, valuation, layouts, seed)) \
        if workers > 1 else None
    if pool is None:
        _start_worker(position, valuation, layouts, seed)
    try:
        rounds = 0
        while True:
            indices = np.arange(rounds * BATCH, (rounds + 1) * BATCH)
            rounds += 1
            parts = np.array_split(indices, workers) if pool else [indices]
            jobs = [(active, part) for part in parts if len(part)]
            results = list(pool.map(_work, jobs)) if pool else [_work(j) for j in jobs]
            for result in results:
                for row, play in enumerate(active.tolist()):
                    value[play].extend(result.value[row].tolist())
                    fouled[play].extend(result.fouled[row].tolist())
                    entry[play].extend(result.entry_cards[row].tolist())
            done += len(active) * len(indices)
            most = done + len(active) * max(budget - rounds * BATCH, 0)
            if progress is not None:
                progress(done, most)
            standing = _standing(value, active)
            if rounds * BATCH >= MIN_ROLLOUTS:
                active = np.array([p for p, (behind, error) in zip(active.tolist(), standing)
                                   if not behind > Z * error], dtype=np.int64)
            undecided = [1 for behind, error in _standing(value, active)
                         if not (behind == 0 and error == 0) and not behind > Z * error]
            # a race ends no sooner than MIN_ROLLOUTS: 16 equal rollouts do not show two
            # plays equal, nor 16 rollouts that one is behind
            if rounds * BATCH >= budget or (rounds * BATCH >= MIN_ROLLOUTS
                                            and len(undecided) <= 1):
                break
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return _ranked(plays, value, fouled, entry, position)


def _standing(value: list[list[float]], active: np.ndarray) -> list[tuple[float, float]]:
    """For each of ``active``: how far behind the best of them it is, and the standard error
    of that, over the rollouts the two share (the best itself: 0, 0... and counted as
    undecided only through the others)."""
    means = [np.mean(value[p]) for p in active.tolist()]
    best = active[int(np.argmax(means))]
    out = []
    for play in active.tolist():
        if play == best:
            out.append((0.0, np.inf))  # never falls out, and never decides the race alone
            continue
        out.append(_gap(value[best], value[play]))
    return out


def _gap(best: list[float], other: list[float]) -> tuple[float, float]:
    n = min(len(best), len(other))
    difference = np.asarray(best[:n]) - np.asarray(other[:n])
    error = float(difference.std(ddof=1) / np.sqrt(n)) if n > 1 else np.inf
    return float(difference.mean()), error


def _ranked(plays: list[Play], value, fouled, entry, position: Position
            ) -> tuple[PlayValue, ...]:
    means = np.array([np.mean(v) for v in value])
    order = sorted(range(len(plays)), key=lambda i: (-means[i], i))
    best = order[0]
    sizes = position.rules.entry_sizes
    out = []
    for i in order:
        n = len(value[i])
        behind, error = (0.0, 0.0) if i == best else _gap(value[best], value[i])
        cards = np.asarray(entry[i])
        out.append(PlayValue(
            plays[i], float(means[i]),
            float(np.std(value[i], ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
            float(np.mean(fouled[i])), {s: float(np.mean(cards == s)) for s in sizes}, n,
            behind, error, i != best and not behind > Z * error))
    return tuple(out)
