"""The players of the opponent model: who played a pool, and who plays what it cannot serve.

A pool's boards and the boards a solve makes live (an unfinished board finished, a hand
played from the cards left: ``optimizer.opponents.unfinished``) are one opponent's: the
player the pool's meta names (``pool_player``), who also plays the pool again when it is
rebuilt (``shipped_build``, ``build_pool``). Two kinds play:

* the heuristic bot (``optimizer.opponents.bot``), named by its knobs (``BotParams``); the
  stronger one values boards against the table's row odds, which its player holds;
* the learned bot (``optimizer.opponents.learned``), named by the game whose shipped models
  it plays and the sha256 of their file (``learned.shipped.shipped_digest``), so that a pool
  says which models played it.

A player is a ``positions.Policy`` (one decision: the layout it plays when dealt ``new``
onto ``layout``) and plays a hand whole (``play``). The heuristic player's decisions and
hands are exactly ``bot.choose``'s and ``bot.play_hand``'s, from the same generator, so the
pools it played, and their live boards, are what they were before players were data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.bot import (DEALINGS, BotParams, Dealing, PlayedHand, choose,
                                                 finished_hand, play_hand)
from fantasyland.optimizer.opponents.chunks import Chunk
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.learned.positions import play_alone
from fantasyland.optimizer.opponents.learned.shipped import learned_bot, shipped_digest
from fantasyland.optimizer.opponents.odds import RowOdds
from fantasyland.optimizer.opponents.params import params_meta, with_knobs
from fantasyland.optimizer.opponents.pools import (BOTS, LEARNED, POOL_HANDS, POOL_PARAMS,
                                                   POOL_SEED, Pool, dealing_for, play_hands,
                                                   pool_bot, pool_for, table_odds)


@dataclass(frozen=True)
class HeuristicPlayer:
    """The heuristic bot with ``params`` under ``rules``, valuing boards against ``odds``
    where it counts points at the table (``BotParams.table_points``; else None)."""

    rules: Rules
    params: BotParams
    odds: RowOdds | None = field(default=None, compare=False)  # read off rules and params

    @property
    def dealing(self) -> Dealing:
        return DEALINGS[self.rules.dealing]

    @property
    def meta(self) -> dict:
        """What a pool it played records of it."""
        return {"params": params_meta(self.params)}

    def __call__(self, layout: np.ndarray, new: Sequence[int], keep: int, unseen: np.ndarray,
                 rounds_left: int, rng: np.random.Generator) -> np.ndarray:
        return choose(self.rules, self.dealing, layout, list(new), keep, unseen, rounds_left,
                      self.params, rng, odds=self.odds)

    def play(self, cards: Sequence[Card], rng: np.random.Generator) -> PlayedHand:
        """A hand whose cards arrive in the order of ``cards`` (``dealing.seen`` of them)."""
        return play_hand(self.rules, self.dealing, cards, self.params, rng, odds=self.odds)


@dataclass(frozen=True)
class LearnedPlayer:
    """The learned bot of ``game``'s shipped models, whose file's sha256 is ``digest``. It
    plays by its game's worths whatever rules a solve is under (``progressive`` is served by
    the Pineapple pool, which Pineapple's bot played), and draws nothing from ``rng``."""

    game: Rules
    digest: str

    @property
    def dealing(self) -> Dealing:
        return DEALINGS[self.game.dealing]

    @property
    def meta(self) -> dict:
        return {"bot": LEARNED, "models": self.digest}

    def __call__(self, layout: np.ndarray, new: Sequence[int], keep: int, unseen: np.ndarray,
                 rounds_left: int, rng: np.random.Generator) -> np.ndarray:
        return np.asarray(_learned_bot(self.game)(layout, new, keep, unseen, rounds_left, rng))

    def play(self, cards: Sequence[Card], rng: np.random.Generator) -> PlayedHand:
        layout = play_alone(self.game, self.dealing, _learned_bot(self.game), cards, rng)
        return finished_hand(cards, layout)


#: A player of the opponent model.
Player = HeuristicPlayer | LearnedPlayer


def _learned_bot(game: Rules):
    """The learned bot of ``game`` (made once a process: ``learned_bot``)."""
    bot = learned_bot(game)
    if bot is None:  # a LearnedPlayer is only made for a game with models (learned_player)
        raise ValueError(f"no learned models for {game.name}")
    return bot


def learned_player(game: Rules) -> LearnedPlayer | None:
    """The learned bot of ``game`` as a player, or None where no models were learned for
    it."""
    digest = shipped_digest(game)
    return None if digest is None else LearnedPlayer(game, digest)


def heuristic(rules: Rules, params: BotParams) -> HeuristicPlayer:
    """The heuristic bot with ``params`` under ``rules``, with the row odds it values boards
    by where it counts points at the table (``table_odds``)."""
    return HeuristicPlayer(rules, params, table_odds(rules) if params.table_points else None)


