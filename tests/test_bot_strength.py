"""The stronger bot: finished boards valued in points at the table (``BotParams.table_points``).

Its exact last street is checked against an independent enumeration of every play, it never
fouls when a legal play exists, each Fantasyland entry is worth what the rules say it is, and
the row odds it plays against are those of the table's boards.
"""

from __future__ import annotations

import dataclasses
from itertools import combinations, product

import numpy as np
import pytest

from fantasyland.evaluator import board as board_module
from fantasyland.evaluator import find_rules, load_rules
from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.board_arrays import evaluate_boards
from fantasyland.evaluator.cards import JOKER, Deck, parse_cards
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.opponents.bot import (THREE_KEEP_TWO, BotParams, _Judge, choose,
                                                 entry_worths, first_look, play_hand)
from fantasyland.optimizer.opponents import ranks
from fantasyland.optimizer.opponents.estimate import estimate
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, placements
from fantasyland.optimizer.opponents.odds import even_odds, odds_from_boards
from fantasyland.optimizer.opponents.params import params_meta
from fantasyland.optimizer.opponents.players import build_pool
from fantasyland.optimizer.opponents.pools import POOL_PARAMS, STRONG_PARAMS, deal_from, table_odds
from fantasyland.optimizer.opponents.resolve import evaluate_played, resolve_boards

STRONG = STRONG_PARAMS[THREE_KEEP_TWO.name]
#: The stronger valuation with few samples: for tests of legality, not of skill.
QUICK_STRONG = dataclasses.replace(STRONG, samples=4, refine=0)
PINEAPPLE = find_rules("pineapple")


def _layout(top: str, middle: str, bottom: str) -> np.ndarray:
    """A layout holding these cards, each row filled from its first slot."""
    layout = np.full(13, EMPTY, dtype=np.int64)
    for row, cards in zip(ROWS, (top, middle, bottom)):
        for slot, card in zip(ROW_SLOTS[row], parse_cards(cards) if cards else []):
            layout[slot] = card
    return layout


def _worth_by_hand(rules, layout: np.ndarray, kept: tuple, rows: tuple,
                   params: BotParams) -> float:
    """The stronger bot's worth of one play, computed board by board with evaluate_board."""
    board = layout.copy()
    for card, row in zip(kept, rows):
        board[next(s for s in ROW_SLOTS[row] if board[s] == EMPTY)] = card
    report = evaluate_board(Board(tuple(board[:3]), tuple(board[3:8]), tuple(board[8:])),
                            rules=rules)
    if report.fouled:
        return -params.foul_penalty
    odds = table_odds(rules)
    win = [odds.wins[row][report.row(row).value] for row in ROWS]
    loss = [odds.losses[row][report.row(row).value] for row in ROWS]
    rows_won = sum(win) - sum(loss) + 3 * (np.prod(win) - np.prod(loss))
    entry = entry_worths(rules, params)[report.fantasyland_cards or 0]
    return report.royalties.total + entry + (1 - odds.foul_rate) * rows_won


def _every_play(layout: np.ndarray, new: list[int], keep: int):
    free = {row: int((layout[ROW_SLOTS[row].start:ROW_SLOTS[row].stop] == EMPTY).sum())
            for row in ROWS}
    for kept in combinations(new, keep):
        for rows in product(ROWS, repeat=keep):
            if all(rows.count(row) <= free[row] for row in ROWS):
                yield kept, rows


LAST_STREETS = [
    # QQ on top: the last card decides between Fantasyland and a foul-free middle.
    (("Qs Qh", "Kd Kc 7s 7d", "Ah Ad As 5c 5d"), "Qc 9h 2d"),
    # a flush draw in the bottom and a straight draw in the middle
    (("Ac 9d 3s", "8s 7h 6c 5d", "Kh Th 4h 2h"), "3h 9c 4s"),
    # nothing made: the best play is the strongest rows
    (("Ts 3d", "Jc 9s 6h 2s", "Kd Qh 8c 4c Ad"), "7c 5h 3c"),
    # trips on top is possible, and fouls over a middle of one pair
    (("8s 8h", "Ad Kd 3s 3c", "Js Jd Jh 5s 5h"), "8c 5d 2c"),
]


