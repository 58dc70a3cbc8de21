"""The fields of an API request: each named, typed and bounded as the CLI's option is.

A request body is a JSON object. ``read_fields`` checks it against a table of ``Field``s and
gives back every field, a default for those left out, or raises ``FieldError`` naming the
field, what it got and what it expected, in one line. The CLI's bounds are Typer's; these
are the same bounds, written for a JSON value rather than a command-line word.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules_files import MAX_POINTS
from fantasyland.optimizer.solver import OBJECTIVES


class FieldError(InputError):
    """A request field that is missing, unknown, or not what it should be."""


def _shown(value: Any) -> str:
    """A JSON value as the message quotes it, cut short when long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class Reader:
    """A field's reader: called as ``read(name, value)``, it checks and converts the value;
    ``schema`` is the JSON Schema of what it takes, its bounds, as ``/api/fields`` serves it
    to the page."""

    read: Callable[[str, Any], Any]
    schema: Mapping[str, Any]

    def __call__(self, name: str, value: Any) -> Any:
        return self.read(name, value)


@dataclass(frozen=True)
class Field:
    """How to read one field: ``read(name, value)`` checks and converts it; ``default`` is
    what a request that leaves it out gets, and ``required`` refuses leaving it out."""

    read: Reader
    default: Any = None
    required: bool = False


def read_fields(body: Any, fields: Mapping[str, Field]) -> dict[str, Any]:
    """Every field of ``fields`` from the request ``body``; see the module docstring.

    >>> read_fields({"seed": 3}, {"seed": Field(whole(0)), "cards": Field(text, "")})
    {'seed': 3, 'cards': ''}
    >>> read_fields({"sed": 3}, {"seed": Field(whole(0))})
    Traceback (most recent call last):
    ...
    fantasyland.cli.web.fields.FieldError: unknown field 'sed': expected seed
    """
    if not isinstance(body, dict):
        raise FieldError(f"the request body is {_shown(body)}: expected a JSON object of "
                         "fields, such as {\"cards\": \"As Kd Qh ...\"}")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise FieldError(f"unknown field {unknown[0]!r}: expected "
                         + ", ".join(sorted(fields)))
    values = {}
    for name, field in fields.items():
        if name not in body or body[name] is None:
            if field.required:
                raise FieldError(f"missing field {name!r}")
            values[name] = field.default
        else:
            values[name] = field.read(name, body[name])
    return values


def decimal(text: str) -> int | None:
    """``text`` as a whole number if it is one written in ASCII digits (at most 18 of them),
    else None. ``str.isdigit`` alone is not enough: it is true of ``"¹⁵"``, which ``int``
    refuses, and ``int`` reads a 4,000-digit string slowly.

    >>> decimal("15"), decimal("¹⁵"), decimal("-1"), decimal("9" * 19)
    (15, None, None, None)
    """
    if 0 < len(text) <= 18 and text.isascii() and text.isdigit():
        return int(text)
    return None


def _text(name: str, value: Any) -> str:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise FieldError(f"bad {name} {_shown(value)}: expected a string")
    return value


#: A string; a list of strings is joined by spaces (cards given one by one).
text = Reader(_text, {"type": "string"})


def _texts(name: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise FieldError(f"bad {name} {_shown(value)}: expected a list of strings")
    return tuple(value)


#: A list of strings (one board a string, say); one string alone is a list of one.
texts = Reader(_texts, {"type": "array", "items": {"type": "string"}})


def whole(low: int, *, high: int | None = None) -> Reader:
    """A reader of a whole number from ``low`` to ``high`` (no bound when None)."""
    expected = f"a whole number >= {low}" if high is None else \
        f"a whole number from {low} to {high}"

    def read(name: str, value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (
                high is not None and value > high):
            raise FieldError(f"bad {name} {_shown(value)}: expected {expected}")
        return value

    bounds = {"minimum": low} | ({} if high is None else {"maximum": high})
    return Reader(read, {"type": "integer"} | bounds)


def wholes(low: int, high: int) -> Reader:
    """A reader of a list of whole numbers, each from ``low`` to ``high``."""
    one = whole(low, high=high)

    def read(name: str, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list):
            value = [value]
        return tuple(one(name, item) for item in value)

    return Reader(read, {"type": "array", "items": one.schema})


def number(low: float, high: float, *, above: bool = False) -> Reader:
    """A reader of a finite number from ``low`` (or above it) to ``high``."""

    def read(name: str, value: Any) -> float:
        # Compared before math.isfinite, which cannot take an int too large for a float.
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and \
            (value > low if above else value >= low) and value <= high and math.isfinite(value)
        if not ok:
            side = "above" if above else "from"
            raise FieldError(f"bad {name} {_shown(value)}: expected a number {side} {low:g} "
                             f"to {high:g}")
        return float(value)

    return Reader(read, {"type": "number", "exclusiveMinimum" if above else "minimum": low,
                         "maximum": high})


def choice(*options: str) -> Reader:
    """A reader of one of ``options``."""

    def read(name: str, value: Any) -> str:
        if value not in options:
            raise FieldError(f"bad {name} {_shown(value)}: expected "
                             + " or ".join(options))
        return value

    return Reader(read, {"enum": list(options)})


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise FieldError(f"bad {name} {_shown(value)}: expected true or false")
    return value


flag = Reader(_flag, {"type": "boolean"})


def _entry_values(name: str, value: Any) -> dict[int, float]:
    if not isinstance(value, dict):
        raise FieldError(f"bad {name} {_shown(value)}: expected an object of the cards an "
                         "entry deals and its worth, as in {\"15\": 20.5}")
    values = {}
    for size, worth in value.items():
        cards = decimal(size) or 0
        if not 13 <= cards <= 17 or isinstance(worth, bool) or not isinstance(
                worth, (int, float)) or not -MAX_POINTS <= worth <= MAX_POINTS:
            raise FieldError(f"bad {name} {_shown({size: worth})}: expected the cards an "
                             f"entry deals (13 to 17) and its worth, as in {{\"15\": 20.5}}")
        values[cards] = float(worth)
    return values


#: ``{"15": 20.5}``: the worth of an entry by the cards it deals, as ``--entry-value 15=20.5``
#: gives it.
entry_values = Reader(_entry_values, {
    "type": "object", "patternProperties": {"^1[3-7]$": {
        "type": "number", "minimum": -MAX_POINTS, "maximum": MAX_POINTS}},
    "additionalProperties": False})


#: The rules a request plays under: a preset by name, or a rules file's text.
RULES_FIELDS = {"variant": Field(text), "rules": Field(text)}

#: The table the ev objective plays against, as the CLI's --opponents, --against,
#: --opponent-fantasyland and --dead give it.
TABLE_FIELDS = {"opponents": Field(whole(1, high=5)), "against": Field(texts, ()),
                "opponent_fantasyland": Field(wholes(13, 17), ()), "dead": Field(text, "")}

#: Settings shared by the commands that solve: the CLI's bounds.
SOLVE_FIELDS = {"objective": Field(choice(*OBJECTIVES)),
                "fl_value": Field(number(0, MAX_POINTS)),
                "samples": Field(whole(1, high=100_000)), "seed": Field(whole(0), 0),
                "time_limit": Field(number(0, 600, above=True), 10.0)}
