"""``--against`` with finished boards: the EV is exact, and its optimum is the one a plain
enumeration of every set finds.

The enumeration shares nothing with ``optimizer/``: itertools over every way to discard and
place the dealt cards, each row valued by the evaluator's row tables, each set settled
against the known boards by 1-6 scoring written out here (row points, scoop, royalties by
difference, a foul pays 6 and the other's royalties), plus the worth of staying.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from fantasyland.evaluator.board import evaluate_board, row_strengths, row_values
from fantasyland.evaluator.cards import format_cards, parse_cards
from fantasyland.evaluator.rules import ROWS
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer import TableSpec, solve
from fantasyland.optimizer.solver.table import Sample

RULES = find_rules("pineapple")
FL_VALUE = 12.4


def _row(row: str, cards: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Value on the row's scale, strength on the high scale, royalty, of each row."""
    array = np.array(cards, dtype=np.int64)
    value = row_values(row, array, RULES)
    return value, row_strengths(array), RULES.royalty_table(row)[value]


def _known(text: str) -> dict:
    report = evaluate_board(text, rules=RULES)
    return {"fouled": report.fouled,
            "value": {r: report.row(r).value for r in ROWS},
            "royalty": {r: report.row(r).royalty for r in ROWS}}


def best_by_enumeration(hand: str, boards: list[str], samples: int = 1) -> float:
    """The most any set of ``hand`` wins against the finished ``boards``, by brute force: in
    each of ``samples`` deals alike, the boards' points divided among them."""
    dealt = parse_cards(hand)
    known = [_known(b) for b in boards]
    tops, middles, bottoms = [], [], []
    for kept in combinations(dealt, 13):
        for top in combinations(kept, 3):
            rest = [c for c in kept if c not in top]
            for middle in combinations(rest, 5):
                tops.append(top)
                middles.append(middle)
                bottoms.append(tuple(c for c in rest if c not in middle))
    rows = {"top": _row("top", tops), "middle": _row("middle", middles),
            "bottom": _row("bottom", bottoms)}
    strength = {r: rows[r][1] for r in ROWS}
    fouled = (strength["top"] > strength["middle"]) | (strength["middle"] > strength["bottom"])
    royalty = sum(rows[r][2] for r in ROWS)
    stays = np.zeros(len(tops), dtype=bool)
    for r in ROWS:
        stays |= RULES.stay_table(r)[rows[r][0]]
    total = np.zeros(len(tops))
    for board in known:
        theirs = sum(board["royalty"].values())
        if board["fouled"]:
            total += np.where(fouled, 0, 6 + royalty)
            continue
        won = sum((rows[r][0] > board["value"][r]).astype(int) for r in ROWS)
        lost = sum((rows[r][0] < board["value"][r]).astype(int) for r in ROWS)
        points = won - lost + 3 * (won == 3) - 3 * (lost == 3) + royalty - theirs
        total += np.where(fouled, -(6 + theirs), points)
    total = total / samples + np.where(stays & ~fouled, FL_VALUE, 0)
    return float(total.max())


CASES = [
    # 13 cards, one board that stands (a flush bottom, two pair middle)
    ("Ac Kd Qh Jc Ts 9s 8h 7d 6c 5s 4h 3d 2c",
     ["Qs Qd 4c / 9c 9d 5h 5d 2h / Ah Kh Jh 7h 6h"]),
    # 14 cards (one discard), one board that stands
    ("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s",
     ["Jc Jd 2h / 9c 9d 8h 4c 4d / Tc Th Td Kc Kh"]),
    # 14 cards, two boards: one stands, one fouls (a pair of jacks over a pair of nines)
    ("Ad Kc Qs Js Tc 9h 8c 8d 6h 5c 4c 3h 2h 2d",
     ["Kh Kd 3c / 7c 7d 7h 6c 6d / Ac As Qc Qd Qh",
      "Ah Jc Jd / 9c 9d 5h 3d 4d / Ts 9s 7s 6s 4s"]),
]


def test_the_cases_hold_boards_that_stand_and_one_that_fouls():
    fouled = [evaluate_board(b, rules=RULES).fouled for _, boards in CASES for b in boards]
    assert fouled == [False, False, False, True]


@pytest.mark.parametrize("hand, boards", CASES)
def test_the_exact_ev_against_known_boards_is_the_enumerated_optimum(hand, boards):
    solution = solve(hand, objective="ev", fl_value=FL_VALUE,
                     sample=Sample(table=TableSpec(len(boards), tuple(boards))))
    assert solution.status == "optimal"
    assert solution.value == pytest.approx(best_by_enumeration(hand, boards), abs=1e-9)


def test_known_boards_are_exact_whatever_the_samples_and_seed():
    hand, boards = CASES[1]
    table = TableSpec(against=tuple(boards))
    first = solve(hand, objective="ev", fl_value=FL_VALUE,
                  sample=Sample(table=table, samples=50, seed=3))
    second = solve(hand, objective="ev", fl_value=FL_VALUE, sample=Sample(table=table, samples=400))
    assert first.value == second.value
    assert first.ev.field.samples == 1 and first.ev.field.exact


def test_a_known_board_beside_a_sampled_seat_is_played_in_every_deal_and_the_optimum_is_exact():
    # Two opponents, one board known: each deal holds the known board at its seat and a
    # board the bot sets from the cards no one holds; the EV is the mean over the deals of
    # both seats' points, and its optimum is the enumeration's against those boards.
    hand, (known,) = CASES[0]
    solution = solve(hand, objective="ev", fl_value=FL_VALUE,
                     sample=Sample(samples=25, seed=3, table=TableSpec(2, (known,))))
    boards = solution.ev.field.boards
    assert boards.shape == (25, 2, 13) and not solution.ev.field.exact
    rows = [tuple(sorted(parse_cards(part))) for part in known.split("/")]
    held = set(parse_cards(hand)) | set(parse_cards(known.replace("/", " ")))
    texts = []
    for deal in boards:
        assert [tuple(sorted(deal[0][cut].tolist())) for cut in (slice(0, 3), slice(3, 8),
                                                                  slice(8, 13))] == rows
        assert not set(deal[1].tolist()) & held and len(set(deal[1].tolist())) == 13
        texts += [" / ".join(format_cards(board[cut], ascii=True)
                             for cut in (slice(0, 3), slice(3, 8), slice(8, 13)))
                  for board in deal]
    assert len(set(texts[1::2])) > 1  # the seat not known is sampled, deal by deal
    assert solution.status == "optimal"
    assert solution.value == pytest.approx(best_by_enumeration(hand, texts, 25), abs=1e-9)
