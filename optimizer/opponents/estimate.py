"""The opponent bot's estimate of a board two or more rounds from finished.

Over ``samples`` random futures (shuffles of the cards the bot has not seen; every layout
being compared shares them), each row draws a pool: the first ``draw_credit``
(``top_credit`` for the top) future cards that help it (``_useful``: pair one of its ranks,
or continue a one-suit or straight five-card row), then cards of its own for the rest of its
empty slots. From its pool each row keeps its best and its worst completion, and the future
is worth the best legal board among those ``2 x 2 x 2`` choices (plans): royalties, plus
``fl_bonus`` if it enters Fantasyland, or minus a foul's cost if it fouls
(``BotParams.estimate_foul_cost``: ``foul_penalty`` unless the knob
``estimate_foul_penalty`` is given). The pools stand for the choice the player will have
(steering useful cards to the row that wants them); the worst completions stand for safe
play.

One card of the future may help two rows at once (a king, for a king on top and a king in
the bottom), so the plan that pairs both counts it twice and a split pair looks strong. The
knob ``estimate_disjoint`` forbids that: a plan in which one future card helps two rows is
no plan, and each row has a third option, its own cards alone, so that some plan stands.

Taking each future's best plan values play as if the future were foreseen, so a chase is
never seen to foul where a safe plan would have done better. Other estimates were measured
and deleted: blending in the one plan best over all futures, a top that takes a pair coming
soon in every plan, no more helpful cards of one deal than are kept, a row's own cards in
order, only helpful cards as a row's choice, the rows' odds at the table. Each traded
fouls for entries or lost, none won (docs/notes-opponents.md).

A joker helps every row, and a row holding one counts what it can best play as
(``optimizer.opponents.resolve.play_rows``) on its own: the estimate does not play a joker
down to spare a foul, which the exact looks at the end of the hand do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Row, Rules
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS
from fantasyland.optimizer.opponents.memo import by_identity
from fantasyland.optimizer.opponents.params import BotParams
from fantasyland.optimizer.opponents.ranks import row_strengths, row_values
from fantasyland.optimizer.opponents.resolve import play_rows


@by_identity
def _tables(rules: Rules):
    """Royalty and qualify tables by row, and the entry rungs as (row, threshold) pairs."""
    entry = tuple((tuple((req.row, req.spec.threshold(rules.scale(req.row)))
                         for req in rung.requires), rung.cards) for rung in rules.entry)
    return ({row: rules.royalty_table(row) for row in ROWS},
            {row: rules.qualify_table(row) for row in ROWS}, entry)


@cache
def _subsets(pool: int, take: int) -> np.ndarray:
    """``(S, take)``: the ways to take ``take`` of a pool's cards, in lexicographic order."""
    subsets = list(combinations(range(pool), take))
    return np.array(subsets, dtype=np.int64).reshape(len(subsets), take)


@cache
def _takes(pool: int, take: int, reach: int) -> np.ndarray:
    """``(S, reach)``: which of a pool's first ``reach`` cards each of its ``_subsets``
    takes."""
    subsets = _subsets(pool, take)
    takes = np.zeros((len(subsets), reach), dtype=bool)
    for s, subset in enumerate(subsets.tolist()):
        takes[s, [i for i in subset if i < reach]] = True
    takes.flags.writeable = False
    return takes


@dataclass(frozen=True)
class _Options:
    """Completions of distinct row contents: ``(R, K, O)`` arrays over contents, samples and
    the options kept per sample: the best and the worst, and with ``estimate_disjoint`` the
    row's own cards alone (see ``_row_options``)."""

    strength: np.ndarray  # on the high scale (the foul order)
    royalty: np.ndarray
    legal: np.ndarray  # passes the row's qualify hand
    meets: dict[int, np.ndarray]  # entry threshold -> whether the option reaches it
    uses: np.ndarray  # bit i set: the option takes the future's card i, which helps the row

    def take(self, index) -> _Options:
        return _Options(self.strength[index], self.royalty[index], self.legal[index],
                        {t: m[index] for t, m in self.meets.items()}, self.uses[index])


def _completions(rules: Rules, row: str, fixed: np.ndarray, pool: np.ndarray):
    """Every completion of ``R`` rows (``fixed`` placed cards) from pools ``(R, K, p)``: the
    cards ``(R, K, S, size)`` as they play (jokers resolved) and their values on the row's
    scale ``(R, K, S)``."""
    size = ROW_SIZE[row]
    subsets = _subsets(pool.shape[2], size - fixed.shape[1])
    picks = pool[:, :, subsets]  # (R, K, S, need)
    shape = picks.shape[:3]
    rows = np.concatenate([np.broadcast_to(fixed[:, None, None, :], shape + fixed.shape[1:]),
                           picks], axis=3)
    played = play_rows(row, rows.reshape(-1, size), rules)
    return played.reshape(rows.shape), row_values(row, played, rules).reshape(shape)


