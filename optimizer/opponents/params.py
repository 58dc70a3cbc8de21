"""What the opponent bot plays: how an ordinary hand is dealt, and the bot's knobs.

Kept apart from ``bot`` so that the bot's estimate (``estimate``) can take the knobs without
importing the bot that calls it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from fantasyland.evaluator.rules import CARD_WORTH, DealingStyle
from fantasyland.optimizer.opponents.errors import OpponentModelError


@dataclass(frozen=True)
class Dealing:
    """How an ordinary hand is dealt: ``first`` cards, then ``rounds`` of ``per_round``
    cards of which the player keeps ``keep``."""

    name: str
    first: int
    rounds: int
    per_round: int
    keep: int

    @property
    def streets(self) -> tuple[tuple[int, int], ...]:
        """Each decision of a hand in order, as (cards dealt, cards kept)."""
        return ((self.first, self.first),) + ((self.per_round, self.keep),) * self.rounds

    @property
    def seen(self) -> int:
        """Cards the player sees in a hand: the 13 placed plus the discards."""
        return self.first + self.rounds * self.per_round

    @classmethod
    def of(cls, style: DealingStyle) -> Dealing:
        """The bot's dealing of an open style, from the streets the rules give it."""
        (first, _), *rounds = style.streets
        per_round, keep = rounds[0]
        return cls(style.value, first, len(rounds), per_round, keep)

    def __post_init__(self) -> None:
        if self.first + self.rounds * self.keep != 13:
            raise ValueError(f"dealing {self.name!r} places {self.first} + {self.rounds} x "
                             f"{self.keep} cards: expected 13")


#: Classic OFC: five cards, then one at a time.
ONE_AT_A_TIME = Dealing.of(DealingStyle.ONE_AT_A_TIME)
#: Pineapple: five cards, then four rounds of three, keeping two.
THREE_KEEP_TWO = Dealing.of(DealingStyle.THREE_KEEP_TWO)
DEALINGS = {d.name: d for d in (ONE_AT_A_TIME, THREE_KEEP_TWO)}


@dataclass(frozen=True)
class BotParams:
    """The bot's knobs; the defaults are the Pineapple calibration (docs/ev-and-opponents.md)."""

    fl_bonus: float = 22.0  # worth of entering Fantasyland, in points
    foul_penalty: float = 6.0  # cost of a foul, in points (its royalties are lost as well)
    samples: int = 48  # first look: random futures (or last-round deals) per placement
    draw_credit: int = 2  # useful future cards the middle and bottom may draw from
    top_credit: int = 1  # useful future cards the top may draw from
    refine: int = 4  # placements the second look rescores
    refine_samples: int = 256  # second look where there is no search: more deals or futures
    search_deals: int = 12  # second look earlier: deals of the next round searched
    search_samples: int = 32  # first-look samples that judge each play of those deals
    search_from: int = 3  # rounds left at which the search starts
    # The stronger bot's valuation of finished boards (``optimizer.opponents.odds``): the
    # points they win at the table, rows and scoop included, with each Fantasyland entry at
    # its worth by size (``entry_worths``) instead of ``fl_bonus``.
    table_points: bool = False
    # Worth of each Fantasyland card beyond the repeat size (progressive's 15 to 17), where
    # the rules give no worth by size (``ev_entry_value``): ``evaluator.rules.CARD_WORTH``.
    card_worth: float = CARD_WORTH
    # The stronger bot's wider look and safer estimate (measured in docs/notes-opponents.md):
    # under ``table_points`` the second look rescores ``table_refine`` placements (None:
    # ``refine``, as the first bot), and the estimate of earlier rounds charges a foul
    # ``estimate_foul_penalty`` points (None: ``foul_penalty``), for the estimate keeps the
    # best of its completions and so sees fouls too seldom. The stronger bot once defaulted
    # to 8 and 10; on 1,050 fresh deals that scored -0.13 +- 0.13 a game against 4 and 6, at
    # about 1.4 times the time. A foul at 10 alone scored +0.29 +- 0.07 against 4 and 6 on
    # 2,000 fresh deals, with 4.3 points fewer fouls: the stronger bot plays 4 and 10
    # (``pools.STRONG_PARAMS``), and in Pineapple a first look over 96 ``samples``, which
    # scored +0.46 +- 0.16 against 48 on 1,000 fresh deals for 1.09 times the CPU.
    table_refine: int | None = None
    estimate_foul_penalty: float | None = None
    # Whether no card of the future may help two rows of one of the estimate's plans
    # (``estimate``): without it a card that helps two rows (a king for a king on top and a
    # king in the bottom) completes both at once. With it each row has a third option, its
    # own cards alone, so that some plan always stands. Measured (docs/notes-opponents.md,
    # "Which decisions lose"): with ``estimate_foul_penalty=16`` it won 0.133 +- 0.041 points
    # a game from the stronger bot over 20,000 fresh hands, with 2.2 points fewer fouls, at
    # about 1.4 times the CPU; it is not yet the stronger bot's default (the pools would
    # change with it).
    estimate_disjoint: bool = False
    # Whether the bot counts the cards face up on the other boards at its table as seen
    # (``bot.play_in_turn``), as a player does: its looks then never deal it a card another
    # board holds. A bot playing alone (a pool's) sees no other board.
    sees_boards: bool = False

    @property
    def rescored(self) -> int:
        """Placements the second look rescores."""
        if self.table_points and self.table_refine is not None:
            return self.table_refine
        return self.refine

    @property
    def estimate_foul_cost(self) -> float:
        """What a foul costs the estimate of earlier rounds."""
        if self.estimate_foul_penalty is not None:
            return self.estimate_foul_penalty
        return self.foul_penalty


