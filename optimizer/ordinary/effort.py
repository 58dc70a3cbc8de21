"""How hard ``advise`` works on the streets it rolls out: the budget of rollouts, the processes,
who hears the progress, the plays raced whatever the screen or the model says, and who plays
the rollouts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fantasyland.optimizer.ordinary.bots import RolloutBot
from fantasyland.optimizer.ordinary.plays import Play

#: The most rollouts a play gets, by default.
DEFAULT_BUDGET = 96


@dataclass(frozen=True, kw_only=True)
class Effort:
    """How the plays of a street race where they are rolled out: at most ``budget`` rollouts
    a play, on ``workers`` processes, ``progress(done, most)`` told the rollouts as they are
    made, and the plays of ``include`` raced whatever the first street's screen says (a play
    being graded). ``bot`` heuristic keeps the heuristic bot's path where a learned model
    exists (None: the learned one where it exists). With ``grading`` (``review``), the
    learned path races a play of ``include`` only where the model cannot tell it from the
    best, and the heuristic path is as without it."""

    budget: int = DEFAULT_BUDGET
    workers: int = 1
    progress: Callable[[int, int], None] | None = None
    include: Sequence[Play] = ()
    bot: RolloutBot | None = None
    grading: bool = False