@pytest.mark.parametrize("rows,new", LAST_STREETS)
def test_the_last_street_plays_the_best_of_every_play_counted_by_hand(rows, new):
    layout, cards = _layout(*rows), parse_cards(new)
    rng = np.random.default_rng(0)
    chosen = choose(PINEAPPLE, THREE_KEEP_TWO, layout, cards, 2, np.array([], dtype=np.int64),
                    0, STRONG, rng, odds=table_odds(PINEAPPLE))
    best = max(_worth_by_hand(PINEAPPLE, layout, kept, rows_, STRONG)
               for kept, rows_ in _every_play(layout, cards, 2))
    placed = [c for c in chosen.tolist() if c not in layout.tolist()]
    rows_of = tuple(next(r for r in ROWS if chosen.tolist().index(c) in ROW_SLOTS[r])
                    for c in placed)
    assert _worth_by_hand(PINEAPPLE, layout, tuple(placed), rows_of, STRONG) == \
        pytest.approx(best)


def test_the_last_street_takes_the_rows_that_win_when_royalties_tie():
    # Neither play scores a royalty; the shipped bot may toss a coin, the stronger bot
    # keeps the ace on top over a deuce (a top that beats more of the table's tops).
    layout = _layout("Kc 9d", "Qs Qh 8c 7d", "Jh Jd 6s 6c 4h")
    rng = np.random.default_rng(0)
    chosen = choose(PINEAPPLE, THREE_KEEP_TWO, layout, parse_cards("As 2d 3c"), 2,
                    np.array([], dtype=np.int64), 0, STRONG, rng, odds=table_odds(PINEAPPLE))
    assert parse_cards("As")[0] in chosen[:3].tolist()


@pytest.mark.parametrize("params", [STRONG, POOL_PARAMS[THREE_KEEP_TWO.name]],
                         ids=["stronger", "shipped"])
def test_the_last_street_never_fouls_when_a_legal_play_exists(params):
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 40:
        cards = rng.permutation(52)[:14].tolist()
        layout = np.full(13, EMPTY, dtype=np.int64)
        # 11 cards in rows of 2, 4 and 5 or 3, 4 and 4: the last street fills the rest
        shape = [(2, 4, 5), (3, 4, 4), (3, 3, 5)][checked % 3]
        it = iter(cards[:11])
        for row, count in zip(ROWS, shape):
            for slot in list(ROW_SLOTS[row])[:count]:
                layout[slot] = next(it)
        new = cards[11:14]
        legal = [k for k in _every_play(layout, new, 2)
                 if _worth_by_hand(PINEAPPLE, layout, *k, STRONG) > -STRONG.foul_penalty]
        if not legal:
            continue
        chosen = choose(PINEAPPLE, THREE_KEEP_TWO, layout, new, 2,
                        np.array([], dtype=np.int64), 0, params, rng, odds=table_odds(PINEAPPLE))
        assert not evaluate_boards(chosen[None], PINEAPPLE).fouled[0]
        checked += 1


def test_each_fantasyland_entry_is_worth_what_the_rules_say():
    assert entry_worths(PINEAPPLE, STRONG)[14] == pytest.approx(12.5)
    progressive = entry_worths(find_rules("progressive"), STRONG)
    # progressive gives its entries' worth by size (ev_entry_value, measured by value)
    assert progressive[[14, 15, 16, 17]] == pytest.approx([12.5, 17.9, 24.0, 31.5])
    # where a file gives none, KK, AA and trips add card_worth a card beyond the repeat
    bare = dataclasses.replace(find_rules("progressive"), ev_entry_values=())
    assert entry_worths(bare, STRONG)[[14, 15, 16, 17]] == pytest.approx(
        [12.5, 12.5 + 5.5, 12.5 + 11.0, 12.5 + 16.5])
    ultimate = find_rules("ultimate")  # repeats as many cards: its own worth by size
    assert entry_worths(ultimate, STRONG)[15] == pytest.approx(
        ultimate.ev_repeat_value_after(15))


