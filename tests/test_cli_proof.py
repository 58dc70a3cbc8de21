"""``--proof``: the command line asks for CP-SAT's model on every hand, and says which proof
settled a hand, in solve's Status line and JSON, check's JSON, batch's records and bench."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from fantasyland.cli.main import app

runner = CliRunner()

HAND = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
ROYALTIES = ["--objective", "royalties"]


def _json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_solve_proved_by_cp_sat_says_so_and_sets_the_hand_as_the_fastest_proof_does():
    fastest = _json("solve", HAND, *ROYALTIES)
    model = _json("solve", HAND, *ROYALTIES, "--proof", "cpsat")
    assert (fastest["proof"], model["proof"]) == ("completion", "cpsat")
    for key in ("top", "middle", "bottom", "discards", "value", "status", "best_staying",
                "best_not_staying"):
        assert model[key] == fastest[key], key


def test_the_status_line_names_the_proof():
    result = runner.invoke(app, ["solve", HAND, *ROYALTIES, "--proof", "cpsat"])
    assert result.exit_code == 0, result.output
    status = next(line for line in result.stdout.splitlines() if line.startswith("Status:"))
    assert status.startswith("Status:     optimal (proved) in ") and status.endswith(
        " ms, by CP-SAT")
    result = runner.invoke(app, ["solve", HAND, *ROYALTIES])
    assert "ms, by exact completion" in result.stdout


def test_ev_by_default_is_proved_without_the_model_and_says_how():
    record = _json("solve", HAND, "--objective", "ev", "--samples", "20")
    assert record["proof"] in ("bounds", "every set valued", "cpsat")


def test_an_unknown_proof_is_one_line_naming_it():
    result = runner.invoke(app, ["solve", HAND, "--proof", "sat"], prog_name="fantasyland")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: Invalid value for '--proof': 'sat' is not one of 'fastest', 'cpsat' (see "
        "`fantasyland solve --help`)"]


def test_check_grades_against_the_optimum_cp_sat_proved():
    graded = _json("check", HAND, "--set", "Ah Ac Ts / Kd Qh Qd 7h 7c / As 5s 4s 3s 2s",
                   *ROYALTIES, "--proof", "cpsat")
    assert graded["optimal"]["proof"] == "cpsat" and graded["is_optimal"]


def test_batch_records_the_proof_and_keeps_it_out_of_its_settings(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"a {HAND}\nb 2c 3d 4h 5s 7c 8d 9h Ts Jc Qd Kh As 6c\n")
    out = tmp_path / "out.jsonl"
    first = runner.invoke(app, ["batch", str(hands), "-o", str(out), *ROYALTIES, "--proof",
                                "cpsat", "--workers", "1", "--no-progress"])
    assert first.exit_code == 0, first.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["proof"] for r in records] == ["cpsat", "cpsat"]
    assert "proof" not in json.loads((tmp_path / "out.jsonl.settings").read_text())
    # the same sets whichever proves them: a rerun by the fastest proof resumes the output
    again = runner.invoke(app, ["batch", str(hands), "-o", str(out), *ROYALTIES, "--workers",
                                "1", "--no-progress"])
    assert again.exit_code == 0, again.output


def test_bench_times_the_model_against_the_fastest_proof_and_finds_no_difference():
    result = runner.invoke(app, ["bench", "--cards", "13,15", "--hands", "2", "--proof",
                                 "cpsat", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["proof"] == "cpsat" and figures["against"] == "the fastest proof"
    for group in figures["groups"]:
        assert group["differ"] == 0 and group["runs"] == 2
        assert group["settled"] == {"completion": 2, "bounds": 0, "every set valued": 0,
                                    "cpsat": 0}


def test_bench_prints_the_times_and_the_shares_of_each_proof():
    result = runner.invoke(app, ["bench", "--cards", "14", "--hands", "2", "--proof", "cpsat",
                                 "--objective", "ev", "--samples", "20"])
    assert result.exit_code == 0, result.output
    assert "CP-SAT on every hand against the fastest proof" in result.stdout
    assert "Which proof settled each hand on the fastest route" in result.stdout
    assert "every set valued" in result.stdout


def test_bench_proof_cpsat_against_an_older_version_is_refused():
    result = runner.invoke(app, ["bench", "--proof", "cpsat", "--against", "HEAD"],
                           prog_name="fantasyland")
    assert result.exit_code == 2
    assert "'--proof'" in result.stderr and "without --against" in result.stderr
