"""``fantasyland review``: grade a history of ordinary hands, street by street (issue 17)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from fantasyland.cli.errors import (BAD_INPUT, SHOWN_BAD_LINES, read_stdin, report_error,
                                    reports_bad_input)
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, BudgetOption,
                                     EntryValueOption, JsonOption, ObjectiveOption,
                                     OpponentsOption, SeedOption, VariantOption, check_opponents,
                                     entry_values)
from fantasyland.cli.render import (LABEL_WIDTH, cards_text, console, labelled, measured, plural,
                                    progress_bar, say)
from fantasyland.evaluator import (ROWS, find_rules)
from fantasyland.evaluator.user_files import MAX_FILE_BYTES, read_file
from fantasyland.optimizer.ordinary import Figure

#: Exit code when some lines were bad but others were graded (as ``batch``).
LINES_FAILED = 1


def _points(value: float | None, error: float | None = None) -> str:
    if value is None:
        return "screened: not rolled out"
    text = f"{value:.2f}"
    return text if not error else f"{text} ± {error:.2f}"


def board_lines(board) -> Text:
    """A board so far, a row a line (top first), ``-`` for a row still empty; ``empty`` for
    the first street's board."""
    if not board.cards:
        return Text("empty")
    return Text("\n").join(cards_text(board.row(row)) if board.row(row) else Text("-")
                           for row in ROWS)


def play_parts(play) -> list[Text]:
    """Where a play put the dealt cards, a part a row it used, top first, and the discard:
    ``K♦ top``, ``7♣ 8♣ middle``, ``discard 4♠``."""
    parts = [Text.assemble(cards_text(cards), f" {row}") for row in ROWS
             if (cards := [card for card, placed in play.rows if placed == row])]
    if play.discard is not None:
        parts.append(Text.assemble("discard ", cards_text([play.discard])))
    return parts


def _table(result) -> Table:
    # The board and the plays a row a line, so that the table fits 80 columns: each play
    # shows every card dealt (where it went), so the dealt cards need no column of theirs.
    table = Table(title="Decisions", show_edge=False, pad_edge=False)
    for name in ("Line", "Street", "Board", "Played", "EV lost", "Best play"):
        table.add_column(name, justify="right" if name in ("Line", "Street") else "left")
    for i, d in enumerate(result.decisions):
        lost = "0 (best)" if d.is_best else _points(d.lost, d.lost_error) + (
            "\n(close)" if d.close else "") + ("\n(model)" if d.source == Figure.MODEL else "")
        best = Text("") if d.is_best else Text("\n").join(play_parts(d.best.play))
        table.add_row(str(d.line), str(d.street), board_lines(d.advice.position.board),
                      Text("\n").join(play_parts(d.played.play)), lost, best,
                      end_section=i < len(result.decisions) - 1)
    return table


def command(
    history: Annotated[str, typer.Argument(
        help="The history, JSON Lines, one street a line: board, cards and play, and "
             "optionally hand, variant, opponents, against and dead (docs/review.md). "
             "- reads stdin.", metavar="HISTORY", show_default=False)],
    variant: VariantOption = DEFAULT_VARIANT,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    opponents: OpponentsOption = None,
    seed: SeedOption = 0,
    budget: BudgetOption = None,
    entry_value: EntryValueOption = None,
    json_output: JsonOption = False,
) -> None:
    """Grade a history of ordinary hands: each street's EV lost against the best play.

    Each line is graded as `advise` grades its position, with the same seed, so a decision's
    numbers are advise's. Bad lines are reported with their line number and skipped; the
    exit code is then 1, and 2 when no line could be graded.
    """
    from fantasyland.optimizer.ordinary import DEFAULT_BUDGET
    from fantasyland.optimizer.ordinary import review_lines as review
    from fantasyland.optimizer.solver import Sample, TableSpec

    overrides = entry_values(entry_value)
    with reports_bad_input():
        rules = find_rules(variant)
        check_opponents(opponents, rules)
        if history == "-":
            lines = read_stdin("review", "the history", limit=MAX_FILE_BYTES).splitlines()
        else:
            lines = (read_file(history, "history").decode("utf-8-sig", errors="replace")
                     .splitlines())
        streets = sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))
        with progress_bar(TextColumn("grading"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("lines"), TimeElapsedColumn(), quiet=json_output) as bar:
            task = bar.add_task("grading", total=streets)
            result = review(lines, variant=rules, objective=objective.value,
                            sample=Sample(table=TableSpec(opponents=opponents), seed=seed),
                            budget=budget or DEFAULT_BUDGET, entry_overrides=overrides,
                            progress=lambda _line, _result: bar.advance(task))
    for bad in result.bad_lines[:SHOWN_BAD_LINES]:
        report_error(f"line {bad.line}: {bad.message}")
    if len(result.bad_lines) > SHOWN_BAD_LINES:
        report_error(f"{len(result.bad_lines) - SHOWN_BAD_LINES} more bad lines not shown "
                     f"({len(result.bad_lines)} in all)")
    if not result.decisions:  # nothing graded: the errors above say why, or this does
        if not result.bad_lines:
            report_error(f"{history!r} holds no street to grade: expected one JSON object a "
                         "line with board, cards and play")
        raise typer.Exit(BAD_INPUT)
    if json_output:
        typer.echo(json.dumps(measured(result.record()), indent=2, sort_keys=True))
    else:
        _print(result)
    if result.bad_lines:
        raise typer.Exit(LINES_FAILED)


def _print(result) -> None:
    if result.decisions:
        console.print(_table(result))
    worst = result.worst
    screened = len(result.decisions) - len(result.graded)
    best = sum(d.is_best for d in result.decisions)
    lines = [labelled("Decisions", f"{len(result.decisions)} graded"
                      + (f" ({screened} screened: not rolled out)" if screened else "")
                      + f", {plural(best, 'best play')}"),
             labelled("EV lost", f"{result.total_lost:.2f} ± {result.total_error:.2f} "
                                 f"({result.objective})")]
    if worst is not None and worst.lost > 0:
        lines.append(labelled("Worst", f"line {worst.line}, street {worst.street}: ",
                              Text(", ").join(play_parts(worst.played.play)),
                              f" lost {_points(worst.lost, worst.lost_error)}; best ",
                              Text(", ").join(play_parts(worst.best.play))))
    if result.bad_lines:
        shown = [str(b.line) for b in result.bad_lines[:SHOWN_BAD_LINES]]
        more = len(result.bad_lines) - len(shown)
        lines.append(labelled("Skipped", f"{plural(len(result.bad_lines), 'bad line')}: "
                              + ", ".join(shown) + (f" and {more} more" if more else "")))
    for line in lines:
        say(line, indent=LABEL_WIDTH)
