"""``solve``: the best Fantasyland set for a dealt hand, proved optimal.

The search runs in two *modes* (see ``optimizer.solver.mode``): sets that stay in Fantasyland and
sets that do not. Each mode has an integer objective, so each is proved exactly; the worth of
staying is then added in points and the better mode wins, ties going to the tie-break rule.
This also yields the decision a progressive-Pineapple player faces: the best set that stays
against the best that does not. Each mode is proved by the fastest route its hand allows, or
by CP-SAT's model on request (``optimizer.solver.proof``); ``Solution.proof`` says which.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from numbers import Integral

import numpy as np

from fantasyland.evaluator.board import (Board, BoardReport, evaluate_board, parse_board,
                                         row_strengths)
from fantasyland.evaluator.board import Royalties as RoyaltyPoints
from fantasyland.evaluator.cards import (JOKER, ONE_DECK, Card, CardError, Deck, format_cards,
                                         parse_cards)
from fantasyland.evaluator.jokers import substitutes
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Row, Rules, Word
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.alternatives import Alternative
from fantasyland.optimizer.solver.alternatives import alternatives as find_alternatives
from fantasyland.optimizer.solver.candidates import enumerate_candidates, subsets
from fantasyland.optimizer.solver.ev import Breakdown, ExpectedValue, OpponentField, breakdown
from fantasyland.optimizer.solver.mode import ModeResult, ModeStats
from fantasyland.optimizer.solver.objective import (Objective, ObjectiveError, ObjectiveName,
                                                    Royalties,
                                                    check_fl_value, check_name, default_fl_value,
                                                    opponent_model)
from fantasyland.optimizer.solver.played import solve_mode_as_played
from fantasyland.optimizer.solver.proof import Proof, ProofMethod, check_method, costliest
from fantasyland.optimizer.solver.showdown import ShowdownChoice, showdown_choice
from fantasyland.optimizer.solver.table import (DEFAULT_SAMPLE, Sample, check_sample, draw_table,
                                                read_table)

MIN_CARDS, MAX_CARDS = 13, 17
DEFAULT_SAMPLES = 2000  # opponent deals per solve with the EV objective
#: The same where every deal sets each opponent's 13 cards with the closed-hand model
#: (classic Chinese Poker): a deal costs a millisecond or more, not microseconds.
CLOSED_SAMPLES = 40


def default_samples(rules: Rules) -> int:
    """The opponent deals a solve samples under ``rules`` when it is not told."""
    return CLOSED_SAMPLES if rules.dealing.closed else DEFAULT_SAMPLES


class SolveStatus(Word):
    """How far a solve got: ``Solution.status``, and the ``status`` of ``solve --json``."""

    OPTIMAL = "optimal"  # proved the best set
    FEASIBLE = "feasible"  # the time limit hit first: the best set found, not proved
    FOULED = "fouled"  # proved that every set of the cards fouls

    @property
    def proved(self) -> bool:
        """Whether the answer is proved: the best set, or that there is no legal one."""
        return self is not SolveStatus.FEASIBLE


@dataclass(frozen=True)
class SolveStats:
    """How a solve went: the candidate rows enumerated, each mode's search (None for a mode
    with no legal set), and its phases in milliseconds on the solver's clock."""

    candidates: Mapping[str, int] = field(default_factory=dict)  # by row
    stay: ModeStats | None = None
    no_stay: ModeStats | None = None
    setup_ms: float = 0.0
    enumerate_ms: float = 0.0
    solve_ms: float = 0.0  # the set chosen (the alternatives not yet sought)
    total_ms: float = 0.0


