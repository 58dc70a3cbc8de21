"""Rollouts by the learned bot, its model's value of each street as a control variate.

Where a learned value of the rules' game is shipped (``optimizer.opponents.learned``), the
rest of the hand is played out from each play by the bot that plays by it: on each street
the placement the model of that street likes best. Rollout ``i`` deals every play the same
cards, from the seed ``[seed, i]``, as the heuristic bot's rollouts do (common random
numbers).

A rollout's outcome swings with the luck of its deals. Most of that swing the model sees
coming, so it is taken out, street by street, without moving the mean:

* on a street played by the model, from board ``s``, let ``f(d)`` be the model's value of
  the best placement of deal ``d`` on ``s`` (what the bot plays). The street's luck is
  ``f(d)`` of the deal dealt less the mean of ``f`` over ``OTHER_DEALS`` other deals drawn
  from the same unseen cards. Given ``s``, the deal dealt and each other deal are drawn
  alike, so the luck's expectation is 0 whatever the model's errors;
* on the last street, from board ``s`` one street from the end, ``g(d)`` is the value of
  the best finish of ``d`` by the learned value's worth (``labels.Worth``), whose mean over
  every last deal is known exactly (``optimizer.opponents.exact``): the luck is ``g(d)``
  less that mean, zero-mean again. Under the royalties objective the outcome is ``g(d)``
  itself, so the last street's outcome becomes its exact mean.

The estimate of a rollout is its outcome less the lucks of all its streets (those the model
measures at the fixed share ``SHARE``): its expectation is the outcome's, so the mean of the
rollouts is unbiased. A coefficient fixed in advance adds no bias; one fitted to the same
rollouts would. The last street's
chances of a foul and of each entry are corrected the same way, by the exact chances of the
best finish by worth. The outcome itself is the best finish under the adviser's valuation,
as the heuristic bot's rollouts play it.
"""

from __future__ import annotations

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.opponents.exact import exact_worth
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, row_moves
from fantasyland.optimizer.opponents.learned.bot import LearnedBot
from fantasyland.optimizer.opponents.learned.features import features
from fantasyland.optimizer.opponents.learned.shipped import learned_bot
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.ordinary.rollouts import Rollouts, finish, unseen_cards
from fantasyland.optimizer.ordinary.worth import Valuation

#: Other deals of each street played by the model whose mean value is the street's
#: expected one (its luck is the deal dealt less that mean).
OTHER_DEALS = 4
#: The share of a street's luck taken out where the model measures it (the last street's,
#: measured exactly, is taken out whole). Its measure is noisy (a mean over a few deals),
#: so less than all of it is taken out; the share is fixed, not fitted to the rollouts, so
#: the mean stays unbiased (docs/notes-learned.md gives the spreads it was chosen by).
SHARE = 0.8


