"""The enumerator: every candidate row of a dealt hand, scored in one vectorized pass.

A candidate is a subset of the dealt cards (3 for the top, 5 for the middle and bottom),
named by a bitmask over the positions of the dealt cards. For 17 cards that is 680 tops and
6,188 five-card subsets, each ranked once on the shared high scale (and on the 2-7 scale where
a row uses it), then given its royalty and whether it keeps the player in Fantasyland.

A joker is a position like any other. A subset holding jokers can play as several hands, one
for each choice of faces (``evaluator.jokers``), and becomes one candidate for each distinct
strength that can matter (``joker_rows`` says which, and why the others cannot), so several
candidates may share a mask; what tells them apart is their tie-break rank, unique in each
row. Which faces make a candidate's strength is worked out only for the set that is shown
(``Candidates.chosen``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations

import numpy as np

from fantasyland.evaluator.board import row_strengths, row_values
from fantasyland.evaluator.cards import JOKER, Card
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Row, Rules
from fantasyland.evaluator.strength import CLASS_OF_STRENGTH
from fantasyland.optimizer.solver.joker_rows import Choices, joker_choices, patterns_of


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
    tiebreak: np.ndarray  # the rank: (strength, mask) as one number, unique in the row
    weight: np.ndarray  # what the objective gives this row alone, in its integer units
    bound: np.ndarray  # weight plus the most this row can add to terms shared by the rows
    jokers: np.ndarray  # how many jokers the candidate holds

    def __len__(self) -> int:
        return len(self.masks)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.masks, self.value, self.strength, self.royalty, self.stays, self.tiebreak,
                self.weight, self.bound, self.jokers)

    def take(self, keep: np.ndarray) -> RowCandidates:
        return RowCandidates(self.row, *(a[keep] for a in self.arrays()))

    def with_weight(self, weight: np.ndarray, *, bound: np.ndarray | None = None
                    ) -> RowCandidates:
        weight = np.asarray(weight, dtype=np.int64)
        bound = weight if bound is None else np.asarray(bound, dtype=np.int64)
        return RowCandidates(self.row, self.masks, self.value, self.strength, self.royalty,
                             self.stays, self.tiebreak, weight, bound, self.jokers)

    def index_of(self, rank: int) -> int:
        """The candidate whose tie-break rank is ``rank`` (ranks are unique in a row)."""
        return int(np.flatnonzero(self.tiebreak == rank)[0])


@dataclass(frozen=True)
class Candidates:
    """Candidate rows for one dealt hand under one set of rules, and the middles whose
    building is put off (``Deferred``; None when there are none)."""

    cards: tuple[Card, ...]
    rules: Rules
    top: RowCandidates
    middle: RowCandidates
    bottom: RowCandidates
    deferred: Deferred | None = None

    def row(self, name: str) -> RowCandidates:
        return getattr(self, name)

    def replace(self, **rows: RowCandidates) -> Candidates:
        return Candidates(self.cards, self.rules, **{r: rows.get(r, self.row(r)) for r in ROWS},
                          deferred=self.deferred)

    def with_deferred(self, *, which: np.ndarray | None = None) -> Candidates:
        """The candidates with the deferred middles that ``which`` marks (all by default)
        built and among the middles, and none deferred."""
        middle = self.middle
        if self.deferred is not None:
            built = self.deferred.build(which=which)
            if len(built):
                both = RowCandidates(middle.row, *(np.concatenate([a, b]) for a, b in zip(
                    middle.arrays(), built.arrays())))
                middle = both.take(np.argsort(both.tiebreak))
        return Candidates(self.cards, self.rules, self.top, middle, self.bottom)

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

    @property
    def joker_count(self) -> int:
        return self.cards.count(JOKER)

    def chosen(self, ranks: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
        """The set whose rows have the tie-break ``ranks``: each row's mask, and the strength
        each row plays at (what its jokers' faces must make: ``evaluator.board.faces_playing``
        chooses them)."""
        masks, strengths = {}, {}
        for row in ROWS:
            rc = self.row(row)
            i = rc.index_of(ranks[row])
            masks[row], strengths[row] = int(rc.masks[i]), int(rc.strength[i])
        return masks, strengths


def preferred(bottom: np.ndarray, middle: np.ndarray, top: np.ndarray) -> int:
    """Of sets given by their rows' tie-break ranks (arrays over the sets), the index of the
    one the tie-break prefers: the highest bottom, then middle, then top."""
    return int(np.lexsort((top, middle, bottom))[-1])


def by_mask(masks: np.ndarray, n: int, values: np.ndarray, fill: int | np.integer,
            *, shared: bool = True):
    """Look candidates up by mask: ``(width, lookup)``, where ``lookup(m)`` gives, for an
    array of masks over ``n`` positions, the ``values`` of the candidates with each mask,
    along a new last axis of ``width`` (``fill`` where a mask names fewer, or none). Without
    jokers a mask names one candidate at most and ``width`` is 1: a caller that knows it
    (``shared=False``, the hand holds no joker) skips finding it out."""
    values = np.asarray(values)
    width = 1
    if shared and len(masks):
        order = np.argsort(masks, kind="stable")
        ordered_masks = masks[order]
        start = np.flatnonzero(np.concatenate([[True], ordered_masks[1:] != ordered_masks[:-1]]))
        distinct = ordered_masks[start]
        count = np.diff(np.append(start, len(masks)))
        width = int(count.max()) if len(count) else 1
    if width == 1:
        table = np.full(1 << n, fill, dtype=values.dtype)
        table[masks] = values
        return 1, lambda m: table[m][..., None]
    start_of = np.zeros(1 << n, dtype=np.int32)
    count_of = np.zeros(1 << n, dtype=np.int16)
    start_of[distinct], count_of[distinct] = start, count
    ordered, slots = values[order], np.arange(width)

    def lookup(m: np.ndarray) -> np.ndarray:
        at = start_of[m][..., None] + slots
        return np.where(slots < count_of[m][..., None], ordered[np.minimum(at, len(order) - 1)],
                        fill)
    return width, lookup


def _ranked(masks: np.ndarray, strength: np.ndarray, n: int) -> np.ndarray:
    """Each candidate's tie-break rank: stronger first by strength, then by the larger mask,
    as one number. A total order, so that equal optima resolve the same way every time."""
    return (strength.astype(np.int64) << n) | masks


def _row(row: str, rules: Rules, masks: np.ndarray, strength: np.ndarray, value: np.ndarray,
         jokers: np.ndarray, n: int) -> RowCandidates:
    """The candidates of ``row``, given by these arrays, in tie-break order: weakest first,
    so their strengths are sorted. The bounds rely on it, and every later ``take`` keeps the
    order."""
    rank = _ranked(masks, strength, n)
    order = np.argsort(rank)
    masks, strength, value, jokers = masks[order], strength[order], value[order], jokers[order]
    royalty = rules.royalty_table(row)[value]
    stays = rules.stay_table(row)[value]
    return RowCandidates(row, masks, value, strength, royalty, stays, rank[order], royalty,
                         royalty, jokers)


def enumerate_candidates(cards: tuple[Card, ...], rules: Rules,
                         *, compares_rows: bool = True) -> Candidates:
    """Score every candidate row of ``cards``; rows that foul on their own are left out.

    Dropping a candidate that fails its row's qualifying hand (the 2-7 middle must be 10-high
    or better) is safe: any set that used it would foul. A subset holding jokers gives one
    candidate for each choice of strength that can matter (``joker_rows``); whether the rows'
    values count beyond their royalties (``compares_rows``, as under the EV) decides which
    can. Where they do not, the middles that pay nothing by themselves are deferred
    (``Deferred``).
    """
    dealt = np.asarray(cards, dtype=np.int64)
    n = len(dealt)
    if JOKER in cards:
        return _with_jokers(cards, dealt, rules, compares_rows)
    built = {}
    for k in (3, 5):
        hands = dealt[subsets(n, k)]
        masks = subset_masks(n, k)
        strength = row_strengths(hands)
        rank = _ranked(masks, strength, n)
        order = np.argsort(rank)  # keys are distinct
        built[k] = (hands[order], strength[order], masks[order], rank[order],
                    np.zeros(len(masks), np.int8))
    rows = {}
    for row in ROWS:
        hands, strength, masks, rank, jokers = built[ROW_SIZE[row]]
        value = strength if rules.scale(row) is Scale.HIGH else row_values(row, hands, rules)
        royalty = rules.royalty_table(row)[value]
        candidate = RowCandidates(row, masks, value, strength, royalty,
                                  rules.stay_table(row)[value], rank, royalty, royalty, jokers)
        keep = rules.qualify_table(row)[value]
        rows[row] = candidate if keep.all() else candidate.take(keep)
    return Candidates(tuple(cards), rules, top=rows["top"], middle=rows["middle"],
                      bottom=rows["bottom"])


@dataclass(frozen=True)
class Bands:
    """Deferred middles by band: each one's ``band``; the order that groups them by band
    (``order``, each band from ``starts``), and each band's weakest and strongest
    strength and its jokers."""

    band: np.ndarray
    order: np.ndarray
    starts: np.ndarray
    low: np.ndarray
    high: np.ndarray
    jokers: np.ndarray

    def best(self, values: np.ndarray) -> np.ndarray:
        """The largest of ``values`` (one per middle) in each band."""
        return np.maximum.reduceat(values[self.order], self.starts)


@dataclass(frozen=True)
class Deferred:
    """Middles not built yet: the choices of subsets holding jokers that pay nothing by
    themselves (no royalty, no stay), a joker played down so that the other rows can pay.
    Most of a joker hand's middles are such, and few can be in a best set: a set through one
    is worth no more than its bound, which needs only its strength and its jokers (``probe``).
    A mode's search builds those whose bound reaches its incumbent (``build``)."""

    choices: Choices  # the middle's choices by pattern; ``later`` marks the deferred ones
    later: np.ndarray
    masks: np.ndarray  # each joker subset's mask
    jokers: np.ndarray  # each pattern's jokers
    rules: Rules
    n: int

    @cached_property
    def probe(self) -> RowCandidates:
        """One candidate per deferred choice of a pattern, for bounds only: maskless, in
        strength order, its ``tiebreak`` the choice's place in the order ``build`` reads."""
        later = np.flatnonzero(self.later)
        # Strengths fit 16 bits, which numpy sorts stably by radix.
        place = np.argsort(self.choices.strength[later].astype(np.int16), kind="stable")
        at = later[place]
        strength, value = self.choices.strength[at], self.choices.value[at]
        jokers = self.jokers[self.choices.choice_pattern[at]]
        royalty = self.rules.royalty_table(Row.MIDDLE)[value]
        return RowCandidates(Row.MIDDLE, np.zeros(len(at), np.int64), value, strength, royalty,
                             self.rules.stay_table(Row.MIDDLE)[value], place, royalty, royalty,
                             jokers)

    @cached_property
    def bands(self) -> Bands:
        """The probe's candidates in bands of one hand class and one count of jokers, for a
        first bound on many at once (``joker_bounds.JokerChain.others_within``)."""
        probe = self.probe
        key = CLASS_OF_STRENGTH[probe.strength].astype(np.int64) * 3 + probe.jokers
        order = np.argsort(key.astype(np.int16), kind="stable")  # by band, in strength order
        starts = np.flatnonzero(np.concatenate([[True], key[order][1:] != key[order][:-1]]))
        strength = probe.strength[order]
        band = np.empty(len(key), dtype=np.int64)
        band[order] = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(key))))
        return Bands(band, order, starts, strength[starts],
                     np.append(strength[starts[1:] - 1], strength[-1:])[:len(starts)],
                     key[order][starts] % 3)


    def build(self, *, which: np.ndarray | None = None) -> RowCandidates:
        """The candidates of every subset for the deferred choices ``which`` marks (in the
        order of ``probe``; all by default)."""
        later = self.later.copy()
        if which is not None:
            later[np.flatnonzero(later)] = which
        owner, strength, value = self.choices.expand(which=later)
        return _row(Row.MIDDLE, self.rules, self.masks[owner], strength, value,
                    self.jokers[self.choices.pattern[owner]], self.n)


