"""``fantasyland batch --cluster``: a real Dask cluster on loopback gives the local run's output.

The cluster is a ``dask scheduler`` and two ``dask worker`` processes, on 127.0.0.1 only,
started once for the module and stopped at its end. Skipped without the ``cluster`` extra.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

distributed = pytest.importorskip("distributed")

from fantasyland.cli.main import app  # noqa: E402
from fantasyland.optimizer.batch.engines import DaskEngine  # noqa: E402
from fantasyland.optimizer.batch.files import BatchError  # noqa: E402
from fantasyland.optimizer.solver.dealing import deal_hands, hand_line  # noqa: E402

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 90  # seconds for the scheduler and both workers to come up


def stable(text: str) -> str:
    return re.sub(r'"solve_ms":[0-9.e+-]+', '"solve_ms":0', text)


def batch(*args: str):
    return runner.invoke(app, ["batch", *args, "--no-progress"])


@pytest.fixture(scope="module")
def address(tmp_path_factory):
    """The scheduler's address, with two single-threaded workers connected."""
    base = tmp_path_factory.mktemp("dask")
    scheduler_file = base / "scheduler.json"
    # The workers import this checkout's packages, installed or not.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    common = {"cwd": base, "env": env, "stdin": subprocess.DEVNULL,
              "stdout": subprocess.DEVNULL, "stderr": open(base / "dask.log", "wb")}
    processes = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)], **common)]
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            assert processes[0].poll() is None, (base / "dask.log").read_text()
            time.sleep(0.1)
        for name in ("w1", "w2"):
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                 str(scheduler_file), "--host", "127.0.0.1", "--nthreads", "1",
                 "--no-dashboard", "--no-nanny", "--name", name,
                 "--local-directory", str(base / name)],
                **common))
        with distributed.Client(scheduler_file=str(scheduler_file), timeout=30) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
            yield json.loads(scheduler_file.read_text())["address"]
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in reversed(processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        common["stderr"].close()


@pytest.fixture(scope="module")
def local(tmp_path_factory) -> dict[str, Path]:
    """An input with ids, JSON, a per-line variant and bad lines, solved locally."""
    base = tmp_path_factory.mktemp("local")
    lines = [hand_line(h) for h in deal_hands(40, {14: 0.7, 17: 0.3}, 21)]
    lines[3] = json.dumps({"id": "j4", "cards": lines[3], "variant": "progressive"})
    lines.insert(5, "As Kd Qh Jc")  # a wrong count
    lines.insert(9, "7 " + lines[1])  # an id that a later line's number repeats
    inp = base / "in.txt"
    inp.write_text("\n".join(lines) + "\n")
    out = base / "local.jsonl"
    assert batch(str(inp), "-o", str(out), "--workers", "1").exit_code == 1
    return {"input": inp, "output": out}


def test_a_cluster_run_writes_what_a_local_run_writes(address, local, tmp_path):
    out = tmp_path / "cluster.jsonl"
    result = batch(str(local["input"]), "-o", str(out), "--cluster", address)
    assert result.exit_code == 1, result.output  # the same bad lines fail
    assert stable(out.read_text()) == stable(local["output"].read_text())
    assert Path(f"{out}.errors").read_text() == Path(f"{local['output']}.errors").read_text()
    assert Path(f"{out}.settings").read_text() == \
        Path(f"{local['output']}.settings").read_text()
    assert "error: line 6: got 4 cards" in result.stderr


def test_a_cluster_run_resumes_a_killed_local_run(address, local, tmp_path):
    lines = local["output"].read_text().splitlines(keepends=True)
    out = tmp_path / "cluster.jsonl"
    out.write_text("".join(lines[:15]) + lines[15][:30])
    result = batch(str(local["input"]), "-o", str(out), "--cluster", address)
    assert result.exit_code == 1, result.output
    assert stable(out.read_text()) == stable(local["output"].read_text())
    assert "15 already in" in result.stderr


def test_a_rerun_with_other_settings_is_refused_before_the_cluster_is_called(local, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(local["output"].read_bytes())
    Path(f"{out}.settings").write_bytes(Path(f"{local['output']}.settings").read_bytes())
    # Nothing listens on port 9: reaching for the cluster would fail another way.
    result = batch(str(local["input"]), "-o", str(out), "--cluster", "tcp://127.0.0.1:9",
                   "--variant", "deuce")
    assert result.exit_code == 2
    assert "was written with --variant 'pineapple', not 'deuce'" in result.stderr
    assert out.read_bytes() == local["output"].read_bytes()


def test_an_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(BatchError, match="cannot reach the Dask scheduler"):
        DaskEngine("tcp://127.0.0.1:9", timeout=1)


def test_an_address_that_is_not_one_exits_2_and_does_not_hang(tmp_path):
    # A whole process: a half-started Dask client hung the interpreter's exit, after the
    # error was printed.
    inp = tmp_path / "in.txt"
    inp.write_text(hand_line(next(iter(deal_hands(1, {14: 1.0}, 3)))) + "\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run(
        [sys.executable, "-m", "fantasyland.cli.main", "batch", str(inp), "-o",
         str(tmp_path / "out.jsonl"), "--cluster", "not a url", "--no-progress"],
        env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: cannot reach the Dask scheduler at 'not a url': missing port number in "
        "address 'not a url'"]


def test_learn_on_the_cluster_writes_the_models_of_a_local_run(address, tmp_path):
    """The learned value's rebuild labels on the batch engines: the same seed on the
    cluster and in this process gives the same models file, byte for byte."""
    files = []
    for where, extra in (("local", ["--workers", "1"]), ("cluster", ["--cluster", address])):
        out = tmp_path / f"{where}.npz"
        result = runner.invoke(app, ["learn", "--rounds", "2,2", "--seed", "3", "--dir",
                                     str(tmp_path / where), "--output", str(out), *extra])
        assert result.exit_code == 0, result.output
        files.append(out.read_bytes())
    assert files[0] == files[1]
