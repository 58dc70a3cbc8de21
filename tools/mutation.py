"""A mutation run on the rules and the solver: how many deliberate bugs the fast tests catch.

A developer's tool, not part of the package and not run in CI (docs/notes-mutation.md gives
the command, the last run's score and its survivors). It uses cosmic-ray, which is not a
dependency of the project: install it in an environment of its own and name its command
with ``--cosmic-ray``; the tests run with the Python that runs this script.

cosmic-ray edits the source in place, one mutant at a time, so the run works on an export of
the committed tree (``git archive HEAD``) in a scratch folder, never on the checkout. The
mutants of ``evaluator/`` and ``optimizer/solver/`` number some 16,000: a run tests a sample
of them, drawn with a seed, so that the same command draws the same mutants; it stops when
its time is up and reports the ones it tested.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODULES = ["evaluator", "optimizer/solver"]
#: The fast tests of the two layers (about a minute and a half together, on a quiet 2-core
#: machine): the rules against eval7 and the references, the solver against exhaustive
#: enumeration and the golden hands, and its properties, tables and jokers.
FAST_TESTS = ["tests/test_cards.py", "tests/test_board.py", "tests/test_strength.py",
              "tests/test_rules.py", "tests/test_scoring.py", "tests/test_jokers.py",
              "tests/test_handspec.py", "tests/test_reference.py", "tests/test_optimality.py",
              "tests/test_ev.py", "tests/test_solve_properties.py", "tests/test_table.py",
              "tests/test_joker_solve.py"]


def config(tests: list[str], timeout: float) -> str:
    # -x: a killed mutant stops at its first failing test; no cache in the scratch tree.
    command = " ".join([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                        "-m", "'not slow'", *tests])
    modules = ", ".join(f'"{m}"' for m in MODULES)
    return (f'[cosmic-ray]\nmodule-path = [{modules}]\ntimeout = {timeout}\n'
            f'excluded-modules = []\ntest-command = "{command}"\n\n'
            f'[cosmic-ray.distributor]\nname = "local"\n')


def keep_sample(session: Path, size: int, seed: int) -> int:
    """Leave ``size`` mutants of the session, drawn with ``seed`` from all of them in the
    order of their place in the source; return how many there were."""
    with sqlite3.connect(session) as db:
        specs = db.execute("SELECT job_id, module_path, start_pos_row, start_pos_col, "
                           "operator_name, occurrence FROM mutation_specs").fetchall()
        specs.sort(key=lambda spec: spec[1:])  # job ids are random: the source order is not
        kept = {spec[0] for spec in random.Random(seed).sample(specs, min(size, len(specs)))}
        dropped = [(spec[0],) for spec in specs if spec[0] not in kept]
        db.executemany("DELETE FROM mutation_specs WHERE job_id = ?", dropped)
        db.executemany("DELETE FROM work_items WHERE job_id = ?", dropped)
    return len(specs)


def report(session: Path, total: int) -> str:
    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT s.module_path, s.start_pos_row, s.operator_name, r.worker_outcome, "
            "r.test_outcome, r.diff FROM mutation_specs s JOIN work_results r USING (job_id) "
            "ORDER BY s.module_path, s.start_pos_row, s.start_pos_col, s.operator_name"
        ).fetchall()
    rows = [(path, row, operator, worker.lower(), (outcome or "").lower(), diff)
            for path, row, operator, worker, outcome, diff in rows]
    killed = sum(1 for row in rows if row[4] == "killed")
    survivors = [row for row in rows if row[4] == "survived"]
    others = [row for row in rows if row[4] not in ("killed", "survived")]
    lines = [f"{len(rows)} mutants tested of {total}: {killed} killed, {len(survivors)} "
             f"survived, {len(others)} neither (incompetent or abnormal)"]
    if killed + len(survivors):
        lines.append(f"score: {killed / (killed + len(survivors)):.0%} of the mutants that "
                     "ran to an outcome were killed")
    for path, row, operator, worker, outcome, diff in survivors + others:
        lines.append(f"\n{outcome} ({worker}): {path}:{row} {operator}")
        lines.extend("    " + line for line in (diff or "").splitlines()
                     if line[:1] in "+-" and line[:3] not in ("+++", "---"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cosmic-ray", default=shutil.which("cosmic-ray"),
                        help="the cosmic-ray command (default: the one on PATH)")
    parser.add_argument("--sample", type=int, default=60, help="how many mutants to test")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the sample")
    parser.add_argument("--timeout", type=float, default=240.0,
                        help="seconds before a mutant's test run counts as hung")
    parser.add_argument("--minutes", type=float, default=30.0,
                        help="the wall time of the mutants' runs, after which the run stops")
    parser.add_argument("--tests", nargs="+", default=FAST_TESTS, help="the test files")
    args = parser.parse_args(argv)
    if not args.cosmic_ray:
        parser.error("cosmic-ray not found: install it in an environment of its own and "
                     "name its command with --cosmic-ray")
    with tempfile.TemporaryDirectory(prefix="mutation-") as scratch:
        tree = Path(scratch) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        (tree / "cosmic-ray.toml").write_text(config(args.tests, args.timeout))
        session = tree / "session.sqlite"
        # The unmutated tree must pass, or every mutant would count as killed.
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m",
                        "not slow", *args.tests], cwd=tree, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([args.cosmic_ray, "init", "cosmic-ray.toml", session.name], cwd=tree,
                       check=True)
        total = keep_sample(session, args.sample, args.seed)
        run = subprocess.Popen([args.cosmic_ray, "exec", "cosmic-ray.toml", session.name],
                               cwd=tree, start_new_session=True)
        try:
            run.wait(timeout=args.minutes * 60)
        except subprocess.TimeoutExpired:
            print(f"stopped after {args.minutes:g} minutes", file=sys.stderr)
        finally:
            if run.poll() is None:  # the session and its test run, whose results are not in
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
        print(report(session, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
