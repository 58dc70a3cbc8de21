"""Card removal's match: the pool boards, under each of the 24 suit relabellings, that a
dealt hand leaves possible (``optimizer.opponents.draw`` draws from them).

Under one plain deck a card is in the dealt hand or not, and a board fits when the cards its
player placed (or saw) and the dealt ones are disjoint: bitmasks, matched byte by byte
through tables (``candidate_pairs``). Under any other deck removal counts copies
(``_candidate_pairs_counted``).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from fantasyland.evaluator.cards import JOKER, ONE_DECK
from fantasyland.optimizer.opponents.bot import deck_counts
from fantasyland.optimizer.opponents.pools import PERMUTATIONS, Pool, bits

_INVERSE = np.argsort(PERMUTATIONS, axis=1)


def candidate_pairs(pool: Pool, dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pool boards under suit relabellings, as ``board * 24 + relabelling``, that avoid the
    dealt cards: those whose player saw none of them (exact), and those whose placed cards
    avoid them but whose discards do not (relaxed); relabelling by relabelling, each in
    board order. Under a deck other than one plain deck, "avoid" counts copies (the module
    docstring)."""
    if pool.deck != ONE_DECK:
        return _candidate_pairs_counted(pool, dealt)
    # sigma(board) avoids the dealt cards iff the board avoids sigma^-1(dealt). A card is bit
    # rank * 4 + suit of a board's mask, so byte k of the mask holds the suits of ranks 2k
    # and 2k + 1, and a relabelling moves bits within a byte: for each byte the dealt cards
    # touch, one table says under which relabellings each of its 256 values meets them.
    placed, seen = pool_bytes(pool)
    tables = _clash_tables(_mask_bytes(bits(dealt[None]))[0])
    clash = _clashes(placed, tables)
    near = np.flatnonzero(clash != _EVERY_RELABELLING)  # boards some relabelling keeps clear
    placed_clash, seen_clash = clash[near], _clashes(seen[:, near], tables)
    exact_pairs, relaxed_pairs = [], []
    for p in range(len(PERMUTATIONS)):
        clear = (placed_clash >> np.uint32(p)) & 1 == 0
        exact = (seen_clash >> np.uint32(p)) & 1 == 0
        exact_pairs.append(near[exact] * 24 + p)
        relaxed_pairs.append(near[clear & ~exact] * 24 + p)
    return np.concatenate(exact_pairs), np.concatenate(relaxed_pairs)


_EVERY_RELABELLING = np.uint32((1 << len(PERMUTATIONS)) - 1)


def _mask_bytes(masks: np.ndarray) -> np.ndarray:
    """``(n, 7)`` uint8: the bytes of 52-card bitmasks, low byte first (ranks 2k, 2k + 1)."""
    return np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)[:, :7]


@cache
def pool_bytes(pool: Pool) -> tuple[np.ndarray, np.ndarray]:
    """``(7, n)`` uint8 each, byte by byte: the masks of the cards each board's player
    placed and saw (``Pool.masks``), laid out for ``_clashes``."""
    placed, seen = pool.masks
    return (np.ascontiguousarray(_mask_bytes(placed).T),
            np.ascontiguousarray(_mask_bytes(seen).T))


@cache
def _byte_moves() -> np.ndarray:
    """``(24, 256)`` uint8: each byte of a mask with its suits moved by each relabelling's
    inverse (``_INVERSE``), as the dealt cards are moved to be matched against a board."""
    bit = np.arange(8)
    to = (bit & ~3) | _INVERSE[:, bit & 3]  # (24, 8): bit 4h + s (rank h, suit s) moves here
    held = (np.arange(256)[:, None] >> bit) & 1  # (256, 8): the bits each byte value holds
    moved = (held[None] << to[:, None, :]).sum(axis=2).astype(np.uint8)
    moved.flags.writeable = False
    return moved


def _clash_tables(dealt_bytes: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """For each byte ``k`` the dealt cards touch: ``(k, table)``, ``table[v]`` the relabellings
    (bit ``p`` for ``PERMUTATIONS[p]``) under which a board whose byte ``k`` is ``v`` holds
    a dealt card."""
    values = np.arange(256, dtype=np.uint8)
    weights = np.left_shift(np.uint32(1), np.arange(len(PERMUTATIONS), dtype=np.uint32))
    tables = []
    for k in np.flatnonzero(dealt_bytes).tolist():
        moved = _byte_moves()[:, dealt_bytes[k]]  # (24,) the dealt byte, moved
        meets = (values[None, :] & moved[:, None]) != 0  # (24, 256)
        tables.append((k, (weights @ meets).astype(np.uint32)))
    return tables


def _clashes(board_bytes: np.ndarray, tables: list[tuple[int, np.ndarray]]) -> np.ndarray:
    """``(n,)`` uint32: for each of the boards whose bytes are ``board_bytes`` ``(7, n)``, the
    relabellings under which it holds a dealt card."""
    clash = np.zeros(board_bytes.shape[1], dtype=np.uint32)
    for k, table in tables:
        clash |= np.take(table, board_bytes[k])
    return clash


def _candidate_pairs_counted(pool: Pool, dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``candidate_pairs`` by copies: a board fits when, card by card, what it placed (or
    saw) and what was dealt together are no more than the deck holds."""
    placed, seen = pool.counts
    copies = deck_counts(pool.deck)
    exact_pairs, relaxed_pairs = [], []
    for p, inverse in enumerate(_INVERSE):
        moved = np.where(dealt == JOKER, dealt, (dealt & ~3) | inverse[dealt & 3])
        left = copies - np.bincount(moved, minlength=JOKER + 1)
        clear = (placed <= left).all(axis=1)
        exact = clear & (seen <= left).all(axis=1)
        exact_pairs.append(np.flatnonzero(exact) * 24 + p)
        relaxed_pairs.append(np.flatnonzero(clear & ~exact) * 24 + p)
    return np.concatenate(exact_pairs), np.concatenate(relaxed_pairs)
