"""``fantasyland solve``: the optimal set for a dealt Fantasyland hand."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.text import Text

from fantasyland.cli.errors import read_stdin, reports_bad_input
from fantasyland.cli.options import (DEFAULT_OBJECTIVE, DEFAULT_VARIANT, AgainstOption, DeadOption,
                                     FlValueOption, JsonOption, ObjectiveOption,
                                     OpponentFantasylandOption, OpponentsOption, ProofOption,
                                     SamplesOption, SeedOption, TimeLimitOption, VariantOption,
                                     check_opponents, table_options)
from fantasyland.cli.render import (LABEL_WIDTH, Words, any_of, board_table, cards_text, console,
                                    never_dealt_note, row_text, royalties_text, say)
from fantasyland.evaluator import ROWS, BoardReport, find_rules, parse_cards
from fantasyland.evaluator.cards import sort_cards
from fantasyland.optimizer import Solution, solve
from fantasyland.optimizer.solver import (Proof, ProofMethod, Sample, SolveStatus, breakdown,
                                          describe)
from fantasyland.optimizer.solver import solution_record as solution_dict


def _points(value: float) -> str:
    """Points to two decimals at most, without trailing zeros (``36``, ``13.82``), rounded
    from the figure ``--json`` gives (six decimals, ``render.measured``): the page formats
    that one, and a figure like -3.0450004 must not read 3.05 here and 3.04 there."""
    text = f"{round(value, 6):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def ev_sample(parts) -> str:
    """How the EV was found: exactly, or from how many deals."""
    if parts.exact:
        return "exact: every board is known"
    if parts.deals is not None:
        return (f"{parts.samples} sampled deals, which reuse {parts.deals} deals of the "
                "opponents' boards played out for this hand; the ± allows for the reuse")
    return f"{parts.samples} sampled deals"


def _signed(value: float) -> str:
    """A difference of values, signed, to two decimals, or to the first figure that is not
    0 where it is smaller (``-0.004``, never ``-0``)."""
    if round(value, 9) == 0:
        return "same value"
    decimals = 2
    while round(abs(value), decimals) == 0:
        decimals += 1
    text = f"{abs(value):.{decimals}f}".rstrip("0").rstrip(".")
    return ("+" if value > 0 else "-") + text


def _showdown(choice) -> str:
    """Set, declare or surrender, with what each is worth, in words."""
    parts = [f"setting the cards is worth {choice.set_value:+.2f}"]
    if choice.natural is not None:
        held = choice.natural.natural
        parts.append(f"declaring the natural ({held.name}, {held.value} from each player who "
                     f"sets) {choice.declare_value:+.2f}")
    if choice.surrender_value is not None:
        parts.append(f"surrendering {choice.surrender_value:+.2f}")
    verb = {"set": "set them", "declare": "declare it", "surrender": "surrender"}[choice.choice]
    return "; ".join(parts) + f": {verb}"


def _flip(solution: Solution) -> str:
    """At what worth of a repeat the stay decision would flip, in words."""
    flip, now = solution.break_even_fl_value, _points(solution.fl_value)
    if flip <= 0:
        return (f"staying is right whatever a repeat is worth: the set that stays is worth "
                f"{_points(-flip)} more even without it")
    more = f"worth more than {_points(flip)} points (here {now})"
    return f"staying is right while a repeat is {more}" if solution.stays else \
        f"staying would be right if a repeat were {more}"


def _short(report: BoardReport) -> Text:
    return Text(" / ").join(row_text(report.row(row)) for row in ROWS)


def _summary(solution: Solution) -> list[Text]:
    report = solution.report
    rules = solution.rules
    words = Words.of(rules)
    lines: list[Text] = []

    def line(label: str, *value: str | Text) -> None:
        lines.append(Text.assemble(((f"{label}:" if label else "").ljust(12), "bold"), *value))

    def ev_lines() -> None:
        parts = breakdown(solution.ev, report)
        line("EV", f"{parts.total:.2f}" + ("" if parts.exact else
                                         f" ± {parts.standard_error:.2f}")
             + f" {words.units} a hand against {parts.opponents} opponent"
               f"{'s' * (parts.opponents > 1)} ({ev_sample(parts)})")
        scoring, showdown = rules.scoring, rules.showdown
        shares = [(f"net {words.royalties}", parts.royalties, words.pays_royalties),
                  ("rows", parts.row_points, True),
                  ("scoops", parts.scoops, bool(scoring.scoop_bonus or scoring.majority_bonus)),
                  ("sweeps", parts.sweeps, bool(showdown.sweep_bonus)),
                  ("opponents' fouls", parts.opponent_fouls, True),
                  ("opponents' naturals", parts.naturals, bool(showdown.naturals.hands)),
                  ("staying", parts.stay_value, words.fantasyland)]
        line("", ", ".join(f"{name} {value:+.2f}" for name, value, shown in shares if shown))
        if solution.ev.table is not None:
            line("Table", describe(solution.ev.table))
        if solution.showdown is not None:
            line("Showdown", _showdown(solution.showdown))

    if solution.discards or words.fantasyland:
        line("Discards", cards_text(solution.discards) if solution.discards else "none")
    if solution.fouled:
        line("Fouled", "every set of these cards fouls: " + "; ".join(report.foul_reasons))
        if words.pays_royalties:
            line(words.royalties.capitalize(), royalties_text(report))
        if solution.ev is not None:  # what the foul costs at the table
            ev_lines()
        return lines
    if words.pays_royalties:
        line(words.royalties.capitalize(), royalties_text(report))
    if solution.stays:
        by = any_of([f"{row}: {report.row(row).name}" for row in solution.stay_rows], word="and")
        line("Stays", f"yes ({by}); the next Fantasyland deals "
                      f"{solution.fantasyland_cards_next} cards")
    elif words.fantasyland:
        line("Stays", "no")
    stay_part = f" + {_points(solution.fl_value)} for staying" if solution.stays else ""
    if solution.ev is None:
        line("Value", f"{_points(solution.value)} = {report.royalties.total} "
                      f"{words.royalties}{stay_part}")
    else:
        ev_lines()
    staying, not_staying = solution.best_staying, solution.best_not_staying
    if staying is not None and not_staying is not None:
        other = not_staying if solution.stays else staying
        diff = solution.value - other.points
        what = "does not stay" if solution.stays else "stays"
        line("Decision", f"the best set that {what} is worth {_points(other.points)} "
                         f"({other.royalties} royalties), {_points(diff)} less: ",
             _short(other.board_report))
        line("", _flip(solution))
    status = {SolveStatus.OPTIMAL: "optimal (proved)",
              SolveStatus.FOULED: "proved: every set of these cards fouls"}.get(
        solution.status,
        f"feasible (time limit hit; the best possible is at most {_points(solution.bound)})")
    line("Status", f"{status} in {solution.stats.solve_ms:.0f} ms, {PROVED_BY[solution.proof]}")
    return lines


#: How the Status line names each proof.
PROVED_BY = {Proof.COMPLETION: "by exact completion", Proof.BOUNDS: "by the bounds",
             Proof.EVERY_SET_VALUED: "every set that could beat it valued",
             Proof.CPSAT: "by CP-SAT"}


def command(
    cards: Annotated[list[str], typer.Argument(
        help='The dealt cards, 13 to 17: "As Kd Qh ...", or - to read them from standard '
             "input. Quoting is optional; cards may be run together (AsKd), use 10, lower "
             "case or suit symbols.",
        metavar="CARDS", show_default=False)],
    variant: VariantOption = DEFAULT_VARIANT,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    fl_value: FlValueOption = None,
    alternatives: Annotated[int, typer.Option(
        help="Also list this many next-best sets (distinct row strengths).", min=0,
        max=50)] = 0,
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
    """Find the optimal set for a dealt Fantasyland hand, and whether it stays.

    Keeps 13 of the 13 to 17 cards, sets top, middle and bottom without fouling, and
    maximizes the expected points won against sampled opponents (or royalties) plus the
    worth of staying. The answer is proved optimal for the sample. Bad input
    (a bad card, a duplicate, fewer than 13 or more than 17 cards) exits with code 2.
    """
    text = read_stdin("solve", "the dealt cards") if cards == ["-"] else " ".join(cards)
    with reports_bad_input():
        rules = find_rules(variant)
        check_opponents(opponents, rules)
        # Read with the rules' deck, so that a joker or a second copy of a card is refused,
        # or let through, as these rules say, naming the token.
        dealt = parse_cards(text, deck=rules.deck)
        solution = solve(dealt, variant=rules, objective=objective.value,
                         fl_value=fl_value, time_limit=time_limit, alternatives=alternatives,
                         sample=Sample(table=table_options(opponents, against,
                                                           opponent_fantasyland, dead),
                                       samples=samples, seed=seed), proof=proof)
    if json_output:
        typer.echo(json.dumps(solution_dict(solution), indent=2, sort_keys=True))
        return
    rules = solution.rules
    say(Text.assemble(
        ("Dealt:".ljust(12), "bold"), cards_text(sort_cards(solution.cards)),
        f"  ({len(solution.cards)} cards, {rules.name})"), indent=LABEL_WIDTH)
    note = never_dealt_note(rules, [len(solution.cards)], "solved anyway")
    if note is not None:
        say(note)
    console.print(board_table(solution.report))
    for summary in _summary(solution):
        say(summary, indent=LABEL_WIDTH)
    if solution.alternatives:
        console.print(Text("Alternatives:", style="bold"))
        for i, alt in enumerate(solution.alternatives, 1):
            say(Text.assemble(
                f"  {i}. {_points(alt.value)} ({_signed(alt.value - solution.value)}): ",
                _short(alt.report)), indent=len(f"  {i}. "))
