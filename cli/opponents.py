"""``fantasyland opponents``: the opponent model's figures, its pools, and its card removal."""

from __future__ import annotations

import json
import time
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from cli.command import old_spelling
from cli.errors import BAD_INPUT, report_error, reports_bad_input
from cli.options import (JsonOption, SeedOption, VariantOption, WorkersOption, hands_option,
                         workers_count)
from cli.render import console, err_console, measured, shown
from evaluator import find_rules, parse_cards
from optimizer import ObjectiveError, solve
from optimizer.opponents.draw import bot_stats
from optimizer.opponents.errors import OpponentModelError
from optimizer.opponents.pools import (POOL_SEED, build_pool, dealing_for, pool_file_name,
                                       pool_for)
from optimizer.opponents.removal import removal_check


def _figures(stats: dict) -> list[str]:
    return [f"{stats['foul_rate']:.1%} ± {stats['foul_rate_se']:.1%}",
            f"{stats['fantasyland_rate']:.1%} ± {stats['fantasyland_rate_se']:.1%}",
            f"{stats['mean_royalties']:.2f} ± {stats['mean_royalties_se']:.2f}",
            f"{stats['royalties_when_not_fouled']:.2f}"]


def _stats_table(title: str, stats: dict) -> Table:
    """The figures, and beside them the bot's own where the model weights its boards."""
    calibrated = stats["calibration"] is not None
    table = Table(title=title)
    table.add_column("Figure")
    table.add_column("Opponent model" if calibrated else "Value", justify="right")
    if calibrated:
        table.add_column("Bot's own play", justify="right")
    for name, key in (("source", "source"), ("dealing", "dealing"), ("boards", "boards")):
        table.add_row(name, str(stats[key]), *[str(stats[key])] * calibrated)
    if calibrated:
        table.add_row("effective boards", f"{stats['effective_boards']:.0f}",
                      str(stats["boards"]))
    names = ("foul rate", "Fantasyland rate", "mean royalties", "royalties when not fouled")
    bot = _figures(stats["bot_play"])
    for name, model_figure, bot_figure in zip(names, _figures(stats), bot):
        table.add_row(name, model_figure, *[bot_figure] * calibrated)
    return table


def _regenerate(rules, hands: int | None, seed: int, workers: int, output: Path | None,
                quiet: bool) -> None:
    shipped = resources.files("optimizer.opponents.data") / pool_file_name(rules)
    target = output or Path(str(shipped))
    started = time.perf_counter()
    with Progress(console=err_console, transient=True, disable=quiet) as bar:
        task = bar.add_task(f"playing {dealing_for(rules).name} hands", total=hands)
        pool = build_pool(rules, hands, seed, workers, lambda n: bar.advance(task, n))
    pool.save(target)
    console.print(Text(shown(f"Wrote {len(pool)} boards ({dealing_for(rules).name}, rules "
                             f"{rules.name}, seed {seed}) to {target} in "
                             f"{time.perf_counter() - started:.0f} s")), soft_wrap=True)


def _check(rules, cards: str, hands: int, seed: int, workers: int, json_output: bool) -> None:
    dealt = parse_cards(cards, deck=rules.deck)
    ours = solve(dealt, rules, "royalties").report  # the set scored against the boards
    result = removal_check(rules, dealt, ours, hands, seed, workers)
    if json_output:
        typer.echo(json.dumps(measured(result), indent=2, sort_keys=True))
        return
    console.print(f"Dealt {result['dealt']} cards; set {result['set']}; pool pairs: "
                  f"{result['exact_pairs']} exact, {result['relaxed_pairs']} placed-only")
    table = Table(title=f"card removal against {hands} live hands")
    for name in ("Source", "Boards", "Fouls", "FL", "Royalties", "Points", "TVD top/mid/bot"):
        table.add_column(name, justify="left" if name == "Source" else "right")
    for name in ("live", "exact", "placed_only", "no_removal"):
        s = result[name]
        tvd = "/".join(f"{s['class_tvd'][row]:.3f}" for row in ("top", "middle", "bottom")) \
            if "class_tvd" in s else "-"
        table.add_row(name, str(s["boards"]), f"{s['foul_rate']:.1%}",
                      f"{s['fantasyland_rate']:.1%}", f"{s['mean_royalties']:.2f}",
                      f"{s['points']:+.2f} ± {s['points_se']:.2f}", tvd)
    console.print(table)


