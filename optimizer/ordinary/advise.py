"""``advise``: every play of the cards just dealt in an ordinary hand, best first, with its worth.

A play is worth what the board it leads to is worth when the hand is finished
(``optimizer.ordinary.worth``). On the last street every play finishes the board, so each is
valued exactly, with nothing sampled. On the street before it each play is valued exactly
too, over every deal of the last street (``optimizer.opponents.exact``), so that a rare foul
is never missed. Earlier, the rest of the hand is rolled out from each
play by a race (``optimizer.ordinary.race``): rollouts are added until the best play leads
every other by ``Z`` standard errors, or the budget runs out.

Where a learned value of the rules' game is shipped, every play is valued by the model first
and only the plays it cannot tell apart race, played out by the learned bot
(``optimizer.ordinary.model_advice``). Elsewhere (or with ``Effort.bot`` heuristic) the
heuristic bot plays the rollouts, and where a street has more than ``SCREEN`` plays (the
first street's up to 232), its first look picks the ones that race.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from fantasyland.evaluator.board import Board
from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import EntryValue, Rules
from fantasyland.optimizer.ordinary.bots import RolloutBot, rollout_bot
from fantasyland.optimizer.ordinary.effort import Effort
from fantasyland.optimizer.ordinary.plays import Play, legal_plays
from fantasyland.optimizer.ordinary.position import Position, PositionError, read_position
from fantasyland.optimizer.ordinary.race import MIN_ROLLOUTS, Figure, PlayValue, race
from fantasyland.optimizer.ordinary.worth import Valuation
from fantasyland.optimizer.solver.objective import (OBJECTIVES, ObjectiveError, ObjectiveName,
                                                    opponent_model)
from fantasyland.optimizer.solver.table import (DEFAULT_SAMPLE, PLAIN, Sample, Table, TableSpec,
                                                check_sample, draw_table, read_table)

#: Opponent boards the ev objective scores finished boards against, by default: the
#: solver's (scoring them costs little: they are scored as their distinct boards).
DEFAULT_SAMPLES = 2000
#: Plays the race takes at most: where a street has more (the first street's up to 232),
#: the bot's first look over ``SCREEN_SAMPLES`` futures picks these many to roll out.
SCREEN = 12
SCREEN_SAMPLES = 256


#: The default effort: ``DEFAULT_BUDGET`` rollouts a play, in this process.
DEFAULT_EFFORT = Effort()

@dataclass(frozen=True)
class Advice:
    """Every play of a position, best first (``plays``), and how they were valued."""

    position: Position
    objective: str
    table: Table
    entries: tuple[EntryValue, ...]  # the worth of each entry size used, from one opponent
    plays: tuple[PlayValue, ...]
    exact: bool  # the last street or the one before it: every play valued exactly
    samples: int  # opponent boards scored against (0 under royalties, exact boards, or
    # where the learned model alone valued every play)
    seed: int
    budget: int
    rollouts: int  # rollouts of all plays together
    deals: int = 0  # last deals each exact value is over (1 on the last street itself)
    bot: RolloutBot | None = None  # who played the rollouts (None: valued exactly)

    @property
    def best(self) -> PlayValue:
        return self.plays[0]

    @property
    def settled(self) -> bool:
        """No play is within noise of the best."""
        return not any(p.close for p in self.plays)


def entry_values(rules: Rules, objective: str,
                 *, overrides: Mapping[int, float] | None = None) -> tuple[EntryValue, ...]:
    """The worth of each entry size the rules deal (``Rules.entry_value``), with any of
    ``overrides`` (``--entry-value 15=20.5``) in place of the rules' figure."""
    overrides = dict(overrides or {})
    sizes = rules.entry_sizes
    for cards in overrides:
        if cards not in sizes:
            raise PositionError(f"bad entry value for {cards} cards: no entry deals {cards} "
                                f"under {rules.name}; expected one of "
                                + (", ".join(map(str, sizes)) or "none (no Fantasyland)"))
    return tuple(EntryValue(n, float(overrides[n]), "given") if n in overrides
                 else rules.entry_value(n, ev=objective == ObjectiveName.EV) for n in sizes)


