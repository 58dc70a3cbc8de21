"""Who plays the rollouts of ``advise``: the learned bot where a model of the game is shipped,
the heuristic bot elsewhere, or when asked for.

Light on purpose: the command line names the choice (``--bot``) without loading either bot.
"""

from __future__ import annotations

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import Rules, Word


class RolloutBot(Word):
    """Who plays the rollouts: the ``learned`` bot (where a model of the game is shipped),
    or the ``heuristic`` bot, the only one for games without a model."""

    LEARNED = "learned"
    HEURISTIC = "heuristic"


class BotError(InputError):
    """The learned bot asked for in a game without a shipped model."""


def rollout_bot(rules: Rules, *, asked: RolloutBot | None = None) -> RolloutBot:
    """Who plays ``rules``' rollouts: the learned bot where a model of its game is shipped,
    unless the heuristic one is ``asked`` for. Raises ``BotError`` for the learned bot of a
    game without a model."""
    from fantasyland.optimizer.opponents.learned.shipped import learned_bot

    if asked == RolloutBot.HEURISTIC:
        return RolloutBot.HEURISTIC
    if learned_bot(rules) is not None:
        return RolloutBot.LEARNED
    if asked == RolloutBot.LEARNED:
        raise BotError(f"bad bot 'learned': no learned model of {rules.name} is shipped; "
                       "expected heuristic")
    return RolloutBot.HEURISTIC
