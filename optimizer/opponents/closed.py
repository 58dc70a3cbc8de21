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
(``splits``), fixed for every hand of 13 cards in sorted order. Ties go to the first
setting in that order, so the same cards always set the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
import json
import math
import os
import zipfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np

from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.evaluator.strength import NUM_STRENGTHS, rank3_array, rank5_array

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


#: ``BINOMIAL[c, k]`` = C(c, k): a sorted set of card ids ``c1 < ... < ck`` is the
#: ``sum C(ci, i)``-th set of k cards (its colex index).
BINOMIAL = np.array([[math.comb(c, k) for k in range(6)] for c in range(52)], dtype=np.int64)


@cache
def _strength_table(size: int) -> np.ndarray:
    """The strength of every ``size``-card hand of one deck, by colex index (2,598,960 of
    five cards, 22,100 of three): built once a process, in under a second."""
    rank = rank5_array if size == 5 else rank3_array
    table = np.empty(math.comb(52, size), dtype=np.int32)
    # By the highest card: the sets whose highest card is c are the (size - 1)-sets of the
    # cards below it, in colex order, with c added; they fill the next C(c, size) entries.
    start = 0
    for high in range(size - 1, 52):
        below = colex_sets(high, size - 1)
        hands = np.concatenate([below, np.full((len(below), 1), high, np.int8)], axis=1)
        table[start:start + len(hands)] = rank(hands.astype(np.int64))
        start += len(hands)
    table.flags.writeable = False
    return table


@cache
def colex_sets(cards: int, size: int) -> np.ndarray:
    """Every ``size``-set of the cards ``0 .. cards - 1``, ascending within each set, in
    colex order (row i has colex index i): ``(C(cards, size), size)`` int8."""
    if size == 0:
        return np.zeros((1, 0), dtype=np.int8)
    parts = [np.concatenate([colex_sets(high, size - 1),
                             np.full((math.comb(high, size - 1), 1), high, np.int8)], axis=1)
             for high in range(size - 1, cards)]
    out = np.concatenate(parts) if parts else np.zeros((0, size), dtype=np.int8)
    out.flags.writeable = False
    return out


def colex(sets: np.ndarray) -> np.ndarray:
    """The colex index of each row of sorted card ids (ascending)."""
    size = sets.shape[-1]
    return BINOMIAL[sets, np.arange(1, size + 1)].sum(axis=-1)


