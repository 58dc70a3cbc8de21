"""Seeded positions of an ordinary hand: a hand dealt from a seed and played by the bot up to a
street, for benchmarks and checks that need many positions of one street."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from fantasyland.evaluator.cards import Card, format_cards
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.bot import choose, deck_counts, remaining
from fantasyland.optimizer.opponents.layout import EMPTY
from fantasyland.optimizer.opponents.pools import dealing_for
from fantasyland.optimizer.ordinary.plays import board_text
from fantasyland.optimizer.ordinary.rollouts import POLICY_SAMPLES


@dataclass(frozen=True)
class DealtPosition:
    """A position as text, the way ``advise`` takes it: the board, the cards just dealt,
    and the player's own discards so far."""

    board: str
    cards: str
    discards: str


def seeded_position(rules: Rules, street: int, seed: int, index: int) -> DealtPosition:
    """Position ``index`` of ``street`` (1 is the first): a hand shuffled from ``[seed,
    index]`` whose earlier streets the stronger bot's first look played."""
    from fantasyland.optimizer.opponents.pools import STRONG_PARAMS

    dealing = dealing_for(rules)
    if not 1 <= street <= dealing.rounds + 1:
        raise ValueError(f"bad street {street!r}: expected 1 to {dealing.rounds + 1}")
    rng = np.random.default_rng([seed, index])
    deck = rng.permutation(np.asarray(rules.deck.cards, dtype=np.int64)).tolist()
    params = replace(STRONG_PARAMS[dealing.name], samples=POLICY_SAMPLES, table_refine=0)
    layout = np.full(13, EMPTY, dtype=np.int64)
    left = deck_counts(rules.deck)
    thrown: list[Card] = []
    position = 0
    rounds = dealing.streets
    for number, (count, keep) in enumerate(rounds[:street - 1]):
        new = deck[position:position + count]
        position += count
        np.subtract.at(left, new, 1)
        before = layout
        layout = choose(rules, dealing, layout, new, keep, remaining(left),
                        len(rounds) - 1 - number, params, rng)
        placed = [c for c in layout.tolist() if c != EMPTY]
        kept = [c for c in before.tolist() if c != EMPTY]
        for card in new:
            if placed.count(card) <= kept.count(card):
                thrown.append(card)
            else:
                kept.append(card)
    count = rounds[street - 1][0]
    return DealtPosition(board_text(layout), format_cards(deck[position:position + count],
                                                          ascii=True),
                         format_cards(thrown, ascii=True))


def seeded_positions(rules: Rules, street: int, seed: int, count: int
                     ) -> list[DealtPosition]:
    """``count`` positions of ``street``, from index 0 up, leaving out those whose board
    already fouls (the bot's first look does foul early sometimes): ``advise`` refuses
    them, as there is nothing to decide."""
    from fantasyland.optimizer.solver.table import already_fouls, read_board

    found: list[DealtPosition] = []
    index = 0
    while len(found) < count:
        dealt = seeded_position(rules, street, seed, index)
        index += 1
        if already_fouls(read_board(dealt.board, rules), rules) is None:
            found.append(dealt)
    return found
