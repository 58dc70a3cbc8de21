"""Solving many hands: dealing them, reading them, and solving them in order, resumably.

A batch reads one hand per input line, solves the hands on an *engine* (this process, a pool
of worker processes, or a Dask cluster) and writes one JSON line per hand, in input order. A
line is written whole with one ``write``, so a killed run leaves whole lines (and at worst a
partial last line, which the next run cuts off); rerunning skips the ids already written,
puts an output with a hole back in input order, and refuses settings other than those the
output was written with (kept beside it). One run at a time writes an output (``lock``).
Input lines that cannot be solved go to an errors file instead, in input order too.
"""

from __future__ import annotations

from array import array
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.batch.files import (DROPPED, STAYS, Appender, BadLine, BatchError, Hand,
                                   Reader, WorkerError, cut_partial_line, first_record,
                                   in_order, read_output, read_settings, rewrite_in_order,
                                   settings_path, write_settings)
from fantasyland.optimizer.batch.lock import locked
from fantasyland.optimizer.solver.dealing import deal_hands, hand_line
from fantasyland.optimizer.batch.engines import Engine, Result, Settings, Task, open_engine
from fantasyland.optimizer.solver.objective import EV_OPTIONS, ObjectiveName, ev_options
from fantasyland.optimizer.solver.solve import Solution, default_samples, solve
from fantasyland.optimizer.solver.table import DEFAULT_SAMPLE, PLAIN, read_table


# --- resuming ------------------------------------------------------------------------------



def batch_settings(settings: Settings, rules: Rules) -> dict[str, Any]:
    """What every record of a batch depends on besides its own line, with ``solve``'s
    defaults filled in: what a rerun into the same output must repeat.

    ``rules`` are the batch's variant (a line's own variant is that line's business). The
    time limit is left out: it is a budget, not a setting, and a rerun may raise it.
    """
    defaults = {"opponents": PLAIN.seated(rules), "samples": default_samples(rules),
                "seed": DEFAULT_SAMPLE.seed}
    options = ev_options(settings.objective, **{name: defaults[name] for name in EV_OPTIONS}
                         | dict(settings.options))
    model = {}
    if settings.objective == ObjectiveName.EV:
        from fantasyland.optimizer.opponents.draw import model_name  # the pools load on first use

        model = {"opponent_model": model_name(rules)}
    # The table's options are tuples for solve, and lists as JSON reads them back.
    options = {name: list(value) if isinstance(value, tuple) else value
               for name, value in options.items()}
    return {"objective": settings.objective, "variant": rules.name,
            "rules": rules.fingerprint, "fl_value": settings.fl_value, **options, **model}


def _shown(value: Any) -> str:
    if value is None:
        return "the default"
    return repr(value) if isinstance(value, str) else str(value)


def _mismatch(output: Path, key: str, before: Mapping[str, Any],
              now: Mapping[str, Any]) -> str:
    if key == "rules":
        return (f"{str(output)!r} was written with --variant {now['variant']!r} holding other "
                "rules than this run's (a changed rules file?): rerun with the same rules or "
                "use another output file")
    if key == "opponent_model":
        return (f"{str(output)!r} was written against another opponent model "
                f"({before.get(key) or 'an older one'}; now {now.get(key)}): its EVs would "
                "not compare; use another output file")
    option, old = "--" + key.replace("_", "-"), before.get(key)
    was = f"the default {option}" if old is None else f"{option} {_shown(old)}"
    return (f"{str(output)!r} was written with {was}, not {_shown(now.get(key))}: rerun with "
            f"the same {option} or use another output file")


def check_output(output: str | Path, settings: Settings,
                 *, variant: str | Rules = "pineapple") -> dict[str, Any]:
    """The batch's settings (``batch_settings``), once it is known that ``output`` holds no
    records written with others; raises ``BatchError`` naming the first that differs.

    An output without its settings file (one from before there were any) is checked on what
    its first record shows: the objective, and under ev the samples and opponents.
    """
    output = Path(output)
    now = batch_settings(settings, find_rules(variant))
    first = first_record(output)
    if first is None:  # nothing written yet: nothing to mix with
        return now
    before = read_settings(settings_path(output))
    if before is None:
        ev = first.get("ev")
        shown = {"objective": first.get("objective")} | (
            {name: ev.get(name) for name in ("samples", "opponents")}
            if isinstance(ev, dict) else {})
        before = {key: value for key, value in shown.items() if value is not None}
        keys = list(before)
    else:
        keys = list(now) + [key for key in before if key not in now]
    for key in keys:
        if before.get(key) != now.get(key):
            raise BatchError(_mismatch(output, key, before, now))
    return now


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
    out: Appender
    errors: Appender
    events: Events
    summary: Summary = field(default_factory=Summary)
    ready: dict[int, Result | BadLine] = field(default_factory=dict)
    lines: dict[int, Hand] = field(default_factory=dict)  # seq -> hand, while in flight
    next_seq: int = 0
    # Each output line's input line number, in file order (STAYS for an id not in the input,
    # DROPPED for one written twice): what puts the output in input order after a hole.
    ranks: array = field(default_factory=lambda: array("q"))

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
            hand = self.lines.pop(self.next_seq, None)  # None for a line that was never solved
            if isinstance(item, Result) and item.text is not None:
                assert hand is not None  # a result is of a hand in flight
                out.append(item.text)
                self.ranks.append(hand.line)
                self.summary.solved += 1
                self.summary.value_sum += item.value
                self.summary.stays += item.stays
                self.summary.cpu_seconds += item.cpu
            else:
                if isinstance(item, Result):
                    assert hand is not None  # a result is of a hand in flight
                    item = BadLine(hand.line, hand.id, hand_line(hand.cards), item.error or "",
                                   item.detail)
                errors.append(item.record_line())
                self.summary.failed += 1
                self.events.bad_line(item)
            self.next_seq += 1
        self.out.write(out)
        self.errors.write(errors)


