"""A training session of ordinary hands: deal a hand street by street, grade each typed play
as ``advise`` grades it, and keep the score.

The session is plain state, as ``optimizer.training.session`` is for Fantasyland sets, so
that the terminal trainer, a script feeding it plays and the tests drive the same thing.
One seed deals the same cards whatever the player types: each hand's deck is shuffled once
from the seed and dealt from the top, the variant's first street and then a street at a
time. Each decision is valued by ``advise`` with a seed of its own (``decision_seed``), so
that ``advise`` called with that position and seed grades it again the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from fantasyland.evaluator.board import BoardReport, evaluate_board
from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer.opponents.layout import EMPTY
from fantasyland.optimizer.opponents.pools import dealing_for
from fantasyland.optimizer.ordinary.advise import (
    DEFAULT_SAMPLES,
    OBJECTIVES,
    Advice,
    PlayValue,
    advise,
    entry_values,
)
from fantasyland.optimizer.ordinary.effort import DEFAULT_BUDGET, Effort
from fantasyland.optimizer.ordinary.plays import (
    Play,
    board_text,
    read_play,
)
from fantasyland.optimizer.ordinary.position import Position, PositionError, read_position
from fantasyland.optimizer.ordinary.race import Figure
from fantasyland.optimizer.solver.table import PLAIN, Sample, TableSpec, read_table
from fantasyland.optimizer.solver.objective import ObjectiveName

#: Decisions a hand's seeds leave room for: more than any dealing has streets.
STREETS_A_HAND = 16


@dataclass(frozen=True)
class Decision:
    """One street graded: the position, ``advise``'s valuation of every play, and the
    player's play among them (``played``, ranked ``rank`` of ``len(advice.plays)``)."""

    hand: int
    position: Position
    advice: Advice
    played: PlayValue
    rank: int  # 1 for the best
    seed: int  # advise's seed for this decision

    @property
    def best(self) -> PlayValue:
        return self.advice.best

    @property
    def is_best(self) -> bool:
        """The best play, or on the exact last street one worth as much."""
        behind = self.played.behind  # (the exact last street screens no play out)
        return self.rank == 1 or (self.advice.exact and behind is not None and behind <= 0)

    @property
    def screened(self) -> bool:
        """Left out of the rollouts by the first street's screen: no value, no EV lost."""
        return self.played.screened

    @property
    def raced(self) -> int:
        """Plays rolled out (or valued exactly): those the screen let through, or those the
        learned model could not tell apart."""
        return sum(p.source in (Figure.ROLLOUTS, Figure.EXACT) for p in self.advice.plays)

    @property
    def ev_lost(self) -> float | None:
        behind = self.played.behind
        return None if behind is None else max(behind, 0.0)  # None: screened

    @property
    def ev_lost_error(self) -> float | None:
        return None if self.screened else self.played.behind_error

    def record(self) -> dict:
        """One log line's worth: the position, the play, the best play and the grade."""
        best = self.best
        return {"hand": self.hand, "street": self.position.street, "advise_seed": self.seed,
                "position": self.position.record(),
                "play": {"text": self.played.play.describe(), **self.played.play.record()},
                "best": {"text": best.play.describe(), **best.play.record(),
                         "value": _round(best.value)},
                "value": _round(self.played.value), "ev_lost": _round(self.ev_lost),
                "ev_lost_error": _round(self.ev_lost_error), "is_best": self.is_best,
                "close": self.played.close, "screened": self.screened, "rank": self.rank,
                "plays": len(self.advice.plays), "raced": self.raced,
                "exact": self.advice.exact}


@dataclass(frozen=True)
class Finish:
    """A hand played out: the finished board, what it scores, and the EV lost on the way."""

    hand: int
    board: str  # "TOP / MIDDLE / BOTTOM"
    report: BoardReport
    decisions: tuple[Decision, ...]

    @property
    def ev_lost(self) -> float:
        """The EV lost over the decisions that were valued (screened ones have none)."""
        return sum(d.ev_lost for d in self.decisions if d.ev_lost is not None)

    @property
    def screened(self) -> int:
        return sum(d.screened for d in self.decisions)

    def record(self) -> dict:
        r = self.report
        return {"hand": self.hand, "finished": {
            "board": self.board, "fouled": r.fouled, "foul_reasons": list(r.foul_reasons),
            "royalties": r.royalties.total, "fantasyland_cards": r.fantasyland_cards,
            "ev_lost": _round(self.ev_lost), "decisions": len(self.decisions),
            "best": sum(d.is_best for d in self.decisions), "screened": self.screened}}


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 9)


