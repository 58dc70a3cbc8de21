"""``fantasyland review``: grade a history of ordinary hands, street by street (issue 17)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from fantasyland.cli.errors import BAD_INPUT, read_stdin, report_error, reports_bad_input
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, BudgetOption,
                                     EntryValueOption, JsonOption, ObjectiveOption,
                                     OpponentsOption, SeedOption, VariantOption,
                                     check_opponents, entry_values)
from fantasyland.cli.render import console, measured, shown
from fantasyland.evaluator import find_rules
from fantasyland.optimizer import ObjectiveError

#: Exit code when some lines were bad but others were graded (as ``batch``).
LINES_FAILED = 1


def _points(value: float | None, error: float | None = None) -> str:
    if value is None:
        return "screened: not rolled out"
    text = f"{value:.2f}"
    return text if not error else f"{text} ± {error:.2f}"


def _table(result) -> Table:
    table = Table(title="Decisions")
    for name in ("Line", "Street", "Board", "Cards", "Played", "EV lost", "Best play"):
        table.add_column(name, justify="right" if name in ("Line", "Street") else "left")
    for d in result.decisions:
        position = d.advice.position
        lost = "0 (best)" if d.is_best else _points(d.lost, d.lost_error) + (
            " (close)" if d.close else "")
        table.add_row(str(d.line), str(position.street), position.board.format(ascii=True),
                      " ".join(position.record()["cards"].split()), d.played.play.describe(),
                      lost, "" if d.is_best else d.best.play.describe())
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
    from fantasyland.optimizer.ordinary.advise import DEFAULT_BUDGET
    from fantasyland.optimizer.ordinary.review import review

    overrides = entry_values(entry_value)
    with reports_bad_input(ObjectiveError):
        rules = find_rules(variant)
        check_opponents(opponents, rules)
        if history == "-":
            lines = read_stdin("review", "the history").splitlines()
        else:
            try:
                with open(history, encoding="utf-8-sig", errors="replace") as data:
                    lines = data.read().splitlines()
            except OSError as error:
                report_error(f"cannot read {history!r}: {error.strerror}")
                raise typer.Exit(BAD_INPUT) from None
        from fantasyland.optimizer.ordinary.position import PositionError

        try:
            result = review(lines, rules, objective.value, opponents, seed=seed,
                            budget=budget or DEFAULT_BUDGET, entry_overrides=overrides)
        except PositionError as error:
            report_error(str(error))
            raise typer.Exit(BAD_INPUT) from None
    for bad in result.bad_lines:
        report_error(f"line {bad.line}: {bad.message}")
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
    lines = [f"Decisions: {len(result.decisions)} graded"
             + (f" ({screened} screened: not rolled out)" if screened else "")
             + f", {sum(d.is_best for d in result.decisions)} best plays",
             (f"EV lost:   {result.total_lost:.2f} ± {result.total_error:.2f} "
              f"({result.objective})")]
    if worst is not None and worst.lost > 0:
        lines.append(f"Worst:     line {worst.line}, street {worst.street}: "
                     f"{worst.played.play.describe()} lost {_points(worst.lost, worst.lost_error)}"
                     f"; best {worst.best.play.describe()}")
    if result.bad_lines:
        lines.append(f"Skipped:   {len(result.bad_lines)} bad line"
                     f"{'s' * (len(result.bad_lines) != 1)}: "
                     + ", ".join(str(b.line) for b in result.bad_lines))
    for line in lines:
        console.print(Text(shown(line)), soft_wrap=True)
