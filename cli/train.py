"""``fantasyland train``: deal hands, read the player's sets, grade them, keep the score.

Reads one set a line, so it runs the same in a terminal and fed from a script. A line that
cannot be read is reported and the same hand is asked for again.
"""

from __future__ import annotations

import json
import random
import sys
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.text import Text

from fantasyland.cli.check import grade_lines, points, side_by_side
from fantasyland.cli.command import given, old_spelling
from fantasyland.cli.errors import check_stdin_open, open_log, reports_bad_input
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, AgainstOption,
                                     BudgetOption, DeadOption, EntryValueOption, FlValueOption,
                                     OpponentFantasylandOption, OpponentsOption,
                                     ObjectiveOption, SamplesOption, VariantOption,
                                     card_counts, check_opponents, entry_values, hands_option,
                                     seed_option, table_options)
from fantasyland.cli.prompt import read_until
from fantasyland.cli.render import LABEL_WIDTH, cards_text, console, never_dealt_note, say
from fantasyland.evaluator import CardError, Rules, find_rules
from fantasyland.optimizer.solver import ObjectiveName, Sample, describe, read_table
from fantasyland.optimizer.training import Session


def _help(rules: Rules) -> str:
    """How to type a set; a game that deals 13 cards and no more has no discards."""
    discards = " Cards you leave out are the discards." if max(
        rules.dealt_counts, default=13) > 13 else ""
    return ("Type the set as TOP / MIDDLE / BOTTOM, 3 / 5 / 5 of the dealt cards, in any order "
            "within a row: 'Qs Qd 2c / 9h 9d 5h 5d 3c / As Ks Js Ts 8s'. Suits may be letters "
            f"or symbols, 10 is T.{discards} ? shows this, q quits.")


def _score_text(session: Session, label: str = "Score") -> Text:
    score = session.score
    fouls = f"{score.fouls} foul" + ("" if score.fouls == 1 else "s")
    unit = "royalty points" if session.objective == ObjectiveName.ROYALTIES \
        else session.rules.unit + "s"
    return Text.assemble(
        (f"{label}:".ljust(12), "bold"),
        f"{score.hands} hand{'' if score.hands == 1 else 's'}, {score.optimal} optimal "
        f"({score.optimal_share:.0%}), {fouls}, EV lost {points(score.ev_lost)} {unit} "
        f"({points(score.mean_ev_lost)} a hand)")


def _play_hand(session: Session, interactive: bool, log: IO[str] | None) -> bool:
    """Deal, read sets until one can be graded, show the grade. False when the player quits."""
    hand = session.deal()
    console.print()
    say(Text.assemble((f"Hand {hand.number}", "bold"),
                      f" ({len(hand.cards)} cards): ", cards_text(hand.cards)))
    g = read_until("set> ", interactive,
                   lambda: say(_help(session.rules)), session.play,
                   (CardError,), "set")
    if g is None:
        return False
    console.print(side_by_side(g))
    for line in grade_lines(g, skip=("Discards", "Value", "Optimal")):  # in the table
        say(line, indent=LABEL_WIDTH)
    say(_score_text(session), indent=LABEL_WIDTH)
    if log is not None:
        log.write(json.dumps(session.hand_record(g), sort_keys=True) + "\n")
        log.flush()
    return True


