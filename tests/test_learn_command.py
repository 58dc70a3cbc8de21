"""``fantasyland learn``: the learned value rebuilt from a seed, resumable, the same models
however the run is cut, and bad plans refused in one line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app

runner = CliRunner()


def learn(*args: str):
    return runner.invoke(app, ["learn", *args])


def test_a_run_resumed_or_on_two_workers_writes_the_same_models(tmp_path):
    first = learn("--rounds", "2,2", "--seed", "5", "--dir", str(tmp_path / "a"), "--workers", "1")
    assert first.exit_code == 0, first.output
    written = (tmp_path / "a" / "pineapple.npz").read_bytes()
    assert "Models written to" in first.output and "Held out" in first.output
    assert "differ from the shipped models" in first.output  # another plan than the default
    # the same run again reads every chunk it saved and plays nothing: the same file
    again = learn("--rounds", "2,2", "--seed", "5", "--dir", str(tmp_path / "a"),
                  "--output", str(tmp_path / "again.npz"))
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.npz").read_bytes() == written
    # a run of its own on two worker processes
    other = learn("--rounds", "2,2", "--seed", "5", "--dir", str(tmp_path / "b"), "--workers", "2")
    assert other.exit_code == 0, other.output
    assert (tmp_path / "b" / "pineapple.npz").read_bytes() == written
    # another seed, other models
    seed = learn("--rounds", "2,2", "--seed", "6", "--dir", str(tmp_path / "c"), "--workers", "1")
    assert seed.exit_code == 0, seed.output
    assert (tmp_path / "c" / "pineapple.npz").read_bytes() != written


@pytest.mark.parametrize(("args", "says"), [
    (["--variant", "chinese"], "bad variant 'chinese': its hands are dealt whole"),
    (["--variant", "pineapple-joker"], "bad variant 'pineapple-joker': the learned value reads "
                                       "no jokers"),
    (["--rounds", "100,x"], "'100,x': expected tables a round"),
    (["--rounds", "0"], "'0': expected tables a round"),
    (["--variant", "nosuch"], "unknown variant 'nosuch'"),
])
def test_a_plan_that_cannot_run_is_refused_in_one_line(args, says, tmp_path):
    result = learn(*args, "--dir", str(tmp_path / "run"))
    assert result.exit_code == 2
    assert says in result.output and "Traceback" not in result.output
    assert not (tmp_path / "run").exists()  # nothing was started
