"""Candidate rows holding jokers: what each subset can play as, looked up by its pattern.

Rows of one pattern (``evaluator.joker_patterns``: the real cards' ranks, whether they share
a suit, which faces repeat) make the same strengths whatever their suits, so a row's useful
choices are worked out once for a pattern, under one set of rules, and every later subset
of that pattern, in any hand, looks them up. The tables fill as patterns are met (there
are a few thousand), so a hand pays only for patterns no earlier hand had.

A pattern's choices are its distinct strengths, less those no set could prefer
(``_useful``): two choices of one subset differ only in the row's strength, value, royalty
and stay. A choice is left out when another choice of the same subset is at least as good
on every count that a set can feel: a royalty and a stay at least as high, and a strength no
worse for the foul order. "No worse" depends on the row: the bottom only has to beat the
rows below it, so higher is never worse; the top only has to stay under them, so lower is
never worse; the middle must beat the top and stay under the bottom, so two of its choices
are comparable only where no top could tell them apart (no strength a three-card row can
have lies between them): among such choices the lower is never worse. When the objective
also compares the rows with opponents' (the EV), a higher value counts too, and only the
bottom (whose value rises with its strength) is reduced. A choice that fails the row's
qualifying hand is left out as well: any set using it fouls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import numpy as np

from fantasyland.evaluator.board import row_strengths, row_values
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.joker_patterns import pattern_keys, pattern_strengths, plays
from fantasyland.evaluator.rules import ROW_SIZE, Rules

@cache
def _three_card_strengths() -> np.ndarray:
    """Every strength a three-card row can have, sorted (jokers make no others)."""
    return np.unique(row_strengths(np.array(list(combinations(range(52), 3)))))


def _first_in_group(group: np.ndarray) -> np.ndarray:
    return np.concatenate([[True], group[1:] != group[:-1]]) if len(group) else group.astype(bool)


def _earlier_max(group: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For each entry of sorted ``group`` ids: the largest of ``values`` at the entries before
    it in its group (very low where there are none)."""
    low = np.int64(-(1 << 40))
    if not len(values):
        return values
    span = np.int64(1 << 42)
    running = np.maximum.accumulate(values + group * span) - group * span
    before = np.concatenate([[low], running[:-1]])
    return np.where(_first_in_group(group), low, before)


def _useful(row: str, rules: Rules, group: np.ndarray, strength: np.ndarray,
            royalty: np.ndarray, stays: np.ndarray, compares_rows: bool) -> np.ndarray:
    """Which of the choices (``group``: the pattern each belongs to) another choice of the
    same pattern does not dominate (the module's docstring says when one does)."""
    keep = np.ones(len(group), dtype=bool)
    beats = [weaker for stronger, weaker in rules.order_pairs if stronger == row]
    under = [stronger for stronger, weaker in rules.order_pairs if weaker == row]
    high = rules.scale(row) is Scale.HIGH
    if compares_rows and (under or not high):
        return keep  # a higher value wins more, a lower strength fouls less: all can matter
    if under and beats:
        # Alike for the rows below: no strength of theirs lies between the two.
        if all(ROW_SIZE[other] == 3 for other in beats):
            alike = np.searchsorted(_three_card_strengths(), strength, side="right")
        else:
            alike = strength  # five-card rows below can tell every two strengths apart
        direction = strength  # among choices alike for the rows below, the lower first
    else:
        alike = np.zeros(len(group), dtype=np.int64)
        direction = strength if under else -strength  # the top: lower first; bottom: higher
    order = np.lexsort((direction, alike, group))
    key = (group.astype(np.int64) << 24 | alike)[order]
    same = np.cumsum(np.concatenate([[0], key[1:] != key[:-1]]))
    r, t = royalty[order], stays[order]
    best_any = _earlier_max(same, r)
    best_stay = _earlier_max(same, np.where(t, r, -(1 << 40)))
    dominated = np.where(t, best_stay >= r, best_any >= r)
    keep[order[dominated]] = False
    return keep


