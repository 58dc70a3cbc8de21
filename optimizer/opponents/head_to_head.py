"""Two bots heads-up over duplicate deals: the honest measure of which plays better.

Each deal gives two seats their cards from one deck (each seat's cards in the order they
arrive). The challenger plays seat A against the incumbent on seat B, then the same deal
with the seats swapped, so both bots meet the same cards and the luck of the deal cancels.
Each bot plays a seat with the same generator, the seat's, so their random choices (the
samples they look at, the ties they break) are the same wherever they think alike: what is
left is skill. Two copies of one bot tie every deal exactly; each game still pairs boards
played with two different generators, so no game's odds change. Games are settled by the
variant's scoring (``evaluator.scoring.settle``: rows, scoop, royalties, fouls). A
Fantasyland entry earns nothing in the hand itself, only in the next one, so the result is
given twice: the points of the hands alone, and with each entry credited at its worth at
the table (``optimizer.opponents.bot.entry_worths``, the rules' ev worth of the run it
starts).

Everything is seeded: deal ``i`` comes from ``(seed, i)`` and the play of a seat from
``(seed, i, seat, PLAY)``, so a bot's boards do not depend on the other bot, on how the deals
are split into runs, or on the order they are played in (``play_seats`` of a range of deals
is a slice of the whole). A bot that sees the table (``BotParams.sees_boards``) is the
exception to the first: it counts the cards face up on the other board as seen, so the two
games of a deal are played at one table, seat A first on each street (``play_games``), and
saved as the pair's.

Measured (docs/notes-opponents.md, "The stronger bot"), the shared generators cut the
standard error about threefold against generators of each bot's own, at no cost.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.scoring import settle
from fantasyland.optimizer.opponents.bot import (BotParams, Dealing, entry_worths, play_hand,
                                                 play_in_turn)
from fantasyland.optimizer.opponents.chunks import Chunk, load_chunk, run_chunks, saved_chunks
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.params import explicit, params_meta, with_later_knobs
from fantasyland.optimizer.opponents.pools import deal_from, table_odds
from fantasyland.optimizer.opponents.resolve import evaluate_played

#: The last word of a seat's play's seed, ``(seed, deal, seat, PLAY)``, which both bots share.
#: Not 0: numpy reads a seed's trailing zeros as nothing, so ``(seed, deal, 0, 0)`` would be
#: the generator that dealt the cards, ``(seed, deal)``, and seat A's bot would sample
#: futures from the very stream that ordered its deck.
PLAY = 1


def deal_seats(rules: Rules, dealing: Dealing, seed: int, index: int) -> np.ndarray:
    """``(2, seen)``: deal ``index``'s cards for seats A and B, in the order they arrive."""
    cards = np.random.default_rng([seed, index]).permutation(deal_from(rules.deck))
    return cards[:2 * dealing.seen].reshape(2, dealing.seen)


def play_seats(rules: Rules, dealing: Dealing, params: BotParams, seed: int, start: int,
               stop: int, *, stream: int = PLAY) -> np.ndarray:
    """``(stop - start, 2, 13)``: one bot's boards from both seats of deals ``start..stop``;
    another ``stream`` gives it generators of its own (to measure what sharing them saves)."""
    boards = np.zeros((stop - start, 2, 13), dtype=np.int64)
    odds = table_odds(rules) if params.table_points else None
    for i in range(start, stop):
        for seat, cards in enumerate(deal_seats(rules, dealing, seed, i)):
            rng = np.random.default_rng([seed, i, seat, stream])
            boards[i - start, seat] = play_hand(rules, dealing, cards.tolist(), params,
                                                rng, odds=odds).board
    return boards


def in_turn(challenger: BotParams, incumbent: BotParams) -> bool:
    """Whether the two bots' games must be played at one table, in turn: one of them sees
    the other's board (``BotParams.sees_boards``), so its play depends on the other bot."""
    return challenger.sees_boards or incumbent.sees_boards


def play_games(rules: Rules, dealing: Dealing, challenger: BotParams, incumbent: BotParams,
               seed: int, start: int, stop: int) -> dict[str, np.ndarray]:
    """Both games of deals ``start..stop`` played at one table in turn (``in_turn``), seat A
    first on each street: the challenger's boards ``(stop - start, 2, 13)`` from seats A and
    B, and the incumbent's. Each seat's bot plays with the seat's generator, as in
    ``play_seats``, which bots that see no board play alike."""
    boards = {"challenger": np.zeros((stop - start, 2, 13), dtype=np.int64),
              "incumbent": np.zeros((stop - start, 2, 13), dtype=np.int64)}
    bots = {"challenger": challenger, "incumbent": incumbent}
    odds = table_odds(rules) if challenger.table_points or incumbent.table_points else None
    for i in range(start, stop):
        hands = [cards.tolist() for cards in deal_seats(rules, dealing, seed, i)]
        for first, second in (("challenger", "incumbent"), ("incumbent", "challenger")):
            rngs = [np.random.default_rng([seed, i, seat, PLAY]) for seat in range(2)]
            played = play_in_turn(rules, dealing, hands, [bots[first], bots[second]], rngs,
                                  odds=odds)
            boards[first][i - start, 0] = played[0].board
            boards[second][i - start, 1] = played[1].board
    return boards


