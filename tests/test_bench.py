"""``fantasyland bench``: what it measures and prints (never how fast; see the README)."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.optimizer.batch.benchmark import Timings, random_hands, time_solving

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
                           progress=lambda cards, done: seen.append((cards, done)))
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


def test_adversarial_hands_are_seeded_and_of_their_kind():
    from fantasyland.optimizer.batch.benchmark import KINDS, adversarial_hands

    for kind in KINDS:
        hands = adversarial_hands(kind)
        assert len(hands) == 30 and hands == adversarial_hands(kind)
        assert hands != adversarial_hands(kind, seed=2)
        for hand in hands:
            assert len(hand) == 17 == len(set(hand)) and set(hand) <= set(range(52))
            suits, ranks = {c % 4 for c in hand}, {c // 4 for c in hand}
            if kind.startswith("two-suits"):
                assert len(suits) == 2
            if kind == "two-suits-nine-ranks":
                assert len(ranks) <= 9
            if kind == "seven-connected":
                assert len(ranks) <= 7
            if kind == "pairs-and-trips":
                counts = [sum(c // 4 == r for c in hand) for r in ranks]
                assert sum(n == 1 for n in counts) <= 1 and max(counts) <= 3


def test_a_checkout_against_itself_times_both_in_turn_and_agrees():
    from fantasyland.optimizer.batch.against import compare, current_root, groups

    todo = groups("random", [13], 3, 1, "pineapple", "royalties", None)
    [result] = compare(todo, current_root())
    assert len(result.current.ms) == len(result.other.ms) == 3
    assert result.differ == 0 and set(result.ratio) == {"median_ms", "p95_ms", "max_ms"}
    cards, mine, theirs = result.worst
    assert len(cards) == 13 and mine > 0 and theirs > 0


def test_bench_against_a_revision_that_is_not_one_is_a_bad_input():
    result = runner.invoke(app, ["bench", "--cards", "13", "--hands", "1", "--against",
                                 "no-such-revision-anywhere"])
    assert result.exit_code == 2
    assert "neither a folder nor a revision" in result.output