@dataclass
class _RowTable:
    """A row's useful choices for each pattern met so far, under one set of rules, as flat
    arrays with each pattern's slice."""

    row: str
    rules: Rules
    compares_rows: bool
    known: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # sorted keys
    known_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    start: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    count: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    strength: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    value: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def ids(self, keys: np.ndarray) -> np.ndarray:
        """The table's id of each pattern of ``keys`` (distinct, ascending), adding those it
        does not have."""
        at = np.minimum(np.searchsorted(self.known, keys), max(len(self.known) - 1, 0))
        missing = keys[self.known[at] != keys] if len(self.known) else keys
        if len(missing):
            self._add(missing.tolist())
            at = np.searchsorted(self.known, keys)
        return self.known_ids[at]

    def _add(self, missing: list[int]) -> None:
        rules, row, k = self.rules, self.row, ROW_SIZE[self.row]
        if rules.scale(row) is Scale.HIGH:
            found = pattern_strengths(rules.deck, k).of(np.array(missing, dtype=np.int64))
            strength = np.concatenate(found)
            value = strength
        else:  # values on another scale: from rows that play at each strength
            plays_of = plays(missing, k, rules.deck)
            found = [s for s, _ in plays_of]
            strength = np.concatenate(found)
            value = row_values(row, np.concatenate([p for _, p in plays_of]), rules)
        group = np.repeat(np.arange(len(missing)), [len(s) for s in found])
        keep = rules.qualify_table(row)[value]
        keep[keep] = _useful(row, rules, group[keep], strength[keep],
                             rules.royalty_table(row)[value[keep]],
                             rules.stay_table(row)[value[keep]], self.compares_rows)
        group, strength, value = group[keep], strength[keep], value[keep]
        count = np.bincount(group, minlength=len(missing))
        start = len(self.strength) + np.concatenate([[0], np.cumsum(count)[:-1]])
        known = np.concatenate([self.known, missing])
        ids = np.concatenate([self.known_ids, len(self.start) + np.arange(len(missing))])
        order = np.argsort(known)
        self.known, self.known_ids = known[order], ids[order]
        self.start = np.concatenate([self.start, start])
        self.count = np.concatenate([self.count, count])
        self.strength = np.concatenate([self.strength, strength])
        self.value = np.concatenate([self.value, value])


@cache
def _row_table(rules: Rules, row: str, compares_rows: bool) -> _RowTable:
    return _RowTable(row, rules, compares_rows)


@dataclass(frozen=True)
class Choices:
    """The useful choices of one row for many subsets holding jokers, by pattern: each
    pattern met once, with its choices (``strength``, ``value``, flat, grouped by pattern),
    and which pattern each subset has. ``expand`` lays them out per subset."""

    pattern: np.ndarray  # (subsets,) each subset's pattern, 0 .. patterns - 1
    choice_pattern: np.ndarray  # (choices,) the pattern of each choice, ascending
    strength: np.ndarray  # (choices,)
    value: np.ndarray  # (choices,)

    def expand(self, *, which: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
        """``(owner, strength, value)``: every choice (or those ``which`` marks) of every
        subset of its pattern, a choice ``i`` being a way for subset ``owner[i]`` to play;
        owners ascending, then choices in order."""
        chosen = np.arange(len(self.strength)) if which is None else np.flatnonzero(which)
        patterns = int(self.pattern.max(initial=-1)) + 1
        per = np.bincount(self.choice_pattern[chosen], minlength=patterns)
        first = np.concatenate([[0], np.cumsum(per)[:-1]])
        count = per[self.pattern]
        owner = np.repeat(np.arange(len(self.pattern)), count)
        start = np.cumsum(count) - count
        at = chosen[first[self.pattern][owner] + np.arange(len(owner)) - start[owner]]
        return owner, self.strength[at], self.value[at]


def patterns_of(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct patterns of ``hands`` (an ``(m, k)`` array of subsets holding jokers),
    ascending, and which of them each subset has."""
    distinct, inverse = np.unique(pattern_keys(hands), return_inverse=True)
    return distinct, inverse.ravel()


def joker_choices(patterns: tuple[np.ndarray, np.ndarray], row: str, rules: Rules,
                  compares_rows: bool) -> Choices:
    """The useful choices of ``row`` for subsets of these ``patterns`` (``patterns_of``).
    A subset may have none (every way fouls)."""
    distinct, inverse = patterns
    table = _row_table(rules, row, compares_rows)
    ids = table.ids(distinct)
    count = table.count[ids]
    choice_pattern = np.repeat(np.arange(len(ids)), count)
    first = np.cumsum(count) - count
    at = table.start[ids][choice_pattern] + np.arange(len(choice_pattern)) - first[
        choice_pattern]
    return Choices(inverse, choice_pattern, table.strength[at], table.value[at])
