"""The learned value of a board in progress (optimizer/opponents/learned): its features, its
network, its labels backwards from the exact last street, and the bot that plays by it."""

from itertools import combinations

import numpy as np
import pytest

from fantasyland.evaluator import find_rules
from fantasyland.evaluator.cards import JOKER, parse_cards
from fantasyland.optimizer.opponents.bot import deck_counts, remaining
from fantasyland.optimizer.opponents.exact import exact_worth
from fantasyland.optimizer.opponents.layout import EMPTY, placements
from fantasyland.optimizer.opponents.learned.bot import LearnedBot
from fantasyland.optimizer.opponents.learned.features import FEATURES, NAMES, features
from fantasyland.optimizer.opponents.learned.labels import Worth, exact_labels, model_labels
from fantasyland.optimizer.opponents.learned.network import Network, fit
from fantasyland.optimizer.opponents.learned.positions import Positions, play_tables
from fantasyland.optimizer.opponents.pools import dealing_for

PINEAPPLE = find_rules("pineapple")
DEALING = dealing_for(PINEAPPLE)


def layout_of(top: str, middle: str, bottom: str) -> np.ndarray:
    layout = np.full(13, EMPTY, dtype=np.int64)
    for start, text in ((0, top), (3, middle), (8, bottom)):
        cards = list(parse_cards(text))
        layout[start:start + len(cards)] = cards
    return layout


def unseen_counts(layout: np.ndarray, *dead: str) -> np.ndarray:
    left = deck_counts(PINEAPPLE.deck)
    np.subtract.at(left, layout[layout != EMPTY], 1)
    for text in dead:
        np.subtract.at(left, list(parse_cards(text)), 1)
    return left


# --- features ---------------------------------------------------------------------------------

def test_the_features_of_a_board_read_as_its_rows_say():
    layout = layout_of("Qh Qd", "7c 8c 9c", "2s 2d 3h")
    seen = dict(zip(NAMES, features(layout[None], unseen_counts(layout))[0]))
    assert len(NAMES) == FEATURES == len(set(NAMES))
    assert seen["top.pair"] == 1 and seen["top.pair_10"] == 1  # queens: Fantasyland
    assert seen["top.live_q"] == 0.5  # two queens left of four
    assert seen["top.free"] == pytest.approx(1 / 5)
    assert seen["middle.suited"] == pytest.approx(3 / 5) and seen["middle.flush_live"] == 10 / 13
    # 7 8 9 sits in three windows (5-9, 6-T, 7-J), each with its missing ranks live
    assert seen["middle.windows"] == seen["middle.windows_live"] == pytest.approx(3 / 5)
    assert seen["bottom.pair"] == 1 and seen["bottom.group_rank"] == pytest.approx(1 / 13)
    assert seen["top_over_middle"] == 1 and seen["top_pair_over_middle_pair"] == 1
    assert seen["middle_over_bottom"] == 0
    assert seen["to_place"] == pytest.approx(5 / 13)


def test_a_dead_rank_closes_the_draws_it_feeds():
    layout = layout_of("", "7c 8c 9c Tc", "")
    live = dict(zip(NAMES, features(layout[None], unseen_counts(layout))[0]))
    dead = dict(zip(NAMES, features(layout[None],
                                    unseen_counts(layout, "6c 6d 6h 6s Jc Jd Jh Js"))[0]))
    assert live["middle.windows_live"] == pytest.approx(2 / 5)  # 6-T and 7-J
    assert dead["middle.windows_live"] == 0 and dead["middle.windows"] == live["middle.windows"]
    assert dead["middle.flush_live"] < live["middle.flush_live"]


def test_features_take_one_count_for_all_boards_or_one_each():
    rng = np.random.default_rng(3)
    layouts = np.stack([np.where(rng.random(13) < 0.5, rng.permutation(52)[:13], EMPTY)
                        for _ in range(7)])
    left = deck_counts(PINEAPPLE.deck)
    together = features(layouts, left)
    each = features(layouts, np.broadcast_to(left, (7, JOKER + 1)))
    assert together.shape == (7, FEATURES) and together.dtype == np.float32
    assert np.array_equal(together, each)


# --- the network -----------------------------------------------------------------------------

