"""``fantasyland opponents``: the opponent model's figures, its pools, and its card removal."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from fantasyland.cli.command import Command, old_spelling
from fantasyland.cli.errors import BAD_INPUT, report_error, reports_bad_input
from fantasyland.cli.options import (DEFAULT_VARIANT, JsonOption, OpponentsOption, SamplesOption,
                                     SeedOption, VariantOption, WorkersOption, check_opponents,
                                     hands_option, workers_count)
from fantasyland.cli.render import (console, err_console, measured, progress_bar, shown)
from fantasyland.evaluator import ROWS, find_rules, parse_cards
from fantasyland.evaluator.user_files import FileError, check_directory, check_output
from fantasyland.optimizer import solve
from fantasyland.optimizer.opponents import (CHUNK, CLOSED_HANDS, CLOSED_ROUNDS, CLOSED_SEED,
                                            FIGURES, POOL_SEED, OpponentModelError,
                                            bot_stats, build_pool, closed_model_file_name,
                                            dealing_for, iterate_closed_model, load_pool,
                                            pool_coverage, pool_file_name, removal_check,
                                            save_closed_model, serving_pool, shipped_build)
from fantasyland.optimizer.solver import CHECK_CARDS, CHECK_HANDS, ObjectiveName, default_samples
from fantasyland.optimizer.solver import check_ev_error as error_check


def _figures(stats: dict) -> list[str]:
    return [f"{stats['foul_rate']:.1%} ± {stats['foul_rate_se']:.1%}",
            f"{stats['fantasyland_rate']:.1%} ± {stats['fantasyland_rate_se']:.1%}",
            f"{stats['mean_royalties']:.2f} ± {stats['mean_royalties_se']:.2f}",
            f"{stats['royalties_when_not_fouled']:.2f}",
            f"{stats['entries_fouled_rate']:.1%} ± {stats['entries_fouled_rate_se']:.1%}"]


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
    names = ("foul rate", "Fantasyland rate", "mean royalties", "royalties when not fouled",
             "entries lost to fouls")
    bot = _figures(stats["bot_play"])
    for name, model_figure, bot_figure in zip(names, _figures(stats), bot):
        table.add_row(name, model_figure, *[bot_figure] * calibrated)
    return table


def _regenerate_closed(rules, hands: int | None, seed: int | None, output: Path | None,
                       quiet: bool) -> None:
    """Classic Chinese Poker's model: the worths of its fixed point, not a pool of boards."""
    hands = hands or CLOSED_HANDS
    seed = CLOSED_SEED if seed is None else seed
    shipped = (resources.files("fantasyland.optimizer.opponents.data")
               / closed_model_file_name(rules))
    target = output or Path(str(shipped))
    check_output(target, "model")  # before the half minute of work it would hold
    started = time.perf_counter()
    with progress_bar(quiet=quiet) as bar:
        task = bar.add_task("setting hands", total=hands * CLOSED_ROUNDS)
        worths = iterate_closed_model(rules, rounds=CLOSED_ROUNDS, hands=hands, seed=seed,
                                      progress=lambda n: bar.advance(task, n))[-1]
    try:
        save_closed_model(target, worths, rules, CLOSED_ROUNDS, hands, seed)
    except OSError as error:
        raise FileError(f"cannot write model {str(target)!r}: {error.strerror or error}; the "
                        "model built is lost") from None
    console.print(Text(shown(f"Wrote the model of {rules.name} ({CLOSED_ROUNDS} rounds of "
                             f"{hands} hands, seed {seed}) to {target} in "
                             f"{time.perf_counter() - started:.0f} s")), soft_wrap=True)


@dataclass(frozen=True)
class _Rebuild:
    """What --regenerate plays: ``hands`` from ``seed`` (None: the shipped build's), on
    ``workers`` processes, by the bot that played the pool it rebuilds; with ``chunks``, kept
    chunk by chunk in that folder (``saved_only``: only the chunks saved there are read, none
    is played)."""

    hands: int | None
    seed: int | None
    workers: int
    chunks: Path | None
    saved_only: bool


