"""The ordinary hand of progressive Pineapple and its kin, street by street: what each play
of the cards just dealt is worth (``advise``), a whole hand graded decision by decision
(``review``), and the trainer that deals one (``session``).

Its face is ``__all__``: what the command line and the browser app use, which import it from
here and never from a module below (tests/test_architecture.py). Each name loads its module
on first use, so that importing the package costs nothing.
"""

from __future__ import annotations

from fantasyland.evaluator.faces import lazy_face

#: Each name of the face and the module that defines it (``module:name`` where the face
#: renames it: a module named as its function would hide the function once imported).
_FACE = {
    "Advice": "advise", "DEFAULT_BUDGET": "effort", "DEFAULT_SAMPLES": "advise", "Effort": "effort",
    "SCREEN": "advise", "advise_plays": "advise:advise", "PlayValue": "race", "Z": "race",
    "advice_record": "record", "entry_names": "record", "review_lines": "review:review",
    "Decision": "session", "OrdinarySession": "session", "PlayError": "plays",
    "PositionError": "position", "seeded_positions": "deal", "RolloutBot": "bots",
    "rollout_bot": "bots",
    "Figure": "race",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