def valuation_for(position: Position, objective: str, table: Table, samples: int, seed: int,
                  entries: tuple[EntryValue, ...]) -> tuple[Valuation, int]:
    """The valuation of finished boards for ``position`` and how many opponent boards it
    scores against: under ev, a sample of the table drawn once, avoiding every card the
    player has seen."""
    if objective == ObjectiveName.ROYALTIES:
        return Valuation(position.rules, objective, table.opponents, entries), 0
    from fantasyland.optimizer.solver.ev import OpponentField
    from fantasyland.optimizer.solver.solve import fantasyland_set

    seen = position.board.cards + position.cards
    own_dead = tuple(c for c in position.dead if c not in table.known_cards)
    with opponent_model():
        drawn = draw_table(position.rules, seen + own_dead, table, samples, seed,
                           set_fantasyland=fantasyland_set)
    field = OpponentField.from_boards(drawn.boards, position.rules, groups=drawn.groups,
                                      exact=table.exact, share=drawn.share)
    return Valuation(position.rules, objective, table.opponents, entries, field), \
        drawn.boards.shape[0]


def read_advice_position(rules: Rules, board: str | Board, cards: str | Sequence[Card],
                         *, spec: TableSpec = PLAIN, discards: str | Sequence[Card] = ()
                         ) -> tuple[Position, Table]:
    """The position and the table, checked together: ``spec.dead`` and the visible boards
    are out of the deck, as are the player's own earlier ``discards``."""
    position = read_position(rules, board, cards, discards=discards)
    try:
        table = read_table(rules, position.board.cards + position.cards + position.dead, spec=spec,
                           named=[("the board", position.board.cards),
                            ("the dealt cards", position.cards), ("your discards", position.dead)])
    except ObjectiveError as error:
        raise PositionError(str(error)) from None
    return replace(position, dead=position.dead + table.known_cards), table


def check_settings(objective: str, samples: int, seed: int, budget: int, workers: int) -> None:
    """Refuse an objective or a count ``advise`` cannot take, with a ``PositionError``."""
    if objective not in OBJECTIVES:
        raise PositionError(f"bad objective {objective!r}: expected ev or royalties")
    for name, number, low in (("samples", samples, 1), ("budget", budget, MIN_ROLLOUTS),
                              ("seed", seed, 0), ("workers", workers, 1)):
        if isinstance(number, bool) or not isinstance(number, int) or number < low:
            raise PositionError(f"bad {name} {number!r}: expected a whole number >= {low}")


def advise_samples(sample: Sample) -> int:
    """The opponent boards ``sample`` asks ``advise`` to score against: its ``samples``, or
    ``DEFAULT_SAMPLES``. Refuses, with a ``PositionError``, a fixed sample of ``boards``, which
    only ``solve`` takes."""
    try:
        check_sample(sample)
    except ObjectiveError as error:
        raise PositionError(str(error)) from None
    if sample.boards is not None:
        raise PositionError("advise draws its own opponent boards from the table: give the "
                            "table and samples, not boards")
    return DEFAULT_SAMPLES if sample.samples is None else sample.samples