def _regenerate(rules, rebuild: _Rebuild, output: Path | None, quiet: bool) -> None:
    hands, seed, chunks = rebuild.hands, rebuild.seed, rebuild.chunks
    if rules.dealing.closed:
        if chunks is not None or rebuild.saved_only:
            raise OpponentModelError(f"{rules.name}'s model is built in one run of about half "
                                     "a minute: --chunks and --saved-only are for bot pools")
        _regenerate_closed(rules, hands, seed, output, quiet)
        return
    shipped = resources.files("fantasyland.optimizer.opponents.data") / pool_file_name(rules)
    target = output or Path(str(shipped))
    check_output(target, "pool")  # before the hands it would hold are played
    started = time.perf_counter()
    log = _ChunkLog(chunks, quiet)
    # a bar only where someone watches: in a log, the lines of the chunks say how far it is
    with progress_bar(quiet=quiet) as bar:
        task = bar.add_task(f"playing {dealing_for(rules).name} hands",
                            total=shipped_build(rules).hands if hands is None else hands)
        pool = build_pool(rules, hands=hands, seed=seed, workers=rebuild.workers,
                          progress=lambda n: bar.advance(task, n), directory=chunks,
                          saved_only=rebuild.saved_only,
                          chunk_done=log if chunks is not None else None)
    log.flush()
    try:
        pool.save(target)
    except OSError as error:
        kept = (f"the boards played are kept in the chunks in {str(chunks)!r}: rerun with "
                "--saved-only and another --output" if chunks is not None
                else "the boards played are lost")
        raise FileError(f"cannot write pool {str(target)!r}: {error.strerror or error}; "
                        f"{kept}") from None
    console.print(Text(shown(f"Wrote {len(pool)} boards ({dealing_for(rules).name}, rules "
                             f"{rules.name}, seed {pool.meta['seed']}) to {target} in "
                             f"{time.perf_counter() - started:.0f} s")), soft_wrap=True)


class _ChunkLog:
    """One line on stderr for each chunk a --regenerate --chunks run plays, and one for the
    chunks it reads instead, so that a run's log says what it did and what it resumed."""

    def __init__(self, directory: Path | None, quiet: bool):
        self.directory, self.quiet, self.read = directory, quiet, 0

    def __call__(self, chunk, seconds: float | None) -> None:
        if seconds is None:
            self.read += chunk.size
            return
        self.flush()
        self._say(f"{chunk.path}: {chunk.size} hands played in {seconds:.0f} s of CPU "
                  f"({chunk.size / max(seconds, 1e-9):.2f} hands a second)")

    def flush(self) -> None:
        if self.read:
            self._say(f"{self.read} hands read from the chunks saved in {self.directory}")
            self.read = 0

    def _say(self, line: str) -> None:
        if not self.quiet:
            err_console.print(Text(shown(line)), soft_wrap=True)


def _check(rules, cards: str, hands: int, seed: int, workers: int, json_output: bool) -> None:
    dealt = parse_cards(cards, deck=rules.deck)
    ours = solve(dealt, variant=rules,
                 objective=ObjectiveName.ROYALTIES).report  # the set scored against the boards
    result = removal_check(rules, dealt, ours, hands, seed, workers=workers)
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
        tvd = "/".join(f"{s['class_tvd'][row]:.3f}" for row in ROWS) \
            if "class_tvd" in s else "-"
        table.add_row(name, str(s["boards"]), f"{s['foul_rate']:.1%}",
                      f"{s['fantasyland_rate']:.1%}", f"{s['mean_royalties']:.2f}",
                      f"{s['points']:+.2f} ± {s['points_se']:.2f}", tvd)
    console.print(table)


def _figure_table(title: str, columns: tuple[str, ...]) -> Table:
    """A table of figures: every column right-aligned."""
    table = Table(title=title)
    for name in columns:
        table.add_column(name, justify="right")
    return table