#: The knobs added after the shipped pools were built, with the defaults that play as before:
#: a pool's meta lists them only where they differ (``params_meta``).
LATER_KNOBS = {"table_points": False, "card_worth": 5.5, "table_refine": None,
               "estimate_foul_penalty": None, "estimate_disjoint": False, "sees_boards": False}

#: The knobs measured and deleted (docs/notes-opponents.md), each with the value at which it
#: played as the bot plays now: a run saved while they were knobs recorded them, and reads
#: as today's bot where each was at that value (``with_later_knobs``).
RETIRED_KNOBS = {"table_rounds": 4, "estimate_commitment": 0.0,
                 "estimate_useful_only": False, "estimate_own_in_order": False,
                 "estimate_table_points": False, "estimate_chase_within": 0,
                 "estimate_keep_per_round": False, "search_rejudge": False, "rollouts": 0,
                 "rollout_from": 3, "rollout_samples": 8, "nested_plays": 0,
                 "nested_deals": 6, "nested_samples": 12, "first_samples": None,
                 "first_refine_samples": None, "first_refine": None,
                 "first_own_in_order": False}


def with_later_knobs(recorded: dict) -> dict:
    """A bot's knobs as a saved run recorded them, each of ``LATER_KNOBS`` it lacks (added
    since it was saved) at the default that plays as before, and each of ``RETIRED_KNOBS``
    at the value that played as today left out: so a knob added or deleted since does not
    make the runs saved before unreadable. A retired knob at another value stays, and the
    run is another bot's."""
    kept = {name: value for name, value in recorded.items()
            if name not in RETIRED_KNOBS or value != RETIRED_KNOBS[name]}
    return {name: value for name, value in LATER_KNOBS.items() if name not in kept} | kept


def explicit(params: BotParams) -> BotParams:
    """``params`` with the stronger bot's ``table_refine`` and ``estimate_foul_penalty`` set
    to what it plays (``rescored``, ``estimate_foul_cost``): its None once meant 8 and 10,
    so what records a bot must not say None for it."""
    if not params.table_points:
        return params
    return replace(params, table_refine=params.rescored,
                   estimate_foul_penalty=params.estimate_foul_cost)


def params_meta(params: BotParams) -> dict:
    """The knobs as a pool's meta records them (``explicit``): the later ones only where they
    differ from the defaults that play as before, so a pool of the first bot keeps the meta
    it had."""
    return {name: value for name, value in explicit(params).__dict__.items()
            if name not in LATER_KNOBS or value != LATER_KNOBS[name]}


def _knob_value(name: str, kind: str, text: str) -> object:
    """``text`` read as the knob ``name`` of annotation ``kind`` ("int", "float | None")."""
    kinds = [part.strip() for part in kind.split("|")]
    if "None" in kinds and text.lower() == "none":
        return None
    base = next(part for part in kinds if part != "None")
    if base == "bool":
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
    else:
        try:
            return {"int": int, "float": float}[base](text)
        except ValueError:
            pass
    expected = {"bool": "true or false", "int": "a whole number",
                "float": "a number"}[base] + (" or none" if "None" in kinds else "")
    raise OpponentModelError(f"bot knob {name}={text!r}: expected {expected}")


#: Knobs that count samples: at least one of each (a count of placements or deals may be 0:
#: no second look, no search).
_COUNT_KNOBS = {"samples", "refine_samples", "search_samples"}


def with_knobs(params: BotParams, knobs: Sequence[str]) -> BotParams:
    """``params`` with each ``NAME=VALUE`` of ``knobs`` set (``--bot-knob``), for playing a
    candidate bot without a code change; a name that is no knob, or a value of the wrong
    kind, raises ``OpponentModelError`` naming it."""
    kinds = {knob.name: knob.type for knob in fields(BotParams)}
    changes = {}
    for knob in knobs:
        name, equals, text = knob.partition("=")
        name, text = name.strip(), text.strip()
        if not equals or not name or not text:
            raise OpponentModelError(f"bot knob {knob!r}: expected NAME=VALUE, for example "
                                     "estimate_foul_penalty=10")
        if name not in kinds:
            raise OpponentModelError(f"bot knob {name!r}: expected one of {', '.join(kinds)}")
        value = _knob_value(name, str(kinds[name]), text)
        least = 1 if name in _COUNT_KNOBS else 0
        if value is not None and not isinstance(value, bool) and value < least:
            raise OpponentModelError(f"bot knob {name}={text!r}: expected at least {least}")
        changes[name] = value
    return replace(params, **changes)


def knobs_text(base: BotParams, params: BotParams) -> str:
    """The knobs ``params`` sets apart from ``base``, as ``--bot-knob`` spells them
    ("estimate_foul_penalty=10.0"), or "" where there are none."""
    return ", ".join(f"{name}={value}" for name, value in params.__dict__.items()
                     if value != getattr(base, name))
