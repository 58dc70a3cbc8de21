"""Rows and boards holding jokers, as the opponent bot plays them: each joker a face.

A joker stands for the face that makes the set worth the most without fouling, and may be
played down to keep the set legal (docs/rules.md, "Jokers"). The bot values many boards at
once, so it resolves jokers here in arrays rather than board by board (``evaluate_board``).

On rows of the high scale a row's value is its strength, and royalties, qualifying,
Fantasyland entry and staying never fall as a row gets stronger. Then the best choice for a
whole set is greedy down the foul order: the strongest row (the bottom) at the best it can
play as, each weaker row at the best it can play as without beating the row above it. Any
legal choice is no stronger, row by row, so this one is legal whenever any choice is, and
worth at least as much (``evaluate_board`` chooses the same strengths;
tests/test_opponents_decks.py compares them). Rules with a row of another scale (2-7) are
resolved board by board by ``evaluate_board``.
"""

from __future__ import annotations

import numpy as np

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.optimizer.opponents.ranks import row_strengths, row_values
from fantasyland.evaluator.board_arrays import ROW_SLICES, BoardArrays, from_rows
from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.jokers import substitutes
from fantasyland.evaluator.rules import ROWS, Rules


def play_rows(row: str, cards: np.ndarray, rules: Rules,
              *, cap: np.ndarray | None = None) -> np.ndarray:
    """``cards`` (``(n, 3|5)``, jokers allowed) with each joker replaced by a face: the play
    of most value on ``row``'s scale, among the plays whose strength is at most ``cap`` (one
    per row) where there are such plays, else among all. Rows without jokers are returned as
    they are; ties go to the last choice of ``evaluator.jokers.substitutes``."""
    cards = np.asarray(cards, dtype=np.int64)
    wild = (cards == JOKER).any(axis=1)
    if not wild.any():
        return cards
    which = np.flatnonzero(wild)
    # The bot's arrays repeat rows (one layout, many deals): each distinct row (and cap) is
    # expanded once. A row packs into one int (6 bits a card, then the cap), which sorts far
    # faster than rows do.
    rows = cards[which]
    key = (rows << (6 * np.arange(rows.shape[1]))).sum(axis=1)
    if cap is not None:
        key = key + (np.asarray(cap, dtype=np.int64)[which] << (6 * rows.shape[1]))
    _, first, back = np.unique(key, return_index=True, return_inverse=True)
    owner, played = substitutes(rows[first], rules.deck)
    value = row_values(row, played, rules)
    fits = np.ones(len(owner), dtype=bool) if cap is None else \
        row_strengths(played) <= np.asarray(cap, dtype=np.int64)[which[first]][owner]
    order = np.lexsort((value, fits, owner))  # by owner, then fitting plays, then value
    last = np.r_[owner[order][1:] != owner[order][:-1], True]
    out = cards.copy()
    out[which] = played[order[last]][back.reshape(-1)]
    return out


def _greedy(rules: Rules) -> bool:
    """Whether the greedy choice down the foul order is exact (the module docstring)."""
    return all(rules.scale(row) is Scale.HIGH for row in ROWS)


def resolve_boards(boards: np.ndarray, rules: Rules) -> np.ndarray:
    """``(n, 13)`` boards (jokers allowed) as they play: each joker the face it stands for
    in the set worth the most without fouling (the module docstring)."""
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 13)
    wild = (boards == JOKER).any(axis=1)
    if not wild.any():
        return boards
    out = boards.copy()
    chosen = boards[wild].copy()
    if _greedy(rules):
        cap = None
        for row in tuple(rules.order) + tuple(r for r in ROWS if r not in rules.order):
            part = ROW_SLICES[row]
            chosen[:, part] = play_rows(row, chosen[:, part], rules,
                                        cap=cap if row in rules.order else None)
            cap = row_strengths(chosen[:, part]) if row in rules.order else cap
    else:
        for i, cards in enumerate(chosen.tolist()):
            report = evaluate_board(Board(tuple(cards[:3]), tuple(cards[3:8]),
                                          tuple(cards[8:])), rules=rules)
            chosen[i] = [c for row in ROWS for c in report.row(row).played]
    out[wild] = chosen
    return out


def evaluate_played(boards: np.ndarray, rules: Rules) -> BoardArrays:
    """``evaluate_boards`` of boards that may hold jokers, each played as it is best.

    The same figures as ``evaluate_boards`` (tests/test_opponents.py compares them), but a
    row of the high scale is ranked once, its value being its strength: the bot values
    millions of boards a hand, and ``evaluate_boards`` ranks such a row twice."""
    boards = resolve_boards(boards, rules)
    values = {r: row_values(r, boards[:, ROW_SLICES[r]], rules) for r in ROWS}
    strengths = {r: values[r] if rules.scale(r) is Scale.HIGH
                 else row_strengths(boards[:, ROW_SLICES[r]]) for r in ROWS}
    return from_rows(values, strengths, rules)
