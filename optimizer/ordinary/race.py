"""The race of rollouts that ranks a street's plays when the hand is not yet at its end.

Rollouts come in batches of ``BATCH`` for every play still in the race, every play dealt the
same futures (``optimizer.ordinary.rollouts``). After ``MIN_ROLLOUTS``, a play falls out once
the best play is ahead of it by ``Z`` standard errors of their difference, measured over the
rollouts they share; the race ends when no play is left within that of the best, or when the
best has had the budget's rollouts. The plays still within ``Z`` standard errors at the end are
"close". With ``workers`` above 1 each batch's rollouts are split across processes; a play's
rollout depends only on the seed, its index and the play, so the result does not change.

The rollouts are played by the heuristic bot (``rollouts.roll_out``) or, where a learned value
of the rules' game is shipped, by the learned bot with the model as a control variate
(``learned_rollouts.roll_out_learned``): the race takes either. Where an outcome was never
seen it is not reported as certain (``foul_estimate``, ``error_floor``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.rules import Word
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

#: What a rollout function is: rollouts ``indices`` of boards ``layouts`` of a position.
RollOut = Callable[[Position, Valuation, np.ndarray, np.ndarray, int], Rollouts]


class Figure(Word):
    """Where a play's figure comes from: valued ``exact``ly (the last two streets), the mean
    of its ``rollouts`` (with a standard error), the learned ``model``'s value alone, or
    ``screened`` out by the heuristic bot's first look (no figure)."""

    EXACT = "exact"
    ROLLOUTS = "rollouts"
    MODEL = "model"
    SCREENED = "screened"


def foul_estimate(fouls: float, rollouts: int) -> float:
    """The chance of a foul from ``fouls`` in ``rollouts`` (a share each: 0 or 1 as played,
    or a last street's exact share): the Jeffreys estimate ``(fouls + 1/2) / (n + 1)``, so
    that a foul never seen is not reported as impossible, nor one always seen as certain."""
    return (fouls + 0.5) / (rollouts + 1)


def error_floor(swing: float, rollouts: int) -> float:
    """The least standard error ``rollouts`` rollouts may claim: what one outcome never seen
    at the Jeffreys rate (``foul_estimate`` of none) would move the mean by, an outcome
    worth ``swing`` (a foul against a board that stands)."""
    return swing * foul_estimate(0, rollouts)


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
    source: Figure = Figure.ROLLOUTS  # where ``value`` comes from
    model: float | None = None  # the learned model's value of the play, where one was used



_WORKER: dict = {}


def _start_worker(position: Position, valuation: Valuation, layouts: np.ndarray,
                  seed: int, rollout: RollOut) -> None:
    _WORKER.update(position=position, valuation=valuation, layouts=layouts, seed=seed,
                   rollout=rollout)


def _work(job: tuple[np.ndarray, np.ndarray]) -> Rollouts:
    plays, indices = job
    w = _WORKER
    return w["rollout"](w["position"], w["valuation"], w["layouts"][plays], indices, w["seed"])


def race(position: Position, valuation: Valuation, plays: list[Play], seed: int, budget: int,
         workers: int, progress: Callable[[int, int], None] | None,
         *, rollout: RollOut = roll_out) -> tuple[PlayValue, ...]:
    """The plays ranked by their rollouts (module docstring), each played by ``rollout``."""
    layouts = np.stack([p.layout for p in plays])
    count = len(plays)
    sizes = position.rules.entry_sizes
    value: list[list[float]] = [[] for _ in range(count)]
    fouled: list[list[float]] = [[] for _ in range(count)]
    entry: list[dict[int, list[float]]] = [{s: [] for s in sizes} for _ in range(count)]
    active = np.arange(count)
    done, most = 0, count * budget
    pool = ProcessPoolExecutor(workers, initializer=_start_worker,
                               initargs=(position, valuation, layouts, seed, rollout)) \
        if workers > 1 else None
    if pool is None:
        _start_worker(position, valuation, layouts, seed, rollout)
    try:
        rounds = 0
        while True:
            indices = np.arange(rounds * BATCH, (rounds + 1) * BATCH)
            rounds += 1
            parts = np.array_split(indices, workers) if pool else [indices]
            jobs = [(active, part) for part in parts if len(part)]
            results = list(pool.map(_work, jobs)) if pool else [_work(j) for j in jobs]
            for result in results:
                shares = result.entry_shares(sizes)
                for row, play in enumerate(active.tolist()):
                    value[play].extend(result.value[row].tolist())
                    fouled[play].extend(result.foul_shares[row].tolist())
                    for size in sizes:
                        entry[play][size].extend(shares[size][row].tolist())
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
    return _ranked(plays, value, fouled, entry, swing(valuation))


def swing(valuation: Valuation) -> float:
    """What a foul costs against a board that stands, in the valuation's points: the foul
    penalty from each opponent the value counts."""
    scale = valuation.opponents if valuation.field is not None else 1
    return float(valuation.rules.scoring.foul_penalty) * scale


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


def _ranked(plays: list[Play], value, fouled, entry, cost: float) -> tuple[PlayValue, ...]:
    """The raced plays best first. A play's ± is at least ``error_floor`` of a foul's
    ``cost``, and its chance of a foul is a Jeffreys estimate (``foul_estimate``), never 0
    or 1 from rollouts alone; its chances of each entry are the rollouts' means."""
    means = np.array([np.mean(v) for v in value])
    order = sorted(range(len(plays)), key=lambda i: (-means[i], i))
    best = order[0]
    out = []
    for i in order:
        n = len(value[i])
        behind, error = (0.0, 0.0) if i == best else _gap(value[best], value[i])
        spread = float(np.std(value[i], ddof=1) / np.sqrt(n)) if n > 1 else 0.0
        out.append(PlayValue(
            plays[i], float(means[i]), max(spread, error_floor(cost, n)),
            _foul(fouled[i]), {s: _mean(shares) for s, shares in entry[i].items()}, n,
            behind, error, i != best and not behind > Z * error))
    return tuple(out)


def _foul(shares: list[float]) -> float:
    """The chance of a foul from each rollout's share of it (``foul_estimate``), within 0
    and 1 (a share corrected by a control variate may lie outside them)."""
    return min(max(foul_estimate(float(np.sum(shares)), len(shares)), 0.0), 1.0)


def _mean(shares: list[float]) -> float:
    return min(max(float(np.mean(shares)), 0.0), 1.0)
