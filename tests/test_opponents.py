"""The opponent model: the bot's legal play, the shipped pools, card removal, the figures."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules, load_rules, parse_cards
from fantasyland.evaluator.board_arrays import evaluate_boards
from fantasyland.evaluator.cards import JOKER, Deck
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Rules
from fantasyland.optimizer import ObjectiveError, solve
from fantasyland.optimizer.opponents.bot import (ONE_AT_A_TIME, THREE_KEEP_TWO, BotParams,
                                                 deck_counts, entry_worths, play_hand)
from fantasyland.optimizer.opponents.draw import (board_stats, bot_stats, candidate_pairs,
                                                  draw_boards, opponent_boards, pair_boards,
                                                  pool_calibration, pool_features, pool_weights)
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.solver.table import Sample
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, placements
from fantasyland.optimizer.opponents.players import (Build, build_pool, heuristic, pool_player,
                                                     shipped_build)
from fantasyland.optimizer.opponents.pools import (PERMUTATIONS, POOL_SEED, Pool, bits, dealing_for,
                                                   load_pool, odds_pools, play_hands, pool_bot,
                                                   pool_for, relabel, shipped_pools)

runner = CliRunner()

#: A cheap bot for tests that only check legality: few samples, no second look.
QUICK = BotParams(samples=4, refine=0)

DEALT_14 = parse_cards("As Ks Qs Js Ts 9h 9d 7c 7d 5h 4c 3s 2d 2h")
HAND_14 = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
DEALT_17 = parse_cards("Ac Ad Ah Kc Kd Qc Qh Jd Js Tc Th 9s 8s 8c 6d 5d 4h")


def _assert_board(board, cards=None):
    board = [int(c) for c in board]
    assert len(board) == 13 and len(set(board)) == 13
    assert all(0 <= c <= 51 for c in board)
    if cards is not None:
        assert set(board) <= set(cards)


# --- the bot ---------------------------------------------------------------------------------

@pytest.mark.parametrize("keep,new", [(5, 5), (2, 3), (1, 1)])
def test_bot_never_places_more_than_a_row_holds(keep, new):
    rng = np.random.default_rng(3)
    for _ in range(30):
        layout = np.full(13, EMPTY, dtype=np.int64)
        cards = rng.permutation(52)
        placed = 0 if keep == 5 else int(rng.integers(0, 12))
        # fill rows from their first slot, as the bot does, up to random heights
        heights = {"top": 0, "middle": 0, "bottom": 0}
        for card in cards[:placed]:
            row = [r for r in ROWS if heights[r] < ROW_SIZE[r]][int(rng.integers(0, 3)) % len(
                [r for r in ROWS if heights[r] < ROW_SIZE[r]])]
            layout[ROW_SLOTS[row].start + heights[row]] = card
            heights[row] += 1
        if 13 - placed < keep:
            continue
        options = placements(layout, cards[placed:placed + new].tolist(), keep)
        assert len(options)
        for option in options:
            for row in ROWS:
                slots = option[ROW_SLOTS[row].start:ROW_SLOTS[row].stop]
                filled = slots != EMPTY
                assert filled.sum() <= ROW_SIZE[row]
                assert not (~filled[:-1] & filled[1:]).any()  # a row fills from its start
            assert (option != EMPTY).sum() == placed + keep


@pytest.mark.parametrize("variant,dealing", [("pineapple", THREE_KEEP_TWO),
                                             ("standard", ONE_AT_A_TIME),
                                             ("deuce", THREE_KEEP_TWO)])
def test_bot_plays_a_legal_hand_from_the_cards_it_is_dealt(variant, dealing):
    rules = find_rules(variant)
    rng = np.random.default_rng(11)
    for _ in range(3):
        cards = rng.permutation(52)[:dealing.seen].tolist()
        hand = play_hand(rules, dealing, cards, QUICK, rng)
        _assert_board(hand.board, cards)
        assert len(hand.discards) == dealing.seen - 13
        assert set(hand.board) | set(hand.discards) == set(cards)


def test_play_hands_is_deterministic_per_seed_and_avoids_removed_cards():
    rules = find_rules("pineapple")
    removed, quick = DEALT_14, heuristic(rules, QUICK)
    first = play_hands(rules, THREE_KEEP_TWO, 4, seed=5, player=quick, removed=removed)
    again = play_hands(rules, THREE_KEEP_TWO, 4, seed=5, player=quick, removed=removed)
    other = play_hands(rules, THREE_KEEP_TWO, 4, seed=6, player=quick, removed=removed)
    assert (first.boards == again.boards).all() and (first.discards == again.discards).all()
    assert not (first.boards == other.boards).all()
    seen = np.concatenate([first.boards, first.discards], axis=1)
    assert not np.isin(seen, removed).any()


# --- pools -----------------------------------------------------------------------------------

def test_pools_load_from_package_data():
    pools = shipped_pools()
    assert {p.meta["dealing"] for p in pools} >= {"three-keep-two", "one-at-a-time"}
    for pool in pools:
        assert pool.boards.shape == (pool.meta["hands"], 13)
        assert pool.discards.shape == (pool.meta["hands"], pool.dealing.seen - 13)


@pytest.mark.parametrize("variant,dealing", [
    ("standard", "one-at-a-time"), ("pineapple", "three-keep-two"),
    ("progressive", "three-keep-two"), ("ultimate", "three-keep-two")])
def test_each_preset_gets_the_pool_of_its_dealing_style(variant, dealing):
    rules = find_rules(variant)
    assert dealing_for(rules).name == dealing
    assert pool_for(rules).meta["dealing"] == dealing


def test_a_house_rules_file_gets_the_pool_of_its_base(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text('base = "pineapple"\n[royalties.middle]\ntrips = 0\nstraight = 4\n',
                     encoding="utf-8")
    assert pool_for(load_rules(house)) is pool_for(find_rules("pineapple"))


def test_deuce_gets_its_own_pool():
    pool = pool_for(find_rules("deuce"))
    assert pool.meta["rules"] == "deuce" and pool.meta["dealing"] == "three-keep-two"
    assert pool is not pool_for(find_rules("pineapple"))


def _played_under(pool: Pool, tmp_path) -> Rules:
    """The rules ``pool`` was played under: its rules as they are, but for the entry worths
    the stronger bot read off them then (a rules file on them that gives those worths as
    its ev_entry_value), which move when the rules' ev values are measured again."""
    rules = find_rules(pool.meta["rules"])
    worths = pool.meta.get("entry_worths")
    if worths is None:
        return rules
    path = tmp_path / "as-played.toml"
    given = ", ".join(f"{cards} = {worth!r}" for cards, worth in enumerate(worths) if worth)
    path.write_text(f'base = "{rules.name}"\n[fantasyland]\nev_entry_value = {{ {given} }}\n',
                    encoding="utf-8")
    played = load_rules(path)
    assert entry_worths(played, pool_bot(pool)).tolist() == worths
    return played


