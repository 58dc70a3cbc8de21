"""Grading a set: legality, discards, value, EV lost, percentile, and ``fantasyland check``."""

from __future__ import annotations

import json
import random
import re
from itertools import combinations

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import evaluate_board, find_rules, parse_board, parse_cards
from fantasyland.evaluator.board import Board, row_strengths, row_values
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver.objective import ObjectiveError
from fantasyland.optimizer.solver.table import Sample
from fantasyland.optimizer.training import percentile as percentile_module
from fantasyland.optimizer.training.grading import SetError, grade, parse_set
from fantasyland.optimizer.training.percentile import (exact_counts, percentile, royalty_counts,
                                           sampled_counts)

runner = CliRunner()

# 14 cards with a royal flush, trip nines and two pair: the optimum stays with the royal.
HAND = "As Ks Qs Js Ts 9h 9d 9c 5h 5d 4c 3c 2c 2d"
OPTIMAL = "4c 2d 2c / 9h 9d 9c 5h 5d / As Ks Qs Js Ts"
# The same value (49) with 3c instead of 4c on top: a different set, equally optimal.
EQUAL = "3c 2d 2c / 9h 9d 9c 5h 5d / As Ks Qs Js Ts"
# Found by search: staying needs 333 on top (17 royalties); AA top, a flush middle and a
# full house bottom score 23 and do not stay.
STAY_HAND = "Ad Ac Kc Jd Jc Tc 8s 8h 8c 6d 3s 3h 3c 2c"
GREEDY = "Ad Ac Jd / Kc Jc Tc 3c 2c / 8s 8h 8c 3s 3h"


def check(*args: str):
    return runner.invoke(app, ["check", *args])


