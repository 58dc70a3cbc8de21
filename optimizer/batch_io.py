"""Batch input and output: reading hands with their ids, and the JSONL output file.

Input is text (one hand a line, optionally an id first) or JSONL (``id``, ``cards``,
``variant``). Output lines are written whole with one ``write`` each, so a killed run
leaves whole lines (at worst a partial last one, which a rerun cuts off).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluator.cards import RANK_CHARS, Card, CardError, parse_card, parse_cards
from evaluator.rules import Rules, RulesError
from evaluator.rules_files import find_rules
from optimizer.solve import MAX_CARDS, MIN_CARDS


class BatchError(ValueError):
    """An option, input or output file the batch cannot use (as opposed to one bad line)."""


class WorkerError(RuntimeError):
    """A worker process or the cluster failed (not a hand): the run stops, and a rerun
    goes on from what was written."""


# --- reading input -------------------------------------------------------------------------

@dataclass(frozen=True)
class Hand:
    """One readable input line: its cards and the rules it is solved under."""

    line: int  # 1-based line number in the input
    id: str
    cards: tuple[Card, ...]
    rules: int  # index into the reader's rules table


@dataclass(frozen=True)
class BadLine:
    """An input line that was not solved, and why."""

    line: int
    id: str | None
    text: str
    message: str
    detail: str | None = None  # a traceback, for a failure that is a bug rather than input

    def record(self) -> dict[str, Any]:
        """The errors-file record."""
        rec = {"line": self.line, "id": self.id, "text": self.text, "message": self.message}
        return rec | ({"traceback": self.detail} if self.detail else {})


_SUITS = "cdhs♣♦♥♠♧♢♡♤"
_FIRST_FIELD = re.compile(r"(\S+?)[\s,;]+(.*)", re.DOTALL)


def _starts_like_a_card(field_: str) -> bool:
    """Whether a first field is (mistyped) cards rather than an id: it starts with a card,
    or it is 2 or 3 characters that start with a rank or end with a suit (``Ax``, ``Zs``)."""
    for size in (2, 3):
        try:
            parse_card(field_[:size])
            return True
        except CardError:
            pass
    if field_.isdigit() or not 2 <= len(field_) <= 3:
        return False
    return (field_[0].upper() in RANK_CHARS or field_.startswith("10")
            or field_[-1].lower() in _SUITS)


def split_id(text: str) -> tuple[str | None, str]:
    """A text line's id (or None) and its cards: the first field is an id unless it looks
    like cards (see ``_starts_like_a_card``); numbers are always ids.

    >>> split_id("h7 As Kd Qh")
    ('h7', 'As Kd Qh')
    >>> split_id("42,AsKdQh")
    ('42', 'AsKdQh')
    >>> split_id("As Kd Qh")
    (None, 'As Kd Qh')
    """
    match = _FIRST_FIELD.fullmatch(text)
    if match is None or _starts_like_a_card(match.group(1)):
        return None, text
    return match.group(1), match.group(2)


def _json_hand(text: str) -> tuple[str | None, Any, str | None]:
    """The id, cards and variant of a JSON line; raises ValueError naming what is wrong."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise BatchError(f"bad JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(doc, dict):
        raise BatchError("bad JSON line: expected an object with 'cards' and optionally "
                         "'id' and 'variant'")
    hand_id, variant = doc.get("id"), doc.get("variant")
    if hand_id is not None and (isinstance(hand_id, bool) or not isinstance(hand_id, (str, int))):
        raise BatchError(f"bad id {hand_id!r}: expected a string or a whole number")
    if variant is not None and not isinstance(variant, str):
        raise BatchError(f"bad variant {variant!r}: expected a string")
    cards = doc.get("cards")
    if not isinstance(cards, str) and not (
            isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        raise BatchError("bad or missing 'cards': expected a string like \"As Kd ...\" or "
                         "a list of strings")
    return None if hand_id is None else str(hand_id), cards, variant


class Reader:
    """Turns input lines into ``Hand``s and ``BadLine``s, and keeps the rules they name.

    A line is JSON when it starts with ``{``, otherwise text: cards, optionally after an id.
    A line without an id gets its line number. Blank lines and ``#`` comments are skipped.
    """

    def __init__(self, default_variant: str | Rules):
        default = find_rules(default_variant)  # an unknown default is the caller's error
        self.rules: list[Rules] = [_portable(default)]
        self._index: dict[str, int] = {}
        self._seen: set[str] = set()

    def _rules_index(self, variant: str | None) -> int:
        if variant is None:
            return 0
        if variant not in self._index:
            self._index[variant] = len(self.rules)
            self.rules.append(_portable(find_rules(variant)))
        return self._index[variant]

    def read(self, lines: Iterable[str]) -> Iterator[Hand | BadLine]:
        for number, raw in enumerate(lines, 1):
            if (text := raw.strip()) and not text.startswith("#"):
                yield self.parse(number, raw.rstrip("\r\n"))

    def parse(self, number: int, raw: str) -> Hand | BadLine:
        """One line, without its line ending; a bad line keeps it as it was."""
        text, hand_id = raw.strip(), None
        try:
            if text.startswith("{"):
                hand_id, cards, variant = _json_hand(text)
            else:
                (hand_id, cards), variant = split_id(text), None
            hand_id = str(number) if hand_id is None else hand_id
            dealt = parse_cards(cards, count=range(MIN_CARDS, MAX_CARDS + 1))
            rules = self._rules_index(variant)
        except (CardError, RulesError, BatchError) as error:
            return BadLine(number, hand_id, raw, str(error))
        if hand_id in self._seen:
            return BadLine(number, hand_id, raw, f"duplicate id {hand_id!r}: each hand needs "
                                                  "its own id (a line number when none is given)")
        self._seen.add(hand_id)
        return Hand(number, hand_id, dealt, rules)


def _portable(rules: Rules) -> Rules:
    """The same rules without their cached tables, so that they pickle small."""
    return dataclasses.replace(rules)


def count_hand_lines(path: str | Path) -> int:
    """Lines that are not blank or ``#`` comments: the hands a file holds, bad ones included."""
    count = 0
    with open(path, "rb") as data:
        for raw in data:
            text = raw.strip()
            count += bool(text) and not text.startswith(b"#")
    return count


@contextmanager
def open_input(name: str) -> Iterator[Iterable[str]]:
    """The lines of a file, or of stdin for ``-``, as UTF-8 (a byte-order mark is dropped)."""
    if name == "-":
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="replace")
        try:
            yield stream
        finally:
            stream.detach()  # stdin stays open for whoever owns it
        return
    try:
        data = open(name, encoding="utf-8-sig", errors="replace")
    except OSError as error:
        raise BatchError(f"cannot read {name!r}: {error.strerror}") from None
    with data:
        yield data


