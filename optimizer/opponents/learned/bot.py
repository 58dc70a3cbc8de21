"""The learned bot: each decision takes the play the learned value likes best.

On the last street every play finishes the board and is valued exactly; on the street before
it each play is valued exactly over every last deal (``optimizer.opponents.exact``); earlier
each play's board is valued by the model of its street (``network``), given the cards the
player has not seen. A tie goes to the first play in ``placements``' order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.optimizer.opponents.exact import Valuation, exact_worth
from fantasyland.optimizer.opponents.layout import placements
from fantasyland.optimizer.opponents.learned.features import features
from fantasyland.optimizer.opponents.learned.network import Network
from fantasyland.optimizer.opponents.params import Dealing


class LearnedBot:
    """A policy (``positions.Policy``) that plays by ``models`` (by the streets still to come
    after the decision, 2 and up) and values finished boards by ``worth``."""

    def __init__(self, dealing: Dealing, models: Mapping[int, Network], worth: Valuation,
                 *, exact_from: int = 1) -> None:
        self.dealing = dealing
        self.models = dict(models)
        self.worth = worth
        self.exact_from = exact_from

    def values(self, options: np.ndarray, unseen: np.ndarray, rounds_left: int) -> np.ndarray:
        """What each of ``options`` (boards after this decision) is worth, ``rounds_left``
        streets before the end, with ``unseen`` the cards not seen."""
        if rounds_left == 0:
            return self.worth(options).value
        if rounds_left <= self.exact_from:
            return exact_worth(self.worth, options, unseen, self.dealing).value
        left = np.bincount(unseen, minlength=JOKER + 1)
        return self.models[rounds_left].predict(features(options, left))

    def __call__(self, layout: np.ndarray, new: Sequence[int], keep: int, unseen: np.ndarray,
                 rounds_left: int, rng: np.random.Generator) -> np.ndarray:
        options = placements(layout, list(new), keep)
        return options[int(np.argmax(self.values(options, unseen, rounds_left)))]
