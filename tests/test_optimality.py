"""The optimizer against the exhaustive reference search: the same value and the same set.

Every hand is drawn from a seeded ``random.Random``. Half of them come from the whole deck;
the other half from a few ranks only, so that pairs, trips, quads, fouls and equal-value
sets (where the tie-break decides) are common rather than rare. Counts per size (13 and 14
cards: 330 hands each; 15, 16 and 17 cards: 30 each) are split over the `pineapple` and
`standard` presets with ``fl_value`` 0 and 15 and the `deuce` preset with both values.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from fantasyland.evaluator.board import parse_board
from fantasyland.evaluator.cards import format_cards
from fantasyland.optimizer import solve
from reference import best_sets, card_key

ROWS = ("top", "middle", "bottom")
GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden_hands.jsonl"
TIME_LIMIT = 60.0  # seconds; far above what these hands take, so "optimal" is always expected

# (variant, fl_value, hands per size for 13 and 14 cards, hands per size for 15 to 17 cards)
CONFIGS = (
    ("pineapple", 0.0, 60, 5),
    ("pineapple", 15.0, 60, 5),
    ("standard", 0.0, 60, 5),
    ("standard", 15.0, 60, 5),
    ("deuce", 0.0, 45, 5),
    ("deuce", 15.0, 45, 5),
)


def deal(n: int, variant: str, fl_value: float, index: int) -> list[int]:
    """Hand ``index`` of its kind: even ones from the whole deck, odd ones from few ranks."""
    rng = random.Random(f"optimality-{n}-{variant}-{fl_value:g}-{index}")
    if index % 2 == 0:
        return rng.sample(range(52), n)
    ranks = rng.sample(range(13), rng.randint(math.ceil(n / 4) + 1, 9))
    return rng.sample([rank * 4 + suit for rank in ranks for suit in range(4)], n)


def cases(sizes: tuple[int, ...], slow: bool) -> list:
    params = []
    for n in sizes:
        for variant, fl_value, small, large in CONFIGS:
            for index in range(small if n <= 14 else large):
                marks = [pytest.mark.slow] if slow else []
                params.append(pytest.param(n, variant, fl_value, index, marks=marks,
                                           id=f"{n}-{variant}-fl{fl_value:g}-{index}"))
    return params


def shown(rows) -> str:
    return " / ".join(format_cards(rows[r], ascii=True) for r in ROWS)


def assert_same_as_reference(cards, variant: str, fl_value: float) -> None:
    value, board = best_sets(cards, variant, fl_value)
    sol = solve(cards, variant=variant, objective="royalties", fl_value=fl_value,
                time_limit=TIME_LIMIT)
    hand = f"{format_cards(cards, ascii=True)} ({variant}, fl_value {fl_value:g})"
    if board is None:
        assert sol.fouled, f"{hand}: every set fouls, but solve returned {shown(vars(sol))}"
        return
    expected = {r: card_key(board.row(r)) for r in ROWS}
    got = {r: card_key(getattr(sol, r)) for r in ROWS}
    assert not sol.fouled, f"{hand}: solve says every set fouls; reference {shown(expected)}"
    assert sol.status == "optimal", f"{hand}: status {sol.status!r}"
    assert sol.value == pytest.approx(value, abs=1e-9), (
        f"{hand}: solve {sol.value} {shown(got)}, reference {value} {shown(expected)}")
    assert got == expected, (
        f"{hand}: tie-break differs at value {value}: solve {shown(got)}, "
        f"reference {shown(expected)}")
    kept = set(sum(expected.values(), ()))
    assert sorted(sol.discards) == sorted(set(cards) - kept), hand


@pytest.mark.parametrize("n, variant, fl_value, index", cases((13, 14), slow=False))
def test_small_hands_match_the_reference(n, variant, fl_value, index):
    assert_same_as_reference(deal(n, variant, fl_value, index), variant, fl_value)


@pytest.mark.parametrize("n, variant, fl_value, index", cases((15, 16, 17), slow=True))
def test_large_hands_match_the_reference(n, variant, fl_value, index):
    assert_same_as_reference(deal(n, variant, fl_value, index), variant, fl_value)


def test_the_counts_the_issue_asks_for():
    small = cases((13, 14), slow=False)
    large = cases((15, 16, 17), slow=True)
    for n in (13, 14):
        assert sum(p.values[0] == n for p in small) >= 300
    for n in (15, 16, 17):
        assert sum(p.values[0] == n for p in large) >= 30
    configs = {(p.values[1], p.values[2]) for p in small + large}
    assert {("pineapple", 0.0), ("pineapple", 15.0), ("standard", 0.0), ("standard", 15.0),
            ("deuce", 0.0), ("deuce", 15.0)} <= configs


# --- the golden hands -------------------------------------------------------------------------

def golden_hands() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("hand", golden_hands(), ids=lambda h: h["id"])
def test_golden_hand(hand):
    sol = solve(hand["cards"], variant=hand["variant"], objective="royalties",
                fl_value=hand["fl_value"], time_limit=TIME_LIMIT)
    if hand["expected_set"] is None:
        assert sol.fouled, f"{hand['id']}: expected no legal set, got {shown(vars(sol))}"
        return
    expected = parse_board(hand["expected_set"])
    got = {r: card_key(getattr(sol, r)) for r in ROWS}
    want = {r: card_key(expected.row(r)) for r in ROWS}
    assert (sol.value, got) == (pytest.approx(hand["expected_value"], abs=1e-9), want), (
        f"{hand['id']}: solve {sol.value} {shown(got)}, expected "
        f"{hand['expected_value']} {shown(want)}")
    assert sol.status == "optimal"
