"""``fantasyland batch``: solve a file of hands into JSON lines, in parallel and resumably."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task,
                           TaskID, TextColumn, TimeElapsedColumn)
from rich.table import Table
from rich.text import Text

from fantasyland.cli.command import from_command_line_or_file, given, old_spelling
from fantasyland.cli.errors import (SHOWN_BAD_LINES, check_stdin_open, report_error,
                                    reports_bad_input)
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, AgainstOption,
                                     DeadOption, FlValueOption, OpponentFantasylandOption,
                                     OpponentsOption, ObjectiveOption, ProofOption, SamplesOption,
                                     SeedOption, TimeLimitOption, VariantOption, WorkersOption,
                                     check_opponents, check_table, hands_option, table_options,
                                     workers_count)
from fantasyland.cli.render import console, err_console, shown
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.user_files import FileError, is_stdout
from fantasyland.evaluator.user_files import check_output as check_writable
from fantasyland.optimizer.batch import (BadLine, BatchError, BenchRow, Events, Settings, Summary,
                                        WorkerError, check_output, check_settings,
                                        count_hand_lines, machine, open_engine, open_input,
                                        run_batch)
from fantasyland.optimizer.batch import benchmark_batches as benchmark
from fantasyland.optimizer.solver import OBJECTIVES, ProofMethod
from fantasyland.optimizer.solver import solution_record as solution_dict

#: Bad lines printed on stderr before the rest go to the errors file only.
SHOWN_ERRORS = SHOWN_BAD_LINES

#: Exit code when some lines failed (the batch itself ran to the end).
LINES_FAILED = 1


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:.1f} hands/s" if task.speed else "- hands/s", style="cyan")


class _Eta(ProgressColumn):
    """The time left, or ``-`` while it is unknown (from stdin there is no total)."""

    def render(self, task: Task) -> Text:
        left = task.time_remaining
        if left is None:
            return Text("ETA -")
        minutes, seconds = divmod(int(left), 60)
        return Text(f"ETA {minutes // 60}:{minutes % 60:02d}:{seconds:02d}", style="cyan")


class _Bar(Events):
    """The progress bar, and the bad lines above it."""

    def __init__(self, progress: Progress | None, errors: Path):
        self.progress, self.errors, self.shown = progress, errors, 0
        self.task: TaskID | None = None  # once started

    def start(self, total: int | None) -> None:
        if self.progress is not None:
            self.task = self.progress.add_task("solving", total=total)

    def advance(self, count: int) -> None:
        if self.progress is not None and self.task is not None and count:
            self.progress.advance(self.task, count)

    def bad_line(self, bad: BadLine) -> None:
        self.shown += 1
        if self.shown <= SHOWN_ERRORS:
            where = f"line {bad.line}" + (f" (id {bad.id})" if bad.id != str(bad.line) else "")
            report_error(f"{where}: {bad.message}")  # an id is shown escaped, as all input
        elif self.shown == SHOWN_ERRORS + 1:
            report_error(f"more bad lines: see {self.errors}")


def _progress(enabled: bool) -> Progress | None:
    if not enabled:
        return None
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    _Rate(), TextColumn("elapsed"), TimeElapsedColumn(), _Eta(),
                    console=err_console)


def _duration(seconds: float) -> str:
    """Seconds to about three figures, so that the hands/s beside them can be checked: a
    short run in ms rather than as 0.0 s."""
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def _print_summary(summary: Summary, output: Path, errors: Path) -> None:
    solved = summary.solved > 0
    lines = [f"Hands:      {summary.hands} ({summary.solved} solved now, {summary.skipped} "
             f"already in {output}, {summary.failed} failed)",
             "Mean value: " + (f"{summary.mean_value:.3f} (hands solved now)" if solved else "-"),
             "Stay rate:  " + (f"{summary.stay_rate:.1%}" if solved else "-"),
             f"Wall time:  {_duration(summary.seconds)} ({summary.rate:.1f} hands/s)"]
    if summary.failed:
        lines.append(f"Failures:   {summary.failed}, listed in {errors}")
    if summary.unknown_ids:
        lines.append(f"Note:       {summary.unknown_ids} records in {output} have ids that are "
                     "not in this input")
    for line in lines:  # the paths are the user's: shown escaped, as in errors
        err_console.print(Text(shown(line)), soft_wrap=True)


def _load() -> str:
    try:
        with open("/proc/loadavg", encoding="utf-8") as load:
            return " ".join(load.read().split()[:3])
    except OSError:
        return "unknown"


def _bench(workers: int, hands: int, variant: str, objectives: Sequence[str]) -> None:
    for objective in objectives:  # a bad one fails now, not after the others are measured
        check_settings(Settings(solution_dict, objective), variant=variant)
    console.print(f"Machine: {machine()}", soft_wrap=True)
    console.print(f"Load average before: {_load()}", soft_wrap=True)
    table = Table(title=f"batch throughput: {variant}, {hands} seeded random hands per row")
    for name in ("Cards", "Objective", "Workers", "Seconds", "Hands/s", "Of ideal",
                 "CPU ms/hand"):
        table.add_column(name, justify="left" if name == "Objective" else "right")

    def show(row: BenchRow) -> None:
        err_console.print(f"{row.cards} cards, {row.objective}, {row.workers} worker(s): "
                          f"{row.rate:.1f} hands/s", highlight=False)

    rows = benchmark(solution_dict, objectives, sorted({1, workers}), hands=hands,
                     variant=variant, progress=show)
    single = {(r.cards, r.objective): r.rate for r in rows if r.workers == 1}
    for row in sorted(rows, key=lambda r: (r.cards, r.objective, r.workers)):
        ideal = row.workers * single[row.cards, row.objective]
        table.add_row(str(row.cards), row.objective, str(row.workers), f"{row.seconds:.2f}",
                      f"{row.rate:.1f}", f"{row.rate / ideal:.0%}", f"{row.cpu_ms:.2f}")
    console.print(table)
    # Other work on the machine lowers the hands/s; the CPU time per hand stays put.
    console.print(f"Load average after: {_load()}", soft_wrap=True)


def command(
    ctx: typer.Context,
    input_file: Annotated[str | None, typer.Argument(
        help="Hands, one a line: cards with an optional id first (text), or JSON objects with "
             "id, cards and optionally variant (which wins over --variant). - reads stdin.",
        metavar="INPUT", show_default=False)] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The JSONL file to write; if it exists, the hands whose ids it "
                               "holds are skipped (resume), and other settings than it was "
                               "written with are refused. One run at a time writes it (a "
                               "lock on OUTPUT.lock).", show_default=False)] = None,
    workers: WorkersOption = None,
    variant: VariantOption = DEFAULT_VARIANT,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    fl_value: FlValueOption = None,
    time_limit: TimeLimitOption = 10.0,
    proof: ProofOption = ProofMethod.FASTEST,
    opponents: OpponentsOption = None,  # solve's defaults, passed on to every hand's solve
    samples: SamplesOption = None,
    seed: SeedOption = 0,
    against: AgainstOption = None,
    opponent_fantasyland: OpponentFantasylandOption = None,
    dead: DeadOption = None,
    errors: Annotated[Path | None, typer.Option(
        help="Where bad lines go, one JSON object each. Default: OUTPUT.errors.",
        show_default=False)] = None,
    cluster: Annotated[str | None, typer.Option(
        help="Run on a Dask distributed scheduler at this address (tcp://host:8786) instead "
             "of local processes. Needs: pip install 'fantasyland[cluster]'.",
        show_default=False)] = None,
    progress: Annotated[bool, typer.Option(
        help="Show a progress bar on stderr.")] = True,
    bench: Annotated[bool, typer.Option(
        "--bench", help="Measure hands/s for 14 and 17 cards, every objective (or the one "
                        "--objective gives), 1 worker against --workers, and print them; "
                        "needs no INPUT.")] = False,
    hands: Annotated[int, hands_option("Hands solved for each --bench measurement.")] = 400,
    old_bench_hands: Annotated[int | None, old_spelling("--bench-hands", min=1)] = None,
) -> None:
    """Solve many hands into a JSONL file: one `solve --json` record per hand, plus its id.

    Output is in input order, written a whole line at a time, so a killed run can be rerun
    with the same output file to finish it (with the same settings: they are kept in
    OUTPUT.settings). Bad lines are reported with their line number,
    skipped and listed in the errors file; the exit code is then 1 (2 for bad options).
    """
    del old_bench_hands  # its value went to --hands (cli.options)
    workers = workers_count(workers)
    if bench:
        with reports_bad_input():
            _bench(workers, hands, variant,
                   [objective.value] if given(ctx, "objective") else OBJECTIVES)
        return
    if input_file is None or output is None:
        report_error("batch needs INPUT and -o OUTPUT (or --bench)")
        raise typer.Exit(2)
    if input_file == "-":  # before any file is written
        check_stdin_open("batch -", "the hands",
                         "pipe them in (fantasyland deal ... | fantasyland batch - -o OUT) or "
                         "give a file")
    # A file it can resume and append to, whole lines at a time: not stdout or a device.
    with reports_bad_input():
        if is_stdout(output):
            raise FileError("cannot write batch output '-': batch writes a file it resumes "
                            "from, not standard output; give a file (-o OUT.jsonl)")
        check_writable(output, "batch output")
        if errors is not None:
            check_writable(errors, "errors file")
    errors = errors or output.with_name(output.name + ".errors")
    # Options left at solve's defaults are not recorded in the settings kept beside OUTPUT,
    # so that spelling a default out later does not count as other settings; those the
    # config file sets are, as the same run with another config file solves otherwise.
    ev = {"opponents": opponents, "samples": samples, "seed": seed}
    table = table_options(opponents, against, opponent_fantasyland, dead)
    known = {k: v for k, v in table.options().items() if k != "opponents"}
    settings = Settings(solution_dict, objective.value, fl_value, time_limit,
                        tuple((k, v) for k, v in ev.items()
                              if from_command_line_or_file(ctx, k))
                        + tuple(known.items()), proof=proof)
    if input_file != "-" and Path(input_file).resolve() == output.resolve():
        report_error(f"INPUT and OUTPUT are the same file: {output}")
        raise typer.Exit(2)
    with reports_bad_input():
        check_opponents(opponents, find_rules(variant))
        check_table(objective.value, find_rules(variant), table)
        check_settings(settings, variant=variant)
        try:
            check_output(output, settings, variant=variant)  # before any worker starts
        except OSError as error:
            raise BatchError(f"{error.filename or output}: {error.strerror}") from None
        try:
            # Counting a pipe or stdin would consume it: their total stays unknown.
            total = (count_hand_lines(input_file)
                     if input_file != "-" and Path(input_file).is_file() else None)
        except OSError as error:
            raise BatchError(f"cannot read {input_file!r}: {error.strerror}") from None
        bar = _progress(progress)
        events = _Bar(bar, errors)
        try:
            with (open_input(input_file) as lines,
                  open_engine(workers=workers, cluster=cluster) as engine):
                if bar is not None:
                    bar.start()
                try:
                    summary = run_batch(lines, output, settings, engine, variant=variant,
                                        errors=errors, total=total, events=events)
                finally:
                    if bar is not None:
                        bar.stop()
        except OSError as error:
            raise BatchError(f"{error.filename or output}: {error.strerror}") from None
        except WorkerError as error:
            report_error(f"{error}; {output} holds every hand finished so far: run the same "
                         "command again to go on")
            raise typer.Exit(LINES_FAILED) from None
        except KeyboardInterrupt:
            report_error(f"interrupted: {output} holds every hand finished so far; run the "
                         "same command again to go on")
            raise typer.Exit(130) from None
    _print_summary(summary, output, errors)
    if summary.failed:
        raise typer.Exit(LINES_FAILED)
