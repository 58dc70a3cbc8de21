"""What a session of play is: the game, the table, the seed, and how decisions are valued."""

from __future__ import annotations

from dataclasses import dataclass

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.solver.objective import OBJECTIVES, ObjectiveName

#: ``advise``'s budget on the player's streets, by default: its least, so that ``?`` answers
#: at once; ``review`` grades a session again with more.
DEFAULT_BUDGET = 32
#: Opponent boards the ev objective values a decision against, by default: ``advise``'s.
DEFAULT_SAMPLES = 2000


class SettingsError(InputError):
    """A session that cannot be played: the message names the setting."""


@dataclass(frozen=True, kw_only=True)
class PlaySettings:
    """The ``variant`` (a preset or a rules file, as given), the bots (``opponents``), the
    ``seed`` of every deal and draw, the ``objective``, ``budget`` and ``samples`` the
    player's decisions are valued with, ``duplicate`` (each deal replayed once a seat), and
    ``fantasyland``, the cards of a Fantasyland the player starts in (None: none)."""

    variant: str = "progressive"
    opponents: int = 1
    seed: int = 0
    objective: ObjectiveName = ObjectiveName.EV
    budget: int = DEFAULT_BUDGET
    samples: int = DEFAULT_SAMPLES
    duplicate: bool = False
    fantasyland: int | None = None

    def check(self, rules: Rules) -> None:
        """Refuse, with a ``SettingsError``, a session ``rules`` cannot play."""
        if rules.dealing.closed:
            raise SettingsError(f"{rules.name} sets all 13 cards at once: it has no streets "
                                "to play (play a variant with an ordinary hand)")
        if not 1 <= self.opponents <= rules.seats - 1:
            raise SettingsError(f"bad opponents {self.opponents!r}: a deck of "
                                f"{len(rules.deck.cards)} cards seats 1 to {rules.seats - 1} "
                                f"bots beside you under {rules.name}")
        if self.objective not in OBJECTIVES:
            raise SettingsError(f"bad objective {self.objective!r}: expected ev or royalties")
        for name, number, low in (("seed", self.seed, 0), ("budget", self.budget, 32),
                                  ("samples", self.samples, 1)):
            if isinstance(number, bool) or not isinstance(number, int) or number < low:
                raise SettingsError(f"bad {name} {number!r}: expected a whole number >= {low}")
        if self.fantasyland is not None:
            if self.fantasyland not in rules.dealt_counts:
                sizes = ", ".join(map(str, rules.dealt_counts)) or "none"
                raise SettingsError(f"bad Fantasyland size {self.fantasyland!r}: {rules.name} "
                                    f"deals {sizes}")
            if self.duplicate:
                raise SettingsError("duplicate deals ordinary hands only: give --fantasyland "
                                    "or --duplicate, not both")

    def record(self) -> dict:
        """The settings as plain data, as the session's log keeps them."""
        return {"variant": self.variant, "opponents": self.opponents, "seed": self.seed,
                "objective": str(self.objective), "budget": self.budget,
                "samples": self.samples, "duplicate": self.duplicate,
                "fantasyland": self.fantasyland}
