"""The pools: boards the opponent bot played, stored as package data and chosen for rules.

A *pool* is a file of boards that a bot played from a full deck, each with the cards its
player saw and threw away; the shipped ones are in ``optimizer/opponents/data/``. Its meta
names the player (``optimizer.opponents.players``): the heuristic bot
(``optimizer.opponents.bot``) by its knobs, or the learned bot by its models. Every hand
was given a random suit relabelling when the pool was built (the bots treat suits alike),
so each of the 24 relabellings of a pool board is as likely as the board itself: what lets
``optimizer.opponents.draw`` honour card removal. A pool serves the rules that share its
dealing style, its deck and its foul rules; ``opponents --regenerate`` builds one.

A board is stored as it plays: its 13 rows' cards with each joker replaced by the face it
stands for (chosen by ``evaluate_board`` for the whole set, so a joker played down to avoid
a foul is stored as the lower face), so that every row compares with a row of ours as a row
of faces does; under two decks a board may hold a face twice. ``jokers`` marks the slots
that hold a joker, which card removal needs (the player saw a joker, not that face); the
discards keep jokers as ``JOKER``. A pool dealt from one plain deck (52 cards, no jokers)
has no ``jokers`` array in its file and no ``deck`` in its meta, as the pools built before
decks were data; any other deck is named in the meta and in the file name
(``pool_file_name``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol
from functools import cache, cached_property
from importlib import resources
from itertools import permutations
from pathlib import Path

import numpy as np

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.board_arrays import evaluate_boards
from fantasyland.evaluator.cards import JOKER, ONE_DECK, Deck
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.evaluator.strength import DESCRIPTORS, LOW_DESCRIPTORS
from fantasyland.optimizer.opponents.bot import (DEALINGS, ONE_AT_A_TIME, THREE_KEEP_TWO, BotParams,
                                                 Dealing, PlayedHand, deck_counts, entry_worths,
                                                 remaining)
from fantasyland.optimizer.opponents.chunks import Chunk, run_chunks
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.memo import by_identity
from fantasyland.optimizer.opponents.odds import RowOdds, even_odds, odds_from_boards
from fantasyland.optimizer.opponents.params import with_later_knobs


#: What a pool's meta says under ``bot`` when the learned bot played it (a pool the heuristic
#: bot played records its knobs under ``params`` instead, as pools always did).
LEARNED = "learned"


class PoolPlayer(Protocol):
    """Who plays a pool's hands (``optimizer.opponents.players``): what the pool's meta
    records of it, and a hand it plays whole from its cards in the order they arrive."""

    @property
    def meta(self) -> dict: ...

    def play(self, cards: Sequence[int], rng: np.random.Generator) -> PlayedHand: ...


#: Every relabelling of the suits ``c d h s``: ``PERMUTATIONS[i][s]`` is the new suit of ``s``.
PERMUTATIONS = np.array(list(permutations(range(4))), dtype=np.int64)

CHUNK = 500  # hands per seeded chunk when a pool is built: the result ignores ``workers``


def relabel(cards: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Apply suit relabellings ``perm`` (one row per board) to ``cards`` (one row per board);
    a joker stays a joker."""
    moved = (cards & ~3) | np.take_along_axis(perm, cards & 3, axis=1)
    return np.where(cards == JOKER, cards, moved)


def dealing_for(rules: Rules) -> Dealing:
    """The dealing style of the ordinary hands under ``rules``: the rules file's ``dealing``
    key (presets set it; a house file inherits its base's)."""
    return DEALINGS[rules.dealing]


def deck_meta(deck: Deck) -> dict | None:
    """The deck as a pool's meta names it: None for one plain deck (52 cards, no jokers)."""
    return None if deck == ONE_DECK else {"decks": deck.decks, "jokers": deck.jokers,
                                          "five_of_a_kind": deck.five_of_a_kind}


def deck_tag(deck: Deck) -> str:
    """The deck in a pool's file name: empty for one plain deck, else ``2-jokers``,
    ``2-decks``, ``2-decks-1-joker`` and the like (``five`` where one deck's jokers make
    five of a kind)."""
    parts = [f"{deck.decks}-decks"] if deck.decks > 1 else []
    if deck.jokers:
        parts.append(f"{deck.jokers}-joker{'s' * (deck.jokers > 1)}")
    if deck.five_of_a_kind and deck.decks == 1:
        parts.append("five")
    return "-".join(parts)


