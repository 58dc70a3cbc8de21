"""The learned models shipped with the package, found by the rules they were trained for.

Each file in ``data/`` holds one rebuild's models (``rebuild.Rebuilt.arrays``) and the key
of the game they learned (``game_key``): what the learned value depends on, and nothing
else. A rules file that plays the same ordinary hand as a preset, however spelled, finds the
preset's models, whatever its opponent model or worths of staying; a house rule that
changes a royalty, an entry, the foul or the dealing finds none, so its ordinary hand keeps
the heuristic bot.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.optimizer.opponents.learned.network import Network

#: The name in a models file under which the key of its game is kept.
RULES_KEY = "rules"


def game_key(rules: Rules) -> str:
    """A digest of what the learned value of ``rules``' ordinary hand depends on: each row's
    royalties and scale, the foul order, the entries and each one's worth under the
    royalties objective, the foul's penalty, the dealing and the deck."""
    digest = hashlib.sha256()
    for row in ROWS:
        digest.update(f"{row}:{rules.scale(row).value}".encode())
        for table in (rules.royalty_table(row), rules.qualify_table(row)):
            digest.update(np.ascontiguousarray(table, dtype=np.int64).tobytes())
    entries = sorted((sorted((str(req.row), req.spec.threshold(rules.scale(req.row)))
                             for req in rung.requires), rung.cards) for rung in rules.entry)
    worths = [(n, rules.entry_value(n, ev=False).value) for n in rules.entry_sizes]
    digest.update(repr((tuple(map(str, rules.order)), entries, worths,
                        rules.scoring.foul_penalty, rules.dealing.value,
                        repr(rules.deck))).encode())
    return digest.hexdigest()[:16]


def read_models(path) -> tuple[str | None, dict[int, Network]]:
    """The fingerprint (None in a file without one) and the models of a models file, by
    the streets still to come after the board each values."""
    with np.load(path) as saved:
        arrays = {name: saved[name] for name in saved.files}
    fingerprint = str(arrays.pop(RULES_KEY)) if RULES_KEY in arrays else None
    streets = sorted({int(name[1:name.index(".")]) for name in arrays})
    return fingerprint, {r: Network.from_arrays(arrays, f"r{r}.") for r in streets}


@cache
def _shipped() -> dict[str, tuple[dict[int, Network], str]]:
    """The shipped models by their game's key, each with the digest of its file."""
    out: dict[str, tuple[dict[int, Network], str]] = {}
    folder = resources.files("fantasyland.optimizer.opponents.learned") / "data"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".npz"):
            with resources.as_file(entry) as path:
                key, models = read_models(path)
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            if key is not None:
                out[key] = (models, digest)
    return out


def shipped_models(rules: Rules) -> dict[int, Network] | None:
    """The shipped models learned for ``rules``' game, or None where none were."""
    found = _shipped().get(game_key(rules))
    return None if found is None else found[0]


def shipped_digest(rules: Rules) -> str | None:
    """The sha256 of the shipped models file of ``rules``' game (None where none is), which
    a rebuild with the default plan writes again byte for byte."""
    found = _shipped().get(game_key(rules))
    return None if found is None else found[1]


@cache
def learned_bot(rules: Rules):
    """The learned bot of ``rules``' game (``bot.LearnedBot``), or None where no models
    were learned for it (the caller then keeps the heuristic bot); made once a process for
    each rules, which the rollouts, the pools' player and the table's bots all ask for."""
    models = shipped_models(rules)
    if models is None:
        return None
    from fantasyland.optimizer.opponents.learned.bot import LearnedBot
    from fantasyland.optimizer.opponents.learned.labels import Worth
    from fantasyland.optimizer.opponents.pools import dealing_for

    return LearnedBot(dealing_for(rules), models, Worth(rules))


#: How the learned bot at a table looks one street further (``bot.LearnedBot``): over 16
#: deals of the next street, on its decisions two and three streets before the end, where
#: the models' own error costs it the most (docs/notes-learned.md, "The bot at the table").
#: The rollouts, the pools and the opponents' boards the adviser finishes play the plain
#: bot: looking ahead costs about 0.6 s of CPU a hand, some two hundred times the rest.
TABLE_LOOKAHEAD_DEALS = 16
TABLE_LOOKAHEAD_STREETS = (2, 3)


@cache
def table_bot(rules: Rules):
    """The learned bot that sits at a table (``play``'s bots), looking ahead as
    ``TABLE_LOOKAHEAD_DEALS`` and ``_STREETS`` say; None where no models were learned for
    ``rules``' game."""
    plain = learned_bot(rules)
    if plain is None:
        return None
    from fantasyland.optimizer.opponents.learned.bot import LearnedBot

    return LearnedBot(plain.dealing, plain.models, plain.worth,
                      lookahead_deals=TABLE_LOOKAHEAD_DEALS,
                      lookahead_streets=TABLE_LOOKAHEAD_STREETS)
