"""Rollouts: the rest of an ordinary hand played out from each play, by the bot.

Rollout ``i`` shuffles the unseen cards once, from the seed ``[seed, i]``, and deals every
play the same future from it (common random numbers: two plays differ by what they do with
the same cards, so their difference is measured much more closely than either value). Each
later street is played by the stronger bot's first look (``POLICY``, ``bot.choose_each``,
whose samples are shared by the plays), and the last street by the best finish under the
adviser's own valuation: the play a player who sees the last cards would make. A play's
rollout ``i`` depends on the seed, ``i``, the play and the plays still in the race beside
it, never on the process: a run is the same for any ``--workers``. (With two streets or
fewer to come it is the one the play would get alone; earlier the policy's estimate draws a
row's own cards after those of the batch's emptiest rows, so the plays beside it can change
what the policy does, though not its odds.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from fantasyland.optimizer.opponents.bot import choose_each, remaining, without
from fantasyland.optimizer.opponents.exact import Valuation as Scoring
from fantasyland.optimizer.opponents.layout import placements
from fantasyland.optimizer.opponents.params import BotParams
from fantasyland.optimizer.opponents.pools import STRONG_PARAMS, table_odds
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.ordinary.worth import Outcome, Valuation

#: First-look samples of the continuation policy: the stronger bot's valuation and estimate,
#: without its second look, which would cost ten times as much a decision.
POLICY_SAMPLES = 8


def policy(position: Position) -> BotParams:
    """The bot that plays the streets after this one."""
    return replace(STRONG_PARAMS[position.dealing.name], samples=POLICY_SAMPLES)


@dataclass(frozen=True)
class Rollouts:
    """Rollouts ``indices`` of every play: ``(plays, rollouts)`` values, fouls and the
    cards of each Fantasyland entered (0: none). Rollouts whose last street is valued over
    every last deal (``learned_rollouts``) give each rollout's share of a foul (``foul``)
    and of each entry (``entries``, by its cards) instead, and ``plain``, the outcomes as
    played, before their control variates."""

    indices: np.ndarray
    value: np.ndarray
    fouled: np.ndarray
    entry_cards: np.ndarray
    foul: np.ndarray | None = None
    entries: dict[int, np.ndarray] | None = None
    plain: np.ndarray | None = None

    @property
    def foul_shares(self) -> np.ndarray:
        """Each rollout's share of a foul: 0 or 1 as played, or its exact share."""
        return self.fouled.astype(float) if self.foul is None else self.foul

    def entry_shares(self, sizes: tuple[int, ...]) -> dict[int, np.ndarray]:
        """Each rollout's share of an entry with each of ``sizes`` cards."""
        if self.entries is None:
            return {s: (self.entry_cards == s).astype(float) for s in sizes}
        return {s: self.entries.get(s, np.zeros(self.value.shape)) for s in sizes}


def unseen_cards(position: Position) -> np.ndarray:
    """The sorted multiset of the cards the player has not seen."""
    from fantasyland.optimizer.opponents.bot import deck_counts

    counts = deck_counts(position.rules.deck)
    np.subtract.at(counts, list(position.known), 1)
    return remaining(counts)


def finish(valuation: Scoring, layouts: np.ndarray, new: np.ndarray, keep: int) -> Outcome:
    """The best finish of each of ``layouts`` with the last street's ``new`` cards (ties to
    the first), and its outcome."""
    options = [placements(layout, new.tolist(), keep) for layout in layouts]
    owners = np.repeat(np.arange(len(layouts)), [len(o) for o in options])
    out = valuation(np.concatenate(options))
    order = np.lexsort((-out.value, owners))
    best = order[np.r_[True, owners[order][1:] != owners[order][:-1]]]
    return Outcome(out.value[best], out.fouled[best], out.entry_cards[best])


def roll_out(position: Position, valuation: Valuation, layouts: np.ndarray,
             indices: np.ndarray, seed: int) -> Rollouts:
    """Rollouts ``indices`` of each of ``layouts`` (boards the position's plays leave, with
    ``position.rounds_left >= 1`` streets to come)."""
    dealing = position.dealing
    params = policy(position)
    odds = table_odds(position.rules)
    unseen = unseen_cards(position)
    rounds = position.rounds_left
    shape = (len(layouts), len(indices))
    value, fouled, entry = np.zeros(shape), np.zeros(shape, bool), np.zeros(shape, np.int64)
    for column, index in enumerate(indices.tolist()):
        rng = np.random.default_rng([seed, int(index)])
        stream = rng.permutation(unseen)
        current, left, start = np.asarray(layouts), unseen, 0
        for street in range(rounds):
            new = stream[start:start + dealing.per_round]
            start += dealing.per_round
            left = without(left, new)
            if street < rounds - 1:
                current = choose_each(position.rules, dealing, current, new.tolist(),
                                      dealing.keep, left, rounds - 1 - street, params, rng,
                                      odds=odds)
            else:
                out = finish(valuation, current, new, dealing.keep)
        value[:, column], fouled[:, column], entry[:, column] = \
            out.value, out.fouled, out.entry_cards
    return Rollouts(np.asarray(indices), value, fouled, entry)