@dataclass
class Score:
    """The running score: hands finished, decisions graded, best plays, and EV lost."""

    hands: int = 0
    decisions: int = 0
    best: int = 0
    close: int = 0
    screened: int = 0  # plays the screen left out: graded by rank only, no EV lost
    fouls: int = 0
    entries: int = 0  # hands finished in Fantasyland
    ev_lost: float = 0.0

    def add(self, d: Decision) -> None:
        self.decisions += 1
        self.best += d.is_best
        self.close += d.played.close
        self.screened += d.screened
        self.ev_lost += d.ev_lost or 0.0

    def finish(self, f: Finish) -> None:
        self.hands += 1
        self.fouls += f.report.fouled
        self.entries += f.report.fantasyland_cards is not None

    @property
    def best_share(self) -> float:
        """Best plays as a share of the decisions graded (0 before the first)."""
        return self.best / self.decisions if self.decisions else 0.0

    @property
    def mean_ev_lost(self) -> float:
        """EV lost a decision, over the decisions that were valued."""
        valued = self.decisions - self.screened
        return self.ev_lost / valued if valued else 0.0

    def record(self) -> dict:
        return {"hands": self.hands, "decisions": self.decisions, "best": self.best,
                "close": self.close, "screened": self.screened, "fouls": self.fouls,
                "entries": self.entries, "ev_lost": round(self.ev_lost, 9),
                "best_share": round(self.best_share, 9),
                "mean_ev_lost": round(self.mean_ev_lost, 9)}


@dataclass(frozen=True)
class Street:
    """The street in front of the player: hand ``hand``, the position to play."""

    hand: int
    position: Position


