"""How far the pool's boards, drawn for a dealt hand, are from the bot's live play without
those cards: the measured error of card removal (``fantasyland opponents --check``;
docs/ev-and-opponents.md, "Card removal")."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fantasyland.evaluator.board import Board, BoardReport, evaluate_board, row_strengths
from fantasyland.evaluator.board_arrays import ROW_SLICES
from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.evaluator.scoring import settle
from fantasyland.evaluator.strength import CLASS_OF_STRENGTH
from fantasyland.optimizer.opponents.draw import (board_stats, candidate_pairs, dealt_array,
                                                  pair_boards, pair_jokers, serving_pool)
from fantasyland.optimizer.opponents.players import pool_player
from fantasyland.optimizer.opponents.pools import play_hands


def _class_shares(boards: np.ndarray) -> dict[str, np.ndarray]:
    strengths = {row: row_strengths(boards[:, ROW_SLICES[row]]) for row in ROWS}
    return {row: np.bincount(CLASS_OF_STRENGTH[s], minlength=9) / len(boards)
            for row, s in strengths.items()}


def _points_against(rules: Rules, ours: BoardReport, boards: np.ndarray,
                    jokers: np.ndarray | None = None) -> np.ndarray:
    """What ``ours`` wins against each board (played faces; ``jokers`` marks the slots that
    hold a joker, so that each board is scored as the board it is, jokers and their faces)."""
    jokers = np.zeros(boards.shape, dtype=bool) if jokers is None else jokers
    points = []
    for b, j in zip(boards.tolist(), jokers.tolist()):
        held = [JOKER if wild else card for card, wild in zip(b, j)]
        faces = tuple(card for card, wild in zip(b, j) if wild)
        board = Board(tuple(held[:3]), tuple(held[3:8]), tuple(held[8:]), faces)
        points.append(settle(ours, evaluate_board(board, rules=rules)))
    return np.array(points, dtype=float)


def removal_check(rules: Rules, dealt: Sequence[int], ours: BoardReport, hands: int, seed: int,
                  *, workers: int = 1) -> dict:
    """How far the pool's draws for ``dealt`` are from the bot's live play without them.

    ``hands`` live hands from the reduced deck are compared with as many boards drawn from
    the pool three ways: ``exact`` (boards whose player saw no dealt card: what
    ``opponent_boards`` uses while there are enough), ``placed_only`` (boards whose 13 placed
    cards avoid the dealt ones, discards ignored: the fallback) and ``no_removal`` (the pool
    as it is, for scale). For each: the calibration figures, the total variation distance of
    each row's hand-class shares from live play, and the mean points that ``ours``, a set of
    ``dealt`` (the command passes its best-royalty set), wins against the boards (1-6 scoring
    of ``rules``).
    """
    cards = dealt_array(dealt, deck=rules.deck)
    pool = serving_pool(rules)
    played = play_hands(rules, pool.dealing, hands, seed, player=pool_player(pool, rules),
                        removed=cards, workers=workers)
    live = played.boards
    exact_pairs, relaxed_pairs = candidate_pairs(pool, cards)
    rng = np.random.default_rng(seed)
    samples = {
        "exact": exact_pairs,
        "placed_only": np.concatenate([exact_pairs, relaxed_pairs]),
        "no_removal": np.arange(len(pool)) * 24,
    }
    live_shares = _class_shares(live)
    live_points = _points_against(rules, ours, live, played.jokers)
    result = {"dealt": len(cards), "hands": hands, "set": ours.board.format(ascii=True),
              "exact_pairs": len(exact_pairs), "relaxed_pairs": len(relaxed_pairs),
              "live": board_stats(rules, live) | {
                  "points": float(live_points.mean()),
                  "points_se": float(live_points.std() / np.sqrt(hands))}}
    for name, pairs in samples.items():
        chosen = rng.choice(pairs, min(hands, len(pairs)), replace=False)
        boards = pair_boards(pool, chosen)
        shares = _class_shares(boards)
        points = _points_against(rules, ours, boards, pair_jokers(pool, chosen))
        result[name] = board_stats(rules, boards) | {
            "points": float(points.mean()),
            "points_se": float(points.std() / np.sqrt(len(points))),
            "class_tvd": {row: float(np.abs(shares[row] - live_shares[row]).sum() / 2)
                          for row in ROWS}}
    return result
