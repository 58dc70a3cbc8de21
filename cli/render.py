"""Shared terminal rendering: coloured cards, the three rows of a set, and the consoles.

Rich picks colour only for a terminal (and honours ``NO_COLOR`` / ``FORCE_COLOR``), so piped
output is plain text. Where the output encoding cannot carry suit symbols, cards are shown
as ASCII (``Td``), which is also what the parser reads back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from fantasyland.evaluator import ROWS, BoardReport, Card, Row, Rules
from fantasyland.evaluator.board import RowReport
from fantasyland.evaluator.cards import JOKER, ascii_names, card_name, suit_of

if TYPE_CHECKING:  # loaded by the commands that show a bar, not by every command
    from rich.progress import Progress, ProgressColumn



class _Console(Console):
    """A console that shows what it prints and never acts on it: a control character in the
    text (an escape code in a rules file's name, say, that would clear the screen) is written
    as its escape, by ``shown``, as error messages show what they echo. Rich's own colours
    and cursor moves are styles and control segments, not text, and pass as they are."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control or segment.text.isprintable()
            else Segment("\n".join(map(shown, segment.text.split("\n"))), segment.style)
            for segment in buffer)


# Results go to stdout and diagnostics to stderr, so that ``--json`` output stays clean.
# No :emoji: codes: nothing printed uses them, and reading their table costs start-up time.
console = _Console(highlight=False, emoji=False)
err_console = _Console(stderr=True, highlight=False, emoji=False)

#: The width of a label (``"Royalties:  "``): the text beside it, and every line it wraps
#: to, starts in this column.
LABEL_WIDTH = 12


class Wrapped:
    """Prose wrapped to the console's width, the lines after the first indented by
    ``indent`` (under the text beside a label).

    >>> Console(width=32).print(
    ...     Wrapped(Text("Worst:      line 5, street 5: Ac bottom, Td middle"), LABEL_WIDTH))
    Worst:      line 5, street 5: Ac
                bottom, Td middle
    """

    def __init__(self, text: Text, indent: int = 0):
        self.text, self.indent = text, indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        head, rest = self.text.divide([self.indent]) if self.indent else (Text(), self.text)
        width = max(options.max_width - len(head), 10)
        for i, line in enumerate(rest.wrap(console, width)):
            line.rstrip()
            yield Text.assemble(head if i == 0 else " " * len(head), line)


def say(text: str | Text, *, indent: int = 0, out: Console = console) -> None:
    """Print a line of prose: on a terminal wrapped to its width (``Wrapped``); elsewhere
    (piped, captured) as one line, as there is no width to fit there, and a line a script
    greps for is not cut in two."""
    text = Text(text) if isinstance(text, str) else text
    if out.is_terminal:
        out.print(Wrapped(text, indent))
    else:
        out.print(text, soft_wrap=True)


def labelled(label: str, *value: str | Text) -> Text:
    """``Royalties:  24 (top 9, ...)``: the label in bold, padded to ``LABEL_WIDTH``; an
    empty label continues the line above. ``say(line, LABEL_WIDTH)`` wraps it under its
    text."""
    return Text.assemble(((f"{label}:" if label else "").ljust(LABEL_WIDTH), "bold"), *value)


def progress_bar(*columns: str | ProgressColumn, quiet: bool = False) -> Progress:
    """A progress bar on stderr that someone watches: on a terminal only, and gone when it
    stops. Piped or captured, stderr gets nothing from it (Rich would end it with a blank
    line there), so that scripts and tests read clean output."""
    from rich.progress import Progress

    return Progress(*columns, console=err_console, transient=True,
                    disable=quiet or not err_console.is_terminal)


