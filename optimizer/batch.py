"""Solving many hands: dealing them, reading them, and solving them in order, resumably.

A batch reads one hand per input line, solves the hands on an *engine* (this process, a pool
of worker processes, or a Dask cluster) and writes one JSON line per hand, in input order. A
line is written whole with one ``write``, so a killed run leaves whole lines (and at worst a
partial last line, which the next run cuts off); rerunning skips the ids already written.
Input lines that cannot be solved go to an errors file instead, in input order too.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import io
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from evaluator.cards import RANK_CHARS, Card, CardError, ascii_names, parse_card, parse_cards
from evaluator.rules import Rules, RulesError, find_rules
from optimizer.dealing import deal, pick_size, size_mix
from optimizer.solve import MAX_CARDS, MIN_CARDS, Solution, solve


class BatchError(ValueError):
    """An option, input or output file the batch cannot use (as opposed to one bad line)."""


class WorkerError(RuntimeError):
    """A worker process or the cluster failed (not a hand): the run stops, and a rerun
    goes on from what was written."""


# --- dealing -------------------------------------------------------------------------------

def parse_sizes(text: str, rules: Rules) -> dict[int, float]:
    """Hand sizes and their weights from ``"14"``, ``"mixed"`` or ``"14:8,15:4,16:2,17:1"``.

    >>> parse_sizes("15:3,17:1", find_rules("progressive"))
    {15: 0.75, 17: 0.25}
    >>> parse_sizes("12", find_rules("pineapple"))
    Traceback (most recent call last):
    ...
    optimizer.batch.BatchError: bad --cards '12': expected a count from 13 to 17, 'mixed', or counts with weights like 14:8,15:4
    """
    if text.strip().lower() == "mixed":  # the trainer's assumption, README "Solving many hands"
        return size_mix(rules)
    weights: dict[int, float] = {}
    for part in text.split(","):
        count, colon, weight = part.strip().partition(":")
        try:
            n, w = int(count), float(weight) if colon else 1.0
        except ValueError:
            n, w = 0, 0.0
        if not MIN_CARDS <= n <= MAX_CARDS or not 0 < w < float("inf") or n in weights:
            raise BatchError(f"bad --cards {text!r}: expected a count from {MIN_CARDS} to "
                             f"{MAX_CARDS}, 'mixed', or counts with weights like 14:8,15:4")
        weights[n] = w
    total = sum(weights.values())
    return {n: w / total for n, w in weights.items()}


def deal_hands(count: int, sizes: Mapping[int, float], seed: int) -> Iterator[tuple[Card, ...]]:
    """``count`` random hands, each from the highest card down, from one ``random.Random(seed)``
    stream: a size by weight (only when there is a choice), then the cards. So the first
    hands of a longer deal are the same as a shorter one's."""
    if count < 0 or seed < 0:
        raise BatchError(f"bad count {count} or seed {seed}: expected numbers >= 0")
    rng = random.Random(seed)
    for _ in range(count):
        yield deal(rng, next(iter(sizes)) if len(sizes) == 1 else pick_size(rng, sizes))


def hand_line(cards: Sequence[Card]) -> str:
    return " ".join(ascii_names(cards))


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


class _Appender:
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