@pytest.mark.parametrize("pool", [*shipped_pools(), *odds_pools()],
                         ids=lambda pool: f"{pool.meta['rules']}-{len(pool)}")
def test_the_shipped_pools_are_what_the_code_plays(pool, tmp_path):
    # A pool is played in seeded chunks of hands, each hand after the last from one
    # generator, so a fresh pool of a few hands is the head of the shipped one. A change to
    # the bot that was not followed by `opponents --regenerate` fails here. Each is
    # replayed by the bot and from the seed its meta records; the stronger bot's against
    # the odds it records, and with the entry worths it counted.
    # A pool the learned bot played names the models it played by: a change to them that
    # was not followed by a rebuild of the pool fails here too.
    rules = _played_under(pool, tmp_path)
    fresh = play_hands(rules, pool.dealing, 5, pool.meta["seed"],
                       player=pool_player(pool, rules))
    for key in ("params", "bot", "models", "odds"):
        assert fresh.meta.get(key) == pool.meta.get(key)
    assert (fresh.boards == pool.boards[:5]).all()
    assert (fresh.discards == pool.discards[:5]).all()


@pytest.mark.parametrize("variant", ["pineapple", "deuce", "standard"])
def test_a_pool_is_rebuilt_as_its_meta_says_it_was_played(variant, tmp_path):
    # `opponents --regenerate` with no bot, seed or size rebuilds the shipped pool: its
    # first hands are the shipped pool's, and it would be as large
    rules = find_rules(variant)
    shipped = pool_for(rules)
    assert shipped_build(rules) == Build(pool_player(shipped, rules), shipped.meta["seed"],
                                         len(shipped))
    fresh = build_pool(_played_under(shipped, tmp_path), hands=3)
    for key in ("params", "bot", "models"):
        assert fresh.meta.get(key) == shipped.meta.get(key)
    assert (fresh.boards == shipped.boards[:3]).all()


