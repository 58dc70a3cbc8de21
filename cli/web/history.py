"""The training history: one row a graded hand, in a SQLite database of the player's.

Each hand is committed as soon as it is graded, so a server killed between hands loses
nothing it has answered. A session is one visit to the trainer (the page names it); the
chart of EV lost per session and the list of the last hands both come from these rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from fantasyland.evaluator.rules import ROWS

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,      -- the page's name for the training session
    played_at TEXT NOT NULL,    -- when it was graded, ISO 8601 in UTC
    variant TEXT NOT NULL,
    objective TEXT NOT NULL,    -- royalties or ev: what ev_lost is counted in
    seed INTEGER NOT NULL,      -- the deal: hand `number` of `fantasyland train --seed`
    number INTEGER NOT NULL,
    cards TEXT NOT NULL,        -- the dealt cards, space-separated
    played TEXT NOT NULL,       -- the player's set, TOP / MIDDLE / BOTTOM
    optimal INTEGER NOT NULL,
    fouled INTEGER NOT NULL,
    ev_lost REAL NOT NULL,
    grade TEXT NOT NULL         -- the whole grade, as `check --json` prints it
);
CREATE INDEX IF NOT EXISTS hands_session ON hands (session, id);
"""

#: The most hands one history answer lists.
MOST = 1000


def default_path() -> Path:
    """Where the history lives unless ``serve --history`` says: the user's data directory
    (``$XDG_DATA_HOME``, else ``~/.local/share``), under ``fantasyland/``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "fantasyland" / "history.sqlite3"


def _reason(error: Exception) -> str:
    """What went wrong, without the file name the message already gives."""
    if isinstance(error, OSError):
        return error.strerror or str(error)
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
        return "it is not a SQLite database: give another --history"
    return str(error)


def _set_text(rows: dict) -> str:
    """A set as ``TOP / MIDDLE / BOTTOM`` in plain card names."""
    return " / ".join(" ".join(rows[row]) for row in ROWS)


class StoreError(Exception):
    """The history cannot be opened or written; the message says why, in one line. Not an
    ``InputError``: the store failed (a full disk, a locked file), not what a client sent, so
    a hand graded keeps its grade and the answer says it was not stored."""


class History:
    """The history database at ``path`` (made, with its directory, on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._connection() as db:
                db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the history {str(path)!r}: "
                             f"{_reason(error)}") from None

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        # A connection a call: requests come from any thread, and SQLite then serializes the
        # writes. WAL lets the history be read while a hand is written.
        db = sqlite3.connect(self.path, timeout=10)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            with db:  # commits, or rolls back on an error
                yield db
        finally:
            db.close()

    def add(self, session: str, seed: int, number: int, answer: dict) -> int:
        """Store a graded hand (``jobs.train_grade``'s answer); its row id. The set is kept
        as the grade read it (``As Kd``), however it was typed. ``StoreError`` if it
        cannot be written (a full disk, say): nothing is half written."""
        try:
            return self._add(session, seed, number, answer)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"the hand was graded but not stored in the history "
                             f"{str(self.path)!r}: {_reason(error)}") from None

    def _add(self, session: str, seed: int, number: int, answer: dict) -> int:
        grade = answer["grade"]
        with self._connection() as db:
            cursor = db.execute(
                "INSERT INTO hands (session, played_at, variant, objective, seed, number, "
                "cards, played, optimal, fouled, ev_lost, grade) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session, datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 answer["variant"], answer["objective"], seed, number,
                 " ".join(answer["cards"]), _set_text(grade["set"]),
                 int(grade["is_optimal"]),
                 int(grade["fouled"]), float(grade["ev_lost"]),
                 json.dumps(grade, sort_keys=True)))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def score(self, session: str, variant: str, objective: str) -> dict:
        """The session's score so far under these rules and objective (a score adds points
        of one kind only), as the terminal trainer keeps it."""
        with self._connection() as db:
            hands, optimal, fouls, lost = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(optimal), 0), COALESCE(SUM(fouled), 0), "
                "COALESCE(SUM(ev_lost), 0.0) FROM hands WHERE session = ? AND variant = ? "
                "AND objective = ?", (session, variant, objective)).fetchone()
        return {"hands": hands, "optimal": optimal, "fouls": fouls,
                "ev_lost": round(lost, 9),
                "optimal_share": round(optimal / hands, 9) if hands else 0.0,
                "mean_ev_lost": round(lost / hands, 9) if hands else 0.0}

    def recent(self, limit: int) -> dict:
        """The last ``limit`` hands, newest first, and every session, oldest first: a
        session that changed its rules or objective is an entry for each, so that no total
        adds royalty points to points won."""
        with self._connection() as db:
            rows = db.execute(
                "SELECT id, session, played_at, variant, objective, seed, number, cards, "
                "played, optimal, fouled, ev_lost FROM hands ORDER BY id DESC LIMIT ?",
                (min(limit, MOST),)).fetchall()
            sessions = db.execute(
                "SELECT session, variant, objective, MIN(played_at), COUNT(*), SUM(optimal), "
                "SUM(fouled), SUM(ev_lost) FROM hands GROUP BY session, variant, objective "
                "ORDER BY MIN(id)").fetchall()
        hands = [{"id": row[0], "session": row[1], "played_at": row[2], "variant": row[3],
                  "objective": row[4], "seed": row[5], "number": row[6],
                  "cards": row[7].split(), "set": row[8], "optimal": bool(row[9]),
                  "fouled": bool(row[10]), "ev_lost": row[11]} for row in rows]
        return {"hands": hands, "sessions": [
            {"session": name, "variant": variant, "objective": objective, "started": started,
             "hands": count, "optimal": optimal, "fouls": fouls, "ev_lost": round(lost, 9),
             "mean_ev_lost": round(lost / count, 9)}
            for name, variant, objective, started, count, optimal, fouls, lost in sessions]}