# --- workers -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """What every hand of a batch is solved with; ``record`` turns a solution into the
    output record (the ``solve --json`` schema), in the worker. ``options`` are more
    keyword arguments of ``solve`` (``samples``, ``opponents``, ``seed`` for ``ev``)."""

    record: Callable[[Solution], Mapping[str, Any]]
    objective: str = "royalties"
    fl_value: float | None = None
    time_limit: float = 10.0
    options: tuple[tuple[str, Any], ...] = ()


class Task(NamedTuple):
    seq: int  # position among the lines this run handles
    line: int
    id: str
    cards: tuple[Card, ...]
    rules: int


class Result(NamedTuple):
    seq: int
    text: str | None  # the output line, or None when the hand failed
    value: float
    stays: bool
    cpu: float = 0.0  # CPU seconds the worker spent on the hand
    error: str | None = None
    detail: str | None = None


_WORKER_RULES: dict[Rules, Rules] = {}


def solve_chunk(tasks: Sequence[Task], rules: Mapping[int, Rules],
                settings: Settings) -> list[Result]:
    """Solve tasks in a worker. A hand that fails is reported, never raised: one hand must
    not stop a run of millions."""
    results = []
    for task in tasks:
        # One instance per distinct rules in this process, so that their tables are built once.
        task_rules = _WORKER_RULES.setdefault(rules[task.rules], rules[task.rules])
        cpu = time.process_time()
        try:
            solution = solve(task.cards, task_rules, settings.objective, settings.fl_value,
                             settings.time_limit, **dict(settings.options))
            text = record_line(task.id, settings.record(solution))
            results.append(Result(task.seq, text, solution.value, solution.stays,
                                  time.process_time() - cpu))
        except ValueError as error:
            results.append(Result(task.seq, None, 0.0, False, error=str(error)))
        except Exception as error:  # noqa: BLE001 -- a bug, kept with its traceback
            results.append(Result(task.seq, None, 0.0, False,
                                  error=f"solve failed: {type(error).__name__}: {error}",
                                  detail=traceback.format_exc()))
    return results


def _watch_parent(parent: int) -> None:
    # A worker whose batch was killed (SIGKILL leaves no time to stop the pool) exits on its
    # own instead of running on; checked once a second.
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _init_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


class Engine:
    """Runs ``solve_chunk`` calls: here, in a process pool, or on a cluster."""

    slots = 1  # chunks that run at once
    max_chunk = 16  # hands per chunk: enough to make the cost of a call negligible

    def submit(self, tasks: list[Task], rules: dict[int, Rules], settings: Settings) -> Any:
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_result(solve_chunk(tasks, rules, settings))
        return future

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        """Block until at least one of ``pending`` is done; return (done, not done)."""
        done, rest = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def close(self, wait: bool = True) -> None:
        pass


class PoolEngine(Engine):
    """Worker processes, started fresh (``spawn``) so that none inherits the parent's threads
    or open files; each imports the solver once and lives for the whole batch."""

    def __init__(self, workers: int):
        self.slots = workers
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker, initargs=(os.getpid(),))

    def submit(self, tasks, rules, settings):
        return self._pool.submit(solve_chunk, tasks, rules, settings)

    def close(self, wait: bool = True) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


class DaskEngine(Engine):
    """A Dask distributed cluster: each chunk is one task. The workers need this package
    installed (the same version), and run best with one thread per worker process."""

    max_chunk = 64  # a task costs the scheduler about a millisecond

    def __init__(self, address: str, timeout: float = 30.0):
        try:
            import distributed
        except ImportError:
            raise BatchError("--cluster needs Dask distributed: pip install "
                             "'fantasyland[cluster]'") from None
        self._distributed = distributed
        try:
            self._client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise BatchError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None
        self._slots, self._counted = 1, -float("inf")

    @property
    def slots(self) -> int:
        """The cluster's worker threads, counted again every 10 s: workers may join late."""
        if time.monotonic() - self._counted > 10:
            self._slots = max(sum(self._client.nthreads().values()), 1)
            self._counted = time.monotonic()
        return self._slots

    def submit(self, tasks, rules, settings):
        return self._client.submit(solve_chunk, tasks, rules, settings, pure=False)

    def wait(self, pending):
        done, rest = self._distributed.wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def close(self, wait: bool = True) -> None:
        self._client.close()


@contextmanager
def open_engine(workers: int = 1, cluster: str | None = None) -> Iterator[Engine]:
    """The engine for ``--workers`` / ``--cluster``: one worker runs in this process."""
    if workers < 1:
        raise BatchError(f"bad --workers {workers}: expected 1 or more")
    engine = DaskEngine(cluster) if cluster else PoolEngine(workers) if workers > 1 else Engine()
    try:
        yield engine
    except BaseException:
        engine.close(wait=False)  # interrupted: do not wait for the chunks still running
        raise
    engine.close()


# --- the batch -----------------------------------------------------------------------------

