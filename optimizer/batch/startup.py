"""How long the command line takes to answer, measured as whole processes.

``python -m fantasyland.optimizer.batch.startup [--against OLD_CHECKOUT] [--runs N]`` times,
run by run and interleaved, a fresh interpreter doing each of:

- the floor: ``import typer, rich, numpy``, what any run of the command line loads;
- a bare Typer command (a reference, not a target): a group of one command whose arguments
  Typer parses and checks, printing a Rich table, which is what Typer and Rich cost on their
  own;
- ``fantasyland --help``, ``fantasyland score`` of a 13-card set, and ``fantasyland solve`` of
  a 14-card hand: one under the royalties objective, which exact completion proves without
  CP-SAT, and one under the ev objective (50 samples) that CP-SAT proves.

Each command runs the code of one checkout, by ``PYTHONPATH``, with this interpreter (so the
same installed numpy, Typer, Rich and ortools), from an empty directory. With ``--against``
the same commands run the other checkout's code too, interleaved with this one's. The
children share a private bytecode cache, warmed by rounds that are not counted, so that
neither checkout pays for compiling its source, as an installed package never does.

It prints the median and p95 seconds of each, and their ratios to the floor's, as a Markdown
table, after the machine it ran on (docs/benchmarks.md, "Start-up").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fantasyland.optimizer.batch.against import package_prefix
from fantasyland.optimizer.batch.benchmark import machine

#: The root of this checkout: the directory that holds ``cli``, ``evaluator``, ``optimizer``.
ROOT = Path(__file__).resolve().parents[2]
#: The set that ``score`` scores (13 cards).
SCORE_SET = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"

FLOOR = "import typer, rich, numpy"
#: What the ``fantasyland`` console script does; ``PKG.`` stands for where the checkout timed
#: keeps its packages (``against.package_prefix``).
SCRIPT = "import sys; from PKG.cli.main import app; sys.argv[0] = 'fantasyland'; sys.exit(app())"
BARE_TYPER = '''
from typing import Annotated
import numpy, typer
from rich.console import Console
from rich.table import Table
app = typer.Typer(rich_markup_mode="markdown", add_completion=False)
@app.callback()
def main(version: Annotated[bool, typer.Option("--version")] = False) -> None:
    """A group."""
@app.command()
def show(cards: Annotated[list[str], typer.Argument()],
         variant: Annotated[str, typer.Option()] = "pineapple",
         json_output: Annotated[bool, typer.Option("--json")] = False) -> None:
    """One command."""
    table = Table("row", "cards")
    table.add_row("all", " ".join(cards))
    Console().print(table)
app()
'''

# Solves seeded random hands in order, each for royalties and then for ev, until an ev solve
# loads CP-SAT: the royalties solves before it loaded none. Prints {"bounds": [...],
# "cp_sat": "..."}; cards as text.
_FIND = '''
import json, random, sys
from fantasyland.evaluator.cards import format_cards
from fantasyland.optimizer import Sample, solve
cards, seed, skip, limit, EV_SAMPLES = {cards}, {seed}, {skip}, {limit}, {samples}
rng = random.Random(seed)
found = {{"bounds": [], "cp_sat": None, "index": None}}
for index in range(limit):
    hand = rng.sample(range(52), cards)
    if index < skip:
        continue
    solve(hand, objective="royalties")
    if any(name.split(".")[0] == "ortools" for name in sys.modules):
        break  # this code proves royalties with CP-SAT: no hand of the first kind past here
    found["bounds"].append(format_cards(hand, ascii=True))
    solve(hand, objective="ev", sample=Sample(samples=EV_SAMPLES))
    if any(name.split(".")[0] == "ortools" for name in sys.modules):
        found["cp_sat"], found["index"] = format_cards(hand, ascii=True), index
        break
print(json.dumps(found))
'''


#: Opponent deals of the ev solve that runs CP-SAT: few, so that sampling costs little.
EV_SAMPLES = 50


@dataclass(frozen=True)
class Hands:
    """Two hands of the same size: one whose royalties solve needs no CP-SAT, and one whose
    ev solve (``EV_SAMPLES`` samples) does."""

    bounds: str
    cp_sat: str


def child_env(code: Path | None, *, cache: Path | None = None) -> dict[str, str]:
    """This environment, running ``code``'s packages (None: none on the path) and caching
    bytecode under ``cache``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    if cache is not None:
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def find_hands(*, cards: int = 14, seed: int = 0, code: Path = ROOT, limit: int = 500,
               python: str = sys.executable) -> Hands:
    """The first seeded random hands of ``cards`` cards whose royalties solve under ``code``
    needs no CP-SAT, and whose ev solve does; found in fresh processes, each solving hands in
    order until one imports ortools. Raises ``RuntimeError`` when the first
    ``limit`` hands hold no hand of one kind (the code always, or never, loads CP-SAT)."""
    skip, bounds, cp_sat = 0, None, None
    with tempfile.TemporaryDirectory() as empty:
        while bounds is None or cp_sat is None:
            script = _FIND.format(cards=cards, seed=seed, skip=skip, limit=limit,
                                  samples=EV_SAMPLES)
            done = subprocess.run([python, "-c", script], env=child_env(code), cwd=empty,
                                  capture_output=True, text=True, check=True)
            found = json.loads(done.stdout)
            bounds = bounds or next(iter(found["bounds"]), None)
            cp_sat = cp_sat or found["cp_sat"]
            if found["index"] is None or found["index"] + 1 >= limit:
                break  # no hand left to look at
            skip = found["index"] + 1  # on, past the hand that loaded CP-SAT
    if bounds is None or cp_sat is None:
        raise RuntimeError(f"none of the first {limit} {cards}-card hands of seed {seed} "
                           f"{'skips' if bounds is None else 'needs'} CP-SAT")
    return Hands(bounds, cp_sat)


