"""The pool's own error in the EV's ±: its estimator against the spread it claims, its place
in the breakdown and the record, the pool a solve is pointed at, and the check.

The estimator is checked without solving: the shipped Pineapple pool is cut into disjoint
pools, each one an independent sample of the bot's play, and the spread of what a set is
worth against each one's draw (its expected mean, no sampling) must be what the estimator
says each has.
"""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules, parse_cards
from fantasyland.evaluator.board import evaluate_board, parse_board
from fantasyland.optimizer import TableSpec, solve
from fantasyland.optimizer.opponents.draw import (POOL_VARIABLE, draw_boards, model_name,
                                                  opponent_draw, pool_weights, serving_pool)
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.pools import Pool, pool_for
from fantasyland.optimizer.solver.error_check import error_check
from fantasyland.optimizer.solver.ev import PoolBoards, breakdown, set_points
from fantasyland.optimizer.solver.record import solution_record
from fantasyland.optimizer.solver.table import Sample

runner = CliRunner()
RULES = find_rules("pineapple")
HAND_14 = "As Ah Qs Jd Jc Ts 8s 8h 5s 5h 3s 3d 3c 2s"
SET_14 = "Qs Jd Jc / 8s 8h 5s 5h 2s / As Ah 3s 3d 3c"
HAND_17 = "Ac Ad Ah Kc Kd Qc Qh Jd Js Tc Th 9s 8s 8c 6d 5d 4h"
SET_17 = "Kc Kd 4h / Qc Qh Jd Js 9s / Ac Ad Ah Tc Th"


def _part(pool: Pool, start: int, stop: int) -> Pool:
    return Pool(pool.boards[start:stop], pool.discards[start:stop], pool.meta)


def _worth_and_error(pool: Pool, weights, rules, hand: str, board: str, count: int):
    """What the set wins on average against the draw's expected boards, and the pool error
    the estimator gives it."""
    dealt = np.array(parse_cards(hand))
    share = draw_boards(pool, dealt, count, 0, weights=weights).share
    boards = PoolBoards.from_share(share, rules)
    points = sum(set_points(boards.field, rules.scoring,
                            evaluate_board(parse_board(board), rules=rules)).values())
    return float(points @ share.shares @ share.mix), boards.error(points)


@pytest.mark.parametrize("variant, hand, board, count", [
    ("pineapple", HAND_14, SET_14, 200),    # a twelfth of the pool: exact and placed-only
    ("pineapple", HAND_17, SET_17, 2000),   # with replacement, the candidates too few
    ("deuce", HAND_14, SET_14, 400),
])
def test_the_pool_error_is_the_spread_of_the_ev_over_independent_pools(variant, hand, board,
                                                                       count):
    rules = find_rules(variant)
    pool, parts = pool_for(rules), 12
    size = len(pool) // parts
    # The weights are a function of a board's figures, fitted once on the whole pool (a
    # twelfth of it may not reach the target): the same function for every part.
    weights = pool_weights(pool, rules)
    worth, errors = zip(*(_worth_and_error(
        _part(pool, k * size, (k + 1) * size),
        None if weights is None else weights[k * size:(k + 1) * size], rules, hand, board,
        count) for k in range(parts)))
    # Twelve pools give the spread to about 20%: the estimate must sit within 0.6x to 1.6x.
    ratio = np.std(worth, ddof=1) / np.sqrt(np.mean(np.square(errors)))
    assert 0.6 < ratio < 1.6, (ratio, worth, errors)


def test_relabellings_of_one_pool_board_count_as_one_board():
    dealt = np.array(parse_cards(HAND_14))
    pool = pool_for(RULES)
    draw = draw_boards(pool, dealt, 200, 0)
    share = draw.share
    assert len(share.boards) == len(np.unique(share.boards, axis=0)) < draw.exact
    assert np.allclose(share.shares.sum(axis=0), 1) and share.mix.tolist() == [1.0]


