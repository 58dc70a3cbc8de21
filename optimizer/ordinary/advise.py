"""``advise``: every play of the cards just dealt in an ordinary hand, best first, with its worth.

A play is worth what the board it leads to is worth when the hand is finished
(``optimizer.ordinary.worth``). On the last street every play finishes the board, so each is
valued exactly, with nothing sampled. Earlier, the rest of the hand is rolled out from each
play (``optimizer.ordinary.rollouts``) in batches of ``BATCH``, every play dealt the same
futures. After ``MIN_ROLLOUTS``, a play falls out of the race once the best play is ahead of
it by ``Z`` standard errors of their difference (measured over the rollouts they share); the
race ends when no play is left within that of the best, or when the best has had
``budget`` rollouts. The plays still within ``Z`` standard errors at the end are "close".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from evaluator.board import Board
from evaluator.cards import Card
from evaluator.rules import EntryValue, Rules
from optimizer.ordinary.plays import Play, board_text, legal_plays
from optimizer.ordinary.position import Position, PositionError, read_position
from optimizer.ordinary.rollouts import Rollouts, roll_out
from optimizer.ordinary.worth import Valuation
from optimizer.solver.objective import ObjectiveError, opponent_model
from optimizer.solver.table import PLAIN, Table, TableSpec, draw_table, read_table

OBJECTIVES = ("ev", "royalties")
#: The most rollouts a play gets, by default.
DEFAULT_BUDGET = 96
#: Rollouts of every play still in the race, between two looks at the race.
BATCH = 16
#: Rollouts before any play can fall out of the race.
MIN_ROLLOUTS = 32
#: Standard errors of the difference by which the best play must lead.
Z = 2.0
#: Opponent boards the ev objective scores finished boards against, by default: the
#: solver's (scoring them costs little: they are scored as their distinct boards).
DEFAULT_SAMPLES = 2000
#: Plays the race takes at most: where a street has more (the first street's up to 232),
#: the bot's first look over ``SCREEN_SAMPLES`` futures picks these many to roll out.
SCREEN = 12
SCREEN_SAMPLES = 256


@dataclass(frozen=True)
class PlayValue:
    """A play and what it is worth: the mean over its rollouts (exact on the last street),
    the standard error of that mean, the chances that the hand fouls and that it enters
    Fantasyland with each number of cards, and how it stands against the best play."""

    play: Play
    value: float
    standard_error: float
    foul_chance: float
    entry_chances: dict[int, float]
    rollouts: int
    behind: float  # the best play's value less this one's, over the rollouts they share
    behind_error: float  # the standard error of ``behind``
    close: bool  # within ``Z`` standard errors of the best (never the best itself)
    # Left out of the race by the screen (``SCREEN``): no rollouts, and ``value`` and the
    # chances are None; ``screen`` is the bot's first-look score that left it out.
    screened: bool = False
    screen: float | None = None


@dataclass(frozen=True)
class Advice:
    """Every play of a position, best first (``plays``), and how they were valued."""

    position: Position
    objective: str
    table: Table
    entries: tuple[EntryValue, ...]  # the worth of each entry size used, from one opponent
    plays: tuple[PlayValue, ...]
    exact: bool  # the last street: valued exactly
    samples: int  # opponent boards scored against (0 under royalties, or exact boards)
    seed: int
    budget: int
    rollouts: int  # rollouts of all plays together

    @property
    def best(self) -> PlayValue:
        return self.plays[0]

    @property
    def settled(self) -> bool:
        """No play is within noise of the best."""
        return not any(p.close for p in self.plays)


def entry_values(rules: Rules, objective: str,
                 overrides: Mapping[int, float] | None = None) -> tuple[EntryValue, ...]:
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
                 else rules.entry_value(n, ev=objective == "ev") for n in sizes)


def valuation_for(position: Position, objective: str, table: Table, samples: int, seed: int,
                  entries: tuple[EntryValue, ...]) -> tuple[Valuation, int]:
    """The valuation of finished boards for ``position`` and how many opponent boards it
    scores against: under ev, a sample of the table drawn once, avoiding every card the
    player has seen."""
    if objective == "royalties":
        return Valuation(position.rules, objective, table.opponents, entries), 0
    from optimizer.solver.ev import OpponentField
    from optimizer.solver.solve import fantasyland_set

    seen = position.board.cards + position.cards
    own_dead = tuple(c for c in position.dead if c not in table.known_cards)
    with opponent_model():
        drawn = draw_table(position.rules, seen + own_dead, table, samples, seed,
                           fantasyland_set)
    field = OpponentField.from_boards(drawn.boards, position.rules, drawn.groups, table.exact,
                                      drawn.share)
    return Valuation(position.rules, objective, table.opponents, entries, field), \
        drawn.boards.shape[0]


def read_advice_position(rules: Rules, board: str | Board, cards: str | Sequence[Card],
                         spec: TableSpec = PLAIN, discards: str | Sequence[Card] = ()
                         ) -> tuple[Position, Table]:
    """The position and the table, checked together: ``spec.dead`` and the visible boards
    are out of the deck, as are the player's own earlier ``discards``."""
    position = read_position(rules, board, cards, discards)
    try:
        table = read_table(rules, position.board.cards + position.cards + position.dead, spec)
    except ObjectiveError as error:
        raise PositionError(str(error)) from None
    return replace(position, dead=position.dead + table.known_cards), table


