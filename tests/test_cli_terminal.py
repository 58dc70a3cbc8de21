"""What the command line shows a person at a terminal and what it leaves out elsewhere.

A wait of more than a second shows a progress line on stderr, on a terminal only: piped or
captured (``CliRunner``), stderr gets nothing extra, so that scripts and tests read clean
output. The terminal checks run the command in a pseudo-terminal (pexpect), as a user does.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]


def in_a_terminal(*args: str, env: dict | None = None, columns: int = 100) -> str:
    """What ``fantasyland ARGS`` writes to a terminal of ``columns`` columns, its escape
    codes (colours, the bar redrawn) taken out."""
    child = pexpect.spawn(sys.executable, ["-m", "fantasyland.cli.main", *args], cwd=str(REPO),
                          env={**os.environ, **(env or {})}, encoding="utf-8",
                          dimensions=(40, columns), timeout=300)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)


def test_value_shows_its_progress_on_a_terminal():
    assert "solving" in in_a_terminal("value", "--variant", "pineapple", "--hands", "4",
                                      "--workers", "1")


def test_value_captured_writes_nothing_on_stderr():
    # Rich's bar, gone when it stops, still ended with a blank line where stderr was not a
    # terminal: the blank line a user saw above the table when both went to one file.
    result = runner.invoke(app, ["value", "--variant", "pineapple", "--hands", "4",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.output.lstrip(" ").startswith("pineapple: optimal play")  # a title, no blank line


def test_advise_captured_writes_nothing_on_stderr(monkeypatch):
    import fantasyland.cli.advise as advise

    monkeypatch.setattr(advise, "PROGRESS_AFTER", 0.0)  # the bar would start at once
    result = runner.invoke(app, ["advise", "--board", "Kd / 7c 8c / 2h 2d", "--cards",
                                 "Qs 9c 4s", "--budget", "32", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.output.startswith("Position:")


def test_review_shows_its_progress_on_a_terminal():
    history = REPO / "fixtures" / "review" / "progressive-hand.jsonl"
    shown = in_a_terminal("review", str(history), "--objective", "royalties", "--budget", "32")
    assert "grading" in shown and "5/5 lines" in shown


def test_review_captured_writes_nothing_on_stderr():
    history = REPO / "fixtures" / "review" / "progressive-hand.jsonl"
    result = runner.invoke(app, ["review", str(history), "--objective", "royalties",
                                 "--budget", "32"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_review_fits_an_80_column_terminal_prose_and_all():
    history = REPO / "fixtures" / "review" / "progressive-hand.jsonl"
    shown = in_a_terminal("review", str(history), "--objective", "royalties", "--budget", "32",
                          columns=80)
    output = shown[shown.index("Decisions"):].splitlines()  # what the bar left, redrawn
    assert max(len(line.rstrip()) for line in output) <= 80
    assert any(line.startswith("Worst:") for line in output)
    assert any(line.startswith(" " * 12) and "discard" in line for line in output)


def test_prose_wraps_to_the_terminal_under_its_label():
    shown = in_a_terminal("solve", "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s",
                          "--opponent-fantasyland", "14", "--samples", "200", columns=80)
    lines = shown.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    ev = next(i for i, line in enumerate(lines) if line.startswith("EV:"))
    assert lines[ev + 1].startswith(" " * 12 + "which reuse 16 deals")



def test_building_a_house_file_s_model_shows_its_progress(tmp_path):
    # The first use of a classic Chinese house file builds its opponent model (some 15 s)
    # and keeps it: a cache of this test's own, so that the build happens here.
    house = REPO / "fixtures" / "house" / "chinese_typical.toml"
    shown = in_a_terminal("solve", "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s", "--variant",
                          str(house), "--samples", "20",
                          env={"FANTASYLAND_CACHE": str(tmp_path / "cache")})
    assert "building the opponent model of chinese_typical (once: it is kept)" in shown
    assert "Status:" in shown