# --- the output file -----------------------------------------------------------------------

def record_line(hand_id: str, record: Mapping[str, Any]) -> str:
    """One output line: ``id`` first (so that a resume reads it cheaply), then the record's
    keys sorted, compact, and a newline."""
    body = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return '{"id":' + json.dumps(hand_id) + ("," + body[1:] if len(body) > 2 else "}") + "\n"


def _line_id(line: bytes, number: int, path: Path) -> str:
    text = line.decode("utf-8", errors="replace")
    try:
        if text.startswith('{"id":'):
            hand_id = json.JSONDecoder().raw_decode(text, 6)[0]
        else:
            hand_id = json.loads(text)["id"]
    except (ValueError, KeyError, TypeError):
        hand_id = None
    if not isinstance(hand_id, str):
        raise BatchError(f"{str(path)!r} line {number} is not a batch record with an id; "
                         "use a new output file")
    return hand_id


def finished_ids(path: Path) -> tuple[set[str], str | None]:
    """The ids already in an output file, and the first record's objective.

    Cuts off a partial last line (a run killed mid-write) so that appending continues
    with whole lines.
    """
    ids: set[str] = set()
    objective = None
    if not path.exists():
        return ids, objective
    with open(path, "r+b") as data:
        whole = 0
        for number, line in enumerate(data, 1):
            if not line.endswith(b"\n"):
                break
            ids.add(_line_id(line, number, path))
            if objective is None:
                objective = json.loads(line).get("objective")
            whole += len(line)
        data.truncate(whole)
    return ids, objective


class Appender:
    """Appends whole lines with one ``os.write`` each call, unbuffered: a killed process
    leaves what it wrote in the file, and at most one partial line."""

    def __init__(self, path: Path, truncate: bool = False):
        self.path, self._truncate, self._fd = path, truncate, None

    def open(self) -> None:
        if self._fd is None:
            flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if self._truncate else os.O_APPEND)
            self._fd = os.open(self.path, flags, 0o666)

    def write(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        self.open()
        data = memoryview("".join(lines).encode("utf-8"))
        while data:
            data = data[os.write(self._fd, data):]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


