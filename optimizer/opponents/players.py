"""The players of the opponent model: who played a pool, and who plays what it cannot serve.

A pool's boards and the boards a solve makes live (an unfinished board finished, a hand
played from the cards left: ``optimizer.opponents.unfinished``) are one opponent's: the
player the pool's meta names (``pools.pool_player``). Two kinds play:

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

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.bot import (DEALINGS, BotParams, Dealing, PlayedHand, choose,
                                                 finished_hand, play_hand)
from fantasyland.optimizer.opponents.memo import by_identity
from fantasyland.optimizer.opponents.odds import RowOdds
from fantasyland.optimizer.opponents.params import params_meta

#: What a pool's meta says under ``bot`` when the learned bot played it (a pool the
#: heuristic bot played records its knobs under ``params`` instead, as pools always did).
LEARNED = "learned"


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
        from fantasyland.optimizer.opponents.learned.positions import play_alone

        layout = play_alone(self.game, self.dealing, _learned_bot(self.game), cards, rng)
        return finished_hand(cards, layout)


#: A player of the opponent model.
Player = HeuristicPlayer | LearnedPlayer


@by_identity
def _learned_bot(game: Rules):
    """The learned bot of ``game``, loaded once a process (a worker loads its own)."""
    from fantasyland.optimizer.opponents.learned.shipped import learned_bot

    bot = learned_bot(game)
    if bot is None:  # a LearnedPlayer is only made for a game with models (learned_player)
        raise ValueError(f"no learned models for {game.name}")
    return bot


def learned_player(game: Rules) -> LearnedPlayer | None:
    """The learned bot of ``game`` as a player, or None where no models were learned for
    it."""
    from fantasyland.optimizer.opponents.learned.shipped import shipped_digest

    digest = shipped_digest(game)
    return None if digest is None else LearnedPlayer(game, digest)