@dataclass(frozen=True, repr=False, kw_only=True)
class Solution:
    """The chosen set for a dealt hand, and how it was found."""

    cards: tuple[Card, ...]
    rules: Rules
    objective: str
    fl_value: float
    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    discards: tuple[Card, ...]
    report: BoardReport
    value: float
    status: SolveStatus
    bound: float  # the best proved bound on the value
    best_staying: ModeResult | None = None
    best_not_staying: ModeResult | None = None
    alternatives: tuple[Alternative, ...] = ()
    stats: SolveStats = field(default_factory=SolveStats)
    #: What proved it: the costliest proof its modes needed (CP-SAT on every hand when
    #: asked: ``solve(proof="cpsat")``); a hand with no legal set, what showed that.
    proof: Proof = Proof.COMPLETION

    @property
    def board(self) -> Board:
        return self.report.board

    ev: ExpectedValue | None = None  # the EV objective's sample, when it was used

    @property
    def royalties(self) -> RoyaltyPoints:
        return self.report.royalties

    @property
    def stays(self) -> bool:
        return self.report.stays

    @property
    def stay_rows(self) -> tuple[str, ...]:
        return self.report.stay_rows

    @property
    def fouled(self) -> bool:
        return self.report.fouled

    def __repr__(self) -> str:
        """The set as text (``parse_board`` reads it back), its value and how it was found:
        ``<Solution Ah Ac Ts / ... / As 5s 4s 3s 2s, discards 6d: worth 37.7 (royalties),
        stays, optimal>``."""
        discards = f", discards {format_cards(self.discards, ascii=True)}" if self.discards else ""
        return (f"<Solution {self.board.format(ascii=True)}{discards}: worth {self.value:g} "
                f"({self.objective}), {'stays' if self.stays else 'does not stay'}, "
                f"{self.status}>")

    @property
    def fantasyland_cards_next(self) -> int | None:
        """Cards dealt on the repeat, or None when the set does not stay."""
        return self.rules.repeat_cards_after(len(self.cards)) if self.stays else None

    @property
    def break_even_fl_value(self) -> float | None:
        """The worth of staying at which the stay decision flips: the best set that stays,
        worth its value less ``fl_value`` plus this, is worth the best set that does not.
        Above it staying is right, below it not (at it the two tie). None when the hand has
        no legal set of one of the kinds. Exact, not a re-solve: the worth is added to every
        set that stays alike, so neither best set changes with it."""
        if self.best_staying is None or self.best_not_staying is None:
            return None
        return self.best_not_staying.points - (self.best_staying.points - self.fl_value)

    @property
    def showdown(self) -> ShowdownChoice | None:
        """Classic Chinese Poker: set the cards, declare a natural, or surrender
        (``optimizer.solver.showdown``); None under rules with no such choice, and under
        the royalties objective."""
        if self.ev is None or not self.rules.dealing.closed:
            return None
        return showdown_choice(self.cards, self.rules, self.ev, self.value)

    @property
    def usual_count(self) -> bool:
        """Whether the variant ever deals this many cards in Fantasyland."""
        return len(self.cards) in self.rules.dealt_counts


def _dealt(cards: str | Sequence[Card], deck: Deck = ONE_DECK) -> tuple[Card, ...]:
    # A caller's list may hold names or anything else: each item is checked as an object.
    given: list[object] = [] if isinstance(cards, str) else list(cards)
    names = [c for c in given if isinstance(c, str)]
    if isinstance(cards, str) or len(names) == len(given):  # text, or names such as ["As"]
        dealt = parse_cards(cards if isinstance(cards, str) else names, deck=deck)
    else:
        if names:
            other = next(c for c in given if not isinstance(c, str))
            raise CardError(f"cards mix names and ids ({names[0]!r} and {other!r}): expected "
                            "all names such as 'As' or all ids 0..51")
        bad = [c for c in given if isinstance(c, bool) or not isinstance(c, Integral)]
        if bad:
            raise CardError(f"bad card {bad[0]!r}: expected a card id 0..51 ({JOKER} for a "
                            "joker) or a name such as 'As'")
        dealt = tuple(int(c) for c in given if isinstance(c, Integral))  # every one, by now
        for card in dealt:
            if not 0 <= card <= JOKER:
                raise CardError(f"bad card id {card!r}: expected 0..51, or {JOKER} for a joker")
        if deck == ONE_DECK and len(set(dealt)) != len(dealt):
            raise CardError("duplicate card in the dealt hand: each card can be dealt once")
        deck.check(dealt)
    if not MIN_CARDS <= len(dealt) <= MAX_CARDS:
        raise CardError(f"got {len(dealt)} cards: a Fantasyland hand has "
                        f"{MIN_CARDS} to {MAX_CARDS}")
    return tuple(sorted(dealt))  # canonical order: the answer cannot depend on input order


