"""The session's figures: points a hand with their standard error, split by position, fouls,
Fantasyland entries by size, and the EV lost a decision.

Each hand leaves one ``HandFigures`` (kept in the history, so that a resumed session goes on
counting from where it stopped); the session's figures are computed from the list. Under
duplicate, the points of a deal's replays are added, so that the luck of the cards cancels:
the sum is the player's points less the bots' on the same cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class HandFigures:
    """One hand, for the player: points won, on the button or not, fouled, the Fantasyland
    entered (its cards, None if none), whether it was played in Fantasyland, and the EV
    lost over the decisions that had a value (streets) and over the Fantasyland set."""

    hand: int
    deal: int
    points: int
    on_button: bool
    fouled: bool
    entered: int | None
    in_fantasyland: bool
    decisions: int  # streets with a value
    ev_lost: float
    set_ev_lost: float | None  # the Fantasyland set's, None for an ordinary hand

    def record(self) -> dict:
        return asdict(self)

    @classmethod
    def from_record(cls, data: dict) -> HandFigures:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Mean:
    """A mean and its standard error (None under two values); ``count`` values."""

    count: int
    mean: float
    error: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Mean:
        n = len(values)
        if n == 0:
            return cls(0, 0.0, None)
        mean = sum(values) / n
        if n < 2:
            return cls(n, mean, None)
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        return cls(n, mean, math.sqrt(variance / n))

    def record(self) -> dict:
        return {"count": self.count, "mean": round(self.mean, 9),
                "error": None if self.error is None else round(self.error, 9)}


@dataclass
class Figures:
    """Every hand of the session so far."""

    hands: list[HandFigures] = field(default_factory=list)

    def add(self, figures: HandFigures) -> None:
        self.hands.append(figures)

    @property
    def points(self) -> Mean:
        return Mean.of([h.points for h in self.hands])

    def by_position(self, *, on_button: bool) -> Mean:
        return Mean.of([h.points for h in self.hands if h.on_button == on_button])

    @property
    def fouls(self) -> int:
        return sum(h.fouled for h in self.hands)

    @property
    def entries(self) -> dict[int, int]:
        """Fantasyland entries earned, by their cards."""
        out: dict[int, int] = {}
        for h in self.hands:
            if h.entered is not None:
                out[h.entered] = out.get(h.entered, 0) + 1
        return dict(sorted(out.items()))

    @property
    def fantasyland_hands(self) -> int:
        return sum(h.in_fantasyland for h in self.hands)

    @property
    def decisions(self) -> int:
        return sum(h.decisions for h in self.hands)

    @property
    def ev_lost(self) -> float:
        return sum(h.ev_lost for h in self.hands)

    @property
    def ev_lost_a_decision(self) -> float | None:
        return self.ev_lost / self.decisions if self.decisions else None

    @property
    def sets(self) -> list[float]:
        """The EV lost on each Fantasyland set."""
        return [h.set_ev_lost for h in self.hands if h.set_ev_lost is not None]

    def by_deal(self, replays: int) -> Mean:
        """The points of each deal whose ``replays`` are all played, added (duplicate)."""
        deals: dict[int, list[int]] = {}
        for h in self.hands:
            deals.setdefault(h.deal, []).append(h.points)
        return Mean.of([sum(p) for p in deals.values() if len(p) == replays])

    def record(self, *, replays: int | None = None) -> dict:
        sets = self.sets
        out = {"hands": len(self.hands), "points": self.points.record(),
               "on_button": self.by_position(on_button=True).record(),
               "not_on_button": self.by_position(on_button=False).record(),
               "fouls": self.fouls, "entries": {str(k): v for k, v in self.entries.items()},
               "fantasyland_hands": self.fantasyland_hands, "decisions": self.decisions,
               "ev_lost": round(self.ev_lost, 9),
               "ev_lost_a_decision": None if self.ev_lost_a_decision is None
               else round(self.ev_lost_a_decision, 9),
               "sets": len(sets), "set_ev_lost": round(sum(sets), 9)}
        if replays is not None:
            out["duplicate"] = self.by_deal(replays).record()
        return out
