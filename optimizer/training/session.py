"""A training session: deal Fantasyland hands, grade the player's sets, keep the score.

The session is plain state, so that the terminal trainer, a script feeding it sets, and the
tests drive the same thing. One seed deals the same hands whatever the player types.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.solver.dealing import deal, pick_size, size_mix
from fantasyland.optimizer.training.grading import Grade, grade, grade_record, parse_set
from fantasyland.optimizer.solver.objective import (check_fl_value, check_objective,
                                                    default_fl_value)
from fantasyland.optimizer.solver.objective import ObjectiveError, ObjectiveName
from fantasyland.optimizer.solver.solve import Solution, default_samples, solve
from fantasyland.optimizer.solver.table import PLAIN, Sample, TableSpec, read_table


@dataclass
class Score:
    """The running score: hands graded, optimal sets, fouls, and the EV lost in total."""

    hands: int = 0
    optimal: int = 0
    fouls: int = 0
    ev_lost: float = 0.0

    def add(self, g: Grade) -> None:
        self.hands += 1
        self.optimal += g.optimal
        self.fouls += g.fouled
        self.ev_lost += g.ev_lost

    @property
    def optimal_share(self) -> float:
        """Optimal sets as a share of the hands graded (0 before the first)."""
        return self.optimal / self.hands if self.hands else 0.0

    @property
    def mean_ev_lost(self) -> float:
        return self.ev_lost / self.hands if self.hands else 0.0

    def record(self) -> dict:
        # rounded as a hand's own ev_lost is: no float noise such as 19.857142857142858
        return {"hands": self.hands, "optimal": self.optimal, "fouls": self.fouls,
                "ev_lost": round(self.ev_lost, 9), "optimal_share": round(self.optimal_share, 9),
                "mean_ev_lost": round(self.mean_ev_lost, 9)}


@dataclass(frozen=True)
class Deal:
    number: int  # 1 for the session's first hand
    cards: tuple[Card, ...]  # highest first


@dataclass
class Session:
    """Hands dealt from ``seed`` under one variant and objective, and the score so far.

    ``sizes`` fixes the card counts to deal (equally often); by default the variant's
    Fantasyland sizes at realistic frequencies (``optimizer.solver.dealing.size_mix``).
    """

    variant: str | Rules = "progressive"
    objective: str = "royalties"
    fl_value: float | None = None
    sizes: Sequence[int] | None = None
    seed: int = 0
    # The table (``optimizer.solver.table``): the same every hand, and the hands are dealt
    # from the deck without the cards known there.
    table: TableSpec = PLAIN
    samples: int | None = None
    time_limit: float = 10.0
    score: Score = field(default_factory=Score)

    def __post_init__(self) -> None:
        self.rules: Rules = find_rules(self.variant)
        if self.fl_value is not None:
            self.fl_value = check_fl_value(self.fl_value)
        check_objective(self.rules, self.objective)  # now, not after the first hand
        self.mix = size_mix(self.rules, sizes=self.sizes)
        self._deck = self.rules.deck.cards
        if self.table.known:  # refused now, not after the first hand
            if self.objective != ObjectiveName.EV:
                raise ObjectiveError("the table (known boards, opponents in Fantasyland, "
                                     "dead cards) counts only under the ev objective: give it "
                                     "--objective ev")
            known = read_table(self.rules, (), spec=self.table).known_cards
            left = list(self._deck)
            for card in known:
                left.remove(card)
            self._deck = tuple(left)
        self._rng = random.Random(f"train:{self.seed}")
        self.current: Deal | None = None
        self._solution: Solution | None = None
        self._dealt = 0

    def deal(self) -> Deal:
        """The next hand; it stays current until the next deal, however often it is played."""
        cards = pick_size(self._rng, self.mix)
        self._dealt += 1
        self.current = Deal(self._dealt, tuple(sorted(self._rng.sample(self._deck, cards),
                                                      reverse=True)) if self.table.known else
                            deal(self._rng, cards, deck=self.rules.deck))
        self._solution = None
        return self.current

    def solution(self) -> Solution:
        """The optimal set of the current hand (solved once)."""
        if self.current is None:
            raise RuntimeError("no hand has been dealt")
        if self._solution is None:
            self._solution = solve(self.current.cards, variant=self.rules, objective=self.objective,
                                   fl_value=self.fl_value, time_limit=self.time_limit,
                                   sample=self.sample())
        return self._solution

    @property
    def staying_worths(self) -> dict[int, float]:
        """The worth of staying the grades use, by hand size dealt: ``fl_value``, or by
        default the variant's for this objective, table and size (``ultimate``'s differ)."""
        return {n: self.fl_value if self.fl_value is not None else
                default_fl_value(self.rules, self.objective, n,
                                 opponents=self.table.seated(self.rules))
                for n in sorted(self.mix)}

    @property
    def hand_seed(self) -> int:
        """The seed of the current hand's opponent sample under ev: ``seed x 1,000,000 +
        hand`` (distinct for every hand of a million-hand session).
        ``fantasyland check --objective ev --seed`` with it, and the session's variant,
        opponents, samples and fl-value, grades the hand the same way."""
        return self.seed * 1_000_000 + self._dealt

    def sample(self) -> Sample:
        """The current hand's table and opponent sample, as ``solve`` and ``grade`` take it."""
        return Sample(table=self.table, samples=self.samples, seed=self.hand_seed)

    def play(self, text: str) -> Grade:
        """Grade a typed set for the current hand and add it to the score.

        A set that cannot be read raises ``CardError`` (``SetError``) and changes nothing,
        so the player can type it again.
        """
        if self.current is None:
            raise RuntimeError("no hand has been dealt")
        board = parse_set(text, self.current.cards, deck=self.rules.deck)
        g = grade(self.current.cards, board, variant=self.rules, objective=self.objective,
                  fl_value=self.fl_value,
                  sample=self.sample(), solution=self.solution())
        self.score.add(g)
        return g

    def header_record(self) -> dict:
        """The first line of a session log: what was dealt and how it is graded."""
        samples = default_samples(self.rules) if self.samples is None else self.samples
        ev: dict[str, object] = {"opponents": self.table.seated(self.rules),
                                 "samples": samples} if self.objective == ObjectiveName.EV else {}
        if self.table.known:
            ev["table"] = read_table(self.rules, (), spec=self.table).record()
        return {"session": {"variant": self.rules.name, "objective": self.objective,
                            "fl_value": {str(n): w for n, w in self.staying_worths.items()},
                            "seed": self.seed, **ev,
                            "sizes": {str(n): round(p, 6) for n, p in sorted(self.mix.items())}}}

    def hand_record(self, g: Grade) -> dict:
        """One log line per graded hand: the grade and the score after it."""
        assert self.current is not None
        ev = {"ev_seed": self.hand_seed} if self.objective == ObjectiveName.EV else {}
        return {"hand": self.current.number, **ev, **grade_record(g),
                "score": self.score.record()}

    def summary_record(self) -> dict:
        return {"summary": self.score.record()}

