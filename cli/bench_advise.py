"""``fantasyland bench --advise``: how long ``advise`` takes a decision, street by street.

Where a learned model of the game is shipped, both rollout bots are timed on the same
positions (the heuristic bot's path, and the learned model's), unless ``--rollout-bot`` picks
one; beside the times, how closely each tells the two best plays apart: the standard error
of their difference (paired over the rollouts they share) at the budget given.

Not a command of its own (it defines no ``command``): ``bench`` calls it.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from fantasyland.cli.render import console, err_console
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.batch import Timings, machine
from fantasyland.optimizer.opponents import dealing_for
from fantasyland.optimizer.ordinary import advise_plays as advise
from fantasyland.optimizer.ordinary import Effort, RolloutBot, rollout_bot, seeded_positions
from fantasyland.optimizer.solver import Sample


def bots_timed(rules, asked: RolloutBot | None) -> tuple[RolloutBot, ...]:
    """The rollout bots to time: the one asked for, or both where a learned model of the
    game is shipped (the heuristic bot alone elsewhere)."""
    if asked is not None:
        return (asked,)
    if rollout_bot(rules) == RolloutBot.HEURISTIC:
        return (RolloutBot.HEURISTIC,)
    return (RolloutBot.HEURISTIC, RolloutBot.LEARNED)


def paired_error(advice) -> float:
    """The standard error of the best play's lead over the second, over the rollouts they
    share: 0 where both are exact, and where the second was not rolled out (the model alone
    told them apart)."""
    if len(advice.plays) < 2:
        return 0.0
    return float(advice.plays[1].behind_error or 0.0)


def run(variant: str, hands: int, seed: int, objective: str, budget: int, workers: int,
        json_output: bool, *, bot: RolloutBot | None = None) -> None:
    """Time ``hands`` seeded positions of every street (the bot played the streets before;
    boards that already foul left out) with each rollout bot (``bots_timed``), and print per
    street and bot the median, p95 and max, the rollouts, how often the budget ended with
    plays still close, and the paired standard error between the two best plays."""
    rules = find_rules(variant)
    bots = bots_timed(rules, bot)
    streets = range(1, dealing_for(rules).rounds + 2)
    found: dict[tuple[int, RolloutBot], dict[str, list]] = {
        (s, b): {"ms": [], "close": [], "rollouts": [], "paired": []}
        for s in streets for b in bots}
    positions = {street: seeded_positions(rules, street, seed, hands) for street in streets}
    with Progress(console=err_console, transient=True, disable=json_output) as bar:
        task = bar.add_task("advise", total=hands * len(streets) * len(bots))
        for index in range(hands):  # street by street within a hand: the load falls evenly
            for street in streets:
                dealt = positions[street][index]
                for chosen in bots:
                    started = time.perf_counter()
                    advice = advise(rules, dealt.board, dealt.cards, objective=objective,
                                    sample=Sample(seed=seed), discards=dealt.discards,
                                    effort=Effort(budget=budget, workers=workers, bot=chosen))
                    figures = found[street, chosen]
                    figures["ms"].append((time.perf_counter() - started) * 1000)
                    figures["close"].append(sum(p.close for p in advice.plays))
                    figures["rollouts"].append(advice.rollouts)
                    figures["paired"].append(paired_error(advice))
                    bar.advance(task)
    rows = []
    for street in streets:
        for chosen in bots:
            figures = found[street, chosen]
            timing = Timings(f"street {street}", np.array(figures["ms"]))
            close = np.array(figures["close"])
            rows.append({"street": street, "bot": str(chosen), "positions": hands,
                         **timing.figures(), "still_close": float(np.mean(close > 0)),
                         "mean_close_plays": float(close.mean()),
                         "mean_rollouts": float(np.mean(figures["rollouts"])),
                         "median_paired_error": float(np.median(figures["paired"])),
                         "mean_paired_error": float(np.mean(figures["paired"]))})
    if json_output:
        print(json.dumps({"machine": machine(), "load_average": os.getloadavg()[0],
                          "variant": rules.name, "objective": objective, "budget": budget,
                          "workers": workers, "seed": seed, "streets": rows},
                         indent=2, sort_keys=True))
        return
    console.print(f"Machine: {machine()}, load average {os.getloadavg()[0]:.2f}")
    table = Table(title=f"advise, {rules.name}, {objective}, budget {budget}, {workers} "
                        f"worker{'s' * (workers > 1)}, {hands} positions a street")
    for name in ("Street", "Bot", "Median ms", "p95 ms", "Max ms", "Rollouts", "Still close",
                 "Close plays", "Paired SE"):
        table.add_column(name, justify="left" if name == "Bot" else "right")
    for row in rows:
        table.add_row(str(row["street"]), row["bot"], f"{row['median_ms']:.0f}",
                      f"{row['p95_ms']:.0f}", f"{row['max_ms']:.0f}",
                      f"{row['mean_rollouts']:.0f}", f"{row['still_close']:.0%}",
                      f"{row['mean_close_plays']:.1f}", f"{row['median_paired_error']:.3f}")
    wide = Console(file=console.file, width=max(console.width, 110), no_color=console.no_color,
                   force_terminal=console.is_terminal)
    wide.print(table)  # wider than a pipe's 80 columns, so that no figure is cut short
    console.print("Still close: positions whose budget ran out with a play within 2 standard "
                  "errors of the best; the last two streets are exact. Paired SE: the median "
                  "standard error of the best play's lead over the second (the learned bot "
                  "runs in one process whatever --workers says).")
