"""``fantasyland bench``: what it measures and prints (never how fast; see the README)."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from cli.main import app
from optimizer.batch.benchmark import Timings, random_hands, time_solving

runner = CliRunner()


def test_timings_summarize_their_runs():
    timing = Timings("x", np.array([5.0, 1.0, 3.0, 2.0, 4.0]))
    assert (timing.median, timing.max) == (3.0, 5.0)
    assert timing.p95 == np.percentile([1, 2, 3, 4, 5], 95)


def test_random_hands_are_seeded_per_seed_and_card_count():
    hands = random_hands(3, 15, seed=4)
    assert hands == random_hands(3, 15, seed=4)
    assert hands != random_hands(3, 15, seed=5)
    assert random_hands(3, 14, seed=4)[0] != hands[0][:14]  # each count draws its own hands
    assert all(len(set(hand)) == 15 and set(hand) <= set(range(52)) for hand in hands)


def test_time_solving_times_every_hand_of_every_count_and_reports_progress():
    seen = []
    timings = time_solving([13, 17], 2, 1, "pineapple", "royalties", None,
                           lambda cards, done: seen.append((cards, done)))
    assert [t.label for t in timings] == ["13 cards", "17 cards"]
    assert all(len(t.ms) == 2 and (t.ms > 0).all() for t in timings)
    assert seen == [(13, 1), (13, 2), (17, 1), (17, 2)]


def test_bench_json_has_a_figure_set_per_card_count():
    result = runner.invoke(app, ["bench", "--cards", "14,16", "--hands", "2", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"machine", "variant", "objective", "seed", "hands", "ranking",
                            "solving"}
    assert (figures["variant"], figures["objective"], figures["hands"]) == \
        ("pineapple", "royalties", 2)
    assert set(figures["solving"]) == {"14", "16"}
    for timing in [figures["ranking"], *figures["solving"].values()]:
        assert set(timing) == {"median_ms", "p95_ms", "max_ms"}
        assert 0 < timing["median_ms"] <= timing["p95_ms"] <= timing["max_ms"]
    assert "Python 3." in figures["machine"]


def test_bench_table_names_the_machine_and_each_count():
    result = runner.invoke(app, ["bench", "--cards", "13", "--hands", "1", "--objective", "ev"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Machine: ")
    assert "objective ev" in result.stdout
    assert "solve 13 cards" in result.stdout and "rank all 5- and 3-card subsets" in \
        result.stdout
