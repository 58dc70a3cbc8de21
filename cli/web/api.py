"""The API's endpoints: for each, the fields it takes and the job that answers it.

One endpoint a command. A field is spelled as the Python API's argument (``fl_value``,
``opponent_fantasyland``) and bounded as the CLI's option; the answer is the object the
command prints with ``--json`` (``cli/schemas``). docs/serve.md lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fantasyland.cli.web.fields import (
    RULES_FIELDS,
    SOLVE_FIELDS,
    TABLE_FIELDS,
    Field,
    FieldError,
    Reader,
    choice,
    entry_values,
    flag,
    number,
    text,
    whole,
    wholes,
)
from fantasyland.evaluator.rules_files import MAX_POINTS
from fantasyland.optimizer.play import DEFAULT_BUDGET
from fantasyland.optimizer.solver import OBJECTIVES


def _name(pattern: str, expected: str) -> Reader:
    """A reader of a string that matches ``pattern`` whole, refused as not ``expected``."""

    def read(name: str, value: Any) -> str:
        value = text(name, value)
        if not re.fullmatch(pattern, value):
            raise FieldError(f"bad {name} {value[:40]!r}: expected {expected}")
        return value

    return Reader(read, {"type": "string", "pattern": f"^{pattern}$"})


#: A training session's name: the page makes one (a UUID) a visit.
session_name = _name(r"[A-Za-z0-9_.:-]{1,64}", "1 to 64 letters, digits and - _ . :")
#: A game of the Play view: the id ``play/start`` answers with (``cli.web.games``).
game_name = _name(r"[0-9a-f]{24}", "the id play/start answered (24 hex digits)")


@dataclass(frozen=True)
class Endpoint:
    """``POST /api/<path>``: ``fields`` read from the body, ``job`` (``cli.web.jobs.JOBS``)
    answers; a ``heavy`` job runs in a worker process, a light one beside the server."""

    path: str
    job: str
    fields: dict[str, Field]
    heavy: bool = True


_CARDS = {"cards": Field(text, required=True)}
_EV = {"objective": Field(choice(*OBJECTIVES)), "seed": Field(whole(0), 0)}
_ADVISE = {"budget": Field(whole(32, high=100_000)), "entry_value": Field(entry_values, {})}
_SIZES = {"sizes": Field(wholes(13, 17), ())}

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("solve", "solve", _CARDS | RULES_FIELDS | TABLE_FIELDS | SOLVE_FIELDS
             | {"alternatives": Field(whole(0, high=50), 0)}),
    Endpoint("check", "check", _CARDS | {"set": Field(text, required=True)} | RULES_FIELDS
             | TABLE_FIELDS | SOLVE_FIELDS),
    Endpoint("train/deal", "train_deal", RULES_FIELDS | _SIZES
             | {"seed": Field(whole(0)), "number": Field(whole(1, high=100_000), 1)}, heavy=False),
    Endpoint("train/grade", "train_grade", RULES_FIELDS | _SIZES | {
        "session": Field(session_name, required=True),
        "seed": Field(whole(0), required=True),
        "number": Field(whole(1, high=100_000), required=True),
        "set": Field(text, required=True), "objective": Field(choice(*OBJECTIVES)),
        "fl_value": Field(number(0, MAX_POINTS)), "opponents": TABLE_FIELDS["opponents"],
        "samples": SOLVE_FIELDS["samples"]}),
    Endpoint("advise", "advise", RULES_FIELDS | TABLE_FIELDS | _EV | _ADVISE | {
        "board": Field(text, required=True), "cards": Field(text, required=True),
        "discards": Field(text, ""), "samples": Field(whole(1, high=100_000))}),
    Endpoint("score", "score", RULES_FIELDS | {"board": Field(text, required=True),
                                               "against": TABLE_FIELDS["against"]},
             heavy=False),
    Endpoint("review", "review", RULES_FIELDS | _EV | _ADVISE | {
        "history": Field(text, required=True), "opponents": TABLE_FIELDS["opponents"]}),
    Endpoint("rules", "rules", {"rules": Field(text, required=True)}, heavy=False),
    Endpoint("play/start", "play_start", {
        "variant": Field(text), "opponents": TABLE_FIELDS["opponents"],
        "objective": Field(choice(*OBJECTIVES)), "seed": Field(whole(0)),
        "budget": Field(whole(32, high=100_000), DEFAULT_BUDGET),
        "samples": Field(whole(1, high=100_000)), "duplicate": Field(flag, False),
        "fantasyland": Field(whole(13, high=17))}),
    Endpoint("play/move", "play_move", {"game": Field(game_name, required=True),
                                        "move": Field(text, required=True)}),
    Endpoint("play/hint", "play_hint", {"game": Field(game_name, required=True)}),
    Endpoint("play/next", "play_next", {"game": Field(game_name, required=True)}),
)