@dataclass(frozen=True)
class BotFigures:
    """One bot's figures over its hands: foul and entry rates, and royalties (a foul as 0)."""

    hands: int
    foul_rate: float
    foul_rate_se: float
    fantasyland_rate: float
    fantasyland_rate_se: float
    mean_royalties: float
    mean_royalties_se: float
    # hands whose rows make a Fantasyland entry but foul: the chases that failed
    entries_fouled_rate: float
    entries_fouled_rate_se: float


@dataclass(frozen=True)
class HeadToHead:
    """The challenger's result against the incumbent over ``deals`` duplicate deals."""

    deals: int
    points: float  # the challenger's points a game, the hands alone
    points_se: float
    points_with_entries: float  # the same, each Fantasyland entry credited at its worth
    points_with_entries_se: float
    challenger: BotFigures
    incumbent: BotFigures
    # the challenger's figures less the incumbent's, paired deal by deal (each deal's two
    # hands of one bot against the other's two): ``hands`` counts the deals
    difference: BotFigures

    @property
    def games(self) -> int:
        """Games played: two a deal, one from each seat."""
        return 2 * self.deals


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    se = float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    return float(values.mean()), se


#: The columns of ``per_hand``, as ``BotFigures`` names them.
_COLUMNS = ("foul_rate", "fantasyland_rate", "mean_royalties", "entries_fouled_rate")


def per_hand(rules: Rules, boards: np.ndarray) -> np.ndarray:
    """``(hands, 4)``: each hand's foul, entry, royalties (a foul as 0) and entry lost to
    its foul (``_COLUMNS``)."""
    out = evaluate_played(boards.reshape(-1, 13), rules)
    return np.stack([out.fouled, out.entry_cards > 0, out.royalty_total, out.entry_lost],
                    axis=1).astype(float)


def _figures(values: np.ndarray) -> BotFigures:
    """The means of ``per_hand``'s columns (or of their differences), with their errors."""
    figures = {}
    for column, name in enumerate(_COLUMNS):
        figures[name], figures[name + "_se"] = _mean_se(values[:, column])
    return BotFigures(len(values), **figures)


def board_report(rules: Rules, board: np.ndarray):
    """A finished board of 13 card ids (top, middle, bottom) scored under ``rules``."""
    cards = tuple(int(c) for c in board)
    return evaluate_board(Board(cards[:3], cards[3:8], cards[8:]), rules=rules)


def score(rules: Rules, challenger: np.ndarray, incumbent: np.ndarray,
          *, params: BotParams = BotParams()) -> HeadToHead:
    """Settle the boards of ``play_seats`` (``(deals, 2, 13)`` each): in each deal the
    challenger's seat A against the incumbent's seat B, and its seat B against their seat A.
    The standard errors are over deals, whose two games share their cards and generators.
    ``params`` gives ``card_worth`` to the entries' worth."""
    worth = entry_worths(rules, params)
    ours = [[board_report(rules, b) for b in deal] for deal in challenger]
    theirs = [[board_report(rules, b) for b in deal] for deal in incumbent]
    points = np.array([settle(o[0], t[1]) + settle(o[1], t[0]) for o, t in zip(ours, theirs)],
                      dtype=float)
    credit = np.array([sum(worth[r.fantasyland_cards or 0] for r in o)
                       - sum(worth[r.fantasyland_cards or 0] for r in t)
                       for o, t in zip(ours, theirs)], dtype=float)
    mean, se = _mean_se(points / 2)
    mean_fl, se_fl = _mean_se((points + credit) / 2)
    mine, other = per_hand(rules, challenger), per_hand(rules, incumbent)
    by_deal = (mine - other).reshape(len(points), 2, len(_COLUMNS)).mean(axis=1)
    return HeadToHead(len(points), mean, se, mean_fl, se_fl, _figures(mine), _figures(other),
                      _figures(by_deal))


#: Deals a run plays between two calls of ``progress``, and the deals of a saved chunk.
STEP = 25


def _bot_meta(rules: Rules, params: BotParams) -> dict:
    # explicit: chunks of the stronger bot's old defaults (None for 8 and 10) are refused
    return {"rules": rules.name, "bot": asdict(explicit(params))}