@dataclass
class Summary:
    """What a run did. ``hands`` counts the input's hands, bad lines included."""

    solved: int = 0
    skipped: int = 0  # already in the output
    failed: int = 0  # bad lines and hands that failed to solve
    value_sum: float = 0.0
    stays: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the workers' CPU time on the hands solved
    unknown_ids: int = 0  # records in the output whose id is not in this input

    @property
    def hands(self) -> int:
        return self.solved + self.skipped + self.failed

    @property
    def mean_value(self) -> float:
        return self.value_sum / self.solved if self.solved else 0.0

    @property
    def stay_rate(self) -> float:
        return self.stays / self.solved if self.solved else 0.0

    @property
    def rate(self) -> float:
        return self.solved / self.seconds if self.seconds > 0 else 0.0


class Events:
    """What a batch tells its caller as it goes (a progress bar, say); by default nothing."""

    def start(self, total: int | None) -> None:
        """The number of hands left to do, when the input's size is known."""

    def advance(self, count: int) -> None:
        """``count`` more hands are done (solved or failed)."""

    def bad_line(self, bad: BadLine) -> None:
        """A line failed; called in input order."""


@dataclass
class _Batch:
    """The state of one run: the reorder buffer and what has been written."""

    settings: Settings
    engine: Engine
    reader: Reader
    out: _Appender
    errors: _Appender
    events: Events
    summary: Summary = field(default_factory=Summary)
    ready: dict[int, Result | BadLine] = field(default_factory=dict)
    lines: dict[int, Hand] = field(default_factory=dict)  # seq -> hand, while in flight
    next_seq: int = 0

    def collect(self, done: Iterable[Any]) -> None:
        count = 0
        for future in done:
            try:
                results = future.result()
            except Exception as error:
                raise WorkerError(f"a worker failed ({type(error).__name__}: {error})") from error
            for result in results:
                self.ready[result.seq] = result
                count += 1
        self.events.advance(count)
        self.flush()

    def flush(self) -> None:
        """Write every result whose predecessors are all written: output in input order."""
        out, errors = [], []
        while self.next_seq in self.ready:
            item = self.ready.pop(self.next_seq)
            hand = self.lines.pop(self.next_seq, None)
            if isinstance(item, Result) and item.text is not None:
                out.append(item.text)
                self.summary.solved += 1
                self.summary.value_sum += item.value
                self.summary.stays += item.stays
                self.summary.cpu_seconds += item.cpu
            else:
                if isinstance(item, Result):
                    item = BadLine(hand.line, hand.id, hand_line(hand.cards), item.error or "",
                                   item.detail)
                errors.append(json.dumps(item.record(), ensure_ascii=False) + "\n")
                self.summary.failed += 1
                self.events.bad_line(item)
            self.next_seq += 1
        self.out.write(out)
        self.errors.write(errors)


