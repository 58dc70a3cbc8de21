"""``fantasyland play``: whole hands against the bots, in the terminal, every decision graded.

The game is ``optimizer.play.Game``; this module reads the player's lines, shows the table,
writes the log and the history. A move is shown as it was read, and counts once confirmed:
Enter confirms it, ``u`` takes it back. Read from a pipe or a file (not a terminal), a move
confirms itself, so that ``yes = | fantasyland play`` plays the adviser's picks; the end of
the input ends the session as ``q`` does.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Annotated

import typer

from fantasyland.cli.errors import BAD_INPUT, check_stdin_open, report_error, reports_bad_input
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT,
                                     ObjectiveOption, OpponentsOption, SamplesOption, SeedOption,
                                     VariantOption, check_opponents, hands_option)
from fantasyland.cli.play_history import PlayedHands
from fantasyland.cli.play_show import (show_advice, show_figures, show_hand, show_showdown,
                                       show_start, show_turn)
from fantasyland.cli.prompt import QUIT, read_line, read_until
from fantasyland.cli.render import say
from fantasyland.cli.web.history import StoreError, default_path
from fantasyland.evaluator import InputError, find_rules
from fantasyland.evaluator.user_files import read_file
from fantasyland.optimizer.play import (DEFAULT_BUDGET, DEFAULT_SAMPLES, Game, LogError,
                                        PlaySettings, bot_name, hand_lines, hand_record,
                                        header_line, read_log)

#: The settings a log's session must share with the command line to go on: those that
#: decide the cards and the table.
SAME_GAME = ("variant", "opponents", "seed", "duplicate", "objective")
#: What takes a move back at the confirmation.
TAKE_BACK = {"u", "undo", "back"}


def _ask_move(game: Game, interactive: bool):
    """The player's confirmed move; None when the player stops."""
    fantasyland = game.turn is not None and game.turn.fantasyland
    what = "set" if fantasyland else "play"

    def use(text: str):
        return game.best_move() if text == "=" else game.read_move(text)

    while True:
        move = read_until(f"{what}> ", interactive, lambda: show_advice(game), use,
                          (InputError,), what)
        if move is None:
            return None
        say(f"  You {what}: {move.describe()}")
        if not interactive:
            return move
        answer = read_line("  Enter confirms, u takes it back> ", interactive).strip().lower()
        if answer in QUIT:
            return None
        if answer not in TAKE_BACK:
            return move
        say("  Taken back.")


def _resume(log: Path, settings: PlaySettings):
    """The log read back, checked against ``settings``; it is cut to its last whole hand."""
    text = read_file(log, "log").decode("utf-8", errors="replace") if log.exists() else ""
    logged = read_log(text)
    if logged.settings is not None:
        mine = settings.record()
        for key in SAME_GAME:
            if logged.settings.get(key) != mine[key]:
                raise LogError(f"the log {str(log)!r} is a session played with {key} "
                               f"{logged.settings.get(key)!r}, not {mine[key]!r}: give the "
                               "same settings to go on with it, or another --log")
    if logged.keep < len(text.encode("utf-8")):
        os.truncate(log, len(text[:logged.keep].encode("utf-8")))
    return logged


def _write(out: IO[str] | None, lines: list[str]) -> None:
    if out is None:
        return
    try:
        out.write("".join(line + "\n" for line in lines))
        out.flush()
        os.fsync(out.fileno())
    except OSError as error:
        report_error(f"cannot write the log: {error.strerror or error}")


@dataclass(frozen=True)
class _Keeper:
    """Where a finished hand is kept: the log (None without --log), and the history's row
    under the name of the ``session``."""

    log: IO[str] | None
    store: PlayedHands
    session: str

    def keep(self, game: Game) -> None:
        _write(self.log, hand_lines(game))
        try:
            self.store.add_hand(self.session, game.settings.record(), hand_record(game))
        except StoreError as error:  # the hand was played: said, and the session goes on
            report_error(str(error))


