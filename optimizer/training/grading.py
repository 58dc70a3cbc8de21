"""Grading a player's set for a dealt hand against the optimal set.

A grade says whether the set is legal, what it discards, what it is worth in the chosen
objective, how much it gives up against the optimum (``ev_lost``), and where it ranks among
all legal sets of the hand (``percentile``: the share of legal sets it beats or ties).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from fantasyland.evaluator.board import Board, BoardError, BoardReport, parse_board
from fantasyland.evaluator.cards import (JOKER, ONE_DECK, Card, CardError, Deck, card_name,
                                         parse_cards)
from fantasyland.evaluator.rules import ROWS, Row, Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.solver.objective import ObjectiveName, check_objective
from fantasyland.optimizer.solver.solve import (MAX_CARDS, MIN_CARDS, SetValue, Solution,
                                    make_objective, solve, value_of_set)
from fantasyland.optimizer.solver.table import DEFAULT_SAMPLE, Sample
from fantasyland.optimizer.training.percentile import Percentile, percentile

#: Two values closer than this are equal: a set worth the optimum is optimal.
TOLERANCE = 1e-9


class SetError(BoardError):
    """A set that cannot be read, or that does not fit the dealt hand."""


def dealt_hand(cards: str | Sequence[Card], *, deck: Deck = ONE_DECK) -> tuple[Card, ...]:
    """A Fantasyland hand (13 to 17 cards of ``deck``), highest card first."""
    dealt = parse_cards(cards, deck=deck) if isinstance(cards, str) else tuple(
        int(c) for c in cards)
    if not isinstance(cards, str):
        if not all(0 <= c <= JOKER for c in dealt):
            raise CardError("a dealt hand needs cards 0..51 (or jokers, 52)")
        deck.check(dealt)
    if not MIN_CARDS <= len(dealt) <= MAX_CARDS:
        raise CardError(f"got {len(dealt)} cards: a Fantasyland hand has "
                        f"{MIN_CARDS} to {MAX_CARDS}")
    return tuple(sorted(dealt, reverse=True))


def parse_set(text: str, dealt: Sequence[Card], *, deck: Deck = ONE_DECK) -> Board:
    """Read a set typed for ``dealt``: ``"TOP / MIDDLE / BOTTOM"`` (``|`` also separates).

    Forgiving: rows in any order of cards, suits as letters or symbols, ``10`` for ``T``;
    13 cards with no separator are read as 3 / 5 / 5. Every card must have been dealt, as
    often as the set uses it (two decks may deal a card twice, and a joker may be two).

    >>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 5h 5d 4c 3c 2c 2d")
    >>> parse_set("Ks Qs As / 9h 9d 9c 5h 5d / Ts Js 4c 3c 2c", hand).format(ascii=True)
    'Ks Qs As / 9h 9d 9c 5h 5d / Ts Js 4c 3c 2c'
    >>> parse_set("Ah Qs As / 9h 9d 9c 5h 5d / Ts Js 4c 3c 2c", hand)
    Traceback (most recent call last):
    ...
    fantasyland.optimizer.training.grading.SetError: the set uses 'Ah', which was not dealt
    """
    try:
        board = parse_board(text, deck=deck)
    except BoardError as error:
        raise SetError(str(error)) from None
    dealt_count, used = Counter(dealt), Counter(board.cards)
    missing = [repr(card_name(c, ascii=True)) for c in used if c not in dealt_count]
    if missing:
        which = ", ".join(missing)
        raise SetError(f"the set uses {which}, which {'was' if len(missing) == 1 else 'were'} "
                       "not dealt")
    for card, times in used.items():  # two decks or two jokers: as often as it was dealt
        if times > dealt_count[card]:
            raise SetError(f"the set uses {card_name(card, ascii=True)!r} {_times(times)}, "
                           f"which was dealt {_times(dealt_count[card])}")
    return board


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def discards_of(dealt: Sequence[Card], board: Board) -> tuple[Card, ...]:
    """The dealt cards the set leaves out, highest first."""
    left = Counter(dealt)
    left.subtract(board.cards)
    return tuple(sorted(left.elements(), reverse=True))


@dataclass(frozen=True)
class Grade:
    """A player's set for a dealt hand, measured against the optimal set."""

    cards: tuple[Card, ...]  # dealt, highest first
    player: SetValue
    discards: tuple[Card, ...]
    solution: Solution
    percentile: Percentile

    @property
    def rules(self) -> Rules:
        return self.solution.rules

    @property
    def objective(self) -> str:
        return self.solution.objective

    @property
    def fl_value(self) -> float:
        return self.solution.fl_value

    @property
    def report(self) -> BoardReport:
        return self.player.report

    @property
    def fouled(self) -> bool:
        return self.report.fouled

    @property
    def ev_lost(self) -> float:
        """The optimum's value minus the player's, in the objective's points (never < 0)."""
        lost = self.solution.value - self.player.value
        return lost if lost > TOLERANCE else 0.0

    @property
    def optimal(self) -> bool:
        """Whether the set is worth the optimum (a different set of equal value counts)."""
        return self.ev_lost == 0.0

    @property
    def unit(self) -> str:
        """What the values count: royalty points, or the rules' payments (``Rules.unit``)."""
        return "royalty points" if self.objective == ObjectiveName.ROYALTIES \
            else self.rules.unit + "s"

    def own_value(self, value: float, stays: bool) -> float:
        """A set's worth without the Fantasyland repeat."""
        return value - (self.fl_value if stays else 0.0)

    @property
    def advice(self) -> tuple[str, ...]:
        """Sentences on the mistake, when it is about a foul or about staying."""
        rules = self.rules
        royalties = "bonuses" if rules.bonuses else "royalties"
        if self.fouled and self.objective == ObjectiveName.EV:
            paid = [what for what, paid in (
                ("the scoop", rules.scoring.scoop_bonus or rules.scoring.majority_bonus),
                (f"their {royalties}", rules.pays_royalties))
                if paid]
            costs = ["loses every row to each opponent who does not foul"]
            costs += [f"pays {' and '.join(paid)}"] if paid else []
            costs += ["cannot stay in Fantasyland"] if rules.entry else []
            said = costs[0] if len(costs) == 1 else (
                f"{costs[0]} and {costs[1]}" if len(costs) == 2
                else ", ".join(costs[:-1]) + ", and " + costs[-1])
            return (f"a fouled set {said}",)
        if self.fouled:
            return (f"a fouled set scores no {royalties}"
                    + (" and cannot stay in Fantasyland" if rules.entry else ""),)
        if self.optimal or self.player.stays == self.solution.stays:
            return ()
        fl = _points(self.fl_value)
        mine = self.own_value(self.player.value, self.player.stays)
        best = self.own_value(self.solution.value, self.solution.stays)
        if self.solution.stays:
            if mine > best:
                return (f"you took {_points(mine - best)} more {self.unit} but gave up a "
                        f"Fantasyland repeat worth about {fl}",)
            more = (f"also scores {_points(best - mine)} more {self.unit}" if best > mine
                    else f"scores as many {self.unit}")
            return (f"the optimal set stays in Fantasyland (a repeat worth about {fl}) and "
                    f"{more}",)
        return (f"you kept a Fantasyland repeat worth about {fl} but gave up "
                f"{_points(best - mine)} {self.unit} for it",)