def _check_error(rules, path: Path, hands: int, samples: int | None, seed: int) -> None:
    try:
        fresh = load_pool(path)
    except (OSError, ValueError, KeyError) as error:
        raise OpponentModelError(f"--check-error {str(path)!r}: not a pool file ({error})") \
            from None
    samples = default_samples(rules) if samples is None else samples  # said in the header
    result = error_check(rules, fresh, hands=hands, samples=samples, seed=seed)
    pool = result["fresh_pool"]
    console.print(f"{rules.name}: {hands} hands of {', '.join(map(str, CHECK_CARDS))} cards "
                  f"in turn, heads-up, {samples} samples, seed {seed}; against the pool "
                  f"{path} ({pool['boards']} boards, seed {pool['seed']})", soft_wrap=True)
    table = _figure_table("reported EV against the EV on the independent pool",
                          ("Cards", "Hands", "± (mean)", "pool part (mean)", "z rms",
                           "z rms, pool left out"))
    for cards, row in result["by_cards"].items():
        table.add_row(cards, str(row["hands"]), f"{row['mean_standard_error']:.2f}",
                      f"{row['mean_pool_error']:.2f}", f"{row['z_rms']:.2f}",
                      f"{row['z_rms_without_pool']:.2f}")
    console.print(table)
    console.print(f"z-scores: standard deviation {result['z_sd']:.2f} (mean "
                  f"{result['z_mean']:+.2f}); with the pool's error left out "
                  f"{result['z_sd_without_pool']:.2f} (mean "
                  f"{result['z_mean_without_pool']:+.2f}). An honest ± gives about 1 "
                  "(docs/ev-and-opponents.md, \"How sure the EV is\").", soft_wrap=True)


def _coverage(rules, hands: int, samples: int, seed: int, json_output: bool) -> None:
    found = pool_coverage(rules, range(13, 18), hands, samples, seed)
    if json_output:
        typer.echo(json.dumps({"variant": rules.name, "hands": hands, "samples": samples,
                               "seed": seed, "sizes": [c.record() for c in found]},
                              indent=2, sort_keys=True))
        return
    pool = serving_pool(rules)
    console.print(f"{rules.name}: the pool of {len(pool):,} hands (seed "
                  f"{pool.meta.get('seed', '?')}) against {hands} random hands of each size, "
                  f"seed {seed}; mean (least)", soft_wrap=True)
    table = _figure_table("pool boards a dealt hand can face",
                          ("Cards", "exact pairs", "exact hands", "placed pairs",
                           "placed hands", "effective"))
    for c in found:
        table.add_row(str(c.cards), *(f"{c.mean[f]:,.0f} ({c.least[f]:,.0f})"
                                      for f in FIGURES))
    console.print(table)
    console.print("A pair is a board under one suit relabelling; a hand counts every "
                  "relabelling of one pool board once; placed: the player's 13 placed cards "
                  "avoid the dealt ones (exact: every card it saw does); effective: the "
                  f"independent boards behind a draw of {samples:,}. Issue 16 asks for 5,000 "
                  "distinct placed-only hands at 17 cards (docs/ev-and-opponents.md, "
                  "\"Pool size\").",
                  soft_wrap=True)


#: Hands --fixed-point plays when --hands is not given.
DEFAULT_DEVIATION_HANDS = 200


def _fixed_point(rules, hands: int, seed: int, opponents: int, json_output: bool) -> None:
    if not rules.dealing.closed:
        raise OpponentModelError(f"--fixed-point measures classic Chinese Poker's model "
                                 f"(dealing = \"closed\"); {rules.name} is played by the bot")
    from fantasyland.optimizer.training import fixed_point_deviation as deviation

    with progress_bar(quiet=json_output) as bar:
        task = bar.add_task("best responses to the model", total=hands)
        result = deviation(rules, hands=hands, opponents=opponents, seed=seed,
                           progress=lambda n: bar.advance(task, n))
    if json_output:
        typer.echo(json.dumps(measured(vars(result)), indent=2, sort_keys=True))
        return
    console.print(
        f"A best response to {rules.name}'s model gains {result.gain:+.4f} ± "
        f"{result.gain_se:.4f} units a hand against {opponents} model player"
        f"{'s' * (opponents > 1)} ({hands} hands; chosen on {result.samples} deals, valued "
        f"on {result.samples} others; {result.fitted_gain:+.4f} on the deals it was chosen "
        f"on). It plays another setting in {result.differs:.0%} of hands.", soft_wrap=True)


#: Hands that --stats and --check take when --hands is not given.
DEFAULT_HANDS = 5000
#: Random hands of each size --coverage counts for when --hands is not given.
COVERAGE_HANDS = 300

