"""The options several commands share: their choices and their help."""

from __future__ import annotations

from enum import Enum

import typer

from evaluator import preset_names
from optimizer.solver.dealing import SizeError, parse_sizes


class Objective(str, Enum):
    """What a set is worth (see the README's "Expected value")."""

    royalties = "royalties"
    ev = "ev"


VARIANT_HELP = ("Rules: a preset ({presets}) or one of its aliases, or the path of a .toml "
                "rules file (see the README).").format(presets=", ".join(preset_names()))
OBJECTIVE_HELP = ("What a set is worth: royalties, or ev (points won against sampled "
                  "opponents); either plus fl-value when it stays.")
OPPONENTS_HELP = "Opponents at the table, for ev: 1 (heads-up) or 2 (three-handed)."
SAMPLES_HELP = "Sampled opponent deals, for ev."
FL_VALUE_HELP = ("Worth of staying in Fantasyland, in points. Default: the variant's "
                 "repeat_value, or under ev its ev_repeat_value times the opponents (see "
                 "`fantasyland value`).")


def card_counts(text: str | None) -> tuple[int, ...] | None:
    """``--cards`` of train and bench: counts from 13 to 17 as ``15``, ``14-17`` or ``14,16``
    (``deal`` adds weights). A callback, so that an error names the option."""
    try:
        return None if text is None else parse_sizes(text)
    except SizeError as error:
        raise typer.BadParameter(str(error)) from None


def fl_value_points(value: float | None) -> float | None:
    """``--fl-value``: a finite number of points, 0 or more (a callback, so that an error
    names the option)."""
    if value is not None and not 0 <= value < float("inf"):
        raise typer.BadParameter(f"{value!r}: expected a finite number of points, 0 or more")
    return value
