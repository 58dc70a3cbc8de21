"""The opponent model of classic, closed Chinese Poker: how a reasonable player sets 13 cards.

An opponent is dealt 13 cards from the deck that is left and sets them at once. It sets them
the way this project's optimizer would against the table, row by row: every legal setting
of the 13 cards (72,072 of them) is worth the sum of its rows' *worths*, and it plays the
best. A row's worth is what a row of that strength wins on average from one player of the
model: the row point won or lost, and the bonus paid to the row's winner
(``RowWorths.against``). It counts each row on its own, so it leaves out what the rows win
together (the scoop of a 1-6 game, the sweep): the one simplification of the model, which
the fixed-point check measures (docs/chinese-poker.md).

The model is its own fixed point, approached in rounds from a simple start (``iterate``):
round 0 prices a row by how often it beats a random row of its size; each round after it
deals hands, sets them with the last round's worths, and prices every row against the rows
those settings made. The worths of the last round ship as package data
(``optimizer/opponents/data/closed-*.npz``) and ``fantasyland opponents --regenerate``
rebuilds them.

Setting a hand is exact and vectorized: the strengths of its 286 three-card and 1,287
five-card subsets are looked up once, and the 72,072 settings are index triples into them
(``SETTINGS``), fixed for every hand of 13 cards in sorted order. Ties go to the first
setting in that order, so the same cards always set the same way.
"""

from __future__ import annotations

from collections.abc import Callable
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np

from evaluator.rules import ROWS, Rules
from evaluator.strength import NUM_STRENGTHS, rank3_array, rank5_array

#: The subsets of 13 positions: 286 of three, 1,287 of five.
THREES = np.array(list(combinations(range(13), 3)), dtype=np.int64)
FIVES = np.array(list(combinations(range(13), 5)), dtype=np.int64)


@cache
def splits() -> tuple[np.ndarray, np.ndarray]:
    """For each bottom (an index into ``FIVES``), the 56 ways to set the other 8 positions:
    two ``(1287, 56)`` arrays, the middle's index into ``FIVES`` and the top's into
    ``THREES``. Bottom by bottom, they are every setting of 13 positions (72,072)."""
    three_index = {t: i for i, t in enumerate(map(tuple, THREES.tolist()))}
    five_index = {f: i for i, f in enumerate(map(tuple, FIVES.tolist()))}
    middles = np.empty((len(FIVES), 56), dtype=np.int64)
    tops = np.empty((len(FIVES), 56), dtype=np.int64)
    for j, bottom in enumerate(map(tuple, FIVES.tolist())):
        rest = [p for p in range(13) if p not in bottom]
        for k, middle in enumerate(combinations(rest, 5)):
            middles[j, k] = five_index[middle]
            tops[j, k] = three_index[tuple(p for p in rest if p not in middle)]
    for a in (middles, tops):
        a.flags.writeable = False
    return middles, tops


@dataclass(frozen=True)
class RowWorths:
    """What a row of each strength is worth to the player who sets it: ``(3, NUM_STRENGTHS)``
    floats, rows top, middle, bottom, indexed by strength on the shared high scale."""

    table: np.ndarray

    def row(self, name: str) -> np.ndarray:
        return self.table[ROWS.index(name)]

    @classmethod
    def against(cls, rows: np.ndarray, rules: Rules) -> RowWorths:
        """The worths against players whose rows are ``rows``: ``(n, 3)`` strengths (top,
        middle, bottom) of ``n`` settings. A row of strength ``s`` wins a point from each
        weaker row and loses one to each stronger, and the winner of a row is paid its
        bonus (``rules``' royalties paid to the row's winner only), as
        ``evaluator.scoring.settle`` pays them."""
        table = np.zeros((3, NUM_STRENGTHS))
        strengths = np.arange(NUM_STRENGTHS)
        for i, row in enumerate(ROWS):
            theirs = np.sort(rows[:, i])
            n = len(theirs)
            below = np.searchsorted(theirs, strengths, side="left") / n
            above = 1 - np.searchsorted(theirs, strengths, side="right") / n
            royalty = rules.royalty_table(row)
            ours = royalty[np.minimum(strengths, len(royalty) - 1)]
            # the bonus paid on each stronger row, summed from the strongest down
            paid = royalty[np.minimum(theirs, len(royalty) - 1)]
            paid_above = np.concatenate([np.cumsum(paid[::-1])[::-1], [0]])
            lost = paid_above[np.searchsorted(theirs, strengths, side="right")] / n
            if rules.scoring.royalties_to_row_winner_only:
                table[i] = below - above + ours * below - lost
            else:
                table[i] = below - above + ours - paid.mean()
        return cls(table)