def foul_signature(rules: Rules) -> str:
    """What a pool must share with the rules it serves: row scales, foul order, qualify
    (each qualifying hand as the descriptor of the weakest hand that meets it, which does
    not move when the strength scale gains hands, as it did for jokers and two decks)."""
    def weakest(requirement) -> list[int]:
        scale = rules.scale(requirement.row)
        table = DESCRIPTORS if scale is Scale.HIGH else LOW_DESCRIPTORS
        return [int(d) for d in table[requirement.spec.threshold(scale)]]

    return json.dumps({
        "scales": {row: scale.value for row, scale in rules.scales},
        "order": list(rules.order),
        "qualify": {q.row: weakest(q) for q in rules.qualify},
    }, sort_keys=True)


@dataclass(frozen=True, eq=False)
class Pool:
    """Boards the bot played (top 3, middle 5, bottom 5) and what each player threw away."""

    boards: np.ndarray  # (n, 13) card ids as the boards play (jokers resolved to faces)
    discards: np.ndarray  # (n, d) card ids, jokers as JOKER
    meta: dict
    jokers: np.ndarray | None = None  # (n, 13) bool: the slots holding a joker; None: none

    @property
    def dealing(self) -> Dealing:
        return DEALINGS[self.meta["dealing"]]

    @property
    def deck(self) -> Deck:
        named = self.meta.get("deck")
        return ONE_DECK if named is None else Deck(**named)

    @property
    def placed(self) -> np.ndarray:
        """``(n, 13)``: the cards each player placed, jokers as ``JOKER`` (not their faces)."""
        return self.boards if self.jokers is None else np.where(self.jokers, JOKER,
                                                                 self.boards)

    def __len__(self) -> int:
        return len(self.boards)

    @cached_property
    def masks(self) -> tuple[np.ndarray, np.ndarray]:
        """Bitmasks (uint64) of the placed cards and of every card seen, one per board."""
        placed = bits(self.boards)
        return placed, placed | bits(self.discards)

    @cached_property
    def counts(self) -> tuple[np.ndarray, np.ndarray]:
        """``(n, 53)`` int8 counts of each card (faces, then the joker) placed, and seen
        (placed or thrown away), one row per board: card removal under any deck."""
        placed = _counts(self.placed)
        return placed, placed + _counts(self.discards)

    def save(self, path: str | Path) -> None:
        arrays = {"boards": self.boards.astype(np.uint8),
                  "discards": self.discards.astype(np.uint8),
                  "meta": np.array(json.dumps(self.meta, sort_keys=True))}
        if self.jokers is not None:
            arrays["jokers"] = self.jokers.astype(bool)
        # allow_pickle: numpy's default, named so that its stubs match **arrays to no flag
        np.savez_compressed(path, allow_pickle=True, **arrays)


def _counts(cards: np.ndarray) -> np.ndarray:
    out = np.zeros((len(cards), JOKER + 1), dtype=np.int8)
    np.add.at(out, (np.repeat(np.arange(len(cards)), cards.shape[1]), cards.reshape(-1)), 1)
    return out


_BIT = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))


def bits(cards: np.ndarray) -> np.ndarray:
    """``(n,)`` uint64: the bitmask of each row of card ids ``(n, k)`` (bit ``card``)."""
    masks = np.zeros(len(cards), dtype=np.uint64)
    # Column by column, each a gather from a table of bits: a reduce along the rows, or
    # shifting a strided column, is several times slower on a pool of 300,000 boards.
    for column in np.ascontiguousarray(np.asarray(cards).T):
        masks |= _BIT[column]
    return masks


def load_pool(path: str | Path) -> Pool:
    with np.load(path) as data:
        return Pool(data["boards"].astype(np.int64), data["discards"].astype(np.int64),
                    json.loads(str(data["meta"])),
                    data["jokers"].astype(bool) if "jokers" in data.files else None)


#: The file-name prefix of the pools that the stronger bot's row odds are taken from
#: (``table_odds``), which serve no solve.
ODDS_PREFIX = "odds-"