def test_the_network_learns_a_smooth_function_and_the_same_seed_gives_the_same_weights():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3000, 4))
    y = np.sin(x[:, 0]) + x[:, 1] * x[:, 2]
    first = fit(x, y, seed=5, epochs=15)
    again = fit(x, y, seed=5, epochs=15)
    other = fit(x, y, seed=6, epochs=15)
    assert first.held_out_error < 0.35 * y.std()
    arrays, repeat = first.network.arrays("a."), again.network.arrays("a.")
    assert all(np.array_equal(arrays[k], repeat[k]) for k in arrays)
    assert not np.array_equal(arrays["a.w0"], other.network.arrays("a.")["a.w0"])
    loaded = Network.from_arrays(arrays, "a.")
    assert np.array_equal(loaded.predict(x[:50]), first.network.predict(x[:50]))


# --- labels ----------------------------------------------------------------------------------

def test_a_foul_costs_the_rules_penalty_unless_told_otherwise():
    fouled = layout_of("Ah As Kd", "2c 3d 4h 5s 7c", "8s 9d Tc Qh 2h")
    legal = layout_of("2d 3c 4d", "5d 6c 8h 9h Jc", "Ad Ac Kh Ks Qs")
    boards = np.stack([fouled, legal])
    rules_worth, costly = Worth(PINEAPPLE)(boards), Worth(PINEAPPLE, foul=10.0)(boards)
    assert rules_worth.fouled.tolist() == [True, False]
    assert rules_worth.value[0] == -PINEAPPLE.scoring.foul_penalty and costly.value[0] == -10
    assert costly.value[1] == rules_worth.value[1]


def test_a_board_one_street_from_the_end_is_labelled_by_its_exact_worth():
    layout = layout_of("Kd 5s", "Ac 2c 7h 7c", "8s 3d 8c Kh 9h")
    left = unseen_counts(layout, "Qs Jd 4h")
    positions = Positions(layout[None], left[None].astype(np.int8))
    worth = Worth(PINEAPPLE)
    label = exact_labels(worth, DEALING, positions)
    assert label[0] == exact_worth(worth, layout[None], remaining(left), DEALING).value[0]


def test_an_earlier_board_is_labelled_by_the_best_play_of_each_sampled_deal():
    layout = layout_of("Kd 5s", "Ac 2c 7h", "8s 3d 8c 4d")
    left = unseen_counts(layout, "Qs Jd 4h")
    positions = Positions(np.stack([layout, layout]), np.stack([left, left]).astype(np.int8))
    rng = np.random.default_rng(1)
    model = Network(np.zeros(FEATURES), np.ones(FEATURES),
                    ((rng.normal(size=(FEATURES, 8)), rng.normal(size=8)),
                     (rng.normal(size=(8, 1)), np.zeros(1))))
    labels = model_labels(model, DEALING, positions, deals=5, seed=7)
    # the same, one deal at a time through ``placements``
    unseen = remaining(left)
    for i in range(2):
        deal_rng = np.random.default_rng([7, i])
        best = []
        for _ in range(5):
            dealt = deal_rng.choice(unseen, 3, replace=False)
            options = placements(layout, dealt.tolist(), 2)
            after = left.copy()
            np.subtract.at(after, dealt, 1)
            best.append(model.predict(features(options, after)).max())
        assert labels[i] == pytest.approx(np.mean(best), rel=1e-12)
    assert labels[0] != labels[1]  # each board its own deals


# --- the bot ---------------------------------------------------------------------------------

def test_the_bot_finishes_a_board_its_best_way_and_plays_the_exact_best_one_street_before():
    worth = Worth(PINEAPPLE)
    bot = LearnedBot(DEALING, {}, worth)
    layout = layout_of("Kd 5s", "Ac 2c 7h 7c", "8s 3d 8c Kh 9h")
    unseen = remaining(unseen_counts(layout, "Qs Jd 4h"))
    played = bot(layout, list(parse_cards("Qc Qd 2d")), 2, unseen, 0, np.random.default_rng(0))
    options = placements(layout, list(parse_cards("Qc Qd 2d")), 2)
    assert worth(played[None]).value[0] == worth(options).value.max()
    layout = layout_of("Kd 5s", "Ac 2c 7h", "8s 3d 8c Kh")
    dealt = list(parse_cards("Qs 2h 2d"))
    unseen = remaining(unseen_counts(layout, "Qs 2h 2d Ts Js"))
    played = bot(layout, dealt, 2, unseen, 1, np.random.default_rng(0))
    options = placements(layout, dealt, 2)
    values = exact_worth(worth, options, unseen, DEALING).value
    assert exact_worth(worth, played[None], unseen, DEALING).value[0] == values.max()