def subset_strengths(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The strengths of sorted hands' 286 three-card and 1,287 five-card subsets: for
    ``(n, 13)`` hands, ``(n, 286)`` and ``(n, 1287)``."""
    return (_strength_table(3)[colex(hands[..., THREES])],
            _strength_table(5)[colex(hands[..., FIVES])])


@cache
def _top_buckets() -> tuple[np.ndarray, np.ndarray]:
    """The strengths a three-card top can have, as buckets: for every strength on the
    shared scale, the bucket of the strongest top no stronger than it (-1: none), and for a
    top's own strength its bucket."""
    tops = np.unique(_strength_table(3))
    below = np.searchsorted(tops, np.arange(NUM_STRENGTHS), side="right") - 1
    own = np.full(NUM_STRENGTHS, -1, dtype=np.int64)
    own[tops] = np.arange(len(tops))
    return below, own


def _best_top_at_most(s3: np.ndarray, worth: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Hand by hand (rows), for each of ``limits`` the most ``worth`` of a top (strengths
    ``s3``) no stronger than it, ``-inf`` where none is: the tops' worths gathered into
    buckets by strength, a running maximum along the buckets, read off at each limit."""
    below, own = _top_buckets()
    hands = len(s3)
    buckets = np.full((hands, int(own.max()) + 2), -np.inf)  # the last one: no top at all
    np.maximum.at(buckets, (np.arange(hands)[:, None], own[s3]), worth)
    running = np.maximum.accumulate(buckets[:, :-1], axis=1)
    at = below[limits]
    return np.where(at >= 0, running[np.arange(hands)[:, None], np.maximum(at, 0)], -np.inf)


def _best_at_most(strengths: np.ndarray, worth: np.ndarray) -> np.ndarray:
    """Hand by hand (rows), for each subset the most ``worth`` of the subsets no stronger
    than it: a running maximum along the subsets sorted by strength, each run of equal
    strengths given the maximum at its end."""
    order = np.argsort(strengths, axis=1)
    ranked = np.take_along_axis(strengths, order, axis=1)
    running = np.maximum.accumulate(np.take_along_axis(worth, order, axis=1), axis=1)
    size = strengths.shape[1]
    ends = np.where(np.c_[ranked[:, 1:] != ranked[:, :-1], np.ones(len(ranked), bool)],
                    np.arange(size), size)
    run_end = np.minimum.accumulate(ends[:, ::-1], axis=1)[:, ::-1]
    out = np.empty_like(running)
    np.put_along_axis(out, order, np.take_along_axis(running, run_end, axis=1), axis=1)
    return out


#: Bottoms valued at a time, best bound first, until no bound left reaches the best value.
LOOK = 16


def set_hands(hands: np.ndarray, worths: RowWorths) -> np.ndarray:
    """The model's settings of ``(n, 13)`` hands (cards in any order): ``(n, 13)`` card ids,
    top, middle, bottom. Each is the best legal setting of its hand by ``worths`` (bottom
    >= middle >= top on the shared scale), found without valuing all 72,072: a bottom is
    worth at most its own worth plus the best middle no stronger than it with the best top
    no stronger than that (cards shared or not). Bottoms are valued ``LOOK`` at a time from
    the highest bound down, until the next bound falls short of the best value found. Of
    equal settings the one first in the order of ``splits`` of the sorted hand (by bottom,
    then by split) is played, so the same cards always set the same way. All the hands are
    set together, array by array."""
    cards = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    n = len(cards)
    s3, s5 = subset_strengths(cards)
    top_worth, middle_worth, bottom_worth = (worths.table[0][s3], worths.table[1][s5],
                                             worths.table[2][s5])
    middle_and_top = middle_worth + _best_top_at_most(s3, top_worth, s5)
    bound = bottom_worth + _best_at_most(s5, middle_and_top)
    by_bound = np.argsort(-bound, axis=1, kind="stable")
    middles, tops = splits()
    best = np.full(n, -np.inf)
    choice = np.zeros((n, 2), dtype=np.int64)  # (bottom, split) of the best so far
    active = np.arange(n)
    for start in range(0, len(FIVES), LOOK):
        if not len(active):
            break
        h = active[:, None]
        bottoms = by_bound[h, np.arange(start, min(start + LOOK, len(FIVES)))]
        m, t = middles[bottoms], tops[bottoms]
        hh = h[..., None]
        below, middle, top = s5[h, bottoms][..., None], s5[hh, m], s3[hh, t]
        value = bottom_worth[h, bottoms][..., None] + middle_worth[hh, m] + top_worth[hh, t]
        value[(middle > below) | (top > middle)] = -np.inf
        # the best of this look for each hand, the first in the setting order among equals
        flat = value.reshape(len(active), -1)
        peak = flat.max(axis=1)
        order = np.where(flat == peak[:, None], (bottoms[..., None] * 56 + np.arange(56)).reshape(
            len(active), -1), np.iinfo(np.int64).max)
        first = order.min(axis=1)
        old = choice[active, 0] * 56 + choice[active, 1]
        better = (peak > best[active]) | ((peak == best[active]) & (first < old))
        won = active[better]
        best[won] = peak[better]
        choice[won] = np.stack([first[better] // 56, first[better] % 56], axis=1)
        if start + LOOK < len(FIVES):
            active = active[bound[active, by_bound[active, start + LOOK]] >= best[active]]
    b, k = choice[:, 0], choice[:, 1]
    rows = np.arange(n)[:, None]
    return np.concatenate([cards[rows, THREES[tops[b, k]]], cards[rows, FIVES[middles[b, k]]],
                           cards[rows, FIVES[b]]], axis=1)


def set_hand(hand: np.ndarray, worths: RowWorths) -> np.ndarray:
    """The model's setting of one hand of 13 cards (``set_hands``)."""
    return set_hands(np.asarray(hand)[None], worths)[0]


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


def iterate(rules: Rules, *, rounds: int = ROUNDS, hands: int = HANDS, seed: int = SEED,
            progress: Callable[[int], None] | None = None) -> list[RowWorths]:
    """The model's worths round by round: round 0 against random rows, each later round
    against the settings the round before made of ``hands`` random hands (the same hands
    every round, so that rounds differ by the worths alone)."""
    rng = np.random.default_rng([seed, 0])
    dealt = np.sort(np.argsort(rng.random((hands, 52)), axis=1)[:, :13], axis=1)
    worths = [RowWorths.against(random_rows(hands * 4, rng), rules)]
    for _ in range(rounds):
        boards = np.empty((hands, 13), dtype=np.int64)
        for start in range(0, hands, 500):
            boards[start:start + 500] = set_hands(dealt[start:start + 500], worths[-1])
            if progress:
                progress(min(500, hands - start))
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


def _read_model(source, rules: Rules, as_built_here: bool = False) -> RowWorths | None:
    """The worths a model file holds, if it was built for exactly ``rules`` (by fingerprint),
    and (``as_built_here``) with the rounds, hands and seed ``iterate`` builds with now;
    None otherwise, or if it cannot be read."""
    try:
        with source.open("rb") as f, np.load(f) as data:
            meta = json.loads(str(data["meta"]))
            table = data["worths"].copy()
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None  # a damaged cache file is built afresh
    if meta.get("rules") != rules.fingerprint or table.shape != (3, NUM_STRENGTHS):
        return None  # other rules of the same name: built afresh
    if as_built_here and (meta.get("rounds"), meta.get("hands"), meta.get("seed")) != (
            ROUNDS, HANDS, SEED):
        return None
    return RowWorths(table)


def _shipped(rules: Rules) -> RowWorths | None:
    entry = resources.files("fantasyland.optimizer.opponents.data") / model_file_name(rules)
    return _read_model(entry, rules) if entry.is_file() else None


#: The environment variable naming the directory where models built for rules files are
#: kept between runs; by default ``$XDG_CACHE_HOME/fantasyland`` (``~/.cache/fantasyland``).
CACHE_VARIABLE = "FANTASYLAND_CACHE"


def cache_dir() -> Path:
    """Where models built for rules the package does not ship are kept between runs."""
    if os.environ.get(CACHE_VARIABLE):
        return Path(os.environ[CACHE_VARIABLE])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "fantasyland"


def cached_model_path(rules: Rules) -> Path:
    """The cache file of the model for ``rules``: by name and fingerprint, so that two
    rules files of one name keep a model each."""
    return cache_dir() / f"closed-{rules.name}-{rules.fingerprint}.npz"


def _cached(rules: Rules) -> RowWorths | None:
    path = cached_model_path(rules)
    return _read_model(path, rules, as_built_here=True) if path.is_file() else None


#: Who is told of a model being built, the one wait of a run that can last many seconds:
#: called with the rules and the settings the build makes (``ROUNDS * HANDS``), it returns a
#: context manager whose value is told the settings made as they are (or is None). None:
#: nobody is told, and the library prints nothing; the command line sets it on a terminal.
on_build: Callable[[Rules, int], AbstractContextManager[Callable[[int], None] | None]] | None \
    = None


def watch_builds(hook: Callable[[Rules, int],
                                AbstractContextManager[Callable[[int], None] | None]] | None
                 ) -> None:
    """Tell ``hook`` of every model built from now on (``on_build``); None: tell nobody."""
    global on_build
    on_build = hook


def _build_and_cache(rules: Rules) -> RowWorths:
    """Build the model (``iterate``) and keep it in the cache, written whole or not at all;
    a cache that cannot be written costs the next run the build again, nothing more."""
    with (on_build(rules, ROUNDS * HANDS) if on_build is not None else nullcontext()) as tell:
        worths = iterate(rules, rounds=ROUNDS, hands=HANDS, seed=SEED, progress=tell)[-1]
    path = cached_model_path(rules)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        save_model(partial, worths, rules, ROUNDS, HANDS, SEED)
        os.replace(partial, path)
    except OSError:
        pass
    return worths


def model_worths(rules: Rules) -> RowWorths:
    """The model's worths for ``rules``: the shipped ones where the package holds them for
    exactly these rules (by fingerprint); else those kept in the cache (``cache_dir``) by an
    earlier run; else the last round of ``iterate``, built (half a minute: ``ROUNDS * HANDS``
    settings) and kept there. Once a process."""
    if rules not in _WORTHS:
        _WORTHS[rules] = _shipped(rules) or _cached(rules) or _build_and_cache(rules)
    return _WORTHS[rules]


def opponent_boards(rules: Rules, dealt: np.ndarray, samples: int, opponents: int,
                    seed: int) -> np.ndarray:
    """``(samples, opponents, 13)`` settings: in each sample the deck without the ``dealt``
    cards is shuffled and dealt 13 to each opponent, disjoint (exact card removal: one deck),
    and each opponent sets its cards as the model does. Deterministic for the same
    arguments."""
    left = np.setdiff1d(np.arange(52), np.asarray(dealt, dtype=np.int64))
    return seat_boards(rules, left, samples, opponents, seed)


def seat_boards(rules: Rules, left: np.ndarray, samples: int, seats: int,
                seed: int) -> np.ndarray:
    """``(samples, seats, 13)`` settings of model players dealt from the cards ``left``
    (shuffled anew each sample, the seats disjoint), as ``opponent_boards``."""
    worths = model_worths(rules)
    rng = np.random.default_rng([seed, 13])
    decks = np.stack([rng.permutation(left)[:13 * seats] for _ in range(samples)])
    hands = decks.reshape(samples * seats, 13)
    boards = np.concatenate([set_hands(hands[i:i + 600], worths)
                             for i in range(0, len(hands), 600)])
    return boards.reshape(samples, seats, 13)
