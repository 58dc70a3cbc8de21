"""The options several commands share, each defined once: its type, range, help and error.

A command declares a shared option by its alias (``seed: SeedOption = 0``), so that the same
name has the same type, range, default and help wherever it appears (``docs/options.md``;
``tests/test_options.py`` walks every command to keep it so). Where a command must know
whether an option was given at all (batch records only those), it asks
``cli.command.given``, so that its default and help stay those of every other command.

``cli.command`` holds the class of every command, under which the old spellings of renamed
options still work, with a note of the new name.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fantasyland.cli.defaults import BUILT_IN
from fantasyland.evaluator import Rules, preset_names
from fantasyland.evaluator.rules_files import MAX_POINTS
from fantasyland.optimizer.solver import SizeError, parse_sizes
from fantasyland.optimizer.solver import ObjectiveName, ProofMethod
from fantasyland.optimizer.ordinary import RolloutBot

if TYPE_CHECKING:
    from fantasyland.optimizer.solver import TableSpec



VARIANT_HELP = ("Rules: a preset ({presets}) or one of its aliases, or the path of a .toml "
                "rules file (see docs/rules-files.md).").format(presets=", ".join(preset_names()))
OBJECTIVE_HELP = ("What a set is worth: royalties, or ev (points won against sampled "
                  "opponents); either plus fl-value when it stays.")
#: Said of the options whose default the player's config file may set (cli.defaults).
CONFIG_NOTE = " The config file may set another default (fantasyland config)."
OPPONENTS_HELP = ("Opponents at the table, for ev: 1 (heads-up), 2 (three-handed), or more "
                  "where the variant's deck seats more (up to 5 under two decks).")
SAMPLES_HELP = "Sampled opponent deals per hand, for ev."
SEED_HELP = ("Seed of every random draw (hands dealt, opponents' boards, sampled sets): the "
             "same seed and input give the same output.")
WORKERS_HELP = "Processes to work in; the results do not depend on it."
TIME_LIMIT_HELP = "Seconds to prove a hand's set optimal before settling for the best found."
PROOF_HELP = ("How a hand's optimum is proved: fastest, by the fastest route the hand allows "
              "(exact completion, the bounds, every set valued, CP-SAT only where they cannot),"
              " or cpsat, by CP-SAT's model on every hand, the tie-break included. The set is "
              "the same; the output says which proof settled it (docs/solving.md).")
FL_VALUE_HELP = ("Worth of staying in Fantasyland, in points. Default: the variant's "
                 "repeat_value, or under ev its ev_repeat_value times the opponents (see "
                 "`fantasyland value`).")
JSON_HELP = "Print JSON instead of tables (schemas: docs/json.md)."
AGAINST_HELP = ('An opponent\'s board as it is seen, for ev: "TOP / MIDDLE / BOTTOM"; finished, '
                'the EV against it is exact; with rows short ("Kh Kd / 7c 8c / 2s") the bot '
                "finishes it from the deck left. Once per opponent.")
OPPONENT_FANTASYLAND_HELP = ("An opponent in Fantasyland with this many cards, for ev: dealt "
                             "from the deck left and set by this solver. Once per opponent.")
BUDGET_HELP = ("Most rollouts a play gets before a street's plays are ranked (earlier "
               "streets; the last is exact). Default: 96.")
BOT_HELP = ("Who plays the rollouts of earlier streets: learned (the default where a model of "
            "the game is shipped: every play valued by the model, the close ones raced) or "
            "heuristic (the only one elsewhere).")
ENTRY_VALUE_HELP = ("The worth of entering Fantasyland with CARDS cards, in points, in place "
                    "of the rules' entry_value (repeatable): 15=20.5.")
DEAD_HELP = ("Cards seen elsewhere (shown discards), for ev: no sampled board holds them.")

#: What ``--variant`` and ``--objective`` default to in every command (``cli.defaults``;
#: the player's config file may set others).
DEFAULT_VARIANT: str = BUILT_IN["variant"]
DEFAULT_OBJECTIVE = ObjectiveName(BUILT_IN["objective"])

#: What ``--workers`` defaults to, in every command that has it.
WORKERS_DEFAULT = "the number of cores"


def card_counts(text: str | None) -> tuple[int, ...] | None:
    """``--cards`` of train and bench: counts from 13 to 17 as ``15``, ``14-17`` or ``14,16``
    (``deal`` adds weights). A callback, so that an error names the option."""
    try:
        return None if text is None else parse_sizes(text)
    except SizeError as error:
        raise typer.BadParameter(str(error)) from None


def positive_seconds(value: float) -> float:
    """``--time-limit``: seconds above 0 (``inf``: prove however long it takes)."""
    if not value > 0:
        raise typer.BadParameter(f"{value!r}: expected seconds above 0")
    return value


def workers_count(value: int | None) -> int:
    """``--workers``: the number given, or the number of cores."""
    return value or os.cpu_count() or 1


# --- the shared definitions -----------------------------------------------------------------
# A factory returns a fresh ``typer.Option`` each call; ``shown`` is the default the help
# shows where the default is None and stands for something ("the number of cores").

def variant_option() -> Any:
    return typer.Option("--variant", help=VARIANT_HELP + CONFIG_NOTE)


def objective_option(*, shown: str | None = None) -> Any:
    if shown is None:
        return typer.Option("--objective", help=OBJECTIVE_HELP + CONFIG_NOTE)
    return typer.Option("--objective", help=f"{OBJECTIVE_HELP} [default: {shown}]",
                        show_default=False)


def objective_for(objective: ObjectiveName | None, rules: Rules) -> ObjectiveName:
    """bench's ``--objective`` as given, else royalties (bench times the solver, and keeps
    the objective it always timed); but ev where the rules have no Fantasyland (classic
    Chinese Poker), whose sets the royalties alone cannot tell apart: a bonus is paid only
    for a row won."""
    if objective is not None:
        return objective
    return ObjectiveName.ROYALTIES if rules.entry else ObjectiveName.EV


def fl_value_option() -> Any:
    # The range is the bound the rules files put on the same figure; it refuses nan and inf.
    return typer.Option("--fl-value", help=FL_VALUE_HELP, min=0, max=MAX_POINTS,
                        show_default=False)


def opponents_option() -> Any:
    # No static max: the bound is the rules' (check_opponents), once they are read.
    return typer.Option("--opponents", help=OPPONENTS_HELP, min=1,
                        show_default="the variant's table: 1 (heads-up), 3 in chinese")


def check_opponents(opponents: int | None, rules: Rules) -> int:
    """Refuse more ``--opponents`` than a table of ``rules`` seats besides the player, as a
    usage error naming the bound: 2 for one deck of Pineapple, 5 for two decks. The
    opponents, ``None`` being the rules' table (``Rules.players``) less one."""
    if opponents is None:
        return rules.players - 1
    if opponents > rules.seats - 1:
        size = len(rules.deck.cards)
        raise typer.BadParameter(
            f"{str(opponents)!r} is out of range: expected 1 to {rules.seats - 1} (a deck of "
            f"{size} cards seats {rules.seats} players under these rules)",
            param_hint="'--opponents'")
    return opponents