def named_player(rules: Rules, bot: str, *, knobs: Sequence[str] = ()) -> Player:
    """The player a bot's name gives under ``rules``: a name of ``BOTS`` with ``knobs`` set
    (``params.with_knobs``), or ``learned``, the learned bot of ``rules``' game."""
    if bot == LEARNED:
        player = learned_player(rules)
        if player is None:
            raise OpponentModelError(f"no learned bot for {rules.name}: no models were learned "
                                     f"for its game; expected one of {', '.join(BOTS)}")
        if knobs:
            raise OpponentModelError(f"bot knob {knobs[0]!r}: the learned bot has no knobs")
        return player
    if bot not in BOTS:
        raise OpponentModelError(f"no bot {bot!r}: expected one of "
                                 f"{', '.join([*BOTS, LEARNED])}")
    return heuristic(rules, with_knobs(BOTS[bot][dealing_for(rules).name], knobs))


def pool_player(pool: Pool, rules: Rules) -> Player:
    """The player that played ``pool``, as it plays under ``rules`` (the rules it serves).

    The heuristic bot plays under ``rules`` (a pool's meta predates players: its knobs are
    all it records). The learned bot plays by the models of the game the pool was played
    for (the preset its meta names; else ``rules``' own), so that the Pineapple bot finishes
    the boards of a ``progressive`` solve, whose pool it played. Where those models are no
    longer the ones that played the pool (the meta's digest differs), the shipped ones play:
    the only learned bot there is (a test holds the shipped pools to the shipped models).
    """
    if pool.meta.get("bot") != LEARNED:
        return heuristic(rules, pool_bot(pool))
    from fantasyland.evaluator import find_rules
    from fantasyland.evaluator.errors import InputError

    games = [rules]
    try:
        games.insert(0, find_rules(pool.meta["rules"]))
    except InputError:  # a pool played under a rules file, which is not at hand
        pass
    for game in games:
        player = learned_player(game)
        if player is not None:
            return player
    raise OpponentModelError(f"the {pool.meta['rules']} pool was played by the learned bot, "
                             f"and no models were learned for {rules.name}'s game")


def live_bot(rules: Rules, pool: Pool | None) -> Player:
    """The player of the boards a solve makes live under ``rules`` (an unfinished board
    finished, a hand played where the pools hold too few boards): the one that played
    ``pool``, the pool the opponent model draws from (``pool_player``), so that live boards
    and drawn ones are one opponent; where no pool serves, the one a pool would be built by
    (``shipped_build``)."""
    return shipped_build(rules).player if pool is None else pool_player(pool, rules)


@dataclass(frozen=True)
class Build:
    """How a pool is played: its player, the pool seed and the hands."""

    player: Player
    seed: int
    hands: int


def shipped_build(rules: Rules) -> Build:
    """How the shipped pool that serves ``rules`` was played, as its meta records it (its
    player, ``pool_player``; its seed; its size), so that rebuilding it plays it again; where
    no pool serves, the learned bot of ``rules``' game if it has one, else the first bot
    (``POOL_PARAMS``), with ``POOL_SEED`` and ``POOL_HANDS``."""
    dealing = dealing_for(rules)
    try:
        pool = pool_for(rules)
    except OpponentModelError:
        player = learned_player(rules) or heuristic(rules, POOL_PARAMS[dealing.name])
        return Build(player, POOL_SEED, POOL_HANDS[dealing.name])
    return Build(pool_player(pool, rules), pool.meta["seed"], len(pool))


def build_pool(rules: Rules, *, hands: int | None = None, seed: int | None = None,
               workers: int = 1, progress: Callable[[int], None] | None = None,
               bot: str | None = None, directory: str | Path | None = None,
               saved_only: bool = False,
               chunk_done: Callable[[Chunk, float | None], None] | None = None,
               knobs: Sequence[str] = ()) -> Pool:
    """A fresh pool for ``rules`` played by ``bot`` (a name of ``BOTS``, or ``learned``), with
    ``knobs`` (``NAME=VALUE``, ``params.with_knobs``) set. What is not given is as the
    shipped pool that serves ``rules`` was played (``shipped_build``: its player, seed and
    size), so the shipped ones are ``build_pool(find_rules(name))``. ``directory`` saves its
    chunks and resumes from them, ``saved_only`` assembles them, playing none
    (``play_hands``)."""
    dealing = dealing_for(rules)
    if bot is not None:
        player = named_player(rules, bot, knobs=knobs)
    shipped = shipped_build(rules)
    hands = shipped.hands if hands is None else hands
    if hands < 1:
        raise OpponentModelError(f"need hands >= 1, got {hands}")
    if bot is None:
        player = shipped.player
        if knobs:
            if not isinstance(player, HeuristicPlayer):
                raise OpponentModelError(f"bot knob {knobs[0]!r}: the learned bot has no knobs")
            player = heuristic(rules, with_knobs(player.params, knobs))
    return play_hands(rules, dealing, hands, shipped.seed if seed is None else seed,
                      player=player, workers=workers, progress=progress, directory=directory,
                      saved_only=saved_only, chunk_done=chunk_done)
