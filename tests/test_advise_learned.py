"""advise on the learned model (issue 45): every play valued by the model, the close ones raced
by the learned bot with the model as a control variate; the heuristic path kept for games
without a model; each figure's source; the rare-event floor; review graded by the model."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.ordinary.advise import (Effort, advise, entry_values,
                                                   read_advice_position, valuation_for)
from fantasyland.optimizer.ordinary.bots import BotError, RolloutBot, rollout_bot
from fantasyland.optimizer.ordinary.learned_rollouts import roll_out_learned
from fantasyland.optimizer.ordinary.model_advice import MARGIN, model_values, raced_plays
from fantasyland.optimizer.ordinary.plays import legal_plays, read_play
from fantasyland.optimizer.ordinary.race import Figure, error_floor, foul_estimate, race
from fantasyland.optimizer.ordinary.review import review
from fantasyland.optimizer.solver.table import Sample

PINEAPPLE = find_rules("pineapple")
STANDARD = find_rules("standard")
PROGRESSIVE = find_rules("progressive")
FIRST = ("/ /", "Kd 7c 8c 2h 2d")
SECOND = ("Kd / 7c 8c / 2h 2d", "Qs 9c 4s")
runner = CliRunner()


def summary(advice) -> list[tuple]:
    return [(p.play.key, p.value, p.standard_error, p.foul_chance, p.rollouts, p.behind,
             p.behind_error, p.close, p.source, p.model) for p in advice.plays]


# --- which path ------------------------------------------------------------------------------

def test_a_game_with_a_shipped_model_rolls_out_by_the_learned_bot_and_others_by_the_heuristic():
    assert rollout_bot(PINEAPPLE) == RolloutBot.LEARNED
    assert rollout_bot(STANDARD) == RolloutBot.HEURISTIC
    assert rollout_bot(PINEAPPLE, asked=RolloutBot.HEURISTIC) == RolloutBot.HEURISTIC
    with pytest.raises(BotError, match="no learned model of standard"):
        rollout_bot(STANDARD, asked=RolloutBot.LEARNED)


def test_the_first_street_values_all_232_plays_by_the_model_and_screens_none():
    advice = advise(PINEAPPLE, *FIRST, objective="royalties", effort=Effort(budget=32))
    assert advice.bot == RolloutBot.LEARNED and len(advice.plays) == 232
    assert not any(p.screened for p in advice.plays)
    assert all(p.model is not None for p in advice.plays)
    raced = [p for p in advice.plays if p.source == Figure.ROLLOUTS]
    alone = [p for p in advice.plays if p.source == Figure.MODEL]
    assert len(raced) + len(alone) == 232 and 2 <= len(raced) <= 6
    best = max(p.model for p in advice.plays)
    # the raced plays are the model's best and those within its margin; the rest keep the
    # model's figure as their value (royalties: the model's own points), ranked by it
    assert all(best - p.model <= MARGIN for p in raced[2:])
    assert all(p.value == p.model and p.rollouts == 0 and p.standard_error is None
               for p in alone)
    assert [p.model for p in alone] == sorted((p.model for p in alone), reverse=True)
    assert advice.plays[:len(raced)] == tuple(raced)
    assert all(p.rollouts >= 32 for p in raced) and advice.rollouts == sum(
        p.rollouts for p in raced)


def test_under_ev_a_play_the_model_alone_valued_has_no_ev_value_only_its_model_figure():
    advice = advise(PINEAPPLE, *SECOND, sample=Sample(samples=200),
                    effort=Effort(budget=32))
    alone = [p for p in advice.plays if p.source == Figure.MODEL]
    assert alone and all(p.value is None and p.model is not None and p.behind is None
                         for p in alone)
    assert all(p.value is not None for p in advice.plays if p.source == Figure.ROLLOUTS)


def test_a_game_without_a_model_and_the_heuristic_bot_asked_for_keep_the_screen():
    for rules, effort in ((STANDARD, Effort(budget=32)),
                          (PINEAPPLE, Effort(budget=32, bot=RolloutBot.HEURISTIC))):
        advice = advise(rules, *FIRST, objective="royalties", effort=effort)
        assert advice.bot == RolloutBot.HEURISTIC
        assert sum(p.source == Figure.ROLLOUTS for p in advice.plays) == 12
        assert all(p.screened and p.source == Figure.SCREENED and p.model is None
                   for p in advice.plays[12:])


def test_the_learned_path_is_the_same_for_the_same_seed_and_moves_with_another():
    runs = [advise(PINEAPPLE, *SECOND, objective="royalties", sample=Sample(seed=seed),
                   effort=Effort(budget=32)) for seed in (4, 4, 5)]
    assert summary(runs[0]) == summary(runs[1])
    assert summary(runs[0]) != summary(runs[2])


def test_the_street_before_the_last_stays_exact_over_every_last_deal():
    # the position: its top play was once shown at 0.000 +- 0.000 with no foul
    advice = advise(PROGRESSIVE, "6c 4c / Ac 2c / 8s 3d 8c Kh 9c", "Qs 2h 2d",
                    objective="royalties", discards="Ks Ts", sample=Sample(seed=1))
    assert advice.exact and advice.bot is None and advice.rollouts == 0
    assert advice.deals == 8_436  # C(38, 3): 9 on the board, 3 dealt and 2 discards seen
    assert all(p.source == Figure.EXACT and p.standard_error == 0.0 for p in advice.plays)
    learned = advise(PINEAPPLE, "6c 4c / Ac 2c / 8s 3d 8c Kh 9c", "Qs 2h 2d",
                     objective="royalties", discards="Ks Ts", sample=Sample(seed=1))
    assert learned.exact and all(p.source == Figure.EXACT for p in learned.plays)


# --- the control variate ---------------------------------------------------------------------

def test_the_control_variate_takes_out_luck_of_mean_zero_and_most_of_the_spread():
    # Street 2 of pineapple: two streets played by the model, then the last, whose luck is
    # taken against its exact mean. Over many rollouts the lucks taken out average 0 (within
    # 3.5 standard errors), and the controlled difference of two plays spreads far less.
    position, table = read_advice_position(PINEAPPLE, *SECOND)
    valuation, _ = valuation_for(position, "royalties", table, 1, 0,
                                 entry_values(PINEAPPLE, "royalties"))
    plays = legal_plays(position)
    order = np.argsort(-model_values(position, plays), kind="stable")[:2]
    rolled = roll_out_learned(position, valuation, np.stack([plays[i].layout for i in order]),
                              np.arange(300), 7)
    luck = rolled.plain - rolled.value
    for row in luck:
        assert abs(row.mean()) <= 3.5 * row.std(ddof=1) / np.sqrt(row.size)
    plain = rolled.plain[0] - rolled.plain[1]
    controlled = rolled.value[0] - rolled.value[1]
    assert controlled.std() < 0.5 * plain.std()
    # the last street's foul share is the exact one of the board it is dealt to: in [0, 1]
    assert ((rolled.foul >= 0) & (rolled.foul <= 1)).all()


# --- rare events -----------------------------------------------------------------------------

def test_a_foul_never_seen_in_rollouts_is_not_reported_as_impossible():
    assert foul_estimate(0, 32) == pytest.approx(0.5 / 33)
    assert foul_estimate(32, 32) == pytest.approx(32.5 / 33) and foul_estimate(32, 32) < 1
    assert error_floor(6.0, 96) == pytest.approx(6 * 0.5 / 97)
    # a position whose first 16 rollouts foul no play (tests/test_advise.py): raced, every
    # foul chance is at least the floor and every ± at least the error floor
    position, table = read_advice_position(PROGRESSIVE, "2c 8s / 3d 2d Jh Ad / Js Ah 8c",
                                           "3s 7c Jc")
    valuation, _ = valuation_for(position, "royalties", table, 1, 13,
                                 entry_values(PROGRESSIVE, "royalties"))
    raced = race(position, valuation, legal_plays(position)[:4], 13, 32, 1, None)
    for play in raced:
        assert play.foul_chance >= foul_estimate(0, play.rollouts) > 0
        assert play.standard_error >= error_floor(6.0, play.rollouts) > 0


# --- review ----------------------------------------------------------------------------------

def line(board: str, cards: str, play: str) -> str:
    return json.dumps({"variant": "pineapple", "board": board, "cards": cards, "play": play})


def test_review_grades_by_the_model_where_it_tells_the_play_from_the_best():
    position, _ = read_advice_position(PINEAPPLE, *FIRST)
    plays = legal_plays(position)
    model = model_values(position, plays)
    worst = plays[int(np.argmin(model))]
    (decision,) = review([line(*FIRST, worst.describe())], variant="pineapple",
                         objective="royalties", budget=32).decisions
    assert decision.source == Figure.MODEL and decision.advice.rollouts == 0
    assert decision.lost == pytest.approx(model.max() - model.min())
    assert decision.lost_error is None and decision.record()["source"] == "model"
    # under ev too, and without drawing the opponents' sample: nothing is scored
    (under_ev,) = review([line(*FIRST, worst.describe())], variant="pineapple",
                         sample=Sample(samples=200), budget=32).decisions
    assert under_ev.source == Figure.MODEL and under_ev.advice.samples == 0
    assert under_ev.lost == pytest.approx(decision.lost)


def test_review_races_the_play_made_against_the_best_where_the_model_cannot_tell():
    position, _ = read_advice_position(PINEAPPLE, *SECOND)
    plays = legal_plays(position)
    model = model_values(position, plays)
    order = np.argsort(-model, kind="stable")
    runner_up = plays[int(order[1])]
    assert model[order[0]] - model[order[1]] <= MARGIN  # within the model's noise
    assert raced_plays(model, plays, {runner_up.key}, grading=True) == sorted(order[:2])
    (decision,) = review([line(*SECOND, runner_up.describe())], variant="pineapple",
                         objective="royalties", budget=32).decisions
    assert decision.source == Figure.ROLLOUTS and decision.advice.rollouts >= 64
    assert decision.played.play.key == read_play(position, runner_up.describe()).key
    assert decision.lost_error is not None  # graded by the rollouts the two share
    assert decision.is_best or decision.lost_error > 0


# --- the command line --------------------------------------------------------------------------

def test_the_table_says_which_plays_the_model_alone_valued():
    result = runner.invoke(app, ["advise", "--variant", "pineapple", "--board", SECOND[0],
                                 "--cards", SECOND[1], "--budget", "32", "--samples", "200"])
    assert result.exit_code == 0, result.output
    assert "model" in result.output and "(in parentheses: royalty points" in result.output
    assert "the learned model valued all 27 plays" in result.output


def test_bench_advise_times_both_bots_on_the_same_positions():
    result = runner.invoke(app, ["bench", "--advise", "--variant", "pineapple", "--hands", "1",
                                 "--budget", "32", "--objective", "royalties", "--workers",
                                 "1", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["streets"]
    assert [(r["street"], r["bot"]) for r in rows] == [
        (s, b) for s in range(1, 6) for b in ("heuristic", "learned")]
    assert all(r["median_paired_error"] == 0 for r in rows if r["street"] >= 4)
    assert all(r["median_paired_error"] > 0 for r in rows if r["street"] == 1)


def test_the_learned_pick_agrees_with_ten_times_the_rollouts():
    # Street 3 positions (the bot played the streets before): the best of a 32-rollout race
    # is the long run's best, or behind it by no more than 2 standard errors of the gap.
    from fantasyland.optimizer.ordinary.deal import seeded_positions

    for dealt in seeded_positions(PINEAPPLE, 3, 11, 4):
        small, large = (advise(PINEAPPLE, dealt.board, dealt.cards, objective="royalties",
                               discards=dealt.discards, effort=Effort(budget=budget))
                        for budget in (32, 320))
        raced = [p for p in large.plays if p.source == Figure.ROLLOUTS]
        assert [p.value for p in raced] == sorted((p.value for p in raced), reverse=True)
        if small.best.play.key == large.best.play.key:
            continue
        there = next(p for p in large.plays if p.play.key == small.best.play.key)
        assert there.behind <= 2 * np.hypot(there.behind_error, small.plays[1].behind_error)


def test_the_learned_bot_of_a_game_without_a_model_is_one_line_and_exit_code_2():
    result = runner.invoke(app, ["advise", "--variant", "standard", "--board", FIRST[0],
                                 "--cards", FIRST[1], "--rollout-bot", "learned"])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: bad bot 'learned': no learned model of standard "
                                     "is shipped; expected heuristic")