def _bots_meta(rules: Rules, challenger: BotParams, incumbent: BotParams) -> dict:
    """The meta of a chunk saved before each bot's boards were kept apart: both bots'."""
    return {"rules": rules.name, "challenger": asdict(explicit(challenger)),
            "incumbent": asdict(explicit(incumbent))}


def _upgrade(meta: dict) -> dict:
    """A saved chunk's meta as today's would be: knobs added since at their defaults."""
    return meta | {bot: with_later_knobs(meta[bot])
                   for bot in ("bot", "challenger", "incumbent")
                   if isinstance(meta.get(bot), dict)}


def bot_directory(directory: Path, rules: Rules, params: BotParams) -> Path:
    """Where a run that saves its boards keeps one bot's: a folder of ``directory`` named by
    the rules and a digest of the bot's knobs as a pool's meta records them
    (``params_meta``: a knob added later, at the default that plays as before, changes no
    name), so every run in ``directory`` that plays this bot reads its boards."""
    named = json.dumps({"rules": rules.name, "bot": params_meta(params)}, sort_keys=True)
    return Path(directory) / f"bot-{hashlib.sha256(named.encode()).hexdigest()[:12]}"


def pair_directory(directory: Path, rules: Rules, challenger: BotParams,
                   incumbent: BotParams) -> Path:
    """Where a run keeps the games of two bots played in turn (``in_turn``): a folder of
    ``directory`` named by the rules and a digest of both bots' knobs, in their roles (the
    challenger's board depends on the incumbent's play, so the games are the pair's)."""
    named = json.dumps({"rules": rules.name, "challenger": params_meta(challenger),
                        "incumbent": params_meta(incumbent)}, sort_keys=True)
    return Path(directory) / f"pair-{hashlib.sha256(named.encode()).hexdigest()[:12]}"


def chunk_path(directory: Path, seed: int, start: int, stop: int) -> Path:
    """Where a run that saves its boards keeps deals ``start..stop`` of ``seed``: one bot's,
    in its ``bot_directory``; both bots' in a chunk saved before they were kept apart."""
    return Path(directory) / f"seed{seed}-deals{start}-{stop}.npz"


def _play_deals(job) -> dict[str, np.ndarray]:
    rules, dealing, params, seed, start, stop = job
    return {"boards": play_seats(rules, dealing, params, seed, start, stop)}


def _play_games(job) -> dict[str, np.ndarray]:
    rules, dealing, challenger, incumbent, seed, start, stop = job
    return play_games(rules, dealing, challenger, incumbent, seed, start, stop)


def head_to_head(rules: Rules, dealing: Dealing, challenger: BotParams, incumbent: BotParams,
                 deals: int, seed: int,
                 *, progress: Callable[[int], None] | None = None, first: int = 0,
                 directory: Path | None = None) -> HeadToHead:
    """The challenger against the incumbent over deals ``first .. first + deals`` (module
    docstring), on one process; ``progress`` is told how many deals each step finished.

    With a ``directory`` each bot's boards of each step are saved there, in the bot's own
    folder (``bot_directory``, ``optimizer.opponents.chunks``), and a step already saved is
    read instead of played: a run stopped half way resumes where it was, runs over other
    ranges of deals add up (``saved_head_to_head``), and a bot's boards serve every run
    that plays it (a bot's boards do not depend on the other bot): several candidates
    against one incumbent play the incumbent once. Two bots alike play once."""
    if deals < 1:
        raise ValueError(f"need deals >= 1, got {deals}")
    if first < 0:
        raise ValueError(f"need a first deal >= 0, got {first}")
    if in_turn(challenger, incumbent):
        return _head_to_head_in_turn(rules, dealing, challenger, incumbent, deals, seed,
                                     progress, first, directory)
    bots = [challenger] if explicit(challenger) == explicit(incumbent) else [challenger,
                                                                             incumbent]
    chunks: list[Chunk] = []
    waiting: dict[int, int] = {}  # by a step's first deal: its bots' chunks not yet done
    step_of: dict[Chunk, int] = {}  # each chunk's step (a chunk hashes as itself)
    for start in range(first, first + deals, STEP):
        stop = min(start + STEP, first + deals)
        waiting[start] = len(bots)
        for params in bots:
            path = None if directory is None else chunk_path(
                bot_directory(directory, rules, params), seed, start, stop)
            chunk = Chunk((rules, dealing, params, seed, start, stop), stop - start, path,
                          _bot_meta(rules, params), _upgrade)
            chunks.append(chunk)
            step_of[chunk] = start

    def done(chunk: Chunk, seconds: float | None) -> None:
        start = step_of[chunk]
        waiting[start] -= 1
        if progress and not waiting[start]:
            progress(chunk.size)

    results = run_chunks(_play_deals, chunks, "deals", done=done)
    played = [np.concatenate([r["boards"] for r in results[i::len(bots)]])
              for i in range(len(bots))]
    return score(rules, played[0], played[-1], params=challenger)


