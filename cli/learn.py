"""``fantasyland learn``: rebuild the learned value of the ordinary hand from a seed."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from fantasyland.cli.errors import reports_bad_input
from fantasyland.cli.options import (DEFAULT_VARIANT, SeedOption, VariantOption, WorkersOption,
                                     workers_count)
from fantasyland.cli.render import console, say
from fantasyland.evaluator import find_rules


def _tables(text: str) -> tuple[int, ...]:
    """``--tables 1000,6000,20000``: the tables of each round."""
    try:
        tables = tuple(int(part) for part in text.split(","))
    except ValueError:
        tables = ()
    if not tables or any(t < 1 for t in tables):
        raise typer.BadParameter(f"{text!r}: expected tables a round, whole numbers of 1 or "
                                 "more separated by commas, such as 1000,6000,20000")
    return tables


def command(
    variant: VariantOption = DEFAULT_VARIANT,
    seed: SeedOption = 0,
    directory: Annotated[Path | None, typer.Option(
        "--dir", help="Where the run keeps its chunks; the same command run again goes on "
                      "from them. Default: learned-VARIANT-SEED.", show_default=False)] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", help="The models file written at the end. Default: VARIANT.npz in the "
                         "run's directory.", show_default=False)] = None,
    tables: Annotated[str, typer.Option(
        "--tables", help="Tables each round plays, the first by the heuristic bot, each later "
                         "one by the models of the round before.")] = "1000,6000,20000",
    workers: WorkersOption = None,
    cluster: Annotated[str | None, typer.Option(
        help="Run on a Dask distributed scheduler at this address (tcp://host:8786) instead "
             "of local processes. Needs: pip install 'fantasyland[cluster]'.",
        show_default=False)] = None,
) -> None:
    """Rebuild the learned value of the ordinary hand from a seed, in resumable chunks.

    Plays heads-up tables, labels their boards backwards from the exact last street, and
    fits a model for each street (docs/learned.md). The variant must be dealt in streets,
    without jokers. The same seed gives the same models, byte for byte, however the run is
    cut; the defaults rebuild the shipped ones.
    """
    from fantasyland.optimizer.batch import open_engine
    from fantasyland.optimizer.opponents import (LearnPlan, LearnRound, rebuild_learned,
                                                 shipped_learned_digest)

    with reports_bad_input():
        rules = find_rules(variant)
        plan = LearnPlan(variant=variant, seed=seed,
                         rounds=tuple(LearnRound(t) for t in _tables(tables)))
        plan.check()
        where = directory or Path(f"learned-{rules.name}-{seed}")
        target = output or where / f"{rules.name}.npz"

        def progress(stage: str, done: int, whole: int) -> None:
            if done == whole:
                say(f"{stage}: {whole} chunks done")

        with open_engine(workers=workers_count(workers), cluster=cluster) as engine:
            rebuilt = rebuild_learned(plan, where, engine=engine, progress=progress)
    target.parent.mkdir(parents=True, exist_ok=True)
    rebuilt.save(target)
    errors = Table(title="Each street's model: root mean squared error, in points")
    for name in ("Round", "Streets to come", "Trained on", "Held out"):
        errors.add_column(name, justify="right")
    for (index, streets), fitted in sorted(rebuilt.fits.items()):
        errors.add_row(str(index), str(streets), f"{fitted.train_error:.3f}",
                       f"{fitted.held_out_error:.3f}")
    console.print(errors)
    say(f"Models written to {target}.")
    shipped = shipped_learned_digest(rules)
    if shipped is not None:
        same = hashlib.sha256(target.read_bytes()).hexdigest() == shipped
        say("They are the shipped models, byte for byte." if same else
            "They differ from the shipped models (another seed or plan).")
