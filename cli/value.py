"""``fantasyland value``: what a Fantasyland entry is worth, by simulating optimal play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from fantasyland.cli.command import old_spelling
from fantasyland.cli.errors import report_error, reports_bad_input
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, JsonOption,
                                     ObjectiveOption, OpponentsOption, SeedOption, VariantOption,
                                     WorkersOption, check_opponents, hands_option, workers_count)
from fantasyland.cli.render import (console, measured, progress_bar, say, shown)
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.solver import ObjectiveName, check_objective
from fantasyland.optimizer.training import (DEFAULT_SAMPLES, WorthTable, simulate,
                                           worth_table)


def table_dict(table: WorthTable) -> dict:
    """``value --json`` (docs/json.md, cli/schemas/value.schema.json)."""
    return {
        "variant": table.rules.name, "objective": table.objective, "hands": table.samples,
        "seed": table.seed, "opponents": table.opponents,
        "repeat_value": table.repeat_value,
        "rules_key": "ev_repeat_value" if table.objective == ObjectiveName.EV else "repeat_value",
        "rules_key_value": table.repeat_value / _table_size(table),
        "sizes": [{
            "cards": r.cards, "hands": r.hands, "fl_value": r.fl_value,
            "royalties": r.royalties, "royalties_se": r.royalties_se,
            "value": r.value, "value_se": r.value_se,
            "stay_rate": r.stay_rate, "stay_rate_se": r.stay_rate_se,
            "stay_rate_at_f0": r.stay_rate_at_f0,
            "stay_possible": r.stay_possible, "worth": r.worth, "worth_se": r.worth_se,
        } for r in table.rows],
        "entries": [{"entry": entry, "cards": cards, "worth": worth}
                    for entry, cards, worth in table.entries()],
    }


def _pm(value: float, se: float) -> str:
    return f"{value:.1f} ± {se:.1f}"


def _pct(value: float, se: float | None = None) -> str:
    return f"{value:.1%}" + ("" if se is None else f" ± {se:.1%}")


def render(table: WorthTable) -> None:
    out = Table(title=f"{table.rules.name}: optimal play, {table.samples} hands a size, "
                      f"seed {table.seed}, {table.objective} objective")
    # In the royalties objective a hand's value is its royalties: one column says it.
    own = table.objective != ObjectiveName.ROYALTIES
    for name in ("Cards", "Royalties", *(("Hand value",) if own else ()), "Stays",
                 "If F = 0", "Can stay", "Worth W"):
        out.add_column(name, justify="right")
    for r in table.rows:
        out.add_row(str(r.cards), _pm(r.royalties, r.royalties_se),
                    *((_pm(r.value, r.value_se),) if own else ()),
                    _pct(r.stay_rate, r.stay_rate_se), _pct(r.stay_rate_at_f0),
                    _pct(r.stay_possible), _pm(r.worth, r.worth_se))
    console.print(out)
    entries = Table(title="Worth of an entry")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("Entry", "left"), ("Cards", "right"), ("Worth W", "right"))
    for name, justify in columns:
        entries.add_column(name, justify=justify)
    for entry, cards, worth in table.entries():
        entries.add_row(entry, str(cards), _pm(worth, table.row(cards).worth_se))
    console.print(entries)
    say(_staying_note(table))


def _table_size(table: WorthTable) -> int:
    """What the table's worths are divided by for the rules key: the opponents under ev
    (``ev_repeat_value`` is per opponent), 1 under royalties (no opponents involved)."""
    return table.opponents if table.objective == ObjectiveName.EV else 1


def _staying_note(table: WorthTable) -> str:
    """What the table says the worth of staying is, next to what the rules file says now:
    per size of the hand that stays where the repeat deals as many cards as the entry."""
    rules, ev = table.rules, table.objective == ObjectiveName.EV
    key = "ev_repeat_value (points from one opponent)" if ev else "repeat_value"
    now = rules.ev_repeat_value_after if ev else rules.repeat_value_after
    found = {r.cards for r in table.rows}
    pairs = sorted({(n, rules.repeat_cards_after(n)) for n in found
                    if rules.repeat_cards_after(n) in found})
    measured = [(n, table.row(repeat).worth / _table_size(table)) for n, repeat in pairs]
    if len({repeat for _, repeat in pairs}) == 1:
        repeat = pairs[0][1]
        figure = (f"{measured[0][1]:.2f}, the worth W of a {repeat}-card repeat"
                  + (" per opponent" if ev else ""))
        given = f"{now(pairs[0][0]):.1f}"
    else:
        figure = ", ".join(f"{n} cards {w:.2f}" for n, w in measured) + \
            " (W of the repeat each size earns" + (", per opponent)" if ev else ")")
        given = ", ".join(f"{n} = {now(n):.1f}" for n, _ in measured)
    says = f"which now says {given}" if not ev or rules.ev_repeat_value is not None else \
        f"which it lacks (its repeat_value, {given}, stands in)"
    return (f"Measured worth of staying: {figure}. It is the figure for the rules file's {key}, "
            f"{says}. W: this hand and every repeat it earns. Stays: the stay rate of optimal "
            "play with that worth of staying; if F = 0: of optimal play when staying is worth "
            "nothing; can stay: hands with any legal set that stays. ± one standard error.")


def _pyplot():
    """matplotlib's pyplot, drawing to files only; a one-line error (exit code 2) without it."""
    try:
        import matplotlib
    except ImportError:
        report_error("--plot needs matplotlib: python3 -m pip install '.[plot]'")
        raise typer.Exit(2) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plot_path(path: Path) -> None:
    """Refuse, before any hand is solved, a chart file that cannot be written (a missing or
    read-only directory, a directory in its place): opening it is the only sure test. A file
    the test creates is removed again, one that was there is left as it was."""
    existed = path.exists()
    try:
        with open(path, "ab"):
            pass
    except OSError as error:
        report_error(f"cannot write the --plot chart {str(path)!r}: "
                     f"{error.strerror or error}")
        raise typer.Exit(2) from None
    if not existed:
        path.unlink(missing_ok=True)