def test_tables_played_in_chunks_are_the_tables_played_at_once():
    worth = Worth(PINEAPPLE)
    rng = np.random.default_rng(2)
    models = {r: Network(np.zeros(FEATURES), np.ones(FEATURES),
                         ((rng.normal(size=(FEATURES, 4)), np.zeros(4)),
                          (rng.normal(size=(4, 1)), np.zeros(1)))) for r in (1, 2, 3, 4)}
    bot = LearnedBot(DEALING, models, worth, exact_from=0)
    whole = play_tables(PINEAPPLE, DEALING, [bot, bot], range(4), seed=3, explore=0.2)
    parts = [play_tables(PINEAPPLE, DEALING, [bot, bot], range(a, b), seed=3, explore=0.2)
             for a, b in ((0, 1), (1, 4))]
    assert np.array_equal(whole.finished, np.concatenate([p.finished for p in parts]))
    for r, positions in whole.positions.items():
        joined = Positions.join([p.positions[r] for p in parts])
        assert np.array_equal(positions.layouts, joined.layouts)
        assert np.array_equal(positions.left, joined.left)
        assert len(positions) == 8 and (positions.layouts != EMPTY).sum(axis=1).tolist() == \
            [13 - 2 * r] * 8
    seen = [sorted(b.tolist()) for b in whole.finished]
    assert all(len(set(b)) == 13 for b in seen)
    for table in range(4):  # two seats, one deck
        assert not set(seen[2 * table]) & set(seen[2 * table + 1])


# --- the rebuild -----------------------------------------------------------------------------

def test_a_rebuild_resumes_from_its_chunks_and_gives_the_same_models_byte_for_byte(tmp_path):
    from fantasyland.optimizer.opponents.learned.rebuild import Plan, Round, load_models, rebuild

    plan = Plan(rounds=(Round(3, explore=0.3), Round(2)), deals=2, exact_deals=2, epochs=2)
    stages = []
    first = rebuild(plan, tmp_path / "a", progress=lambda stage, done, whole:
                    stages.append((stage, done, whole)))
    assert ("round 0: tables", 1, 1) in stages
    assert ("round 1: labels 4 streets from the end", 1, 1) in stages
    assert sorted(first.models) == [1, 2, 3, 4]
    saved = sorted(p.name for p in (tmp_path / "a" / "round-1").iterdir())
    assert "tables-000000-000002.npz" in saved and "labels2-000000.npz" in saved
    # a second sitting reads what the first saved, and a fresh run plays it all again
    again = rebuild(plan, tmp_path / "a")
    fresh = rebuild(plan, tmp_path / "b")
    for other in (again, fresh):
        assert all(np.array_equal(v, other.arrays()[k]) for k, v in first.arrays().items())
    np.savez(tmp_path / "models.npz", **first.arrays())
    loaded = load_models(tmp_path / "models.npz")
    x = np.random.default_rng(0).random((5, FEATURES))
    assert all(np.array_equal(loaded[r].predict(x), first.models[r].predict(x)) for r in loaded)
    # a chunk saved by other settings is refused, not mixed in
    from fantasyland.evaluator import InputError

    with pytest.raises(InputError, match="played otherwise"):
        rebuild(Plan(rounds=plan.rounds, deals=3, exact_deals=2, epochs=2), tmp_path / "a")


def test_two_streets_from_the_end_the_model_only_screens_the_plays_valued_exactly():
    layout = layout_of("Kd 5s", "Ac 2c 7h", "8s 3d 8c 4d")
    left = unseen_counts(layout, "Qs Jd 4h 2s 3s 4s 5c 6s 7s 9s Js Th 9h Jh 6c 6d 6h Td Tc")
    positions = Positions(layout[None], left[None].astype(np.int8))
    rng = np.random.default_rng(4)
    model = Network(np.zeros(FEATURES), np.ones(FEATURES),
                    ((rng.normal(size=(FEATURES, 1)), np.zeros(1)),))
    worth = Worth(PINEAPPLE)
    screened = model_labels(model, DEALING, positions, deals=3, seed=9, exact=worth,
                            exact_top=2)
    every = model_labels(model, DEALING, positions, deals=3, seed=9, exact=worth,
                         exact_top=100)
    deal_rng = np.random.default_rng([9, 0])
    best = []
    for _ in range(3):
        dealt = deal_rng.choice(remaining(left), 3, replace=False)
        after = left.copy()
        np.subtract.at(after, dealt, 1)
        options = placements(layout, dealt.tolist(), 2)
        best.append(exact_worth(worth, options, remaining(after), DEALING).value.max())
    assert every[0] == pytest.approx(np.mean(best))
    assert screened[0] <= every[0] + 1e-12


