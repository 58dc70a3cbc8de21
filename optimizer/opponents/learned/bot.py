"""The learned bot: each decision takes the play the learned value likes best.

On the last street every play finishes the board and is valued exactly; on the street before
it each play is valued exactly over every last deal (``optimizer.opponents.exact``); earlier
each play's board is valued by the model of its street (``network``), given the cards the
player has not seen. A tie goes to the first play in ``placements``' order.

With a lookahead (``lookahead_deals``), a street the model would decide is valued one street
further instead, the way the model's labels were made (``labels``): each play is worth the
mean, over sampled deals of the next street, of the best next play's value, by the next
street's model, or exactly where the next street is the street before the last (its model
then screens the plays valued exactly). Every play is valued over the same deals, drawn from
the position alone, so the same position is always played the same way and the plays differ
by their own merit rather than by their luck.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from math import comb

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.optimizer.opponents.exact import Valuation, exact_worth
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, row_moves, placements
from fantasyland.optimizer.opponents.learned.features import features
from fantasyland.optimizer.opponents.learned.network import Network
from fantasyland.optimizer.opponents.params import Dealing


class LearnedBot:
    """A policy (``positions.Policy``) that plays by ``models`` (by the streets still to come
    after the decision, 2 and up) and values finished boards by ``worth``.

    ``lookahead_deals`` (0: none) looks one street further on the streets the model decides,
    or only on ``lookahead_streets`` of them (by the streets to come after the decision),
    over that many deals of the next street (every deal when there are no more); where the
    next street is valued exactly, the ``lookahead_top`` plays of each deal the next model
    likes best are (module docstring). With ``lookahead_screen``, only that many plays, the
    ones the street's own model likes best, are looked ahead from (the first street has up
    to 232)."""

    def __init__(self, dealing: Dealing, models: Mapping[int, Network], worth: Valuation,
                 *, exact_from: int = 1, lookahead_deals: int = 0,
                 lookahead_streets: Collection[int] | None = None,
                 lookahead_top: int = 3, lookahead_screen: int | None = None) -> None:
        self.dealing = dealing
        self.models = dict(models)
        self.worth = worth
        self.exact_from = exact_from
        self.lookahead_deals = lookahead_deals
        self.lookahead_streets = None if lookahead_streets is None else set(lookahead_streets)
        self.lookahead_top = lookahead_top
        self.lookahead_screen = lookahead_screen

    def looks_ahead(self, rounds_left: int) -> bool:
        """Whether a decision ``rounds_left`` streets before the end is looked ahead from."""
        return (bool(self.lookahead_deals) and rounds_left > max(self.exact_from, 1)
                and (self.lookahead_streets is None or rounds_left in self.lookahead_streets))

    def values(self, options: np.ndarray, unseen: np.ndarray, rounds_left: int) -> np.ndarray:
        """What each of ``options`` (boards after this decision) is worth, ``rounds_left``
        streets before the end, with ``unseen`` the cards not seen."""
        if rounds_left == 0:
            return self.worth(options).value
        if rounds_left <= self.exact_from:
            return exact_worth(self.worth, options, unseen, self.dealing).value
        if self.looks_ahead(rounds_left):
            return self.looked_ahead(options, unseen, rounds_left)
        left = np.bincount(unseen, minlength=JOKER + 1)
        return self.models[rounds_left].predict(features(options, left))

    def next_deals(self, options: np.ndarray, unseen: np.ndarray, rounds_left: int
                   ) -> np.ndarray:
        """``(D, cards)``: the deals of the next street the lookahead values ``options`` over:
        every deal of the ``unseen`` cards when there are at most ``lookahead_deals``, else
        that many drawn from a seed that is a digest of the position."""
        count = self.dealing.per_round
        if comb(len(unseen), count) <= self.lookahead_deals:
            return unseen[np.array(list(combinations(range(len(unseen)), count)),
                                   dtype=np.int64).reshape(-1, count)]
        digest = hashlib.blake2b(np.ascontiguousarray(options, dtype=np.int64).tobytes()
                                 + np.ascontiguousarray(unseen, dtype=np.int64).tobytes()
                                 + bytes([rounds_left]), digest_size=16).digest()
        rng = np.random.default_rng(int.from_bytes(digest, "little"))
        order = np.argsort(rng.random((self.lookahead_deals, len(unseen))), axis=1)
        return unseen[order[:, :count]]

    def looked_ahead(self, options: np.ndarray, unseen: np.ndarray, rounds_left: int
                     ) -> np.ndarray:
        """What each of ``options`` is worth, ``rounds_left`` (2 or more) streets before the
        end: the mean over ``next_deals`` of the best next play's value (class docstring)."""
        options = np.asarray(options, dtype=np.int64).reshape(-1, 13)
        unseen = np.asarray(unseen, dtype=np.int64)
        deals = self.next_deals(options, unseen, rounds_left)
        after = rounds_left - 1
        exact = after <= self.exact_from
        keep = self.dealing.keep
        left = np.bincount(unseen, minlength=JOKER + 1)
        lefts = np.broadcast_to(left, (len(deals), len(left))).copy()
        for d, dealt in enumerate(deals):
            np.subtract.at(lefts[d], dealt, 1)
        # each deal's unseen cards after it, for the exact street: made once, not a group
        after_deal = [np.repeat(np.arange(len(left)), row) for row in lefts] if exact else []
        model = self.models[after]
        # the options grouped by their empty slots: a group's next plays are the same moves
        groups: dict[tuple, list[int]] = {}
        for i, layout in enumerate(options):
            free = tuple(tuple(s for s in ROW_SLOTS[row] if layout[s] == EMPTY)
                         for row in ROW_SLOTS)
            groups.setdefault(free, []).append(i)
        totals = np.zeros(len(options))
        for free, members in groups.items():
            picks, slots = row_moves(free, deals.shape[1], keep)
            moves = len(picks)
            # (options, deals, moves, 13): each option's board after each deal's each move
            boards = np.broadcast_to(options[members][:, None, None, :],
                                     (len(members), len(deals), moves, 13)).copy()
            boards[:, :, np.arange(moves)[:, None], slots] = deals[:, picks]
            flat = boards.reshape(-1, 13)
            of_deal = np.broadcast_to(np.arange(len(deals))[None, :, None],
                                      boards.shape[:3]).reshape(-1)
            guesses = model.predict(features(flat, lefts[of_deal])).reshape(boards.shape[:3])
            if not exact:
                totals[members] = guesses.max(axis=2).mean(axis=1)
                continue
            top = min(self.lookahead_top, moves)
            chosen = np.argsort(-guesses, axis=2, kind="stable")[:, :, :top]
            for d in range(len(deals)):
                screened = boards[:, d][np.arange(len(members))[:, None], chosen[:, d]]
                worths = exact_worth(self.worth, screened.reshape(-1, 13),
                                     after_deal[d],
                                     self.dealing).value
                totals[members] += worths.reshape(len(members), top).max(axis=1)
            totals[members] /= len(deals)
        return totals

    def __call__(self, layout: np.ndarray, new: Sequence[int], keep: int, unseen: np.ndarray,
                 rounds_left: int, rng: np.random.Generator) -> np.ndarray:
        options = placements(layout, list(new), keep)
        if (self.lookahead_screen and self.looks_ahead(rounds_left)
                and len(options) > self.lookahead_screen):
            left = np.bincount(unseen, minlength=JOKER + 1)
            guesses = self.models[rounds_left].predict(features(options, left))
            best = np.argsort(-guesses, kind="stable")[:self.lookahead_screen]
            options = options[np.sort(best)]
        return options[int(np.argmax(self.values(options, unseen, rounds_left)))]
