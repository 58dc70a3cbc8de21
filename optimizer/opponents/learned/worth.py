"""What a finished board is worth under the royalties objective: the learned value's labels,
and ``advise``'s royalties objective (``optimizer.ordinary.worth``), which is this one.

A finished board is worth its royalties, plus the worth of the Fantasyland it enters by the
cards it deals, or less the rules' foul penalty when it fouls. The worth of each entry size
is the rules' (``Rules.entry_value``) unless given (``advise --entry-value``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.resolve import evaluate_played


@dataclass(frozen=True)
class Outcome:
    """Finished boards: what each is worth, whether it fouled, and the cards of the
    Fantasyland it enters (0: none)."""

    value: np.ndarray
    fouled: np.ndarray
    entry_cards: np.ndarray


class Worth:
    """What finished boards are worth (module docstring); ``entry[n]`` is what entering with
    ``n`` cards adds (the rules' worths when not given), ``foul`` what a foul costs (the
    rules' penalty when not given)."""

    def __init__(self, rules: Rules, *, entry: np.ndarray | None = None,
                 foul: float | None = None) -> None:
        self.rules = rules
        if entry is None:
            sizes = rules.entry_sizes
            entry = np.zeros(max(sizes, default=0) + 1)
            for cards in sizes:
                entry[cards] = rules.entry_value(cards, ev=False).value
        self.entry = entry
        self.foul = float(rules.scoring.foul_penalty if foul is None else foul)

    def __call__(self, boards: np.ndarray) -> Outcome:
        out = evaluate_played(np.asarray(boards).reshape(-1, 13), self.rules)
        value = np.where(out.fouled, -self.foul, out.royalty_total + self.entry[out.entry_cards])
        return Outcome(value.astype(float), out.fouled, out.entry_cards)