def advise(rules: Rules, board: str | Board, cards: str | Sequence[Card],
           objective: str = "ev", table: TableSpec = PLAIN, discards: str | Sequence[Card] = (),
           samples: int = DEFAULT_SAMPLES, seed: int = 0, budget: int = DEFAULT_BUDGET,
           workers: int = 1, entry_overrides: Mapping[int, float] | None = None,
           progress: Callable[[int, int], None] | None = None) -> Advice:
    """Every play of ``cards`` dealt onto ``board``, best first (module docstring).
    ``progress(done, most)`` is told the rollouts made as they are made. Raises
    ``PositionError`` (bad input) or ``ObjectiveError`` (no opponent model)."""
    if objective not in OBJECTIVES:
        raise PositionError(f"bad objective {objective!r}: expected ev or royalties")
    for name, number, low in (("samples", samples, 1), ("budget", budget, MIN_ROLLOUTS),
                              ("seed", seed, 0), ("workers", workers, 1)):
        if isinstance(number, bool) or not isinstance(number, int) or number < low:
            raise PositionError(f"bad {name} {number!r}: expected a whole number >= {low}")
    position, seated = read_advice_position(rules, board, cards, table, discards)
    entries = entry_values(rules, objective, entry_overrides)
    valuation, drawn = valuation_for(position, objective, seated, samples, seed, entries)
    plays = legal_plays(position)
    if position.last_street:
        return _exact(position, objective, seated, entries, plays, valuation, drawn, seed,
                      budget)
    raced, left_out = _screen(position, plays, seed)
    race = _race(position, valuation, raced, seed, budget, workers, progress) + left_out
    return Advice(position, objective, seated, entries, race, False, drawn, seed, budget,
                  sum(p.rollouts for p in race))


def _exact(position, objective, table, entries, plays, valuation, drawn, seed, budget
           ) -> Advice:
    out = valuation(np.stack([p.layout for p in plays]))
    order = sorted(range(len(plays)), key=lambda i: (-out.value[i], i))
    best = out.value[order[0]]
    valued = tuple(PlayValue(
        plays[i], float(out.value[i]), 0.0, float(out.fouled[i]),
        {e.cards: float(out.entry_cards[i] == e.cards) for e in entries}, 0,
        float(best - out.value[i]), 0.0, False) for i in order)
    return Advice(position, objective, table, entries, valued, True, drawn, seed, budget, 0)


def _screen(position: Position, plays: list[Play], seed: int
            ) -> tuple[list[Play], tuple[PlayValue, ...]]:
    """The plays the race takes, and those the screen leaves out, best (by the screen)
    first."""
    if len(plays) <= SCREEN:
        return plays, ()
    from optimizer.opponents.bot import first_look
    from optimizer.opponents.pools import table_odds
    from optimizer.ordinary.rollouts import policy, unseen_cards

    score = first_look(position.rules, np.stack([p.layout for p in plays]),
                       unseen_cards(position), position.dealing, position.rounds_left,
                       policy(position), np.random.default_rng([seed, 1 << 20]),
                       SCREEN_SAMPLES, table_odds(position.rules))
    order = sorted(range(len(plays)), key=lambda i: (-score[i], i))
    raced = sorted(order[:SCREEN])  # the race's order: the plays' own
    left_out = tuple(PlayValue(plays[i], None, None, None, None, 0, None, None, False, True,
                               float(score[i])) for i in order[SCREEN:])
    return [plays[i] for i in raced], left_out


# --- the race of rollouts --------------------------------------------------------------------

_WORKER: dict = {}


def _start_worker(position: Position, valuation: Valuation, layouts: np.ndarray,
                  seed: int) -> None:
    _WORKER.update(position=position, valuation=valuation, layouts=layouts, seed=seed)


def _work(job: tuple[np.ndarray, np.ndarray]) -> Rollouts:
    plays, indices = job
    w = _WORKER
    return roll_out(w["position"], w["valuation"], w["layouts"][plays], indices, w["seed"])