def subset_strengths(hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The strengths of a sorted hand's 286 three-card and 1,287 five-card subsets."""
    return rank3_array(hand[THREES]), rank5_array(hand[FIVES])


def _best_below(strengths: np.ndarray, worth: np.ndarray,
                limits: np.ndarray) -> np.ndarray:
    """For each limit, the most ``worth`` of a subset whose strength is at most it."""
    order = np.argsort(strengths, kind="stable")
    best = np.maximum.accumulate(worth[order])
    at = np.searchsorted(strengths[order], limits, side="right") - 1
    return np.where(at >= 0, best[np.maximum(at, 0)], -np.inf)


#: Bottoms whose settings are valued in the first look, for a value to prune the rest by.
FIRST_LOOK = 24


def set_hand(hand: np.ndarray, worths: RowWorths) -> np.ndarray:
    """The model's setting of 13 cards (``hand``, any order): 13 card ids, top, middle,
    bottom. The best legal setting by ``worths`` (bottom >= middle >= top on the shared
    scale), found without valuing all 72,072: a bottom is worth at most its own worth plus
    the best middle no stronger than it with the best top no stronger than that (cards
    shared or not), so once some setting is valued, the bottoms that cannot reach it are
    left out. Of equal settings the one first in the order of
    ``splits`` of the sorted hand is played, so the same cards always set the same way."""
    cards = np.sort(np.asarray(hand, dtype=np.int64))
    s3, s5 = subset_strengths(cards)
    top_worth, middle_worth, bottom_worth = (worths.table[0][s3], worths.table[1][s5],
                                             worths.table[2][s5])
    # a middle with the best top no stronger than it, then a bottom with the best of those
    middle_and_top = middle_worth + _best_below(s3, top_worth, s5)
    bound = bottom_worth + _best_below(s5, middle_and_top, s5)
    middles, tops = splits()

    def values(bottoms: np.ndarray) -> np.ndarray:
        m, t = middles[bottoms], tops[bottoms]
        value = bottom_worth[bottoms, None] + middle_worth[m] + top_worth[t]
        value[(s5[m] > s5[bottoms, None]) | (s3[t] > s5[m])] = -np.inf
        return value

    first = np.argsort(-bound, kind="stable")[:FIRST_LOOK]
    floor = values(first).max()
    bottoms = np.flatnonzero(bound >= floor)  # ties kept: the order decides among them
    value = values(bottoms)
    j, k = np.unravel_index(int(np.argmax(value)), value.shape)
    bottom = bottoms[j]
    return np.concatenate([cards[THREES[tops[bottom, k]]], cards[FIVES[middles[bottom, k]]],
                           cards[FIVES[bottom]]])


# --- the model: its fixed point, and the boards it sets --------------------------------------

#: How the model is built: rounds of the iteration, the hands each round sets, the seed.
ROUNDS, HANDS, SEED = 4, 10_000, 2024


def random_rows(count: int, rng: np.random.Generator) -> np.ndarray:
    """``(count, 3)`` strengths of random rows of 3, 5 and 5 cards, each from its own deck:
    round 0's picture of the table, before anyone sets a hand."""
    decks = np.argsort(rng.random((count, 52)), axis=1)
    return np.stack([rank3_array(decks[:, :3]), rank5_array(decks[:, 3:8]),
                     rank5_array(decks[:, 8:13])], axis=1)


def setting_rows(boards: np.ndarray) -> np.ndarray:
    """``(n, 3)`` strengths of ``n`` settings (13 cards: top, middle, bottom)."""
    return np.stack([rank3_array(boards[:, :3]), rank5_array(boards[:, 3:8]),
                     rank5_array(boards[:, 8:])], axis=1)


def iterate(rules: Rules, rounds: int = ROUNDS, hands: int = HANDS, seed: int = SEED,
            progress: Callable[[int], None] | None = None) -> list[RowWorths]:
    """The model's worths round by round: round 0 against random rows, each later round
    against the settings the round before made of ``hands`` random hands (the same hands
    every round, so that rounds differ by the worths alone)."""
    rng = np.random.default_rng([seed, 0])
    dealt = np.sort(np.argsort(rng.random((hands, 52)), axis=1)[:, :13], axis=1)
    worths = [RowWorths.against(random_rows(hands * 4, rng), rules)]
    for _ in range(rounds):
        boards = np.empty((hands, 13), dtype=np.int64)
        for i, hand in enumerate(dealt):
            boards[i] = set_hand(hand, worths[-1])
            if progress and i % 500 == 499:
                progress(500)
        worths.append(RowWorths.against(setting_rows(boards), rules))
    return worths


_WORTHS: dict[Rules, RowWorths] = {}


def model_file_name(rules: Rules) -> str:
    """The package data file of the model for ``rules``: ``closed-<name>.npz``."""
    return f"closed-{rules.name}.npz"


def save_model(path: Path, worths: RowWorths, rules: Rules, rounds: int, hands: int,
               seed: int) -> None:
    """Write the worths with what they were built for and how (``model_worths`` checks)."""
    meta = json.dumps({"rules": rules.fingerprint, "variant": rules.name, "rounds": rounds,
                       "hands": hands, "seed": seed}, sort_keys=True)
    with open(path, "wb") as out:
        np.savez_compressed(out, worths=worths.table, meta=np.array(meta))


def _shipped(rules: Rules) -> RowWorths | None:
    entry = resources.files("optimizer.opponents.data") / model_file_name(rules)
    if not entry.is_file():
        return None
    with entry.open("rb") as f, np.load(f) as data:
        if json.loads(str(data["meta"]))["rules"] != rules.fingerprint:
            return None  # other rules of the same name: built afresh
        return RowWorths(data["worths"].copy())


def model_worths(rules: Rules) -> RowWorths:
    """The model's worths for ``rules``: the shipped ones where the package holds them for
    exactly these rules (by fingerprint), else the last round of ``iterate``, built once a
    process (``ROUNDS * HANDS`` settings: half a minute)."""
    if rules not in _WORTHS:
        _WORTHS[rules] = _shipped(rules) or iterate(rules)[-1]
    return _WORTHS[rules]


def opponent_boards(rules: Rules, dealt: np.ndarray, samples: int, opponents: int,
                    seed: int) -> np.ndarray:
    """``(samples, opponents, 13)`` settings: in each sample the deck without the ``dealt``
    cards is shuffled and dealt 13 to each opponent, disjoint (exact card removal: one deck),
    and each opponent sets its cards as the model does. Deterministic for the same
    arguments."""
    worths = model_worths(rules)
    left = np.setdiff1d(np.arange(52), np.asarray(dealt, dtype=np.int64))
    rng = np.random.default_rng([seed, 13])
    boards = np.empty((samples, opponents, 13), dtype=np.int64)
    for s in range(samples):
        deck = rng.permutation(left)
        for o in range(opponents):
            boards[s, o] = set_hand(deck[13 * o:13 * (o + 1)], worths)
    return boards
