"""The games of the Play view, kept in the server between requests, bounded in count and age.

A game is started by ``POST /api/play/start``, which answers with its id; each later request
names it. What is kept of a game is the bytes its last step left (``cli.web.play_jobs``),
its log so far (the lines ``fantasyland play --log`` writes, so the page can save it for
``review``), and when it was last used. A game unused for ``idle`` seconds is let go, and
when ``most`` are kept, starting another lets go of the one unused longest: memory stays
bounded whoever sends requests. A game's hands are in the history all the same, written as
each hand ends. Requests on one game are taken one at a time: a second while the first runs
is refused (409), never queued.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from fantasyland.evaluator import InputError

#: Games kept at once, and seconds a game may go unused, unless ``serve`` says otherwise.
MOST_GAMES = 64
IDLE_SECONDS = 2 * 60 * 60


class NoGame(InputError):
    """A request naming a game the server does not hold (never started, or let go)."""


class GameBusy(Exception):
    """A request on a game whose previous request is still running."""


@dataclass
class Kept:
    """One game: its ``state`` (a pickle of ``optimizer.play.Game``), its log's ``lines``,
    when it was last used, and whether a request on it is running."""

    state: bytes
    lines: list[str]
    used: float
    busy: bool = False


@dataclass
class Games:
    """The games kept, the one unused longest first."""

    most: int = MOST_GAMES
    idle: float = IDLE_SECONDS
    clock: object = field(default=time.monotonic, repr=False)
    _games: OrderedDict[str, Kept] = field(default_factory=OrderedDict, repr=False)

    def __len__(self) -> int:
        return len(self._games)

    def _now(self) -> float:
        return self.clock()  # type: ignore[operator]

    def _expire(self) -> None:
        now = self._now()
        for game_id in [k for k, v in self._games.items()
                        if now - v.used >= self.idle and not v.busy]:
            del self._games[game_id]

    def add(self, state: bytes, lines: list[str]) -> str:
        """Keep a new game; its id. The game unused longest goes if ``most`` are kept."""
        self._expire()
        while len(self._games) >= self.most:
            victim = next((k for k, v in self._games.items() if not v.busy), None)
            if victim is None:
                break  # every game is mid-request: keep them all, one over for a moment
            del self._games[victim]
        game_id = secrets.token_hex(12)
        self._games[game_id] = Kept(state, list(lines), self._now())
        return game_id

    def get(self, game_id: str) -> Kept:
        """The game ``game_id``, marked used now. Raises ``NoGame``."""
        self._expire()
        kept = self._games.get(game_id)
        if kept is None:
            raise NoGame(f"no game {game_id!r} here: it was never started, or was let go "
                         f"(a game unused for {self.idle / 3600:g} hours, or the oldest of "
                         f"{self.most} kept, or the server restarted): start a new game; its "
                         "finished hands are in the history")
        kept.used = self._now()
        self._games.move_to_end(game_id)
        return kept

    def take(self, game_id: str) -> Kept:
        """The game ``game_id`` for a request that changes it: marked busy until
        ``release``. Raises ``NoGame``, or ``GameBusy`` while another request runs on it."""
        kept = self.get(game_id)
        if kept.busy:
            raise GameBusy(f"game {game_id!r} is still answering its last request: wait "
                           "for that answer")
        kept.busy = True
        return kept

    def release(self, kept: Kept) -> None:
        """The request on ``kept`` is answered: the game is used now."""
        kept.busy = False
        kept.used = self._now()
