"""``fantasyland advise``: every play of the cards just dealt in an ordinary hand, best first."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich.console import JustifyMethod
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn,
                           TimeElapsedColumn)
from rich.table import Table
from rich.text import Text

from fantasyland.cli.errors import reports_bad_input
from fantasyland.cli.options import (
    DEFAULT_OBJECTIVE,
    DEFAULT_VARIANT,
    AgainstOption,
    BotOption,
    BudgetOption,
    DeadOption,
    EntryValueOption,
    JsonOption,
    ObjectiveOption,
    OpponentFantasylandOption,
    OpponentsOption,
    SamplesOption,
    SeedOption,
    VariantOption,
    WorkersOption,
    check_opponents,
    entry_values,
    table_options,
    workers_count,
)
from fantasyland.cli.render import LABEL_WIDTH, Words, cards_text, console, progress_bar, say
from fantasyland.evaluator import ROWS, find_rules
from fantasyland.optimizer.ordinary import (
    DEFAULT_BUDGET,
    SCREEN,
    Advice,
    Effort,
    Figure,
    PlayValue,
    RolloutBot,
    Z,
    advice_record,
    entry_names,
)
from fantasyland.optimizer.ordinary import advise_plays as advise
from fantasyland.optimizer.solver import ObjectiveName, Sample, describe

#: Seconds before the progress bar shows: a last street, or a short race, needs none.
PROGRESS_AFTER = 0.5
#: Plays the table shows unless ``--all`` is given.
SHOWN = 12


def _entries_line(advice: Advice) -> Text:
    names = entry_names(advice.position.rules)
    per = " from each opponent" if advice.objective == ObjectiveName.EV else ""
    sources = {"rules": "the rules' figure", "repeat": "the repeat's worth, the same run",
               "given": "--entry-value", "estimate": "an estimate: the repeat's worth plus "
               "5.5 a card (no figure in the rules; `fantasyland value` measures it)"}
    parts = [f"{names.get(e.cards, '?')} {e.value:g} ({e.cards})" for e in advice.entries]
    used = sorted({e.source for e in advice.entries}, key=list(sources).index)
    text = ", ".join(parts) + per + " (" + "; ".join(sources[s] for s in used) + ")"
    return Text.assemble(("Entries:".ljust(12), "bold"), text or "none: no Fantasyland")


def _note(play: PlayValue, index: int) -> str:
    if play.screened:
        return "screened"
    if index == 0:
        return "best"
    return "close" if play.close else ""


def _value(play: PlayValue) -> str:
    """The play's value; under ev, a play the model alone valued shows the model's figure
    in parentheses (royalty points: a ranking, not ev points)."""
    if play.value is not None:
        return f"{play.value:.2f}"
    return "" if play.model is None else f"({play.model:.2f})"


def _fantasyland(chances: dict[int, float] | None) -> str:
    """The chances of each entry, largest size first: ``"19% 15, 3% 14"``."""
    if not chances:
        return ""
    return ", ".join(f"{share:.0%} {cards}" for cards, share in sorted(chances.items(),
                                                                       reverse=True)
                     if share > 0) or "0%"


def _chance(foul: float | None, rollouts: int) -> str:
    """A foul chance: exact as it is; from rollouts, one that rounds to 0% shown as less than
    1% (the estimate is never 0: docs/advise.md)."""
    if foul is None:
        return ""
    return "<1%" if rollouts and foul < 0.005 else f"{foul:.0%}"


def _table(advice: Advice, shown: int) -> Table:
    out = Table(show_edge=False, pad_edge=False)
    discards = advice.position.keep < len(advice.position.cards)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("Top", "left"), ("Middle", "left"), ("Bottom", "left"),
        ("Out", "left"), ("Value", "right"), ("±", "right"), ("Foul", "right"),
        ("FL (cards)", "left"), ("", "left"))
    for name, justify in columns:
        if name != "Out" or discards:
            out.add_column(name, justify=justify, no_wrap=True)
    for i, play in enumerate(advice.plays[:shown]):
        rows = {row: [c for c, r in play.play.rows if r == row] for row in ROWS}
        placed = [cards_text(rows[row]) for row in ROWS]
        out_card = cards_text([play.play.discard]) if play.play.discard is not None else ""
        if play.screened:
            cells = ["", "", "", ""]
        elif play.source == Figure.MODEL:
            cells = [_value(play), "model", "", ""]
        else:
            cells = [f"{play.value:.2f}",
                     "exact" if advice.exact else f"{play.standard_error:.2f}",
                     _chance(play.foul_chance, play.rollouts), _fantasyland(play.entry_chances)]
        out.add_row(str(i + 1), *placed, *([out_card] if discards else []), *cells,
                    _note(play, i))
    return out


def _verdict(advice: Advice) -> str:
    if len(advice.plays) == 1:
        return "one legal play"
    best, second = advice.plays[0], advice.plays[1]
    if advice.exact:
        gap = second.behind
        how = ("the last street: every play finishes the board" if advice.deals == 1 else
               f"every play over all {advice.deals:,} deals of the last street")
        return (f"exact ({how}); the best is "
                + ("tied with the next" if gap == 0 else f"{gap:.2f} ahead of the next"))
    close = sum(p.close for p in advice.plays)
    screened = sum(p.screened for p in advice.plays)
    model = sum(p.source == Figure.MODEL for p in advice.plays)
    raced = len(advice.plays) - model - screened
    head = (f"{advice.rollouts} rollouts; the best play had {best.rollouts}"
            + (f"; {screened} plays screened out by the bot's first look (only {SCREEN} are "
               "rolled out)" if screened else ""))
    if advice.bot == RolloutBot.LEARNED:
        head = (f"the learned model valued all {len(advice.plays)} plays; the "
                f"{raced} it could not tell apart raced, {advice.rollouts} rollouts by the "
                "learned bot")
    if close:
        return (f"{head}. The budget ran out with {close} play{'s' * (close > 1)} within "
                f"{Z:g} standard errors of the best: marked close")
    return f"{head}. The best leads every other play by more than {Z:g} standard errors"


def command(
    board: Annotated[str, typer.Option(
        "--board", help='The board so far, "TOP / MIDDLE / BOTTOM", rows short or empty: '
                        '"Qh / 7c 8c /", or " / / " before the first street.',
        show_default=False)],
    cards: Annotated[str, typer.Option(
        "--cards", help="The cards just dealt: 5 on the first street, then 3 in a Pineapple "
                        "round (one is discarded), or 1 a street under standard.",
        show_default=False)],
    variant: VariantOption = DEFAULT_VARIANT,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    discards: Annotated[str | None, typer.Option(
        "--discards", help="Your own discards earlier in the hand: out of the deck.",
        show_default=False)] = None,
    opponents: OpponentsOption = None,
    against: AgainstOption = None,
    opponent_fantasyland: OpponentFantasylandOption = None,
    dead: DeadOption = None,
    samples: SamplesOption = None,
    budget: BudgetOption = None,
    entry_value: EntryValueOption = None,
    seed: SeedOption = 0,
    workers: WorkersOption = None,
    bot: BotOption = None,
    show_all: Annotated[bool, typer.Option(
        "--all", help=f"List every play (the first {SHOWN} otherwise).")] = False,
    json_output: JsonOption = False,
) -> None:
    """Rank every play of the cards just dealt in an ordinary hand, best first.

    Each play (which card is discarded, which row takes each kept card) is worth what its
    finished board is: royalties, plus the worth of the Fantasyland it enters by size, less a
    foul; under ev, plus the row points against the opponents. The last two streets are
    exact. Earlier, where a learned model of the game is shipped (pineapple, progressive), the model
    values every play and the plays it cannot tell apart are rolled out by the learned bot;
    elsewhere (or with --rollout-bot heuristic) the heuristic bot rolls out the plays its
    first look picks. Rollouts run until the best play leads by 2 standard errors or the
    budget runs out. Bad input exits with code 2.
    """
    overrides = entry_values(entry_value)
    with reports_bad_input():
        rules = find_rules(variant)
        check_opponents(opponents, rules)
        table = table_options(opponents, against, opponent_fantasyland, dead)
        started = time.monotonic()
        with _progress(json_output) as tell:
            advice = advise(rules, board, cards, objective=objective.value,
                            sample=Sample(table=table, samples=samples, seed=seed),
                            discards=discards or (), entry_overrides=overrides,
                            effort=Effort(budget=DEFAULT_BUDGET if budget is None else budget,
                                          workers=workers_count(workers), bot=bot,
                                          progress=lambda done, most: tell(done, most, started)))
    if json_output:
        typer.echo(json.dumps(advice_record(advice), indent=2, sort_keys=True))
        return
    _render(advice, len(advice.plays) if show_all else SHOWN)


def _render(advice: Advice, shown: int) -> None:
    position, rules = advice.position, advice.position.rules
    words = Words.of(rules)

    def line(label: str, *value: str | Text) -> None:
        say(Text.assemble(((f"{label}:" if label else "").ljust(12), "bold"), *value),
            indent=LABEL_WIDTH)

    after = position.rounds_left
    line("Position", f"{rules.name}, street {position.street}: ",
         position.board.format() if position.placed else "empty board",
         "; dealt ", cards_text(position.cards),
         f" ({after} street{'s' * (after != 1)} after this one)" if after else
         " (the last street)")
    if position.dead:
        line("Dead", cards_text(position.dead))
    if advice.objective == ObjectiveName.EV:
        seated = advice.table.opponents
        how = "exact: every board is known" if advice.table.exact else \
            f"{advice.samples} sampled deals"
        extra = describe(advice.table)
        line("Objective", f"ev: {words.units} against {seated} opponent{'s' * (seated > 1)} "
                          f"({how}{'; ' + extra if extra else ''})")
    else:
        line("Objective", f"royalties, in {words.units} from one opponent: rows a toss-up, "
                          f"a foul costing {rules.scoring.foul_penalty}")
    if rules.entry:
        say(_entries_line(advice), indent=LABEL_WIDTH)
    console.print(_table(advice, shown))
    if shown < len(advice.plays):
        line("", f"and {len(advice.plays) - shown} more (--all lists them)")
    line("Verdict", _verdict(advice))
    line("", "Top, Middle, Bottom: where the dealt cards go; Out: the discard. Value in "
             f"{words.units}; ± its standard error (exact: nothing sampled)"
             + ("; model: valued by the learned model alone"
                + (" (in parentheses: royalty points, a ranking only)"
                   if advice.objective == ObjectiveName.EV else "")
                if any(p.source == Figure.MODEL for p in advice.plays) else "")
             + "; FL: the chance of each entry by its cards")


class _progress:
    """A progress bar on stderr (a terminal's) once a race has run ``PROGRESS_AFTER``
    seconds."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.bar: tuple[Progress, TaskID] | None = None  # once shown, with its one task

    def __enter__(self):
        def tell(done: int, most: int, started: float) -> None:
            if self.quiet or time.monotonic() - started < PROGRESS_AFTER:
                return
            if self.bar is None:
                bar = progress_bar(TextColumn("rollouts"), BarColumn(), MofNCompleteColumn(),
                                   TimeElapsedColumn())
                bar.start()
                self.bar = bar, bar.add_task("race", total=most)
            bar, task = self.bar
            bar.update(task, completed=done, total=most)
        return tell

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar[0].stop()