def _straight_windows() -> np.ndarray:
    """``(10, 13)``: the ranks of each straight, the wheel (A-2-3-4-5) first."""
    windows = np.zeros((10, 13), dtype=bool)
    windows[0, [12, 0, 1, 2, 3]] = True
    for high in range(4, 13):
        windows[high - 3, high - 4:high + 1] = True
    return windows


_WINDOWS = _straight_windows()


def _useful(rules: Rules, row: str, fixed: np.ndarray, future: np.ndarray) -> np.ndarray:
    """``(R, K, D)``: which future cards help each row. On a high row: a card that pairs one
    of its ranks, or, on a five-card row of three cards or more, continues its flush (one
    suit so far) or its straight (distinct ranks inside one straight so far). On a 2-7 row:
    a card of rank 8 or lower that pairs none of its ranks. A joker helps every row, and a
    joker in the row fits any suit and any straight."""
    real = fixed != JOKER
    ranks = np.where(real, fixed >> 2, 13)
    has_rank = np.zeros((len(fixed), 14), dtype=bool)
    np.put_along_axis(has_rank, ranks, True, axis=1)
    has_rank = has_rank[:, :13]
    wild = (future == JOKER)[None]
    future_rank = np.minimum(future >> 2, 12)  # a joker's rank is never read: it is wild
    pairs = has_rank[:, future_rank]  # (R, K, D)
    if rules.scale(row) is not Scale.HIGH:
        return (~pairs & (future_rank <= 6)[None]) | wild
    if ROW_SIZE[row] < 5 or fixed.shape[1] < 3:
        return pairs | wild
    suits = fixed & 3
    first = np.take_along_axis(suits, real.argmax(axis=1)[:, None], axis=1)  # a real card's
    suited = ((suits == first) | ~real).all(axis=1)
    flush = suited[:, None, None] & ((future & 3)[None] == first[:, :, None])
    distinct = has_rank.sum(axis=1) == real.sum(axis=1)
    fits = ~(has_rank[:, None, :] & ~_WINDOWS[None]).any(axis=2) & distinct[:, None]
    connects = (fits[:, :, None] & _WINDOWS[None]).any(axis=1) & ~has_rank  # (R, 13)
    return pairs | flush | connects[:, future_rank] | wild


def _row_options(rules: Rules, row: str, fixed: np.ndarray, future: np.ndarray,
                 filler: np.ndarray, reach: int, thresholds: Sequence[int],
                 params: BotParams) -> _Options:
    """The best and the worst completion of each of ``R`` rows in each of ``K`` futures,
    and with ``estimate_disjoint`` a third: the row completed by its own cards alone.

    A row completes from a pool: the first ``reach`` cards of the future that help it
    (``_useful``), then the rest of the future in order, plus ``filler``, cards of its own
    for the slots that nothing useful fills. With ``estimate_disjoint`` each option records
    which cards of the future that help the row it takes (``_Options.uses``; none without
    it, where nothing reads them).
    """
    disjoint = params.estimate_disjoint
    size = ROW_SIZE[row]
    contents = len(fixed)
    own = np.broadcast_to(filler[None], (contents,) + filler.shape)
    bits, takes = None, None
    if future.shape[1] and fixed.shape[1] < size and reach:
        useful = _useful(rules, row, fixed, future)
        order = np.argsort(~useful, axis=2, kind="stable")[:, :, :reach]
        targeted = np.take_along_axis(np.broadcast_to(future[None], useful.shape), order,
                                      axis=2)
        own = np.concatenate([targeted, own], axis=2)
        if disjoint:  # the bit of each targeted future card that helps the row
            helps = np.take_along_axis(useful, order, axis=2)  # (R, K, reach)
            takes = _takes(own.shape[2], size - fixed.shape[1], reach)
            bits = np.where(helps, np.left_shift(np.int64(1), order), 0)
    rows, value = _completions(rules, row, fixed, own)
    picks = [value.argmax(axis=2), value.argmin(axis=2)]
    if disjoint:  # the last subset takes the pool's last cards: the row's own
        picks.append(np.full(value.shape[:2], value.shape[2] - 1))
    chosen = np.stack(picks, axis=2)
    if bits is None:
        uses = np.zeros(chosen.shape, dtype=np.int64)
    else:
        uses = (takes[chosen] * bits[:, :, None, :]).sum(axis=3)
    kept = np.take_along_axis(rows, chosen[..., None], axis=2)  # (R, K, O, size)
    flat = kept.reshape(-1, size)
    value = np.take_along_axis(value, chosen, axis=2)
    # a high row's value is its strength; a 2-7 row in the foul order is ranked again
    strength = row_strengths(flat).reshape(value.shape) \
        if row in rules.order and rules.scale(row) is not Scale.HIGH else value
    royalty, qualify, _ = _tables(rules)
    return _Options(strength, royalty[row][value], qualify[row][value],
                    {t: value >= t for t in thresholds}, uses)


