"""``fantasyland play`` in a pseudo-terminal, as a person plays it: three hands typed line by
line, the first in Fantasyland, each move confirmed with Enter (one taken back with ``u``),
and every showdown's points checked against ``score --against`` on the same boards."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.cards import format_cards, parse_cards
from fantasyland.optimizer import solve
from fantasyland.optimizer.ordinary.plays import legal_plays
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.solver.table import read_board

REPO = Path(__file__).resolve().parents[1]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
SHOWDOWN_SEAT = re.compile(r"^  (you|bot \d)\s+(\S.*?): (?:royalties|fouled).*; ([+-]?\d+)$",
                           re.MULTILINE)


def short(play) -> str:
    """A play in the short notation a player types: ``Kd t 7c m 3h x``."""
    words = [f"{format_cards([card], ascii=True)} {row[0]}" for card, row in play.rows]
    if play.discard is not None:
        words.append(f"{format_cards([play.discard], ascii=True)} x")
    return " ".join(words)


def my_street(rules, shown: str) -> str:
    """A legal play of the street the table ``shown`` last dealt the player: the last of
    ``legal_plays`` (each row's cards in the order the table shows them)."""
    board_line = re.findall(r"^  you\s+(.*)$", shown, re.MULTILINE)[-1]
    cards = re.findall(r"^  Street \d: (.*) \(keep \d\)$", shown, re.MULTILINE)[-1]
    board, _, discards = board_line.partition("; discards ")
    board = "/ /" if board == "(empty)" else board.replace("-", "")
    position = Position(rules, read_board(board, rules), tuple(parse_cards(cards)),
                        tuple(parse_cards(discards)) if discards else ())
    return short(legal_plays(position)[-1])


def test_three_hands_typed_in_a_terminal_score_as_score_against_settles_them(tmp_path):
    rules = find_rules("pineapple")
    child = pexpect.spawn(
        sys.executable, ["-m", "fantasyland.cli.main", "play", "--variant", "pineapple",
                         "--objective", "royalties", "--hands", "3", "--seed", "5",
                         "--fantasyland", "14", "--history", str(tmp_path / "h.sqlite3")],
        cwd=str(REPO), env={**os.environ, "COLUMNS": "250"}, encoding="utf-8",
        dimensions=(60, 250), timeout=300)
    seen = ""
    asked = took_back = False
    while True:
        found = child.expect([r"set> ", r"play> ", r"Session: .*\n", pexpect.EOF])
        seen += ESCAPES.sub("", child.before) + (child.after if found < 3 else "")
        if found >= 2:
            break
        if found == 0:  # Fantasyland: the solver's set, typed
            dealt = re.findall(r"^  Dealt:\s+(.*)$", seen, re.MULTILINE)[-1]
            typed = solve(dealt, variant=rules, objective="royalties").board.format(ascii=True)
        elif not asked:  # the adviser's ranking once, then the street typed
            asked = True
            child.sendline("?")
            child.expect("play> ")
            seen += ESCAPES.sub("", child.before) + child.after
            assert "The adviser's ranking" in child.before
            typed = my_street(rules, seen)
        else:
            typed = my_street(rules, seen)
        child.sendline(typed)
        child.expect(r"Enter confirms, u takes it back> ")
        seen += ESCAPES.sub("", child.before)
        if not took_back and found == 1:  # taken back once, then typed again
            took_back = True
            child.sendline("u")
            child.expect(r"play> ")
            assert "Taken back." in child.before
            child.sendline(typed)
            child.expect(r"Enter confirms, u takes it back> ")
        child.sendline("")
    child.expect(pexpect.EOF)
    seen += ESCAPES.sub("", child.before)
    child.close()
    assert child.exitstatus == 0, seen[-2000:]
    assert took_back and asked
    showdowns = seen.split("Showdown, hand ")[1:]
    assert len(showdowns) == 3
    assert "Fantasyland: " in showdowns[0] and "Street 1: " in showdowns[1]
    runner = CliRunner()
    for text in showdowns:
        seats = SHOWDOWN_SEAT.findall(text)
        assert [name for name, _, _ in seats] == ["you", "bot 1"]
        (_, mine, points), (_, theirs, _) = seats
        settled = runner.invoke(app, ["score", mine, "--against", theirs, "--variant",
                                      "pineapple", "--json"])
        assert settled.exit_code == 0, settled.output
        assert json.loads(settled.stdout)["players"][0]["net"] == int(points)


def test_a_session_killed_mid_hand_keeps_its_log_whole_and_goes_on(tmp_path):
    log, straight = tmp_path / "killed.jsonl", tmp_path / "straight.jsonl"
    settings = ["play", "--variant", "pineapple", "--objective", "royalties", "--seed", "8",
                "--history", str(tmp_path / "h.sqlite3")]
    child = pexpect.spawn(sys.executable, ["-m", "fantasyland.cli.main", *settings,
                                           "--log", str(log)],
                          cwd=str(REPO), encoding="utf-8", dimensions=(60, 250), timeout=300)
    for _ in range(7):  # hand 1's five streets, and two of hand 2's
        child.expect("play> ")
        child.sendline("=")
        child.expect("Enter confirms")
        child.sendline("")
    child.expect("play> ")
    child.kill(9)
    child.close()
    assert child.signalstatus == 9
    kept = log.read_text()
    assert kept.count("# hand ") == 1 and "s8h2" not in kept
    runner = CliRunner()
    resumed = runner.invoke(app, [*settings, "--log", str(log), "--hands", "1"], input="=\n" * 5)
    assert resumed.exit_code == 0, resumed.output
    assert "Going on with" in resumed.stdout
    again = runner.invoke(app, [*settings, "--log", str(straight), "--hands", "2"],
                          input="=\n" * 10)
    assert again.exit_code == 0
    assert log.read_bytes() == straight.read_bytes()