def _race(position: Position, valuation: Valuation, plays: list[Play], seed: int, budget: int,
          workers: int, progress: Callable[[int, int], None] | None) -> tuple[PlayValue, ...]:
    layouts = np.stack([p.layout for p in plays])
    count = len(plays)
    value = [[] for _ in range(count)]
    fouled = [[] for _ in range(count)]
    entry = [[] for _ in range(count)]
    active = np.arange(count)
    done, most = 0, count * budget
    pool = ProcessPoolExecutor(workers, initializer=_start_worker,
                               initargs=(position, valuation, layouts, seed)) \
        if workers > 1 else None
    if pool is None:
        _start_worker(position, valuation, layouts, seed)
    try:
        rounds = 0
        while True:
            indices = np.arange(rounds * BATCH, (rounds + 1) * BATCH)
            rounds += 1
            parts = np.array_split(indices, workers) if pool else [indices]
            jobs = [(active, part) for part in parts if len(part)]
            results = list(pool.map(_work, jobs)) if pool else [_work(j) for j in jobs]
            for result in results:
                for row, play in enumerate(active.tolist()):
                    value[play].extend(result.value[row].tolist())
                    fouled[play].extend(result.fouled[row].tolist())
                    entry[play].extend(result.entry_cards[row].tolist())
            done += len(active) * len(indices)
            most = done + len(active) * max(budget - rounds * BATCH, 0)
            if progress is not None:
                progress(done, most)
            standing = _standing(value, active)
            if rounds * BATCH >= MIN_ROLLOUTS:
                active = np.array([p for p, (behind, error) in zip(active.tolist(), standing)
                                   if not behind > Z * error], dtype=np.int64)
            undecided = [1 for behind, error in _standing(value, active)
                         if not (behind == 0 and error == 0) and not behind > Z * error]
            if rounds * BATCH >= budget or len(undecided) <= 1:
                break
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return _ranked(plays, value, fouled, entry, position)


def _standing(value: list[list[float]], active: np.ndarray) -> list[tuple[float, float]]:
    """For each of ``active``: how far behind the best of them it is, and the standard error
    of that, over the rollouts the two share (the best itself: 0, 0... and counted as
    undecided only through the others)."""
    means = [np.mean(value[p]) for p in active.tolist()]
    best = active[int(np.argmax(means))]
    out = []
    for play in active.tolist():
        if play == best:
            out.append((0.0, np.inf))  # never falls out, and never decides the race alone
            continue
        out.append(_gap(value[best], value[play]))
    return out


def _gap(best: list[float], other: list[float]) -> tuple[float, float]:
    n = min(len(best), len(other))
    difference = np.asarray(best[:n]) - np.asarray(other[:n])
    error = float(difference.std(ddof=1) / np.sqrt(n)) if n > 1 else np.inf
    return float(difference.mean()), error


def _ranked(plays: list[Play], value, fouled, entry, position: Position
            ) -> tuple[PlayValue, ...]:
    means = np.array([np.mean(v) for v in value])
    order = sorted(range(len(plays)), key=lambda i: (-means[i], i))
    best = order[0]
    sizes = position.rules.entry_sizes
    out = []
    for i in order:
        n = len(value[i])
        behind, error = (0.0, 0.0) if i == best else _gap(value[best], value[i])
        cards = np.asarray(entry[i])
        out.append(PlayValue(
            plays[i], float(means[i]),
            float(np.std(value[i], ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
            float(np.mean(fouled[i])), {s: float(np.mean(cards == s)) for s in sizes}, n,
            behind, error, i != best and not behind > Z * error))
    return tuple(out)


# --- as plain data ---------------------------------------------------------------------------

def entry_names(rules: Rules) -> dict[int, str]:
    """Each entry size's requirement in words: ``{14: "QQ+ top", 15: "KK+ top", ...}``."""
    names: dict[int, list[str]] = {}
    for rung in rules.entry:
        names.setdefault(rung.cards, []).append(" and ".join(f"{req.spec}+ {req.row}"
                                                             for req in rung.requires))
    return {cards: " or ".join(found) for cards, found in names.items()}


def advice_record(advice: Advice) -> dict:
    """``advise --json`` (docs/json.md, cli/schemas/advise.schema.json)."""
    names = entry_names(advice.position.rules)
    scale = advice.table.opponents if advice.objective == "ev" else 1
    return {
        "variant": advice.position.rules.name, "objective": advice.objective,
        "position": advice.position.record(), "table": advice.table.record(),
        "exact": advice.exact, "samples": advice.samples, "seed": advice.seed,
        "budget": advice.budget, "rollouts": advice.rollouts, "settled": advice.settled,
        "entry_values": [{"cards": e.cards, "entry": names.get(e.cards, ""),
                          "value": e.value, "at_table": e.value * scale, "source": e.source}
                         for e in advice.entries],
        "plays": [dict(p.play.record(), value=p.value, standard_error=p.standard_error,
                       foul_chance=p.foul_chance,
                       entry_chances=None if p.entry_chances is None else {
                           str(k): v for k, v in p.entry_chances.items()},
                       rollouts=p.rollouts, behind=p.behind, behind_error=p.behind_error,
                       close=p.close, screened=p.screened, screen=p.screen,
                       board=board_text(p.play.layout))
                  for p in advice.plays],
    }
