"""The plays of a street: which card is thrown away, and which row takes each kept card.

``legal_plays`` lists every distinct play of a position, as the board each one leaves
(``optimizer.opponents.layout.placements``, the bot's own list), each with its discard and
its rows read back from that board. ``read_play`` reads a play as a player types it:
``"Kd top, Qs bottom"`` (rows may be shortened to ``t``, ``m``, ``b``; the card not named is
the discard, which may also be named, ``"3h discard"`` or ``"discard 3h"``), so that what
``Play.describe`` writes reads back as the same play.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.cards import Card, format_cards, parse_cards
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Row
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, placements
from fantasyland.optimizer.ordinary.position import Position, PositionError

#: Row names as a player may type them.
ROW_WORDS = {"t": Row.TOP, "mid": Row.MIDDLE, "m": Row.MIDDLE, "bot": Row.BOTTOM,
             "b": Row.BOTTOM} | {row.value: row for row in Row}
DISCARD_WORDS = {"discard", "d", "x", "throw", "muck"}


class PlayError(PositionError):
    """A play that cannot be made in its position."""


@dataclass(frozen=True)
class Play:
    """One play: the board it leaves (13 slots), the card thrown away (None where a street
    keeps every card), and each kept card's row, in the order the cards were dealt."""

    layout: np.ndarray
    discard: Card | None
    rows: tuple[tuple[Card, str], ...]

    @property
    def key(self) -> bytes:
        return self.layout.tobytes()

    def describe(self) -> str:
        """``"Kd top, Qs bottom, discard 3h"``."""
        parts = [f"{format_cards([c], ascii=True)} {row}" for c, row in self.rows]
        if self.discard is not None:
            parts.append(f"discard {format_cards([self.discard], ascii=True)}")
        return ", ".join(parts)

    def record(self) -> dict:
        """``discard`` and ``rows`` as ``advise --json`` prints them: a card kept twice
        (two decks) lists its rows."""
        rows: dict[str, str | list[str]] = {}
        for card, row in self.rows:
            name = format_cards([card], ascii=True)
            if name in rows:
                before = rows[name]
                rows[name] = (before if isinstance(before, list) else [before]) + [row]
            else:
                rows[name] = row
        return {"discard": None if self.discard is None
                else format_cards([self.discard], ascii=True), "rows": rows}


def board_text(layout: np.ndarray) -> str:
    """A layout as ``"TOP / MIDDLE / BOTTOM"``, each row's cards as placed."""
    return " / ".join(format_cards([c for c in layout[ROW_SLOTS[r]].tolist() if c != EMPTY],
                                   ascii=True) for r in ROWS)


def _play_of(position: Position, layout: np.ndarray) -> Play:
    """The play that turns the position's board into ``layout``."""
    added: list[tuple[Card, str]] = []
    for row in ROWS:
        before = Counter(position.board.row(row))
        for card in layout[ROW_SLOTS[row]].tolist():
            if card == EMPTY:
                continue
            if before[card]:
                before[card] -= 1
            else:
                added.append((card, row))
    left = list(position.cards)
    rows = []
    for card in position.cards:  # in the order dealt
        for i, (c, row) in enumerate(added):
            if c == card:
                rows.append((card, row))
                del added[i]
                left.remove(card)
                break
    discard = left[0] if left else None
    layout = np.array(layout, dtype=np.int64)
    layout.flags.writeable = False
    return Play(layout, discard, tuple(rows))


def legal_plays(position: Position) -> list[Play]:
    """Every distinct play of ``position``, in a fixed order (the boards they leave, sorted)."""
    layouts = np.array([canonical(layout) for layout in
                        placements(position.layout, position.cards, position.keep)])
    layouts = np.unique(layouts, axis=0)  # (two copies of a card under two decks)
    return [_play_of(position, layout) for layout in layouts]


def read_play(position: Position, text: str) -> Play:
    """The play ``text`` names in ``position``: kept cards each followed by a row
    (``"Kd top, Qs b"``), and the card not named thrown away. Raises ``PlayError``."""
    tokens = [t for t in re.split(r"[\s,;:=]+", text.strip()) if t]
    dealt = Counter(position.cards)
    named: list[tuple[Card, str]] = []
    discard: list[Card] = []
    if len(tokens) % 2:
        raise PlayError(f"bad play {text.strip()!r}: expected a row after each card, as in "
                        "'Kd top, Qs bottom' (rows top, middle, bottom; t, m, b)")
    pairs = list(zip(tokens[::2], tokens[1::2]))
    # "discard 3h" (as ``Play.describe`` writes it) reads as "3h discard"
    pairs = [(word, card) if card.lower() in DISCARD_WORDS else (card, word)
             for card, word in pairs]
    for card_text, word in pairs:
        try:
            (card,) = parse_cards(card_text, deck=position.rules.deck)
        except ValueError as error:
            raise PlayError(f"bad play {text.strip()!r}: {error}") from None
        if not dealt[card]:
            raise PlayError(f"bad play {text.strip()!r}: {card_text!r} is not among the cards "
                            f"dealt ({format_cards(position.cards, ascii=True)})")
        dealt[card] -= 1
        if word.lower() in DISCARD_WORDS:
            discard.append(card)
        elif word.lower() in ROW_WORDS:
            named.append((card, ROW_WORDS[word.lower()]))
        else:
            raise PlayError(f"bad play {text.strip()!r}: {word!r} is not a row; expected top, "
                            "middle, bottom (t, m, b) or discard")
    keep = position.keep
    if len(named) != keep:
        raise PlayError(f"bad play {text.strip()!r}: this street keeps {keep} card"
                        f"{'s' * (keep > 1)}, and {len(named)} "
                        f"{'were' if len(named) != 1 else 'was'} given a row")
    left = list(dealt.elements()) + discard
    if len(left) != len(position.cards) - keep:
        raise PlayError(f"bad play {text.strip()!r}: expected {len(position.cards) - keep} "
                        "card thrown away")
    layout = np.array(position.layout)
    for row in ROWS:
        cards = [c for c, r in named if r == row]
        slots = [s for s in ROW_SLOTS[row] if layout[s] == EMPTY]
        if len(cards) > len(slots):
            have = ROW_SIZE[row] - len(slots)
            raise PlayError(f"bad play {text.strip()!r}: the {row} row holds {have} of "
                            f"{ROW_SIZE[row]} cards, no room for {len(cards)} more")
        layout[slots[:len(cards)]] = cards
    return _play_of(position, canonical(layout))


def canonical(layout: np.ndarray) -> np.ndarray:
    """A layout as ``placements`` lists it: each row's cards sorted within its slots, so
    that one board has one layout."""
    out = np.array(layout, dtype=np.int64)
    for row in ROWS:
        slots = ROW_SLOTS[row]
        cards = sorted(c for c in out[slots.start:slots.stop].tolist() if c != EMPTY)
        out[slots.start:slots.stop] = cards + [EMPTY] * (len(slots) - len(cards))
    return out