def best_placements(bot: LearnedBot, boards: np.ndarray, deals: np.ndarray, left: np.ndarray,
                    to_come: int, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``boards`` (``(P, 13)``) and each of its ``deals`` (``(P, D, cards)``):
    the placement the bot plays (``(P, D, 13)``) and its value (``(P, D)``), ``to_come``
    streets before the end, ``left`` (``(P, 53)``) each board's unseen cards before the deal
    (counts). Ties go to the first move (``layout.row_moves``' order); a deck without copies
    of a card lists each board once."""
    options, lefts, sizes = [], [], []
    for board, dealt, counts in zip(boards, deals, left):
        # every deal of a board fills the same empty slots: its moves, applied to all deals
        free = tuple(tuple(s for s in ROW_SLOTS[row] if board[s] == EMPTY) for row in ROWS)
        picks, slots = row_moves(free, deals.shape[2], keep)
        placed = np.broadcast_to(board, (len(dealt), len(picks), 13)).copy()
        placed[:, np.arange(len(picks))[:, None], slots] = dealt[:, picks]
        options.append(placed.reshape(-1, 13))
        lefts.append(counts - _counts(dealt))
        sizes += [len(picks)] * len(dealt)
    every = np.concatenate(options)
    owner = np.repeat(np.arange(len(sizes)), sizes)
    unseen = np.concatenate(lefts)  # (boards x deals, 53)
    if to_come in bot.models:
        value = bot.models[to_come].predict(features(every, np.repeat(unseen, sizes, axis=0)))
    else:  # no model of that street: its worth over every last deal (slower)
        value = np.concatenate([bot.values(o, _cards(c), to_come) for o, c in
                                zip(np.split(every, np.cumsum(sizes)[:-1]), unseen)])
    order = np.lexsort((-value, owner))
    first = order[np.r_[True, owner[order][1:] != owner[order][:-1]]]
    shape = deals.shape[:2]
    return every[first].reshape(*shape, 13), value[first].reshape(shape)


def _counts(deals: np.ndarray) -> np.ndarray:
    """``(D, 53)``: the cards of each of ``deals`` (``(D, n)``) as counts."""
    out = np.zeros((len(deals), JOKER + 1), dtype=np.int64)
    np.add.at(out, (np.repeat(np.arange(len(deals)), deals.shape[1]), deals.reshape(-1)), 1)
    return out


def _cards(counts: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(len(counts)), counts)


def roll_out_learned(position: Position, valuation: Valuation, layouts: np.ndarray,
                     indices: np.ndarray, seed: int, *, other_deals: int = OTHER_DEALS
                     ) -> Rollouts:
    """Rollouts ``indices`` of each of ``layouts`` (boards the position's plays leave, with
    ``position.rounds_left >= 1`` streets to come), by the learned bot, each outcome less
    its streets' luck, measured against ``other_deals`` other deals (module docstring)."""
    bot = learned_bot(position.rules)
    if bot is None:
        raise ValueError(f"no learned value of {position.rules.name} is shipped")
    dealing = position.dealing
    per_round, keep = dealing.per_round, dealing.keep
    unseen = unseen_cards(position)
    rounds = position.rounds_left
    sizes = position.rules.entry_sizes
    plays, runs = len(layouts), len(indices)
    # every rollout's generator, its shuffle of the unseen cards, and then its other deals,
    # street by street: a rollout draws the same whatever rollouts share its batch
    rngs = [np.random.default_rng([seed, int(index)]) for index in indices.tolist()]
    streams = np.stack([rng.permutation(unseen) for rng in rngs])
    current = np.broadcast_to(np.asarray(layouts), (runs, plays, 13)).copy()
    left = np.broadcast_to(np.bincount(unseen, minlength=JOKER + 1), (runs, JOKER + 1)).copy()
    luck = np.zeros((runs, plays))
    for street in range(rounds - 1):
        new = streams[:, street * per_round:(street + 1) * per_round]
        deals = np.stack([np.concatenate([new[r][None], np.stack(
            [rng.choice(_cards(left[r]), per_round, replace=False)
             for _ in range(other_deals)])]) for r, rng in enumerate(rngs)])  # (runs, 1+K, n)
        boards, worth = best_placements(
            bot, current.reshape(-1, 13), np.repeat(deals, plays, axis=0),
            np.repeat(left, plays, axis=0), rounds - 1 - street, keep)
        boards = boards.reshape(runs, plays, 1 + other_deals, 13)
        worth = worth.reshape(runs, plays, 1 + other_deals)
        luck += SHARE * (worth[:, :, 0] - worth[:, :, 1:].mean(axis=2))
        current = boards[:, :, 0]
        for r in range(runs):
            np.subtract.at(left[r], new[r], 1)
    shape = (plays, runs)
    value, plain, foul = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    fouled, entry = np.zeros(shape, bool), np.zeros(shape, np.int64)
    entries = {s: np.zeros(shape) for s in sizes}
    last = (rounds - 1) * per_round
    for r in range(runs):
        new = streams[r, last:last + per_round]
        out = finish(valuation, current[r], new, keep)
        mine = finish(bot.worth, current[r], new, keep)
        exact = exact_worth(bot.worth, current[r], _cards(left[r]), dealing)
        plain[:, r] = out.value
        value[:, r] = out.value - luck[r] - (mine.value - exact.value)
        foul[:, r] = out.fouled - (mine.fouled - exact.foul_chance)
        for s in sizes:
            entries[s][:, r] = (out.entry_cards == s) - (
                (mine.entry_cards == s) - exact.entry_chances.get(s, 0.0))
        fouled[:, r], entry[:, r] = out.fouled, out.entry_cards
    return Rollouts(np.asarray(indices), value, fouled, entry, foul, entries, plain)
