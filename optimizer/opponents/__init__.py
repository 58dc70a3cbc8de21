"""The opponent model: the bot that plays ordinary hands, its pools of boards, and the draw.

Owns the bot (``bot``, ``estimate``, ``layout``, ``params``), the shipped pools of its boards
(``pools``, ``data/``), their calibration (``calibration``) and the seeded draw with card
removal (``draw``, ``compatible``, ``removal``). Imports only ``evaluator``: the solver asks
it for boards, never the other way round.

Its face is ``__all__``: what the command line and the browser app use, which import it from
here and never from a module below (tests/test_architecture.py). Each name loads its module
on first use, so that importing the package costs nothing. The bots' laboratory (bots
against each other, ``head_to_head``; a decision against its own best, ``audit``; a
candidate's knobs, ``params.with_knobs``) is no part of the face: tools/bots.py drives it.
"""

from __future__ import annotations

from fantasyland.evaluator.faces import lazy_face

#: Each name of the face and the module that defines it (``module:name`` where the face
#: renames it: a module named as its function would hide the function once imported).
_FACE = {
    "OpponentModelError": "errors",
    # the bot's pools
    "CHUNK": "pools", "POOL_SEED": "pools", "build_pool": "players", "dealing_for": "pools",
    "load_pool": "pools", "pool_file_name": "pools", "shipped_build": "players",
    # the draw, its figures and checks
    "bot_stats": "draw", "serving_pool": "draw", "FIGURES": "coverage",
    "pool_coverage": "coverage", "removal_check": "removal",
    # the learned value of the ordinary hand, rebuilt from a seed
    "LearnError": "learned.rebuild", "LearnPlan": "learned.rebuild:Plan",
    "LearnRound": "learned.rebuild:Round", "rebuild_learned": "learned.rebuild:rebuild",
    "shipped_learned_digest": "learned.shipped:shipped_digest",
    # classic Chinese Poker's model
    "CLOSED_HANDS": "closed:HANDS", "CLOSED_ROUNDS": "closed:ROUNDS",
    "CLOSED_SEED": "closed:SEED", "closed_model_file_name": "closed:model_file_name",
    "iterate_closed_model": "closed:iterate", "save_closed_model": "closed:save_model",
    "watch_closed_model_builds": "closed:watch_builds",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
