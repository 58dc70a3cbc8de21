"""Where a set ranks among every legal set of its hand.

The percentile of a set is the share of the hand's legal sets that it beats or ties in the
objective, in percent: 100 for an optimal set, and at least 100 / (number of legal sets) for
any legal one, since it ties itself. A *set* is a choice of 3 top, 5 middle and 5 bottom cards
from the dealt hand (the rest are discards), and it is legal when it does not foul. A fouled
set ranks 0: it beats no legal set.

In the royalties objective a set's value depends only on its royalties and whether it stays,
so the legal sets are counted per (royalties, stays) pair. Up to ``EXACT_MAX_CARDS`` cards
every legal set is enumerated (72,072 candidate sets for 13 cards, 40 million for 16);
beyond that, and in any other objective, the share is estimated from legal sets drawn
uniformly at random with an explicit seed, and reported with its standard error.

A set holding jokers counts once, its jokers at the faces that make it worth the most
without fouling (``optimizer.opponents.resolve``, as ``score`` plays them). Such sets are
enumerated at 13 cards and sampled beyond.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.board import Board, row_strengths, row_values
from fantasyland.evaluator.board_arrays import ROW_SLICES
from fantasyland.evaluator.cards import JOKER, Card
from fantasyland.evaluator.rules import ROWS, Row, Rules
from fantasyland.optimizer.opponents.resolve import resolve_boards
from fantasyland.optimizer.solver.candidates import enumerate_candidates, subsets
from fantasyland.optimizer.solver.objective import ObjectiveName

#: Enumerate every set up to this many cards (16 take about a second); sample beyond.
EXACT_MAX_CARDS = 16
#: Legal sets drawn for an estimate in the royalties objective (standard error <= 0.4%).
SAMPLED_SETS = 20_000
#: Legal sets drawn for an estimate in an objective that values each set on its own.
VALUED_SETS = 200
_BATCH = 20_000
_MAX_DRAWS = 2_000_000  # give up drawing when almost every set fouls
_SETS_PER_STEP = 1_000_000  # bounds the enumeration's memory


@dataclass(frozen=True)
class Percentile:
    """The share of legal sets a set beats or ties, in percent."""

    percent: float
    exact: bool  # False: estimated from ``legal_sets`` sampled legal sets
    legal_sets: int  # legal sets counted (exact) or sampled (estimate); 0 for a foul
    beaten_or_tied: int
    stderr: float  # standard error of the estimate in percentage points; 0 when exact


@dataclass(frozen=True)
class RoyaltyCounts:
    """How many legal sets score each (royalties, stays) pair."""

    counts: dict[tuple[int, bool], int]
    exact: bool

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def at_most(self, value: float, fl_value: float, *, tolerance: float = 1e-9) -> int:
        """Legal sets worth ``value`` or less, with ``fl_value`` for staying."""
        return sum(n for (royalties, stays), n in self.counts.items()
                   if royalties + (fl_value if stays else 0.0) <= value + tolerance)


def _free_positions(taken: np.ndarray, n: int, count: int) -> np.ndarray:
    """For each mask of taken positions, the ``count`` positions it leaves, in order."""
    bits = (taken[:, None] >> np.arange(n, dtype=np.int64)) & 1
    return np.argsort(bits, axis=1, kind="stable")[:, :count]


def _order_ok(strengths: dict[str, np.ndarray], rules: Rules) -> np.ndarray:
    size = len(next(iter(strengths.values())))
    ok = np.ones(size, dtype=bool)
    for stronger, weaker in rules.order_pairs:
        if stronger in strengths and weaker in strengths:
            ok &= strengths[stronger] >= strengths[weaker]
    return ok


def _tally(counts: Counter, royalties: np.ndarray, stays: np.ndarray) -> None:
    keys, n = np.unique(royalties.astype(np.int64) * 2 + stays, return_counts=True)
    for key, count in zip(keys.tolist(), n.tolist()):
        counts[(key // 2, bool(key % 2))] += count


def exact_counts(dealt: Sequence[Card], rules: Rules) -> RoyaltyCounts:
    """Every legal set of ``dealt``, counted per (royalties, stays).

    A middle, then a bottom from the cards it leaves, then a top from what is left: each set
    once. Rows that fail a qualifying hand are not candidates, so they never appear.
    """
    n = len(dealt)
    cands = enumerate_candidates(tuple(dealt), rules)
    index = {}
    for row in ROWS:  # mask -> candidate number, -1 for a row that is not a candidate
        table = np.full(1 << n, -1, dtype=np.int64)
        table[cands.row(row).masks] = np.arange(len(cands.row(row)))
        index[row] = table
    top, middle, bottom = cands.top, cands.middle, cands.bottom
    fives, threes = subsets(n - 5, 5), subsets(n - 10, 3)
    counts: Counter = Counter()
    step = max(1, _SETS_PER_STEP // (len(fives) * len(threes)))  # middles per step
    for start in range(0, len(middle), step):
        m = np.arange(start, min(start + step, len(middle)))
        free = _free_positions(middle.masks[m], n, n - 5)
        b = index[Row.BOTTOM][(np.int64(1) << free[:, fives]).sum(axis=2)]
        m = np.broadcast_to(m[:, None], b.shape)[b >= 0]
        b = b[b >= 0]
        keep = _order_ok({Row.MIDDLE: middle.strength[m], Row.BOTTOM: bottom.strength[b]}, rules)
        m, b = m[keep], b[keep]
        free = _free_positions(middle.masks[m] | bottom.masks[b], n, n - 10)
        t = index[Row.TOP][(np.int64(1) << free[:, threes]).sum(axis=2)]
        m = np.broadcast_to(m[:, None], t.shape)[t >= 0]
        b = np.broadcast_to(b[:, None], t.shape)[t >= 0]
        t = t[t >= 0]
        keep = _order_ok({Row.TOP: top.strength[t], Row.MIDDLE: middle.strength[m],
                          Row.BOTTOM: bottom.strength[b]}, rules)
        m, b, t = m[keep], b[keep], t[keep]
        _tally(counts, top.royalty[t] + middle.royalty[m] + bottom.royalty[b],
               top.stays[t] | middle.stays[m] | bottom.stays[b])
    return RoyaltyCounts(dict(counts), exact=True)


def _legal_mask(boards: np.ndarray, rules: Rules) -> tuple[np.ndarray, dict, dict]:
    """For ``(k, 13)`` boards: which are legal, and each row's value and strength (a board
    holding jokers as its jokers play best)."""
    if (boards == JOKER).any():
        boards = resolve_boards(boards, rules)
    values = {r: row_values(r, boards[:, ROW_SLICES[r]], rules) for r in ROWS}
    strengths = {r: row_strengths(boards[:, ROW_SLICES[r]]) for r in ROWS}
    legal = _order_ok(strengths, rules)
    for row in ROWS:
        legal &= rules.qualify_table(row)[values[row]]
    return legal, values, strengths


def sample_legal_boards(dealt: Sequence[Card], rules: Rules, wanted: int,
                        seed: int) -> np.ndarray:
    """Up to ``wanted`` legal sets of ``dealt`` drawn uniformly, as ``(k, 13)`` boards.

    A random order of the dealt cards read as top, middle, bottom, discards is a uniform
    random set (each set has the same number of orders), so keeping the legal ones samples
    the legal sets uniformly.
    """
    rng = np.random.default_rng(seed)
    hand = np.asarray(dealt, dtype=np.int64)
    found, drawn, kept = [], 0, 0
    while kept < wanted and drawn < _MAX_DRAWS:
        order = rng.permuted(np.tile(np.arange(len(hand)), (_BATCH, 1)), axis=1)[:, :13]
        boards = hand[order]
        legal, _, _ = _legal_mask(boards, rules)
        found.append(boards[legal])
        drawn += _BATCH
        kept += int(legal.sum())
    boards = np.concatenate(found)[:wanted]
    return boards


def sampled_counts(dealt: Sequence[Card], rules: Rules, seed: int,
                   *, wanted: int = SAMPLED_SETS) -> RoyaltyCounts:
    """Seeded uniform legal sets of ``dealt``, counted per (royalties, stays)."""
    boards = sample_legal_boards(dealt, rules, wanted, seed)
    counts: Counter = Counter()
    if len(boards):
        _, values, _ = _legal_mask(boards, rules)
        royalties = sum(rules.royalty_table(r)[values[r]] for r in ROWS)
        stays = np.zeros(len(boards), dtype=bool)
        for row in ROWS:
            stays |= rules.stay_table(row)[values[row]]
        _tally(counts, royalties, stays)
    return RoyaltyCounts(dict(counts), exact=False)


def every_board_count(dealt: Sequence[Card], rules: Rules) -> RoyaltyCounts:
    """Every set of 13 dealt cards as a board, valued as ``_legal_mask`` plays it, counted
    per (royalties, stays): the exact count for a hand holding jokers."""
    assert len(dealt) == 13
    hand = np.asarray(dealt, dtype=np.int64)
    middles, bottoms = subsets(13, 5), subsets(8, 5)
    everything = np.arange(13)
    boards = []
    for middle in middles:
        rest = np.setdiff1d(everything, middle)
        for bottom in rest[bottoms]:
            top = np.setdiff1d(rest, bottom)
            boards.append(np.concatenate([top, middle, bottom]))
    boards = hand[np.array(boards)]
    legal, values, _ = _legal_mask(boards, rules)
    royalties = sum(rules.royalty_table(r)[values[r]] for r in ROWS)
    stays = np.zeros(len(boards), dtype=bool)
    for row in ROWS:
        stays |= rules.stay_table(row)[values[row]]
    counts: Counter = Counter()
    _tally(counts, royalties[legal], stays[legal])
    return RoyaltyCounts(dict(counts), exact=True)


def royalty_counts(dealt: Sequence[Card], rules: Rules, *, seed: int = 0) -> RoyaltyCounts:
    """Exact counts up to ``EXACT_MAX_CARDS`` cards (13 with jokers), a seeded sample
    beyond."""
    if JOKER in dealt:
        return every_board_count(dealt, rules) if len(dealt) == 13 else \
            sampled_counts(dealt, rules, seed)
    if len(dealt) <= EXACT_MAX_CARDS:
        return exact_counts(dealt, rules)
    return sampled_counts(dealt, rules, seed)


def _share(hits: int, total: int, exact: bool) -> Percentile:
    if total == 0:
        return Percentile(0.0, exact, 0, 0, 0.0)
    p = hits / total
    stderr = 0.0 if exact else 100 * float(np.sqrt(p * (1 - p) / total))
    return Percentile(100 * p, exact, total, hits, stderr)


def percentile(dealt: Sequence[Card], rules: Rules, value: float, fouled: bool,
               objective: str, fl_value: float, *, seed: int = 0,
               value_of: Callable[[Board], float] | None = None) -> Percentile:
    """The percentile of a set worth ``value`` (see the module docstring).

    In an objective other than royalties, ``value_of`` values each sampled set.
    """
    if fouled:
        return Percentile(0.0, True, 0, 0, 0.0)
    if objective == ObjectiveName.ROYALTIES:
        counts = royalty_counts(dealt, rules, seed=seed)
        return _share(counts.at_most(value, fl_value), counts.total, counts.exact)
    if value_of is None:
        raise ValueError(f"the {objective!r} objective needs value_of to value sampled sets")
    boards = sample_legal_boards(dealt, rules, VALUED_SETS, seed)
    values = [value_of(Board(*(tuple(int(c) for c in b[ROW_SLICES[r]]) for r in ROWS)))
              for b in boards]
    return _share(sum(v <= value + 1e-9 for v in values), len(values), False)

