"""Opponent boards for the expected-value objective: a seeded sample, with card removal.

At solve time ``opponent_boards`` draws from the pool that serves the rules
(``optimizer.opponents.pools``) the boards that are consistent with the Fantasyland player's dealt
cards: boards whose player *saw* none of them, after relabelling suits. Each of the 24
relabellings of a pool board is as likely as the board itself, so the relabelled boards that
avoid the dealt cards are draws from the bot's play from the reduced deck (the bot never
knows the other players' cards, so its play from the reduced deck is its play from the full
deck, given that it never sees a dealt card). When too few boards qualify, the draw falls
back to boards whose *placed* 13 cards avoid the dealt ones (their discards may not), and
then to drawing with replacement; docs/ev-and-opponents.md gives the measured error of the fallback.
Rules that set ``opponents.mean_royalties`` (a rules file's option; of the presets only
``double-deck``, whose pool the heuristic bot played) weight the boards
(``optimizer.opponents.calibration``), which are then drawn with replacement, each in
proportion to its weight. The module also gives the figures of the opponent model (``bot_stats``).

The pool is itself a sample of the bot's play, so a draw's mean carries the pool's error
besides the spread of the boards drawn: each draw says how much its mean leans on each
pool board (``PoolShare``), which ``optimizer.solver.ev`` turns into that error
(docs/ev-and-opponents.md, "How sure the EV is"). The environment variable
``FANTASYLAND_POOL`` names a pool file that serves in place of the shipped one for the
rules it fits (``serving_pool``), so that a solve can be run against another pool.

The deck is the rules' (``Rules.deck``) and the pool's. Under one plain deck a card is in
the dealt hand or not, and boards are matched by bitmasks. Under any other deck removal
counts copies: a board fits the dealt hand when no card (each face, and the joker) is used
more often, by the board and the hand together, than the deck holds it. So under two decks
one ``As`` in the hand leaves one for the opponents, and a joker in the hand leaves the
other; the face a board's joker plays as is no card of the deck and is never matched.

Several opponents' boards are drawn each on its own (``opponent_boards``): the EV is a sum
over opponents of each one's points, and each one's boards follow its own distribution
given the dealt hand exactly. Two boards of one deal may together use a card more often
than the deck holds it (docs/ev-and-opponents.md, "Three-handed and more"), which changes
the spread of a deal's total but not its mean. As many opponents sit at the table as the
deck seats (``max_opponents``): three in classic OFC, five under two decks of Pineapple.
What else is known at the table (boards seen, opponents in Fantasyland, dead cards) is
``optimizer.solver.table``'s.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np

from fantasyland.evaluator.board_arrays import BoardArrays, evaluate_boards
from fantasyland.evaluator.cards import JOKER, ONE_DECK, CardError, Deck
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.optimizer.opponents.calibration import (Calibration, board_features, features_of,
                                              fit_features)
from fantasyland.optimizer.opponents.compatible import candidate_pairs, pool_bytes
from fantasyland.optimizer.opponents.errors import CalibrationError, OpponentModelError
from fantasyland.optimizer.opponents.players import Player, live_bot, named_player
from fantasyland.optimizer.opponents.pools import (PERMUTATIONS, Pool, dealing_for, dealt_from,
                                                   load_pool, play_hands, pool_for, relabel,
                                                   shipped_pools)

# --- drawing boards --------------------------------------------------------------------------

def max_opponents(rules: Rules) -> int:
    """How many opponents the EV objective plays against at most under ``rules``: the
    players the rules' deck seats less one (``Rules.seats``): 2 in Pineapple from one deck,
    3 in classic OFC (four players), 5 from two decks of Pineapple (docs/rules.md)."""
    return rules.seats - 1


def dealt_array(dealt: Sequence[int], *, deck: Deck = ONE_DECK) -> np.ndarray:
    """The dealt card ids as an array, once it is known they are cards of ``deck``: distinct
    ids 0..51 under one plain deck; else ids 0..51 and ``JOKER``, none more often than the
    deck holds it."""
    cards = np.asarray(list(dealt), dtype=np.int64)
    if deck == ONE_DECK or cards.ndim != 1:
        if cards.ndim != 1 or len(set(cards.tolist())) != len(cards) \
                or (len(cards) and (cards.min() < 0 or cards.max() > 51)):
            raise CardError(f"dealt cards must be distinct ids 0..51, got {list(dealt)!r}")
        return cards
    if len(cards) and (cards.min() < 0 or cards.max() > JOKER):
        raise CardError(f"dealt cards must be ids 0..51 or {JOKER} (a joker), got "
                        f"{list(dealt)!r}")
    deck.check(cards.tolist())
    return cards


#: The environment variable that names a pool file to serve in place of the shipped one.
POOL_VARIABLE = "FANTASYLAND_POOL"


def serving_pool(rules: Rules) -> Pool:
    """The pool the EV objective draws from under ``rules``: the file ``FANTASYLAND_POOL``
    names where it serves the rules (``pool_for``), else the shipped pool that does."""
    named = os.environ.get(POOL_VARIABLE)
    if not named:
        return pool_for(rules)
    path = Path(named).expanduser().resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as error:
        raise OpponentModelError(f"{POOL_VARIABLE}={named!r}: no pool file there "
                                 f"({error.strerror})") from None
    return pool_for(rules, pools=(_pool_file(str(path), stamp),) + shipped_pools())


def serving_bot(rules: Rules) -> Player:
    """The player of what a solve under ``rules`` cannot draw (``pools.live_bot``): the one
    that played the pool that serves them (the heuristic bot or the learned one), or the one
    a pool would be built by where none does."""
    try:
        pool = serving_pool(rules)
    except OpponentModelError:
        pool = None
    return live_bot(rules, pool)


def prepare(rules: Rules) -> None:
    """Load what the first draw of a process under ``rules`` would: the pool that serves
    them, its weights and the tables that match a dealt hand against it (a few tenths of a
    second for Pineapple's 316,000 boards), so that a solve can time its own work; nothing
    where no pool serves, or under closed dealing (the draw says why, or needs none)."""
    if rules.dealing.closed:
        return
    try:
        pool = serving_pool(rules)
        pool_weights(pool, rules)
    except OpponentModelError:
        return
    if pool.deck == ONE_DECK:
        pool_bytes(pool)


@cache
def _pool_file(path: str, stamp: int) -> Pool:  # keyed by mtime too: a rebuilt file reloads
    try:
        return load_pool(path)
    except (OSError, ValueError, KeyError) as error:
        raise OpponentModelError(f"{POOL_VARIABLE}={path!r}: not a pool file ({error})") \
            from None


@dataclass(frozen=True, eq=False)
class PoolShare:
    """How a draw's mean leans on the pool: the pool boards it chose from, and each one's
    share of the draw's expected mean, tier by tier (docs/ev-and-opponents.md, "How sure
    the EV is").

    A tier is a set of candidate boards drawn in proportion to their shares: the exact
    pairs, then the placed-only ones. ``shares[i, t]`` is board ``i``'s share of tier
    ``t`` (its weight, or 1, times the relabellings of it the tier holds, over the tier's
    total), so each column sums to 1 (or is empty); ``mix[t]`` is the tier's share of the
    draws. The boards are as the pool stores them: a relabelling changes no row's value,
    royalty or foul, so all relabellings of one pool board are one board here.
    """

    boards: np.ndarray  # (m, 13) the distinct pool boards drawn from, as they play
    shares: np.ndarray  # (m, tiers)
    mix: np.ndarray  # (tiers,)
    seats: int = 1  # opponents of a deal drawn from the pool, each from the same mix

    @property
    def effective_boards(self) -> float:
        """Kish's effective number of independent pool boards behind the mean."""
        share = self.shares @ self.mix
        return float(1 / (share ** 2).sum()) if len(share) else 0.0


@dataclass(frozen=True)
class Draw:
    """Boards drawn for one dealt hand, and how they were found."""

    boards: np.ndarray  # (samples, opponents, 13)
    exact: int  # (board, relabelling) pairs whose player saw no dealt card
    relaxed: int  # pairs whose placed cards avoid the dealt ones (discards may not)
    # "exact": every board from the exact pairs; "relaxed": the exact pairs (each once, or
    # as often on average when weighted) and the rest placed-only; "with replacement": an
    # unweighted draw from both with repeats, there being too few. A weighted draw is always
    # with replacement, and "exact" or "relaxed".
    tier: str
    share: PoolShare  # what the draw's mean leans on in the pool


def pair_boards(pool: Pool, pairs: np.ndarray) -> np.ndarray:
    """The boards that ``board * 24 + relabelling`` names, as they play (jokers as faces)."""
    return relabel(pool.boards[pairs // 24], PERMUTATIONS[pairs % 24])


def pair_jokers(pool: Pool, pairs: np.ndarray) -> np.ndarray:
    """``(len(pairs), 13)`` bool: the slots of those boards that hold a joker."""
    if pool.jokers is None:
        return np.zeros((len(pairs), 13), dtype=bool)
    return pool.jokers[pairs // 24]


@cache
def pool_calibration(pool: Pool, rules: Rules) -> Calibration | None:
    """The weighting of ``pool``'s boards that makes the opponent model under ``rules``
    average their ``opponent_royalties`` (``optimizer.opponents.calibration``), or None where
    the rules set none and the boards are used as the bot played them."""
    if rules.opponent_royalties is None:
        return None
    try:
        return fit_features(rules, pool_features(pool, rules), rules.opponent_royalties)
    except CalibrationError as error:  # named as a bad key of the rules file is at load time
        raise CalibrationError(
            f"{rules.source or rules.name}: opponents.mean_royalties = "
            f"{rules.opponent_royalties:g} is out of reach of the {pool.meta['rules']} pool: "
            f"{error.reason}", error.reason) from None


@cache
def pool_features(pool: Pool, rules: Rules) -> np.ndarray:
    """The ``board_features`` of ``pool``'s boards under ``rules``: evaluated once, for the
    fit and the weights alike (a pool for card removal holds some 300,000 boards)."""
    return board_features(rules, pool.boards)


@cache
def pool_weights(pool: Pool, rules: Rules) -> np.ndarray | None:
    """Each board's weight in the opponent model under ``rules`` (None: all alike)."""
    calibration = pool_calibration(pool, rules)
    return None if calibration is None else calibration.weights_of(pool_features(pool, rules))


def model_name(rules: Rules) -> str:
    """What the EV objective plays against under ``rules``, in words that change whenever
    the boards would: the pool (its rules, size, seed and a digest of its boards, which a
    rebuild by another bot changes) and its calibration; under closed dealing, the model
    that sets every hand (``optimizer.opponents.closed``) and a digest of its worths."""
    if rules.dealing.closed:
        from fantasyland.optimizer.opponents.closed import model_worths

        worths = model_worths(rules).table
        digest = hashlib.sha256(np.ascontiguousarray(worths).tobytes()).hexdigest()
        return f"the closed-hand model of {rules.name} (worths digest {digest[:12]})"
    pool = serving_pool(rules)
    calibration = pool_calibration(pool, rules)
    weighted = "" if calibration is None else (
        f", weighted to {calibration.target_royalties:g} mean royalties")
    digest = hashlib.sha256(np.ascontiguousarray(pool.boards, np.int64).tobytes()).hexdigest()
    return (f"the {pool.meta['rules']} pool of {len(pool)} boards (seed {pool.meta['seed']}, "
            f"digest {digest[:12]}){weighted}")


def _weighted(rng: np.random.Generator, pairs: np.ndarray, count: int,
              weights: np.ndarray) -> np.ndarray:
    """``count`` of ``pairs`` drawn with replacement, each in proportion to its board's
    weight."""
    if count == 0:
        return pairs[:0]
    chance = weights[pairs // 24]
    return rng.choice(pairs, count, replace=True, p=chance / chance.sum())


def pool_share(pool: Pool, tiers: Sequence[np.ndarray], mix: Sequence[float],
               *, weights: np.ndarray | None = None) -> PoolShare:
    """The ``PoolShare`` of a draw from ``tiers`` (arrays of pairs, ``board * 24 +
    relabelling``) in the proportions ``mix``, each pair drawn in proportion to its board's
    weight (or alike)."""
    kept = [t for t, share in enumerate(mix) if share > 0]  # a tier not drawn from counts not
    tiers, mix = [tiers[t] for t in kept], [mix[t] for t in kept]
    every = np.concatenate([t // 24 for t in tiers])
    boards, where = np.unique(every, return_inverse=True)
    shares = np.zeros((len(boards), len(tiers)))
    start = 0
    for t, tier in enumerate(tiers):
        index = where[start:start + len(tier)]
        start += len(tier)
        chance = np.ones(len(tier)) if weights is None else weights[tier // 24]
        np.add.at(shares[:, t], index, chance)
        if chance.sum() > 0:
            shares[:, t] /= chance.sum()
    return PoolShare(pool.boards[boards], shares, np.asarray(mix, dtype=float))


def draw_boards(pool: Pool, dealt: np.ndarray, count: int, seed: int,
                *, weights: np.ndarray | None = None,
                pairs: tuple[np.ndarray, np.ndarray] | None = None) -> Draw:
    """``count`` boards from ``pool`` that avoid ``dealt`` (see the module docstring).

    With ``weights`` (one per pool board: ``pool_weights``) the boards are drawn with
    replacement, each with a chance in proportion to its weight (a draw without replacement
    could not give the heaviest boards their share), in the same mix as without weights:
    all ``count`` from the exact pairs while there are that many, else as many from them as
    there are and the rest from the placed-only pairs. ``pairs`` are ``candidate_pairs(pool,
    dealt)`` where the caller has them already.
    """
    exact_pairs, relaxed_pairs = candidate_pairs(pool, dealt) if pairs is None else pairs
    if len(exact_pairs) + len(relaxed_pairs) == 0:
        raise OpponentModelError("no pool board avoids the dealt cards")
    rng = np.random.default_rng(seed)
    # Each way of drawing, with the tiers it draws from and their shares of its mean (an
    # unweighted draw without replacement takes every exact pair alike, on average).
    tiers: tuple[np.ndarray, ...] = (exact_pairs, relaxed_pairs)
    mix: tuple[float, ...] | None = None
    if weights is not None:
        from_exact = min(count, len(exact_pairs)) if relaxed_pairs.size else count
        chosen = _weighted(rng, exact_pairs, from_exact, weights)
        if from_exact < count:
            extra = _weighted(rng, relaxed_pairs, count - from_exact, weights)
            chosen = rng.permutation(np.concatenate([chosen, extra]))
        tier = "exact" if from_exact == count else "relaxed"
        mix = (from_exact / count, 1 - from_exact / count)
    elif len(exact_pairs) >= count:
        chosen, tier = rng.choice(exact_pairs, count, replace=False), "exact"
    elif len(exact_pairs) + len(relaxed_pairs) >= count:
        extra = rng.choice(relaxed_pairs, count - len(exact_pairs), replace=False)
        chosen, tier = rng.permutation(np.concatenate([exact_pairs, extra])), "relaxed"
    else:
        every = np.concatenate([exact_pairs, relaxed_pairs])
        chosen, tier = rng.choice(every, count, replace=True), "with replacement"
        tiers, mix = (every,), (1.0,)
    if mix is None:
        mix = (len(exact_pairs) / count, 1 - len(exact_pairs) / count) if tier == "relaxed" \
            else (1.0, 0.0)
    return Draw(pair_boards(pool, chosen), len(exact_pairs), len(relaxed_pairs), tier,
                pool_share(pool, tiers, mix, weights=weights))


def opponent_boards(rules: Rules, dealt: Sequence[int], samples: int, opponents: int,
                    seed: int) -> np.ndarray:
    """``opponent_draw``'s boards."""
    return opponent_draw(rules, dealt, samples, opponents, seed)[0]


def opponent_draw(rules: Rules, dealt: Sequence[int], samples: int, opponents: int,
                  seed: int) -> tuple[np.ndarray, PoolShare | None]:
    """``(samples, opponents, 13)`` int64 card ids, each board laid out top(3) middle(5)
    bottom(5), and what their mean leans on in the pool (``PoolShare``, every opponent's
    seat drawn from it; None under closed dealing, which draws from no pool).

    Deterministic for the same arguments. Each board fits the deck with the dealt cards
    (under one plain deck: holds none of them); a board's jokers are the faces they play as
    (``optimizer.opponents.pools``). Fouled boards are included at the bot's own rate (which
    calibration holds). Each opponent's board is drawn on its own from the same pool (the
    module docstring), up to ``max_opponents`` opponents.
    """
    cards = dealt_array(dealt, deck=rules.deck)
    if samples < 1 or not 1 <= opponents <= max_opponents(rules):
        raise OpponentModelError(f"need samples >= 1 and 1 to {max_opponents(rules)} opponents "
                                 f"(from {rules.deck.decks} deck{'s' * (rules.deck.decks > 1)}),"
                                 f" got {samples} and {opponents}")
    if rules.dealing.closed:  # classic Chinese Poker: each hand set at once, exactly
        from fantasyland.optimizer.opponents.closed import opponent_boards as closed_boards

        return closed_boards(rules, cards, samples, opponents, seed), None  # no pool
    pool = serving_pool(rules)
    draw = draw_boards(pool, cards, samples * opponents, seed, weights=pool_weights(pool, rules))
    return draw.boards.reshape(samples, opponents, 13), replace(draw.share, seats=opponents)


# --- statistics ------------------------------------------------------------------------------

def board_stats(rules: Rules, boards: np.ndarray, *, weights: np.ndarray | None = None) -> dict:
    """Foul rate, Fantasyland-entry rate and mean royalties (fouls count 0) of boards, each
    board counting by its weight when ``weights`` are given; then ``effective_boards`` is
    Kish's effective number of boards, and the standard errors are those of a ratio
    estimate, ``sqrt(sum share^2 (x - mean)^2)``, which counts that the weights follow the
    figures they average (without weights, the usual ``sd / sqrt(n)``)."""
    return _figures(evaluate_boards(boards, rules), weights)


def _figures(out: BoardArrays, weights: np.ndarray | None = None) -> dict:
    """``board_stats`` of boards already evaluated."""
    n = len(out.fouled)
    share = np.full(n, 1 / n) if weights is None else weights / weights.sum()
    effective = 1 / (share ** 2).sum()
    entered = (out.entry_cards > 0).astype(float)
    fouled = out.fouled.astype(float)
    entries_fouled = out.entry_lost.astype(float)
    royalties = out.royalty_total.astype(float)

    def mean(x):
        return float(share @ x)

    def error(x):  # the standard error of a (weighted) mean
        return float(np.sqrt(share ** 2 @ (x - share @ x) ** 2))

    standing = share * (1 - fouled)
    figures = {
        "boards": n,
        "foul_rate": mean(fouled),
        "fantasyland_rate": mean(entered),
        "mean_royalties": mean(royalties),
        "royalties_when_not_fouled": float(standing @ royalties / standing.sum())
        if standing.sum() else 0.0,
        # standard errors, so a reader can tell noise from a difference
        "foul_rate_se": error(fouled),
        "fantasyland_rate_se": error(entered),
        "mean_royalties_se": error(royalties),
        # boards whose rows make an entry but foul: the chases that failed
        "entries_fouled_rate": mean(entries_fouled),
        "entries_fouled_rate_se": error(entries_fouled),
        "row_royalties": {row: mean(out.royalties[row]) for row in ROWS},
    }
    if weights is not None:
        figures["effective_boards"] = float(effective)
    return figures


def bot_stats(rules: Rules, boards: int, seed: int, *, live: bool = False,
              workers: int = 1, bot: str | None = None) -> dict:
    """Calibration figures of the opponent model under ``rules``.

    By default from ``boards`` boards drawn (seeded, without card removal) from the pool that
    serves ``rules``; with ``live`` from ``boards`` hands the bot plays now (slow: about an
    eighth of a second of CPU a hand, in ``workers`` processes, which change nothing of the
    result), played by ``bot`` (a name of ``pools.BOTS``, or ``learned``; by default the bot
    that played the pool, ``serving_bot``). ``source`` in the result says which. The top-level
    figures are the opponent model's, the boards weighted as the EV objective weights them
    (``optimizer.opponents.calibration``); ``bot_play`` has the same figures of the bot's own
    play, and ``calibration`` the target (None where the pool has none, and both sets agree).
    """
    if boards < 1:
        raise OpponentModelError(f"need boards >= 1, got {boards}")
    try:
        served = serving_pool(rules)
    except OpponentModelError:  # live play needs no pool, and is then used as it is
        served = None
    calibration = None if served is None else pool_calibration(served, rules)
    if live:
        dealing = dealing_for(rules)
        player = serving_bot(rules) if bot is None else named_player(rules, bot)
        played = play_hands(rules, dealing, boards, seed, player=player, workers=workers).boards
        where: dict[str, object] = {"source": "live",
                                    "dealing": dealt_from(dealing.name, rules.deck)}
    else:
        pool = serving_pool(rules)
        if boards > len(pool):  # drawn again, boards would count twice and the errors shrink
            raise OpponentModelError(
                f"bad hands {boards}: the {pool.meta['rules']} pool holds {len(pool)} (a board "
                "a hand); ask for at most that many, or play fresh hands with --live")
        rng = np.random.default_rng(seed)
        played = pool.boards[rng.choice(len(pool), boards, replace=False)]
        where = {"source": "pool", "dealing": dealt_from(pool.dealing.name, pool.deck),
                 "pool_size": len(pool),
                 "pool_rules": pool.meta["rules"]}
    out = evaluate_boards(played, rules)  # once, for both sets of figures and the weights
    bot_play = _figures(out)
    if calibration is None:
        return bot_play | where | {"bot_play": bot_play, "calibration": None}
    model = _figures(out, calibration.weights_of(features_of(out)))
    return model | where | {"bot_play": bot_play, "calibration": {
        "target_mean_royalties": calibration.target_royalties}}
