"""Batch input and output: reading hands with their ids, and the JSONL output file.

Input is text (one hand a line, optionally an id first) or JSONL (``id``, ``cards``,
``variant``). Output lines are written whole with one ``write`` each, so a killed run
leaves whole lines (at worst a partial last one, which a rerun cuts off). The settings an
output is written with are kept beside it, so that a rerun can refuse to mix in others.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fantasyland.evaluator.cards import RANK_CHARS, Card, CardError, parse_card, parse_cards
from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.evaluator.user_files import MAX_LINE_BYTES, FileError, Line, Lines, excerpt
from fantasyland.optimizer.solver.solve import MAX_CARDS, MIN_CARDS


class BatchError(InputError):
    """An option, input or output file the batch cannot use (as opposed to one bad line)."""


class WorkerError(RuntimeError):
    """A worker process or the cluster failed (not a hand): the run stops, and a rerun
    goes on from what was written. Not an ``InputError``: the input was fine, the machinery
    running it was not."""


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
    """An input line that was not solved, and why. ``id`` is the line's own id, or its line
    number when it gives none that can be read."""

    line: int
    id: str
    text: str
    message: str
    detail: str | None = None  # a traceback, for a failure that is a bug rather than input

    length: int | None = None  # the line's length in bytes, where ``text`` is its start only

    def record(self) -> dict[str, Any]:
        """The errors-file record: a long line's start and its length, never all of it."""
        rec = {"line": self.line, "id": self.id} | excerpt(self.text, length=self.length)
        rec |= {"message": self.message}
        return rec | ({"traceback": self.detail} if self.detail else {})

    def record_line(self) -> str:
        """The errors-file line: the record as JSON, UTF-8 as it is except for lone
        surrogates (bytes that were not UTF-8, or JSON's ``\\udcff``), which stay escaped
        so that the line can be written and reads back as it was."""
        text = json.dumps(self.record(), ensure_ascii=False)
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _not_utf8(text: str) -> BatchError | None:
    """The error for a line that held bytes that are not UTF-8 (read as lone surrogates, see
    ``open_input``), or None. Such a line is refused whole: replacing its bytes by U+FFFD
    would let two different ids become one."""
    match = _LONE_SURROGATE.search(text)
    if match is None:
        return None
    char = ord(match.group())
    shown = f"byte 0x{char - 0xDC00:02x}" if 0xDC80 <= char <= 0xDCFF else f"U+{char:04X}"
    return BatchError(f"not UTF-8: {shown} at column {match.start() + 1}: expected a line of "
                      "UTF-8 text")


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


