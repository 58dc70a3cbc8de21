"""Playing the game: whole hands against the bots, street by street and in Fantasyland.

Owns the table (``seating``: seats, the button, each seat's cards; ``table``: the hand in
progress), the bots' decisions (``bots``), the player's moves and their grades (``moves``,
``grades``), the showdown (``showdown``), the session's figures (``figures``), the game
itself as a state machine (``game``) and its history lines (``history``). Imports
``optimizer.ordinary`` (the adviser), ``optimizer.training`` (grading a set), the solver and
the opponent model; nothing imports it but the command line and the browser app, which
drive the same ``Game``: no input or output happens here.

Its face is ``__all__``, each name loaded from its module on first use.
"""

from __future__ import annotations

from fantasyland.evaluator.faces import lazy_face

#: Each name of the face and the module that defines it.
_FACE = {
    "Game": "game", "PlaySettings": "settings", "SettingsError": "settings",
    "DEFAULT_BUDGET": "settings", "DEFAULT_SAMPLES": "settings",
    "MoveError": "moves", "SetMove": "moves", "StreetMove": "moves",
    "Figures": "figures", "HandFigures": "figures", "Mean": "figures",
    "PLAYER": "seating", "bot_name": "bots",
    "HistoryLog": "history", "LogError": "history", "hand_lines": "history",
    "hand_record": "history", "header_line": "history", "read_log": "history",
    "unseen_counts": "table", "visible_boards": "table",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