def _plan_worth(rules: Rules, options: dict[str, _Options], params: BotParams) -> np.ndarray:
    """``(C, K, P)``: what each sample is worth under each plan, one option of each row's
    (``2 x 2 x 2`` of them: a row's best or worst completion; with ``estimate_disjoint``
    ``3 x 3 x 3``, its own cards alone the third, and a plan in which two rows are helped by
    one card of the future is no plan)."""
    axes = {Row.TOP: (..., slice(None), None, None), Row.MIDDLE: (..., None, slice(None), None),
            Row.BOTTOM: (..., None, None, slice(None))}
    grid = {row: o.take(axes[row]) for row, o in options.items()}
    fouled = np.zeros((), dtype=bool)
    for row in ROWS:  # most rules qualify every hand: no grid to build for them
        if not options[row].legal.all():
            fouled = fouled | ~grid[row].legal
    for stronger, weaker in rules.order_pairs:
        fouled = fouled | (grid[stronger].strength < grid[weaker].strength)
    entered = np.zeros((), dtype=bool)
    for requires, _cards in _tables(rules)[2]:
        met = np.ones((), dtype=bool)
        for row, threshold in requires:
            met = met & grid[row].meets[threshold]
        entered = entered | met
    points = grid[Row.TOP].royalty + grid[Row.MIDDLE].royalty + grid[Row.BOTTOM].royalty \
        + params.fl_bonus * entered
    worth = np.where(fouled, -params.estimate_foul_cost, points)
    if params.estimate_disjoint:  # each pair of rows on its own grid, then all three
        top, middle, bottom = (grid[row].uses for row in ROWS)
        barred = ((top & middle) != 0) | ((top & bottom) != 0) | ((middle & bottom) != 0)
        worth = np.where(barred, -np.inf, worth)
    return worth.reshape(worth.shape[:2] + (-1,))


def estimate(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, coming: int,
             params: BotParams, rng: np.random.Generator, samples: int) -> np.ndarray:
    """``(N,)``: the mean worth of each of ``N`` layouts over ``samples`` random futures of
    the ``unseen`` cards, ``coming`` of which the player will still see (see the module
    docstring). Rows are completed once per distinct content, so layouts that share a row
    share its completions."""
    empty = layouts == EMPTY
    samples = samples if empty.any() else 1
    shuffles = rng.permuted(np.broadcast_to(unseen, (samples, len(unseen))), axis=1)
    future = shuffles[:, :coming]
    entry = _tables(rules)[2]
    options, index = {}, {}
    start = coming
    for row in ROWS:
        slots = ROW_SLOTS[row]
        contents, index[row] = np.unique(layouts[:, slots.start:slots.stop], axis=0,
                                         return_inverse=True)
        thresholds = sorted({t for requires, _ in entry for name, t in requires if name == row})
        missing = (contents == EMPTY).sum(axis=1)
        parts = [None] * len(contents)
        reach = params.top_credit if row == Row.TOP else params.draw_credit
        for count in np.unique(missing).tolist():
            members = np.flatnonzero(missing == count)
            fixed = contents[members, :len(slots) - count]
            part = _row_options(rules, row, fixed, future, shuffles[:, start:start + count],
                                min(reach, coming), thresholds, params)
            for i, m in enumerate(members):
                parts[m] = part.take(i)
        start += int(missing.max())
        options[row] = _Options(np.stack([p.strength for p in parts]),
                                np.stack([p.royalty for p in parts]),
                                np.stack([p.legal for p in parts]),
                                {t: np.stack([p.meets[t] for p in parts]) for t in thresholds},
                                np.stack([p.uses for p in parts]))
    chosen = {row: options[row].take(index[row].reshape(-1)) for row in ROWS}
    return _plan_worth(rules, chosen, params).max(axis=2).mean(axis=1)
