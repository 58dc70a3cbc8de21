"""``fantasyland score``: fouls, royalties and Fantasyland for one finished set."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.text import Text

from cli.errors import read_stdin, reports_bad_input
from cli.options import JsonOption, VariantOption
from cli.render import any_of, board_table, console, report_dict, royalties_text
from evaluator import BoardReport, Rules, evaluate_board, find_rules


def _entry_needs(rules: Rules) -> str:
    """The cheapest ways into Fantasyland, e.g. ``QQ or better top``."""
    if not rules.entry:
        return "these rules have no Fantasyland"
    fewest = min(rung.cards for rung in rules.entry)
    ways = [" and ".join(map(str, rung.requires)) for rung in rules.entry if rung.cards == fewest]
    return "needs " + any_of(ways)


def _repeat(rules: Rules) -> str:
    if rules.repeat_cards is None:
        return "the repeat deals as many cards as the hand it follows"
    return f"the repeat deals {rules.repeat_cards} cards"


def summary_lines(report: BoardReport) -> list[Text]:
    """Variant, foul, royalties, Fantasyland entry and stay, one labelled line each."""
    rules = report.rules
    lines: list[tuple[str, str]] = [
        ("Variant", f"{rules.name} ({rules.description})" if rules.description else rules.name)]
    if report.fouled:
        lines += [
            ("Fouled", "yes: " + "; ".join(report.foul_reasons)),
            ("Royalties", royalties_text(report)),
            ("Fantasyland entry", "no (the set fouls)"),
            ("Fantasyland stay", "no (the set fouls)"),
        ]
    else:
        lines += [("Fouled", "no"), ("Royalties", royalties_text(report))]
        if report.fantasyland_cards is None:
            lines.append(("Fantasyland entry", f"no ({_entry_needs(rules)})"))
        else:
            lines.append(("Fantasyland entry", f"yes, with {report.fantasyland_cards} cards"))
        if report.stays:
            by = any_of([f"{row} {report.row(row).name}" for row in report.stay_rows], "and")
            lines.append(("Fantasyland stay", f"yes if played in Fantasyland ({by}); "
                                              f"{_repeat(rules)}"))
        else:
            needs = any_of([str(requirement) for requirement in rules.stay])
            lines.append(("Fantasyland stay", "no" + (f" (needs {needs})" if needs else "")))
    width = max(len(label) for label, _ in lines) + 2
    return [Text.assemble((f"{label}:".ljust(width), "bold"), value) for label, value in lines]


def command(
    board: Annotated[list[str], typer.Argument(
        help='The finished set, top / middle / bottom: "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h '
             '2d", or 13 cards without "/" read as 3 / 5 / 5, or - to read it from standard '
             "input. Quoting is optional; cards may be run together (6s6c4h), use 10, lower "
             "case or suit symbols.",
        metavar="BOARD", show_default=False)],
    variant: VariantOption = "standard",
    json_output: JsonOption = False,
) -> None:
    """Score a finished set: each row's hand and royalty, fouls, Fantasyland entry and stay.

    A fouled set is a result, not an error: the exit code is 0. Input that cannot be read
    (a bad card, a wrong row size, a duplicate, an unknown variant) exits with code 2.
    """
    text = read_stdin("score", "the finished set") if board == ["-"] else " ".join(board)
    with reports_bad_input():
        report = evaluate_board(text, find_rules(variant))
    if json_output:
        typer.echo(json.dumps(report_dict(report), indent=2, sort_keys=True))
        return
    variant_line, *result_lines = summary_lines(report)
    console.print(variant_line, soft_wrap=True)
    console.print(board_table(report))
    for line in result_lines:
        console.print(line, soft_wrap=True)
