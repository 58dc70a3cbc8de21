"""``fantasyland score``: fouls, royalties and Fantasyland for one finished set, and with
``--against`` the settlement of a finished table of 2 to 4 players."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.text import Text

from fantasyland.cli.errors import read_stdin, reports_bad_input
from fantasyland.cli.options import DEFAULT_VARIANT, JsonOption, VariantOption
from rich.table import Table

from fantasyland.cli.render import (Words, any_of, board_table, cards_text,
                                     console, report_dict, row_text, royalties_text, say)
from fantasyland.evaluator import ROWS, BoardReport, Rules, evaluate_board, find_rules
from fantasyland.evaluator.board import BoardError
from fantasyland.evaluator.cards import ascii_names
from fantasyland.evaluator.scoring import Seat, TableResult, check_table, read_seat, settle_table


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
    words = Words.of(rules)
    royalties = [(words.royalties.capitalize(), royalties_text(report))] \
        if words.pays_royalties else []
    lines: list[tuple[str, str]] = [
        ("Variant", f"{rules.name} ({rules.description})" if rules.description else rules.name)]
    if report.fouled:
        lines += [("Fouled", "yes: " + "; ".join(report.foul_reasons)), *royalties]
        if words.fantasyland:
            lines += [("Fantasyland entry", "no (the set fouls)"),
                      ("Fantasyland stay", "no (the set fouls)")]
    elif not words.fantasyland:
        lines += [("Fouled", "no"), *royalties]
    else:
        lines += [("Fouled", "no"), *royalties]
        if report.fantasyland_cards is None:
            lines.append(("Fantasyland entry", f"no ({_entry_needs(rules)})"))
        else:
            lines.append(("Fantasyland entry", f"yes, with {report.fantasyland_cards} cards"))
        if report.stays:
            by = any_of([f"{row} {report.row(row).name}" for row in report.stay_rows], word="and")
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
    variant: VariantOption = DEFAULT_VARIANT,
    against: Annotated[list[str] | None, typer.Option(
        "--against", show_default=False,
        help='Another player\'s finished set at the table (repeat for up to three): score '
             "then settles every pair of players and prints each one's net. A seat may "
             'also be "surrender" or "natural" and the 13 cards of a declared special hand, '
             "where the rules have them (classic Chinese Poker).")] = None,
    json_output: JsonOption = False,
) -> None:
    """Score a finished set: each row's hand and royalty, fouls, Fantasyland entry and stay.

    With --against, settle a finished table of 2 to 4 players instead, every pair on its
    own (docs/scoring.md). A fouled set is a result, not an error: the exit code is 0.
    Input that cannot be read (a bad card, a wrong row size, a card in two places, an
    unknown variant) exits with code 2.
    """
    text = read_stdin("score", "the finished set") if board == ["-"] else " ".join(board)
    if against:
        _settle(text, list(against), variant, json_output)
        return
    with reports_bad_input():
        report = evaluate_board(text, rules=find_rules(variant))
    if json_output:
        typer.echo(json.dumps(report_dict(report), indent=2, sort_keys=True))
        return
    variant_line, *result_lines = summary_lines(report)
    say(variant_line, indent=variant_line.spans[0].end)  # under the text, past the widest label
    console.print(board_table(report))
    for line in result_lines:
        say(line, indent=line.spans[0].end)


def settled(texts: list[str], rules: Rules, *, others: str = "--against"
            ) -> tuple[list[Seat], TableResult]:
    """The seats read from ``texts`` (the player's first) and the table's settlement; too
    many players is a ``BoardError`` that says how many ``others`` there may be."""
    if len(texts) > min(4, rules.seats):
        raise BoardError(f"{len(texts)} players: a table of {rules.name} seats 2 to "
                         f"{min(4, rules.seats)}; give at most {min(4, rules.seats) - 1} "
                         f"{others}")
    seats = [read_seat(t, rules) for t in texts]
    check_table(seats, rules, texts)
    return seats, settle_table(seats, rules)


def _settle(text: str, against: list[str], variant: str, json_output: bool) -> None:
    """``score BOARD --against ...``: the table's settlement."""
    with reports_bad_input():
        rules = find_rules(variant)
        seats, result = settled([text, *against], rules)
    if json_output:
        typer.echo(json.dumps(table_dict(seats, result, rules), indent=2, sort_keys=True))
        return
    say(Text.assemble(("Variant:".ljust(9), "bold"), rules.name), indent=9)
    table = Table("Player", *(row for row in ROWS), "Net")
    for i, (seat, net) in enumerate(zip(seats, result.totals)):
        name = "you" if i == 0 else f"against {i}"
        table.add_row(name, *_shown_rows(seat), f"{net:+d}" if net else "0")
    console.print(table)
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            first = "you" if i == 0 else f"against {i}"
            net = result.pairs[i][j]
            say(f"{first} v against {j}: {net:+d}" if net else f"{first} v against {j}: 0")


def _shown_rows(seat: Seat) -> list[Text | str]:
    if seat.surrendered:
        return ["surrendered", "", ""]
    if seat.natural is not None:
        held = seat.natural.natural
        return [Text.assemble(f"natural: {held.name} ({held.value})"), cards_text(seat.cards),
                ""]
    report = seat.report
    assert report is not None  # a seat that neither surrendered nor declared has a set
    fouling = fouling_rows(report)
    return [Text.assemble(row_text(report.row(r)), " (fouled)" if r in fouling else "")
            for r in ROWS]


def fouling_rows(report: BoardReport) -> set[str]:
    """The rows that foul a set: each that beats a row it must not beat (a top over its
    middle, a middle over its bottom), and each short of the hand its rules require."""
    rules = report.rules
    rows = {weaker for stronger, weaker in rules.order_pairs
            if report.row(stronger).strength < report.row(weaker).strength}
    return rows | {need.row for need in rules.qualify
                   if not rules.qualify_table(need.row)[report.row(need.row).value]}


def table_dict(seats: list[Seat], result: TableResult, rules: Rules) -> dict:
    """A settled table as plain data: ``score --against --json`` (docs/json.md)."""
    players = []
    for seat, net, pairs in zip(seats, result.totals, result.pairs):
        player: dict = {"net": net, "pairs": list(pairs), "surrendered": seat.surrendered,
                        "natural": None, "set": None}
        if seat.natural is not None:
            player["natural"] = {"hand": seat.natural.natural.name,
                                 "value": seat.natural.natural.value,
                                 "cards": ascii_names(seat.cards)}
        if seat.report is not None:
            player["set"] = report_dict(seat.report)
        players.append(player)
    return {"variant": rules.name, "players": players}