def _fouled_board(dealt: tuple[Card, ...], deck: Deck) -> Board:
    """When no legal set exists: the strongest rows from the bottom up (which still foul;
    a row's jokers at their strongest)."""
    left = list(dealt)
    rows = {}
    for row in ROWS[::-1]:
        positions = subsets(len(left), ROW_SIZE[row])
        owner, played = substitutes(np.array(left)[positions], deck)
        best = positions[owner[np.argmax(row_strengths(played))]]
        rows[row] = tuple(sorted((int(left[i]) for i in best), reverse=True))
        left = [c for i, c in enumerate(left) if i not in set(best.tolist())]
    return Board(rows[Row.TOP], rows[Row.MIDDLE], rows[Row.BOTTOM])


def _without(dealt: Sequence[Card], used: Sequence[Card]) -> list[Card]:
    """``dealt`` less the cards ``used``, copy by copy (two decks deal a card twice)."""
    left = list(dealt)
    for card in used:
        left.remove(card)
    return left


def make_objective(name: str, rules: Rules, dealt: str | Sequence[Card], fl_value: float | None,
                   *, sample: Sample = DEFAULT_SAMPLE) -> Objective:
    """The objective ``name`` for a dealt hand: ``"royalties"`` or ``"ev"``.

    ``fl_value`` defaults to ``default_fl_value``: the variant's worth of staying for this
    many cards and this table. The EV objective plays the ``sample``'s table
    (``optimizer.solver.table.TableSpec``: how many opponents, and what is known of them)
    on a seeded sample of its ``samples`` deals from the deck without the dealt cards,
    unless its ``boards`` give the sample (``optimizer.solver.table.Sample``).
    """
    check_name(name)
    check_sample(sample)
    table, samples, seed, boards = sample.table, sample.samples, sample.seed, sample.boards
    dealt = _dealt(dealt, rules.deck)

    def staying(opponents: int) -> float:
        # the rules' own figures are bounded where the rules file is read
        return default_fl_value(rules, name, len(dealt), opponents=opponents) if fl_value is None \
            else check_fl_value(fl_value)

    if name == ObjectiveName.ROYALTIES:
        if table.known:
            raise ObjectiveError("the table (known boards, opponents in Fantasyland, dead "
                                 "cards) counts only under the ev objective: give it --objective"
                                 " ev")
        return Royalties(staying(1))
    if boards is None:
        samples = default_samples(rules) if samples is None else samples
        for option, number in (("opponents", table.seated(rules)), ("samples", samples),
                               ("seed", seed)):
            if isinstance(number, bool) or not isinstance(number, Integral):
                raise ObjectiveError(f"bad {option} {number!r}: expected a whole number")
        if not 1 <= samples <= 100_000:
            raise ObjectiveError(f"bad samples count {samples!r}: expected 1 to 100000")
        if seed < 0:
            raise ObjectiveError(f"bad seed {seed!r}: expected a whole number >= 0")
        with opponent_model():
            seated = read_table(rules, dealt, spec=table)
            drawn = draw_table(rules, dealt, seated, samples, seed, set_fantasyland=fantasyland_set)
        boards = drawn.boards
    elif table.known:
        raise ObjectiveError("give the opponents' boards or the table, not both")
    else:
        seated, drawn = None, None
    boards = np.asarray(boards, dtype=np.int64)
    if boards.ndim != 3 or boards.shape[2] != 13 or boards.shape[0] < 1 or boards.shape[1] < 1:
        raise ObjectiveError(f"bad opponent boards of shape {boards.shape}: expected "
                             "(samples, opponents, 13)")
    if boards.min() < 0 or boards.max() > 51:
        raise ObjectiveError(f"bad opponent boards: card ids run from {boards.min()} to "
                             f"{boards.max()}; expected 0..51")
    # Boards given here are checked; the table's were where they were read or made (and a
    # seen board's joker plays as a face that may be dealt too).
    if rules.deck == ONE_DECK and (seated is None or seated.plain):
        ordered = np.sort(boards.reshape(-1, 13), axis=1)  # two opponents' boards may share
        if (ordered[:, 1:] == ordered[:, :-1]).any():     # cards (docs/ev-and-opponents.md)
            raise ObjectiveError("bad opponent boards: a card appears twice on one board")
        if np.isin(boards, np.asarray(dealt)).any():
            raise ObjectiveError("the opponent boards hold a card of the dealt hand")
    if drawn is None:
        return ExpectedValue(OpponentField.from_boards(boards, rules), rules.scoring,
                             staying(boards.shape[1]))
    assert seated is not None  # read where the boards were drawn
    field = OpponentField.from_boards(boards, rules, groups=drawn.groups, exact=seated.exact,
                                      share=drawn.share)
    return ExpectedValue(field, rules.scoring, staying(boards.shape[1]),
                         table=None if seated.plain else seated)


