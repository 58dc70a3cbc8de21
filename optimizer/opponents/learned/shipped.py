"""The learned models shipped with the package, found by the rules they were trained for.

Each file in ``data/`` holds one rebuild's models (``rebuild.Rebuilt.arrays``) and the
fingerprint of its rules (``Rules.fingerprint``): a rules file that decides the same game as
a preset, however spelled, finds the preset's models, and a house rule that changes a
royalty or the dealing finds none, so its ordinary hand keeps the heuristic bot.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np

from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.learned.network import Network

#: The name in a models file under which the fingerprint of its rules is kept.
RULES_KEY = "rules"


def read_models(path) -> tuple[str | None, dict[int, Network]]:
    """The fingerprint (None in a file without one) and the models of a models file, by
    the streets still to come after the board each values."""
    with np.load(path) as saved:
        arrays = {name: saved[name] for name in saved.files}
    fingerprint = str(arrays.pop(RULES_KEY)) if RULES_KEY in arrays else None
    streets = sorted({int(name[1:name.index(".")]) for name in arrays})
    return fingerprint, {r: Network.from_arrays(arrays, f"r{r}.") for r in streets}


@cache
def _shipped() -> dict[str, dict[int, Network]]:
    out: dict[str, dict[int, Network]] = {}
    folder = resources.files("fantasyland.optimizer.opponents.learned") / "data"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".npz"):
            with resources.as_file(entry) as path:
                fingerprint, models = read_models(path)
            if fingerprint is not None:
                out[fingerprint] = models
    return out


def shipped_models(rules: Rules) -> dict[int, Network] | None:
    """The shipped models learned for ``rules``' game, or None where none were."""
    return _shipped().get(rules.fingerprint)


def learned_bot(rules: Rules):
    """The learned bot of ``rules``' game (``bot.LearnedBot``), or None where no models
    were learned for it (the caller then keeps the heuristic bot)."""
    models = shipped_models(rules)
    if models is None:
        return None
    from fantasyland.optimizer.opponents.learned.bot import LearnedBot
    from fantasyland.optimizer.opponents.learned.labels import Worth
    from fantasyland.optimizer.opponents.pools import dealing_for

    return LearnedBot(dealing_for(rules), models, Worth(rules))