def run(game: Game, hands: int | None, keeper: _Keeper) -> None:
    """Hands until ``hands``, ``q`` or the end of the input, then the session's figures."""
    interactive = sys.stdin.isatty()
    played = 0
    try:
        while hands is None or played < hands:
            game.deal()
            show_hand(game)
            while not game.finished:
                show_turn(game)
                move = _ask_move(game, interactive)
                if move is None:
                    raise EOFError  # the player stops: as the end of the input
                game.play(move)
            show_showdown(game)
            keeper.keep(game)
            played += 1
    except (EOFError, KeyboardInterrupt):
        say("")
        if game.turn is not None:
            say(f"Hand {game.hand} was left unfinished: it is not counted.")
    show_figures(game)


def command(
    variant: VariantOption = DEFAULT_VARIANT,
    opponents: OpponentsOption = None,
    hands: Annotated[int | None, hands_option(
        "Hands to play in this run (a log gone on with numbers them on from its last hand).",
        shown="until q or the end of the input")] = None,
    seed: SeedOption = 0,
    log: Annotated[Path | None, typer.Option(
        help="Keep the session in this JSON Lines file, the history review reads (one line a "
             "street, a comment line a hand); a log already begun is gone on with, from the "
             "hand after its last.", show_default=False, dir_okay=False)] = None,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    budget: Annotated[int | None, typer.Option(
        "--budget", help="Most rollouts a play gets when the adviser ranks a street's plays "
                         "(?, = and the grades; the last two streets are exact). Default: 32, "
                         "the least, so that it answers at once.", min=32, max=100_000)] = None,
    samples: SamplesOption = None,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="Deal each hand once a seat, you taking every seat's cards in "
                            "turn, so that the luck of the cards cancels; ordinary hands "
                            "only.")] = False,
    fantasyland: Annotated[int | None, typer.Option(
        "--fantasyland", help="Start in Fantasyland with this many cards (14 to 17 as the "
                              "variant deals), to practise setting them.",
        show_default=False, min=13, max=17)] = None,
    history: Annotated[Path | None, typer.Option(
        help="The SQLite database of training hands (made if missing).",
        show_default="history.sqlite3 in $XDG_DATA_HOME/fantasyland or "
                     "~/.local/share/fantasyland", dir_okay=False)] = None,
) -> None:
    """Play against the bot, hand after hand: every board in view, Fantasyland when earned.

    Type each street's play ('Kd top 7c mid 3h x'), or in Fantasyland the set ('TOP /
    MIDDLE / BOTTOM'); ? shows the adviser's ranking, = plays its best, q stops. The
    showdown settles every pair and grades each of your decisions; the session's figures
    (points a hand by position, fouls, Fantasyland entries, EV lost a decision) are printed
    at the end. Every hand is kept in the history database, and with --log in a file that
    `fantasyland review` grades again (docs/play.md).
    """
    check_stdin_open("play", "each move", "give it a terminal, or a file or pipe of moves a "
                                          "line each (yes = | fantasyland play)")
    with reports_bad_input():
        rules = find_rules(variant)
        settings = PlaySettings(
            variant=variant, opponents=check_opponents(opponents, rules), seed=seed,
            objective=objective, budget=DEFAULT_BUDGET if budget is None else budget,
            samples=DEFAULT_SAMPLES if samples is None else samples, duplicate=duplicate,
            fantasyland=fantasyland)
        settings.check(rules)
        logged = _resume(log, settings) if log is not None else None
    try:
        store = PlayedHands(history or default_path())
    except StoreError as error:
        report_error(str(error))
        raise typer.Exit(BAD_INPUT) from None
    bot = bot_name(rules)
    game = Game(settings) if logged is None or logged.settings is None else Game(
        settings, hand=logged.hands, fantasyland=logged.fantasyland, figures=logged.figures)
    out = None
    if log is not None:
        try:
            out = open(log, "a", encoding="utf-8")
        except OSError as error:
            report_error(f"cannot write the log {str(log)!r}: {error.strerror}")
            raise typer.Exit(BAD_INPUT) from None
    try:
        show_start(game, bot)
        if logged is not None and logged.settings is not None:
            say(f"Going on with {str(log)!r} from hand {logged.hands + 1}.")
        else:
            _write(out, [header_line(settings.record(), bot)])
        run(game, hands, _Keeper(out, store, str(log) if log is not None else f"seed-{seed}"))
    finally:
        if out is not None:
            out.close()