def run_batch(lines: Iterable[str], output: str | Path, settings: Settings, engine: Engine,
              *, variant: str | Rules = "pineapple", errors: str | Path | None = None,
              total: int | None = None, events: Events | None = None) -> Summary:
    """Solve every hand of ``lines`` not already in ``output`` and append them to it.

    ``errors`` (default ``output`` + ``.errors``) is rewritten with this run's bad lines.
    ``total`` is the input's hand count, if known, for progress. The settings go to
    ``OUTPUT.settings`` when the output starts. Raises ``BatchError``, before the output is
    touched, for an output another run is writing (``lock.locked``), written with other
    settings (``check_output``) or not by a batch, and ``RulesError`` for an unknown default
    variant.

    The hands are appended in input order. When the output has a hole (a hand missing
    before others that are there), the hands that fill it are appended too, as a killed run
    would have left them, and the output is then rewritten in input order
    (``files.rewrite_in_order``): the lines of ids this input does not hold stay where they
    are, and a second line of one id (two runs at once, before there was a lock) goes.
    """
    output = Path(output)
    with locked(output):
        return _run(lines, output, settings, engine, variant, errors, total, events)


def _run(lines: Iterable[str], output: Path, settings: Settings, engine: Engine,
         variant: str | Rules, errors: str | Path | None, total: int | None,
         events: Events | None) -> Summary:
    started = time.perf_counter()
    errors = Path(errors) if errors is not None else output.with_name(output.name + ".errors")
    reader = Reader(variant)
    now = check_output(output, settings, variant=reader.rules[0])
    written = read_output(output)
    cut_partial_line(output, written)
    done_ids = dict(written.ids)  # id -> its line in the output, until this input reaches it
    events = events or Events()
    batch = _Batch(settings, engine, reader, Appender(output), Appender(errors, truncate=True),
                   events, ranks=array("q", [STAYS]) * written.lines)
    for line in written.repeated:
        batch.ranks[line] = DROPPED
    batch.out.open()  # an output that cannot be written fails now, not after the first chunk
    if written.size == 0:  # a new output (or one killed before its first line)
        write_settings(settings_path(output), now)
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
                batch.ranks[done_ids.pop(item.id)] = item.line
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
    if not in_order(batch.ranks):
        rewrite_in_order(output, batch.ranks)
    batch.summary.unknown_ids = len(done_ids)
    batch.summary.seconds = time.perf_counter() - started
    return batch.summary


def check_settings(settings: Settings, *, variant: str | Rules = "pineapple") -> None:
    """Raise now, not once per hand, for an unknown variant or objective, a bad fl_value,
    time limit or option, or ev under rules that no opponent pool serves: by solving one
    hand, as ``solve`` is what decides what is valid."""
    options = settings.solve_options()
    hand: Sequence[int] = range(13)
    if options["sample"].table.known:
        # a hand that fits the table, against one sampled deal: its boards may be costly
        rules = find_rules(variant)
        left = list(rules.deck.cards)
        for card in read_table(rules, (), spec=options["sample"].table).known_cards:
            left.remove(card)
        hand, options["sample"] = sorted(left)[:13], replace(options["sample"], samples=1)
    solve(hand, variant=variant, objective=settings.objective, fl_value=settings.fl_value,
          time_limit=settings.time_limit, proof=settings.proof,
          **options)


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
              workers: Sequence[int], *, card_counts: Sequence[int] = (14, 17),
              hands: int = 400, seed: int = 1, variant: str = "pineapple",
              progress: Callable[[BenchRow], None] | None = None) -> list[BenchRow]:
    """Hands per second of whole batches (reading, solving, writing) of seeded random hands.

    Each engine is started and warmed (every worker solves a few hands) before it is timed,
    so the figures are the steady rate of a long batch.
    """
    rows = []
    with tempfile.TemporaryDirectory(prefix="fantasyland-bench-") as scratch:
        for count in workers:
            with open_engine(workers=count) as engine:
                for cards in card_counts:
                    for objective in objectives:
                        settings = Settings(record, objective)
                        deck = find_rules(variant).deck
                        dealt = [hand_line(h) for h in
                                 deal_hands(hands, {cards: 1.0}, seed, deck=deck)]
                        warm = [hand_line(h) for h in
                                deal_hands(4 * engine.slots, {cards: 1.0}, seed + 1, deck=deck)]
                        out = Path(scratch, f"{count}-{cards}-{objective}.jsonl")
                        run_batch(warm, out.with_suffix(".warm"), settings, engine, variant=variant,
                                  total=len(warm))
                        failures = _Failures()
                        summary = run_batch(dealt, out, settings, engine, variant=variant,
                                            total=len(dealt), events=failures)
                        if summary.solved != hands:
                            raise BatchError(f"benchmark: {summary.failed} of {hands} hands "
                                             f"failed, the first with: {failures.first}")
                        rows.append(BenchRow(cards, objective, count, hands, summary.seconds,
                                             summary.cpu_seconds))
                        if progress:
                            progress(rows[-1])
    return rows