def test_the_row_odds_are_those_of_the_table_boards():
    boards = np.array([parse_cards(b) for b in (
        "Qs Qh 2c Kd Kc 7s 7d 3c Ah Ad As 5c 5d",
        "Ac 9d 2s 8s 8h 6c 5d 4c Kh Th 4h 2h 3h",
        "Ts 9d 3d Jc Js 6h 2s 4s Kd Qh 8c 4d 5h")])  # the last fouls (middle over bottom)
    odds = odds_from_boards(evaluate_boards(boards, PINEAPPLE), PINEAPPLE)
    assert odds.foul_rate == pytest.approx(1 / 3)
    values = evaluate_boards(boards, PINEAPPLE).values
    top_qq, top_a9 = values["top"][0], values["top"][1]
    assert odds.wins["top"][top_qq] == 0.5 and odds.losses["top"][top_qq] == 0
    assert odds.wins["top"][top_a9] == 0 and odds.losses["top"][top_a9] == 0.5
    assert odds.wins["bottom"][-1] == 1.0  # the strongest bottom beats both


def test_rules_without_a_pool_play_at_even_odds(tmp_path):
    path = tmp_path / "pair-middle.toml"
    path.write_text('base = "pineapple"\n[foul]\nqualify = { middle = "pair" }\n',
                    encoding="utf-8")
    rules = load_rules(path)
    odds = table_odds(rules)
    assert odds.foul_rate == 0 and (odds.wins["middle"] == 0.5).all()
    assert odds.points(evaluate_boards(np.arange(13)[None], rules).values) == 0
    cards = np.random.default_rng(2).permutation(52)[:17].tolist()
    hand = play_hand(rules, THREE_KEEP_TWO, cards, QUICK_STRONG, np.random.default_rng(2))
    assert set(hand.board) | set(hand.discards) == set(cards)
    assert even_odds(rules).losses["top"].shape == odds.losses["top"].shape


@pytest.mark.parametrize("deck", [Deck(1, 2, False), Deck(2, 0, True)], ids=["jokers", "2-decks"])
def test_the_stronger_bot_plays_jokers_and_two_decks(deck):
    rules = dataclasses.replace(find_rules("pineapple"), deck=deck)
    pool = build_pool(rules, hands=2, seed=3, bot="strong")
    seen = np.concatenate([pool.placed, pool.discards], axis=1)
    limit = 2 if deck.decks == 2 else 1
    for row in seen:
        counts = np.bincount(row, minlength=JOKER + 1)
        assert counts[:JOKER].max() <= limit and counts[JOKER] <= deck.jokers
    assert pool.meta["params"]["table_points"] is True


def test_the_stronger_bot_plays_the_same_seeded_hand_again():
    cards = np.random.default_rng(8).permutation(52)[:17].tolist()
    first = play_hand(PINEAPPLE, THREE_KEEP_TWO, cards, STRONG, np.random.default_rng(1))
    again = play_hand(PINEAPPLE, THREE_KEEP_TWO, cards, STRONG, np.random.default_rng(1))
    assert first == again


def test_the_estimate_charges_a_foul_its_own_penalty():
    # Aces on top over a finished middle of one pair of kings: every future fouls, and the
    # estimate charges what is given, else foul_penalty (the first bot, whose pools were
    # played so); the stronger bot is given 10.
    layout = _layout("Ac Ad", "Ks Kh 7c 5d 2s", "Jc 9h 8h")
    unseen = np.setdiff1d(np.arange(52), layout[layout != EMPTY])
    plain = dataclasses.replace(STRONG, estimate_foul_penalty=None)
    for params, cost in ((STRONG, 10.0), (plain, 6.0),
                         (dataclasses.replace(STRONG, estimate_foul_penalty=11.0), 11.0),
                         (dataclasses.replace(plain, foul_penalty=7.0), 7.0),
                         (POOL_PARAMS[THREE_KEEP_TWO.name], 6.0)):
        worth = estimate(PINEAPPLE, layout[None], unseen, 6, params, np.random.default_rng(0),
                         16)
        assert worth.tolist() == [-cost]


