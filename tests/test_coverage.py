"""``opponents --coverage``: the pool boards a dealt hand can face, against a count made
card by card over every pool board and suit relabelling."""

from __future__ import annotations

import json
from itertools import permutations

import numpy as np
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.cards import ONE_DECK
from fantasyland.optimizer.opponents.coverage import coverage_hand, hand_coverage, pool_coverage
from fantasyland.optimizer.opponents.draw import serving_pool


def _counted(pool, dealt) -> dict:
    """Pairs (board, relabelling) and distinct boards that avoid ``dealt``: the placed cards
    only, and every card the player saw, relabelling each board's suits all 24 ways."""
    out = np.zeros(52, dtype=bool)
    out[list(dealt)] = True
    figures = {"exact_pairs": 0, "placed_pairs": 0}
    exact_boards, placed_boards = set(), set()
    for suits in permutations(range(4)):
        move = np.array(suits)
        placed = (pool.boards & ~3) | move[pool.boards & 3]
        seen = (pool.discards & ~3) | move[pool.discards & 3]
        clear = ~out[placed].any(axis=1)
        exact = clear & ~out[seen].any(axis=1)
        figures["placed_pairs"] += int(clear.sum())
        figures["exact_pairs"] += int(exact.sum())
        placed_boards |= set(np.flatnonzero(clear).tolist())
        exact_boards |= set(np.flatnonzero(exact).tolist())
    return figures | {"exact_hands": len(exact_boards), "placed_hands": len(placed_boards)}


def test_the_boards_a_hand_can_face_are_counted_as_card_by_card():
    rules = find_rules("pineapple")
    pool = serving_pool(rules)
    for cards in (13, 17):
        for i in range(2):
            dealt = coverage_hand(5, cards, i, ONE_DECK)
            found = hand_coverage(rules, dealt, 200, seed=i)
            counted = _counted(pool, dealt)
            assert {k: found[k] for k in counted} == counted
            assert 0 < found["effective"] <= found["placed_hands"]


def test_the_figures_are_the_mean_and_least_over_seeded_hands():
    rules = find_rules("pineapple")
    sizes = pool_coverage(rules, [14, 17], hands=3, samples=100, seed=2)
    assert [c.cards for c in sizes] == [14, 17]
    for c in sizes:
        each = [hand_coverage(rules, coverage_hand(2, c.cards, i, ONE_DECK), 100, 2 + i)
                for i in range(3)]
        assert c.mean["placed_hands"] == np.mean([h["placed_hands"] for h in each])
        assert c.least["exact_pairs"] == min(h["exact_pairs"] for h in each)
    # fewer boards avoid more dealt cards
    assert sizes[1].mean["placed_pairs"] < sizes[0].mean["placed_pairs"]


def test_the_command_prints_the_table_and_json_alike():
    runner = CliRunner()
    shown = runner.invoke(app, ["opponents", "--coverage", "--hands", "2", "--samples", "50"])
    assert shown.exit_code == 0, shown.output
    assert "pool boards a dealt hand can face" in shown.output and "│    17 │" in shown.output
    data = runner.invoke(app, ["opponents", "--coverage", "--hands", "2", "--samples", "50",
                               "--json"])
    record = json.loads(data.output)
    assert [s["cards"] for s in record["sizes"]] == [13, 14, 15, 16, 17]
    assert record["samples"] == 50 and record["hands"] == 2
    both = runner.invoke(app, ["opponents", "--coverage", "--stats"])
    assert both.exit_code == 2 and "choose one action" in both.output
