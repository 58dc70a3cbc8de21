"""The enumerator: every candidate row of a dealt hand, scored in one vectorized pass.

A candidate is a subset of the dealt cards (3 for the top, 5 for the middle and bottom),
named by a bitmask over the positions of the dealt cards. For 17 cards that is 680 tops and
6,188 five-card subsets, each ranked once on the shared high scale (and on the 2-7 scale where
a row uses it), then given its royalty and whether it keeps the player in Fantasyland.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from evaluator.board import row_strengths, row_values
from evaluator.cards import Card
from evaluator.handspec import Scale
from evaluator.rules import ROW_SIZE, ROWS, Rules


@cache
def subsets(n: int, k: int) -> np.ndarray:
    """All k-subsets of positions 0..n-1 as an ``(C(n, k), k)`` array, in lexicographic order."""
    array = np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    array.flags.writeable = False
    return array


@cache
def subset_masks(n: int, k: int) -> np.ndarray:
    masks = (np.int64(1) << subsets(n, k)).sum(axis=1)
    masks.flags.writeable = False
    return masks


@dataclass(frozen=True)
class RowCandidates:
    """The surviving candidates of one row, as parallel arrays, in tie-break order (weakest
    first, so ``strength`` is sorted)."""

    row: str
    masks: np.ndarray  # bitmask over positions in the dealt hand
    value: np.ndarray  # on the row's own scale (what row-against-row uses)
    strength: np.ndarray  # on the shared high scale (what the foul order uses)
    royalty: np.ndarray
    stays: np.ndarray  # bool: this row alone keeps the player in Fantasyland
    tiebreak: np.ndarray  # rank by (strength, mask) among all of the row's subsets
    weight: np.ndarray  # what the objective gives this row alone, in its integer units
    bound: np.ndarray  # weight plus the most this row can add to terms shared by the rows

    def __len__(self) -> int:
        return len(self.masks)

    def take(self, keep: np.ndarray) -> RowCandidates:
        return RowCandidates(self.row, *(a[keep] for a in (
            self.masks, self.value, self.strength, self.royalty, self.stays, self.tiebreak,
            self.weight, self.bound)))

    def with_weight(self, weight: np.ndarray, bound: np.ndarray | None = None
                    ) -> RowCandidates:
        weight = np.asarray(weight, dtype=np.int64)
        bound = weight if bound is None else np.asarray(bound, dtype=np.int64)
        return RowCandidates(self.row, self.masks, self.value, self.strength, self.royalty,
                             self.stays, self.tiebreak, weight, bound)


@dataclass(frozen=True)
class Candidates:
    """Candidate rows for one dealt hand under one set of rules."""

    cards: tuple[Card, ...]
    rules: Rules
    top: RowCandidates
    middle: RowCandidates
    bottom: RowCandidates

    def row(self, name: str) -> RowCandidates:
        return getattr(self, name)

    def replace(self, **rows: RowCandidates) -> Candidates:
        return Candidates(self.cards, self.rules, **{r: rows.get(r, self.row(r)) for r in ROWS})

    def without_stays(self) -> Candidates:
        """Only the candidates that do not keep the player in Fantasyland by themselves."""
        return self.replace(**{r: self.row(r).take(~self.row(r).stays) for r in ROWS})

    @property
    def sizes(self) -> dict[str, int]:
        return {row: len(self.row(row)) for row in ROWS}

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        return tuple(card for i, card in enumerate(self.cards) if mask >> i & 1)


def enumerate_candidates(cards: tuple[Card, ...], rules: Rules) -> Candidates:
    """Score every candidate row of ``cards``; rows that foul on their own are left out.

    Dropping a candidate that fails its row's qualifying hand (the 2-7 middle must be 10-high
    or better) is safe: any set that used it would foul.
    """
    dealt = np.asarray(cards, dtype=np.int64)
    n = len(dealt)
    built = {}
    for k in (3, 5):
        positions = subsets(n, k)
        hands = dealt[positions]
        strength = row_strengths(hands)
        # Tie-break rank: stronger first by strength, then by the larger mask. A total order,
        # so that equal optima resolve the same way every time. Candidates are kept in that
        # order, weakest first, so their strengths are sorted: the bounds rely on it (every
        # later ``take`` keeps the order), and the rank is the position.
        masks = subset_masks(n, k)
        order = np.argsort((strength.astype(np.int64) << n) | masks)  # keys are distinct
        built[k] = (hands[order], strength[order], np.arange(len(order)), masks[order])
    rows = {}
    for row in ROWS:
        hands, strength, tiebreak, masks = built[ROW_SIZE[row]]
        value = strength if rules.scale(row) is Scale.HIGH else row_values(row, hands, rules)
        royalty = rules.royalty_table(row)[value]
        candidate = RowCandidates(row, masks, value, strength,
                                  royalty, rules.stay_table(row)[value], tiebreak, royalty,
                                  royalty)
        qualifies = rules.qualify_table(row)[value]
        rows[row] = candidate if qualifies.all() else candidate.take(qualifies)
    return Candidates(tuple(cards), rules, **rows)