def against_option() -> Any:
    return typer.Option("--against", help=AGAINST_HELP, show_default=False)


def opponent_fantasyland_option() -> Any:
    return typer.Option("--opponent-fantasyland", help=OPPONENT_FANTASYLAND_HELP, min=13,
                        max=17, show_default=False)


def dead_option() -> Any:
    return typer.Option("--dead", help=DEAD_HELP, show_default=False)


def table_options(opponents: int | None, against: list[str] | None,
                  opponent_fantasyland: list[int] | None, dead: str | None) -> TableSpec:
    """The table the options give (``solve``'s ``table``)."""
    from fantasyland.optimizer.solver import TableSpec

    return TableSpec(opponents, tuple(against or ()), tuple(opponent_fantasyland or ()),
                     dead or ())


def check_table(objective: str, rules: Rules, table: TableSpec) -> None:
    """Refuse, before any hand, table options under royalties, and a table that cannot be
    whatever the hand (a card twice among the boards and dead cards, more known seats than
    opponents): each hand's own cards are checked where it is solved."""
    if not table.known:
        return
    from fantasyland.optimizer.solver import ObjectiveError, read_table

    if objective != ObjectiveName.EV:
        raise ObjectiveError("the table (known boards, opponents in Fantasyland, dead cards) "
                             "counts only under the ev objective: give it --objective ev")
    read_table(rules, (), spec=table)


def samples_option(*, help: str = SAMPLES_HELP) -> Any:
    return typer.Option("--samples", help=help, min=1, max=100_000,
                        show_default="2000; 40 where every opponent sets 13 closed cards "
                                     "(chinese)")