def plot(table: WorthTable, path: Path) -> None:
    """A PNG: the worth of each hand size with its error bar, and the stay rates."""
    plt = _pyplot()
    cards = [r.cards for r in table.rows]
    fig, left = plt.subplots(figsize=(7, 4.2), dpi=100)
    left.bar(cards, [r.worth for r in table.rows], yerr=[r.worth_se for r in table.rows],
             color="#4477aa", capsize=4, label="worth W of an entry (points)")
    left.bar(cards, [r.value for r in table.rows], width=0.4, color="#99bbdd",
             label="the hand alone")
    left.set_xlabel("cards dealt in Fantasyland")
    left.set_ylabel(f"points ({table.objective})")
    left.set_xticks(cards)
    right = left.twinx()
    right.plot(cards, [100 * r.stay_rate for r in table.rows], "o-", color="#cc6677",
               label="stay rate, %")
    right.set_ylabel("stay rate (%)")
    right.set_ylim(0, 100)
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    left.legend(handles=handles, loc="upper left", fontsize="small")
    left.set_title(f"{table.rules.name}: {table.samples} hands a size, seed {table.seed}")
    fig.tight_layout()
    try:
        fig.savefig(path, format="png")
    except OSError as error:
        report_error(f"cannot write {str(path)!r}: {error.strerror}")
        raise typer.Exit(2) from None
    finally:
        plt.close(fig)


def command(
    variant: VariantOption = DEFAULT_VARIANT,
    hands: Annotated[int, hands_option(
        "Random hands solved for each Fantasyland size.", low=2)] = DEFAULT_SAMPLES,
    seed: SeedOption = 0,
    opponents: OpponentsOption = None,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    workers: WorkersOption = None,
    plot_file: Annotated[Path | None, typer.Option(
        "--plot", help="Also draw the table as a PNG chart in this file (needs matplotlib).",
        dir_okay=False, show_default=False)] = None,
    json_output: JsonOption = False,
    old_samples: Annotated[int | None, old_spelling("--samples", min=2)] = None,
    old_jobs: Annotated[int | None, old_spelling("--jobs", min=1)] = None,
) -> None:
    """Estimate the worth of Fantasyland for each hand size, and of each entry.

    Solves seeded random hands of every size the variant deals, then the recursion
    W(n) = mean value + stay rate x W(repeat size). The worth of a repeat is the variant's
    natural --fl-value. See docs/fantasyland-value.md.
    """
    del old_samples, old_jobs  # their values went to --hands and --workers (cli.options)
    if plot_file is not None:  # before any work: a chart that cannot be drawn fails now
        _pyplot()
        check_plot_path(plot_file)
    workers = workers_count(workers)
    with reports_bad_input():
        rules = find_rules(variant)
        opponents = check_opponents(opponents, rules)
        check_objective(rules, objective.value)
        sizes = rules.dealt_counts
        if not sizes:
            report_error(f"{rules.name} has no Fantasyland: nothing to simulate")
            raise typer.Exit(2)
        columns = (TextColumn("solving"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
        with progress_bar(*columns, quiet=json_output) as bar:
            task = bar.add_task("solving", total=hands * len(sizes))
            outcomes = simulate(rules, samples=hands, seed=seed, objective=objective.value,
                                opponents=opponents, sizes=sizes, jobs=workers,
                                progress=lambda done: bar.advance(task, done))
        table = worth_table(outcomes, rules, objective=objective.value, seed=seed,
                            opponents=opponents)
    if plot_file is not None:
        plot(table, plot_file)
    if json_output:
        typer.echo(json.dumps(measured(table_dict(table)), indent=2, sort_keys=True))
        return
    render(table)
    if plot_file is not None:
        say(Text(f"Chart written to {shown(str(plot_file))}"))
