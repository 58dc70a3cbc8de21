"""The best set of one mode as its jokers must play: the sets a joker can not take there.

A joker's face is not the player's to choose freely: it plays down only to keep the set
legal, and otherwise as the card worth the most (``evaluator.board.choose_jokers``: the
most royalties, plus the rules' worth of staying if the set stays). So a set of cards stays
or does not as its jokers play, whatever other faces could make of it. The candidates of a
mode are rows with their jokers at any useful faces, and the best of them may be a set that
plays into the other mode: ``Jk Jk 4s`` on top as A-A-4 does not stay, but under a middle
that beats trips its jokers play as fours, and the set stays.

Such sets are left out by splitting the search. The mode's best set is checked as the
evaluator plays it; only when it plays into the other mode is the search cut into parts.
First, for the mode that does not stay, the sets whose jokers in a single row would play
into staying leave at once (``_first_parts``: a top whose jokers stay under a middle that
beats trips plays only beside weaker middles). Then each part is searched, best part
first, and a part whose best set still plays into the other mode is cut into parts that
hold all its sets but that one set of cards (``_split``). The first set that plays into its
mode is the best, ties included: the parts do not overlap, and each part's best is its best
by value, then tie-break. A hand without jokers plays as it is and pays for no check: one
comparison.
"""

from __future__ import annotations

import heapq
from dataclasses import replace
from itertools import count

import numpy as np

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.optimizer.solver.candidates import Candidates, RowCandidates
from fantasyland.optimizer.solver.mode import ModeResult, solve_mode
from fantasyland.optimizer.solver.objective import Objective
from fantasyland.optimizer.solver.proof import ProofMethod, costliest

NO_CEILING = np.iinfo(np.int64).max


def _same_cards(cards: tuple, masks: np.ndarray) -> np.ndarray:
    """Each mask made canonical: a hand may hold one card twice (two jokers, or two decks'
    copies), and rows of the same cards at other positions are the same row. Of the
    positions holding one card, a mask keeps as many, the lowest."""
    masks = np.asarray(masks, dtype=np.int64)
    out = masks.copy()
    for card in set(cards):
        at = [i for i, c in enumerate(cards) if c == card]
        if len(at) < 2:
            continue
        group = sum(1 << i for i in at)
        held = np.zeros(len(masks), dtype=np.int64)
        for i in at:
            held += masks >> i & 1
        out &= ~group
        for k, i in enumerate(at):
            out |= np.where(held > k, np.int64(1) << i, 0)
    return out


def _rows_of(cands: Candidates, board: Board) -> dict[str, int]:
    """Each row of ``board`` as a canonical mask over the dealt positions."""
    free = list(range(len(cands.cards)))
    masks = {}
    for row in ROWS:
        mask = 0
        for card in board.row(row):
            i = next(i for i in free if cands.cards[i] == card)
            free.remove(i)
            mask |= 1 << i
        masks[row] = int(_same_cards(cands.cards, np.array([mask]))[0])
    return masks


def stays_as_played(cands: Candidates, board: Board) -> bool:
    """Whether the set of ``board``'s cards stays when its jokers play as they must."""
    return evaluate_board(Board(board.top, board.middle, board.bottom), rules=cands.rules).stays


def _split(cands: Candidates, masks: dict[str, int]) -> list[Candidates]:
    """Parts of ``cands`` that hold every set of them but those of the rows ``masks`` names
    (canonical): without the first row, then with it and without the second, then with both
    and without the third. The rows holding jokers go first, so that the part keeping the
    most sets leaves out a row that made the set play into the other mode."""
    order = sorted(ROWS, key=lambda row: JOKER not in cands.cards_of(masks[row]))
    parts: list[Candidates] = []
    fixed: dict[str, RowCandidates] = {}
    for row in order:
        rc = cands.row(row)
        same = _same_cards(cands.cards, rc.masks) == masks[row]
        parts.append(cands.replace(**fixed, **{row: rc.take(~same)}))
        fixed[row] = rc.take(same)
    return [part for part in parts if all(len(part.row(row)) for row in ROWS)]


def _above(rules: Rules, row: str) -> str | None:
    """The one row that must be at least as strong as ``row`` directly, if there is one."""
    above = [stronger for stronger, weaker in rules.order_pairs if weaker == row]
    return above[0] if len(above) == 1 else None


