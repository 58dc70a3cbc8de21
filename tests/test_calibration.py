"""Calibrating the opponent model: the exponential tilt of the bot's boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasyland.evaluator import find_rules
from fantasyland.optimizer.opponents.calibration import CalibrationError, board_features, fit
from fantasyland.optimizer.opponents.pools import pool_for

RULES = find_rules("pineapple")
BOARDS = pool_for(RULES).boards[:3000]


@pytest.mark.parametrize("target", [3.0, 4.0, 4.5, 5.5])
def test_the_weighted_boards_meet_the_target_and_keep_their_rates(target):
    features = board_features(RULES, BOARDS)
    calibration = fit(RULES, BOARDS, target)
    weights = calibration.weights(BOARDS)
    share = weights / weights.sum()
    assert share @ features[:, 0] == pytest.approx(target, abs=1e-9)
    assert share @ features[:, 1:] == pytest.approx(features[:, 1:].mean(axis=0), abs=1e-9)
    assert 0 < calibration.effective_share <= 1


def test_a_target_the_boards_already_meet_leaves_them_unweighted():
    plain = board_features(RULES, BOARDS)[:, 0].mean()
    calibration = fit(RULES, BOARDS, plain)
    assert calibration.theta == pytest.approx(np.zeros(3), abs=1e-9)
    assert calibration.effective_share == pytest.approx(1.0)


def test_a_higher_target_weights_high_royalty_boards_more():
    features = board_features(RULES, BOARDS)
    low, high = fit(RULES, BOARDS, 4.0), fit(RULES, BOARDS, 5.0)
    ratio = high.weights_of(features) / low.weights_of(features)
    standing = features[:, 2] == 0  # among boards that do not foul, alike otherwise
    same_entry = standing & (features[:, 1] == 0)
    order = np.argsort(features[same_entry, 0], kind="stable")
    assert (np.diff(ratio[same_entry][order]) >= -1e-12).all()


def test_a_board_s_weight_does_not_depend_on_the_boards_weighted_with_it():
    # Draws weight a dealt hand's candidates with the pool's weights, so a subset's weights
    # must be the pool's, up to a constant factor.
    calibration = fit(RULES, BOARDS, 4.5)
    alone, together = calibration.weights(BOARDS[:200]), calibration.weights(BOARDS)[:200]
    assert alone / alone.sum() == pytest.approx(together / together.sum(), rel=1e-9)


@pytest.mark.parametrize("target", [-1.0, 0.0, 1000.0])
def test_an_unreachable_target_is_refused_naming_it(target):
    with pytest.raises(CalibrationError, match=f"target royalties {target}"):
        fit(RULES, BOARDS, target)


@pytest.mark.parametrize("target", [8.0, 12.0])
def test_a_far_target_converges_where_a_full_newton_step_would_overshoot(target):
    features = board_features(RULES, BOARDS)
    weights = fit(RULES, BOARDS, target).weights(BOARDS)
    assert weights / weights.sum() @ features[:, 0] == pytest.approx(target, abs=1e-8)


def test_a_target_inside_the_range_that_the_rates_rule_out_is_refused_not_a_crash():
    # 30 royalties a board on average, with 28% of the boards fouled (scoring 0): more than
    # the standing boards can make at any weighting.
    with pytest.raises(CalibrationError, match="target royalties 30.0 not reached"):
        fit(RULES, BOARDS, 30.0)


# --- properties -------------------------------------------------------------------------------

FEATURES = board_features(RULES, BOARDS)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(40, 3000), st.floats(-1.5, 2.0))
def test_any_fit_meets_its_target_and_holds_the_rates_or_says_it_cannot(seed, size, shift):
    index = np.random.default_rng(seed).choice(len(BOARDS), size, replace=False)
    boards, features = BOARDS[index], FEATURES[index]
    target = round(float(features[:, 0].mean() + shift), 3)
    try:
        calibration = fit(RULES, boards, target)
    except CalibrationError as error:
        assert f"target royalties {target}" in str(error)
        return
    weights = calibration.weights(boards)
    assert (weights > 0).all() and 0 < calibration.effective_share <= 1 + 1e-12
    share = weights / weights.sum()
    assert share @ features[:, 0] == pytest.approx(target, abs=1e-7)
    assert share @ features[:, 1:] == pytest.approx(features[:, 1:].mean(axis=0), abs=1e-7)
