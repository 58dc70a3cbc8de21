"""``review``: a history of ordinary hands graded decision by decision, against ``advise``.

A history is JSON Lines, one street a line (``cli/schemas/history.schema.json``):

    {"hand": "h1", "board": "Kd / 7c 8c / 2h 2d", "cards": "Qs 9c 4s",
     "play": "Qs top, 9c middle"}

``board`` is the board before the street, ``cards`` the cards dealt, and ``play`` what was
done with them: as a player types it (``plays.read_play``: the card not named is thrown
away), or as ``advise --json`` prints a play, ``{"discard": "4s", "rows": {"Qs": "top",
...}}``. Optional keys: ``hand``, an id shared by the streets of one hand, whose earlier
discards are then dead for the later streets (a line without it stands alone); ``variant``,
which wins over the run's; the table, ``opponents``, ``against`` (boards seen),
``opponent_fantasyland`` (the cards of each opponent in Fantasyland) and ``dead`` (cards seen
elsewhere), as ``advise`` takes them; and ``seed``, the seed the
decision was advised with when it was played (``play --log`` writes it), which wins over the
run's, so that the street before the last and the last, which are exact, are graded against
the very opponents' sample the player was advised on.

Each line is graded by ``advise`` with the run's settings and seed, so a decision's numbers
are exactly those ``advise`` gives for its position: the played play's value, the best
play's, and the EV lost, the best's value less the played one's over the rollouts the two
share (``PlayValue.behind``), with its standard error (0 on the last street, which is
exact). On the first street only the plays the screen picks are rolled out, and the play
made besides (``advise``'s ``include``): where the screen picked it, the numbers are those of
``advise`` alone. Where a learned model of the game is shipped, ``advise`` grades
(``Effort.grading``): the model values every play, and the play made is raced against the
model's best only where the model cannot tell them apart; elsewhere its EV lost is the
model's best figure less its own (``Figure.MODEL``, no standard error).

Blank lines and lines starting with ``#`` are skipped; a line that cannot be read or graded
is kept as a ``BadLine`` with its number, and the rest are graded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from fantasyland.evaluator import InputError, find_rules
from fantasyland.evaluator.cards import format_cards
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.ordinary.advise import (Advice, PlayValue,
                                                   advise, advise_samples, check_settings,
                                                   read_advice_position)
from fantasyland.optimizer.ordinary.effort import DEFAULT_BUDGET, Effort
from fantasyland.optimizer.ordinary.plays import Play, read_play
from fantasyland.optimizer.ordinary.position import PositionError
from fantasyland.optimizer.ordinary.race import Figure
from fantasyland.optimizer.solver.table import DEFAULT_SAMPLE, PLAIN, Sample, TableSpec

#: The keys a history line may hold.
REQUIRED = ("board", "cards", "play")
OPTIONAL = ("hand", "variant", "opponents", "against", "opponent_fantasyland", "dead", "seed")


class HistoryError(InputError):
    """A history line that cannot be read: the message says what was expected."""


@dataclass(frozen=True)
class BadLine:
    """A line skipped: its number (1 for the first line), what is wrong, and its text."""

    line: int
    message: str
    text: str


@dataclass(frozen=True)
class Decision:
    """One street graded: the play made, the best play, and the EV lost between them.

    ``lost`` is the best play's value less the played one's over the rollouts the two share,
    with ``lost_error`` its standard error; where the learned model alone valued the play
    made, the model's figure of the best less the played one's, with no standard error
    (``source``); both are None for a play the first street's screen left out of the race
    (``screened``), which has no value to compare."""

    line: int
    hand: str | None
    advice: Advice
    played: PlayValue
    discards: tuple  # the player's own earlier discards in this hand, dead for this street

    @property
    def best(self) -> PlayValue:
        return self.advice.best

    @property
    def screened(self) -> bool:
        return self.played.screened

    @property
    def is_best(self) -> bool:
        return self.played.play.key == self.best.play.key

    @property
    def close(self) -> bool:
        """Within noise of the best (never the best itself)."""
        return self.played.close

    @property
    def source(self) -> Figure:
        """Where ``lost`` comes from: exact values, rollouts, the model, or nowhere."""
        return self.played.source

    @property
    def lost(self) -> float | None:
        if self.screened:
            return None
        if self.source == Figure.MODEL and self.best.model is not None \
                and self.played.model is not None:
            return max(self.best.model - self.played.model, 0.0)
        return self.played.behind

    @property
    def lost_error(self) -> float | None:
        return None if self.screened or self.source == Figure.MODEL else self.played.behind_error

    @property
    def street(self) -> int:
        return self.advice.position.street

    def record(self) -> dict:
        """The decision as plain data (``cli/schemas/review.schema.json``)."""
        position = self.advice.position
        return {
            "line": self.line, "hand": self.hand, "variant": position.rules.name,
            "street": position.street, "board": position.board.format(ascii=True),
            "cards": format_cards(position.cards, ascii=True),
            "discards": format_cards(self.discards, ascii=True),
            "exact": self.advice.exact,
            "played": _play_record(self.played), "best": _play_record(self.best),
            "is_best": self.is_best, "close": self.close, "screened": self.screened,
            "ev_lost": self.lost, "ev_lost_error": self.lost_error, "source": self.source,
            "plays": len(self.advice.plays), "rollouts": self.advice.rollouts,
        }


def _play_record(value: PlayValue) -> dict:
    return {**value.play.record(), "describe": value.play.describe(), "value": value.value,
            "standard_error": value.standard_error, "foul_chance": value.foul_chance,
            "rollouts": value.rollouts, "source": value.source, "model": value.model}


@dataclass(frozen=True)
class Review:
    """Every decision graded, in the order of the lines, and the lines skipped."""

    decisions: tuple[Decision, ...]
    bad_lines: tuple[BadLine, ...]
    objective: str
    seed: int
    budget: int
    samples: int
    graded: tuple[Decision, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "graded", tuple(d for d in self.decisions if not d.screened))

    @property
    def total_lost(self) -> float:
        """The EV lost over the decisions with a value (not screened out)."""
        return float(sum(d.lost for d in self.graded if d.lost is not None))

    @property
    def total_error(self) -> float:
        """The standard error of ``total_lost``: the decisions' errors added in quadrature
        (the streets are valued on their own, so their errors are independent)."""
        return math.sqrt(sum(d.lost_error ** 2 for d in self.graded if d.lost_error is not None))

    @property
    def worst(self) -> Decision | None:
        """The decision that lost the most (the first of equals); None if none has a value."""
        return max(self.graded, key=lambda d: -math.inf if d.lost is None else d.lost,
                   default=None)

    def record(self) -> dict:
        """The review as plain data (``cli/schemas/review.schema.json``)."""
        worst = self.worst
        return {
            "objective": self.objective, "seed": self.seed, "budget": self.budget,
            "samples": self.samples,
            "decisions": [d.record() for d in self.decisions],
            "summary": {
                "decisions": len(self.decisions), "graded": len(self.graded),
                "screened": len(self.decisions) - len(self.graded),
                "best_played": sum(d.is_best for d in self.decisions),
                "ev_lost": self.total_lost, "ev_lost_error": self.total_error,
                "worst_line": None if worst is None else worst.line,
                "bad_lines": len(self.bad_lines),
            },
            "bad_lines": [{"line": b.line, "message": b.message, "text": b.text}
                          for b in self.bad_lines],
        }


@dataclass(frozen=True)
class HistoryLine:
    """A history line read, not yet graded."""

    line: int
    board: str
    cards: str
    play: str | dict
    hand: str | None = None
    variant: str | None = None
    table: TableSpec = PLAIN
    seed: int | None = None  # the seed it was advised with when played (wins over the run's)


def read_line(number: int, text: str) -> HistoryLine:
    """One history line (the module docstring). Raises ``HistoryError``."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise HistoryError(f"not a JSON object: {error}") from None
    except RecursionError:  # json's decoder recurses once a level: [[[[... runs out of stack
        raise HistoryError("not a JSON object: arrays or objects nested too deeply") from None
    if not isinstance(data, dict):
        raise HistoryError(f"expected a JSON object with {', '.join(REQUIRED)}; got "
                           f"{type(data).__name__}")
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise HistoryError(f"unknown key {unknown[0]!r}: expected "
                           f"{', '.join(REQUIRED + OPTIONAL)}")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise HistoryError(f"missing key {missing[0]!r}: a line needs board, cards and play")
    board = _text(data, "board", cards=False)
    cards = _text(data, "cards")
    play = data["play"]
    if not isinstance(play, (str, dict)):
        raise HistoryError("bad play: expected text ('Kd top, Qs bottom') or an object "
                           '{"discard": ..., "rows": {...}}')
    hand = data.get("hand")
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, (str, int))):
        raise HistoryError(f"bad hand {hand!r}: expected an id, text or a whole number")
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise HistoryError(f"bad variant {variant!r}: expected a preset name or a rules file")
    opponents = data.get("opponents")
    if opponents is not None and (isinstance(opponents, bool) or not isinstance(opponents, int)):
        raise HistoryError(f"bad opponents {opponents!r}: expected a whole number")
    against = data.get("against", [])
    if not isinstance(against, list) or not all(isinstance(b, str) for b in against):
        raise HistoryError("bad against: expected a list of boards, 'TOP / MIDDLE / BOTTOM'")
    in_fantasyland = data.get("opponent_fantasyland", [])
    if not isinstance(in_fantasyland, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in in_fantasyland):
        raise HistoryError("bad opponent_fantasyland: expected a list of card counts, such as "
                           "[14]")
    dead = _text(data, "dead") if "dead" in data else ""
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise HistoryError(f"bad seed {seed!r}: expected a whole number >= 0")
    return HistoryLine(number, board, cards, play, None if hand is None else str(hand),
                       variant, TableSpec(opponents, tuple(against), tuple(in_fantasyland),
                                          dead), seed)