def run_batch(lines: Iterable[str], output: str | Path, settings: Settings, engine: Engine,
              variant: str | Rules = "pineapple", errors: str | Path | None = None,
              total: int | None = None, events: Events | None = None) -> Summary:
    """Solve every hand of ``lines`` not already in ``output`` and append them to it.

    ``errors`` (default ``output`` + ``.errors``) is rewritten with this run's bad lines.
    ``total`` is the input's hand count, if known, for progress. Raises ``BatchError`` for an
    output file from another objective or not written by a batch, and ``RulesError`` for an
    unknown default variant.
    """
    started = time.perf_counter()
    output = Path(output)
    errors = Path(errors) if errors is not None else output.with_name(output.name + ".errors")
    reader = Reader(variant)
    done_ids, objective = finished_ids(output)
    if objective is not None and objective != settings.objective:
        raise BatchError(f"{str(output)!r} holds {objective!r} results, not "
                         f"{settings.objective!r}: use another output file")
    events = events or Events()
    batch = _Batch(settings, engine, reader, _Appender(output), _Appender(errors, truncate=True),
                   events)
    batch.out.open()  # an output that cannot be written fails now, not after the first chunk
    errors.unlink(missing_ok=True)  # a stale errors file would describe an earlier run
    events.start(None if total is None else max(total - len(done_ids), 0))
    # Chunks in flight and results waiting for an earlier one are bounded, so memory does
    # not grow with the input; a cluster's bounds follow its workers as they come and go.
    def max_pending() -> int:
        return 4 * engine.slots

    def max_ready() -> int:
        return 2 * max_pending() * engine.max_chunk

    def chunk_size() -> int:
        # Enough chunks to keep every slot busy in a small batch: sized from the total when
        # it is known, else growing with the hands read so far.
        left = total - len(done_ids) - batch.summary.skipped if total is not None else seq
        return max(1, min(engine.max_chunk, left // max_pending()))

    pending: set[Any] = set()
    chunk: list[Task] = []
    seq = 0

    def submit() -> None:
        nonlocal chunk
        if chunk:
            table = {i: reader.rules[i] for i in {t.rules for t in chunk}}
            pending.add(engine.submit(chunk, table, settings))
            chunk = []

    def drain(limit: int) -> None:
        # Bounded memory: wait while too many chunks are out or too many results wait for a
        # slow one before them (lines after a hand still being gathered count too).
        nonlocal pending
        while True:
            if len(batch.ready) > max_ready():
                submit()
            if not pending or (len(pending) <= limit and len(batch.ready) <= max_ready()):
                return
            done, pending = engine.wait(pending)
            batch.collect(done)

    try:
        for item in reader.read(lines):
            if isinstance(item, Hand) and item.id in done_ids:
                done_ids.discard(item.id)
                batch.summary.skipped += 1
                continue
            if isinstance(item, BadLine):
                batch.ready[seq] = item
                events.advance(1)
            else:
                batch.lines[seq] = item
                chunk.append(Task(seq, item.line, item.id, item.cards, item.rules))
                if len(chunk) >= chunk_size():
                    submit()
            seq += 1
            batch.flush()
            drain(max_pending() - 1)
        submit()
        drain(0)
    finally:
        batch.out.close()
        batch.errors.close()
    batch.summary.unknown_ids = len(done_ids)
    batch.summary.seconds = time.perf_counter() - started
    return batch.summary


def check_settings(settings: Settings, variant: str | Rules = "pineapple") -> None:
    """Raise now, not once per hand, for an unknown variant or objective or a bad fl_value
    or time limit: by solving one hand, as ``solve`` is what decides what is valid."""
    solve(range(13), variant, settings.objective, settings.fl_value, settings.time_limit,
          **dict(settings.options))


# --- the benchmark -------------------------------------------------------------------------

class _Failures(Events):
    first: str | None = None

    def bad_line(self, bad: BadLine) -> None:
        self.first = self.first or bad.message


@dataclass(frozen=True)
class BenchRow:
    cards: int
    objective: str
    workers: int
    hands: int
    seconds: float
    cpu_seconds: float  # the workers' CPU time: what the hands cost, however busy the machine

    @property
    def rate(self) -> float:
        return self.hands / self.seconds

    @property
    def cpu_ms(self) -> float:
        return self.cpu_seconds / self.hands * 1e3


def benchmark(record: Callable[[Solution], Mapping[str, Any]], objectives: Sequence[str],
              workers: Sequence[int], card_counts: Sequence[int] = (14, 17),
              hands: int = 400, seed: int = 1, variant: str = "pineapple",
              progress: Callable[[BenchRow], None] | None = None) -> list[BenchRow]:
    """Hands per second of whole batches (reading, solving, writing) of seeded random hands.

    Each engine is started and warmed (every worker solves a few hands) before it is timed,
    so the figures are the steady rate of a long batch.
    """
    rows = []
    with tempfile.TemporaryDirectory(prefix="fantasyland-bench-") as scratch:
        for count in workers:
            with open_engine(count) as engine:
                for cards in card_counts:
                    for objective in objectives:
                        settings = Settings(record, objective)
                        dealt = [hand_line(h) for h in deal_hands(hands, {cards: 1.0}, seed)]
                        warm = [hand_line(h) for h in
                                deal_hands(4 * engine.slots, {cards: 1.0}, seed + 1)]
                        out = Path(scratch, f"{count}-{cards}-{objective}.jsonl")
                        run_batch(warm, out.with_suffix(".warm"), settings, engine, variant,
                                  total=len(warm))
                        failures = _Failures()
                        summary = run_batch(dealt, out, settings, engine, variant,
                                            total=len(dealt), events=failures)
                        if summary.solved != hands:
                            raise BatchError(f"benchmark: {summary.failed} of {hands} hands "
                                             f"failed, the first with: {failures.first}")
                        rows.append(BenchRow(cards, objective, count, hands, summary.seconds,
                                             summary.cpu_seconds))
                        if progress:
                            progress(rows[-1])
    return rows
