"""Settling finished boards: rows, scoops, fouls, royalties, 1-6 and 2-4, and whole tables."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import fantasyland.evaluator.scoring
from fantasyland.evaluator.board import Board, BoardReport, evaluate_board
from fantasyland.evaluator.rules import Scoring
from fantasyland.evaluator.rules_files import load_rules
from fantasyland.evaluator.scoring import row_results, score_table, settle

HOUSE = Path(__file__).resolve().parent.parent / "fixtures" / "house"
ONE_SIX = Scoring(scoop_bonus=3, majority_bonus=0)
TWO_FOUR = Scoring(scoop_bonus=0, majority_bonus=1)
WINNER_ONLY = Scoring(3, 0, royalties_to_row_winner_only=True)
ROW_POINTS_ONLY = Scoring(scoop_bonus=0, majority_bonus=0)

# docs/rules.md's example of scoring: Ivey royalties 1 (66) + 6 (full house), Hellmuth 4
# (flush); Ivey wins top and bottom, loses the middle.
IVEY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
HELLMUTH = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
# AA on top over KK in the middle: fouled. Shares no card with Ivey or Hellmuth, and its
# aces would have paid 9 had it been legal.
FOULED = "Ac As 5c / Kc Kh 8d 7d 4s / Jc Jd Jh 5s 6h"


def board(text: str, rules="standard"):
    return evaluate_board(text, rules=rules)


# --- two players ---------------------------------------------------------------------------

def test_ivey_hellmuth_worked_example_hellmuth_pays_ivey_4():
    ivey, hellmuth = board(IVEY), board(HELLMUTH)
    assert row_results(ivey, hellmuth) == (1, -1, 1)
    assert (ivey.royalties.total, hellmuth.royalties.total) == (7, 4)
    # Ivey 1 + 1 (66) + 1 + 6 (full house) = 9, Hellmuth 1 + 4 (flush) = 5
    assert settle(ivey, hellmuth) == 4
    assert settle(hellmuth, ivey) == -4


def test_scoop_is_worth_six_in_1_6():
    winner = board("Ks Kh 2d / As Ah 7c 5d 3h / Ac Ad 8c 8d 4h")
    loser = board("Js Jh 2c / Qs Qh 7d 5c 3s / Jc Jd 9c 9d 4s")
    assert row_results(winner, loser) == (1, 1, 1)
    assert winner.royalties.total == 8 and loser.royalties.total == 6  # KK and JJ on top
    assert settle(winner, loser) == 3 + 3 + (8 - 6)


def test_fouled_board_pays_six_plus_the_opponents_royalties():
    ivey, fouled = board(IVEY), board(FOULED)
    assert fouled.fouled and fouled.top.royalty == 9  # its own royalties never count
    assert settle(ivey, fouled) == 6 + 7
    assert settle(fouled, ivey) == -(6 + 7)
    assert settle(board(HELLMUTH), fouled) == 6 + 4


def test_two_fouled_boards_exchange_nothing():
    first, second = board(FOULED), board("Qs Qh 7c / Qc Qd 6s 5h 4d / Tc Ts 8c 8h 2d")
    assert first.fouled and second.fouled
    assert settle(first, second) == settle(second, first) == 0


def test_equal_royalties_cancel_and_the_row_still_counts():
    # Kings full against tens full, both pay 6, so only the row point is left.
    kings = board("4c 3d 2h / Ac Qd 9h 6s 3c / Kc Kd Kh 7s 7c")
    tens = board("4d 3h 2s / Ad Qh 9s 6c 3s / Tc Td Th 9c 9d")
    assert row_results(kings, tens) == (0, 0, 1)
    assert kings.royalties.total == tens.royalties.total == 6
    assert settle(kings, tens) == 1


def test_royalties_are_paid_by_difference():
    # A flush (+4) against a full house (+6) pays a net 2, besides the row.
    flush = board("Kc 5d 2h / Ac Qd 9h 6s 3c / Jh 8h 7h 4h 3h")
    boat = board("Kd 5h 2s / Ad Qh 9s 6c 3d / Ts Th Tc 8s 8d")
    assert row_results(flush, boat) == (0, 0, -1)
    assert settle(flush, boat) == -1 + (4 - 6)


def test_winning_two_rows_with_66_against_a_back_straight_is_a_tie():
    # 1 row + 1 for 66 on one side, 2 for the straight on the other: a tie.
    a = board("6s 6h 2c / 7s 7h 9c 4d 3h / 8s 8h Tc 4s 3s")
    b = board("5s 5h 3c / 5c 5d 9h 4c 3d / Td 9s 8c 7d 6c")
    assert row_results(a, b) == (1, 1, -1)
    assert (a.royalties.total, b.royalties.total) == (1, 2)
    assert settle(a, b) == 0


# --- 2-4 scoring and the winner-only royalty rule ------------------------------------------

def test_2_4_scoring_pays_one_per_row_and_one_for_the_majority():
    ivey, hellmuth = board(IVEY), board(HELLMUTH)
    assert settle(ivey, hellmuth, scoring=TWO_FOUR) == (1 - 1 + 1) + 1 + (7 - 4)


def test_2_4_scoop_is_worth_four_and_a_foul_costs_four():
    winner = board("4s 4h 2d / As Ah 7c 5d 3h / Ac Ad 8c 8d 4c")
    loser = board("3s 3c 2h / Js Jh 7d 5c 3d / Jc Jd 9c 9d 4d")
    assert row_results(winner, loser) == (1, 1, 1)
    assert settle(winner, loser, scoring=TWO_FOUR) == 4
    assert settle(board(IVEY), board(FOULED), scoring=TWO_FOUR) == 4 + 7


def test_2_4_house_file_settles_through_its_rules():
    rules = load_rules(HOUSE / "scoring_2_4.toml")
    ivey, hellmuth = board(IVEY, rules), board(HELLMUTH, rules)
    assert settle(ivey, hellmuth) == settle(board(IVEY), board(HELLMUTH), scoring=TWO_FOUR) == 5


def test_only_the_row_winners_royalty_counts_under_the_house_rule():
    rules = load_rules(HOUSE / "row_winner_royalties.toml")
    ivey, hellmuth = board(IVEY, rules), board(HELLMUTH, rules)
    # Hellmuth's flush loses the bottom row, so it earns him nothing: 1 + 1 (66) + 1 + 6.
    assert settle(ivey, hellmuth) == 8
    assert settle(board(IVEY), board(HELLMUTH), scoring=WINNER_ONLY) == 8
    assert settle(hellmuth, ivey) == -8


# --- a four-player table -------------------------------------------------------------------

# Four players settled with the simplest payments: 1 per row won, no scoop bonus, no
# royalties. These boards (one deck, no royalty hands) make every row winner of the table
# below: fronts S > N > E > W, middles S > N > W > E, backs W > N > E > S.
NORTH = "4s 4h Ac / Ks Kh Qc 5c 2c / 8s 8h 8d Tc 6c"
EAST = "3s 3h Kd / Js Jh Td 4c 3c / 7s 7h 7d 9c 8c"
SOUTH = "5s 5h Ad / As Ah Qd 5d 2d / Ts Th 6s 6h Jc"
WEST = "2s 2h Kc / Qs Qh Jd 4d 3d / 9s 9h 9d 7c 6d"
SEATS = ("North", "East", "South", "West")
# (pair, winners of front, middle, back)
ROW_WINNERS = [
    ("North", "East", "North", "North", "North"),
    ("North", "South", "South", "South", "North"),
    ("North", "West", "North", "North", "West"),
    ("East", "South", "South", "South", "East"),
    ("East", "West", "East", "West", "West"),
    ("South", "West", "South", "South", "West"),
]


@pytest.fixture
def table():
    reports = [board(text) for text in (NORTH, EAST, SOUTH, WEST)]
    assert not any(r.fouled for r in reports)
    assert all(r.royalties.total == 0 for r in reports)
    assert len({c for r in reports for c in r.board.cards}) == 52
    return reports


def test_four_player_boards_reproduce_the_seed_tables_row_winners(table):
    for first, second, *winners in ROW_WINNERS:
        a, b = table[SEATS.index(first)], table[SEATS.index(second)]
        expected = tuple(1 if w == first else -1 for w in winners)
        assert row_results(a, b) == expected, (first, second)


def test_four_player_table_totals_with_the_simplest_payments(table):
    result = score_table(table, scoring=ROW_POINTS_ONLY)
    assert result.totals == (3, -5, 3, -1)
    assert result.pairs[0][1] == 3 and result.pairs[1][0] == -3  # North v East


def test_four_player_table_in_1_6_adds_the_scoop_only_where_north_scoops_east(table):
    simple, one_six = score_table(table, scoring=ROW_POINTS_ONLY), score_table(table)
    assert one_six.totals == (6, -8, 3, -1)
    changed = {(i, j) for i in range(4) for j in range(4)
               if one_six.pairs[i][j] != simple.pairs[i][j]}
    assert changed == {(0, 1), (1, 0)}


def test_table_is_zero_sum_and_antisymmetric(table):
    for scoring in (None, ROW_POINTS_ONLY, TWO_FOUR, WINNER_ONLY):
        result = score_table(table, scoring=scoring)
        assert sum(result.totals) == 0
        assert all(result.pairs[i][j] == -result.pairs[j][i]
                   for i in range(4) for j in range(4))


def test_three_players_pay_a_flush_royalty_to_each_opponent():
    # A back flush in a three-player game earns 4 from each player, 8 in all.
    flush = board("Kc 5d 2h / Ac Qd 9h 6s 3c / Jh 8h 7h 4h 3h")
    others = [board("Kd 5h 2s / Ad Qh 9s 6c 3d / Jc Jd 8c 5c 2c"),
              board("Ks 4c 2d / As Qs 9d 6d 4s / Js Ts Td 7c 7d")]
    assert len({c for r in [flush, *others] for c in r.board.cards}) == 39
    assert all(r.royalties.total == 0 for r in others)
    result = score_table([flush, *others], scoring=ROW_POINTS_ONLY)
    rows = [sum(row_results(flush, other)) for other in others]
    assert [result.pairs[0][1], result.pairs[0][2]] == [rows[0] + 4, rows[1] + 4]
    assert result.totals[0] == sum(rows) + 8


@pytest.mark.parametrize("players", [1, 5])
def test_a_table_has_two_to_four_players(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        score_table([board(IVEY)] * players)


# --- properties on random deals ------------------------------------------------------------

scorings = st.sampled_from([ONE_SIX, TWO_FOUR, WINNER_ONLY, ROW_POINTS_ONLY])
presets = st.sampled_from(["standard", "pineapple", "deuce"])


def deal(deck: list[int], seat: int) -> Board:
    cards = deck[13 * seat:13 * seat + 13]
    return Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))


@given(st.permutations(range(52)), presets, scorings)
def test_settle_is_antisymmetric(deck, preset, scoring):
    a, b = (evaluate_board(deal(deck, seat), rules=preset) for seat in (0, 1))
    assert settle(a, b, scoring=scoring) == -settle(b, a, scoring=scoring)


@given(st.permutations(range(52)), st.integers(2, 4), presets, scorings)
def test_score_table_is_zero_sum(deck, players, preset, scoring):
    reports = [evaluate_board(deal(deck, seat), rules=preset) for seat in range(players)]
    result = score_table(reports, scoring=scoring)
    assert sum(result.totals) == 0
    for i, report in enumerate(reports):
        for j, other in enumerate(reports):
            if i != j:
                assert result.pairs[i][j] == settle(report, other, scoring=scoring)


def arranged(deck: list[int], seat: int, preset: str, fouled: bool) -> BoardReport:
    """The seat's 13 cards as dealt or with the middle and bottom swapped, whichever fouls
    (or does not) as asked; nothing (the example is dropped) when neither does."""
    dealt = deal(deck, seat)
    reports = [evaluate_board(b, rules=preset)
               for b in (dealt, Board(dealt.top, dealt.bottom, dealt.middle))]
    chosen = next((report for report in reports if report.fouled == fouled), None)
    assume(chosen is not None)  # a top above both rows, or two rows of equal strength
    return chosen


@given(st.permutations(range(52)), presets)
def test_a_foul_costs_the_penalty_plus_the_opponents_royalties(deck, preset):
    # Every example is a fouled board against a legal one: on a deal as it comes, the
    # property held only when the deal happened to give that pair, which nothing ensured.
    a, b = arranged(deck, 0, preset, fouled=True), arranged(deck, 1, preset, fouled=False)
    assert a.fouled and not b.fouled
    assert settle(b, a) == 6 + b.royalties.total
    assert settle(a, b) == -(6 + b.royalties.total)


def test_scoring_doctests_pass():
    # pyproject's testpaths hold only tests/, so the module's examples are run from here.
    result = doctest.testmod(fantasyland.evaluator.scoring)
    assert result.attempted > 0 and result.failed == 0