def test_the_error_is_the_ratio_estimate_s_influence_over_the_boards(tmp_path):
    # the boards weighted, as a rules file may ask (opponents.mean_royalties)
    house = tmp_path / "house.toml"
    house.write_text('base = "pineapple"\n[opponents]\nmean_royalties = 4.8\n', encoding="utf-8")
    dealt = np.array(parse_cards(HAND_14))
    pool = pool_for(RULES)
    weights = pool_weights(pool, find_rules(str(house)))
    assert weights is not None
    share = draw_boards(pool, dealt, 2000, 0, weights=weights).share
    assert share.shares.shape[1] == 2 and 0 < share.mix[0] < 1  # the exact pairs run out
    points = np.random.default_rng(1).normal(size=len(share.boards))
    means = points @ share.shares
    influence = sum(share.mix[t] * share.shares[:, t] * (points - means[t]) for t in range(2))
    boards = PoolBoards.from_share(share, RULES)
    assert boards.error(points) == pytest.approx(np.sqrt((influence ** 2).sum()))
    # every seat leans on the pool alike: two seats, twice the error of a deal's total
    from dataclasses import replace
    two = PoolBoards(boards.field, replace(share, seats=2))
    assert two.error(points) == pytest.approx(2 * boards.error(points))


def test_the_standard_error_adds_the_pool_s_part_to_the_samples_as_variances():
    solution = solve(HAND_14, variant="pineapple", objective="ev",
                     sample=Sample(samples=300, seed=2))
    parts = breakdown(solution.ev, solution.report)
    assert parts.pool_error > 0 and parts.pool_boards > 50
    assert parts.standard_error ** 2 == pytest.approx(parts.sample_error ** 2
                                                      + parts.pool_error ** 2)
    again = breakdown(solve(HAND_14, variant="pineapple", objective="ev",
                            sample=Sample(samples=300, seed=2)).ev,
                      solution.report)
    assert again == parts  # deterministic


def test_three_handed_the_pool_error_doubles_with_the_seats():
    solution = solve(HAND_14, variant="pineapple", objective="ev",
                     sample=Sample(samples=300, seed=2, table=TableSpec(2)))
    one = breakdown(solve(HAND_14, variant="pineapple", objective="ev",
                          sample=Sample(samples=600, seed=2)).ev,
                    solution.report)
    assert breakdown(solution.ev, solution.report).pool_error == pytest.approx(
        2 * one.pool_error)  # the same 600 boards' mix, drawn for two seats


def test_known_boards_and_given_boards_have_no_pool_error():
    against = "Qd Qc 2d / 9c 9d 7c 7d 4h / Kh Ks 6h 6c 6s"
    known = solve(HAND_14, variant="pineapple", objective="ev",
                  sample=Sample(table=TableSpec(against=(against,))))
    parts = breakdown(known.ev, known.report)
    assert parts.exact and parts.standard_error == 0 and parts.pool_error == 0
    assert parts.pool_boards is None
    boards, _ = opponent_draw(RULES, parse_cards(HAND_14), 50, 1, 0)
    given = solve(HAND_14, variant="pineapple", objective="ev", sample=Sample(boards=boards))
    parts = breakdown(given.ev, given.report)
    assert parts.pool_error == 0 and parts.standard_error > 0  # the caller's sample only


def test_a_table_s_pool_seats_carry_the_pool_error():
    solution = solve(HAND_14, variant="pineapple", objective="ev",
                     sample=Sample(samples=64, table=TableSpec(2, opponent_fantasyland=(14,))))
    parts = breakdown(solution.ev, solution.report)
    assert parts.deals == 16 and parts.pool_error > 0


def test_the_record_gives_the_pool_s_part():
    record = solution_record(solve(HAND_14, variant="pineapple", objective="ev",
                                   sample=Sample(samples=100)))["ev"]
    assert 0 < record["pool_error"] <= record["standard_error"]
    assert record["pool_boards"] > 0
    exact = solution_record(solve(HAND_14, variant="pineapple", objective="ev",
                                  sample=Sample(table=TableSpec(against=(
        "Qd Qc 2d / 9c 9d 7c 7d 4h / Kh Ks 6h 6c 6s",)))))["ev"]
    assert exact["pool_error"] == 0 and exact["pool_boards"] is None


# --- the pool a solve draws from -------------------------------------------------------------