def fantasyland_set(rules: Rules, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The set an opponent in Fantasyland makes of its ``cards``: this solver's optimum for
    royalties plus its variant's worth of staying, each joker the face it plays as."""
    solution = solve(tuple(cards), variant=rules, objective="royalties")
    return tuple(c for row in ROWS for c in solution.report.row(row).played)


def solve(cards: str | Sequence[Card], *, variant: str | Rules = "pineapple",
          objective: str = "royalties", fl_value: float | None = None,
          time_limit: float = 10.0, alternatives: int = 0,
          sample: Sample = DEFAULT_SAMPLE, proof: str = ProofMethod.FASTEST) -> Solution:
    """The best set for ``cards`` (13 to 17) under ``variant``; see the module docstring.

    ``objective`` is ``"royalties"`` (royalties + fl_value if the set stays) or ``"ev"``
    (expected points at the ``sample``'s table, estimated on its ``samples`` seeded deals,
    + fl_value if it stays); its ``boards`` may fix that sample instead (``make_objective``).
    ``fl_value`` defaults to the variant's worth of staying (``default_fl_value``).
    ``alternatives`` asks for that many next-best distinct sets. ``proof`` is how the
    optimum is proved: ``"fastest"``, the fastest route the hand allows, or ``"cpsat"``,
    CP-SAT's model on every hand (``optimizer.solver.proof``); the answer is the same.
    Raises ``CardError`` for bad cards, ``RulesError`` for an unknown variant, and
    ``ObjectiveError`` for a bad objective or parameter.
    """
    # The solver's clock leaves out the one-time load of CP-SAT (cpsat.py) and of the
    # opponent model: the time limit and the times reported are the solve's own.
    rules = find_rules(variant)
    if objective == ObjectiveName.EV and check_sample(sample).boards is None:
        from fantasyland.optimizer.opponents.draw import prepare  # the pools load on first use

        prepare(rules)
    started = cpsat.clock()
    dealt = _dealt(cards, rules.deck)
    if rules.dealing.closed and len(dealt) != 13:
        raise CardError(f"got {len(dealt)} cards: {rules.name} deals 13 to each player, set "
                        "whole, with none discarded")
    if not time_limit > 0:
        raise ObjectiveError(f"bad time limit {time_limit!r}: expected seconds > 0")
    if not 0 <= alternatives <= 50:
        raise ObjectiveError(f"bad alternatives count {alternatives!r}: expected 0 to 50")
    method = check_method(proof)
    goal = make_objective(objective, rules, dealt, fl_value, sample=sample)
    deadline = started + time_limit
    clock = time.perf_counter()
    cands = goal.weigh(enumerate_candidates(dealt, rules, compares_rows=goal.compares_rows))
    setup_ms = (cpsat.clock() - started) * 1e3
    enumerate_ms = (time.perf_counter() - clock) * 1e3
    # Both modes are solved in full: the player wants to see the best of each.
    not_staying = solve_mode_as_played(cands, False, goal, deadline, method=method)
    staying = solve_mode_as_played(cands, True, goal, deadline, method=method)
    results = [r for r in (not_staying, staying) if r is not None]
    searches = {result.stays: result.stats for result in results}
    stats = SolveStats(candidates={r: len(cands.row(r)) for r in ROWS},
                       stay=searches.get(True), no_stay=searches.get(False),
                       setup_ms=setup_ms, enumerate_ms=enumerate_ms)
    ev = goal if isinstance(goal, ExpectedValue) else None
    if not results:
        board = _fouled_board(dealt, rules.deck)
        report = evaluate_board(board, rules=rules)
        value = ev.fouled_points() if ev else 0.0
        took = (cpsat.clock() - started) * 1e3
        return Solution(cards=dealt, rules=rules, objective=goal.name, fl_value=goal.fl_value,
                        top=board.top, middle=board.middle, bottom=board.bottom,
                        discards=_discards(dealt, board), report=report, value=value,
                        status=SolveStatus.FOULED, bound=value, ev=ev,
                        stats=replace(stats, solve_ms=took, total_ms=took),
                        proof=Proof.CPSAT if method is ProofMethod.CPSAT else Proof.COMPLETION)
    best = max(results, key=lambda r: (r.points, r.tiebreak))
    solve_ms = (cpsat.clock() - started) * 1e3
    others: tuple[Alternative, ...] = ()
    if alternatives:
        chosen = (best.board_report.top.strength, best.board_report.middle.strength,
                  best.board_report.bottom.strength)
        whole = goal.weigh(cands.with_deferred()) if cands.deferred is not None else cands
        others = tuple(find_alternatives(whole, [(r.stays, r.weight) for r in results],
                                         alternatives, goal, deadline, chosen))
    total_ms = (cpsat.clock() - started) * 1e3
    proved = all(r.proved for r in results)
    board = best.board
    return Solution(cards=dealt, rules=rules, objective=goal.name, fl_value=goal.fl_value,
                    top=board.top, middle=board.middle, bottom=board.bottom,
                    discards=_discards(dealt, board), report=best.board_report,
                    value=best.points,
                    status=SolveStatus.OPTIMAL if proved else SolveStatus.FEASIBLE,
                    bound=max(r.bound for r in results), best_staying=staying,
                    best_not_staying=not_staying, alternatives=others,
                    stats=replace(stats, solve_ms=solve_ms, total_ms=total_ms), ev=ev,
                    proof=costliest(r.stats.proof for r in results if r.stats.proof is not None)
                    or Proof.COMPLETION)


@dataclass(frozen=True, repr=False)
class SetValue:
    """What one given set of a dealt hand is worth under an objective."""

    value: float  # points; a fouled set: 0 (royalties) or what the foul costs (ev)
    report: BoardReport
    ev: Breakdown | None  # with the EV objective

    @property
    def stays(self) -> bool:
        return self.report.stays

    def __repr__(self) -> str:
        return (f"<SetValue {self.report.board.format(ascii=True)}: {self.value:g}, "
                f"{'fouls' if self.report.fouled else 'stays' if self.stays else 'does not stay'}>")


def value_of_set(cards: str | Sequence[Card], board: str | Board,
                 *, variant: str | Rules = "pineapple", objective: str | Objective = "royalties",
                 fl_value: float | None = None, sample: Sample = DEFAULT_SAMPLE) -> SetValue:
    """The value of ``board`` for the dealt ``cards``, on the same terms as ``solve``.

    With the same arguments, the optimal board's value equals ``solve(...).value``. An
    ``Objective`` made once by ``make_objective`` may be passed to value many sets against
    the same sample. Raises ``CardError`` if the board holds a card that was not dealt.
    """
    rules = find_rules(variant)
    dealt = _dealt(cards, rules.deck)
    board = parse_board(board, deck=rules.deck) if isinstance(board, str) else board
    left = list(dealt)
    missing: list[Card] = []
    for card in board.cards:
        (left.remove if card in left else missing.append)(card)
    if missing:
        raise CardError(f"the set uses {format_cards(missing[:1], ascii=True)!r}, which was "
                        "not dealt")
    goal = objective if not isinstance(objective, str) else make_objective(
        objective, rules, dealt, fl_value, sample=sample)
    report = evaluate_board(board, rules=rules)
    if isinstance(goal, ExpectedValue):
        parts = breakdown(goal, report)
        return SetValue(parts.total, report, parts)
    points = 0.0 if report.fouled else report.royalties.total + (
        goal.fl_value if report.stays else 0.0)
    return SetValue(points, report, None)


def _discards(dealt: tuple[Card, ...], board: Board) -> tuple[Card, ...]:
    return tuple(sorted(_without(dealt, board.cards), reverse=True))
