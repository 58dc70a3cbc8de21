"""The heuristic opponent: plays one ordinary (non-Fantasyland) hand of a variant.

Each decision lists every legal way to place the new cards (which card to throw away, and
which row takes each kept card) and plays the one worth most, ties broken by the seeded
generator. A finished board is worth its royalties plus ``fl_bonus`` when it enters
Fantasyland, or ``-foul_penalty`` when it fouls.

Every decision but the last takes two looks. The first scores every placement:

* One round from the end: over ``samples`` random deals of the last round, each played in
  its best way (an exact one-round look-ahead).
* Earlier: over ``samples`` random futures (shuffles of the cards the bot has not seen;
  every placement of a decision shares them). In a future each row draws a pool: the first
  ``draw_credit`` (``top_credit`` for the top) future cards that help it (``_useful``: pair
  one of its ranks, or continue a one-suit or straight five-card row), then cards of its
  own for the rest of its empty slots. From its pool each row keeps its best and its worst
  completion, and the future is worth the best legal board among those ``2 x 2 x 2``
  choices. The pools stand for the choice the player will have (steering useful cards to
  the row that wants them); the worst completions stand for safe play.

The second look rescores the ``refine`` placements the first look likes best, and the
decision goes to the best of them:

* One round from the end: over ``refine_samples`` more deals of the last round, exactly.
* From two to ``search_from`` rounds from the end: by a one-ply search. Each of
  ``search_deals`` deals of the next round (shared by the placements) is played in its
  best way as a first look with ``search_samples`` samples judges it, and the placement is
  worth the mean of those best plays. This is what a player does: decide now, knowing that
  the next decision will be made with the next cards in view.
* Earlier (the first five cards): over ``refine_samples`` more futures. A search from
  there was measured: it cost a third more time and added fouls but no royalties.

The bot knows only its own cards, so it plays the same whatever the other players hold. It
reads the variant only through ``Rules`` (royalty, foul, qualify and entry tables), so one
bot serves every rule set, 2-7 included (on a 2-7 row a useful card is a low one that pairs
nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product

import numpy as np

from evaluator.board import row_strengths, row_values
from evaluator.board_arrays import evaluate_boards
from evaluator.cards import Card
from evaluator.handspec import Scale
from evaluator.rules import ROW_SIZE, ROWS, Rules

#: Slot ranges of the rows in a 13-card layout: top 0-2, middle 3-7, bottom 8-12.
ROW_SLOTS = {"top": range(0, 3), "middle": range(3, 8), "bottom": range(8, 13)}
EMPTY = -1


@dataclass(frozen=True)
class Dealing:
    """How an ordinary hand is dealt: ``first`` cards, then ``rounds`` of ``per_round``
    cards of which the player keeps ``keep``."""

    name: str
    first: int
    rounds: int
    per_round: int
    keep: int

    @property
    def seen(self) -> int:
        """Cards the player sees in a hand: the 13 placed plus the discards."""
        return self.first + self.rounds * self.per_round

    def __post_init__(self) -> None:
        if self.first + self.rounds * self.keep != 13:
            raise ValueError(f"dealing {self.name!r} places {self.first} + {self.rounds} x "
                             f"{self.keep} cards: expected 13")


#: Classic OFC: five cards, then one at a time.
ONE_AT_A_TIME = Dealing("one-at-a-time", first=5, rounds=8, per_round=1, keep=1)
#: Pineapple: five cards, then four rounds of three, keeping two.
THREE_KEEP_TWO = Dealing("three-keep-two", first=5, rounds=4, per_round=3, keep=2)
DEALINGS = {d.name: d for d in (ONE_AT_A_TIME, THREE_KEEP_TWO)}


@dataclass(frozen=True)
class BotParams:
    """The bot's knobs; the defaults are the Pineapple calibration quoted in the README."""

    fl_bonus: float = 22.0  # worth of entering Fantasyland, in points
    foul_penalty: float = 6.0  # cost of a foul, in points (its royalties are lost as well)
    samples: int = 48  # first look: random futures (or last-round deals) per placement
    draw_credit: int = 2  # useful future cards the middle and bottom may draw from
    top_credit: int = 1  # useful future cards the top may draw from
    refine: int = 4  # placements the second look rescores
    refine_samples: int = 256  # second look where there is no search: more deals or futures
    search_deals: int = 12  # second look earlier: deals of the next round searched
    search_samples: int = 32  # first-look samples that judge each play of those deals
    search_from: int = 3  # rounds left at which the search starts


@dataclass(frozen=True)
class PlayedHand:
    """A finished ordinary hand: the board (top 3, middle 5, bottom 5) and the discards."""

    board: tuple[Card, ...]
    discards: tuple[Card, ...]


