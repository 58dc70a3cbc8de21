"""The worth of Fantasyland: the recursion on known outcomes, the seeded simulation, and
``fantasyland value``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.optimizer import Sample, TableSpec, solve
from fantasyland.optimizer.opponents.draw import opponent_boards
from fantasyland.optimizer.solver.dealing import seeded_hand
from fantasyland.optimizer.training.worth import (InfiniteWorth, Outcomes, fixed_point, simulate,
                                                  worth_table, worths)

runner = CliRunner()
NONE = -math.inf


def outcomes(cards: int, best, staying, tie=None) -> Outcomes:
    best, staying = np.array(best, float), np.array(staying, float)
    royalties = np.stack([np.where(np.isfinite(best), best, 0),
                          np.where(np.isfinite(staying), staying, 0)], axis=1).astype(int)
    tie = np.zeros(len(best), bool) if tie is None else np.array(tie)
    return Outcomes(cards, best, staying, royalties, tie)


# --- the recursion --------------------------------------------------------------------------

def test_a_repeat_is_worth_the_fixed_point_of_optimal_play():
    # Hand 2 stays once staying is worth more than 5: W = (10 + 5 + W) / 2, so W = 15.
    hands = outcomes(14, [10, 10], [NONE, 5])
    assert fixed_point(hands) == pytest.approx(15)
    value, _, stays = hands.play(15)
    assert stays.tolist() == [False, True] and value.mean() + stays.mean() * 15 == 15


def test_an_entry_is_worth_its_hand_plus_a_repeat_when_it_stays():
    rules = find_rules("progressive")  # a 15-card entry repeats with 14 cards
    w = worths({14: outcomes(14, [10, 10], [NONE, 5]), 15: outcomes(15, [20, 30], [18, 0])},
               rules)
    assert w[14] == pytest.approx(15)
    assert w[15] == pytest.approx((max(20, 18 + 15) + max(30, 0 + 15)) / 2)


def test_a_repeat_of_the_same_size_is_a_geometric_run():
    rules = find_rules("ultimate")  # repeats deal as many cards as the hand before
    hands = {n: outcomes(n, [8, 8, 8, 8], [NONE, NONE, NONE, 6 + n]) for n in (14, 17)}
    w = worths(hands, rules)
    for n in (14, 17):  # W = E / (1 - P) with E the mean hand value and P the stay rate
        assert w[n] == pytest.approx((8 * 3 + 6 + n) / 4 / (1 - 1 / 4))


def test_certain_staying_has_no_finite_worth():
    with pytest.raises(InfiniteWorth, match="no finite value"):
        fixed_point(outcomes(14, [NONE, NONE], [3, 4]))


def test_table_reports_stay_rates_and_standard_errors():
    rules = find_rules("pineapple")
    table = worth_table({14: outcomes(14, [10, 10, 12, 2], [NONE, 5, NONE, 1])}, rules, seed=1)
    row = table.row(14)
    assert row.worth == pytest.approx(table.repeat_value)
    assert row.stay_possible == 0.5 and row.stay_rate_at_f0 == 0
    assert row.stay_rate == 0.5 and row.stay_rate_se > 0 and row.worth_se > 0
    assert table.entries() == [("QQ+ top", 14, row.worth)]


# --- the simulation -------------------------------------------------------------------------

def test_simulation_is_reproducible_and_independent_of_the_split():
    one = simulate("pineapple", samples=4, seed=3)
    again = simulate("pineapple", samples=4, seed=3)
    split = simulate("pineapple", samples=4, seed=3, jobs=2)
    other = simulate("pineapple", samples=4, seed=4)
    for a in (again, split):
        assert np.array_equal(one[14].best, a[14].best)
        assert np.array_equal(one[14].best_staying, a[14].best_staying)
    assert not np.array_equal(one[14].best, other[14].best)


def test_simulated_choice_is_what_solve_plays():
    hands = simulate("progressive", samples=3, seed=5, sizes=(15, 17))
    for n, o in hands.items():
        stays = o.choose(9.0)
        for i in range(3):
            solution = solve(seeded_hand(5, n, i), variant="progressive", fl_value=9.0)
            assert solution.stays == stays[i]
            assert o.play(9.0)[0][i] + 9.0 * stays[i] == pytest.approx(solution.value)


def test_bad_sample_count_is_refused():
    with pytest.raises(ValueError, match="bad samples"):
        simulate("pineapple", samples=1)


# --- the command ----------------------------------------------------------------------------

def test_value_json_is_reproducible_with_a_seed():
    args = ["value", "--variant", "pineapple", "--hands", "4", "--seed", "2", "--json"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["hands"] == 4 and data["sizes"][0]["cards"] == 14
    assert data["repeat_value"] == data["sizes"][0]["worth"]
    assert data["entries"] == [{"entry": "QQ+ top", "cards": 14,
                                "worth": data["repeat_value"]}]


def test_value_table_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    chart = tmp_path / "worth.png"
    result = runner.invoke(app, ["value", "--variant", "progressive", "--objective",
                                 "royalties", "--hands", "2", "--seed", "1", "--plot", str(chart)])
    assert result.exit_code == 0, result.output
    for text in ("progressive: optimal play, 2 hands a size", "Worth of an entry",
                 "QQ+ top", "222+ top", "Measured worth of staying: "):
        assert text in result.stdout
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("variant, args, said", [
    ("pineapple", ["--objective", "royalties"],
     "the worth W of a 14-card repeat. It is the figure for the rules "
     "file's repeat_value, which now says 13.7."),
    ("pineapple", ["--objective", "ev", "--opponents", "2"],
     "14-card repeat per opponent. It is the figure for the rules file's ev_repeat_value "
     "(points from one opponent), which now says 12.5."),
    ("ultimate", ["--objective", "royalties"],
     "(W of the repeat each size earns). It is the figure for the rules "
     "file's repeat_value, which now says 14 = 13.7, 15 = 19.5, 16 = 29.0, "
                     "17 = 55.4."),
])
def test_value_says_what_it_measured_beside_what_the_rules_file_gives(variant, args, said):
    result = runner.invoke(app, ["value", "--variant", variant, "--hands", "12", *args])
    assert result.exit_code == 0, result.output
    assert said in " ".join(result.stdout.split())


def test_value_bad_input_exits_2():
    result = runner.invoke(app, ["value", "--variant", "holdem"])
    assert result.exit_code == 2 and "unknown variant 'holdem'" in result.stderr
    result = runner.invoke(app, ["value", "--hands", "1"])
    assert result.exit_code == 2


# --- the default worth of staying ----------------------------------------------------------

def test_the_default_worth_of_staying_follows_the_objective_and_the_table():
    hand, rules = seeded_hand(2, 14, 0), find_rules("pineapple")
    assert solve(hand, variant=rules, objective="royalties").fl_value == rules.repeat_value == 13.7
    for opponents in (1, 2):
        solution = solve(hand, variant=rules, objective="ev",
                         sample=Sample(table=TableSpec(opponents), samples=10))
        assert solution.fl_value == pytest.approx(opponents * rules.ev_repeat_value)
    boards = opponent_boards(rules, hand, samples=10, opponents=2, seed=0)
    assert solve(hand, variant=rules, objective="ev",
                 sample=Sample(boards=boards)).fl_value == pytest.approx(2 * 12.5)
    assert solve(hand, variant=rules, objective="ev", fl_value=5.0).fl_value == 5.0


@pytest.mark.slow
@pytest.mark.parametrize("variant, cards", [("standard", 13), ("pineapple", 14), ("deuce", 14)])
def test_presets_worth_of_staying_under_ev_is_what_the_value_command_measures(variant, cards):
    # A fresh seed, so the preset's figure (seed 0, 1000 hands) is checked, not repeated.
    rules = find_rules(variant)
    table = worth_table(simulate(variant, samples=300, seed=11, objective="ev", jobs=2,
                                 sizes=(cards,)), rules, objective="ev", seed=11)
    row = table.row(cards)
    assert abs(row.worth - rules.ev_repeat_value_after(cards)) < 3 * row.worth_se + 0.05


@pytest.mark.slow
def test_the_worth_of_staying_under_ev_is_linear_in_the_opponents():
    hands = {n: simulate("pineapple", samples=100, seed=12, objective="ev", opponents=n,
                         jobs=2) for n in (1, 2)}
    heads_up, three_handed = (worths(hands[n], find_rules("pineapple"))[14] for n in (1, 2))
    assert three_handed == pytest.approx(2 * heads_up, rel=0.05)


def test_the_note_says_when_the_rules_have_no_ev_worth_and_repeat_value_stands_in():
    import dataclasses

    from fantasyland.cli.value import _staying_note
    from fantasyland.optimizer.training.worth import simulate, worth_table

    rules = dataclasses.replace(find_rules("pineapple"), ev_repeat_value=None,
                                ev_repeat_values=())
    table = worth_table(simulate(rules, samples=6, seed=0, objective="ev", opponents=1,
                                 sizes=rules.dealt_counts, jobs=1, progress=None), rules,
                        objective="ev", seed=0, opponents=1)
    assert "ev_repeat_value (points from one opponent), which it lacks (its repeat_value, " \
           "13.7, stands in)" in _staying_note(table)


def test_the_rules_key_figure_is_per_opponent_only_under_ev():
    runs = {objective: json.loads(runner.invoke(app, [
        "value", "--variant", "pineapple", "--hands", "8", "--objective", objective,
        "--opponents", "2", "--json"]).stdout) for objective in ("royalties", "ev")}
    assert runs["royalties"]["rules_key_value"] == runs["royalties"]["repeat_value"]
    assert runs["ev"]["rules_key_value"] == pytest.approx(runs["ev"]["repeat_value"] / 2)


def test_value_takes_hands_per_size_and_notes_the_old_samples_spelling():
    new = runner.invoke(app, ["value", "--variant", "standard", "--hands", "3", "--workers",
                              "1", "--json"])
    old = runner.invoke(app, ["value", "--variant", "standard", "--samples", "3", "--workers",
                              "1", "--json"])
    assert new.exit_code == old.exit_code == 0, old.output
    data = json.loads(new.stdout)
    assert data["hands"] == 3 and "samples" not in data  # hands per size, as the option says
    assert data["sizes"][0]["hands"] == 3
    assert old.stdout == new.stdout
    assert old.stderr == "note: --samples is now --hands\n" and new.stderr == ""


def test_value_gives_the_same_numbers_on_one_worker_or_two():
    # 4 hands a size are 4 units of work (one hand each), so two workers really split them.
    runs = [runner.invoke(app, ["value", "--variant", "progressive", "--hands", "4", "--seed",
                                "3", "--workers", workers, "--json"]) for workers in "12"]
    assert runs[0].exit_code == runs[1].exit_code == 0, runs[0].output
    assert runs[0].stdout == runs[1].stdout
    old = runner.invoke(app, ["value", "--variant", "progressive", "--hands", "4", "--seed",
                              "3", "--jobs", "2", "--json"])
    assert old.stdout == runs[0].stdout and old.stderr == "note: --jobs is now --workers\n"


@pytest.mark.parametrize("where", ["missing/worth.png", "a-file/worth.png", "."],
                         ids=["missing directory", "a file for a directory", "a directory"])
def test_an_unwritable_plot_path_is_refused_before_any_work(tmp_path, monkeypatch, where):
    pytest.importorskip("matplotlib")
    import fantasyland.cli.value

    def no_work(*args, **kwargs):
        raise AssertionError("the hands were solved before the chart file was checked")

    monkeypatch.setattr(fantasyland.cli.value, "simulate", no_work)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a directory")
    result = runner.invoke(app, ["value", "--plot", where])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert f"'{where}'" in result.stderr and "Traceback" not in result.output


def test_a_writable_plot_path_is_left_as_it_was_when_the_run_then_fails(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import fantasyland.cli.value

    monkeypatch.setattr(fantasyland.cli.value, "simulate", lambda *a, **k: (_ for _ in ()).throw(
        KeyboardInterrupt))
    kept, fresh = tmp_path / "kept.png", tmp_path / "fresh.png"
    kept.write_bytes(b"an older chart")
    for chart in (kept, fresh):
        runner.invoke(app, ["value", "--plot", str(chart)])
    assert kept.read_bytes() == b"an older chart"  # checked, not truncated
    assert not fresh.exists()  # the check leaves no empty file behind


def test_value_of_a_variant_without_fantasyland_is_refused_in_one_line():
    # Classic Chinese Poker deals no Fantasyland: a table of zeros for 13 cards was printed.
    result = runner.invoke(app, ["value", "--variant", "chinese", "--hands", "2"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: chinese has no Fantasyland: nothing to simulate"]
    assert result.stdout == ""