def _json_token(value: Any) -> str:
    """A JSON value as the input spelled it (``true``, not Python's ``True``), cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_object(text: str) -> dict[str, Any]:
    """A line that starts with ``{``, read as JSON; raises BatchError naming what is wrong."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BatchError(f"bad JSON: {error.msg} at column {error.colno}") from None
    except RecursionError:  # json's decoder recurses once a level: {"a":[[[[... runs out
        raise BatchError("bad JSON: arrays or objects nested too deeply") from None


#: The keys a JSON line may have: any other is refused, as ``review`` and the web API refuse
#: them (a mistyped ``"varaint"`` would solve the hand under the batch's variant).
JSON_KEYS = ("id", "cards", "variant")


def _json_keys(doc: Mapping[str, Any]) -> None:
    """Raise BatchError naming the first key (in sorted order) that a line may not have."""
    unknown = sorted(set(doc) - set(JSON_KEYS))
    if unknown:
        key = unknown[0] if len(unknown[0]) <= 40 else unknown[0][:37] + "..."
        raise BatchError(f"unknown key {key!r}: expected "
                         f"{', '.join(JSON_KEYS)}")


def _json_id(doc: Mapping[str, Any]) -> str | None:
    """A JSON line's id as a string, or None when it has none. A blank id is refused: a
    record needs an id that a user can find."""
    hand_id = doc.get("id")
    if hand_id is None:
        return None
    if isinstance(hand_id, bool) or not isinstance(hand_id, (str, int)):
        raise BatchError(f"bad id {_json_token(hand_id)}: expected a string or a whole number")
    if isinstance(hand_id, str) and not hand_id.strip():
        raise BatchError(f"bad id {_json_token(hand_id)}: expected a non-blank string or a "
                         "whole number")
    if isinstance(hand_id, str) and _LONE_SURROGATE.search(hand_id):
        raise BatchError(f"bad id {_json_token(hand_id)}: expected text (a lone surrogate "
                         "escape is not a character)")
    return str(hand_id)


def _json_cards(doc: Mapping[str, Any]) -> tuple[str | list[str], str | None]:
    """A JSON line's cards and variant (None: the batch's); raises BatchError naming the bad
    value."""
    variant = doc.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise BatchError(f"bad variant {_json_token(variant)}: expected a string (a preset "
                         "name or the path of a rules file)")
    if "cards" not in doc:
        raise BatchError("missing 'cards': expected a string like \"As Kd ...\" or a list "
                         "of strings")
    cards = doc["cards"]
    if isinstance(cards, list):
        for card in cards:
            if not isinstance(card, str):
                raise BatchError(f"bad card {_json_token(card)} in 'cards': expected a string "
                                 "like \"As\"")
    elif not isinstance(cards, str):
        raise BatchError(f"bad 'cards' {_json_token(cards)}: expected a string like "
                         "\"As Kd ...\" or a list of strings")
    return cards, variant


class Reader:
    """Turns input lines into ``Hand``s and ``BadLine``s, and keeps the rules they name.

    A line is JSON when it starts with ``{``, otherwise text: cards, optionally after an id
    (a line that starts with ``[`` is neither, and is refused). A line without an id gets
    its line number. Blank lines and ``#`` comments are skipped.
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

    def read(self, lines: Iterable[str | Line]) -> Iterator[Hand | BadLine]:
        """Each line's hand or why it is bad; a line longer than the reader's cap (a
        ``Line`` cut short, see ``open_input``) is bad, kept as its start and length."""
        for number, raw in enumerate(lines, 1):
            if isinstance(raw, Line):
                if raw.cut:
                    yield BadLine(number, str(number), raw.text,
                                  f"line of {raw.length:,} bytes: expected one hand (at most "
                                  f"{MAX_LINE_BYTES:,} bytes)", length=raw.length)
                    continue
                raw = raw.text
            if (text := raw.strip()) and not text.startswith("#"):
                yield self.parse(number, raw.rstrip("\r\n"))

    def parse(self, number: int, raw: str) -> Hand | BadLine:
        """One line, without its line ending; a bad line keeps it as it was."""
        text, hand_id = raw.strip(), str(number)
        try:
            if error := _not_utf8(text):
                raise error
            if text.startswith("{"):
                doc = _json_object(text)
                given = _json_id(doc)
                hand_id = hand_id if given is None else given
                _json_keys(doc)
                cards, variant = _json_cards(doc)
            elif text.startswith("["):
                raise BatchError("bad line starting with '[': expected a JSON object or a "
                                 "line of cards")
            else:
                (given, cards), variant = split_id(text), None
                hand_id = hand_id if given is None else given
            rules = self._rules_index(variant)  # first: its deck says what a card may be
            dealt = parse_cards(cards, count=range(MIN_CARDS, MAX_CARDS + 1),
                                deck=self.rules[rules].deck)
        except InputError as error:  # the line's JSON, cards or rules
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
    with Lines(path, "batch input") as lines:
        return sum(bool(text) and not text.startswith("#")
                   for text in (line.text.strip() for line in lines))


@contextmanager
def open_input(name: str) -> Iterator[Iterable[Line]]:
    """The lines of a regular file, or of stdin for ``-``, as UTF-8 (a byte-order mark is
    dropped), each of at most ``MAX_LINE_BYTES`` (a longer one comes cut short, to be a bad
    line): a FIFO or a device is refused, a stream is read in bounded memory. Bytes that are
    not UTF-8 are kept as lone surrogates, for the reader to refuse (two ids that differ only
    there must not be read as one)."""
    try:
        with Lines(name, "batch input", errors="surrogateescape") as lines:
            yield lines
    except FileError as error:
        raise BatchError(str(error)) from None


# --- the output file -----------------------------------------------------------------------

def record_line(hand_id: str, record: Mapping[str, Any]) -> str:
    """One output line: ``id`` first (so that a resume reads it cheaply), then the record's
    keys sorted, compact, and a newline."""
    body = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return '{"id":' + json.dumps(hand_id) + ("," + body[1:] if len(body) > 2 else "}") + "\n"


def _not_a_record(number: int, path: Path) -> BatchError:
    return BatchError(f"{str(path)!r} line {number} is not a batch record with an id; use a "
                      "new output file")


def _record(line: bytes, number: int, path: Path) -> dict[str, Any]:
    try:
        return json.loads(line)
    except ValueError:
        raise _not_a_record(number, path) from None


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
        raise _not_a_record(number, path)
    return hand_id


def first_record(path: Path) -> dict[str, Any] | None:
    """The first record of an output file, or None when it has no whole line yet."""
    try:
        with open(path, "rb") as data:
            line = data.readline()
    except FileNotFoundError:
        return None
    if not line.endswith(b"\n"):
        return None
    _line_id(line, 1, path)
    return _record(line, 1, path)


@dataclass(frozen=True)
class Written:
    """What an existing output file holds."""

    ids: dict[str, int]  # each id's line, counted from 0 (its first, if it is there twice)
    lines: int  # whole lines
    repeated: list[int]  # the lines whose id an earlier line has (two runs at once, once)
    size: int  # bytes in whole lines: a partial last line (a run killed mid-write) starts here


def read_output(path: Path) -> Written:
    """The ids in an output file, which is left as it is (see ``cut_partial_line``); raises
    BatchError for a file that is not batch records."""
    ids: dict[str, int] = {}
    repeated: list[int] = []
    size = lines = 0
    if not path.exists():
        return Written(ids, lines, repeated, size)
    with open(path, "rb") as data:
        for number, line in enumerate(data, 1):
            if not line.endswith(b"\n"):
                break
            hand_id = _line_id(line, number, path)
            if hand_id in ids:
                repeated.append(lines)
            else:
                ids[hand_id] = lines
            size += len(line)
            lines += 1
    return Written(ids, lines, repeated, size)


#: The rank of a line that ``rewrite_in_order`` leaves where it is, and of one it drops.
STAYS, DROPPED = -1, -2


def in_order(ranks: Sequence[int]) -> bool:
    """Whether no line is dropped and the ranked lines are in rank order already."""
    last = -1
    for rank in ranks:
        if rank == DROPPED or 0 <= rank <= last:
            return False
        last = max(last, rank)
    return True


def rewrite_in_order(path: Path, ranks: Sequence[int]) -> None:
    """Rewrite an output so that its ranked lines are in rank order, in the places ranked lines
    hold, while lines that ``STAYS`` stay where they are and those ``DROPPED`` go. ``ranks``
    has one entry per whole line of the file.

    The file is rewritten whole or not at all (a scratch file, renamed over it): a run killed
    meanwhile leaves every line as it was, and the next run rewrites it.
    """
    offsets = array("q")
    with open(path, "rb") as data:
        position = 0
        for line in data:
            if not line.endswith(b"\n"):
                break
            offsets.append(position)
            position += len(line)
        if len(offsets) != len(ranks):
            raise BatchError(f"{str(path)!r} changed while it was being written (another "
                             "program wrote to it?): run again to go on")
        ranked = iter(sorted((i for i, rank in enumerate(ranks) if rank >= 0),
                             key=ranks.__getitem__))
        scratch = path.with_name(path.name + ".reorder")
        with open(scratch, "wb") as out:
            for i, rank in enumerate(ranks):
                if rank == DROPPED:
                    continue
                data.seek(offsets[next(ranked) if rank >= 0 else i])
                out.write(data.readline())
            out.flush()
            os.fsync(out.fileno())
    os.replace(scratch, path)


def cut_partial_line(path: Path, written: Written) -> None:
    """Cut off what follows the whole lines, so that appending continues with whole lines."""
    if path.exists() and path.stat().st_size > written.size:
        os.truncate(path, written.size)


def settings_path(output: Path) -> Path:
    """Where the settings an output was written with are kept: ``OUTPUT.settings``."""
    return output.with_name(output.name + ".settings")


def read_settings(path: Path) -> dict[str, Any] | None:
    """The settings in a file ``write_settings`` wrote, or None when there is no such file."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    try:
        settings = json.loads(text)
    except json.JSONDecodeError:
        settings = None
    if not isinstance(settings, dict):
        raise BatchError(f"bad settings file {str(path)!r}: expected the JSON object that a "
                         "batch writes there")
    return settings


def write_settings(path: Path, settings: Mapping[str, Any]) -> None:
    """Write the settings whole or not at all (to a scratch file that is then renamed)."""
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_text(json.dumps(settings, sort_keys=True, default=repr) + "\n",
                       encoding="utf-8")
    os.replace(scratch, path)


class Appender:
    """Appends whole lines with one ``os.write`` each call, unbuffered: a killed process
    leaves what it wrote in the file, and at most one partial line."""

    def __init__(self, path: Path, truncate: bool = False):
        self.path, self._truncate = path, truncate
        self._fd: int | None = None

    def open(self) -> int:
        """The file's descriptor, opened on first use."""
        if self._fd is None:
            flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if self._truncate else os.O_APPEND)
            self._fd = os.open(self.path, flags, 0o666)
        return self._fd

    def write(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        fd = self.open()
        data = memoryview("".join(lines).encode("utf-8"))
        while data:
            data = data[os.write(fd, data):]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