def command(
    ctx: typer.Context,
    variant: VariantOption = DEFAULT_VARIANT,
    cards: Annotated[str | None, typer.Option(
        help="Card counts to deal, equally often: 15, a range like 14-17 or a list like "
             "14,16. Default: the variant's Fantasyland sizes at realistic frequencies (see "
             "docs/training.md).", show_default=False, callback=card_counts)] = None,
    hands: Annotated[int | None, hands_option(
        "Hands to play.", shown="until q, the end of the input, or Ctrl-C")] = None,
    seed: Annotated[int | None, seed_option(shown="a fresh one, printed")] = None,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    fl_value: FlValueOption = None,
    opponents: OpponentsOption = None,
    samples: SamplesOption = None,
    against: AgainstOption = None,
    opponent_fantasyland: OpponentFantasylandOption = None,
    dead: DeadOption = None,
    log: Annotated[Path | None, typer.Option(
        help="Append the session to this JSON Lines file: a header, one line per hand, "
             "and a summary.", show_default=False, dir_okay=False)] = None,
    ordinary: Annotated[bool, typer.Option(
        "--ordinary", help="Practise ordinary hands instead: dealt street by street, each "
                           "play graded as advise grades it (see docs/train-ordinary.md).")
    ] = False,
    budget: BudgetOption = None,
    entry_value: EntryValueOption = None,
    old_rounds: Annotated[int | None, old_spelling("--rounds", min=1)] = None,
) -> None:
    """Practise Fantasyland sets: type a set for each dealt hand and see how it grades.

    After each hand: your set beside the optimal one, the EV lost and the percentile, and
    the running score (total EV lost, share of optimal sets, fouls). A summary ends the
    session, also on Ctrl-C. Without a terminal, sets are read a line each from stdin.
    With --ordinary, ordinary hands are played street by street instead.
    """
    del old_rounds  # its value went to --hands (cli.options)
    if ordinary:
        if not given(ctx, "fl_value"):  # the config file's worth of staying is Fantasyland's
            fl_value = None
        _refuse_with_ordinary(fl_value, cards)
        return _ordinary(variant, hands, seed, objective,
                         Sample(table=table_options(opponents, against, opponent_fantasyland,
                                                    dead), samples=samples),
                         log, budget, entry_value)
    for name, value in (("--budget", budget), ("--entry-value", entry_value)):
        if value is not None:
            raise typer.BadParameter("only with --ordinary: the Fantasyland trainer solves "
                                     "each hand exactly", param_hint=f"'{name}'")
    check_stdin_open("train", "each set", "give it a terminal, or a file or pipe of sets a "
                                          "line each (fantasyland train < sets.txt)")
    if seed is None:  # practice wants new hands; the seed is printed, to replay the session
        seed = random.SystemRandom().randrange(1_000_000)
    with reports_bad_input():
        rules = find_rules(variant)
        opponents = check_opponents(opponents, rules)
        session = Session(rules, objective.value, fl_value, cards, seed,
                          table_options(opponents, against, opponent_fantasyland, dead),
                          samples)
    note = never_dealt_note(session.rules, session.sizes or (), "dealt anyway")
    if note is not None:
        say(note)
    interactive = sys.stdin.isatty()
    with ExitStack() as stack:
        out = open_log(stack, log, session.header_record())
        mix = ", ".join(f"{n} cards {p:.0%}" for n, p in sorted(session.mix.items()))
        worths = session.staying_worths
        worth = points(next(iter(worths.values()))) if len(set(worths.values())) == 1 else \
            ", ".join(f"{points(w)} for {n} cards" for n, w in worths.items())
        seats = {1: "heads-up", 2: "three-handed"}.get(opponents, f"{opponents + 1}-handed")
        known = describe(read_table(session.rules, (), spec=session.table)) \
            if session.table.known else ""
        table = f", {seats}" + (f" ({known})" if known else "") \
            if objective is ObjectiveName.EV else ""
        say(Text.assemble(
            ("Training", "bold"), f": {session.rules.name}, {objective.value} objective"
            f"{table}" + (f" (staying worth {worth})" if session.rules.entry else "")
            + f", seed {seed}; deals {mix}."))
        say(_help(session.rules))
        try:
            while hands is None or session.score.hands < hands:
                if not _play_hand(session, interactive, out):
                    break
        except (EOFError, KeyboardInterrupt):
            console.print()
        console.print()
        say(_score_text(session, "Summary"), indent=LABEL_WIDTH)
        if out is not None:
            out.write(json.dumps(session.summary_record(), sort_keys=True) + "\n")


def _refuse_with_ordinary(fl_value, cards) -> None:
    """Refuse the options of the Fantasyland trainer that ``train --ordinary`` has no use for."""
    for name, value in (("--fl-value", fl_value), ("--cards", cards)):
        if value is not None:
            raise typer.BadParameter("not with --ordinary: an ordinary hand deals the "
                                     "variant's streets, and --entry-value gives the worth "
                                     "of entering", param_hint=f"'{name}'")


def _ordinary(variant, hands, seed, objective, sample: Sample, log, budget, entry_value) -> None:
    """``train --ordinary`` (``cli/train_ordinary.py``), at the ``sample``'s table (its
    opponents not yet checked against the rules) with its samples."""
    from fantasyland.optimizer.ordinary import (DEFAULT_BUDGET, DEFAULT_SAMPLES, OrdinarySession)
    from fantasyland.cli.train_ordinary import run

    overrides = entry_values(entry_value)
    check_stdin_open("train", "each play", "give it a terminal, or a file or pipe of plays a "
                                           "line each (fantasyland train --ordinary < plays.txt)")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    with reports_bad_input():
        rules = find_rules(variant)
        table = replace(sample.table, opponents=check_opponents(sample.table.opponents, rules))
        session = OrdinarySession(
            rules, objective.value, seed, table,
            DEFAULT_SAMPLES if sample.samples is None else sample.samples,
            DEFAULT_BUDGET if budget is None else budget, overrides)
    run(session, hands, log)