@pytest.mark.parametrize("seed", range(4))
def test_a_rows_completions_are_its_best_and_worst_from_the_cards_it_may_choose(seed):
    # Against a plain enumeration: a bottom of two cards draws its three from its credit of
    # future cards (those that pair one of its ranks first, then the rest of the future in
    # order) and its own three. Seeded futures, some with fewer helpful cards than the
    # credit.
    from fantasyland.evaluator.strength import strength_of
    from fantasyland.optimizer.opponents.estimate import _row_options

    rng = np.random.default_rng(seed)
    deck = rng.permutation(52)
    fixed = deck[:2][None]
    future, filler = deck[2:8][None].repeat(5, axis=0), np.stack(
        [rng.choice(deck[8:], 3, replace=False) for _ in range(5)])
    for k in range(1, 5):
        future[k] = rng.permutation(future[k])
    options = _row_options(PINEAPPLE, "bottom", fixed, future, filler, 2, [], STRONG)
    ranks = set((fixed[0] >> 2).tolist())
    for k in range(len(future)):
        helps = [int(c) for c in future[k] if c >> 2 in ranks]
        others = [int(c) for c in future[k] if c >> 2 not in ranks]
        credit = (helps + others)[:2]
        values = [strength_of(fixed[0].tolist() + list(pick))
                  for pick in combinations(credit + filler[k].tolist(), 3)]
        assert options.strength[0, k].tolist() == [max(values), min(values)]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("rows, flattered", [(("Kc", "7d 2s", "Kh 9s"), True),
                                             (("Qd", "Qs 4h", "8c 8d 3h"), True),
                                             (("Qc Qh", "8s 9d", "8c 9h 3h"), False),
                                             (("Qd Kc", "Ts Jd", "5c 6h"), False)])
def test_a_disjoint_estimate_never_lets_one_future_card_help_two_rows(rows, flattered, seed):
    # Against a plain enumeration, sample by sample: each row's pool is its credit of future
    # cards that pair one of its ranks (then the rest of the future in order) and its own
    # cards; it keeps its best and its worst completion (the first of equals) and its own
    # cards alone, and the sample is worth the best board of those 27 plans in which no future
    # card helps two rows. A split pair of kings no longer fills both rows with one king.
    from fantasyland.evaluator.strength import strength_of

    layout = _layout(*rows)
    unseen = np.setdiff1d(np.arange(52), layout[layout != EMPTY])
    params = dataclasses.replace(STRONG, estimate_disjoint=True)
    coming, samples = 12, 24
    worth = estimate(PINEAPPLE, layout[None], unseen, coming, params,
                     np.random.default_rng(seed), samples)
    shuffles = np.random.default_rng(seed).permuted(
        np.broadcast_to(unseen, (samples, len(unseen))), axis=1)
    expected = []
    for shuffle in shuffles:
        future, start, options = shuffle[:coming].tolist(), coming, {}
        for row in ROWS:
            fixed = [int(c) for c in layout[ROW_SLOTS[row]] if c != EMPTY]
            need = len(ROW_SLOTS[row]) - len(fixed)
            reach = params.top_credit if row == "top" else params.draw_credit
            ranks = {c >> 2 for c in fixed}
            order = [i for i, c in enumerate(future) if c >> 2 in ranks] + \
                [i for i, c in enumerate(future) if c >> 2 not in ranks]
            helps = [(future[i], (1 << i) * (future[i] >> 2 in ranks)) for i in order[:reach]]
            pool = helps + [(int(c), 0) for c in shuffle[start:start + need]]
            start += need
            picks = list(combinations(range(len(pool)), need))
            completions = [(fixed + [pool[i][0] for i in pick], sum(pool[i][1] for i in pick))
                           for pick in picks]
            values = [strength_of(cards) for cards, _ in completions]
            options[row] = [completions[values.index(max(values))],
                            completions[values.index(min(values))], completions[-1]]
        best = -np.inf
        for plan in product(*(options[row] for row in ROWS)):
            (top, a), (middle, b), (bottom, c) = plan
            if a & b or a & c or b & c:
                continue
            # (a card that helps neither row may complete two: the board array allows it)
            report = evaluate_boards(np.array(top + middle + bottom), PINEAPPLE)
            value = -params.estimate_foul_cost if report.fouled[0] else \
                sum(report.royalties[row][0] for row in ROWS) \
                + params.fl_bonus * (report.entry_cards[0] > 0)
            best = max(best, value)
        expected.append(best)
    assert worth[0] == pytest.approx(np.mean(expected))
    shared = estimate(PINEAPPLE, layout[None], unseen, coming, STRONG,
                      np.random.default_rng(seed), samples)
    if flattered:  # two rows want one rank, and sharing it flatters them more than a row's
        assert shared[0] > worth[0]  # own cards alone (the third option) spare fouls
    assert params_meta(params)["estimate_disjoint"] is True
    assert "estimate_disjoint" not in params_meta(STRONG)


