"""A session's log: the player's streets as ``review`` reads them, and each hand's record.

The log is JSON Lines that ``review`` grades as it is (cli/schemas/history.schema.json): one
line a street the player played, ``{"hand": "s1h3", "board": ..., "cards": ..., "play":
...}``, but a street whose board already fouled, where every play is worth the same foul
(the hand's record grades it so, and ``review`` would refuse it). What ``review`` has no use
for is kept on comment lines, which it skips: the first line, ``# play {...}``, holds the
session's settings, and after each hand's streets a line ``# hand {...}`` holds the hand's
record (the showdown, the grades, the figures, who is in Fantasyland next;
cli/schemas/play-log.schema.json). A hand's lines are written together when it ends, so a
session stopped mid-hand leaves the log as it was before that hand, and the next session on
the same log goes on from the hand after the last record (``read_log``): same settings, same
cards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from fantasyland.evaluator.errors import InputError
from fantasyland.optimizer.play.figures import Figures, HandFigures

#: The comment that starts the log, and the one that ends each hand.
PLAY = "# play "
HAND = "# hand "
#: The log's format, kept in its first line.
VERSION = 1


class LogError(InputError):
    """A log that cannot be gone on with: not a session's, or another session's."""


def header_line(settings: dict, bot: str) -> str:
    """The log's first line: the session's settings and the bot it plays."""
    return PLAY + json.dumps({"version": VERSION, "settings": settings, "bot": bot},
                             sort_keys=True)


def hand_record(game) -> dict:
    """A finished hand as plain data: its showdown, the player's grades, its figures, and
    the seats in Fantasyland next hand."""
    assert game.showdown is not None
    figures = game.figures.hands[-1]
    return {"hand": game.hand, "deal": game.deal_number, "button": game.seating.button,
            "showdown": game.showdown.record(),
            "streets": [g.record() for g in game.street_grades],
            "set": None if game.set_grade is None else game.set_grade.record(),
            "figures": figures.record(),
            "next_fantasyland": {str(seat): cards for seat, cards
                                 in sorted(game.next_fantasyland.items())}}


def hand_lines(game) -> list[str]:
    """The lines a finished hand adds to the log: its streets, then its record."""
    return [json.dumps(line, sort_keys=True) for line in game.review_lines] + \
        [HAND + json.dumps(hand_record(game), sort_keys=True)]


@dataclass(frozen=True)
class HistoryLog:
    """A log read back: the settings it was played with (None: a new log), the hands it
    finished, their figures, who is in Fantasyland next, and how much of its text to keep
    (up to the end of the last hand's record: a hand cut off mid-way is dropped)."""

    settings: dict | None
    hands: int
    figures: Figures
    fantasyland: dict[int, int]
    keep: int


def read_log(text: str) -> HistoryLog:
    """What ``text``, a session's log so far, holds. Raises ``LogError``."""
    if not text.strip():
        return HistoryLog(None, 0, Figures(), {}, 0)
    first = text.split("\n", 1)[0]
    if not first.startswith(PLAY):
        raise LogError(f"it does not start with {PLAY.strip()!r}: not a log of play")
    try:
        header = json.loads(first[len(PLAY):])
        settings = header["settings"]
    except (ValueError, KeyError, TypeError):
        raise LogError("its first line is not a session's settings") from None
    figures = Figures()
    fantasyland: dict[int, int] = {}
    keep = len(first) + 1
    offset = keep
    for line in text[keep:].splitlines(keepends=True):
        offset += len(line)
        if not line.endswith("\n"):  # cut off mid-line
            break
        if line.startswith(HAND):
            try:
                record = json.loads(line[len(HAND):])
                figures.add(HandFigures.from_record(record["figures"]))
                fantasyland = {int(s): int(c) for s, c in record["next_fantasyland"].items()}
            except (ValueError, KeyError, TypeError):
                raise LogError(f"a hand's record is unreadable: {line[:60]!r}") from None
            keep = offset
    hands = figures.hands[-1].hand if figures.hands else 0
    return HistoryLog(settings, hands, figures, fantasyland, keep)