def check_json(*args: str) -> dict:
    result = check(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- reading a set --------------------------------------------------------------------------

def test_set_rows_in_any_order_with_symbols_lower_case_and_ten():
    board = parse_set("2♣ 4c 2D | 5d 9C 9h 5h 9d / 10s js ts qs AS".replace("ts ", "ks "),
                      parse_cards(HAND))
    assert {r: sorted(board.row(r)) for r in ROWS} == {
        r: sorted(parse_board(OPTIMAL).row(r)) for r in ROWS}


def test_set_of_13_cards_without_separators_reads_3_5_5():
    dealt = parse_cards(HAND)
    assert parse_set(OPTIMAL.replace("/", ""), dealt) == parse_board(OPTIMAL)


@pytest.mark.parametrize("text, message", [
    ("4c 2d 2h / 9h 9d 9c 5h 5d / As Ks Qs Js Ts", "'2h', which was not dealt"),
    ("4c 2d / 9h 9d 9c 5h 5d / As Ks Qs Js Ts", "top row has 2 cards"),
    ("4c 2d 2c / 9h 9d 9c 5h 5d 3c / As Ks Qs Js", "middle row has 6 cards"),
    ("4c 2d 2c / 9h 9d 9c 5h 2c / As Ks Qs Js Ts", "duplicate card '2c'"),
    ("4c 2d 2c / 9h 9d 9c 5h 5d / As Ks Qs Js Tx", "bad card 'Tx'"),
    ("4c 2d 2c 9h 9d 9c 5h 5d As Ks Qs Js", "got 12 cards"),
])
def test_a_set_that_does_not_fit_the_hand_names_the_problem(text, message):
    with pytest.raises(SetError if "bad card" not in message else ValueError, match=message):
        parse_set(text, parse_cards(HAND))


# --- grading --------------------------------------------------------------------------------

def test_optimal_set_loses_nothing_and_ranks_100():
    g = grade(HAND, OPTIMAL, variant="pineapple")
    assert g.optimal and g.ev_lost == 0 and not g.fouled
    assert g.player.stays and g.player.value == 37 + find_rules("pineapple").repeat_value
    assert g.percentile.exact and g.percentile.percent == 100
    assert [c for c in g.discards] == list(parse_cards("3c"))


def test_a_different_set_of_equal_value_counts_as_optimal():
    g = grade(HAND, EQUAL, variant="pineapple")
    assert g.report.board != g.solution.board
    assert g.optimal and g.ev_lost == 0


def test_worse_set_loses_the_difference_in_the_objective():
    # The optimum: 12 (full house middle) + 25 (royal bottom) + 10 for staying = 47.
    g = grade(HAND, "5h 5d 4c / 9h 9d 9c 3c 2c / As Ks Qs Js Ts", variant="pineapple", fl_value=10)
    assert g.solution.value == 47
    assert g.player.value == 2 + 25 + 10  # trips middle
    assert g.ev_lost == 10 and not g.optimal and g.advice == ()
    assert 0 < g.percentile.percent < 100


def test_fouled_set_scores_zero_ranks_zero_and_names_the_rows():
    g = grade(HAND, "9h 9d 9c / 5h 5d 2c 2d 4c / As Ks Qs Js Ts", variant="pineapple")
    assert g.fouled and g.player.value == 0 and not g.player.stays
    assert "the top row (Three Nines) beats the middle row" in g.report.foul_reasons[0]
    assert g.percentile.percent == 0
    assert g.ev_lost == g.solution.value
    assert "fouled" in g.advice[0]


def test_giving_up_a_repeat_for_royalties_is_said_in_words():
    g = grade(STAY_HAND, GREEDY, variant="pineapple", fl_value=9.6)
    assert g.solution.stays and not g.player.stays
    assert g.advice == ("you took 6 more royalty points but gave up a Fantasyland repeat "
                        "worth about 9.6",)
    assert g.ev_lost == pytest.approx(9.6 - 6)


def test_keeping_a_repeat_that_costs_more_than_it_is_worth_is_said_in_words():
    staying = "3s 3h 3c / Ad Jd 8s 8h 8c / Ac Kc Jc Tc 2c"
    g = grade(STAY_HAND, staying, variant="pineapple", fl_value=2)
    assert g.player.stays and not g.solution.stays
    assert g.advice == ("you kept a Fantasyland repeat worth about 2 but gave up 6 royalty "
                        "points for it",)


def test_an_unknown_objective_is_refused_naming_it():
    with pytest.raises(ObjectiveError, match="unknown objective 'chips'"):
        grade(HAND, OPTIMAL, variant="pineapple", objective="chips")


# --- percentile -----------------------------------------------------------------------------

def _brute_counts(dealt, rules) -> dict:
    """Every (top, middle, bottom) of 13 dealt cards through itertools, ranked row by row."""
    boards = []
    for top in combinations(dealt, 3):
        rest = [c for c in dealt if c not in top]
        for middle in combinations(rest, 5):
            bottom = [c for c in rest if c not in middle]
            boards.append(list(top) + list(middle) + bottom)
    boards = np.array(boards)
    rows = {"top": boards[:, :3], "middle": boards[:, 3:8], "bottom": boards[:, 8:]}
    values = {r: row_values(r, rows[r], rules) for r in ROWS}
    strengths = {r: row_strengths(rows[r]) for r in ROWS}
    legal = np.ones(len(boards), dtype=bool)
    for stronger, weaker in rules.order_pairs:
        legal &= strengths[stronger] >= strengths[weaker]
    for r in ROWS:
        legal &= rules.qualify_table(r)[values[r]]
    royalties = sum(rules.royalty_table(r)[values[r]] for r in ROWS)
    stays = np.zeros(len(boards), dtype=bool)
    for r in ROWS:
        stays |= rules.stay_table(r)[values[r]]
    counts: dict = {}
    for royalty, stay in zip(royalties[legal].tolist(), stays[legal].tolist()):
        counts[(royalty, stay)] = counts.get((royalty, stay), 0) + 1
    return counts


@pytest.mark.parametrize("variant", ["standard", "deuce"])
def test_exact_counts_match_an_independent_enumeration_of_13_cards(variant):
    rules = find_rules(variant)
    dealt = parse_cards("Ah Kh Qh 9h 7d 7s 7c 6h 5d 4s 3d 3c 2h")
    assert exact_counts(dealt, rules).counts == _brute_counts(dealt, rules)


def test_exact_counts_agree_with_evaluate_board_on_sampled_sets():
    rules = find_rules("pineapple")
    dealt = parse_cards(HAND)
    counts = exact_counts(dealt, rules)
    sample = sampled_counts(dealt, rules, seed=4, wanted=4000)
    total, n = counts.total, sample.total
    for key, count in counts.counts.items():  # shares agree within five standard errors
        p = count / total
        assert abs(sample.counts.get(key, 0) / n - p) <= 5 * np.sqrt(p * (1 - p) / n) + 1e-3


def test_a_set_holding_jokers_counts_once_at_its_best_faces():
    """13 cards with two jokers: every set once, as evaluate_board plays its jokers (checked
    on a seeded few hundred of them), and their shares as a sample draws them."""
    rules = find_rules("pineapple-joker")
    dealt = parse_cards("Jk Jk Qs Qh 9d 8c 7c 5s 5h 4d 3c 2s Kd", deck=rules.deck)
    counts = royalty_counts(dealt, rules)
    assert counts.exact and counts.total <= 72_072
    rng = random.Random(3)
    legal = 0
    for _ in range(300):
        order = rng.sample(dealt, 13)
        report = evaluate_board(Board(tuple(order[:3]), tuple(order[3:8]), tuple(order[8:])),
                                rules=rules)
        legal += not report.fouled
        if not report.fouled:
            assert counts.counts.get((report.royalties.total, report.stays), 0) > 0, order
        boards = np.array([order])
        ok, values, _ = percentile_module._legal_mask(boards, rules)
        assert bool(ok[0]) == (not report.fouled), order
        if ok[0]:
            assert sum(int(rules.royalty_table(r)[values[r][0]]) for r in ROWS) == \
                report.royalties.total, order
    p = counts.total / 72_072  # the share of legal sets, as the sample saw it
    assert abs(legal / 300 - p) <= 5 * np.sqrt(p * (1 - p) / 300) + 1e-3
    sample = sampled_counts(dealt, rules, seed=4, wanted=3000)
    assert not sample.exact and sample.total == 3000
    for key, count in counts.counts.items():
        share = count / counts.total
        assert abs(sample.counts.get(key, 0) / 3000 - share) <= \
            5 * np.sqrt(share * (1 - share) / 3000) + 1e-3


def test_percentile_counts_sets_the_set_beats_or_ties():
    rules = find_rules("pineapple")
    dealt = parse_cards(HAND)
    counts = exact_counts(dealt, rules)
    board = parse_board("5h 5d 4c / 9h 9d 9c 3c 2c / As Ks Qs Js Ts")
    report = evaluate_board(board, rules=rules)
    p = percentile(dealt, rules, report.royalties.total, False, "royalties", 0.0)
    assert p.exact and p.legal_sets == counts.total
    assert p.beaten_or_tied == sum(n for (r, _), n in counts.counts.items() if r <= 27)


def test_seventeen_cards_get_a_labelled_seeded_estimate():
    rules = find_rules("progressive")
    dealt = tuple(range(0, 52, 3))[:17]
    first = percentile(dealt, rules, 5.0, False, "royalties", 0.0, seed=1)
    assert not first.exact and first.stderr > 0 and first.legal_sets > 1000
    assert percentile(dealt, rules, 5.0, False, "royalties", 0.0, seed=1) == first


# --- the command ----------------------------------------------------------------------------

def test_check_json_for_the_optimal_set():
    data = check_json(HAND, "--set", OPTIMAL, "--objective", "royalties")
    assert data["ev_lost"] == 0 and data["is_optimal"] and not data["fouled"]
    assert data["discards"] == ["3c"] and data["stays"]
    assert data["percentile"]["percent"] == 100 and data["percentile"]["exact"]
    assert data["optimal"]["bottom"] == ["As", "Ks", "Qs", "Js", "Ts"]


def test_check_json_for_a_stay_mistake():
    data = check_json(STAY_HAND, "--set", GREEDY, "--objective", "royalties", "--fl-value",
                      "9.6")
    assert data["ev_lost"] == pytest.approx(3.6)
    assert data["advice"] == ["you took 6 more royalty points but gave up a Fantasyland "
                              "repeat worth about 9.6"]


def test_check_human_output_grades_in_words():
    result = check(STAY_HAND, "--set", GREEDY, "--objective", "royalties", "--fl-value", "9.6")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Legal:      yes" in out and "EV lost:    3.6 royalty points" in out
    assert "You took 6 more royalty points but gave up a Fantasyland repeat worth about 9.6" \
        in " ".join(out.split())
    assert "Percentile:" in out and "(exact)" in out


def test_check_human_output_for_a_foul_names_the_rows():
    result = check(HAND, "--set", "9h 9d 9c / 5h 5d 2c 2d 4c / As Ks Qs Js Ts")
    assert result.exit_code == 0
    assert "no, it fouls: the top row (Three Nines) beats the middle row" in result.stdout


@pytest.mark.parametrize("played, message", [
    ("4c 2d 2h / 9h 9d 9c 5h 5d / As Ks Qs Js Ts", "'2h', which was not dealt"),
    ("4c 2d / 9h 9d 9c 5h 5d / As Ks Qs Js Ts", "the top row has 2 cards"),
    ("4c 2d 2c / 9h 9d 9c 5h 2c / As Ks Qs Js Ts", "duplicate card '2c'"),
])
def test_check_bad_set_exits_2_naming_the_problem(played, message):
    result = check(HAND, "--set", played)
    assert result.exit_code == 2
    assert message in result.stderr and result.stdout == ""


def test_a_hand_where_every_set_fouls_is_said_so_not_blamed_on_the_time_limit():
    # 2-7: a middle must be T-high or better and no lower than the top; 13 high cards can't.
    hand = "As Ah Ks Kh Qs Qh Js Jh Ts Th 9s 9h 8s"
    result = check(hand, "--variant", "deuce", "--objective", "royalties",
                   "--set", "As Ah Ks / Kh Qs Qh Js Jh / Ts Th 9s 9h 8s")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "worth 0 (every set of these cards fouls)" in out and "time limit" not in out
    assert "EV lost: 0: every set of these cards fouls" in out and "optimal" not in out.split(
        "EV lost")[1]
    assert "Percentile: none: every set of these cards fouls" in out


def test_check_bad_hand_exits_2():
    result = check("As Ks Qs", "--set", OPTIMAL)
    assert result.exit_code == 2 and "got 3 cards" in result.stderr


def test_check_grades_under_the_ev_objective_too():
    result = check(HAND, "--set", OPTIMAL, "--objective", "ev", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["objective"] == "ev" and record["ev_lost"] >= 0


def test_board_passed_in_code_is_checked_like_typed_text():
    board = parse_board("4c 2d 2h / 9h 9d 9c 5h 5d / As Ks Qs Js Ts")
    with pytest.raises(SetError, match="'2h', which was not dealt"):
        grade(HAND, board, variant="pineapple")


def test_check_17_cards_labels_the_percentile_an_estimate():
    hand = STAY_HAND + " 5h 5d 7c"
    result = check(hand, "--set", "Ad 3c Jd / Kc Jc Tc Ac 2c / 8s 8h 8c 3s 3h", "--variant",
                   "progressive", "--objective", "royalties")
    assert result.exit_code == 0, result.output
    assert "legal sets drawn at random (an estimate)" in result.stdout
    result = check(hand, "--set", GREEDY, "--variant", "progressive", "--objective",
                   "royalties")
    assert "above 99.9% (an estimate)" in result.stdout and "but not the optimum" in \
        result.stdout


def test_an_unbeaten_sampled_percentile_claims_only_what_its_sample_supports():
    # ev draws 200 sets: none better bounds the better share below 3 / 200 (95%), not 0.1%
    result = check(STAY_HAND, "--set", GREEDY)  # ev, the default
    assert result.exit_code == 0, result.output
    assert "above 98.5% (an estimate): beats or ties all 200 legal sets drawn at random and " \
        "valued by EV, but not the optimum" in " ".join(result.stdout.split())


def test_check_never_shows_100_percent_for_a_set_that_is_beaten():
    result = check(STAY_HAND, "--set", GREEDY, "--objective", "royalties", "--fl-value", "9.6")
    assert "Percentile: 99.9%: beats or ties 337,339 of the 337,342 legal sets (exact)" in \
        result.stdout


def test_check_grades_on_the_sample_solve_used_when_given_the_same_samples_and_seed():
    solution = solve(STAY_HAND, variant="pineapple", objective="ev",
                     sample=Sample(samples=60, seed=2))
    result = check(STAY_HAND, "--set", solution.board.format(ascii=True), "--objective", "ev",
                   "--samples", "60", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["ev_lost"] == 0 and record["value"] == pytest.approx(solution.value)


def test_check_reads_the_hand_from_stdin_and_the_set_from_its_option():
    hand = "Ad Ac Kc Jd Jc Tc 8s 8h 8c 6d 3s 3h 3c 2c"
    played = "Ad Ac Jd / Kc Jc Tc 3c 2c / 8s 8h 8c 3s 3h"
    given = runner.invoke(app, ["check", hand, "--set", played, "--json"])
    piped = runner.invoke(app, ["check", "-", "--set", played, "--json"], input=hand + "\n")
    assert piped.exit_code == 0, piped.output

    def untimed(text):
        return json.loads(re.sub(r'"solve_ms": [0-9.e+-]+', '"solve_ms": 0', text))

    assert untimed(piped.stdout) == untimed(given.stdout)
    bad = runner.invoke(app, ["check", "-", "--set", played], input="Ad Ac Zz\n")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: bad card 'Zz'")


def test_an_optimal_set_s_sampled_percentile_is_100_not_an_estimate_with_a_zero_error():
    # A sample of 200 sets once printed 'about 100.0% ± 0.0%': a precision it has not.
    solution = solve(STAY_HAND, variant="pineapple", objective="ev",
                     sample=Sample(samples=60, seed=2))
    result = check(STAY_HAND, "--set", solution.board.format(ascii=True), "--objective", "ev",
                   "--samples", "60", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "Percentile: 100%: the optimal set beats or ties every legal set\n" in result.stdout
    assert "± 0.0%" not in result.stdout
