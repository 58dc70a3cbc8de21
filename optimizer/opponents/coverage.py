"""How many pool boards a dealt hand can face: the pool-size check of card removal
(``fantasyland opponents --coverage``; docs/ev-and-opponents.md, "Pool size").

Issue 16 asks that a 17-card hand still face at least 5,000 distinct compatible boards. For
random hands of each size this counts, in the pool that serves the rules, the boards that
fit (as ``draw_boards`` finds them): as (board, relabelling) pairs and as distinct pool
hands (every relabelling of one hand is one board), the exact ones (the player saw no
dealt card) and the placed-only ones (the exact ones and those whose 13 placed cards avoid
the dealt ones), and Kish's effective number of independent boards behind a draw of
``samples`` (``PoolShare.effective_boards``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.cards import Deck
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.draw import (candidate_pairs, dealt_array, draw_boards,
                                                  pool_weights, serving_pool)

#: The figures counted for each hand, in the order the table shows them.
FIGURES = ("exact_pairs", "exact_hands", "placed_pairs", "placed_hands", "effective")


@dataclass(frozen=True)
class Coverage:
    """The figures of ``hands`` random hands of ``cards`` cards: the mean and the least of
    each (``FIGURES``)."""

    cards: int
    hands: int
    mean: dict[str, float]
    least: dict[str, float]

    def record(self) -> dict:
        return {"cards": self.cards, "hands": self.hands, "mean": self.mean,
                "least": self.least}


def hand_coverage(rules: Rules, dealt: Sequence[int], samples: int, seed: int) -> dict:
    """The figures of one dealt hand against the pool that serves ``rules``."""
    pool = serving_pool(rules)
    cards = dealt_array(dealt, deck=rules.deck)
    exact, relaxed = candidate_pairs(pool, cards)
    placed = np.concatenate([exact, relaxed])
    share = draw_boards(pool, cards, samples, seed, weights=pool_weights(pool, rules)).share
    return {"exact_pairs": len(exact), "exact_hands": len(np.unique(exact // 24)),
            "placed_pairs": len(placed), "placed_hands": len(np.unique(placed // 24)),
            "effective": share.effective_boards}


def coverage_hand(seed: int, cards: int, index: int, deck: Deck) -> list[int]:
    """Hand number ``index`` of ``cards`` cards of ``deck`` for ``seed``."""
    rng = np.random.default_rng([seed, cards, index])
    return [deck.cards[i] for i in rng.choice(len(deck.cards), cards, replace=False)]


def pool_coverage(rules: Rules, sizes: Sequence[int], hands: int, samples: int,
                  seed: int) -> list[Coverage]:
    """``Coverage`` of ``hands`` random hands of each of ``sizes`` cards (hand ``i`` of a
    size is ``coverage_hand(seed, size, i)``, the draw of its boards seeded by ``seed + i``)."""
    result = []
    for size in sizes:
        figures = [hand_coverage(rules, coverage_hand(seed, size, i, rules.deck), samples,
                                 seed + i) for i in range(hands)]
        result.append(Coverage(size, hands,
                               {f: float(np.mean([h[f] for h in figures])) for f in FIGURES},
                               {f: float(min(h[f] for h in figures)) for f in FIGURES}))
    return result
