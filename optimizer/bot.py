"""The heuristic opponent: plays one ordinary (non-Fantasyland) hand of a variant.

Each decision enumerates every legal way to place the new cards (which card to discard, and
which row takes each kept card). Every placement is scored by Monte Carlo: ``samples`` random
completions fill the empty slots with cards the bot has not seen, and each finished board is
worth its royalties plus ``fl_bonus`` when it enters Fantasyland, or ``-foul_penalty`` when it
fouls. The bot plays the placement with the best mean, ties broken by the seeded generator.
All placements of one decision share the same random completions (common random numbers), so
they are compared on the same luck.

A random completion ignores the choice the bot will have later (in Pineapple it keeps two of
every three cards), so it underrates draws; ``draw_credit`` makes up for that by completing
each row from more cards than it has slots (the best ``n`` of ``n + extra`` for the row's
hand), which is how future choice shows up in the final board. Everything the bot knows is
its own cards: it plays the same whatever the other players hold, and it reads the variant
only through ``Rules`` (its royalty, foul, qualify and entry tables), so one bot serves every
rule set, 2-7 included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

import numpy as np

from evaluator.board import row_strengths, row_values
from evaluator.cards import Card
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
    """The bot's knobs; the defaults are the calibrated ones quoted in the README."""

    fl_bonus: float = 12.0  # worth of entering Fantasyland, in points
    foul_penalty: float = 6.0  # cost of a foul, in points (royalties are lost as well)
    samples: int = 24  # random completions per placement
    draw_credit: int = 1  # extra cards a row completes from, per empty slot (see above)


@dataclass(frozen=True)
class PlayedHand:
    """A finished ordinary hand: the board (top 3, middle 5, bottom 5) and the discards."""

    board: tuple[Card, ...]
    discards: tuple[Card, ...]


# --- finished boards, vectorized -------------------------------------------------------------

@dataclass(frozen=True)
class Outcomes:
    """What the rules make of an ``(n, 13)`` array of boards, as parallel arrays."""

    fouled: np.ndarray  # bool
    royalties: np.ndarray  # int, 0 when fouled
    entry_cards: np.ndarray  # int, 0 when the board does not enter Fantasyland
    values: dict[str, np.ndarray]  # each row on its own scale


@cache
def _tables(rules: Rules):
    entry = tuple((tuple((req.row, req.spec.threshold(rules.scale(req.row)))
                         for req in rung.requires), rung.cards) for rung in rules.entry)
    return ({row: rules.royalty_table(row) for row in ROWS},
            {row: rules.qualify_table(row) for row in ROWS}, entry)


def board_outcomes(rules: Rules, boards: np.ndarray) -> Outcomes:
    """Fouls, royalties and Fantasyland entry of finished boards (unchecked)."""
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 13)
    royalty, qualify, entry = _tables(rules)
    cards = {row: boards[:, ROW_SLOTS[row].start:ROW_SLOTS[row].stop] for row in ROWS}
    values = {row: row_values(row, cards[row], rules) for row in ROWS}
    fouled = np.zeros(len(boards), dtype=bool)
    if rules.order_pairs:
        strengths = {row: row_strengths(cards[row]) for row in set(rules.order)}
        for stronger, weaker in rules.order_pairs:
            fouled |= strengths[stronger] < strengths[weaker]
    for row in ROWS:
        fouled |= ~qualify[row][values[row]]
    royalties = sum(royalty[row][values[row]] for row in ROWS)
    royalties = np.where(fouled, 0, royalties)
    entry_cards = np.zeros(len(boards), dtype=np.int64)
    for requires, count in entry:
        met = ~fouled
        for row, threshold in requires:
            met = met & (values[row] >= threshold)
        entry_cards = np.where(met, np.maximum(entry_cards, count), entry_cards)
    return Outcomes(fouled, royalties, entry_cards, values)


# --- one decision ----------------------------------------------------------------------------

def _placements(layout: np.ndarray, new: Sequence[Card], keep: int) -> np.ndarray:
    """Every layout reachable by keeping ``keep`` of ``new`` and placing them in rows."""
    free = {row: [s for s in ROW_SLOTS[row] if layout[s] == EMPTY] for row in ROWS}
    out = []
    for kept in combinations(new, keep):
        for rows in product(ROWS, repeat=keep):
            if any(rows.count(row) > len(free[row]) for row in ROWS):
                continue
            placed = layout.copy()
            used = {row: 0 for row in ROWS}
            for card, row in zip(kept, rows):
                placed[free[row][used[row]]] = card
                used[row] += 1
            out.append(placed)
    return np.unique(np.array(out, dtype=np.int64), axis=0)


@cache
def _subsets(pool: int, take: int) -> np.ndarray:
    return np.array(list(combinations(range(pool), take)), dtype=np.int64).reshape(-1, take)