#: Hands that --stats and --check take when --hands is not given.
DEFAULT_HANDS = 5000


def command(
    stats: Annotated[bool, typer.Option(
        "--stats", help="Print the calibration figures (the default action).")] = False,
    regenerate: Annotated[bool, typer.Option(
        "--regenerate", help="Rebuild the variant's pool of bot boards (package data).")] = False,
    check: Annotated[str | None, typer.Option(
        "--check", metavar="CARDS", show_default=False,
        help="Measure the card-removal error for these dealt cards against live play.")] = None,
    variant: VariantOption = "pineapple",
    hands: Annotated[int | None, hands_option(
        "Hands the action takes: the pool boards --stats draws (each a hand the bot played), "
        "the hands the bot plays now for --stats --live and --check, the hands of the pool "
        "--regenerate builds.",
        shown=f"{DEFAULT_HANDS}; for --regenerate the shipped pool's size")] = None,
    seed: SeedOption = 0,
    live: Annotated[bool, typer.Option(
        "--live", help="--stats from hands played now, not from the pool (slow).")] = False,
    pool_seed: Annotated[int, typer.Option(
        "--pool-seed", help="Seed of a regenerated pool (--seed is not used there).",
        min=0)] = POOL_SEED,
    workers: WorkersOption = None,
    output: Annotated[Path | None, typer.Option(
        help="Where --regenerate writes (default: the package's pool file).",
        show_default=False)] = None,
    json_output: JsonOption = False,
    old_boards: Annotated[int | None, old_spelling("--boards", min=1)] = None,
) -> None:
    """The opponent model behind the EV objective: its figures, its pools, its card removal.

    `--stats` prints the foul rate, Fantasyland-entry rate and mean royalties of the
    opponent model, and of the bot's own play where the model weights its boards to a target
    (Pineapple); from the shipped pool, or `--live`. `--regenerate` rebuilds the pool the
    variant uses. `--check CARDS` compares the pool's boards for those dealt cards with the
    bot's live play from the deck without them. `--hands` counts the hands of each action;
    `--seed` seeds the draw of --stats and the play of --check and --live, `--pool-seed` a
    regenerated pool; `--workers` plays the hands of --regenerate, --check and --live.
    """
    del old_boards  # its value went to --hands (cli.options)
    workers = workers_count(workers)
    actions = [name for name, given in (("--stats", stats), ("--regenerate", regenerate),
                                         ("--check", check is not None)) if given]
    if len(actions) > 1:
        report_error(f"{' and '.join(actions)} given together: choose one action")
        raise typer.Exit(BAD_INPUT)
    # no pool, or a target it cannot reach
    with reports_bad_input(ObjectiveError, OpponentModelError):
        rules = find_rules(variant)
        if regenerate:
            _regenerate(rules, hands, pool_seed, workers, output, json_output)
            return
        if check is not None:
            _check(rules, check, DEFAULT_HANDS if hands is None else hands, seed, workers,
                   json_output)
            return
        if hands is None:  # all of a pool smaller than the default (the new decks' are)
            hands = DEFAULT_HANDS if live else min(DEFAULT_HANDS, len(pool_for(rules)))
        figures = bot_stats(rules, hands, seed, live=live, workers=workers)
    if json_output:
        typer.echo(json.dumps(measured(figures | {"variant": rules.name}), indent=2,
                              sort_keys=True))
        return
    console.print(_stats_table(f"{rules.name}: the opponent model", figures))
    if figures["calibration"] is not None:
        console.print(f"The model weights the bot's boards to "
                      f"{figures['calibration']['target_mean_royalties']:g} mean royalties, "
                      "foul and entry rates held (docs/ev-and-opponents.md, \"Calibration\").",
                      soft_wrap=True)
