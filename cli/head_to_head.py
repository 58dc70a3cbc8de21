"""``fantasyland opponents --head-to-head``: two bots over duplicate deals, played or read
from saved chunks, and the table of their result."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from rich.progress import Progress
from rich.table import Table

from fantasyland.cli.render import console, err_console
from fantasyland.optimizer.opponents import (BOTS, HeadToHead, dealing_for, knobs_text,
                                            saved_head_to_head, with_knobs)
from fantasyland.optimizer.opponents import play_head_to_head as head_to_head


class Bot(str, Enum):
    """The bots that can play (``optimizer.opponents.pools.BOTS``)."""

    SHIPPED = "shipped"
    STRONG = "strong"


#: How the head-to-head's table names each bot: "the stronger bot against the shipped one".
_BOT_WORDS = {Bot.SHIPPED: "shipped", Bot.STRONG: "stronger"}


#: Deals --head-to-head plays when --hands is not given (each from both seats).
DEFAULT_DEALS = 200


def play_head_to_head(rules, deals: int, seed: int, first: int, chunks: Path | None,
                      saved_only: bool, challenger: tuple[Bot, list[str]],
                      incumbent: tuple[Bot, list[str]]) -> None:
    """Play (or score) the head-to-head of ``challenger`` and ``incumbent``, each a bot and
    the knobs set on it (``NAME=VALUE``), and print its table."""
    dealing = dealing_for(rules)
    bases = [BOTS[bot.value][dealing.name] for bot, _ in (challenger, incumbent)]
    bots = [with_knobs(base, knobs) for base, (_, knobs) in zip(bases, (challenger, incumbent))]
    tuned = [knobs_text(base, params) for base, params in zip(bases, bots)]
    ours, theirs = challenger[0], incumbent[0]
    if saved_only:
        result, ranges = saved_head_to_head(rules, *bots, seed, chunks)
        which = ", ".join(f"{start}..{stop - 1}" for start, stop in ranges)
    else:
        # a bar only where someone watches: piped or captured, the output is the table alone
        with Progress(console=err_console, transient=True,
                      disable=not err_console.is_terminal) as bar:
            task = bar.add_task(f"playing {dealing.name} deals from both seats", total=deals)
            result = head_to_head(rules, dealing, *bots, deals, seed,
                                  progress=lambda n: bar.advance(task, n), first=first,
                                  directory=chunks)
        which = f"{first}..{first + deals - 1}"
    console.print(f"{rules.name}: {result.deals} deals ({which}), each played from both "
                  f"seats ({result.games} games), seed {seed}", soft_wrap=True)
    console.print(_head_to_head_table(result, ours, theirs, *tuned))
    console.print(f"Points are the {_bot_word(ours, tuned[0])} bot's, a game, ± one "
                  "standard error over the deals; a difference is its figure less the other's, "
                  "paired deal by deal (docs/ev-and-opponents.md, \"The stronger bot\").",
                  soft_wrap=True)


def _bot_word(bot: Bot, tuned: str, candidate: str = "candidate") -> str:
    """``candidate`` for a bot with knobs set, else its name: "stronger"."""
    return candidate if tuned else _BOT_WORDS[bot]


def _head_to_head_table(result: HeadToHead, challenger: Bot, incumbent: Bot,
                        challenger_tuned: str = "", incumbent_tuned: str = "") -> Table:
    ours = _bot_word(challenger, challenger_tuned)
    theirs = _bot_word(incumbent, incumbent_tuned, "incumbent")

    def named(word: str, bot: Bot, tuned: str, noun: str) -> str:
        return f"{word} {noun} ({_BOT_WORDS[bot]}, {tuned})" if tuned else f"{word} {noun}"

    table = Table(title=f"the {named(ours, challenger, challenger_tuned, 'bot')} against the "
                        f"{named(theirs, incumbent, incumbent_tuned, 'one')}")
    table.add_column("Figure")
    table.add_column(f"{ours.capitalize()} bot", justify="right")
    table.add_column(f"{theirs.capitalize()} bot", justify="right")
    table.add_column("Difference", justify="right")
    table.add_row("points a game", f"{result.points:+.3f} ± {result.points_se:.3f}",
                  f"{0.0 - result.points:+.3f}", "")
    table.add_row("with entries at worth",
                  f"{result.points_with_entries:+.3f} ± {result.points_with_entries_se:.3f}",
                  f"{0.0 - result.points_with_entries:+.3f}", "")
    for name, key, fmt, change in (
            ("foul rate", "foul_rate", "{:.1%} ± {:.1%}", "{:+.1f} ± {:.1f} pp"),
            ("Fantasyland rate", "fantasyland_rate", "{:.1%} ± {:.1%}", "{:+.1f} ± {:.1f} pp"),
            ("mean royalties", "mean_royalties", "{:.2f} ± {:.2f}", "{:+.2f} ± {:.2f}"),
            ("entries lost to fouls", "entries_fouled_rate", "{:.1%} ± {:.1%}",
             "{:+.1f} ± {:.1f} pp")):
        scale = 100 if change.endswith("pp") else 1
        table.add_row(name, *(fmt.format(getattr(bot, key), getattr(bot, key + "_se"))
                              for bot in (result.challenger, result.incumbent)),
                      change.format(scale * getattr(result.difference, key),
                                    scale * getattr(result.difference, key + "_se")))
    table.add_row("hands", str(result.challenger.hands), str(result.incumbent.hands),
                  f"{result.deals} deals")
    return table