@cache
def _tables(rules: Rules):
    """Royalty and qualify tables by row, and the entry rungs as (row, threshold) pairs."""
    entry = tuple((tuple((req.row, req.spec.threshold(rules.scale(req.row)))
                         for req in rung.requires), rung.cards) for rung in rules.entry)
    return ({row: rules.royalty_table(row) for row in ROWS},
            {row: rules.qualify_table(row) for row in ROWS}, entry)


# --- one decision ----------------------------------------------------------------------------

def _placements(layout: np.ndarray, new: Sequence[Card], keep: int) -> np.ndarray:
    """Every layout reachable by keeping ``keep`` of ``new`` and placing them in rows.

    Placed cards fill a row's slots from its first one, so a row's empties come last.
    """
    free = {row: [s for s in ROW_SLOTS[row] if layout[s] == EMPTY] for row in ROWS}
    out = []
    for kept in combinations(new, keep):
        for rows in product(ROWS, repeat=keep):
            if any(rows.count(row) > len(free[row]) for row in ROWS):
                continue
            placed = layout.copy()
            used = dict.fromkeys(ROWS, 0)
            for card, row in zip(kept, rows):
                placed[free[row][used[row]]] = card
                used[row] += 1
            out.append(placed)
    return np.unique(np.array(out, dtype=np.int64), axis=0)


@cache
def _subsets(pool: int, take: int) -> np.ndarray:
    subsets = list(combinations(range(pool), take))
    return np.array(subsets, dtype=np.int64).reshape(len(subsets), take)


@dataclass(frozen=True)
class _Options:
    """Completions of distinct row contents: ``(R, K, 2)`` arrays over contents, samples and
    the two options kept per sample, the best and the worst (see ``_row_options``)."""

    strength: np.ndarray  # on the high scale (the foul order)
    royalty: np.ndarray
    legal: np.ndarray  # passes the row's qualify hand
    meets: dict[int, np.ndarray]  # entry threshold -> whether the option reaches it

    def take(self, index) -> _Options:
        return _Options(self.strength[index], self.royalty[index], self.legal[index],
                        {t: m[index] for t, m in self.meets.items()})


