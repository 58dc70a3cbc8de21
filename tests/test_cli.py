"""The command line as a whole: a mistyped command line is one line on stderr, exit code 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize("args, message", [
    (["solve"], "error: Missing argument 'CARDS' (see `fantasyland solve --help`)"),
    (["solve", "As Ks", "--samples", "0"], "error: Invalid value for '--samples'"),
    (["solve", "As Ks", "--bogus"], "error: No such option: --bogus"),
    (["check", "As Ks", "--set", "x", "--opponents", "3"], "error: Invalid value for "
                                                            "'--opponents'"),
    (["bench", "--cards", "12"], "error: Invalid value for '--cards': bad card count '12'"),
    (["shuffle"], "error: No such command 'shuffle' (see `fantasyland --help`)"),
    (["solve", "As Ks", "--fl-value", "-5"], "error: Invalid value for '--fl-value': '-5' is "
                                             "out of range: expected 0 to 1000"),
    (["train", "--fl-value", "nan"], "error: Invalid value for '--fl-value': 'nan' is out of "
                                     "range: expected 0 to 1000"),
    (["solve", "As Ks", "--samples", "many"], "error: Invalid value for '--samples': 'many' is "
                                              "not a whole number"),
    (["solve", "As Ks", "--time-limit", "soon"], "error: Invalid value for '--time-limit': "
                                                 "'soon' is not a number"),
    (["solve", "As Ks", "--objective", "best"], "error: Invalid value for '--objective': "
                                                "'best' is not one of 'royalties', 'ev'"),
    (["solve", "As Ks", "--opponents", "3"], "error: Invalid value for '--opponents'"),
    (["solve", "As Ks", "--seed", "-1"], "error: Invalid value for '--seed'"),
    (["value", "--seed", "-1"], "error: Invalid value for '--seed'"),
    (["train", "--seed", "-1"], "error: Invalid value for '--seed'"),
    (["check", "As Ks", "--set", "x", "--seed", "-1"], "error: Invalid value for '--seed'"),
])
def test_a_mistyped_command_line_is_one_line_naming_the_problem(args, message):
    result = runner.invoke(app, args, prog_name="fantasyland")
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_the_bare_command_prints_the_help_listing_every_command():
    result = runner.invoke(app, [], prog_name="fantasyland")
    assert result.exit_code == 2 and result.stderr == ""  # Click's code for "no command"
    for command in ("solve", "check", "train", "batch", "deal", "score", "value", "opponents",
                    "bench"):
        assert command in result.output


def test_version_and_help_still_exit_0():
    assert runner.invoke(app, ["--version"]).exit_code == 0
    assert runner.invoke(app, ["solve", "--help"]).exit_code == 0


ALL_FOUL = "As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc Js"  # 2-7: no middle can be T-high or better


def test_solve_says_every_set_fouls_scores_no_royalties_and_what_the_foul_costs():
    result = runner.invoke(app, ["solve", ALL_FOUL, "--variant", "deuce"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Fouled: every set of these cards fouls: the middle row (Four Queens) must be " \
           "T-high or better" in out
    # the table shows each hand's royalty by itself; the set scores none (as score says)
    assert "Royalties: 0 (a fouled set scores none; 18 if it did not foul)" in out
    assert "EV: -" in out and "opponents' fouls +0.00, staying +0.00" in out
    assert "Stays" not in out and "Decision" not in out
    royalties = runner.invoke(app, ["solve", ALL_FOUL, "--variant", "deuce", "--objective",
                                    "royalties"])
    assert "Royalties: 0 (a fouled set scores none" in " ".join(royalties.stdout.split())
    assert "EV:" not in royalties.stdout


HAND_14 = "As Kd Qh Jc Ts 9s 8h 7d 6c 5s 4h 3d 2c 2s"


def test_solve_reads_one_hand_from_stdin():
    args = ["--objective", "royalties", "--json"]
    given = runner.invoke(app, ["solve", HAND_14, *args])
    piped = runner.invoke(app, ["solve", "-", *args], input=HAND_14 + "\n")
    assert piped.exit_code == 0, piped.output
    timing = {"solve_ms": 0}
    assert json.loads(piped.stdout) | timing == json.loads(given.stdout) | timing
    bad = runner.invoke(app, ["solve", "-"], input="As Kd Zz\n")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: bad card 'Zz'")


@pytest.mark.parametrize("command", [["solve", "-"], ["check", "-", "--set", "x"],
                                     ["score", "-"]], ids=lambda c: c[0])
@pytest.mark.parametrize("stdin", ["", " \n\n"], ids=["empty", "blank"])
def test_an_empty_stdin_is_one_line_for_a_hand_read_from_it(command, stdin):
    result = runner.invoke(app, command, input=stdin)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: standard input is empty: {command[0]} - reads ")
    assert result.stderr.count("\n") == 1


def test_points_keep_their_sign_below_one():
    # Classic Chinese Poker's values are often small and negative: -0.05 once showed as 0.05.
    from fantasyland.cli.solve import _points

    assert [_points(v) for v in (-0.05, -0.5, -0.004, 0.0, 36.0, 13.82, -10.0, 0.1)] == [
        "-0.05", "-0.5", "0", "0", "36", "13.82", "-10", "0.1"]


def test_solve_says_in_words_that_the_samples_reuse_the_deals_made_for_the_hand():
    result = runner.invoke(app, ["solve", "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s",
                                 "--opponent-fantasyland", "14", "--samples", "200"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())  # the line wraps to the width
    assert ("200 sampled deals, which reuse 16 deals of the opponents' boards played out for "
            "this hand; the ± allows for the reuse") in said


def test_solve_under_rules_without_an_entry_does_not_say_the_set_stays(tmp_path):
    # A house file with entry = [] kept its base's stay: "Stays: yes" for top trips.
    path = tmp_path / "no-entry.toml"
    path.write_text('name = "no-entry"\nbase = "pineapple"\n[fantasyland]\nentry = []\n')
    trips_on_top = "Kh Kd Kc 8s 7c 6d 5h 4h As Qs Js Ts 9s Ad"
    result = runner.invoke(app, ["solve", trips_on_top, "--variant", str(path),
                                 "--objective", "royalties"])
    assert result.exit_code == 0, result.output
    assert "Three Kings" in result.stdout and "Stays" not in result.stdout
    assert "Value:      29 = 29 royalties\n" in result.stdout  # no worth of staying added
