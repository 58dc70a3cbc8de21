"""``fantasyland bench``: how fast ranking and solving are on this machine."""

from __future__ import annotations

import json
import os
import platform
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from cli.errors import reports_bad_input
from cli.options import (FlValueOption, JsonOption, Objective, ObjectiveOption, SeedOption,
                         VariantOption, card_counts, hands_option)
from cli.render import console, err_console
from evaluator import find_rules
from optimizer import ObjectiveError
from optimizer.batch.benchmark import Timings, time_ranking, time_solving
from optimizer.solver.objective import check_objective


def machine() -> str:
    """The processor model, its cores and the Python version, for benchmark headers."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _row(timing: Timings) -> list[str]:
    return [timing.label, str(len(timing.ms)), f"{timing.median:.1f}", f"{timing.p95:.1f}",
            f"{timing.max:.1f}"]


def command(
    cards: Annotated[str, typer.Option(
        help="Card counts to solve: 15, a range like 13-17 or a list like 14,17.",
        callback=card_counts)] = "13-17",
    hands: Annotated[int, hands_option("Random hands solved for each card count.")] = 100,
    seed: SeedOption = 0,
    variant: VariantOption = "pineapple",
    objective: ObjectiveOption = Objective.royalties,
    fl_value: FlValueOption = None,
    json_output: JsonOption = False,
) -> None:
    """Time ranking and solving on seeded random hands; print median, p95 and max (ms).

    Every hand is solved to proved optimality. Compare figures from one run: the machine's
    load moves them.
    """
    counts = list(cards)  # parsed by card_counts
    with reports_bad_input(ObjectiveError):
        check_objective(find_rules(variant), objective.value)
        ranking = time_ranking(seed=seed)
        with Progress(console=err_console, transient=True, disable=json_output) as bar:
            task = bar.add_task("solving", total=len(counts) * hands)
            solving = time_solving(counts, hands, seed, variant, objective.value, fl_value,
                                   lambda _c, _i: bar.advance(task))
    if json_output:
        typer.echo(json.dumps({
            "machine": machine(), "variant": variant, "objective": objective.value,
            "seed": seed, "hands": hands,
            "ranking": {"median_ms": ranking.median, "p95_ms": ranking.p95,
                        "max_ms": ranking.max},
            "solving": {t.label.split()[0]: {"median_ms": t.median, "p95_ms": t.p95,
                                             "max_ms": t.max} for t in solving},
        }, indent=2))
        return
    console.print(f"Machine: {machine()}")
    table = Table(title=f"{variant}, objective {objective.value}, seed {seed}")
    for name in ("What", "Runs", "Median ms", "p95 ms", "Max ms"):
        table.add_column(name, justify="left" if name == "What" else "right")
    table.add_row(*_row(ranking))
    for timing in solving:
        table.add_row(*_row(Timings(f"solve {timing.label}", timing.ms)))
    console.print(table)
