"""The adviser on the learned value: every play valued by the model at once, and the plays the
model cannot tell apart raced by the learned bot's rollouts.

Where a learned value of the rules' game is shipped (``learned.shipped.learned_bot``), a street
with two or more streets to come is advised in two steps:

* **the model values every play** (all of the first street's up to 232, none screened out):
  the value the model of that street gives the board the play leaves;
* **rollouts separate the close ones.** The plays within ``MARGIN`` points of the model's
  best (at most ``CANDIDATES``, and never fewer than the best two) race as ``race`` races
  them, played out by the learned bot with the model as a control variate
  (``learned_rollouts``). The other plays keep the model's figure.

The model values a board as the royalties objective does (royalties, each entry at its
worth, less the foul penalty): under that objective its figure is a value in the same
points, reported as ``model``; under ev it has no table term, so it only ranks the plays and
picks those that race, and a play left unraced has no value in ev points (its model figure
is kept beside it, as such). A play being graded (``review``) is raced only where it is
within ``MARGIN`` of the model's best, for ``GRADING_ROLLOUTS`` rollouts: elsewhere the
model grades it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from fantasyland.optimizer.ordinary.effort import Effort
from fantasyland.optimizer.opponents.learned.shipped import learned_bot
from fantasyland.optimizer.ordinary.learned_rollouts import roll_out_learned
from fantasyland.optimizer.ordinary.plays import Play
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.ordinary.race import Figure, PlayValue, race
from fantasyland.optimizer.ordinary.rollouts import unseen_cards
from fantasyland.optimizer.ordinary.worth import Valuation
from fantasyland.optimizer.solver.objective import ObjectiveName

#: Plays within this many points of the model's best are raced: a few times the model's
#: error on the difference of two plays of one position (docs/notes-learned.md).
MARGIN = 1.0
#: The most plays raced (besides a play being graded).
CANDIDATES = 6
#: The most rollouts a play gets in a race of a play being graded against the best (the
#: race's least): ``review`` grades a decision in a tenth of a second or so.
GRADING_ROLLOUTS = 32


def model_values(position: Position, plays: Sequence[Play]) -> np.ndarray:
    """The model's value of each play's board (the royalties objective's points)."""
    bot = learned_bot(position.rules)
    if bot is None:
        raise ValueError(f"no learned value of {position.rules.name} is shipped")
    return bot.values(np.stack([p.layout for p in plays]), unseen_cards(position),
                      position.rounds_left)


def raced_plays(model: np.ndarray, plays: Sequence[Play], include: set[bytes],
                *, grading: bool = False) -> list[int]:
    """The indices of the plays that race (module docstring), in the plays' order. With
    ``grading``, only the plays of ``include`` and the model's best race, and only where the
    model cannot tell them apart."""
    order = sorted(range(len(plays)), key=lambda i: (-model[i], i))
    near = [i for i in order if model[order[0]] - model[i] <= MARGIN]
    if grading:
        graded = [i for i in order if plays[i].key in include]
        if not graded:
            return []
        # the model's best against the play graded, or against its runner-up where the
        # play graded is the best: raced only where the model cannot tell the two apart
        pair = near[:2] if graded[0] == order[0] else [order[0], graded[0]]
        return sorted(pair) if len(pair) == 2 and all(i in near for i in pair) else []
    chosen = set(near[:CANDIDATES]) | set(order[:2])
    chosen |= {i for i, p in enumerate(plays) if p.key in include}
    return sorted(chosen)


def model_advice(position: Position, objective: str, valuation: Callable[[], Valuation],
                 plays: list[Play], seed: int, effort: Effort) -> tuple[PlayValue, ...]:
    """Every play of ``position`` valued (module docstring): the raced ones best first by
    their rollouts, then the rest as the model ranks them. ``valuation()`` gives the
    valuation of finished boards, asked for only where plays race; ``effort`` gives the
    budget, the plays to include, whether a play is being graded and who hears progress."""
    model = model_values(position, plays)
    chosen = set(raced_plays(model, plays, {p.key for p in effort.include},
                             grading=effort.grading))
    index = {p.key: i for i, p in enumerate(plays)}
    ranked: tuple[PlayValue, ...] = ()
    if chosen:
        ranked = tuple(_with_model(p, float(model[index[p.play.key]])) for p in race(
            position, valuation(), [plays[i] for i in sorted(chosen)], seed,
            min(effort.budget, GRADING_ROLLOUTS) if effort.grading else effort.budget, 1,
            effort.progress, rollout=roll_out_learned))
    royalties = objective == ObjectiveName.ROYALTIES
    top = ranked[0].value if ranked else float(model.max()) if royalties else None
    rest = []
    for i in sorted(range(len(plays)), key=lambda i: (-model[i], i)):
        if i in chosen:
            continue
        figure = float(model[i])
        value = figure if royalties else None
        behind = None if value is None or top is None else float(top - figure)
        rest.append(PlayValue(plays[i], value, None, None, None, 0, behind, None, False,
                              source=Figure.MODEL, model=figure))
    return ranked + tuple(rest)


def _with_model(value: PlayValue, figure: float) -> PlayValue:
    return replace(value, model=figure)