@cache
def shipped_pools() -> tuple[Pool, ...]:
    """Every pool that serves solves in the package data, in file-name order
    (``closed-*.npz`` are the closed-hand model's worths, ``optimizer.opponents.closed``,
    and ``odds-*.npz`` the boards of ``odds_pools``)."""
    return _data_pools(lambda name: not name.startswith(("closed-", ODDS_PREFIX)))


@cache
def odds_pools() -> tuple[Pool, ...]:
    """The pools in the package data named ``odds-*.npz``: the boards whose row odds the
    stronger bot values its boards against (``table_odds``), kept when the pool that serves
    the same rules was rebuilt, so that the bot plays as it was measured."""
    return _data_pools(lambda name: name.startswith(ODDS_PREFIX))


def _data_pools(wanted: Callable[[str], bool]) -> tuple[Pool, ...]:
    files = sorted((f for f in resources.files("fantasyland.optimizer.opponents.data").iterdir()
                    if f.name.endswith(".npz") and wanted(f.name)), key=lambda f: f.name)
    pools = []
    for entry in files:
        with resources.as_file(entry) as path:
            pools.append(load_pool(path))
    return tuple(pools)


def pool_for(rules: Rules, *, pools: Sequence[Pool] | None = None) -> Pool:
    """The pool that serves ``rules``: same dealing style, same deck and same foul rules.

    Royalty and Fantasyland tables may differ (a house-rules file uses the pool of its base):
    the caller scores the boards under its own rules.
    """
    pools = shipped_pools() if pools is None else pools
    dealing, signature = dealing_for(rules), foul_signature(rules)
    for pool in pools:
        if pool.meta["dealing"] == dealing.name and pool.deck == rules.deck \
                and pool.meta["foul_signature"] == signature:
            return pool
    built = ", ".join(f"{p.meta['rules']} ({dealt_from(p.meta['dealing'], p.deck)})"
                      for p in pools) or "none"
    raise OpponentModelError(
        f"no opponent pool for the rules {rules.name!r}: the ev objective needs boards played "
        f"with their dealing ({dealt_from(dealing.name, rules.deck)}) and their foul rules "
        f"(row order and qualifying hands), and the pools are built for {built}; use "
        f"--objective royalties, or build a pool with "
        f"`fantasyland opponents --regenerate --variant FILE`")


@by_identity
def table_odds(rules: Rules) -> RowOdds:
    """The row odds the stronger bot values finished boards by under ``rules``
    (``optimizer.opponents.odds``): against the boards of the odds pool that serves them
    (``odds_pools``) where there is one, else of the pool that serves them; even odds if
    none does. They are part of the bot, like its knobs: a pool it played records them
    (``play_hands``), so a pool it rebuilt does not change how it plays."""
    for pools in (odds_pools(), shipped_pools()):
        try:
            pool = pool_for(rules, pools=pools)
        except OpponentModelError:
            continue
        return odds_from_boards(evaluate_boards(pool.boards, rules), rules)
    return even_odds(rules)


def dealt_from(dealing: str, deck: Deck) -> str:
    """A dealing as the figures name it: its style, and its deck unless one plain deck."""
    return f"{dealing}, {deck_tag(deck)}" if deck_tag(deck) else dealing


# --- building pools --------------------------------------------------------------------------

def deal_from(deck: Deck, *, removed: Iterable[int] = ()) -> np.ndarray:
    """The cards a hand is dealt from: ``deck`` (each face as often as it holds it, and its
    jokers) less ``removed``, sorted; under one plain deck the ids ``np.setdiff1d`` lists."""
    taken = np.asarray(list(removed), dtype=np.int64)
    return remaining(deck_counts(deck) - np.bincount(taken, minlength=JOKER + 1))