#: The command's help, one line an option, so that it fits one screen of 80 x 24: each
#: option's full help is the shared one (docs/options.md), and the actions are the manual's
#: (docs/ev-and-opponents.md).
SUMMARY = "The opponent model of the EV, one action at a time (docs/ev-and-opponents.md)."
SHORT_HELP = {
    "--stats": ("", "the model's figures (the action if none is given)"),
    "--regenerate": ("", "rebuild the variant's pool as it was played"),
    "--check": ("CARDS", "card removal for these cards, against live play"),
    "--check-error": ("POOL", "the EV's ± against a pool of another seed"),
    "--coverage": ("", "pool boards that hands of 13 to 17 cards can face"),
    "--fixed-point": ("", "chinese: what leaving the model gains a player"),
    "--variant": ("NAME", f"rules: a preset or a rules file [{DEFAULT_VARIANT}]"),
    "--hands": ("N", f"hands the action takes [{DEFAULT_HANDS}; the pool's size]"),
    "--seed": ("N", "seed of the draw and of the hands played [0]"),
    "--live": ("", "--stats from hands the bot plays now (slow)"),
    "--pool-seed": ("N", "seed of the rebuilt pool [the pool's own]"),
    "--workers": ("N", "processes that play hands [the number of cores]"),
    "--output": ("FILE", "where --regenerate writes [the package's pool]"),
    "--samples": ("N", "deals a hand is solved on [2000]"),
    "--opponents": ("N", "model players a hand meets (--fixed-point)"),
    "--chunks": ("DIR", "--regenerate keeps its hands here, and resumes"),
    "--saved-only": ("", "--regenerate assembles the chunks saved, playing none"),
    "--json": ("", "Print JSON instead of tables."),
    "--help": ("", "Show this message and exit."),
}


class OneScreen(Command):
    """``opponents``: its help on one screen of 80 x 24, an option a line (``SHORT_HELP``)."""

    def format_help(self, ctx, formatter) -> None:
        formatter.write_usage(ctx.command_path, "[OPTIONS]")
        formatter.write_paragraph()
        formatter.write_text(SUMMARY)
        formatter.write_paragraph()
        rows = []
        for param in self.get_params(ctx):
            if getattr(param, "hidden", False):
                continue
            metavar, text = SHORT_HELP[param.opts[0]]
            rows.append((f"{param.opts[0]} {metavar}".rstrip(), text))
        formatter.write_dl(rows, col_max=20, col_spacing=2)


#: The command class ``cli.main`` gives this module's ``command``.
COMMAND_CLASS = OneScreen