@pytest.fixture(scope="module")
def halves(tmp_path_factory):
    """The shipped Pineapple pool's even and odd boards, as two pool files."""
    pool, folder = pool_for(RULES), tmp_path_factory.mktemp("pools")
    paths = []
    for name, part in (("even", slice(0, None, 2)), ("odd", slice(1, None, 2))):
        path = folder / f"{name}.npz"
        Pool(pool.boards[part], pool.discards[part], dict(pool.meta, seed=name)).save(path)
        paths.append(path)
    return paths


def test_the_pool_variable_points_solves_at_another_pool_file(halves, monkeypatch):
    shipped = model_name(RULES)
    monkeypatch.setenv(POOL_VARIABLE, str(halves[0]))
    assert len(serving_pool(RULES)) == len(pool_for(RULES)) // 2
    assert model_name(RULES) != shipped and "seed even" in model_name(RULES)
    # rules the file does not serve keep their own pool
    assert serving_pool(find_rules("deuce")) is pool_for(find_rules("deuce"))
    monkeypatch.setenv(POOL_VARIABLE, str(halves[0].parent / "missing.npz"))
    with pytest.raises(OpponentModelError, match="FANTASYLAND_POOL=.*missing.npz"):
        serving_pool(RULES)


def test_a_missing_pool_file_is_one_line_and_exit_2(halves, monkeypatch):
    monkeypatch.setenv(POOL_VARIABLE, str(halves[0].parent / "missing.npz"))
    result = runner.invoke(app, ["solve", HAND_14, "--objective", "ev"])
    assert result.exit_code == 2, result.output
    assert "FANTASYLAND_POOL" in result.stderr and len(result.stderr.splitlines()) == 1


# --- the check -------------------------------------------------------------------------------

def test_the_check_gives_z_scores_with_and_without_the_pool_s_error(halves, monkeypatch):
    from fantasyland.optimizer.opponents.pools import load_pool

    monkeypatch.setenv(POOL_VARIABLE, str(halves[0]))
    result = error_check(RULES, load_pool(halves[1]), hands=5, samples=50, seed=3)
    assert [r["cards"] for r in result["rows"]] == [13, 14, 15, 16, 17]
    for row in result["rows"]:
        assert abs(row["z"]) <= abs(row["z_without_pool"])  # a wider ±, a smaller z
        assert row["pool_error"] > 0 and row["fresh_pool_error"] > 0
    assert result["z_sd"] > 0 and result == error_check(RULES, load_pool(halves[1]), hands=5,
                                                        samples=50, seed=3)


def test_the_check_refuses_the_pool_it_checks_and_pools_of_other_rules(halves, monkeypatch):
    from fantasyland.optimizer.opponents.pools import load_pool

    with pytest.raises(OpponentModelError, match="the one solves draw from"):
        error_check(RULES, pool_for(RULES), hands=2, samples=10)
    with pytest.raises(OpponentModelError, match="does not serve the rules 'pineapple'"):
        error_check(RULES, pool_for(find_rules("deuce")), hands=2, samples=10)
    monkeypatch.setenv(POOL_VARIABLE, str(halves[1]))
    with pytest.raises(OpponentModelError, match="the one solves draw from"):
        error_check(RULES, load_pool(halves[1]), hands=2, samples=10)


def test_check_error_prints_the_table_and_the_two_spreads(halves):
    result = runner.invoke(app, ["opponents", "--check-error", str(halves[1]), "--hands", "5",
                                 "--samples", "40"])
    assert result.exit_code == 0, result.output
    assert "heads-up, 40 samples, seed 0" in result.stdout
    assert "z-scores: standard deviation" in result.stdout
    assert "with the pool's error left out" in result.stdout
    for args, message in ((["--json"], "prints a table only"),
                          (["--check", HAND_14], "choose one action")):
        result = runner.invoke(app, ["opponents", "--check-error", str(halves[1]), *args])
        assert result.exit_code == 2 and message in result.stderr
    result = runner.invoke(app, ["opponents", "--check-error", str(halves[1].parent / "x.npz")])
    assert result.exit_code == 2 and "not a pool file" in result.stderr
