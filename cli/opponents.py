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

from fantasyland.cli.audit import (DEFAULT_AUDIT_DEALS, DEFAULT_CONTINUATIONS, DEFAULT_PLACEMENTS,
                                   Audit, run_audit)
from fantasyland.cli.command import old_spelling
from fantasyland.cli.head_to_head import DEFAULT_DEALS, Bot, play_head_to_head
from fantasyland.cli.errors import BAD_INPUT, report_error, reports_bad_input
from fantasyland.cli.options import (DEFAULT_VARIANT, JsonOption, OpponentsOption, SamplesOption,
                                     SeedOption, VariantOption, WorkersOption, check_opponents,
                                     hands_option, workers_count)
from fantasyland.cli.render import (console, err_console, measured, progress_bar, shown)
from fantasyland.evaluator import ROWS, find_rules, parse_cards
from fantasyland.evaluator.user_files import FileError, check_directory, check_output
from fantasyland.optimizer import solve
from fantasyland.optimizer.opponents import (CHUNK, CLOSED_HANDS, CLOSED_ROUNDS, CLOSED_SEED,
                                            FIGURES, POOL_SEED, STEP, OpponentModelError,
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
    ``workers`` processes, by ``bot`` with its ``knobs``; with ``chunks``, kept chunk by chunk
    in that folder (``saved_only``: only the chunks saved there are read, none is played)."""

    hands: int | None
    seed: int | None
    workers: int
    bot: str | None
    knobs: list[str]
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
                          progress=lambda n: bar.advance(task, n), bot=rebuild.bot,
                          directory=chunks, saved_only=rebuild.saved_only,
                          chunk_done=log if chunks is not None else None, knobs=rebuild.knobs)
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


def command(
    stats: Annotated[bool, typer.Option(
        "--stats", help="Print the calibration figures (the default action).")] = False,
    regenerate: Annotated[bool, typer.Option(
        "--regenerate", help="Rebuild the variant's pool of bot boards (package data, or "
        "--output).")] = False,
    check: Annotated[str | None, typer.Option(
        "--check", metavar="CARDS", show_default=False,
        help="Measure the card-removal error for these dealt cards against live play.")] = None,
    variant: VariantOption = DEFAULT_VARIANT,
    hands: Annotated[int | None, hands_option(
        "Hands the action takes: the pool boards --stats draws (each a hand the bot played), "
        "the hands the bot plays now for --stats --live and --check, the hands of the pool "
        "--regenerate builds, the deals --head-to-head plays from both seats, the hands "
        "--check-error solves, the deals --audit audits.",
        shown=f"{DEFAULT_HANDS}; for --regenerate the size of the pool it rebuilds; for "
              f"--head-to-head {DEFAULT_DEALS}; for --check-error {CHECK_HANDS}; for --audit "
              f"{DEFAULT_AUDIT_DEALS}")] = None,
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
    versus: Annotated[bool, typer.Option(
        "--head-to-head", help="Play the stronger bot (or --bot) against the shipped one (or "
        "--incumbent) over duplicate deals and print the points a game.")] = False,
    check_error: Annotated[Path | None, typer.Option(
        "--check-error", metavar="POOL", show_default=False,
        help="Check the EV's ± against a pool file played with another seed.")] = None,
    samples: SamplesOption = None,
    bot: Annotated[Bot | None, typer.Option(
        "--bot", help="The bot that plays the hands of --regenerate and --stats --live (by "
        "default the one that played the pool they rebuild or measure, as its meta records "
        "it), the challenger of --head-to-head, or the bot --audit audits (the stronger one "
        "by default for both).",
        show_default=False)] = None,
    bot_knobs: Annotated[list[str] | None, typer.Option(
        "--bot-knob", metavar="NAME=VALUE", show_default=False,
        help="Set one knob of --bot (repeatable), for playing or auditing a candidate without "
        "a code change: estimate_foul_penalty=10, refine=8, ... (BotParams in "
        "optimizer/opponents/params.py); chunks record the knobs they were played with.")] = None,
    incumbent: Annotated[Bot, typer.Option(
        "--incumbent", help="The bot --head-to-head plays the challenger (--bot) "
        "against.")] = Bot.SHIPPED,
    incumbent_knobs: Annotated[list[str] | None, typer.Option(
        "--incumbent-knob", metavar="NAME=VALUE", show_default=False,
        help="Set one knob of --incumbent (repeatable), as --bot-knob does for --bot.")] = None,
    coverage: Annotated[bool, typer.Option(
        "--coverage", help="Count the pool boards random hands of 13 to 17 cards can face "
        "after card removal, --hands of each.")] = False,
    fixed_point: Annotated[bool, typer.Option(
        "--fixed-point", help="Classic Chinese Poker: what a player gains by deviating from "
        "the opponent model, over --hands hands.")] = False,
    opponents: OpponentsOption = None,
    first_deal: Annotated[int, typer.Option(
        "--first-deal", help="The first deal --head-to-head plays or --audit audits: deals "
        "FIRST..FIRST+hands-1 (deal i is the same whatever the range).", min=0)] = 0,
    audit: Annotated[int | None, typer.Option(
        "--audit", metavar="DECISION", min=1, show_default=False,
        help="Audit one decision of the bot (1: the first cards; not the last, which is "
        "exact): its first look's best --placements placements of seat A's hand of each "
        "deal, each played on by the bot itself over --continuations futures, and what "
        "choosing among them by those continuations would gain over the bot's choice.")] = None,
    placements: Annotated[int | None, typer.Option(
        "--placements", min=2, show_default=str(DEFAULT_PLACEMENTS),
        help="The placements of each decision --audit compares, the bot's choice "
        "among them.")] = None,
    continuations: Annotated[int | None, typer.Option(
        "--continuations", min=4, show_default=str(DEFAULT_CONTINUATIONS),
        help="The futures over which --audit plays each placement on.")] = None,
    chunks: Annotated[Path | None, typer.Option(
        "--chunks", metavar="DIR", show_default=False,
        help=f"--head-to-head and --regenerate save their boards in DIR as they go (each "
        f"{STEP} deals, each {CHUNK} hands of the pool) and read those already there instead "
        "of playing them (the same command resumes a stopped run). --head-to-head keeps each "
        "bot's boards in a folder of its own, so runs of several candidates against one "
        "incumbent in one DIR play the incumbent once; where a bot sees the other's board "
        "(sees_boards=true) the games are the pair's, in a folder of theirs.")] = None,
    saved_only: Annotated[bool, typer.Option(
        "--saved-only", help="Play nothing: --head-to-head scores every deal of --seed saved "
        "in --chunks, --regenerate assembles its pool of --hands from the chunks there.")] = False,
    json_output: JsonOption = False,
    old_boards: Annotated[int | None, old_spelling("--boards", min=1)] = None,
) -> None:
    """The opponent model behind the EV objective: its figures, its pools, its card removal.

    `--stats` prints the foul rate, Fantasyland-entry rate and mean royalties of the
    opponent model, and of the bot's own play where the model weights its boards to a target
    (Pineapple); from the shipped pool, or `--live`. `--regenerate` rebuilds the pool the
    variant uses, by default as it was played (its bot, seed and size, from its meta).
    `--check CARDS` compares the pool's boards for those dealt cards with the bot's live
    play from the deck without them. `--hands` counts the hands of each action;
    `--seed` seeds the draw of --stats and the play of --check and --live, `--pool-seed` a
    regenerated pool; `--workers` plays the hands of --regenerate, --check and --live.
    `--head-to-head` plays the stronger bot against the shipped one over `--hands` deals
    from `--first-deal` on, each from both seats, on one process, seeded by `--seed`;
    `--chunks DIR` saves and resumes them, each bot's boards apart (shared by every run
    that plays the bot; a pair's games together where a bot sees the other's board, the
    knob `sees_boards`: the seats then play in turn, A first each street), and
    `--saved-only` scores what DIR holds; `--bot`
    and `--incumbent` choose the two bots. `--bot strong` has the stronger bot play the
    hands of --regenerate or --stats --live, and `--bot-knob NAME=VALUE` sets one of its
    knobs there or in --head-to-head, to play a candidate (`--incumbent-knob` those of
    --incumbent). With `--chunks DIR`
    --regenerate saves each chunk of hands there as it is played and a rerun of the same
    command plays only those not saved (a chunk played with other settings is refused);
    with `--saved-only` it assembles the pool from them, playing none. Either writes the
    pool where --regenerate writes, or to `--output`. `--check-error POOL`
    solves `--hands` random hands with `--samples` deals and sets the EV each reports, with
    its ±, against the EV of its set on the pool file POOL, played with another seed.
    `--coverage` counts the pool boards that `--hands` random hands of each size, 13 to 17
    cards, can face after card removal, and the effective boards behind a draw of
    `--samples`. `--audit DECISION` measures how far one decision of `--bot` (with its
    `--bot-knob`s) is from the best its own play can make of it, over `--hands` deals from
    `--first-deal` on.
    """
    del old_boards  # its value went to --hands (cli.options)
    workers = workers_count(workers)
    actions = [name for name, given in (("--stats", stats), ("--regenerate", regenerate),
                                         ("--check", check is not None),
                                         ("--check-error", check_error is not None),
                                         ("--head-to-head", versus),
                                         ("--coverage", coverage),
                                         ("--fixed-point", fixed_point),
                                         ("--audit", audit is not None)) if given]
    if len(actions) > 1:
        report_error(f"{' and '.join(actions)} given together: choose one action")
        raise typer.Exit(BAD_INPUT)
    if (versus or check_error is not None) and json_output:
        report_error(f"{'--head-to-head' if versus else '--check-error'} prints a table only: "
                     "drop --json")
        raise typer.Exit(BAD_INPUT)
    if saved_only and chunks is None:
        report_error("--saved-only reads the boards of --chunks DIR: add --chunks")
        raise typer.Exit(BAD_INPUT)
    auditing = audit is not None
    if first_deal and not (versus or auditing):
        report_error("--first-deal is for --head-to-head and --audit: add one of them")
        raise typer.Exit(BAD_INPUT)
    for name, value in (("--placements", placements), ("--continuations", continuations)):
        if value is not None and not auditing:
            report_error(f"{name} is for --audit: add --audit")
            raise typer.Exit(BAD_INPUT)
    if chunks is not None and not (versus or regenerate):
        report_error("--chunks is for --head-to-head and --regenerate: add one of them")
        raise typer.Exit(BAD_INPUT)
    if bot is not None and not (regenerate or versus or live or auditing):
        report_error(f"--bot {bot.value} plays the hands of --regenerate, --head-to-head, "
                     "--audit or --stats --live: add one of them")
        raise typer.Exit(BAD_INPUT)
    knobs = bot_knobs or []
    if knobs and not (regenerate or versus or auditing):
        report_error("--bot-knob sets a knob of the bot of --regenerate, --head-to-head or "
                     "--audit: add one of them")
        raise typer.Exit(BAD_INPUT)
    if incumbent_knobs and not versus:
        report_error("--incumbent-knob is for --head-to-head: add --head-to-head")
        raise typer.Exit(BAD_INPUT)
    if incumbent is not Bot.SHIPPED and not versus:
        report_error(f"--incumbent {incumbent.value} is for --head-to-head: add --head-to-head")
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
            _regenerate(rules, _Rebuild(hands, pool_seed, workers, bot and bot.value, knobs,
                                        chunks, saved_only), output, json_output)
            return
        if versus:
            play_head_to_head(rules, DEFAULT_DEALS if hands is None else hands, seed,
                              first_deal, chunks, saved_only, (bot or Bot.STRONG, knobs),
                              (incumbent, incumbent_knobs or []))
            return
        if audit is not None:
            asked = Audit(decision=audit,
                          deals=DEFAULT_AUDIT_DEALS if hands is None else hands, seed=seed,
                          first=first_deal, bot=bot or Bot.STRONG, knobs=knobs,
                          placements=DEFAULT_PLACEMENTS if placements is None else placements,
                          continuations=(DEFAULT_CONTINUATIONS if continuations is None
                                         else continuations))
            run_audit(rules, asked, json_output)
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
        figures = bot_stats(rules, hands, seed, live=live, workers=workers,
                            bot=bot and bot.value)
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