def seed_option(*, shown: str | None = None) -> Any:
    return typer.Option("--seed", help=SEED_HELP, min=0,
                        show_default=True if shown is None else shown)


def workers_option() -> Any:
    return typer.Option("--workers", help=WORKERS_HELP, min=1, show_default=WORKERS_DEFAULT)


def time_limit_option() -> Any:
    return typer.Option("--time-limit", help=TIME_LIMIT_HELP, callback=positive_seconds)


def proof_option() -> Any:
    return typer.Option("--proof", help=PROOF_HELP)


def json_option() -> Any:
    return typer.Option("--json", help=JSON_HELP)


def budget_option() -> Any:
    return typer.Option("--budget", help=BUDGET_HELP, min=32, max=100_000)


def bot_option() -> Any:
    return typer.Option("--rollout-bot", help=BOT_HELP, show_default=False,
                        case_sensitive=False)


def entry_value_option() -> Any:
    return typer.Option("--entry-value", help=ENTRY_VALUE_HELP, show_default=False,
                        metavar="CARDS=POINTS")


def entry_values(texts: list[str] | None) -> dict[int, float]:
    """``--entry-value 15=20.5`` (repeatable) as ``{15: 20.5}``; a bad one is a usage error
    that quotes it."""
    values: dict[int, float] = {}
    for text in texts or ():
        size, _, points = text.partition("=")
        try:
            cards, worth = int(size), float(points)
        except ValueError:
            cards, worth = 0, float("nan")
        if not 13 <= cards <= 17 or not -MAX_POINTS <= worth <= MAX_POINTS:
            raise typer.BadParameter(f"{text!r}: expected CARDS=POINTS, the cards an entry "
                                     "deals (13 to 17) and its worth, as in 15=20.5",
                                     param_hint="'--entry-value'")
        values[cards] = worth
    return values


def hands_option(help: str, *, shown: str | None = None, low: int = 1) -> Any:
    """``--hands``: a count of hands, in every command that counts them. What the hands are
    for (per size, per measurement, to play) is the command's, so it gives the help."""
    return typer.Option("--hands", help=help, min=low,
                        show_default=True if shown is None else shown)


VariantOption = Annotated[str, variant_option()]
ObjectiveOption = Annotated[ObjectiveName, objective_option()]
#: bench's ``--objective``: royalties, or ev without Fantasyland (``objective_for``).
RoyaltiesObjectiveOption = Annotated[ObjectiveName | None, objective_option(
    shown="royalties; ev where the variant has no Fantasyland")]
FlValueOption = Annotated[float | None, fl_value_option()]
OpponentsOption = Annotated[int | None, opponents_option()]
SamplesOption = Annotated[int | None, samples_option()]
SeedOption = Annotated[int, seed_option()]
WorkersOption = Annotated[int | None, workers_option()]
TimeLimitOption = Annotated[float, time_limit_option()]
ProofOption = Annotated[ProofMethod, proof_option()]
JsonOption = Annotated[bool, json_option()]
AgainstOption = Annotated[list[str] | None, against_option()]
OpponentFantasylandOption = Annotated[list[int] | None, opponent_fantasyland_option()]
DeadOption = Annotated[str | None, dead_option()]
BudgetOption = Annotated[int | None, budget_option()]
BotOption = Annotated[RolloutBot | None, bot_option()]
EntryValueOption = Annotated[list[str] | None, entry_value_option()]

#: Options whose default, range, help or check of a value differ by command by design
#: (docs/options.md says why); every other option is the same wherever it appears.
PER_COMMAND: dict[str, tuple[str, ...]] = {
    # ev in every command (cli.defaults) but bench, which times the solver as it always
    # did: royalties, but ev where the variant has no Fantasyland, which its help says
    "--objective": ("default", "help"),
    "--seed": ("default",),  # 0, except train: a fresh seed each session, which it prints
    "--hands": ("default", "range", "help"),  # hands per size, per measurement, to play...
    "--samples": ("help", "repeatable"),  # bench times several counts in one run
    "--cards": ("default", "help", "check"),  # deal reads weights too; bench's is 13-17
    "--output": ("help",),  # what each command writes
    # an opponent's board seen at the table (repeated once per opponent); bench's is the
    # one version of the code it compares with (docs/options.md)
    "--against": ("help", "repeatable"),
    "--log": ("help",),  # what each command keeps there: train's log, play's history
    "--budget": ("help",),  # 96, but play's least (32): its adviser answers at once
}


# --- old spellings ----------------------------------------------------------------------------
