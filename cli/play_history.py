"""The hands of ``fantasyland play`` in the players' SQLite history, one row a hand.

The same database as the browser trainer's hands (``cli.web.history``: ``serve --history``,
by default in the user's data directory), in a table of its own, ``played``: a row is
committed when a hand ends, so a session stopped mid-hand loses that hand only. A helper of
``cli/play.py`` (it defines no ``command``).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from fantasyland.cli.web.history import History, StoreError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS played (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,      -- the session: its log's path, or seed-N without a log
    played_at TEXT NOT NULL,    -- when the hand ended, ISO 8601 in UTC
    variant TEXT NOT NULL,
    objective TEXT NOT NULL,    -- what ev_lost is counted in
    opponents INTEGER NOT NULL,
    seed INTEGER NOT NULL,      -- the deal: hand `number` of `fantasyland play --seed`
    number INTEGER NOT NULL,
    on_button INTEGER NOT NULL,
    fantasyland INTEGER,        -- the cards of the Fantasyland the player played, or NULL
    board TEXT NOT NULL,        -- the player's finished board, TOP / MIDDLE / BOTTOM
    points INTEGER NOT NULL,    -- the player's net at the showdown
    fouled INTEGER NOT NULL,
    entered INTEGER,            -- the cards of the Fantasyland the hand earned, or NULL
    decisions INTEGER NOT NULL, -- streets graded
    ev_lost REAL NOT NULL,      -- over those streets and the Fantasyland set
    record TEXT NOT NULL        -- the hand's whole record, as the log's "# hand" line holds it
);
CREATE INDEX IF NOT EXISTS played_session ON played (session, id);
"""


class PlayedHands(History):
    """The history at ``path``, with the table of played hands (made on first use)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        try:
            with self._connection() as db:
                db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the history {str(path)!r}: {error}") from None

    def add_hand(self, session: str, settings: dict, record: dict) -> int:
        """Store a finished hand (``optimizer.play.hand_record``); its row id. ``StoreError``
        if it cannot be written: nothing is half written."""
        figures = record["figures"]
        mine = record["showdown"]["seats"][0]
        lost = figures["ev_lost"] + (figures["set_ev_lost"] or 0.0)
        try:
            with self._connection() as db:
                cursor = db.execute(
                    "INSERT INTO played (session, played_at, variant, objective, opponents, "
                    "seed, number, on_button, fantasyland, board, points, fouled, entered, "
                    "decisions, ev_lost, record) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (session, datetime.now(timezone.utc).isoformat(timespec="seconds"),
                     settings["variant"], settings["objective"], settings["opponents"],
                     settings["seed"], record["hand"], int(figures["on_button"]),
                     mine["fantasyland"], mine["board"], mine["points"], int(mine["fouled"]),
                     mine["entered"], figures["decisions"], round(lost, 9),
                     json.dumps(record, sort_keys=True)))
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"the hand was played but not stored in the history "
                             f"{str(self.path)!r}: {error}") from None
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def hands(self, session: str) -> list[dict]:
        """The rows of ``session``, oldest first: number, points, board and fouled."""
        with self._connection() as db:
            rows = db.execute("SELECT number, points, board, fouled, on_button FROM played "
                              "WHERE session = ? ORDER BY id", (session,)).fetchall()
        return [{"number": n, "points": p, "board": b, "fouled": bool(f), "on_button": bool(o)}
                for n, p, b, f, o in rows]
