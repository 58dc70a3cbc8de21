"""An independent enumeration of the last street of an ordinary hand, for tests/test_advise.py.

Written plainly and sharing no code with ``optimizer.ordinary``: every choice of the cards to
throw away (itertools), every row for each kept card, the rows' sizes checked by hand, and
each finished board scored by ``evaluator.board.evaluate_board`` and, for the ev objective,
settled by ``evaluator.scoring.settle`` against every opponent board of a given sample.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.scoring import settle

SIZES = {"top": 3, "middle": 5, "bottom": 5}
NAMES = ("top", "middle", "bottom")


@dataclass(frozen=True)
class Finish:
    """One way to finish the board: its rows (each sorted), the card thrown away, and how it
    scores."""

    rows: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    discard: int | None
    fouled: bool
    royalties: int
    entry_cards: int  # 0: no Fantasyland
    value: float


def finishes(rules: Rules, rows: dict[str, tuple[int, ...]], dealt: tuple[int, ...],
             keep: int, objective: str, opponents: int,
             opponent_boards: list[list[Board]] | None = None) -> list[Finish]:
    """Every distinct finished board from ``rows`` when ``dealt`` come and ``keep`` of them
    are kept. ``opponent_boards``: under ev, the sample, a list of deals each a list of
    ``opponents`` finished boards."""
    seen: dict[tuple, Finish] = {}
    theirs_reports = [[evaluate_board(b, rules=rules) for b in deal]
                      for deal in opponent_boards or []]
    positions = range(len(dealt))
    for kept in combinations(positions, keep):
        thrown = [dealt[i] for i in positions if i not in kept]
        for targets in product(NAMES, repeat=keep):
            new = {name: list(rows[name]) for name in NAMES}
            for i, name in zip(kept, targets):
                new[name].append(dealt[i])
            if any(len(new[name]) != SIZES[name] for name in NAMES):
                continue
            key = tuple(tuple(sorted(new[name])) for name in NAMES)
            if key in seen:
                continue
            board = Board(*key)
            report = evaluate_board(board, rules=rules)
            entry = report.fantasyland_cards or 0
            royalties = report.royalties.total
            if objective == "royalties":
                if report.fouled:
                    value = -float(rules.scoring.foul_penalty)  # from one opponent
                else:
                    value = royalties + (rules.entry_value(entry, ev=False).value
                                         if entry else 0.0)
            elif objective == "ev":
                total = 0.0
                for deal in theirs_reports:
                    for theirs in deal:
                        total += settle(report, theirs)
                value = total / len(theirs_reports)
                if entry and not report.fouled:
                    value += rules.entry_value(entry, ev=True).value * opponents
            else:  # only the plays are wanted
                value = 0.0
            seen[key] = Finish(key, thrown[0] if thrown else None, report.fouled, royalties,
                               entry if not report.fouled else 0, value)
    return list(seen.values())


def board_of(slots) -> Board:
    """A finished board from 13 cards in the order top (3), middle (5), bottom (5)."""
    cards = [int(c) for c in slots]
    return Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
