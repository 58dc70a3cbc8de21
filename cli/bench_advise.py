"""``fantasyland bench --advise``: how long ``advise`` takes a decision, street by street.

Not a command of its own (it defines no ``command``): ``bench`` calls it.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
from rich.progress import Progress
from rich.table import Table

from fantasyland.cli.render import console, err_console
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.batch import Timings, machine
from fantasyland.optimizer.opponents import dealing_for
from fantasyland.optimizer.ordinary import advise_plays as advise
from fantasyland.optimizer.ordinary import Effort, seeded_positions
from fantasyland.optimizer.solver import Sample


def run(variant: str, hands: int, seed: int, objective: str, budget: int, workers: int,
        json_output: bool) -> None:
    """Time ``hands`` seeded positions of every street (the bot played the streets before;
    boards that already foul left out),
    and print per street the median, p95 and max, the rollouts, and how often the budget
    ended with plays still close."""
    rules = find_rules(variant)
    streets = range(1, dealing_for(rules).rounds + 2)
    found: dict[int, dict[str, list]] = {s: {"ms": [], "close": [], "rollouts": []}
                                         for s in streets}
    positions = {street: seeded_positions(rules, street, seed, hands) for street in streets}
    with Progress(console=err_console, transient=True, disable=json_output) as bar:
        task = bar.add_task("advise", total=hands * len(streets))
        for index in range(hands):  # street by street within a hand: the load falls evenly
            for street in streets:
                dealt = positions[street][index]
                started = time.perf_counter()
                advice = advise(rules, dealt.board, dealt.cards, objective=objective,
                                sample=Sample(seed=seed), discards=dealt.discards,
                                effort=Effort(budget=budget, workers=workers))
                found[street]["ms"].append((time.perf_counter() - started) * 1000)
                found[street]["close"].append(sum(p.close for p in advice.plays))
                found[street]["rollouts"].append(advice.rollouts)
                bar.advance(task)
    rows = []
    for street in streets:
        timing = Timings(f"street {street}", np.array(found[street]["ms"]))
        close = np.array(found[street]["close"])
        rows.append({"street": street, "positions": hands, **timing.figures(),
                     "still_close": float(np.mean(close > 0)),
                     "mean_close_plays": float(close.mean()),
                     "mean_rollouts": float(np.mean(found[street]["rollouts"]))})
    if json_output:
        print(json.dumps({"machine": machine(), "load_average": os.getloadavg()[0],
                          "variant": rules.name, "objective": objective, "budget": budget,
                          "workers": workers, "seed": seed, "streets": rows},
                         indent=2, sort_keys=True))
        return
    console.print(f"Machine: {machine()}, load average {os.getloadavg()[0]:.2f}")
    table = Table(title=f"advise, {rules.name}, {objective}, budget {budget}, {workers} "
                        f"worker{'s' * (workers > 1)}, {hands} positions a street")
    for name in ("Street", "Median ms", "p95 ms", "Max ms", "Rollouts", "Still close",
                 "Close plays"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(str(row["street"]), f"{row['median_ms']:.0f}", f"{row['p95_ms']:.0f}",
                      f"{row['max_ms']:.0f}", f"{row['mean_rollouts']:.0f}",
                      f"{row['still_close']:.0%}", f"{row['mean_close_plays']:.1f}")
    console.print(table)
    console.print("Still close: positions whose budget ran out with a play within 2 standard "
                  "errors of the best; the last street is exact.")