def test_the_search_values_a_layout_at_the_mean_of_each_deals_best_play():
    # Two rounds from the end: each of search_deals deals of the next round is played in its
    # best way as the first look judges it (here the exact last street over search_samples
    # deals), and the layout is worth the mean of those best plays. Rebuilt from the public
    # first look, drawing from the generator in the same order.
    layout = _layout("Qs Qh", "9c 9d 4s 3c", "Ah Kd 5d")
    unseen = np.setdiff1d(np.arange(52), layout[layout != EMPTY])
    params = dataclasses.replace(STRONG, search_deals=3, search_samples=8)
    odds = even_odds(PINEAPPLE)
    rng = np.random.default_rng(4)
    deals = rng.permuted(np.broadcast_to(unseen, (3, len(unseen))), axis=1)[:, :3]
    best = []
    for deal in deals:
        plays = placements(layout, deal.tolist(), 2)
        left = np.setdiff1d(unseen, deal)
        best.append(first_look(PINEAPPLE, plays, left, THREE_KEEP_TWO, 1, params, rng, 8,
                               odds=odds).max())
    worth = _Judge(PINEAPPLE, THREE_KEEP_TWO, params, odds, np.random.default_rng(4)).search(
        layout[None], unseen, 2)
    assert worth[0] == pytest.approx(np.mean(best))


def test_the_stronger_bot_rescores_the_placements_of_the_first_unless_told_more():
    shipped = POOL_PARAMS[THREE_KEEP_TWO.name]
    assert (shipped.rescored, STRONG.rescored, QUICK_STRONG.rescored) == (4, 4, 0)
    assert dataclasses.replace(STRONG, refine=6).rescored == 6
    assert dataclasses.replace(STRONG, table_refine=8).rescored == 8
    assert dataclasses.replace(shipped, table_refine=8).rescored == 4  # a knob of the stronger


def test_a_pool_of_the_first_bot_records_the_knobs_it_always_had():
    meta = params_meta(POOL_PARAMS[THREE_KEEP_TWO.name])
    assert "table_points" not in meta and "card_worth" not in meta
    assert "estimate_foul_penalty" not in meta and "table_refine" not in meta


def test_a_pool_of_the_stronger_bot_records_what_it_plays_not_none():
    # Its None once meant 8 placements and a foul at 10: a meta that left them out would
    # read the same for the stronger bot before and after its defaults changed.
    meta = params_meta(STRONG)
    assert meta["table_points"] is True
    assert (meta["table_refine"], meta["estimate_foul_penalty"]) == (4, 10.0)
    plain = params_meta(dataclasses.replace(STRONG, estimate_foul_penalty=None))
    assert (plain["table_refine"], plain["estimate_foul_penalty"]) == (4, 6.0)
    wide = params_meta(dataclasses.replace(STRONG, table_refine=8, estimate_foul_penalty=12.0))
    assert (wide["table_refine"], wide["estimate_foul_penalty"]) == (8, 12.0)
    assert BotParams(**meta) == dataclasses.replace(STRONG, table_refine=4)


