"""``fantasyland check``: grade a player's set for a dealt hand against the optimal set."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from fantasyland.cli.errors import read_stdin, reports_bad_input
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, AgainstOption, DeadOption,
                                     FlValueOption, JsonOption, ObjectiveOption,
                                     OpponentFantasylandOption, OpponentsOption, ProofOption,
                                     SamplesOption, SeedOption,
                                     TimeLimitOption, VariantOption, check_opponents, table_options)
from fantasyland.cli.render import (LABEL_WIDTH, Words, any_of, board_table, cards_text, console,
                                    row_text, royalties_text, say)
from fantasyland.evaluator import ROWS, BoardReport, find_rules, parse_cards
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver import ObjectiveName, ProofMethod, Sample, SolveStatus, describe
from fantasyland.optimizer.training import Grade, grade, grade_record


def points(value: float) -> str:
    """A value in points as the output shows it: at most two decimals, no trailing zeros."""
    return f"{round(value, 2):g}"


def short_set(report: BoardReport) -> Text:
    return Text(" / ").join(row_text(report.row(row)) for row in ROWS)


def percentile_text(g: Grade) -> str:
    p = g.percentile
    if g.solution.status is SolveStatus.FOULED:
        return "none: every set of these cards fouls, so there is no legal set to rank"
    if g.fouled:
        return "0% (a fouled set ranks below every legal set)"
    # Rounded down, so that a set some legal set beats never shows as 100.0%.
    shown = f"{math.floor(p.percent * 10) / 10:.1f}%"
    # Under ev each set drawn is valued against the same sampled opponents as the optimum;
    # say so, since too few sets are drawn (VALUED_SETS) for the figure to mean royalties'.
    drawn = "drawn at random and valued by EV" if g.objective == ObjectiveName.EV \
        else "drawn at random"
    if p.exact:
        return (f"{shown}: beats or ties {p.beaten_or_tied:,} of the {p.legal_sets:,} legal "
                "sets (exact)")
    if g.optimal:
        # Exactly 100, not an estimate: the optimum beats or ties every legal set, drawn or
        # not (a sample of 200 once printed it as 'about 100.0% ± 0.0%').
        return "100%: the optimal set beats or ties every legal set"
    if p.beaten_or_tied == p.legal_sets:
        # No sampled set beat it (so the standard error says 0), yet the optimum does. With
        # n sets drawn and none better, the share that is better is below 3 / n with 95%
        # confidence (the rule of three): 99.9% for 20,000 draws, 98.5% for ev's 200.
        bound = math.floor((1 - 3 / p.legal_sets) * 1000) / 10
        return (f"above {bound:.1f}% (an estimate): beats or ties all {p.legal_sets:,} legal "
                f"sets {drawn}, but not the optimum")
    return (f"about {shown} ± {p.stderr:.1f}%: beats or ties {p.beaten_or_tied:,} of "
            f"{p.legal_sets:,} legal sets {drawn} (an estimate)")


def grade_lines(g: Grade, *, skip: tuple[str, ...] = ()) -> list[Text]:
    """The verdict on a set, a labelled line each (but those labelled as in ``skip``)."""
    lines: list[Text] = []
    report = g.report

    def line(label: str, *value: str | Text | tuple[str, str]) -> None:
        if label not in skip:
            lines.append(Text.assemble((f"{label}:".ljust(12), "bold"), *value))

    if g.fouled:
        line("Legal", ("no, it fouls: ", "bold red"), "; ".join(report.foul_reasons))
    else:
        line("Legal", "yes")
    words = Words.of(report.rules)
    if g.discards or words.fantasyland:
        line("Discards", cards_text(g.discards) if g.discards else "none")
    if words.pays_royalties:
        line(words.royalties.capitalize(), royalties_text(report))
    if g.player.stays:
        line("Stays", "yes (" + any_of([f"{row}: {report.row(row).name}"
                                       for row in report.stay_rows], word="and") + ")")
    elif words.fantasyland:
        line("Stays", "no")
    stay_part = f" + {points(g.fl_value)} for staying" if g.player.stays else ""
    line("Value", f"{points(g.player.value)} ({g.objective}{stay_part})")
    if g.solution.ev is not None and g.solution.ev.table is not None:
        line("Table", describe(g.solution.ev.table))
    s = g.solution
    status = {SolveStatus.OPTIMAL: "", SolveStatus.FOULED: " (every set of these cards fouls)"}.get(
        s.status, " (time limit hit: not proved optimal)")
    line("Optimal", short_set(s.report), f"  worth {points(s.value)}"
         f"{', stays' if s.stays else ''}{status}")
    if g.optimal and s.status is SolveStatus.FOULED:
        line("EV lost", "0: every set of these cards fouls, so no set does better")
    elif g.optimal:
        line("EV lost", ("0: your set is optimal", "bold green"))
    else:
        line("EV lost", (points(g.ev_lost), "bold red"), f" {g.unit}")
    line("Percentile", percentile_text(g))
    for sentence in g.advice:
        line("Grade", sentence[0].upper() + sentence[1:] + ".")
    return lines


def side_by_side(g: Grade) -> Table:
    """The player's set and the optimal set, row by row."""
    table = Table()
    table.add_column("Row")
    table.add_column("Your set", no_wrap=True)
    table.add_column("Hand")
    table.add_column("Optimal", no_wrap=True)
    table.add_column("Hand")
    mine, best = g.report, g.solution.report
    for row in ROWS:
        table.add_row(row, row_text(mine.row(row)), mine.row(row).name,
                      row_text(best.row(row)), best.row(row).name)
    table.add_row("discards", cards_text(g.discards), "", cards_text(g.solution.discards), "")
    table.add_row("value", "", points(g.player.value), "", points(g.solution.value))
    return table