@dataclass
class OrdinarySession:
    """Ordinary hands dealt from ``seed`` under one variant, graded by ``advise`` with the
    objective, table, samples, budget and entry worths given; and the score so far."""

    variant: str | Rules = "progressive"
    objective: str = "royalties"
    seed: int = 0
    table: TableSpec = PLAIN
    samples: int = DEFAULT_SAMPLES
    budget: int = DEFAULT_BUDGET
    entry_overrides: Mapping[int, float] | None = None
    workers: int = 1
    score: Score = field(default_factory=Score)

    def __post_init__(self) -> None:
        self.rules: Rules = find_rules(self.variant)
        if self.objective not in OBJECTIVES:
            raise PositionError(f"bad objective {self.objective!r}: expected ev or royalties")
        if self.rules.dealing.closed:
            raise PositionError(f"{self.rules.name} sets all 13 cards at once: it has no "
                                "ordinary hands to train on (train without --ordinary)")
        self.entries = entry_values(self.rules, self.objective, overrides=self.entry_overrides)
        self.dealing = dealing_for(self.rules)
        deck = list(self.rules.deck.cards)
        if self.table.known:
            if self.objective != ObjectiveName.EV:
                raise PositionError("the table (known boards, opponents in Fantasyland, dead "
                                    "cards) counts only under the ev objective: give it "
                                    "--objective ev")
            for card in read_table(self.rules, (), spec=self.table).known_cards:
                deck.remove(card)
        self._deck = tuple(deck)
        self._rng = random.Random(f"train-ordinary:{self.seed}")
        self._hand = 0
        self._cards: list[Card] = []  # the current hand's deck, in dealing order
        self._dealt = 0  # cards of it dealt so far
        self._layout = np.full(13, EMPTY, dtype=np.int64)
        self._discards: list[Card] = []
        self._decisions: list[Decision] = []
        self.current: Street | None = None
        self.finished: Finish | None = None

    # --- dealing ------------------------------------------------------------------------

    def deal(self) -> Street:
        """A new hand's first street."""
        self._hand += 1
        self._cards = list(self._deck)
        self._rng.shuffle(self._cards)
        self._dealt = 0
        self._layout = np.full(13, EMPTY, dtype=np.int64)
        self._discards = []
        self._decisions = []
        self.finished = None
        return self._next_street(self.dealing.first)

    def _next_street(self, count: int) -> Street:
        cards = tuple(self._cards[self._dealt:self._dealt + count])
        self._dealt += count
        position = read_position(self.rules, board_text(self._layout), cards,
                                 discards=tuple(self._discards))
        self.current = Street(self._hand, position)
        return self.current

    @property
    def decision_seed(self) -> int:
        """``advise``'s seed for the current street: ``seed x 1,000,000 + hand x 16 +
        street`` (distinct for every decision of the first 62,499 hands)."""
        assert self.current is not None
        return (self.seed * 1_000_000 + self.current.hand * STREETS_A_HAND
                + self.current.position.street)

    # --- playing ------------------------------------------------------------------------

    def read(self, text: str) -> Play:
        """The play ``text`` names in the current position; ``PlayError`` if it cannot be
        made (and nothing changes)."""
        if self.current is None or self.finished is not None:
            raise RuntimeError("no street to play: deal a hand")
        return read_play(self.current.position, text)

    def advise(self, *, progress: Callable[[int, int], None] | None = None,
               include: tuple[Play, ...] = ()) -> Advice:
        """Every play of the current street valued, as ``advise`` values it, the plays of
        ``include`` (the one being graded) raced whatever the first street's screen says."""
        assert self.current is not None
        p = self.current.position
        return advise(self.rules, board_text(self._layout), p.cards, objective=self.objective,
                      sample=Sample(table=self.table, samples=self.samples,
                                    seed=self.decision_seed),
                      discards=tuple(self._discards), entry_overrides=self.entry_overrides,
                      effort=Effort(budget=self.budget, workers=self.workers, progress=progress,
                                    include=include))

    def play(self, text: str, *, progress: Callable[[int, int], None] | None = None
             ) -> Decision:
        """Grade a typed play of the current street, add it to the score and make it: the
        next street is dealt, or the hand is finished (``finished``). A play that cannot be
        read raises ``PlayError`` and changes nothing, so the player can type it again."""
        play = self.read(text)
        street = self.current
        assert street is not None  # read() refuses a play when no street is dealt
        advice = self.advise(progress=progress, include=(play,))
        rank, played = next((i + 1, v) for i, v in enumerate(advice.plays)
                            if v.play.key == play.key)
        decision = Decision(self._hand, street.position, advice, played, rank,
                            self.decision_seed)
        self.score.add(decision)
        self._decisions.append(decision)
        self._layout = np.array(play.layout, dtype=np.int64)
        if play.discard is not None:
            self._discards.append(play.discard)
        if int((self._layout != EMPTY).sum()) == 13:
            text = board_text(self._layout)
            self.finished = Finish(self._hand, text, evaluate_board(text, rules=self.rules),
                                   tuple(self._decisions))
            self.score.finish(self.finished)
            self.current = None
        else:
            self._next_street(self.dealing.per_round)
        return decision

    @property
    def discards(self) -> tuple[Card, ...]:
        return tuple(self._discards)

    # --- the log ------------------------------------------------------------------------

    def header_record(self) -> dict:
        """The first line of a session log: what is dealt and how it is graded."""
        ev: dict[str, object] = {"opponents": self.table.seated(self.rules),
                                 "samples": self.samples} \
            if self.objective == ObjectiveName.EV else {}
        if self.table.known:
            ev["table"] = read_table(self.rules, (), spec=self.table).record()
        return {"session": {"mode": "ordinary", "variant": self.rules.name,
                            "objective": self.objective, "seed": self.seed,
                            "dealing": self.dealing.name, "budget": self.budget,
                            "entry_values": {str(e.cards): e.value for e in self.entries},
                            **ev}}

    def decision_record(self, d: Decision) -> dict:
        return {**d.record(), "score": self.score.record()}

    def finish_record(self) -> dict:
        assert self.finished is not None
        return {**self.finished.record(), "score": self.score.record()}

    def summary_record(self) -> dict:
        return {"summary": self.score.record()}