def _text(data: Mapping, key: str, cards: bool = True) -> str:
    value = data[key]
    if cards and isinstance(value, list) and all(isinstance(c, str) for c in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise HistoryError(f"bad {key} {value!r}: expected "
                           + ("cards, 'Kd Qs 3h' or a list of them" if cards
                              else "a board, 'TOP / MIDDLE / BOTTOM'"))
    return value


def play_text(play: str | dict) -> str:
    """A play as ``read_play`` reads it: text as it is, an object (``Play.record``) as
    ``"Kd top, Qs bottom, 3h discard"``."""
    if isinstance(play, str):
        return play
    unknown = sorted(set(play) - {"discard", "rows"})
    rows = play.get("rows")
    if unknown or not isinstance(rows, dict):
        raise HistoryError('bad play: expected {"discard": card or null, "rows": {card: row}}'
                           + (f"; unknown key {unknown[0]!r}" if unknown else ""))
    parts = []
    for card, row in rows.items():
        for one in row if isinstance(row, list) else [row]:
            if not isinstance(one, str):
                raise HistoryError(f"bad play: the row of {card!r} is {one!r}; expected top, "
                                   "middle or bottom")
            parts.append(f"{card} {one}")
    discard = play.get("discard")
    if discard is not None:
        if not isinstance(discard, str):
            raise HistoryError(f"bad play: the discard {discard!r} is not a card")
        parts.append(f"{discard} discard")
    return ", ".join(parts)


def played_value(advice: Advice, play: Play) -> PlayValue:
    """The advice's entry for ``play``."""
    return next(p for p in advice.plays if p.play.key == play.key)


def review(lines: Iterable[str], *, variant: str | Rules = "progressive", objective: str = "ev",
           sample: Sample = DEFAULT_SAMPLE, budget: int = DEFAULT_BUDGET, workers: int = 1,
           entry_overrides: Mapping[int, float] | None = None,
           progress: Callable[[int, Decision | BadLine], None] | None = None) -> Review:
    """Grade every line of ``lines`` (the module docstring) with ``advise``'s ``sample``
    (its samples and seed); ``variant`` and the sample's opponents are those of a line that
    names none, and a line's table is its own. ``progress(line, result)`` is told each
    line's result as it is made. A setting that cannot be (a bad objective, seed or budget,
    or a table with more than its opponents) raises ``PositionError`` before any line is
    read."""
    rules_by_name: dict[str, Rules] = {}
    default = variant if isinstance(variant, Rules) else None
    if default is None:
        default = find_rules(variant)
    samples, seed, opponents = advise_samples(sample), sample.seed, sample.table.opponents
    if sample.table.known:
        raise PositionError("a review's table is its opponents only: the boards seen and the "
                            "dead cards are each line's (against, dead)")
    check_settings(objective, samples, seed, budget, workers)
    decisions: list[Decision] = []
    bad: list[BadLine] = []
    thrown: dict[str, list] = {}  # each hand's discards so far
    result: Decision | BadLine
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            line = read_line(number, text)
            rules = default
            if line.variant is not None:
                if line.variant not in rules_by_name:
                    rules_by_name[line.variant] = find_rules(line.variant)
                rules = rules_by_name[line.variant]
            table = line.table if line.table.opponents is not None else TableSpec(
                opponents, line.table.against, line.table.opponent_fantasyland,
                line.table.dead)
            earlier = tuple(thrown.get(line.hand, ())) if line.hand is not None else ()
            position, _ = read_advice_position(rules, line.board, line.cards, spec=table,
                                               discards=earlier)
            play = read_play(position, play_text(line.play))
            advice = advise(rules, line.board, line.cards, objective=objective,
                            sample=Sample(table=table, samples=samples,
                                          seed=seed if line.seed is None else line.seed),
                            discards=earlier, entry_overrides=entry_overrides,
                            effort=Effort(budget=budget, workers=workers, include=(play,),
                                          grading=True))
        except InputError as error:  # refused input is a bad line; any other error, a bug
            result = BadLine(number, str(error), text)
            bad.append(result)
        else:
            result = Decision(number, line.hand, advice, played_value(advice, play), earlier)
            decisions.append(result)
            if line.hand is not None and play.discard is not None:
                thrown.setdefault(line.hand, []).append(play.discard)
        if progress is not None:
            progress(number, result)
    return Review(tuple(decisions), tuple(bad), objective, seed, budget, samples)
