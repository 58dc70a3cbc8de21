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


EVIL_RULES = ('name = "evil\\u001b[2J\\u001b[H"\n'
              'description = "clears\\u001b]0;title\\u001b\\\\ the screen"\nbase = "pineapple"\n')


def test_a_rules_file_s_name_and_description_are_shown_escaped_not_obeyed(tmp_path):
    # They reached the terminal raw: an escape code in a name cleared the screen.
    path = tmp_path / "evil.toml"
    path.write_text(EVIL_RULES)
    child = pexpect.spawn(sys.executable, ["-m", "fantasyland.cli.main", "score",
                                           "Kh Kd Kc / 8s 7c 6d 5h 4h / As Qs Js Ts 9s",
                                           "--variant", str(path)],
                          cwd=str(REPO), env={**os.environ, "FORCE_COLOR": "1"},
                          encoding="utf-8", dimensions=(40, 120), timeout=300)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    shown = child.before
    assert "\x1b[2J" not in shown and "\x1b]0;" not in shown
    assert r"evil\x1b[2J\x1b[H (clears\x1b]0;title\x1b\ the screen)" in shown
    assert "\x1b[1m" in shown  # the console's own styles still reach the terminal


def test_every_command_shows_a_rules_file_s_name_escaped(tmp_path):
    path = tmp_path / "evil.toml"
    path.write_text(EVIL_RULES)
    solved = runner.invoke(app, ["solve", "Kh Kd Kc 8s 7c 6d 5h 4h As Qs Js Ts 9s Ad",
                                 "--variant", str(path), "--objective", "royalties"])
    assert solved.exit_code == 0, solved.output
    assert "\x1b" not in solved.stdout
    assert r"(14 cards, evil\x1b[2J\x1b[H)" in solved.stdout