def _fill_row(rules: Rules, row: str, fixed: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Fill a row: ``fixed`` is ``(G, f)`` placed cards, ``pool`` is ``(K, p)`` candidates.

    Returns ``(G, K, size)``: each group's row completed with the best ``size - f`` cards of
    each pool for that row alone (on the row's own scale).
    """
    groups, placed = fixed.shape
    samples, p = pool.shape
    need = ROW_SIZE[row] - placed
    picks = pool[:, _subsets(p, need)]  # (K, S, need)
    subsets = picks.shape[1]
    rows = np.concatenate([np.broadcast_to(fixed[:, None, None, :], (groups, samples, subsets,
                                                                     placed)),
                           np.broadcast_to(picks[None], (groups, samples, subsets, need))],
                          axis=3)
    if subsets == 1:
        return rows[:, :, 0]
    value = row_values(row, rows.reshape(-1, ROW_SIZE[row]), rules).reshape(
        groups, samples, subsets)
    best = value.argmax(axis=2)
    return np.take_along_axis(rows, best[:, :, None, None], axis=2)[:, :, 0]


def _complete(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, params: BotParams,
              rng: np.random.Generator) -> np.ndarray:
    """``(C, K, 13)`` completions of ``C`` layouts, ``K = params.samples``.

    Each row with empty slots draws its own pool of random unseen cards, ``draw_credit``
    more than it has empty slots, and keeps the best for itself. Every layout uses the same
    ``K`` shuffles of the unseen cards.
    """
    empty = layouts == EMPTY
    if not empty.any():
        return layouts[:, None, :]
    k = params.samples
    shuffles = rng.permuted(np.broadcast_to(unseen, (k, len(unseen))), axis=1)
    counts = np.stack([empty[:, ROW_SLOTS[row]].sum(axis=1) for row in ROWS], axis=1)
    boards = np.empty((len(layouts), k, 13), dtype=np.int64)
    for signature in np.unique(counts, axis=0):
        members = np.flatnonzero((counts == signature).all(axis=1))
        start = 0
        for row, missing in zip(ROWS, signature.tolist()):
            slots = ROW_SLOTS[row]
            rows = layouts[members][:, slots.start:slots.stop]
            fixed = rows[:, :ROW_SIZE[row] - missing]  # placed cards come first in a row
            if missing == 0:
                boards[members, :, slots.start:slots.stop] = fixed[:, None, :]
                continue
            size = missing + params.draw_credit
            pool = shuffles[:, start:start + size]
            start += size
            boards[members, :, slots.start:slots.stop] = _fill_row(rules, row, fixed, pool)
    return boards


def _worth(rules: Rules, boards: np.ndarray, params: BotParams) -> np.ndarray:
    shape = boards.shape[:-1]
    out = board_outcomes(rules, boards.reshape(-1, 13))
    points = np.where(out.fouled, -params.foul_penalty,
                      out.royalties + params.fl_bonus * (out.entry_cards > 0))
    return points.reshape(shape)


def choose(rules: Rules, layout: np.ndarray, new: Sequence[Card], keep: int,
           seen: np.ndarray, params: BotParams, rng: np.random.Generator) -> np.ndarray:
    """The layout the bot plays after being dealt ``new`` onto ``layout``."""
    options = _placements(layout, new, keep)
    unseen = np.flatnonzero(~seen)
    worth = _worth(rules, _complete(rules, options, unseen, params, rng), params).mean(axis=1)
    best = np.flatnonzero(worth >= worth.max() - 1e-9)
    return options[best[rng.integers(len(best))]] if len(best) > 1 else options[best[0]]


def play_hand(rules: Rules, dealing: Dealing, cards: Sequence[Card], params: BotParams,
              rng: np.random.Generator) -> PlayedHand:
    """Play one hand whose cards arrive in the order of ``cards`` (``dealing.seen`` of them)."""
    if len(cards) != dealing.seen:
        raise ValueError(f"{dealing.name} deals {dealing.seen} cards, got {len(cards)}")
    layout = np.full(13, EMPTY, dtype=np.int64)
    seen = np.zeros(52, dtype=bool)
    position = 0
    for count, keep in [(dealing.first, dealing.first)] + [(dealing.per_round, dealing.keep)] \
            * dealing.rounds:
        new = list(cards[position:position + count])
        position += count
        seen[new] = True
        layout = choose(rules, layout, new, keep, seen, params, rng)
    discards = tuple(sorted(set(cards) - set(layout.tolist())))
    board = tuple(c for row in ROWS for c in sorted(layout[ROW_SLOTS[row]].tolist(),
                                                     reverse=True))
    return PlayedHand(board, discards)
