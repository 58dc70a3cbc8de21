"""A session at the table against the bots: a deterministic state machine, no input or output.

``Game.deal`` starts a hand and plays the bots up to the player's turn (``Game.turn``); the
player's move is read (``read_move``), or the adviser's best taken (``best_move``), and
``play`` makes it, grades it, and plays the bots on to the player's next turn or to the
showdown (``Game.showdown``). What the player is shown of ``Game.seats`` is the table as a
real one shows it: the boards placed face up, a Fantasyland hand hidden until the showdown,
and only the player's own discards (``table.visible_boards``, ``table.unseen_counts``).
The same settings and the same moves give the same game, whatever was asked of the adviser
between them: every draw is seeded by the session's seed, the hand and the seat
(``seating``, ``bots``, ``grades.decision_seed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fantasyland.evaluator.board import evaluate_board
from fantasyland.evaluator.cards import Card, format_cards
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.opponents.layout import EMPTY
from fantasyland.optimizer.ordinary.plays import legal_plays
from fantasyland.optimizer.play.bots import bot_set, bot_street, unseen_by
from fantasyland.optimizer.play.figures import Figures, HandFigures
from fantasyland.optimizer.play.grades import (Grading, SetGrade, StreetGrade, decision_seed,
                                               grade_street, set_text, street_advice)
from fantasyland.optimizer.play.moves import Move, MoveError, SetMove, StreetMove, read_set, \
    read_street
from fantasyland.optimizer.play.seating import PLAYER, deal_of, hand_deck, runs, \
    seating_for
from fantasyland.optimizer.play.settings import PlaySettings
from fantasyland.optimizer.play.showdown import Showdown, showdown
from fantasyland.optimizer.play.table import SeatHand, Turn, player_table, review_line
from fantasyland.optimizer.solver.table import Sample


class Game:
    """Hands against the bots under ``settings``, from hand ``hand + 1`` on, with the seats
    of ``fantasyland`` (seat to cards) in Fantasyland for it and ``figures`` so far (a
    resumed session's)."""

    def __init__(self, settings: PlaySettings, *, hand: int = 0,
                 fantasyland: Mapping[int, int] | None = None,
                 figures: Figures | None = None) -> None:
        self.settings = settings
        self.rules = find_rules(settings.variant)
        settings.check(self.rules)
        self.players = settings.opponents + 1
        self.grading = Grading(objective=settings.objective, budget=settings.budget,
                               samples=settings.samples)
        self.hand = hand
        if fantasyland is None:
            fantasyland = {PLAYER: settings.fantasyland} if settings.fantasyland else {}
        self._next_fantasyland = dict(fantasyland)
        self.figures = figures or Figures()
        self.seating = seating_for(max(hand, 1), self.players, duplicate=settings.duplicate)
        self.seats: list[SeatHand] = []
        self.turn: Turn | None = None
        self.showdown: Showdown | None = None
        self.street_grades: list[StreetGrade] = []
        self.set_grade: SetGrade | None = None
        # the player's streets as review reads them: those whose board does not already foul
        self.review_lines: list[dict] = []
        self._street = 0
        self._index = 0
        self._advice: dict[int, object] = {}  # the adviser's answer on the current turn

    # --- the hand ---------------------------------------------------------------------

    @property
    def deal_number(self) -> int:
        return deal_of(self.hand, self.players, duplicate=self.settings.duplicate)[0]

    def deal(self) -> None:
        """Start the next hand and play the bots up to the player's first turn."""
        self.hand += 1
        self.seating = seating_for(self.hand, self.players, duplicate=self.settings.duplicate)
        deck = hand_deck(self.rules, self.settings.seed, self.deal_number)
        fantasyland = {} if self.settings.duplicate else self._next_fantasyland
        cards = runs(self.rules, deck, self.seating, fantasyland)
        self.seats = [SeatHand(seat, cards[seat], fantasyland.get(seat))
                      for seat in range(self.players)]
        self.showdown, self.turn, self.set_grade = None, None, None
        self.street_grades = []
        self.review_lines = []
        self._street, self._index = 0, 0
        self._advance()

    @property
    def finished(self) -> bool:
        """The hand is over: ``showdown`` holds its result."""
        return self.showdown is not None

    def _advance(self) -> None:
        """Play the bots in turn until the player's turn (``turn``) or the showdown."""
        streets = self.rules.dealing.streets
        order = self.seating.order
        while self._street < len(streets):
            while self._index < len(order):
                seat = self.seats[order[self._index]]
                if seat.fantasyland is not None:
                    if self._street == 0:
                        if seat.seat == PLAYER:
                            self._start_turn(None)
                            return
                        seat.set_board(bot_set(self.rules, seat.cards))
                elif seat.seat == PLAYER:
                    self._start_turn(seat.street_cards(self.rules, self._street))
                    return
                else:
                    self._bot_street(seat)
                self._index += 1
            self._street += 1
            self._index = 0
        self._settle()

    def _shown(self, but: int) -> list[Card]:
        """The cards face up on the boards of every seat but ``but``."""
        return [c for s in self.seats if s.seat != but and s.fantasyland is None
                for c in s.layout.tolist() if c != EMPTY]

    def _bot_street(self, seat: SeatHand) -> None:
        new = seat.street_cards(self.rules, self._street)
        unseen = unseen_by(self.rules, seat.known + new, self._shown(seat.seat))
        rng = np.random.default_rng([self.settings.seed, self.hand, seat.seat, self._street])
        rounds_left = len(self.rules.dealing.streets) - 1 - self._street
        seat.place(bot_street(self.rules, seat.layout, new, unseen, rounds_left, rng), new)

    def _start_turn(self, new: tuple[Card, ...] | None) -> None:
        me = self.seats[PLAYER]
        table = player_table(self.rules, self.seats, self.settings)
        self.turn = Turn(self.hand, self._street + 1 if new is not None else 0,
                         me.position(self.rules, new) if new is not None else None,
                         me.cards if new is None else new, table)
        self._advice = {}

    # --- the player's turn ----------------------------------------------------------------

    @property
    def seed(self) -> int:
        """The seed of the adviser's valuation of the current turn."""
        assert self.turn is not None
        return decision_seed(self.settings.seed, self.hand, self.turn.street)

    def read_move(self, text: str) -> Move:
        """The move ``text`` names on the player's turn. Raises ``MoveError``."""
        turn = self._turn()
        if turn.position is None:
            return read_set(self.rules, turn.cards, text)
        return read_street(turn.position, text)

    def legal_moves(self) -> list[Move]:
        """Every play of the player's street, in ``legal_plays``' order; empty in
        Fantasyland, where any 13 of the cards dealt that ``read_move`` reads are a set."""
        turn = self._turn()
        if turn.position is None:
            return []
        return [StreetMove(play) for play in legal_plays(turn.position)]

    def advice(self) -> Any:
        """The adviser's answer on the player's turn, computed once: ``advise``'s ranking of
        the street's plays (``Advice``; None where the board already fouls), or the solver's
        set of the Fantasyland hand (``Solution``)."""
        turn = self._turn()
        if 0 not in self._advice:
            if turn.position is None:
                from fantasyland.optimizer.solver.solve import solve

                self._advice[0] = solve(turn.cards, variant=self.rules,
                                        objective=self.settings.objective,
                                        sample=self._sample())
            else:
                self._advice[0] = None if turn.fouled else street_advice(
                    turn.position, turn.table, self.grading, self.seed)
        return self._advice[0]

    def _sample(self) -> Sample:
        return Sample(table=self._turn().table, samples=self.settings.samples, seed=self.seed)

    def best_move(self) -> Move:
        """The adviser's best move on the player's turn."""
        turn = self._turn()
        answer = self.advice()
        if turn.position is None:
            return SetMove(answer.board, answer.discards)
        if answer is None:  # every play fouls alike: the first
            return StreetMove(legal_plays(turn.position)[0])
        return StreetMove(answer.best.play)

    def play(self, move: Move) -> None:
        """Make the player's ``move``: grade it, then play the bots on."""
        turn = self._turn()
        me = self.seats[PLAYER]
        if isinstance(move, SetMove):
            if turn.position is not None:
                raise MoveError(f"{move.describe()!r} is a set: this street is a play")
            self.set_grade = self._grade_set(move)
            me.set_board(move.board)
        else:
            if turn.position is None:
                raise MoveError(f"{move.describe()!r} is a play: a Fantasyland hand is set")
            self.street_grades.append(self._grade_street(move))
            if not turn.fouled:  # a board that already fouls has nothing to review
                self.review_lines.append(review_line(self, turn, move))
            me.place(np.array(move.play.layout, dtype=np.int64), turn.cards)
        self.turn = None
        self._index += 1
        self._advance()

    def _grade_street(self, move: StreetMove) -> StreetGrade:
        turn = self._turn()
        assert turn.position is not None
        advice = self.advice()
        if advice is not None and not any(p.play.key == move.play.key and not p.screened
                                          for p in advice.plays):
            advice = street_advice(turn.position, turn.table, self.grading, self.seed,
                                   include=(move.play,))
        return grade_street(turn.position, move.play, advice)

    def _grade_set(self, move: SetMove) -> SetGrade:
        from fantasyland.optimizer.training import grade

        turn = self._turn()
        solution = self.advice()
        g = grade(turn.cards, move.board, variant=self.rules, objective=self.settings.objective,
                  sample=self._sample(), solution=solution)
        return SetGrade(format_cards(sorted(turn.cards, reverse=True), ascii=True),
                        move.describe(),
                        set_text(solution.board, solution.discards), g.ev_lost, g.optimal)

    def _turn(self) -> Turn:
        if self.turn is None:
            raise RuntimeError("it is not the player's turn")
        return self.turn

    # --- the showdown ---------------------------------------------------------------------

    def _settle(self) -> None:
        reports = [evaluate_board(s.board_text(), rules=self.rules) for s in self.seats]
        self.showdown = showdown(self.rules, reports, [s.fantasyland for s in self.seats],
                                 [s.discards for s in self.seats])
        if not self.settings.duplicate:
            self._next_fantasyland = {
                s.seat: cards for s in self.showdown.seats
                if (cards := s.next_fantasyland(self.rules)) is not None}
        mine = self.showdown.seats[PLAYER]
        graded = [g for g in self.street_grades if g.ev_lost is not None]
        self.figures.add(HandFigures(
            self.hand, self.deal_number, mine.points, self.seating.on_button(PLAYER),
            mine.report.fouled, mine.entered, mine.fantasyland is not None, len(graded),
            round(sum(g.ev_lost for g in graded if g.ev_lost is not None), 9),
            None if self.set_grade is None else round(self.set_grade.ev_lost, 9)))

    @property
    def next_fantasyland(self) -> dict[int, int]:
        """The seats in Fantasyland next hand, and their cards."""
        return dict(self._next_fantasyland)