def _chunk(args) -> dict[str, np.ndarray]:
    rules, dealing, seed, index, hands, player, removed = args
    rng = np.random.default_rng([seed, index])
    deck = deal_from(rules.deck, removed=removed)
    boards, discards, jokers = [], [], []
    for _ in range(hands):
        cards = rng.permutation(deck)[:dealing.seen]
        hand = player.play(cards.tolist(), rng)
        perm = PERMUTATIONS[rng.integers(24)] if not len(removed) else np.arange(4)
        boards.append(relabel(np.array([_as_played(rules, hand.board)]), perm[None])[0])
        jokers.append(np.array(hand.board) == JOKER)
        discards.append(relabel(np.array([hand.discards], dtype=np.int64).reshape(1, -1),
                                 perm[None])[0])
    return {"boards": np.array(boards, dtype=np.int64).reshape(hands, 13),
            "discards": np.array(discards, dtype=np.int64).reshape(hands, dealing.seen - 13),
            "jokers": np.array(jokers, dtype=bool).reshape(hands, 13)}


def _as_played(rules: Rules, board: Sequence[int]) -> tuple[int, ...]:
    """A finished board with each joker the face ``evaluate_board`` chooses for it."""
    if JOKER not in board:
        return tuple(board)
    report = evaluate_board(Board(tuple(board[:3]), tuple(board[3:8]), tuple(board[8:])),
                            rules=rules)
    return tuple(c for row in ROWS for c in report.row(row).played)


def chunk_path(directory: str | Path, start: int, stop: int) -> Path:
    """Where a pool built in saved chunks keeps its hands ``start..stop`` (``chunks``)."""
    return Path(directory) / f"hands{start:07d}-{stop:07d}.npz"


def play_hands(rules: Rules, dealing: Dealing, hands: int, seed: int,
               *, player: PoolPlayer, removed: Iterable[int] = (),
               workers: int = 1, progress: Callable[[int], None] | None = None,
               directory: str | Path | None = None, saved_only: bool = False,
               chunk_done: Callable[[Chunk, float | None], None] | None = None) -> Pool:
    """Let ``player`` (``players.heuristic`` or ``players.learned_player``) play ``hands``
    hands from the deck without ``removed``, in seeded chunks of ``CHUNK`` hands (chunk
    ``i`` from the generator of ``(seed, i)``).

    From the full deck each hand is given a random suit relabelling (see the module
    docstring). The result depends on ``seed`` only, not on ``workers``, nor on whether the
    chunks are saved. With a ``directory`` each chunk is saved there as it is finished and
    one already saved is read instead (``optimizer.opponents.chunks``), so a stopped build
    resumes; its meta, which a saved chunk must match, adds to the pool's the rules'
    fingerprint, the chunk's place and its hands. ``saved_only`` plays nothing and refuses
    a chunk not yet saved. ``chunk_done`` is told of each chunk as ``run_chunks`` tells.
    """
    taken = np.asarray(list(removed), dtype=np.int64)
    # the heuristic bot's pools keep the meta they always had: its knobs under "params"
    params: BotParams | None = getattr(player, "params", None)
    played_with = {"rules": rules.name, "dealing": dealing.name,
                   "foul_signature": foul_signature(rules), "seed": seed} | player.meta
    if deck_meta(rules.deck) is not None:  # one plain deck: the meta of the older pools
        played_with["deck"] = deck_meta(rules.deck)
    if params is not None and params.table_points:  # its odds come from the shipped pool
        played_with["odds"] = table_odds(rules).fingerprint
    chunks = []
    for index, start in enumerate(range(0, hands, CHUNK)):
        size = min(CHUNK, hands - start)
        job = (rules, dealing, seed, index, size, player, taken)
        if directory is None:
            chunks.append(Chunk(job, size))
            continue
        meta = played_with | {"fingerprint": rules.fingerprint, "chunk": index,
                              "chunk_hands": CHUNK, "hands": size}
        if len(taken):
            meta["removed"] = taken.tolist()
        chunks.append(Chunk(job, size, chunk_path(directory, start, start + size), meta))

    def done(chunk: Chunk, seconds: float | None) -> None:
        if progress:
            progress(chunk.size)
        if chunk_done:
            chunk_done(chunk, seconds)

    if saved_only:
        _refuse_unsaved(chunks, directory, hands)
    started = time.perf_counter()
    results = run_chunks(_chunk, chunks, "hands", workers=workers, done=done)
    boards = np.concatenate([r["boards"] for r in results]) if results else \
        np.zeros((0, 13), int)
    discards = np.concatenate([r["discards"] for r in results]) if results else \
        np.zeros((0, 0), int)
    jokers = np.concatenate([r["jokers"] for r in results]) if results else \
        np.zeros((0, 13), bool)
    # saved chunks: the CPU seconds of their play, summed; else this call's time
    seconds = sum(float(r["seconds"]) for r in results if "seconds" in r) \
        if directory is not None else time.perf_counter() - started
    meta = played_with | {"hands": hands, "seconds": round(seconds, 1)}
    if params is not None and params.table_points:
        # what it counted each entry worth, read off the rules (their ev_repeat_value and
        # ev_entry_value, which are measured against the pools and so move when one is
        # rebuilt): what replaying the pool needs besides its knobs and its odds
        meta["entry_worths"] = entry_worths(rules, params).tolist()
    return Pool(boards, discards, meta, jokers if rules.deck.jokers else None)