def advise(rules: Rules, board: str | Board, cards: str | Sequence[Card],
           *, objective: str = "ev", sample: Sample = DEFAULT_SAMPLE,
           discards: str | Sequence[Card] = (), entry_overrides: Mapping[int, float] | None = None,
           effort: Effort = DEFAULT_EFFORT) -> Advice:
    """Every play of ``cards`` dealt onto ``board``, best first (module docstring), against
    the ``sample``'s table (its ``samples`` default to ``DEFAULT_SAMPLES``), rolled out as
    ``effort`` says. Raises ``PositionError`` (bad input) or ``ObjectiveError`` (no
    opponent model)."""
    samples, seed = advise_samples(sample), sample.seed
    check_settings(objective, samples, seed, effort.budget, effort.workers)
    position, seated = read_advice_position(rules, board, cards, spec=sample.table,
                                            discards=discards)
    entries = entry_values(rules, objective, overrides=entry_overrides)
    drawn: list[tuple[Valuation, int]] = []

    def valuation() -> Valuation:
        """The valuation, its opponents' sample drawn the first time it is asked for: a
        decision the model alone grades needs none."""
        if not drawn:
            drawn.append(valuation_for(position, objective, seated, samples, seed, entries))
        return drawn[0][0]

    plays = legal_plays(position)
    if position.rounds_left <= 1:
        valued, deals = _exact(position, entries, plays, valuation())
        return Advice(position, objective, seated, entries, valued, True, drawn[0][1], seed,
                      effort.budget, 0, deals)
    bot = rollout_bot(rules, asked=effort.bot)
    if bot == RolloutBot.LEARNED:
        from fantasyland.optimizer.ordinary.model_advice import model_advice

        ranked = model_advice(position, objective, valuation, plays, seed, effort)
    else:
        raced, left_out = _screen(position, plays, seed, {p.key for p in effort.include})
        ranked = race(position, valuation(), raced, seed, effort.budget, effort.workers,
                      effort.progress) + left_out
    return Advice(position, objective, seated, entries, ranked, False,
                  drawn[0][1] if drawn else 0, seed, effort.budget,
                  sum(p.rollouts for p in ranked), bot=bot)


def _exact(position: Position, entries: tuple[EntryValue, ...], plays: list[Play],
           valuation: Valuation) -> tuple[tuple[PlayValue, ...], int]:
    """Every play valued exactly, best first, and the last deals each value is over: on the
    last street by the board it finishes (1), on the one before it over every last deal."""
    layouts = np.stack([p.layout for p in plays])
    if position.last_street:
        out = valuation(layouts)
        value, foul, deals = out.value, out.fouled.astype(float), 1
        chances = {e.cards: (out.entry_cards == e.cards).astype(float) for e in entries}
    else:
        from fantasyland.optimizer.opponents.exact import exact_worth
        from fantasyland.optimizer.ordinary.rollouts import unseen_cards

        worth = exact_worth(valuation, layouts, unseen_cards(position), position.dealing)
        value, foul, deals = worth.value, worth.foul_chance, worth.deals
        chances = {e.cards: worth.entry_chances.get(e.cards, np.zeros(len(plays)))
                   for e in entries}
    order = sorted(range(len(plays)), key=lambda i: (-value[i], i))
    best = value[order[0]]
    valued = tuple(PlayValue(
        plays[i], float(value[i]), 0.0, float(foul[i]),
        {cards: float(share[i]) for cards, share in chances.items()}, 0,
        float(best - value[i]), 0.0, False, source=Figure.EXACT) for i in order)
    return valued, deals


def _screen(position: Position, plays: list[Play], seed: int, keep: set[bytes]
            ) -> tuple[list[Play], tuple[PlayValue, ...]]:
    """The plays the race takes (the screen's best ``SCREEN``, and those of ``keep``), and
    those the screen leaves out, best (by the screen) first."""
    if len(plays) <= SCREEN:
        return plays, ()
    from fantasyland.optimizer.opponents.bot import first_look
    from fantasyland.optimizer.opponents.pools import table_odds
    from fantasyland.optimizer.ordinary.rollouts import policy, unseen_cards

    score = first_look(position.rules, np.stack([p.layout for p in plays]),
                       unseen_cards(position), position.dealing, position.rounds_left,
                       policy(position), np.random.default_rng([seed, 1 << 20]),
                       SCREEN_SAMPLES, odds=table_odds(position.rules))
    order = sorted(range(len(plays)), key=lambda i: (-score[i], i))
    chosen = set(order[:SCREEN]) | {i for i, p in enumerate(plays) if p.key in keep}
    raced = sorted(chosen)  # the race's order: the plays' own
    left_out = tuple(PlayValue(plays[i], None, None, None, None, 0, None, None, False, True,
                               float(score[i]), source=Figure.SCREENED)
                     for i in order if i not in chosen)
    return [plays[i] for i in raced], left_out