def test_rules_no_pool_serves_are_built_by_the_first_bot(tmp_path):
    unserved = load_rules(_unserved(tmp_path))
    assert shipped_build(unserved) == Build(heuristic(unserved, BotParams()), POOL_SEED, 24_000)


def _unserved(tmp_path):
    # Pineapple with a middle that must hold a pair: no pool was built for those foul rules.
    path = tmp_path / "pair-middle.toml"
    path.write_text('base = "pineapple"\n[foul]\nqualify = { middle = "pair" }\n',
                    encoding="utf-8")
    return path


def test_rules_without_a_pool_are_a_clear_error(tmp_path):
    with pytest.raises(OpponentModelError, match="no opponent pool for the rules 'pair-middle'"):
        opponent_boards(load_rules(_unserved(tmp_path)), DEALT_14, 10, 1, 0)


def test_pool_boards_are_legal_layouts_with_their_discards():
    for pool in shipped_pools():
        assert pool.boards.min() >= 0 and pool.boards.max() <= 51  # faces, jokers as played
        seen = np.concatenate([pool.placed, pool.discards], axis=1)
        if pool.deck == Deck():
            ordered = np.sort(seen, axis=1)
            assert (np.diff(ordered, axis=1) > 0).all()  # 13 placed + discards, all distinct
        else:  # no card more often than the deck holds it (tests/test_opponents_decks.py)
            counts = np.stack([np.bincount(row, minlength=JOKER + 1) for row in seen])
            assert (counts <= deck_counts(pool.deck)).all()


# --- opponent_boards -------------------------------------------------------------------------

@pytest.mark.parametrize("dealt", [DEALT_14, DEALT_17])
@pytest.mark.parametrize("variant", ["pineapple", "standard", "progressive", "deuce"])
def test_opponent_boards_never_hold_a_dealt_card(variant, dealt):
    boards = opponent_boards(find_rules(variant), dealt, 300, 2, seed=4)
    assert boards.shape == (300, 2, 13) and boards.dtype == np.int64
    assert not np.isin(boards, dealt).any()
    for board in boards.reshape(-1, 13)[:50]:
        _assert_board(board)


def test_opponent_boards_are_deterministic_per_seed():
    rules = find_rules("pineapple")
    first = opponent_boards(rules, DEALT_14, 200, 1, seed=9)
    assert (first == opponent_boards(rules, DEALT_14, 200, 1, seed=9)).all()
    assert not (first == opponent_boards(rules, DEALT_14, 200, 1, seed=10)).all()