def _points(value: float) -> str:
    return f"{round(value, 1):g}"


def grade(cards: str | Sequence[Card], played: str | Board, *, variant: str | Rules = "pineapple",
          objective: str = "royalties", fl_value: float | None = None,
          time_limit: float = 10.0, sample: Sample = DEFAULT_SAMPLE,
          solution: Solution | None = None) -> Grade:
    """Grade the set ``played`` for the dealt ``cards``.

    ``solution`` reuses an optimum already solved for the same hand and settings; ``sample``
    is the table and its sample, as ``solve`` takes them.
    Raises ``CardError`` (``SetError``) for a hand or set that does not fit, ``RulesError``
    and ``ObjectiveError`` as ``solve`` does.
    """
    rules = find_rules(variant)
    dealt = dealt_hand(cards, deck=rules.deck)
    check_objective(rules, objective)
    board = parse_set(played, dealt, deck=rules.deck) if isinstance(played, str) else played
    if isinstance(played, Board):
        parse_set(board.format(ascii=True), dealt, deck=rules.deck)  # the checks of typed text
    if solution is None:
        solution = solve(dealt, variant=rules, objective=objective, fl_value=fl_value,
                         time_limit=time_limit, sample=sample)
    # one objective (one sample of opponents) values the player's set and every set ranked
    goal = solution.ev if solution.ev is not None and sample.table.known else make_objective(
        objective, rules, dealt, solution.fl_value, sample=sample)
    player = value_of_set(dealt, board, variant=rules, objective=goal)
    rank = percentile(dealt, rules, player.value, player.report.fouled, objective,
                      solution.fl_value, seed=sample.seed,
                      value_of=lambda other: value_of_set(dealt, other, variant=rules,
                                                          objective=goal).value)
    return Grade(dealt, player, discards_of(dealt, board), solution, rank)


def grade_record(g: Grade) -> dict:
    """A grade as plain data: ``check --json`` (docs/json.md)."""
    def rows(report: BoardReport) -> dict:
        return {row: [card_name(c, ascii=True) for c in report.row(row).cards] for row in ROWS}

    def jokers(report: BoardReport) -> dict:  # the faces each row's jokers stand for
        return {row: [card_name(c, ascii=True) for c in report.row(row).faces] for row in ROWS}
    def royalties(report: BoardReport) -> dict:
        r = report.royalties
        return {Row.TOP: r.top, Row.MIDDLE: r.middle, Row.BOTTOM: r.bottom, "total": r.total}

    s = g.solution
    return {
        "cards": [card_name(c, ascii=True) for c in g.cards],
        "variant": g.rules.name,
        "objective": g.objective,
        "fl_value": g.fl_value,
        "set": rows(g.report),
        "jokers": jokers(g.report),
        "hands": {row: g.report.row(row).name for row in ROWS},
        "fouled": g.fouled,
        "foul_reasons": list(g.report.foul_reasons),
        "discards": [card_name(c, ascii=True) for c in g.discards],
        "royalties": royalties(g.report),
        "value": round(g.player.value, 9),  # no float noise such as 3.6000000000000014
        "stays": g.player.stays,
        "optimal": {**rows(s.report), "jokers": jokers(s.report),
                    "discards": [card_name(c, ascii=True) for c in s.discards],
                    "royalties": royalties(s.report), "value": round(s.value, 9),
                    "stays": s.stays,
                    "status": s.status, "proof": s.proof},
        "ev_lost": round(g.ev_lost, 9),
        "is_optimal": g.optimal,
        "percentile": {"percent": g.percentile.percent, "exact": g.percentile.exact,
                       "legal_sets": g.percentile.legal_sets,
                       "beaten_or_tied": g.percentile.beaten_or_tied,
                       "stderr": g.percentile.stderr},
        "advice": list(g.advice),
        "table": None if s.ev is None or s.ev.table is None else s.ev.table.record(),
    }