def _refuse_unsaved(chunks: Sequence[Chunk], directory: str | Path | None, hands: int) -> None:
    """Refuse to assemble a pool whose chunks are not all saved, saying what of it is: a
    pool of the hands saved from the first on is the head of the whole (same seed)."""
    if directory is None:
        raise ValueError("saved_only assembles the chunks of a directory: give one")
    paths = [chunk.path for chunk in chunks if chunk.path is not None]
    assert len(paths) == len(chunks)  # each chunk of a directory is saved there
    missing = [i for i, path in enumerate(paths) if not path.exists()]
    if not missing:
        return
    head = sum(chunk.size for chunk in chunks[:missing[0]])
    raise OpponentModelError(
        f"{directory} holds {len(chunks) - len(missing)} of the {len(chunks)} chunks of "
        f"{hands} hands (the first missing: {paths[missing[0]].name}): play the rest first"
        + (f", or assemble the {head} hands saved from the first on (--hands {head})"
           if head else ""))


#: Hands in each shipped pool, by dealing style: enough for the exact draw
#: (docs/ev-and-opponents.md, "Card removal").
POOL_HANDS = {THREE_KEEP_TWO.name: 24_000, ONE_AT_A_TIME.name: 8_000}
#: The bot's parameters by dealing style. Pineapple's are tuned (docs/ev-and-opponents.md,
#: "Calibration"); classic OFC, seeing four cards fewer, keeps the milder Fantasyland bonus it
#: was first given.
POOL_PARAMS = {THREE_KEEP_TWO.name: BotParams(),
               ONE_AT_A_TIME.name: BotParams(fl_bonus=15.0)}
POOL_SEED = 2024
#: The stronger bot by dealing style (docs/ev-and-opponents.md, "The stronger bot"): the
#: shipped bot's search, with finished boards valued in points at the table. In Pineapple its
#: estimate of earlier rounds charges a foul 10 points, not 6, as measured there; classic OFC,
#: where that is not measured yet, keeps 6.
STRONG_PARAMS = {
    THREE_KEEP_TWO.name: replace(POOL_PARAMS[THREE_KEEP_TWO.name], table_points=True,
                                 estimate_foul_penalty=10.0, samples=96),
    ONE_AT_A_TIME.name: replace(POOL_PARAMS[ONE_AT_A_TIME.name], table_points=True)}
#: The heuristic bots a pool can be played by: the first pools' and the stronger one. The
#: learned bot (``LEARNED``) plays too where the game has shipped models
#: (``players.named_player``).
BOTS = {"shipped": POOL_PARAMS, "strong": STRONG_PARAMS}


def pool_bot(pool: Pool) -> BotParams:
    """The knobs of the heuristic bot that played ``pool``, as its meta records them (a knob
    added since, at the default that plays as before: ``params.with_later_knobs``)."""
    if pool.meta.get("bot") == LEARNED:
        raise OpponentModelError(f"the {pool.meta['rules']} pool was played by the learned "
                                 "bot, which has no knobs")
    return BotParams(**with_later_knobs(pool.meta["params"]))


def pool_file_name(rules: Rules) -> str:
    """``DEALING-RULES.npz``, with the deck after the dealing when it is not one plain deck
    (``three-keep-two-2-jokers-pineapple-joker.npz``): a pineapple hand dealt from 54 cards
    is another dealing than one from 52."""
    tag = deck_tag(rules.deck)
    return f"{dealing_for(rules).name}{'-' + tag if tag else ''}-{rules.name}.npz"
