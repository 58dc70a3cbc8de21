"""An opponent's board in progress, finished by the bot from the cards left in the deck.

What a player sees of an unfinished ordinary hand is its placed cards, row by row; its
discards are face down. ``complete`` deals the rest of the hand from the cards that are
left and lets a player (``optimizer.opponents.players``: the heuristic bot or the learned
one, one decision at a time) place them, as it plays a hand from its first card. The rounds
already played are read off the placed cards: in Pineapple 5 cards, then 2 a round, each
round having thrown one card away unseen. Those unseen discards are drawn at random from the
cards left (the player's own choice of them cannot be known from the board), so they are out
of the cards it is dealt next, and out of what it believes it may still draw.

``play_live`` plays a whole hand from the cards left, for tables whose known cards leave the
pools too few boards (``optimizer.solver.table``).

Both are played by the player that played the pool the opponent model draws from
(``draw.serving_bot``), so that the boards made live and the boards drawn are one
opponent's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.cards import JOKER, Card
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.optimizer.opponents.bot import Dealing, deck_counts, remaining, without
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS
from fantasyland.optimizer.opponents.players import Player
from fantasyland.optimizer.opponents.pools import dealing_for


def rounds_to_come(dealing: Dealing, placed: int) -> tuple[list[tuple[int, int]], int]:
    """The deals still to come for a board with ``placed`` cards, as ``(cards, keep)``, and
    how many cards the player has thrown away unseen so far. A round half placed (an odd
    count in Pineapple) is finished by a deal of the cards it still keeps."""
    if placed < dealing.first:
        return [(dealing.first - placed, dealing.first - placed)] + \
            [(dealing.per_round, dealing.keep)] * dealing.rounds, 0
    done, extra = divmod(placed - dealing.first, dealing.keep)
    played = done + (extra > 0)
    rounds = [(dealing.keep - extra, dealing.keep - extra)] if extra else []
    rounds += [(dealing.per_round, dealing.keep)] * (dealing.rounds - played)
    return rounds, played * (dealing.per_round - dealing.keep)


def as_played(rules: Rules, board: Sequence[Card]) -> tuple[Card, ...]:
    """A finished 13-card board (top, middle, bottom) with each joker the face it plays as
    (the pools store boards so: ``optimizer.opponents.pools``)."""
    if JOKER not in board:
        return tuple(board)
    report = evaluate_board(Board(tuple(board[:3]), tuple(board[3:8]), tuple(board[8:])),
                            rules=rules)
    return tuple(c for row in ROWS for c in report.row(row).played)


def complete(rules: Rules, rows: dict[str, Sequence[Card]], left: Sequence[Card],
             rng: np.random.Generator, bot: Player
             ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Finish the board whose placed cards are ``rows`` from the cards ``left`` in the deck
    (a multiset of ids, ``rows``' cards not among them), played by ``bot``: the finished
    board (jokers as dealt: ``as_played`` gives their faces) and every card the player saw
    that is not on it (unseen discards, old and new)."""
    dealing = dealing_for(rules)
    layout = np.full(13, EMPTY, dtype=np.int64)
    for row in ROWS:
        layout[list(ROW_SLOTS[row])[:len(rows[row])]] = list(rows[row])
    placed = sum(len(rows[row]) for row in ROWS)
    rounds, hidden = rounds_to_come(dealing, placed)
    stream = rng.permutation(np.asarray(list(left), dtype=np.int64)).tolist()
    needed = hidden + sum(count for count, _ in rounds)
    if len(stream) < needed:
        raise ValueError(f"{len(stream)} cards left, and the board needs {needed}")
    thrown = stream[:hidden]
    position = hidden
    unseen = deck_counts(rules.deck)  # what the bot believes it may still draw
    np.subtract.at(unseen, [c for c in layout.tolist() if c != EMPTY] + thrown, 1)
    for index, (count, keep) in enumerate(rounds):
        new = stream[position:position + count]
        position += count
        np.subtract.at(unseen, new, 1)
        layout = np.asarray(bot(layout, new, keep, remaining(unseen), len(rounds) - 1 - index,
                                rng))
    board = [c for row in ROWS for c in sorted(layout[ROW_SLOTS[row]].tolist(), reverse=True)]
    if EMPTY in board:
        raise ValueError(f"the bot left the board unfinished: {board!r}")
    new_on_board = without(np.asarray(board), np.asarray(rows_cards(rows), dtype=np.int64))
    discards = without(np.asarray(stream[:position], dtype=np.int64), new_on_board)
    return tuple(board), tuple(discards.tolist())


def rows_cards(rows: dict[str, Sequence[Card]]) -> list[Card]:
    """The placed cards of a board in progress, top to bottom."""
    return [c for row in ROWS for c in rows[row]]


def play_live(rules: Rules, left: Sequence[Card], rng: np.random.Generator, bot: Player
              ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A whole ordinary hand played by ``bot`` from the cards ``left``: its board (jokers as
    dealt) and its discards."""
    dealing = dealing_for(rules)
    cards = rng.permutation(np.asarray(list(left), dtype=np.int64))[:dealing.seen].tolist()
    hand = bot.play(cards, rng)
    return tuple(hand.board), tuple(hand.discards)