def command(
    cards: Annotated[list[str], typer.Argument(
        help='The dealt cards, 13 to 17: "As Kd Qh ...", or - to read them from standard '
             "input. Quoting is optional.",
        metavar="HAND", show_default=False)],
    played: Annotated[str, typer.Option(
        "--set", help='The set to grade: "TOP / MIDDLE / BOTTOM" (3 / 5 / 5 of the dealt '
                      "cards, in any order within a row).", show_default=False)],
    variant: VariantOption = DEFAULT_VARIANT,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    fl_value: FlValueOption = None,
    opponents: OpponentsOption = None,
    samples: SamplesOption = None,
    seed: SeedOption = 0,
    against: AgainstOption = None,
    opponent_fantasyland: OpponentFantasylandOption = None,
    dead: DeadOption = None,
    time_limit: TimeLimitOption = 10.0,
    proof: ProofOption = ProofMethod.FASTEST,
    json_output: JsonOption = False,
) -> None:
    """Grade a set for a dealt hand: legal or fouled, value, EV lost and percentile.

    Compares the set with the proved optimum in the chosen objective; --seed seeds the
    sampled percentile (17 cards) and the ev objective's opponents. A set with a card that
    was not dealt, a wrong row size or a duplicate exits with code 2.
    """
    dealt = read_stdin("check", "the dealt cards") if cards == ["-"] else " ".join(cards)
    with reports_bad_input():
        rules = find_rules(variant)
        check_opponents(opponents, rules)
        sample = Sample(table=table_options(opponents, against, opponent_fantasyland, dead),
                        samples=samples, seed=seed)
        # The optimum, proved as --proof asks; the grade values the set on the same terms.
        optimum = solve(parse_cards(dealt, deck=rules.deck), variant=rules,
                        objective=objective.value, fl_value=fl_value, time_limit=time_limit,
                        sample=sample, proof=proof)
        g = grade(dealt, played, variant=rules, objective=objective.value, fl_value=fl_value,
                  time_limit=time_limit, sample=sample, solution=optimum)
    if json_output:
        typer.echo(json.dumps(grade_record(g), indent=2, sort_keys=True))
        return
    say(Text.assemble(("Dealt:".ljust(12), "bold"), cards_text(g.cards),
                      f"  ({len(g.cards)} cards, {g.rules.name})"), indent=LABEL_WIDTH)
    console.print(board_table(g.report))
    for text in grade_lines(g):
        say(text, indent=LABEL_WIDTH)
