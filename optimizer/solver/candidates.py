"""The enumerator: every candidate row of a dealt hand, scored in one vectorized pass.

A candidate is a subset of the dealt cards (3 for the top, 5 for the middle and bottom),
named by a bitmask over the positions of the dealt cards. For 17 cards that is 680 tops and
6,188 five-card subsets, each ranked once on the shared high scale (and on the 2-7 scale where
a row uses it), then given its royalty and whether it keeps the player in Fantasyland.

A joker is a position like any other. A subset holding jokers can play as several hands, one
for each choice of faces (``evaluator.jokers``), and becomes one candidate for each choice
that can matter, so several candidates may share a mask; what tells them apart is their
tie-break rank, unique in each row. Which choices can matter (``_useful``): two choices of
one subset differ only in the row's strength, value, royalty and stay. A choice is left out
when another choice of the same subset is at least as good on every count that a set can
feel: a royalty and a stay at least as high, and a strength no worse for the foul order.
"No worse" depends on the row: the bottom only has to beat the rows below it, so higher is
never worse; the top only has to stay under them, so lower is never worse; the middle must
beat the top and stay under the bottom, so two of its choices are comparable only where no
top of this hand could tell them apart (no top candidate's strength lies between them):
among such choices the lower is never worse. When the objective also compares the rows
with opponents' (the EV), a higher value counts too, and only the bottom (whose value rises
with its strength) is reduced.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from evaluator.board import row_strengths, row_values
from evaluator.cards import JOKER, Card
from evaluator.handspec import Scale
from evaluator.jokers import substitutes
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
    # The face each joker of the dealt hand stands for in this candidate, one column per
    # joker in position order; -1 where the candidate does not hold that joker. Without
    # jokers it has no columns, and is not cut down with the rest (nothing reads its rows).
    faces: np.ndarray

    def __len__(self) -> int:
        return len(self.masks)

    def take(self, keep: np.ndarray) -> RowCandidates:
        return RowCandidates(self.row, *(a[keep] for a in (
            self.masks, self.value, self.strength, self.royalty, self.stays, self.tiebreak,
            self.weight, self.bound)), self.faces[keep] if self.faces.shape[1] else self.faces)

    def with_weight(self, weight: np.ndarray, bound: np.ndarray | None = None
                    ) -> RowCandidates:
        weight = np.asarray(weight, dtype=np.int64)
        bound = weight if bound is None else np.asarray(bound, dtype=np.int64)
        return RowCandidates(self.row, self.masks, self.value, self.strength, self.royalty,
                             self.stays, self.tiebreak, weight, bound, self.faces)

    def index_of(self, rank: int) -> int:
        """The candidate whose tie-break rank is ``rank`` (ranks are unique in a row)."""
        return int(np.flatnonzero(self.tiebreak == rank)[0])


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

    @property
    def has_jokers(self) -> bool:
        return JOKER in self.cards

    def chosen(self, ranks: dict[str, int]) -> tuple[dict[str, int], tuple[Card, ...]]:
        """The set whose rows have the tie-break ``ranks``: each row's mask, and the faces
        its jokers stand for in board order (each row from its highest position down, as
        ``mode.board_of`` lays the rows out)."""
        masks, faces = {}, []
        for row in ROWS:
            rc = self.row(row)
            i = rc.index_of(ranks[row])
            masks[row] = int(rc.masks[i])
            if rc.faces.shape[1]:
                faces += [int(f) for f in rc.faces[i][::-1] if f >= 0]
        return masks, tuple(faces)


def by_mask(masks: np.ndarray, n: int, values: np.ndarray, fill: int, shared: bool = True):
    """Look candidates up by mask: ``(width, lookup)``, where ``lookup(m)`` gives, for an
    array of masks over ``n`` positions, the ``values`` of the candidates with each mask,
    along a new last axis of ``width`` (``fill`` where a mask names fewer, or none). Without
    jokers a mask names one candidate at most and ``width`` is 1: a caller that knows it
    (``shared=False``, the hand holds no joker) skips finding it out."""
    values = np.asarray(values)
    width = 1
    if shared:
        order = np.argsort(masks, kind="stable")
        distinct, start, count = np.unique(masks[order], return_index=True,
                                           return_counts=True)
        width = int(count.max()) if len(count) else 1
    if width == 1:
        table = np.full(1 << n, fill, dtype=values.dtype)
        table[masks] = values
        return 1, lambda m: table[m][..., None]
    start_of = np.zeros(1 << n, dtype=np.int64)
    count_of = np.zeros(1 << n, dtype=np.int64)
    start_of[distinct], count_of[distinct] = start, count
    ordered, slots = values[order], np.arange(width)

    def lookup(m: np.ndarray) -> np.ndarray:
        at = start_of[m][..., None] + slots
        return np.where(slots < count_of[m][..., None], ordered[np.minimum(at, len(order) - 1)],
                        fill)
    return width, lookup


def _first_in_group(group: np.ndarray) -> np.ndarray:
    return np.concatenate([[True], group[1:] != group[:-1]]) if len(group) else group.astype(bool)


def _earlier_max(group: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For each entry of sorted ``group`` ids: the largest of ``values`` at the entries before
    it in its group (very low where there are none)."""
    low = np.int64(-(1 << 40))
    if not len(values):
        return values
    span = np.int64(1 << 42)
    running = np.maximum.accumulate(values + group * span) - group * span
    before = np.concatenate([[low], running[:-1]])
    return np.where(_first_in_group(group), low, before)


