"""``fantasyland advise`` on the command line: the ranked plays, their JSON, and bad input as
one line with exit code 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.ordinary.advise import advise
from fantasyland.optimizer.solver.table import Sample

runner = CliRunner()
LAST = ["--board", "Qh Qd / 7c 8c 9c Tc / 2s 4s 6s 8s Ts", "--cards", "Ks Jd 3h"]


def run(*args: str):
    return runner.invoke(app, ["advise", *args])


def test_the_last_street_lists_its_six_plays_exactly_and_the_json_matches_the_library():
    result = run(*LAST, "--samples", "40", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["exact"] and len(doc["plays"]) == 6 and doc["rollouts"] == 0
    advice = advise(find_rules("progressive"), LAST[1], LAST[3], sample=Sample(samples=40))
    assert [p["value"] for p in doc["plays"]] == pytest.approx([p.value for p in advice.plays])
    best = doc["plays"][0]
    assert best["rows"]["Jd"] == "middle" and best["foul_chance"] == 0.0
    assert best["entry_chances"]["14"] == 1.0  # QQ on top, a legal board: 14 cards
    assert all(p["standard_error"] == 0 for p in doc["plays"])


def test_the_table_names_the_entries_it_used_and_marks_the_best():
    result = run(*LAST, "--objective", "royalties", "--variant", "progressive")
    assert result.exit_code == 0, result.output
    assert "QQ+ top 13.7 (14)" in result.stdout and "the rules' figure" in result.stdout
    assert "best" in result.stdout and "exact (the last street" in result.stdout


def test_an_entry_value_given_replaces_the_rules_figure_and_is_said():
    result = run(*LAST, "--objective", "royalties", "--entry-value", "14=40", "--json")
    doc = json.loads(result.stdout)
    fourteen = next(e for e in doc["entry_values"] if e["cards"] == 14)
    assert (fourteen["value"], fourteen["source"]) == (40.0, "given")
    # QQ on top (7), a straight in the middle (4), a flush at the bottom (4), and the entry
    assert doc["plays"][0]["value"] == pytest.approx(7 + 4 + 4 + 40)


@pytest.mark.parametrize("args, message", [
    (["--board", "Qh Qd 2c / Kc Kd 9c 9d 3s / 2s 2d 3h 4h", "--cards", "Ah Ad Ac"],
     "error: the board 'Qh Qd 2c / Kc Kd 9c 9d 3s / 2s 2d 3h 4h' holds 12 cards, between "
     "streets"),
    (["--board", "Ah Ad 2c 3c / 7c / 8c", "--cards", "Kd Qs 3h"],
     "error: bad board 'Ah Ad 2c 3c / 7c / 8c': the top row has 4 cards"),
    (["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qh 3h"],
     "error: card 'Qh' is in the board and the dealt cards"),
    (["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs"],
     "error: got 2 dealt cards (Kd Qs): the street after a board of 5 cards deals 3"),
    (["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs Zz"],
     "error: bad card 'Zz'"),
    (["--board", " / / ", "--cards", "Kd Qs 3h 4h 5h", "--variant", "chinese"],
     "error: chinese sets all 13 cards at once"),
    (["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs 3h", "--dead", "Kd"],
     "error: card 'Kd' is in"),
    (["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs 3h", "--entry-value", "15=x"],
     "error: Invalid value for '--entry-value': '15=x': expected CARDS=POINTS"),
    (["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs 3h", "--entry-value", "13=5"],
     "error: bad entry value for 13 cards: no entry deals 13 under pineapple"),
])
def test_bad_input_is_one_line_naming_it_with_exit_code_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message), result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_a_board_whose_full_rows_already_foul_is_refused():
    result = run("--board", "Qh Qd 2c / 7c 8c 9d 3s 4h / 2s", "--cards", "Kd Qs 3d")
    assert result.exit_code == 2, result.output
    assert result.stderr == ("error: the board 'Qh Qd 2c / 7c 8c 9d 3s 4h / 2s' already fouls "
                             "(its full top row beats its full middle row): no play can save "
                             "it\n")


@pytest.mark.parametrize("options, message", [
    (["--discards", "Kd"], "card 'Kd' is in the board and your discards"),
    (["--discards", "Ah"], "card 'Ah' is in the dealt cards and your discards"),
    (["--discards", "7h", "--dead", "7h"], "card '7h' is in your discards and the dead cards"),
    (["--dead", "Kd"], "card 'Kd' is in the board and the dead cards"),
])
def test_a_discard_seen_elsewhere_is_refused_and_called_a_discard(options, message):
    # A discard on the board was called one of "the dead cards", and one also given as
    # --dead was "in the dealt hand".
    result = runner.invoke(app, ["advise", "--board", "Kd Qs / 2c 3c / 4h", "--cards",
                                 "As Ah 3d", "--objective", "ev", "--samples", "10", *options])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"error: {message}: the deck holds it once"]