def _completions(rules: Rules, row: str, fixed: np.ndarray, pool: np.ndarray):
    """Every completion of ``R`` rows (``fixed`` placed cards) from pools ``(R, K, p)``: the
    cards ``(R, K, S, size)`` and their values on the row's scale ``(R, K, S)``."""
    size = ROW_SIZE[row]
    picks = pool[:, :, _subsets(pool.shape[2], size - fixed.shape[1])]  # (R, K, S, need)
    shape = picks.shape[:3]
    rows = np.concatenate([np.broadcast_to(fixed[:, None, None, :], shape + fixed.shape[1:]),
                           picks], axis=3)
    return rows, row_values(row, rows.reshape(-1, size), rules).reshape(shape)


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
    a card of rank 8 or lower that pairs none of its ranks."""
    ranks, suits = fixed >> 2, fixed & 3
    has_rank = np.zeros((len(fixed), 13), dtype=bool)
    np.put_along_axis(has_rank, ranks, True, axis=1)
    future_rank = future >> 2
    pairs = has_rank[:, future_rank]  # (R, K, D)
    if rules.scale(row) is not Scale.HIGH:
        return ~pairs & (future_rank <= 6)[None]
    if ROW_SIZE[row] < 5 or fixed.shape[1] < 3:
        return pairs
    suited = (suits == suits[:, :1]).all(axis=1)
    flush = suited[:, None, None] & ((future & 3)[None] == suits[:, :1, None])
    distinct = has_rank.sum(axis=1) == fixed.shape[1]
    fits = ~(has_rank[:, None, :] & ~_WINDOWS[None]).any(axis=2) & distinct[:, None]
    connects = (fits[:, :, None] & _WINDOWS[None]).any(axis=1) & ~has_rank  # (R, 13)
    return pairs | flush | connects[:, future_rank]


def _row_options(rules: Rules, row: str, fixed: np.ndarray, future: np.ndarray,
                 filler: np.ndarray, reach: int, thresholds: Sequence[int]) -> _Options:
    """The best and the worst completion of each of ``R`` rows in each of ``K`` futures.

    A row completes from a pool: the first ``reach`` cards of the future that help it
    (``_useful``), then the rest of the future in order, plus ``filler``, cards of its own
    for the slots that nothing useful fills.
    """
    size = ROW_SIZE[row]
    contents = len(fixed)
    own = np.broadcast_to(filler[None], (contents,) + filler.shape)
    if future.shape[1] and fixed.shape[1] < size and reach:
        useful = _useful(rules, row, fixed, future)
        order = np.argsort(~useful, axis=2, kind="stable")[:, :, :reach]
        targeted = np.take_along_axis(np.broadcast_to(future[None], useful.shape), order,
                                      axis=2)
        own = np.concatenate([targeted, own], axis=2)
    rows, value = _completions(rules, row, fixed, own)
    chosen = np.stack([value.argmax(axis=2), value.argmin(axis=2)], axis=2)
    kept = np.take_along_axis(rows, chosen[..., None], axis=2)  # (R, K, 2, size)
    flat = kept.reshape(-1, size)
    value = np.take_along_axis(value, chosen, axis=2)
    strength = row_strengths(flat).reshape(value.shape) if row in rules.order else value
    royalty, qualify, _ = _tables(rules)
    return _Options(strength, royalty[row][value], qualify[row][value],
                    {t: value >= t for t in thresholds})


def _best_worth(rules: Rules, options: dict[str, _Options], params: BotParams) -> np.ndarray:
    """``(C, K)``: the most each sample is worth over the ``2 x 2 x 2`` choices of rows."""
    axes = {"top": (..., slice(None), None, None), "middle": (..., None, slice(None), None),
            "bottom": (..., None, None, slice(None))}
    grid = {row: o.take(axes[row]) for row, o in options.items()}
    fouled = ~(grid["top"].legal & grid["middle"].legal & grid["bottom"].legal)
    for stronger, weaker in rules.order_pairs:
        fouled = fouled | (grid[stronger].strength < grid[weaker].strength)
    entered = np.zeros((), dtype=bool)
    for requires, _cards in _tables(rules)[2]:
        met = np.ones((), dtype=bool)
        for row, threshold in requires:
            met = met & grid[row].meets[threshold]
        entered = entered | met
    points = grid["top"].royalty + grid["middle"].royalty + grid["bottom"].royalty \
        + params.fl_bonus * entered
    worth = np.where(fouled, -params.foul_penalty, points)
    return worth.reshape(worth.shape[:2] + (-1,)).max(axis=2)


def _evaluate(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, dealing: Dealing,
              rounds_left: int, params: BotParams, rng: np.random.Generator,
              samples: int) -> np.ndarray:
    """Mean worth of each layout over ``samples`` random futures (see the module
    docstring). Rows are completed once per distinct content, so layouts that share a row
    share its completions."""
    empty = layouts == EMPTY
    samples = samples if empty.any() else 1
    shuffles = rng.permuted(np.broadcast_to(unseen, (samples, len(unseen))), axis=1)
    coming = rounds_left * dealing.per_round
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
        reach = params.top_credit if row == "top" else params.draw_credit
        for count in np.unique(missing).tolist():
            members = np.flatnonzero(missing == count)
            fixed = contents[members, :len(slots) - count]
            part = _row_options(rules, row, fixed, future, shuffles[:, start:start + count],
                                min(reach, coming), thresholds)
            for i, m in enumerate(members):
                parts[m] = part.take(i)
        start += int(missing.max())
        options[row] = _Options(np.stack([p.strength for p in parts]),
                                np.stack([p.royalty for p in parts]),
                                np.stack([p.legal for p in parts]),
                                {t: np.stack([p.meets[t] for p in parts]) for t in thresholds})
    chosen = {row: options[row].take(index[row].reshape(-1)) for row in ROWS}
    return _best_worth(rules, chosen, params).mean(axis=1)


def _finish(rules: Rules, layouts: np.ndarray, deals: np.ndarray, dealing: Dealing,
            params: BotParams) -> np.ndarray:
    """``(N,)``: the mean over ``deals`` ``(N, K, per_round)`` of the last round of each
    layout played in its best way, the finished boards scored exactly."""
    count, samples = deals.shape[:2]
    slots = np.nonzero(layouts == EMPTY)[1].reshape(count, dealing.keep)
    orders = np.array(list(permutations(range(dealing.per_round), dealing.keep)),
                      dtype=np.int64)
    boards = np.broadcast_to(layouts[:, None, None, :], (count, samples, len(orders),
                                                           13)).copy()
    c, k, a = np.ix_(np.arange(count), np.arange(samples), np.arange(len(orders)))
    boards[c[..., None], k[..., None], a[..., None], slots[:, None, None, :]] = \
        deals[:, :, orders]
    return _worth(rules, boards, params).max(axis=2).mean(axis=1)


def _last_round(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, dealing: Dealing,
                params: BotParams, rng: np.random.Generator, samples: int) -> np.ndarray:
    """Mean worth of layouts one round from the end: each of ``samples`` random deals of
    the last round is played in its best way (an exact one-round look-ahead)."""
    deals = rng.permuted(np.broadcast_to(unseen, (samples, len(unseen))),
                         axis=1)[:, :dealing.per_round]
    return _finish(rules, layouts, np.broadcast_to(deals[None], (len(layouts),) + deals.shape),
                   dealing, params)


def _first_look(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, dealing: Dealing,
                rounds_left: int, params: BotParams, rng: np.random.Generator,
                samples: int) -> np.ndarray:
    """Worth of layouts with ``rounds_left >= 1`` rounds to come, over ``samples`` samples:
    exact over deals of the last round, estimated earlier (see the module docstring)."""
    if rounds_left == 1:
        return _last_round(rules, layouts, unseen, dealing, params, rng, samples)
    return _evaluate(rules, layouts, unseen, dealing, rounds_left, params, rng, samples)


def _search(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, dealing: Dealing,
            rounds_left: int, params: BotParams, rng: np.random.Generator) -> np.ndarray:
    """Worth of layouts by a one-ply search: the mean over ``search_deals`` deals of the
    next round (every layout shares them) of the best play of each deal, as a first look
    with ``search_samples`` samples judges the plays."""
    deals = rng.permuted(np.broadcast_to(unseen, (params.search_deals, len(unseen))),
                         axis=1)[:, :dealing.per_round]
    total = np.zeros(len(layouts))
    for deal in deals:
        plays = [_placements(layout, deal.tolist(), dealing.keep) for layout in layouts]
        owners = np.repeat(np.arange(len(layouts)), [len(p) for p in plays])
        value = _first_look(rules, np.concatenate(plays), np.setdiff1d(unseen, deal), dealing,
                            rounds_left - 1, params, rng, params.search_samples)
        best = np.full(len(layouts), -np.inf)
        np.maximum.at(best, owners, value)
        total += best
    return total / len(deals)


def _second_look(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, dealing: Dealing,
                 rounds_left: int, params: BotParams, rng: np.random.Generator) -> np.ndarray:
    """Worth of the placements the first look likes best (see the module docstring)."""
    if 2 <= rounds_left <= params.search_from and params.search_deals:
        return _search(rules, layouts, unseen, dealing, rounds_left, params, rng)
    return _first_look(rules, layouts, unseen, dealing, rounds_left, params, rng,
                       params.refine_samples)


def _worth(rules: Rules, boards: np.ndarray, params: BotParams) -> np.ndarray:
    """What finished boards are worth to the bot (see the module docstring)."""
    out = evaluate_boards(boards.reshape(-1, 13), rules)
    points = np.where(out.fouled, -params.foul_penalty,
                      out.royalty_total + params.fl_bonus * (out.entry_cards > 0))
    return points.reshape(boards.shape[:-1])


def choose(rules: Rules, dealing: Dealing, layout: np.ndarray, new: Sequence[Card], keep: int,
           seen: np.ndarray, rounds_left: int, params: BotParams,
           rng: np.random.Generator) -> np.ndarray:
    """The layout the bot plays after being dealt ``new`` onto ``layout``."""
    options = _placements(layout, new, keep)
    unseen = np.flatnonzero(~seen)
    if rounds_left == 0:
        worth = _worth(rules, options, params)
    else:
        worth = _first_look(rules, options, unseen, dealing, rounds_left, params, rng,
                            params.samples)
        if params.refine and len(options) > 1:
            top = np.argsort(-worth, kind="stable")[:params.refine]
            worth = np.full(len(options), -np.inf)
            worth[top] = _second_look(rules, options[top], unseen, dealing, rounds_left,
                                      params, rng)
    best = np.flatnonzero(worth >= worth.max() - 1e-9)
    return options[best[rng.integers(len(best))] if len(best) > 1 else best[0]]


def play_hand(rules: Rules, dealing: Dealing, cards: Sequence[Card], params: BotParams,
              rng: np.random.Generator) -> PlayedHand:
    """Play one hand whose cards arrive in the order of ``cards`` (``dealing.seen`` of them)."""
    if len(cards) != dealing.seen:
        raise ValueError(f"{dealing.name} deals {dealing.seen} cards, got {len(cards)}")
    layout = np.full(13, EMPTY, dtype=np.int64)
    seen = np.zeros(52, dtype=bool)
    rounds = [(dealing.first, dealing.first)] + [(dealing.per_round, dealing.keep)] \
        * dealing.rounds
    position = 0
    for index, (count, keep) in enumerate(rounds):
        new = list(cards[position:position + count])
        position += count
        seen[new] = True
        layout = choose(rules, dealing, layout, new, keep, seen, len(rounds) - 1 - index, params, rng)
    discards = tuple(sorted(set(cards) - set(layout.tolist())))
    board = tuple(c for row in ROWS for c in sorted(layout[ROW_SLOTS[row]].tolist(),
                                                     reverse=True))
    return PlayedHand(board, discards)