def _small_models(seed: int) -> dict[int, Network]:
    rng = np.random.default_rng(seed)
    return {r: Network(np.zeros(FEATURES), np.ones(FEATURES),
                       ((rng.normal(size=(FEATURES, 8)), rng.normal(size=8)),
                        (rng.normal(size=(8, 1)), np.zeros(1)))) for r in (1, 2, 3, 4)}


def test_the_lookahead_values_a_play_by_the_next_models_best_play_of_every_deal():
    models = _small_models(6)
    layout = layout_of("Kd", "Ac 2c", "8s 3d")
    options = placements(layout, list(parse_cards("7h 7c Qs")), 2)
    unseen = np.sort(np.array(list(parse_cards("2h 5d 9s Jc Th 4s"))))
    bot = LearnedBot(DEALING, models, Worth(PINEAPPLE), lookahead_deals=20)
    looked = bot.values(options, unseen, 3)
    # all 20 deals of three of the six unseen cards, one at a time through ``placements``
    for option, value in zip(options, looked):
        best = []
        for dealt in combinations(unseen.tolist(), 3):
            after = np.bincount(unseen, minlength=JOKER + 1)
            np.subtract.at(after, list(dealt), 1)
            best.append(models[2].predict(features(placements(option, list(dealt), 2),
                                                   after)).max())
        assert value == pytest.approx(np.mean(best), rel=1e-12)
    plain = LearnedBot(DEALING, models, Worth(PINEAPPLE)).values(options, unseen, 3)
    assert not np.allclose(looked, plain)


def test_the_lookahead_values_the_next_street_exactly_when_it_is_the_last_but_one():
    models = _small_models(7)
    worth = Worth(PINEAPPLE)
    layout = layout_of("Kd 5s", "Ac 2c 7h", "8s 3d")
    options = placements(layout, list(parse_cards("Qs 2h 8d")), 2)
    unseen = np.sort(np.array(list(parse_cards("2d 5d 9s Jc Th 4s"))))
    every = LearnedBot(DEALING, models, worth, lookahead_deals=20, lookahead_top=100)
    screened = LearnedBot(DEALING, models, worth, lookahead_deals=20, lookahead_top=1)
    all_plays, top_play = every.values(options, unseen, 2), screened.values(options, unseen, 2)
    for option, whole, first in zip(options, all_plays, top_play):
        best, picked = [], []
        for dealt in combinations(unseen.tolist(), 3):
            after = np.bincount(unseen, minlength=JOKER + 1)
            np.subtract.at(after, list(dealt), 1)
            plays = placements(option, list(dealt), 2)
            exact = exact_worth(worth, plays, remaining(after), DEALING).value
            best.append(exact.max())
            picked.append(exact[np.argmax(models[1].predict(features(plays, after)))])
        assert whole == pytest.approx(np.mean(best), rel=1e-12)
        assert first == pytest.approx(np.mean(picked), rel=1e-12)
    assert (top_play <= all_plays + 1e-12).all() and (top_play < all_plays - 1e-9).any()


def test_the_lookahead_samples_the_same_deals_for_every_play_of_a_position():
    models = _small_models(8)
    layout = layout_of("Kd", "Ac 2c", "8s 3d")
    options = placements(layout, list(parse_cards("7h 7c Qs")), 2)
    left = unseen_counts(layout, "7h 7c Qs")
    unseen = remaining(left)
    bot = LearnedBot(DEALING, models, Worth(PINEAPPLE), lookahead_deals=4)
    deals = bot.next_deals(options, unseen, 3)
    assert deals.shape == (4, 3) and np.isin(deals, unseen).all()
    assert all(len(set(d.tolist())) == 3 for d in deals)
    assert np.array_equal(deals, bot.next_deals(options, unseen, 3))  # from the position alone
    assert not np.array_equal(deals, bot.next_deals(options[:-1], unseen, 3))
    looked = bot.values(options, unseen, 3)
    for option, value in zip(options, looked):
        best = []
        for dealt in deals:
            after = left.copy()
            np.subtract.at(after, dealt, 1)
            best.append(models[2].predict(features(placements(option, dealt.tolist(), 2),
                                                   after)).max())
        assert value == pytest.approx(np.mean(best), rel=1e-12)
    # screened: the play is the lookahead's best of the model's five best
    new = list(parse_cards("7h 7c Qs"))
    screened = LearnedBot(DEALING, models, Worth(PINEAPPLE), lookahead_deals=4,
                          lookahead_screen=5)
    played = screened(layout, new, 2, unseen, 3, np.random.default_rng(0))
    five = options[np.sort(np.argsort(-models[3].predict(features(options, left)),
                                      kind="stable")[:5])]
    assert np.array_equal(played, five[np.argmax(bot.values(five, unseen, 3))])
    # no lookahead on the streets left out
    only_two = LearnedBot(DEALING, models, Worth(PINEAPPLE), lookahead_deals=4,
                          lookahead_streets=[2])
    assert np.array_equal(only_two.values(options, unseen, 3),
                          models[3].predict(features(options, left)))


