"""The player's decisions graded: each street by ``advise``, each Fantasyland set by ``check``.

A street is valued by ``advise`` with the session's objective, budget and samples, against
the table as the player saw it (the boards face up, the opponents in Fantasyland), with a
seed of its own (``decision_seed``); the play made is raced beside the screen's picks, so it
always has a value on every street but where its board already fouls. A Fantasyland set is
graded by ``grade`` against the solver's optimum for the same table. The figures kept are
plain data, so that the showdown can show them and the history keep them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card, format_cards
from fantasyland.optimizer.ordinary import Advice, Effort, advise_plays
from fantasyland.optimizer.ordinary.plays import Play, board_text
from fantasyland.optimizer.ordinary.position import Position
from fantasyland.optimizer.solver.objective import ObjectiveName
from fantasyland.optimizer.solver.table import Sample, TableSpec

#: Decisions a hand's seeds leave room for: more than any dealing has streets (the
#: Fantasyland set takes number 0).
STREETS_A_HAND = 16


def decision_seed(seed: int, hand: int, street: int) -> int:
    """The seed of one decision's valuation: ``seed x 1,000,000 + hand x 16 + street``
    (street 0 a Fantasyland set), as ``train --ordinary`` numbers them."""
    return seed * 1_000_000 + hand * STREETS_A_HAND + street


@dataclass(frozen=True, kw_only=True)
class Grading:
    """How decisions are valued: the objective, ``advise``'s budget, opponent samples."""

    objective: ObjectiveName
    budget: int
    samples: int


@dataclass(frozen=True)
class StreetGrade:
    """One street: the play made and the best, with the EV lost between them and its
    standard error (0 where the street is valued exactly); ``None`` where the play has no
    value (the board already fouled, so every play is worth the same foul)."""

    street: int
    board: str
    cards: str
    play: str
    best: str
    ev_lost: float | None
    ev_lost_error: float | None
    exact: bool

    @property
    def is_best(self) -> bool:
        return self.play == self.best or self.ev_lost == 0.0

    def record(self) -> dict:
        return {"street": self.street, "board": self.board, "cards": self.cards,
                "play": self.play, "best": self.best, "ev_lost": _round(self.ev_lost),
                "ev_lost_error": _round(self.ev_lost_error), "exact": self.exact}


@dataclass(frozen=True)
class SetGrade:
    """A Fantasyland set against the optimum: both sets, the EV lost, and whether the set
    is worth the optimum."""

    cards: str
    played: str
    best: str
    ev_lost: float
    optimal: bool

    def record(self) -> dict:
        return {"cards": self.cards, "played": self.played, "best": self.best,
                "ev_lost": _round(self.ev_lost), "optimal": self.optimal}


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 9)


def street_advice(position: Position, table: TableSpec, grading: Grading, seed: int,
                  *, include: tuple[Play, ...] = ()) -> Advice:
    """``advise`` on the player's street: every play ranked, ``include`` raced whatever the
    screen says."""
    return advise_plays(position.rules, board_text(position.layout), position.cards,
                        objective=grading.objective,
                        sample=Sample(table=table, samples=grading.samples, seed=seed),
                        discards=position.dead,
                        effort=Effort(budget=grading.budget, include=include))


def grade_street(position: Position, play: Play, advice: Advice | None) -> StreetGrade:
    """The grade of ``play`` from ``advice`` (None where the board already fouls)."""
    cards = format_cards(position.cards, ascii=True)
    board = board_text(position.layout)
    if advice is None:
        return StreetGrade(position.street, board, cards, play.describe(), play.describe(),
                           None, None, True)
    played = next(p for p in advice.plays if p.play.key == play.key)
    lost = None if played.behind is None else max(played.behind, 0.0)
    error = None if played.screened else played.behind_error
    return StreetGrade(position.street, board, cards, play.describe(),
                       advice.best.play.describe(), lost, error, advice.exact)


def set_text(board: Board, discards: tuple[Card, ...]) -> str:
    """A set as ``TOP / MIDDLE / BOTTOM``, and its discards where it has any."""
    text = board.format(ascii=True)
    return text + (f", discards {format_cards(discards, ascii=True)}" if discards else "")