def test_a_14_card_hand_draws_exactly_from_boards_whose_player_saw_no_dealt_card():
    pool = pool_for(find_rules("pineapple"))
    dealt = np.array(DEALT_14)
    draw = draw_boards(pool, dealt, 400, seed=1)
    assert draw.tier == "exact" and draw.exact >= 400
    exact, _ = candidate_pairs(pool, dealt)
    seen = np.concatenate([pool.boards, pool.discards], axis=1)[exact // 24]
    moved = relabel(seen, PERMUTATIONS[exact % 24])
    assert not np.isin(moved, dealt).any()


def test_bad_arguments_are_refused():
    rules = find_rules("pineapple")
    with pytest.raises(ValueError, match="distinct"):
        opponent_boards(rules, [1, 1, 2], 10, 1, 0)
    with pytest.raises(OpponentModelError, match="samples"):
        opponent_boards(rules, DEALT_14, 0, 1, 0)


# --- calibration -----------------------------------------------------------------------------

def test_pineapple_figures_sit_in_the_bands_decent_bots_do():
    # From the pool with a fixed seed, so deterministic. The targets are decent bots'
    # heads-up Pineapple figures: 20-30% fouls, 20-25% entries, 4-5 royalties a hand, a foul
    # counting 0. The learned bot's own play meets all three, so its boards are used as it
    # played them (the heuristic bot's averaged 3.5 royalties and were weighted to 4.5).
    rules = find_rules("pineapple")
    assert pool_for(rules).meta["bot"] == "learned"
    stats = bot_stats(rules, 5000, seed=1)
    assert stats["source"] == "pool" and stats["calibration"] is None
    assert 0.20 <= stats["foul_rate"] <= 0.30
    assert 0.20 <= stats["fantasyland_rate"] <= 0.25
    assert 4.0 <= stats["mean_royalties"] <= 5.0


def test_the_whole_pineapple_pool_weighted_meets_the_target_exactly(tmp_path):
    # off for Pineapple, the weighting is a rules file's to turn on
    rules = _house(tmp_path, 4.5)
    pool = pool_for(rules)
    stats = bot_stats(rules, len(pool), seed=1)
    assert stats["mean_royalties"] == pytest.approx(4.5, abs=1e-9)
    assert stats["foul_rate"] == pytest.approx(stats["bot_play"]["foul_rate"], abs=1e-9)
    assert stats["fantasyland_rate"] == pytest.approx(stats["bot_play"]["fantasyland_rate"],
                                                      abs=1e-9)
    # a gentle tilt: the weighted pool is worth most of its boards
    assert 0.8 * len(pool) < stats["effective_boards"] < len(pool)


@pytest.mark.parametrize("variant", ["pineapple", "progressive", "ultimate", "deuce",
                                     "standard"])
def test_pools_without_a_target_are_used_as_the_bot_played_them(variant):
    rules = find_rules(variant)
    assert pool_calibration(pool_for(rules), rules) is None
    stats = bot_stats(rules, 1000, seed=1)
    assert stats["calibration"] is None and "effective_boards" not in stats
    assert {k: v for k, v in stats.items() if k in stats["bot_play"]} == stats["bot_play"]


@pytest.mark.parametrize("dealt, tier", [
    (DEALT_14, "exact"),  # 500 boards, fewer than those whose player saw no dealt card
    (DEALT_17, "relaxed"),  # 200 more than those: the rest from the placed-only boards
])
def test_calibrated_draws_follow_the_weights(dealt, tier, tmp_path):
    # Over many draws for one dealt hand, the drawn boards' royalties approach the weighted
    # mean of the candidates (exact boards first, as without weights), not their plain mean.
    rules = _house(tmp_path, WEIGHTED_TARGET)
    pool = pool_for(rules)
    calibration = pool_calibration(pool, rules)
    exact, relaxed = candidate_pairs(pool, np.array(dealt))
    count = min(500, len(exact)) if tier == "exact" else len(exact) + 200
    parts = [(exact, min(count, len(exact))), (relaxed, count - min(count, len(exact)))]
    weighted = plain = 0.0
    for pairs, n in parts:
        if n:
            boards = pair_boards(pool, pairs)
            royalties = evaluate_boards(boards, rules).royalty_total
            chance = calibration.weights(boards)
            weighted += n / count * (chance @ royalties / chance.sum())
            plain += n / count * royalties.mean()
    weights = pool_weights(pool, rules)
    draws = [draw_boards(pool, np.array(dealt), count, seed, weights=weights) for seed in range(40)]
    assert {d.tier for d in draws} == {tier}
    drawn = np.concatenate([d.boards for d in draws])
    mean = evaluate_boards(drawn, rules).royalty_total.mean()
    assert weighted - plain > 0.5
    assert abs(mean - weighted) < 0.15 < abs(mean - plain)
    assert not np.isin(drawn, dealt).any()


#: A target well above what the Pineapple pool's boards score as played, so that weighted
#: draws and plain ones differ by more than their noise.
WEIGHTED_TARGET = 5.5


def _house(tmp_path, target):
    path = tmp_path / "house.toml"
    path.write_text(f'base = "pineapple"\n[opponents]\nmean_royalties = {target}\n',
                    encoding="utf-8")
    return load_rules(path)


def test_a_rules_file_sets_the_opponents_royalties_in_its_own_points(tmp_path):
    house = _house(tmp_path, 4.0)
    stats = bot_stats(house, len(pool_for(house)), seed=1)
    assert stats["mean_royalties"] == pytest.approx(4.0, abs=1e-9)
    assert stats["calibration"] == {"target_mean_royalties": 4.0}
    assert stats["foul_rate"] == pytest.approx(stats["bot_play"]["foul_rate"], abs=1e-9)
    plain = bot_stats(_house(tmp_path, "false"), len(pool_for(house)), seed=1)
    assert plain["calibration"] is None  # the boards as played
    assert plain["mean_royalties"] == pytest.approx(stats["bot_play"]["mean_royalties"])


@pytest.mark.parametrize("command", [
    ["solve", HAND_14],
    ["opponents"],
    ["check", HAND_14, "--set", "Kd Qd Qh / Ts 5s 4s 3s 2s / Ac Ah As 7c 7h", "--objective",
     "ev"],
    ["value", "--objective", "ev", "--hands", "2"],
    ["train", "--objective", "ev"],
    ["bench", "--objective", "ev", "--hands", "1"],
    ["batch", "-", "-o", "out.jsonl", "--objective", "ev"],
], ids=lambda c: c[0])
def test_an_unreachable_mean_royalties_names_the_file_and_the_key(tmp_path, monkeypatch,
                                                                 command):
    # Named as the rules file's other errors are (file: key: why), before any work, by every
    # command that weights the opponents.
    monkeypatch.chdir(tmp_path)
    _house(tmp_path, 90)
    result = runner.invoke(app, [*command, "--variant", "house.toml"], input=HAND_14 + "\n")
    assert result.exit_code == 2 and result.stdout == ""
    pineapple = find_rules("pineapple")
    top = int(pool_features(pool_for(pineapple), pineapple)[:, 0].max())
    assert result.stderr == ("error: house.toml: opponents.mean_royalties = 90 is out of "
                             f"reach of the pineapple pool: the boards score 0 to {top} "
                             "royalties each\n")
    assert not (tmp_path / "out.jsonl").exists()


def test_a_mean_royalties_the_rates_rule_out_names_the_file_and_the_key(tmp_path):
    from fantasyland.optimizer.opponents.draw import pool_calibration
    from fantasyland.optimizer.opponents.errors import CalibrationError

    # within 0 to the most a board scores, but not with a quarter of the boards fouled
    pineapple = find_rules("pineapple")
    target = int(0.9 * pool_features(pool_for(pineapple), pineapple)[:, 0].max())
    rules = _house(tmp_path, target)
    played = pool_features(pool_for(rules), rules)[:, 0].mean()
    with pytest.raises(CalibrationError) as raised:
        pool_calibration(pool_for(rules), rules)
    assert str(raised.value).startswith(f"house.toml: opponents.mean_royalties = {target} is "
                                        "out of reach of the pineapple pool: no weighting of "
                                        "the boards that holds their foul and entry rates "
                                        f"averages that (as played they average {played:.2f})")
    # the solver's callers still catch the one error type they catch today
    with pytest.raises(ObjectiveError, match=f"house.toml: opponents.mean_royalties = {target}"):
        solve(HAND_14, variant=rules, objective="ev", sample=Sample(samples=10))


def test_the_model_s_name_changes_with_its_boards(monkeypatch):
    from fantasyland.optimizer.opponents import draw

    rules = find_rules("pineapple")
    shipped = pool_for(rules)
    name = draw.model_name(rules)
    boards = shipped.boards.copy()
    boards[[0, 1]] = boards[[1, 0]]  # a rebuilt pool of the same size and seed
    rebuilt = Pool(boards, shipped.discards, shipped.meta)
    monkeypatch.setattr(draw, "pool_for", lambda _rules: rebuilt)
    assert draw.model_name(rules) != name


def test_live_figures_are_weighted_as_the_pool_s_are_and_need_no_pool(tmp_path):
    live = bot_stats(_house(tmp_path, 4.5), 6, seed=2, live=True)
    assert live["source"] == "live" and live["calibration"]["target_mean_royalties"] == 4.5
    assert live["bot_play"]["boards"] == 6 and 0 < live["effective_boards"] <= 6
    unserved = bot_stats(load_rules(_unserved(tmp_path)), 3, seed=2, live=True)
    assert unserved["calibration"] is None and unserved["boards"] == 3


def test_weighted_figures_count_each_board_by_its_weight():
    rules = find_rules("pineapple")
    boards = pool_for(rules).boards[:400]
    weights = np.random.default_rng(0).uniform(0.1, 5.0, len(boards))
    out = evaluate_boards(boards, rules)
    stats = board_stats(rules, boards, weights=weights)
    share = weights / weights.sum()
    standing = ~out.fouled
    assert stats["mean_royalties"] == pytest.approx(share @ out.royalty_total)
    assert stats["royalties_when_not_fouled"] == pytest.approx(
        share[standing] @ out.royalty_total[standing] / share[standing].sum())
    assert stats["effective_boards"] == pytest.approx(1 / (share ** 2).sum())
    plain = board_stats(rules, boards)
    assert plain["mean_royalties_se"] == pytest.approx(out.royalty_total.std() / 20)


def test_entries_lost_to_fouls_are_fouled_boards_whose_rows_make_an_entry():
    rules = find_rules("pineapple")
    boards = np.array([parse_cards(board) for board in (
        "Qs Qh 2c  Ks Kh 7c 5d 3s  As Ah Ad 9c 8c",  # QQ on top, legal: an entry
        "Ks Kh 2c  Qs Qd 7c 5d 3s  As Ah Ad 9c 8c",  # KK over QQ: a chase that fouled
        "Js Jh 2c  Ts Td 7c 5d 3s  As Ah Ad 9c 8c",  # JJ over TT: fouled, no entry in it
        "Ad 9s 2c  Ks Kd 7c 5d 3s  As Ah 6d 9c 8c")])  # ace high on top, legal
    stats = board_stats(rules, boards)
    out = evaluate_boards(boards, rules)
    assert out.fouled.tolist() == [False, True, True, False]
    assert out.entry_cards.tolist() == [14, 0, 0, 0]
    assert out.entry_made.tolist() == [14, 14, 0, 0]
    assert (stats["foul_rate"], stats["fantasyland_rate"], stats["entries_fouled_rate"]) \
        == (0.5, 0.25, 0.25)


def test_progressive_scores_the_pineapple_pool_under_its_own_entry_rungs():
    pineapple = bot_stats(find_rules("pineapple"), 2000, seed=1)
    progressive = bot_stats(find_rules("progressive"), 2000, seed=1)
    assert progressive["fantasyland_rate"] == pineapple["fantasyland_rate"]  # QQ+ both


# --- the command -----------------------------------------------------------------------------

def test_stats_json_has_the_documented_keys():
    result = runner.invoke(app, ["opponents", "--stats", "--json", "--hands", "500"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert {"foul_rate", "fantasyland_rate", "mean_royalties", "boards"} <= set(figures)
    assert figures["boards"] == 500
    # measured figures are printed to 6 decimals, not with float noise
    assert all(round(v, 6) == v for v in figures.values() if isinstance(v, float))
    assert any(len(repr(v)) > 5 for v in figures.values() if isinstance(v, float))


def test_stats_table_names_the_figures():
    result = runner.invoke(app, ["opponents", "--variant", "standard", "--hands", "300"])
    assert result.exit_code == 0, result.output
    assert "foul rate" in result.stdout and "Fantasyland rate" in result.stdout




@pytest.mark.parametrize("args", [
    ["opponents"],
    ["solve", HAND_14],  # ev is solve's default
    ["check", HAND_14, "--set", "Kd Qd Qh / Ts 5s 4s 3s 2s / Ac Ah As 7c 7h", "--objective",
     "ev"],
    ["value", "--objective", "ev", "--hands", "10"],
    ["train", "--objective", "ev"],  # before the first hand is dealt
    ["bench", "--objective", "ev", "--hands", "1"],
], ids=lambda args: args[0])
def test_unserved_rules_exit_2_with_one_line(tmp_path, args):
    result = runner.invoke(app, [*args, "--variant", str(_unserved(tmp_path))], input="q\n")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: no opponent pool for the rules 'pair-middle'")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


PINEAPPLE_POOL = len(pool_for(find_rules("pineapple")))


@pytest.mark.parametrize("args, message", [
    (["--stats", "--regenerate"], "--stats and --regenerate given together"),
    (["--regenerate", "--check", HAND_14], "--regenerate and --check given together"),
    (["--hands", str(PINEAPPLE_POOL + 1)],
     f"bad hands {PINEAPPLE_POOL + 1}: the pineapple pool holds {PINEAPPLE_POOL}"),
])
def test_opponents_refuses_two_actions_or_more_boards_than_the_pool(args, message):
    result = runner.invoke(app, ["opponents", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {message}") and result.stderr.count("\n") == 1


def test_regenerate_writes_a_pool_that_loads_and_says_where(tmp_path):
    target = tmp_path / "pool.npz"
    result = runner.invoke(app, ["opponents", "--regenerate", "--variant", "standard",
                                 "--hands", "3", "--output", str(target)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Wrote 3 boards (one-at-a-time, rules standard, seed 2024)")
    assert str(target) in result.stdout.replace("\n", "")
    pool = load_pool(target)
    assert (pool.boards == pool_for(find_rules("standard")).boards[:3]).all()


def test_check_table_lists_live_play_and_the_three_draws():
    result = runner.invoke(app, ["opponents", "--check", HAND_14, "--hands", "3"])
    assert result.exit_code == 0, result.output
    assert "Dealt 14 cards" in result.stdout and "card removal against 3 live hands" in \
        result.stdout
    for source in ("live", "exact", "placed_only", "no_removal"):  # a row each
        assert re.search(rf"^│ {source} +│ +3 │", result.stdout, re.MULTILINE), source


def test_removal_check_compares_live_play_with_three_draws_from_the_pool():
    from fantasyland.optimizer.opponents.removal import removal_check

    dealt = parse_cards(HAND_14)
    ours = solve(dealt, variant="pineapple").report
    result = removal_check(find_rules("pineapple"), dealt, ours, hands=12, seed=3)
    assert result["dealt"] == 14 and result["hands"] == 12
    assert result["exact_pairs"] > 0 and result["relaxed_pairs"] >= 0
    for name in ("live", "exact", "placed_only", "no_removal"):
        figures = result[name]
        assert figures["boards"] == 12 and 0 <= figures["foul_rate"] <= 1
        assert np.isfinite(figures["points"]) and figures["points_se"] >= 0
    for name in ("exact", "placed_only", "no_removal"):
        assert set(result[name]["class_tvd"]) == set(ROWS)
        assert all(0 <= d <= 1 for d in result[name]["class_tvd"].values())
    # the same seed, the same measurement
    assert removal_check(find_rules("pineapple"), dealt, ours, hands=12, seed=3) == result


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(13, 17), st.integers(1, 600),
       st.sampled_from(["pineapple", "deuce"]))
def test_every_draw_avoids_the_dealt_cards_and_repeats_itself(seed, cards, count, variant):
    rules = find_rules(variant)
    pool = pool_for(rules)
    dealt = np.random.default_rng(seed).choice(52, cards, replace=False)
    weights = pool_weights(pool, rules)
    draw = draw_boards(pool, dealt, count, seed, weights=weights)
    again = draw_boards(pool, dealt, count, seed, weights=weights)
    assert draw.boards.shape == (count, 13) and (draw.boards == again.boards).all()
    assert not np.isin(draw.boards, dealt).any()
    assert (np.sort(draw.boards, axis=1)[:, 1:] != np.sort(draw.boards, axis=1)[:, :-1]).all()
    if weights is not None:  # with replacement: placed-only boards only past the exact ones
        expected = "exact" if draw.exact >= count or not draw.relaxed else "relaxed"
    else:
        expected = "exact" if draw.exact >= count else (
            "relaxed" if draw.exact + draw.relaxed >= count else "with replacement")
    assert draw.tier == expected


@pytest.fixture
def small_chunks(monkeypatch):
    """Hands played in chunks of 2, so that a few hands are several units of work and two
    workers really split them (the seed of a chunk is its index, whoever plays it)."""
    import fantasyland.optimizer.opponents.pools

    monkeypatch.setattr(fantasyland.optimizer.opponents.pools, "CHUNK", 2)


@pytest.mark.parametrize("action", [
    ["--check", HAND_14, "--json"],
    ["--stats", "--live", "--json"],
], ids=["check", "live"])
def test_opponents_plays_the_same_hands_on_one_worker_or_two(small_chunks, action):
    runs = [runner.invoke(app, ["opponents", *action, "--hands", "5", "--seed", "3",
                                "--workers", workers]) for workers in "12"]
    assert runs[0].exit_code == runs[1].exit_code == 0, runs[0].output
    assert runs[0].stdout == runs[1].stdout


def test_a_regenerated_pool_is_the_same_on_one_worker_or_two(small_chunks, tmp_path):
    pools = []
    for workers in "12":
        target = tmp_path / f"pool-{workers}.npz"
        result = runner.invoke(app, ["opponents", "--regenerate", "--variant", "standard",
                                     "--hands", "5", "--workers", workers, "--output",
                                     str(target)])
        assert result.exit_code == 0, result.output
        pools.append(load_pool(target))
    assert (pools[0].boards == pools[1].boards).all()
    assert (pools[0].discards == pools[1].discards).all()


def test_opponents_takes_hands_for_every_action_and_notes_the_old_boards_spelling():
    new = runner.invoke(app, ["opponents", "--variant", "standard", "--hands", "250", "--json"])
    old = runner.invoke(app, ["opponents", "--variant", "standard", "--boards", "250", "--json"])
    assert json.loads(new.stdout)["boards"] == 250 and old.stdout == new.stdout
    assert old.stderr == "note: --boards is now --hands\n"
    default = json.loads(runner.invoke(app, ["opponents", "--variant", "standard",
                                             "--json"]).stdout)
    assert default["boards"] == 5000


def _pairs_one_by_one(pool: Pool, dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``candidate_pairs`` by plain relabelling: each relabelling's inverse moves the dealt
    cards, and every board is checked against them card by card."""
    seen = np.concatenate([pool.boards, pool.discards], axis=1)
    exact, relaxed = [], []
    for p, perm in enumerate(PERMUTATIONS):
        moved = (dealt & ~3) | np.argsort(perm)[dealt & 3]
        placed_clear = ~np.isin(pool.boards, moved).any(axis=1)
        seen_clear = ~np.isin(seen, moved).any(axis=1)
        exact.append(np.flatnonzero(seen_clear) * 24 + p)
        relaxed.append(np.flatnonzero(placed_clear & ~seen_clear) * 24 + p)
    return np.concatenate(exact), np.concatenate(relaxed)


@given(st.integers(1, 13).flatmap(lambda width: st.lists(
    st.lists(st.integers(0, JOKER), min_size=width, max_size=width), min_size=1, max_size=20)),
    st.sampled_from([np.uint8, np.int64]))
def test_bits_sets_the_bit_of_every_card_of_a_row(rows, dtype):
    # as Python ints, whatever the dtype the cards come in (a pool file stores uint8)
    masks = bits(np.array(rows, dtype=dtype))
    assert masks.dtype == np.uint64
    assert [int(m) for m in masks] == [sum(1 << c for c in set(row)) for row in rows]


@pytest.mark.parametrize("cards", [0, 1, 5, 13, 14, 17, 25])
def test_candidate_pairs_are_every_relabelled_board_that_avoids_the_dealt_cards(cards):
    # The byte tables against a plain check of every board under every relabelling, in the
    # same order (relabelling by relabelling, boards in order), on a slice of the shipped
    # Pineapple pool.
    full = pool_for(find_rules("pineapple"))
    pool = Pool(full.boards[:3000], full.discards[:3000], full.meta)
    for seed in range(3):
        dealt = np.random.default_rng([cards, seed]).permutation(52)[:cards]
        exact, relaxed = candidate_pairs(pool, dealt)
        want_exact, want_relaxed = _pairs_one_by_one(pool, dealt)
        assert exact.tolist() == want_exact.tolist()
        assert relaxed.tolist() == want_relaxed.tolist()


def test_the_help_fits_one_screen_of_80_by_24_and_names_every_option():
    # the user's command, the laboratory gone to tools/bots.py: one line an option
    result = runner.invoke(app, ["opponents", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, result.output
    from fantasyland.cli.opponents import SHORT_HELP

    shown = [line.split()[0] for line in lines if line.startswith("--")]
    assert shown == list(SHORT_HELP)
    group = typer.main.get_command(app)
    command = group.get_command(typer.Context(group), "opponents")
    visible = [p.opts[0] for p in command.params if not getattr(p, "hidden", False)]
    assert visible + ["--help"] == shown
