"""Start-up: what a run of the command line loads, and that loading less changes nothing.

Each check runs the command line in a fresh interpreter (this checkout's code, from an empty
directory) and reads ``sys.modules`` after it: whether ortools, CP-SAT's package, was
imported, and pydantic, which Typer would import to read the options (``cli.coerce``).
The hands are found, not guessed: ``find_hands`` solves seeded hands until one
needs CP-SAT, so a bound that grows tighter moves the hand and not the test.
"""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys

import pytest

from fantasyland.cli.main import command_summaries
from fantasyland.optimizer.batch.startup import EV_SAMPLES, ROOT, SCORE_SET, child_env, find_hands

# Runs the app as the console script does, then prints what it imported on a last line.
PROBE = """
import json, sys
from fantasyland.cli.main import app
sys.argv[0] = "fantasyland"
try:
    app()
except SystemExit as stop:
    code = stop.code
loaded = sorted(name for name in sys.modules
                if name.split(".")[0] in ("ortools", "optimizer", "pydantic"))
print("probe:" + json.dumps({"code": code, "loaded": loaded}))
"""
# The same, with CP-SAT imported first, as every command did before it loaded on first use.
EAGER_PROBE = "from ortools.sat.python import cp_model\n" + PROBE


def run(args: list[str], tmp_path, probe: str = PROBE) -> tuple[str, dict]:
    """What ``fantasyland ARGS`` prints, and the probe's findings."""
    done = subprocess.run([sys.executable, "-c", probe, *args], env=child_env(ROOT),
                          cwd=tmp_path, capture_output=True, text=True, encoding="utf-8",
                          timeout=120)
    out, _, last = done.stdout.rstrip("\n").rpartition("\n")
    assert last.startswith("probe:"), done.stdout + done.stderr
    found = json.loads(last.removeprefix("probe:"))
    assert found["code"] in (0, None), done.stdout + done.stderr
    return out, found


def uses_ortools(found: dict) -> bool:
    return any(name.split(".")[0] == "ortools" for name in found["loaded"])


@pytest.fixture(scope="module")
def hands():
    return find_hands(cards=14, seed=0)


@pytest.mark.parametrize("args", [
    ["--help"],
    ["score", SCORE_SET],
    ["deal", "--hands", "3", "--seed", "1"],
], ids=["help", "score", "deal"])
def test_commands_that_solve_nothing_do_not_import_ortools(args, tmp_path):
    _, found = run(args, tmp_path)
    assert not uses_ortools(found), found["loaded"]


def uses_pydantic(found: dict) -> bool:
    return any(name.split(".")[0] == "pydantic" for name in found["loaded"])


@pytest.mark.parametrize("args", [
    ["score", SCORE_SET, "--variant", "pineapple", "--json"],
    ["deal", "--hands", "3", "--seed", "1", "--cards", "14", "--variant", "ultimate"],
], ids=["score", "deal"])
def test_reading_the_options_does_not_import_pydantic(args, tmp_path):
    _, found = run(args, tmp_path)
    assert not uses_pydantic(found), found["loaded"]


def test_help_and_score_do_not_import_the_solver_either(tmp_path):
    for args in (["--help"], ["score", SCORE_SET]):
        _, found = run(args, tmp_path)
        assert "optimizer.solver.solve" not in found["loaded"], args


def test_a_royalties_solve_does_not_import_ortools(hands, tmp_path):
    out, found = run(["solve", hands.bounds, "--objective", "royalties", "--fl-value", "12.5",
                      "--time-limit", "30"], tmp_path)
    assert "optimal (proved)" in out
    assert not uses_ortools(found) and not uses_pydantic(found), found["loaded"]


def without_times(text: str) -> str:
    text = re.sub(r"\bin \d+ ms\b", "in N ms", text)
    return re.sub(r'"solve_ms": [0-9.e+-]+', '"solve_ms": 0', text)


@pytest.mark.parametrize("extra", [[], ["--json"], ["--alternatives", "3"]],
                         ids=["text", "json", "alternatives"])
def test_a_solve_that_runs_cp_sat_loads_it_then_and_answers_as_before(hands, extra, tmp_path):
    args = ["solve", hands.cp_sat, "--objective", "ev", "--samples", str(EV_SAMPLES), *extra]
    lazy, found = run(args, tmp_path)
    eager, _ = run(args, tmp_path, EAGER_PROBE)
    assert uses_ortools(found), "the hand was meant to need CP-SAT"
    assert without_times(lazy) == without_times(eager)


def test_the_solver_clock_leaves_out_loading_cp_sat(tmp_path):
    script = """
import time
from fantasyland.optimizer.solver import cpsat
# How far the solver's clock is behind perf_counter, bracketed by two readings of
# perf_counter around it: exact however long a loaded machine keeps this process waiting.
def behind():
    first = time.perf_counter()
    solver = cpsat.clock()
    last = time.perf_counter()
    return first - solver, last - solver

assert cpsat.loading_seconds() == 0
low, high = behind()
assert low <= 1e-9 and high >= -1e-9  # not behind before CP-SAT is loaded
module = cpsat.cp_model()
assert module is cpsat.cp_model() and module.__name__ == "ortools.sat.python.cp_model"
spent = cpsat.loading_seconds()
low, high = behind()
# the clock fell behind by exactly the loading time, which is no mere instant
assert spent > 0.02 and low - 1e-9 <= spent <= high + 1e-9, (low, spent, high)
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], env=child_env(ROOT), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


# --- the commands, found without importing them -------------------------------------------

def test_the_commands_found_in_the_source_are_those_the_modules_define():
    import importlib
    import pkgutil

    from fantasyland import cli

    defined = {}
    for info in sorted(pkgutil.iter_modules(cli.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"fantasyland.cli.{info.name}")
        if info.name != "main" and callable(getattr(module, "command", None)):
            defined[info.name] = inspect.getdoc(module.command)
    assert command_summaries() == defined


# Loads every command before it runs the app, as the app did before commands loaded lazily.
EAGER_APP = """
import sys
import fantasyland.cli.main
for name in fantasyland.cli.main.command_summaries():
    fantasyland.cli.main._command_info(name)
sys.argv[0] = "fantasyland"
fantasyland.cli.main.app()
"""
LAZY_APP = "import sys; from fantasyland.cli.main import app; sys.argv[0] = 'fantasyland'; app()"


def run_app(script: str, args: list[str], tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path,
                          env=child_env(ROOT) | {"COLUMNS": "100"}, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def test_the_help_reads_as_it_does_with_every_command_loaded(tmp_path):
    lazy, eager = (run_app(script, ["--help"], tmp_path) for script in (LAZY_APP, EAGER_APP))
    assert lazy.returncode == eager.returncode == 0, lazy.stderr + eager.stderr
    assert lazy.stdout == eager.stdout
    assert all(name in lazy.stdout for name in command_summaries())


@pytest.mark.parametrize("typo", ["solv", "main", "render", "shuffle"])
def test_a_mistyped_command_gets_the_suggestion_it_got_with_every_command_loaded(typo,
                                                                                 tmp_path):
    lazy, eager = (run_app(script, [typo], tmp_path) for script in (LAZY_APP, EAGER_APP))
    assert lazy.returncode == eager.returncode == 2
    assert lazy.stderr == eager.stderr and lazy.stderr.startswith("error: No such command")