def _head_to_head_in_turn(rules: Rules, dealing: Dealing, challenger: BotParams,
                          incumbent: BotParams, deals: int, seed: int,
                          progress: Callable[[int], None] | None, first: int,
                          directory: Path | None) -> HeadToHead:
    """``head_to_head`` of bots whose games are played in turn (``in_turn``): each step's
    games are saved in the pair's folder (``pair_directory``), both bots' boards in one chunk."""
    chunks = []
    for start in range(first, first + deals, STEP):
        stop = min(start + STEP, first + deals)
        path = None if directory is None else chunk_path(
            pair_directory(directory, rules, challenger, incumbent), seed, start, stop)
        chunks.append(Chunk((rules, dealing, challenger, incumbent, seed, start, stop),
                            stop - start, path, _bots_meta(rules, challenger, incumbent),
                            _upgrade))
    results = run_chunks(_play_games, chunks, "deals",
                         done=(lambda chunk, _: progress(chunk.size)) if progress else None)
    return score(rules, *(np.concatenate([r[bot] for r in results])
                          for bot in ("challenger", "incumbent")), params=challenger)


def saved_head_to_head(rules: Rules, challenger: BotParams, incumbent: BotParams, seed: int,
                       directory: Path) -> tuple[HeadToHead, list[tuple[int, int]]]:
    """The result over every chunk of ``seed`` saved in ``directory`` for both bots
    (``head_to_head``), and the ranges of deals they cover, merged: the deals both bots'
    folders hold, or the pair's folder where their games are played in turn. A directory of
    chunks saved before the bots' boards were kept apart is read as it was written, both
    bots in one chunk. Chunks that overlap are refused."""
    if in_turn(challenger, incumbent):
        keys, boards = _games_saved(pair_directory(directory, rules, challenger, incumbent),
                                    directory, seed, rules, challenger, incumbent,
                                    "for these bots at one table")
    else:
        ours, theirs = (_spans(bot_directory(directory, rules, params), seed)
                        for params in (challenger, incumbent))
        keys = sorted(ours.keys() & theirs.keys())
        if keys:
            boards = [[_load(spans[key], rules, params) for key in keys]
                      for spans, params in ((ours, challenger), (theirs, incumbent))]
        else:
            keys, boards = _games_saved(Path(directory), directory, seed, rules, challenger,
                                        incumbent, "for both bots")
    ranges: list[tuple[int, int]] = []
    for start, stop in keys:
        if ranges and start < ranges[-1][1]:
            raise OpponentModelError(f"deals {start}..{stop} of seed {seed} overlap deals "
                                     f"{ranges[-1][0]}..{ranges[-1][1]} in {directory}")
        if ranges and ranges[-1][1] == start:
            ranges[-1] = (ranges[-1][0], stop)
        else:
            ranges.append((start, stop))
    return score(rules, *(np.concatenate(b) for b in boards), params=challenger), ranges


def _games_saved(folder: Path, directory: Path, seed: int, rules: Rules,
                 challenger: BotParams, incumbent: BotParams,
                 whose: str) -> tuple[list[tuple[int, int]], list[list[np.ndarray]]]:
    """The chunks of ``seed`` in ``folder`` that hold both bots' boards (a pair's games in
    turn, or a run saved before the bots' boards were kept apart): the deals of each, and
    each bot's boards; none is refused in a line that ends with ``whose``."""
    spans = _spans(folder, seed)
    if not spans:
        raise OpponentModelError(f"no deals of seed {seed} saved in {directory} {whose}")
    keys = sorted(spans)
    meta = _bots_meta(rules, challenger, incumbent)
    saved = [load_chunk(spans[key], meta, "deals", upgrade=_upgrade) for key in keys]
    return keys, [[chunk[bot] for chunk in saved] for bot in ("challenger", "incumbent")]


def _spans(folder: Path, seed: int) -> dict[tuple[int, int], Path]:
    """The chunks of ``seed`` saved in ``folder``, by the deals they hold."""
    spans = {}
    if folder.is_dir():
        for path in saved_chunks(folder, f"seed{seed}-deals*-*.npz"):
            start, stop = path.stem.removeprefix(f"seed{seed}-deals").split("-")
            spans[int(start), int(stop)] = path
    return spans


def _load(path: Path, rules: Rules, params: BotParams) -> np.ndarray:
    return load_chunk(path, _bot_meta(rules, params), "deals", upgrade=_upgrade)["boards"]