def test_a_bot_alone_plays_its_cards_into_a_board_and_throws_the_rest():
    from fantasyland.optimizer.opponents.learned.positions import play_alone

    rng = np.random.default_rng(5)
    models = {r: Network(np.zeros(FEATURES), np.ones(FEATURES),
                         ((rng.normal(size=(FEATURES, 1)), np.zeros(1)),)) for r in (2, 3, 4)}
    bot = LearnedBot(DEALING, models, Worth(PINEAPPLE))
    cards = rng.permutation(52)[:DEALING.seen].tolist()
    board = play_alone(PINEAPPLE, DEALING, bot, cards, np.random.default_rng(0))
    assert EMPTY not in board and set(board.tolist()) <= set(cards)
    assert len(set(board.tolist())) == 13
    assert set(cards[:5]) <= set(board.tolist())  # the first five are all kept


def test_the_shipped_models_read_the_features_of_today():
    from importlib import resources

    from fantasyland.optimizer.opponents.learned.rebuild import load_models

    shipped = resources.files("fantasyland.optimizer.opponents.learned") / "data" / \
        "pineapple.npz"
    with resources.as_file(shipped) as path:
        models = load_models(path)
    assert sorted(models) == [1, 2, 3, 4]
    for model in models.values():
        assert model.mean.shape == (FEATURES,) and model.layers[0][0].shape[0] == FEATURES
    board = layout_of("Qh", "7c 8c", "2s 2d")  # the first five cards placed
    value = models[4].predict(features(board[None], unseen_counts(board)))
    assert np.isfinite(value).all()


def test_the_shipped_models_are_found_by_the_game_their_rules_decide():
    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.opponents.learned.shipped import learned_bot, shipped_models

    assert sorted(shipped_models(find_rules("pineapple"))) == [1, 2, 3, 4]
    assert learned_bot(find_rules("pineapple")) is not None
    for other in ("standard", "pineapple-joker"):  # no models learned: the heuristic bot stays
        assert shipped_models(find_rules(other)) is None and learned_bot(find_rules(other)) is None


def test_a_house_rule_keeps_the_models_only_where_the_ordinary_hand_is_the_same(tmp_path):
    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.opponents.learned.shipped import shipped_models

    calmer = tmp_path / "calmer.toml"  # another opponent model, and its worth of staying
    calmer.write_text('name = "calmer"\nbase = "pineapple"\n[fantasyland]\n'
                      'ev_repeat_value = 9.0\n[opponents]\nmean_royalties = 3.0\n')
    assert shipped_models(find_rules(str(calmer))) is not None
    dearer = tmp_path / "dearer.toml"  # an entry worth more: the values learned are off
    dearer.write_text('name = "dearer"\nbase = "pineapple"\n[fantasyland]\nrepeat_value = 30\n')
    assert shipped_models(find_rules(str(dearer))) is None
    richer = tmp_path / "richer.toml"  # a flush on the bottom pays 5, not 4
    richer.write_text('name = "richer"\nbase = "pineapple"\n[royalties.bottom]\nflush = 5\n')
    assert shipped_models(find_rules(str(richer))) is None


def test_the_bot_at_a_table_looks_ahead_on_its_middle_streets_and_the_rest_play_plain():
    from fantasyland.optimizer.opponents.learned.shipped import learned_bot, table_bot
    from fantasyland.optimizer.play.bots import bot_policy

    rules = find_rules("pineapple")
    table, plain = table_bot(rules), learned_bot(rules)
    assert [table.looks_ahead(k) for k in range(5)] == [False, False, True, True, False]
    assert not any(plain.looks_ahead(k) for k in range(5))
    assert table.models is not plain.models and table.models == plain.models
    assert bot_policy(rules) is table  # play's bots; the rollouts and pools keep the plain
    assert table_bot(find_rules("standard")) is None