def _with_jokers(cards: tuple[Card, ...], dealt: np.ndarray, rules: Rules,
                 compares_rows: bool) -> Candidates:
    """``enumerate_candidates`` for a hand holding jokers: the subsets without one as they
    are, and those with one by their patterns' useful choices (``joker_rows``)."""
    n = len(dealt)
    is_joker = dealt == JOKER
    by_size = {}
    for k in (3, 5):
        positions, masks = subsets(n, k), subset_masks(n, k)
        holds = is_joker[positions].any(axis=1)
        plain = dealt[positions[~holds]]
        patterns = patterns_of(dealt[positions[holds]])
        jokers = np.zeros(len(patterns[0]), dtype=np.int8)  # each pattern's jokers
        jokers[patterns[1]] = is_joker[positions[holds]].sum(axis=1)
        by_size[k] = (masks, holds, plain, row_strengths(plain), patterns, jokers)
    rows, deferred = {}, None
    for row in ROWS:
        masks, holds, plain, strength, patterns, jokers = by_size[ROW_SIZE[row]]
        value = strength if rules.scale(row) is Scale.HIGH else row_values(row, plain, rules)
        keep = rules.qualify_table(row)[value]
        choices = joker_choices(patterns, row, rules, compares_rows)
        now = None
        if row == Row.MIDDLE and not compares_rows:
            later = (rules.royalty_table(row)[choices.value] == 0) & ~rules.stay_table(row)[
                choices.value]
            if later.any():
                deferred = Deferred(choices, later, masks[holds], jokers, rules, n)
                now = ~later
        owner, joker_strength, joker_value = choices.expand(which=now)
        rows[row] = _row(row, rules, np.concatenate([masks[~holds][keep], masks[holds][owner]]),
                         np.concatenate([strength[keep], joker_strength]).astype(strength.dtype),
                         np.concatenate([value[keep], joker_value]).astype(value.dtype),
                         np.concatenate([np.zeros(int(keep.sum()), np.int8),
                                         jokers[choices.pattern[owner]]]), n)
    return Candidates(tuple(cards), rules, **rows, deferred=deferred)