def _useful(row: str, rules: Rules, mask: np.ndarray, strength: np.ndarray,
            royalty: np.ndarray, stays: np.ndarray, owner_has_jokers: np.ndarray,
            compares_rows: bool, beaten: dict[str, np.ndarray]) -> np.ndarray:
    """Which candidates to keep among those of one row: every one without jokers, and of a
    subset's choices of faces, those that another choice does not dominate (the module's
    docstring says when one does)."""
    keep = np.ones(len(mask), dtype=bool)
    which = np.flatnonzero(owner_has_jokers)
    if not len(which):
        return keep
    beats = [weaker for stronger, weaker in rules.order_pairs if stronger == row]
    under = [stronger for stronger, weaker in rules.order_pairs if weaker == row]
    high = rules.scale(row) is Scale.HIGH
    if compares_rows and (under or not high):
        return keep  # a higher value wins more, a lower strength fouls less: all can matter
    s = strength[which]
    if under and beats:
        # Alike for the rows below: no strength of theirs lies between the two.
        below = np.unique(np.concatenate([beaten[other] for other in beats]))
        alike = np.searchsorted(below, s, side="right")
        direction = s  # among choices alike for the rows below, the lower first
    else:
        alike = np.zeros(len(which), dtype=np.int64)
        direction = s if under else -s  # the top: lower first; the bottom: higher first
    order = np.lexsort((direction, alike, mask[which]))
    key = (mask[which] << 20 | alike)[order]  # masks hold at most 17 positions
    group = np.cumsum(np.concatenate([[0], key[1:] != key[:-1]]))
    r, t = royalty[which][order], stays[which][order]
    best_any = _earlier_max(group, r)
    best_stay = _earlier_max(group, np.where(t, r, -(1 << 40)))
    dominated = np.where(t, best_stay >= r, best_any >= r)
    keep[which[order[dominated]]] = False
    return keep


def enumerate_candidates(cards: tuple[Card, ...], rules: Rules,
                         compares_rows: bool = True) -> Candidates:
    """Score every candidate row of ``cards``; rows that foul on their own are left out.

    Dropping a candidate that fails its row's qualifying hand (the 2-7 middle must be 10-high
    or better) is safe: any set that used it would foul. A subset holding jokers gives one
    candidate for each choice of faces that can matter (the module's docstring); whether the
    rows' values count beyond their royalties (``compares_rows``, as under the EV) decides
    which can.
    """
    dealt = np.asarray(cards, dtype=np.int64)
    n = len(dealt)
    joker_positions = np.flatnonzero(dealt == JOKER)
    built = {}
    for k in (3, 5):
        positions = subsets(n, k)
        hands = dealt[positions]
        masks = subset_masks(n, k)
        if len(joker_positions):
            owner, hands = substitutes(hands, rules.deck)
            masks = masks[owner]
            held = positions[owner][:, :, None] == joker_positions[None, None, :]
            faces = np.where(held.any(axis=1), (hands[:, :, None] * held).sum(axis=1), -1)
            strength = row_strengths(hands)
            # One candidate per distinct strength of a subset (choices alike on the scale)
            _, first = np.unique(masks << 16 | strength, return_index=True)
            hands, masks, strength, faces = hands[first], masks[first], strength[first], \
                faces[first]
        else:
            strength = row_strengths(hands)
            faces = np.full((len(masks), 0), -1, dtype=np.int64)
        # Tie-break rank: stronger first by strength, then by the larger mask. A total order,
        # so that equal optima resolve the same way every time. Candidates are kept in that
        # order, weakest first, so their strengths are sorted: the bounds rely on it (every
        # later ``take`` keeps the order), and the rank is the position.
        order = np.argsort((strength.astype(np.int64) << n) | masks)  # keys are distinct
        built[k] = (hands[order], strength[order], np.arange(len(order)), masks[order],
                    faces[order])
    rows = {}
    for row in ROWS:
        hands, strength, tiebreak, masks, faces = built[ROW_SIZE[row]]
        value = strength if rules.scale(row) is Scale.HIGH else row_values(row, hands, rules)
        royalty = rules.royalty_table(row)[value]
        stays = rules.stay_table(row)[value]
        candidate = RowCandidates(row, masks, value, strength, royalty, stays, tiebreak,
                                  royalty, royalty, faces)
        keep = rules.qualify_table(row)[value]
        if len(joker_positions):
            jokers = (masks[:, None] >> joker_positions[None, :] & 1).any(axis=1)
            beaten = {other: built[ROW_SIZE[other]][1] for other in ROWS}
            keep = keep & _useful(row, rules, masks, strength, royalty, stays,
                                  jokers & keep, compares_rows, beaten)
        rows[row] = candidate if keep.all() else candidate.take(keep)
    return Candidates(tuple(cards), rules, **rows)