def plural(count: int, word: str, *, words: str | None = None) -> str:
    """``1 play``, ``2 plays``, ``0 plays``."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def show_model_builds() -> None:
    """A progress line on stderr while an opponent model is built for a rules file (classic
    Chinese Poker's, the first time a house file is used: some 15 s, then cached). For a
    terminal only; in the process that asked, not in its workers, which share the terminal."""
    import os
    from contextlib import contextmanager

    from rich.errors import LiveError
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from fantasyland.optimizer.opponents import watch_closed_model_builds

    here = os.getpid()

    @contextmanager
    def building(rules: Rules, settings: int):
        what = f"building the opponent model of {rules.name} (once: it is kept)"
        if os.getpid() != here:
            yield None
            return
        bar = progress_bar(TextColumn(shown(what)), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn())
        try:
            bar.start()
        except LiveError:  # another bar is up (value's, say): a line above it says why
            err_console.print(Text(shown(what) + "..."), soft_wrap=True)
            yield None
            return
        task = bar.add_task("building", total=settings)
        try:
            yield lambda done: bar.advance(task, done)
        finally:
            bar.stop()

    watch_closed_model_builds(building)


#: Style of each suit by index (``c d h s``): red for the red suits, the terminal's own
#: foreground for the black ones, so that they read on dark and light backgrounds alike.
SUIT_STYLES = ("bold", "bold red", "bold red", "bold")


def shown(text: str) -> str:
    r"""``text`` as it is safe to print: every character a terminal would act on rather than
    show (an escape code, a control character, a line break) written as its Python escape,
    so that an id such as ``\x1b[31mred`` reads as typed and colours nothing.

    >>> print(shown("\x1b[31mred\x1b[0m A\u2660"))
    \x1b[31mred\x1b[0m A♠
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _symbols(out: Console) -> bool:
    return (out.encoding or "").lower().replace("-", "").startswith("utf")


def card_text(card: Card, *, out: Console = console) -> Text:
    """One card, coloured by suit (``T♦`` in red)."""
    return Text(card_name(card, ascii=not _symbols(out)), style=SUIT_STYLES[suit_of(card)])


def cards_text(cards: Iterable[Card], *, out: Console = console) -> Text:
    """Cards separated by spaces, each coloured by suit."""
    return Text(" ").join(card_text(card, out=out) for card in cards)


def row_text(row: RowReport, *, out: Console = console) -> Text:
    """A row as dealt, each joker with the face it plays as: ``Q♠ Q♥ 🃏=Q♦`` (``Jk=Qd``)."""
    parts = []
    for card, face in zip(row.cards, row.played):
        if card == JOKER:
            parts.append(Text.assemble(card_text(card, out=out), "=", card_text(face, out=out)))
        else:
            parts.append(card_text(card, out=out))
    return Text(" ").join(parts)


@dataclass(frozen=True)
class Words:
    """What a variant's output calls its payments: ``points`` and ``royalties`` in OFC,
    ``units`` and ``bonuses`` in classic Chinese Poker (``Rules.unit``, ``Rules.bonuses``);
    and which of them it has at all: a game without Fantasyland shows no stay, and one
    without royalties no royalty column."""

    unit: str  # "point"
    royalty: str  # "royalty" or "bonus"
    royalties: str  # its plural
    pays_royalties: bool
    fantasyland: bool

    @classmethod
    def of(cls, rules: Rules) -> Words:
        royalty, royalties = ("bonus", "bonuses") if rules.bonuses else ("royalty", "royalties")
        return cls(rules.unit, royalty, royalties, rules.pays_royalties, bool(rules.entry))

    @property
    def units(self) -> str:
        return self.unit + "s"


def board_table(report: BoardReport, *, out: Console = console) -> Table:
    """The three rows of a set: cards, hand and the royalty (or bonus) each hand is worth by
    itself, where the rules pay any."""
    words = Words.of(report.rules)
    table = Table()
    table.add_column("Row")
    table.add_column("Cards", no_wrap=True)
    table.add_column("Hand")
    if words.pays_royalties:
        table.add_column(words.royalty.capitalize(), justify="right")
    for name in ROWS:
        row = report.row(name)
        table.add_row(name, row_text(row, out=out), row.name,
                      *([str(row.royalty)] if words.pays_royalties else []))
    return table


def royalties_text(report: BoardReport) -> str:
    """The royalties a set scores, by row; a fouled set scores none, so the text says what
    its rows would have paid (the board table shows each hand's royalty by itself)."""
    if report.fouled:
        unfouled = sum(report.row(name).royalty for name in ROWS)
        return f"0 (a fouled set scores none; {unfouled} if it did not foul)"
    r = report.royalties
    return f"{r.total} (top {r.top}, middle {r.middle}, bottom {r.bottom})"


def any_of(items: Sequence[str], *, word: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def never_dealt_note(rules: Rules, sizes: Sequence[int], then: str) -> Text | None:
    """``note: pineapple deals 14 cards in Fantasyland, never 13; <then>``, or None when the
    variant deals every one of ``sizes`` or has no Fantasyland (a hand of its game)."""
    odd = [str(n) for n in sorted(set(sizes)) if n not in rules.dealt_counts]
    if not odd or not rules.dealt_counts:
        return None
    usual = any_of([str(n) for n in rules.dealt_counts])
    return Text(f"note: {rules.name} deals {usual} cards in Fantasyland, never {any_of(odd)}; "
                f"{then}", style="yellow")


def measured(data, *, digits: int = 6):
    """``data`` with every float rounded to ``digits`` decimals: a measured figure (a rate, a
    mean, its standard error) printed with 16 digits claims a precision it does not have."""
    if isinstance(data, float):
        return round(data, digits)
    if isinstance(data, dict):
        return {key: measured(value, digits=digits) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [measured(value, digits=digits) for value in data]
    return data


def report_dict(report: BoardReport) -> dict:
    """A finished set as plain data: ``score --json`` (docs/json.md)."""
    scored = report.royalties
    return {
        "board": {name: ascii_names(report.board.row(name)) for name in ROWS},
        "variant": report.rules.name,
        "fouled": report.fouled,
        "foul_reasons": list(report.foul_reasons),
        "rows": {
            name: {
                "cards": ascii_names(report.row(name).cards),
                "jokers": ascii_names(report.row(name).faces),
                "hand": report.row(name).name,
                "class": report.row(name).class_name,
                "royalty": report.row(name).royalty,
            }
            for name in ROWS
        },
        "royalties": {Row.TOP: scored.top, Row.MIDDLE: scored.middle, Row.BOTTOM: scored.bottom,
                      "total": scored.total},
        "fantasyland_cards": report.fantasyland_cards,
        "stays": report.stays,
        "stay_rows": list(report.stay_rows),
    }
