"""The worth of staying at which the stay decision flips (``Solution.break_even_fl_value``).

The figure is computed from the two best sets, not by solving again; these tests solve again
on either side of it, under royalties and under ev (the same seeded sample of opponents),
and hold the command's words and JSON to it.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.optimizer import Sample, solve

# 15-card Pineapple hands whose best set stays (quads on the bottom) and whose best set that
# does not stay is close behind: the flip is a few points.
HANDS = ["As Kc Th 9c 7c 6s 6c 5d 4h 3s 3h 3d 3c 2s 2h",
         "Ac Kd Qs Qh Qd Qc Jh Ts 8s 8d 7d 5s 5c 4h 3s"]


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("objective", ["royalties", "ev"])
def test_the_decision_flips_at_the_break_even_worth(hand, objective):
    options = {"sample": Sample(samples=60, seed=3)} if objective == "ev" else {}
    flip = solve(hand, variant="pineapple", objective=objective, **options).break_even_fl_value
    assert flip is not None
    above = solve(hand, variant="pineapple", objective=objective, fl_value=flip + 0.05, **options)
    below = solve(hand, variant="pineapple", objective=objective, fl_value=max(flip - 0.05, 0.0),
                  **options)
    assert above.stays and not below.stays
    assert above.break_even_fl_value == pytest.approx(flip)  # the worth does not move it
    # above it the staying set is worth the other plus what the worth exceeds the flip by
    assert above.value == pytest.approx(below.value + 0.05)


def test_no_flip_without_a_set_of_each_kind():
    # no legal set of these 13 cards stays in Pineapple (no pair of queens or better on
    # top, no trips, no quads)
    solution = solve("Ac Kd Jh 9s 8c 7d 6h 5s 4c 3d 2h Td 9h", variant="pineapple",
                     objective="royalties")
    assert solution.best_staying is None and solution.break_even_fl_value is None


def test_solve_says_where_the_decision_flips_in_words_and_json():
    runner = CliRunner()
    text = runner.invoke(app, ["solve", HANDS[0], "--objective", "royalties"]).output
    flip = solve(HANDS[0], variant="pineapple", objective="royalties").break_even_fl_value
    assert f"staying is right while a repeat is worth more than {flip:g} points" in text
    record = json.loads(runner.invoke(app, ["solve", HANDS[0], "--objective", "royalties",
                                            "--json"]).output)
    assert record["break_even_fl_value"] == pytest.approx(flip)
    low = runner.invoke(app, ["solve", HANDS[0], "--objective", "royalties",
                              "--fl-value", "1"]).output
    assert f"staying would be right if a repeat were worth more than {flip:g} points" in low