# --- the faster code plays as the first did --------------------------------------------------

def _placements_by_loop(layout: np.ndarray, new: list[int], keep: int) -> np.ndarray:
    """The placements as the first bot listed them: one layout a move, then np.unique."""
    free = {row: [s for s in ROW_SLOTS[row] if layout[s] == EMPTY] for row in ROWS}
    out = []
    for kept in combinations(new, keep):
        for rows in product(ROWS, repeat=keep):
            if any(rows.count(row) > len(free[row]) for row in ROWS):
                continue
            placed = layout.copy()
            used = dict.fromkeys(ROWS, 0)
            for card, row in zip(kept, rows):
                placed[free[row][used[row]]] = card
                used[row] += 1
            out.append(placed)
    return np.unique(np.array(out, dtype=np.int64), axis=0)


def test_placements_are_the_first_bots_in_its_order():
    rng = np.random.default_rng(0)
    for trial in range(400):
        cards = rng.integers(0, JOKER + 1, 20)  # repeats and jokers, as two decks deal
        heights = {row: int(rng.integers(0, len(ROW_SLOTS[row]) + 1)) for row in ROWS}
        keep, count = [(5, 5), (2, 3), (1, 1), (1, 3)][trial % 4]
        if 13 - sum(heights.values()) < keep:
            continue
        layout = np.full(13, EMPTY, dtype=np.int64)
        it = iter(cards.tolist())
        for row in ROWS:
            for slot in list(ROW_SLOTS[row])[:heights[row]]:
                layout[slot] = next(it)
        new = [next(it) for _ in range(count)]
        assert (placements(layout, new, keep) == _placements_by_loop(layout, new, keep)).all()


@pytest.mark.parametrize("variant,deck", [("pineapple", Deck()), ("deuce", Deck()),
                                          ("standard", Deck()), ("pineapple", Deck(1, 2, False)),
                                          ("pineapple", Deck(2, 0, True))])
def test_the_bots_evaluation_is_evaluate_boards(variant, deck):
    rules = dataclasses.replace(find_rules(variant), deck=deck)
    rng = np.random.default_rng(1)
    dealt = deal_from(deck)
    boards = np.array([rng.permutation(dealt)[:13] for _ in range(2000)])
    ours, theirs = evaluate_played(boards, rules), evaluate_boards(resolve_boards(boards, rules),
                                                                   rules)
    for name in ("fouled", "stays", "entry_cards"):
        assert (getattr(ours, name) == getattr(theirs, name)).all(), name
    for name in ("values", "strengths", "royalties"):
        for row in ROWS:
            assert (getattr(ours, name)[row] == getattr(theirs, name)[row]).all(), (name, row)


def test_the_bots_row_ranks_are_the_evaluators():
    rng = np.random.default_rng(3)
    two_decks = np.repeat(np.arange(52), 2)
    one_suit_or_two = np.repeat(np.array([c for c in range(52) if c % 4 < 2]), 2)
    for size, row in ((5, "middle"), (3, "top")):
        for deck in (np.arange(52), two_decks, one_suit_or_two):  # flushes and copies too
            cards = np.array([rng.permutation(deck)[:size] for _ in range(3000)])
            for variant in ("pineapple", "deuce"):
                rules = find_rules(variant)
                assert (ranks.row_values(row, cards, rules)
                        == board_module.row_values(row, cards, rules)).all()
            assert (ranks.row_strengths(cards) == board_module.row_strengths(cards)).all()
    every = np.array(list(product(range(13), repeat=5)))  # the sorting network, exhaustively
    assert (ranks.rank_index(every) == np.sort(every, axis=1) @ 13 ** np.arange(4, -1, -1)).all()
