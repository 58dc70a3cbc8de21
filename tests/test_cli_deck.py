"""Every command reads cards with the deck of its rules, and seats the table its deck allows.

docs/rules-files.md, "The deck": a joker where the rules deal none, more jokers than the deck
holds, a third copy under two decks and a second under one are each refused in one line that
names the card (exit code 2, no traceback); ``batch`` skips such a line and lists it.
``--opponents`` is bounded by the players the rules' deck seats.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app

runner = CliRunner()

HAND = "As Ks Qs Js Ts 9h 9d 9c 5h 5d 4c 3c 2c 2d"
SET = "Ks Qs As / 9h 9d 9c 5h 5d / Ts Js 4c 3c 2c"
NO_JOKERS = ("bad card 'Jk': a joker, and these rules deal none (a rules file's [deck] "
             "jokers = 1 or 2 deals them)")


def one_line_error(args: list[str], stdin: str | None = None) -> str:
    result = runner.invoke(app, args, input=stdin)
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr.removeprefix("error: ").rstrip("\n")


# --- a joker where the rules deal none -----------------------------------------------------

@pytest.mark.parametrize("args", [
    ["solve", "Jk " + HAND[3:], "--objective", "royalties"],
    ["check", "Jk " + HAND[3:], "--set", SET],
    ["opponents", "--check", "Jk " + HAND[3:], "--hands", "10"],
    ["score", "Jk Qs As / 9h 9d 9c 5h 5d / Ts Js 4c 3c 2c"],
], ids=["solve", "check", "opponents", "score"])
def test_a_joker_under_rules_without_jokers_is_named_by_every_command(args):
    assert one_line_error(args) == NO_JOKERS


def test_solve_reads_the_hand_from_stdin_with_the_rules_deck_too():
    assert one_line_error(["solve", "-", "--objective", "royalties"],
                          stdin="Jk " + HAND[3:] + "\n") == NO_JOKERS


def test_check_refuses_a_joker_in_the_set_that_the_rules_deck_does_not_hold():
    message = one_line_error(["check", HAND, "--set", "Jk Qs As / 9h 9d 9c 5h 5d / "
                                                      "Ts Js 4c 3c 2c"])
    assert message == NO_JOKERS


@pytest.mark.parametrize("args, message", [
    (["solve", "Jk Jk Jk " + HAND[9:], "--variant", "pineapple-joker"],
     "too many jokers: 'Jk' is joker 3, and the deck holds 2"),
    (["solve", "As As As " + HAND[3:39], "--variant", "double-deck"],
     "a third 'As': two decks hold two of each card"),
    (["check", "As As " + HAND[3:], "--set", SET],
     "duplicate card 'As': each card can be dealt only once"),
    (["check", "As As As " + HAND[3:39], "--set", SET, "--variant", "double-deck"],
     "a third 'As': two decks hold two of each card"),
], ids=["a third joker", "a third copy", "a second copy under one deck",
        "check: a third copy"])
def test_more_of_a_card_than_the_rules_deck_holds_is_named(args, message):
    assert one_line_error(args) == message


def test_a_set_may_use_a_card_only_as_often_as_it_was_dealt():
    # Two decks may deal As twice, but this hand holds it once.
    message = one_line_error(["check", HAND, "--variant", "double-deck", "--set",
                              "As Qs As / 9h 9d 9c 5h 5d / Ts Js 4c 3c 2c"])
    assert message == "the set uses 'As' twice, which was dealt once"


# --- batch skips such lines and lists them ---------------------------------------------------

def test_batch_skips_and_lists_cards_the_lines_rules_deck_does_not_hold(tmp_path):
    lines = [HAND,  # good
             "Jk " + HAND[3:],  # a joker under pineapple
             json.dumps({"id": "dd", "cards": "As As As " + HAND[3:39],
                         "variant": "double-deck"}),  # a third copy under its own rules
             "As As " + HAND[3:]]  # a second copy under one deck
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["batch", str(tmp_path / "in.txt"), "-o", str(out),
                                 "--workers", "1", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["1"]
    errors = [json.loads(line) for line in Path(f"{out}.errors").read_text().splitlines()]
    assert [(e["line"], e["id"]) for e in errors] == [(2, "2"), (3, "dd"), (4, "4")]
    assert [e["message"] for e in errors] == [
        NO_JOKERS, "a third 'As': two decks hold two of each card",
        "duplicate card 'As': each card can be dealt only once"]
    assert "Traceback" not in result.stderr and "3 failed" in result.stderr


def test_batch_reads_a_joker_under_rules_with_jokers_as_a_card(tmp_path):
    # The line is read (no bad-line error about the card); what the solver makes of a
    # joker is the solver's business, so only the reading is checked here.
    (tmp_path / "in.txt").write_text("Jk " + HAND[3:] + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    runner.invoke(app, ["batch", str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1",
                        "--no-progress", "--variant", "pineapple-joker"])
    errors = Path(f"{out}.errors")
    messages = [json.loads(line)["message"] for line in errors.read_text().splitlines()] \
        if errors.exists() else []
    assert not any("these rules deal none" in m or "bad card 'Jk'" in m for m in messages)


# --- the table the deck seats -----------------------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "check", "value", "train", "batch"])
def test_more_opponents_than_one_deck_seats_are_refused_naming_the_bound(command, tmp_path):
    needs = {"solve": [HAND], "check": [HAND, "--set", SET],
             "batch": ["-", "-o", str(tmp_path / "out.jsonl")]}.get(command, [])
    message = one_line_error([command, *needs, "--opponents", "3"], stdin="")
    assert message == (f"Invalid value for '--opponents': '3' is out of range: expected 1 to 2 "
                       f"(a deck of 52 cards seats 3 players under these rules) (see "
                       f"`fantasyland {command} --help`)")


def test_two_decks_seat_six_so_five_opponents_pass_the_option_and_six_do_not():
    message = one_line_error(["solve", HAND, "--variant", "double-deck", "--opponents", "6"])
    assert "expected 1 to 5 (a deck of 104 cards seats 6 players" in message
    # Five pass the option's bound (royalties does not sample opponents, so this solves).
    result = runner.invoke(app, ["solve", HAND, "--variant", "double-deck", "--opponents", "5",
                                 "--objective", "royalties", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["variant"] == "double-deck"


def test_the_opponents_bound_follows_the_rules_not_a_preset_name(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text('base = "standard"\n[deck]\ndecks = 2\n', encoding="utf-8")
    # Classic OFC deals 13 cards a player: one deck seats 4, two decks 8.
    message = one_line_error(["solve", HAND, "--variant", str(path), "--opponents", "8"])
    assert "expected 1 to 7 (a deck of 104 cards seats 8 players" in message