def command(
    stats: Annotated[bool, typer.Option(
        "--stats", help="Print the calibration figures (the default action).")] = False,
    regenerate: Annotated[bool, typer.Option(
        "--regenerate", help="Rebuild the variant's pool of bot boards (package data, or "
        "--output), as it was played (its bot, seed and size, from its meta).")] = False,
    check: Annotated[str | None, typer.Option(
        "--check", metavar="CARDS", show_default=False,
        help="Measure the card-removal error for these dealt cards against live play.")] = None,
    check_error: Annotated[Path | None, typer.Option(
        "--check-error", metavar="POOL", show_default=False,
        help="Check the EV's ± against a pool file played with another seed.")] = None,
    coverage: Annotated[bool, typer.Option(
        "--coverage", help="Count the pool boards random hands of 13 to 17 cards can face "
        "after card removal, --hands of each.")] = False,
    fixed_point: Annotated[bool, typer.Option(
        "--fixed-point", help="Classic Chinese Poker: what a player gains by deviating from "
        "the opponent model, over --hands hands.")] = False,
    variant: VariantOption = DEFAULT_VARIANT,
    hands: Annotated[int | None, hands_option(
        "Hands the action takes: the pool boards --stats draws (each a hand the bot played), "
        "the hands the bot plays now for --stats --live and --check, the hands of the pool "
        "--regenerate builds, the hands --check-error solves.",
        shown=f"{DEFAULT_HANDS}; for --regenerate the size of the pool it rebuilds; for "
              f"--check-error {CHECK_HANDS}")] = None,
    seed: SeedOption = 0,
    live: Annotated[bool, typer.Option(
        "--live", help="--stats from hands played now, not from the pool (slow).")] = False,
    pool_seed: Annotated[int | None, typer.Option(
        "--pool-seed", help="Seed of a regenerated pool (--seed is not used there).",
        min=0, show_default="the seed of the pool it rebuilds; "
        f"{POOL_SEED} where none serves the variant")] = None,
    workers: WorkersOption = None,
    output: Annotated[Path | None, typer.Option(
        help="Where --regenerate writes (default: the package's pool file).",
        show_default=False)] = None,
    samples: SamplesOption = None,
    opponents: OpponentsOption = None,
    chunks: Annotated[Path | None, typer.Option(
        "--chunks", metavar="DIR", show_default=False,
        help=f"--regenerate saves its hands in DIR as it goes (each {CHUNK} hands of the "
        "pool) and reads those already there instead of playing them (the same command "
        "resumes a stopped run; a chunk played with other settings is refused).")] = None,
    saved_only: Annotated[bool, typer.Option(
        "--saved-only", help="Play nothing: --regenerate assembles its pool of --hands from "
        "the chunks in --chunks DIR.")] = False,
    json_output: JsonOption = False,
    old_boards: Annotated[int | None, old_spelling("--boards", min=1)] = None,
) -> None:
    """The opponent model behind the EV objective: its figures, its pools, its card removal.

    `--stats` prints the foul rate, Fantasyland-entry rate and mean royalties of the
    opponent model, and of the bot's own play where the model weights its boards to a target
    (a rules file's mean_royalties); from the shipped pool, or `--live`. `--regenerate`
    rebuilds the pool the variant uses as it was played (its bot, seed and size, from its
    meta), `--chunks DIR` keeping its hands as it goes. `--check CARDS` compares the pool's
    boards for those dealt cards with the bot's live play from the deck without them;
    `--check-error POOL` the EV's ± with the EV on another pool; `--coverage` counts the pool
    boards a dealt hand can face.
    `--fixed-point` measures classic Chinese Poker's model. The bots' laboratory (head to
    head, audits, candidate bots) is a developer's tool: tools/bots.py.
    """
    del old_boards  # its value went to --hands (cli.options)
    workers = workers_count(workers)
    actions = [name for name, given in (("--stats", stats), ("--regenerate", regenerate),
                                         ("--check", check is not None),
                                         ("--check-error", check_error is not None),
                                         ("--coverage", coverage),
                                         ("--fixed-point", fixed_point)) if given]
    if len(actions) > 1:
        report_error(f"{' and '.join(actions)} given together: choose one action")
        raise typer.Exit(BAD_INPUT)
    if check_error is not None and json_output:
        report_error("--check-error prints a table only: drop --json")
        raise typer.Exit(BAD_INPUT)
    if saved_only and chunks is None:
        report_error("--saved-only reads the boards of --chunks DIR: add --chunks")
        raise typer.Exit(BAD_INPUT)
    if chunks is not None and not regenerate:
        report_error("--chunks is for --regenerate: add it")
        raise typer.Exit(BAD_INPUT)
    # no pool, or a target it cannot reach
    with reports_bad_input():
        rules = find_rules(variant)
        seated = 1 if opponents is None else check_opponents(opponents, rules)
        if rules.dealing.closed and not (regenerate or fixed_point):
            raise OpponentModelError(
                f"{rules.name}'s players set their hands by the closed-hand model, not the "
                "bot's pools: --fixed-point measures it and --regenerate rebuilds it "
                "(docs/chinese-poker.md)")
        if chunks is not None:  # a file in its place fails now, not after the first chunk
            check_directory(chunks, "chunks")
        if regenerate:
            _regenerate(rules, _Rebuild(hands, pool_seed, workers, chunks, saved_only), output,
                        json_output)
            return
        if fixed_point:
            _fixed_point(rules, DEFAULT_DEVIATION_HANDS if hands is None else hands, seed,
                         seated, json_output)
            return
        if check_error is not None:
            _check_error(rules, check_error, CHECK_HANDS if hands is None else hands, samples,
                         seed)
            return
        if coverage:
            _coverage(rules, COVERAGE_HANDS if hands is None else hands,
                      default_samples(rules) if samples is None else samples, seed,
                      json_output)
            return
        if check is not None:
            _check(rules, check, DEFAULT_HANDS if hands is None else hands, seed, workers,
                   json_output)
            return
        if hands is None:  # all of a pool smaller than the default (the new decks' are)
            hands = DEFAULT_HANDS if live else min(DEFAULT_HANDS, len(serving_pool(rules)))
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