@dataclass(frozen=True)
class Case:
    """One process to time: ``python ARGS``, with a checkout's code or none."""

    label: str
    args: tuple[str, ...]
    per_code: bool  # runs each checkout's code (else it imports no project code)


def cases(hands: Hands) -> list[Case]:
    return [
        Case("floor: `import typer, rich, numpy`", ("-c", FLOOR), False),
        Case("a bare Typer command (reference)", ("-c", BARE_TYPER, "show", "As", "Kd"), False),
        Case("`fantasyland --help`", ("-c", SCRIPT, "--help"), True),
        Case("`fantasyland score` (13 cards)", ("-c", SCRIPT, "score", SCORE_SET), True),
        Case("`fantasyland solve`, 14 cards, royalties (no CP-SAT)",
             ("-c", SCRIPT, "solve", hands.bounds, "--objective", "royalties"), True),
        Case(f"`fantasyland solve`, 14 cards, ev, {EV_SAMPLES} samples (CP-SAT runs)",
             ("-c", SCRIPT, "solve", hands.cp_sat, "--objective", "ev", "--samples",
              str(EV_SAMPLES)), True),
    ]


def measure(all_cases: Sequence[Case], codes: dict[str, Path], runs: int, *, warmup: int = 2,
            python: str = sys.executable) -> dict[tuple[str, str], np.ndarray]:
    """Seconds of each case (under each code), ``runs`` times, interleaved run by run; the
    order within a run turns by one each run, so that no case always follows another."""
    jobs = [(case, name) for case in all_cases
            for name in (codes if case.per_code else ("",))]
    seconds: dict[tuple[str, str], list[float]] = {(c.label, n): [] for c, n in jobs}
    with tempfile.TemporaryDirectory() as empty, tempfile.TemporaryDirectory() as cache:
        envs = {name: child_env(path, cache=Path(cache)) for name, path in codes.items()}
        envs[""] = child_env(None, cache=Path(cache))
        prefixes = {name: package_prefix(path) for name, path in codes.items()} | {"": ""}
        for run in range(warmup + runs):
            turn = run % len(jobs)
            for case, name in jobs[turn:] + jobs[:turn]:
                start = time.perf_counter()
                args = [arg.replace("PKG.", prefixes[name]) for arg in case.args]
                done = subprocess.run([python, *args], env=envs[name], cwd=empty,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True)
                if done.returncode != 0:
                    raise RuntimeError(f"{case.label} ({name or 'no code'}) failed with exit "
                                       f"code {done.returncode}: {done.stderr.strip()}")
                if run >= warmup:
                    seconds[case.label, name].append(time.perf_counter() - start)
    return {key: np.array(values) for key, values in seconds.items()}


def load_average() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def table(all_cases: Sequence[Case], codes: Sequence[str],
          seconds: dict[tuple[str, str], np.ndarray]) -> str:
    """The Markdown table: median and p95 seconds, and each over the floor's."""
    floor = seconds[all_cases[0].label, ""]
    floor_median, floor_p95 = float(np.median(floor)), float(np.percentile(floor, 95))
    lines = ["| what | code | runs | median s | p95 s | median / floor | p95 / floor |",
             "|---|---|---|---|---|---|---|"]
    for case in all_cases:
        for name in (codes if case.per_code else ("",)):
            values = seconds[case.label, name]
            median, p95 = float(np.median(values)), float(np.percentile(values, 95))
            lines.append(f"| {case.label} | {name or '-'} | {len(values)} | {median:.3f} | "
                         f"{p95:.3f} | {median / floor_median:.2f} | {p95 / floor_p95:.2f} |")
    return "\n".join(lines)


def main(*, argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fantasyland.optimizer.batch.startup",
        description="Time the command line's start-up as whole processes.")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="another checkout (its root) to time the same commands with")
    parser.add_argument("--runs", type=int, default=20, help="counted runs of each (20)")
    parser.add_argument("--warmup", type=int, default=2,
                        help="uncounted rounds first, which also fill the bytecode cache (2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the solved hands (0)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be 1 or more and --warmup 0 or more")
    codes = {"this": ROOT}
    if args.against is not None:
        if not (args.against / "cli" / "main.py").is_file():
            parser.error(f"{args.against} holds no cli/main.py: not a checkout of this project")
        codes["against"] = args.against.resolve()
    hands = find_hands(seed=args.seed)
    all_cases = cases(hands)
    print(f"machine: {machine()}; before: {load_average()}")
    print(f"hands (seed {args.seed}): bounds prove {hands.bounds!r}; CP-SAT runs for "
          f"{hands.cp_sat!r}")
    seconds = measure(all_cases, codes, args.runs, warmup=args.warmup)
    print(f"after: {load_average()}")
    print()
    print(table(all_cases, list(codes), seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