def _ceilings(rc: RowCandidates, rules: Rules, above: bool, below: bool
              ) -> tuple[np.ndarray, np.ndarray]:
    """For each candidate of a row holding jokers that does not stay: whether it never plays
    as it is (``drop``), and the strength the row above must stay under for it to
    (``ceiling``; ``NO_CEILING``: none). A choice of the same cards that stays and is worth
    more (its royalty plus the rules' worth of staying above this one's royalty) is worth
    more in every set where it is legal too, the other rows as they are, so the candidate
    is not how its jokers play there: a stronger choice is legal wherever the rows above
    (``above``: the row has some) are as strong, a weaker one wherever the rows below are
    as weak."""
    ceiling = np.full(len(rc), NO_CEILING, dtype=np.int64)
    drop = np.zeros(len(rc), dtype=bool)
    staying = np.flatnonzero(rc.stays & (rc.jokers > 0))
    for mask in np.unique(rc.masks[staying]):
        stay = staying[rc.masks[staying] == mask]
        for i in np.flatnonzero((rc.masks == mask) & ~rc.stays):
            beats = stay[rc.royalty[stay] + rules.repeat_value > rc.royalty[i]]
            stronger = rc.strength[beats][rc.strength[beats] > rc.strength[i]]
            weaker = rc.strength[beats] < rc.strength[i]
            drop[i] = bool(len(stronger) and not above or weaker.any() and not below)
            if len(stronger):
                ceiling[i] = int(stronger.min())
    return drop, ceiling


def _first_parts(whole: Candidates) -> list[Candidates]:
    """The sets of ``whole`` that do not stay, in parts that leave out every set a single
    row's jokers would play into staying (``_ceilings``): each row's candidates grouped by
    their ceiling, beside the candidates of the row above that are under it (where one row
    is directly above it)."""
    rules = whole.rules
    flags, ceilings = {}, {}
    for row in ROWS:
        drop, ceiling = _ceilings(whole.row(row), rules,
                                  any(weaker == row for _, weaker in rules.order_pairs),
                                  any(stronger == row for stronger, _ in rules.order_pairs))
        keep = ~drop & ~whole.row(row).stays
        flags[row], ceilings[row] = keep, ceiling[keep]
    cands = whole.replace(**{row: whole.row(row).take(flags[row]) for row in ROWS})
    parts = [(cands, ceilings)]
    for row in ROWS:
        above = _above(rules, row)
        if above is None:
            continue
        split = []
        for part, part_ceilings in parts:
            for value in np.unique(part_ceilings[row]):
                mine = part_ceilings[row] == value
                under = part.row(above).strength < value
                split.append((part.replace(**{row: part.row(row).take(mine),
                                              above: part.row(above).take(under)}),
                              {**part_ceilings, row: part_ceilings[row][mine],
                               above: part_ceilings[above][under]}))
        parts = split
    return [part for part, _ in parts if all(len(part.row(row)) for row in ROWS)]


def solve_mode_as_played(cands: Candidates, need_stay: bool, objective: Objective,
                         deadline: float, *, method: ProofMethod = ProofMethod.FASTEST
                         ) -> ModeResult | None:
    """The best set of one mode (``mode.solve_mode``, proved as ``method`` asks) whose
    jokers, played as they must be, keep it in that mode; None if the mode has no such set."""
    first = solve_mode(cands, need_stay, objective, deadline, method=method)
    if first is None or not cands.has_jokers or stays_as_played(cands, first.board) == need_stay:
        return first
    whole = objective.weigh(cands.with_deferred()) if cands.deferred is not None else cands
    tick = count()
    heap: list = []
    proved, searches, proofs = first.proved, 1, [first.stats.proof]

    def search(part: Candidates) -> None:
        nonlocal proved, searches
        result = solve_mode(part, need_stay, objective, deadline, method=method)
        searches += 1
        if result is not None:
            proved &= result.proved
            proofs.append(result.stats.proof)
            heapq.heappush(heap, ((-result.weight, tuple(-r for r in result.tiebreak)),
                                  next(tick), result, part))

    for part in (_split(whole, _rows_of(whole, first.board)) if need_stay
                 else _first_parts(whole)):
        search(part)
    while heap:
        _, _, result, part = heapq.heappop(heap)
        if stays_as_played(part, result.board) == need_stay:
            bound = max([result.bound] + [entry[2].bound for entry in heap])
            stats = replace(result.stats, searches_as_played=searches,
                            proof=costliest(p for p in proofs if p is not None))
            return replace(result, proved=proved, bound=bound, stats=stats)
        for piece in _split(part, _rows_of(part, result.board)):
            search(piece)
    return None
