"""An unfinished board, finished by the bot: the rounds still to come are read off its placed
cards, what it shows stays where it is, and the rest comes from the cards left."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.cards import parse_cards
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.opponents.bot import ONE_AT_A_TIME, THREE_KEEP_TWO, BotParams
from fantasyland.optimizer.opponents.draw import POOL_VARIABLE, serving_bot
from fantasyland.optimizer.opponents.params import explicit
from fantasyland.optimizer.opponents.learned.shipped import shipped_digest
from fantasyland.optimizer.opponents.players import (HeuristicPlayer, LearnedPlayer, build_pool,
                                                     heuristic)
from fantasyland.optimizer.opponents.pools import STRONG_PARAMS, play_hands, pool_bot, table_odds
from fantasyland.optimizer.opponents.unfinished import complete, play_live, rounds_to_come


@pytest.mark.parametrize("dealing, placed, rounds, hidden", [
    (THREE_KEEP_TWO, 0, [(5, 5)] + [(3, 2)] * 4, 0),  # nothing seen yet: a whole hand
    (THREE_KEEP_TWO, 3, [(2, 2)] + [(3, 2)] * 4, 0),  # the first five half placed
    (THREE_KEEP_TWO, 5, [(3, 2)] * 4, 0),             # after the first five
    (THREE_KEEP_TWO, 9, [(3, 2)] * 2, 2),             # two rounds played, two thrown away
    (THREE_KEEP_TWO, 10, [(1, 1)] + [(3, 2)], 3),     # a round half placed
    (THREE_KEEP_TWO, 13, [], 4),                      # finished
    (ONE_AT_A_TIME, 7, [(1, 1)] * 6, 0),              # classic OFC throws nothing away
])
def test_the_rounds_to_come_follow_the_dealing(dealing, placed, rounds, hidden):
    assert rounds_to_come(dealing, placed) == (rounds, hidden)


def test_a_board_finished_by_the_bot_keeps_its_cards_in_their_rows():
    rules = find_rules("pineapple")
    rows = {"top": parse_cards("Kh Kc"), "middle": parse_cards("7d 8d"),
            "bottom": parse_cards("2h")}
    shown = [c for row in rows.values() for c in row]
    dealt = parse_cards("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s")
    left = [c for c in range(52) if c not in shown and c not in dealt]
    board, thrown = complete(rules, rows, left, np.random.default_rng(3), serving_bot(rules))
    assert set(rows["top"]) <= set(board[:3]) and set(rows["middle"]) <= set(board[3:8])
    assert set(rows["bottom"]) <= set(board[8:])
    new = [c for c in board if c not in shown]
    # four rounds of three cards, two kept each: eight placed and four thrown away
    assert len(new) == 8 and len(thrown) == 4 and set(new + list(thrown)) <= set(left)
    assert len(set(board)) == 13
    evaluate_board(Board(board[:3], board[3:8], board[8:]), rules=rules)  # a board of 13 cards


def test_boards_made_live_are_played_by_the_bot_of_the_pool_that_serves(tmp_path,
                                                                        monkeypatch):
    # The live bot is the one that played the pool: a pool the stronger bot played makes
    # the live boards the stronger bot's, valued against the table's odds; the first bot's
    # pool, the first bot's, which counts royalties.
    rules = find_rules("pineapple")
    first = play_hands(rules, THREE_KEEP_TWO, 1, 0, player=heuristic(rules, BotParams()))
    first.save(tmp_path / "first.npz")
    monkeypatch.setenv(POOL_VARIABLE, str(tmp_path / "first.npz"))
    assert serving_bot(rules) == HeuristicPlayer(rules, BotParams())
    assert serving_bot(rules).odds is None
    strong = build_pool(rules, hands=1, bot="strong", knobs=["samples=8"])
    assert pool_bot(strong) == explicit(replace(STRONG_PARAMS[THREE_KEEP_TWO.name], samples=8))
    path = tmp_path / "strong.npz"
    strong.save(path)
    monkeypatch.setenv(POOL_VARIABLE, str(path))
    player = serving_bot(rules)
    assert isinstance(player, HeuristicPlayer)
    assert player.params == pool_bot(strong) and player.params.table_points
    assert player.odds is table_odds(rules)


def _learned_decisions(rules, rows, left, seed):
    """``complete``'s board, replayed decision by decision by Pineapple's learned bot itself
    (``learned_bot``), from the same stream of cards."""
    from fantasyland.optimizer.opponents.bot import deck_counts, remaining
    from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS
    from fantasyland.optimizer.opponents.learned.shipped import learned_bot

    bot = learned_bot(find_rules("pineapple"))
    rng = np.random.default_rng(seed)
    layout = np.full(13, EMPTY, dtype=np.int64)
    for row in ("top", "middle", "bottom"):
        layout[list(ROW_SLOTS[row])[:len(rows[row])]] = rows[row]
    rounds, hidden = rounds_to_come(THREE_KEEP_TWO, sum(map(len, rows.values())))
    stream = rng.permutation(np.asarray(left)).tolist()
    unseen = deck_counts(rules.deck)
    np.subtract.at(unseen, [c for r in rows.values() for c in r] + stream[:hidden], 1)
    position = hidden
    for index, (count, keep) in enumerate(rounds):
        new = stream[position:position + count]
        position += count
        np.subtract.at(unseen, new, 1)
        layout = bot(layout, new, keep, remaining(unseen), len(rounds) - 1 - index, rng)
    return [c for row in ("top", "middle", "bottom")
            for c in sorted(layout[ROW_SLOTS[row]].tolist(), reverse=True)]


@pytest.mark.parametrize("variant", ["pineapple", "progressive"])
def test_boards_made_live_under_a_learned_pool_are_the_learned_bots(variant, tmp_path,
                                                                     monkeypatch):
    # A pool the learned bot played makes the live boards its own: an unfinished board is
    # finished, and a hand played whole, by Pineapple's learned bot, decision by decision,
    # also under progressive, which the Pineapple pool serves (its own game has no models
    # of its own to play by: the pool's bot is Pineapple's)
    pineapple = find_rules("pineapple")
    pool = build_pool(pineapple, hands=2, seed=5, bot="learned")
    assert pool.meta["bot"] == "learned" and "params" not in pool.meta
    assert pool.meta["models"] == shipped_digest(pineapple)
    path = tmp_path / "learned.npz"
    pool.save(path)
    monkeypatch.setenv(POOL_VARIABLE, str(path))
    rules = find_rules(variant)
    player = serving_bot(rules)
    assert player == LearnedPlayer(pineapple, shipped_digest(pineapple))
    rows = {"top": parse_cards("Kh Kc"), "middle": parse_cards("7d 8d"),
            "bottom": parse_cards("2h")}
    shown = [c for row in rows.values() for c in row]
    left = [c for c in range(52) if c not in shown]
    board, _ = complete(rules, rows, left, np.random.default_rng(3), player)
    assert list(board) == _learned_decisions(rules, rows, left, 3)
    whole, _ = play_live(rules, list(range(52)), np.random.default_rng(4), player)
    empty = {"top": [], "middle": [], "bottom": []}
    assert list(whole) == _learned_decisions(rules, empty, list(range(52)), 4)
    # and the heuristic bot, which counts differently, plays another board from there
    other, _ = complete(rules, rows, left, np.random.default_rng(3),
                        heuristic(rules, BotParams(samples=8, refine_samples=16)))
    assert list(other) != list(board)
