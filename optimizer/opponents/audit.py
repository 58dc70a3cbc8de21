"""How far a bot's decisions are from the best its own play can make of them.

At one decision of each hand (1: the first cards; the last is exact and not audited), the
bot plays the hand up to it as it plays in a head-to-head, from seat A of the deal with
that seat's generator, so the choice audited is the one it made there. The first look's
best ``placements`` of that decision are then each played on by the bot itself over
``continuations`` futures: shuffles of the cards it has not seen, the same futures and the
same generator for every placement (common random numbers), so that the differences
between placements are measured on the same luck. The bot plays alone: it sees no other
board.

``headroom`` reads the result. One continuation is noisy (a hand's points vary by some
ten), so the placement that scores best over a few is often lucky, not better: choosing by
raw means overrates the gain. It therefore shrinks each placement's difference from the
bot's choice towards the mean difference, by how much of the differences' spread is more
than noise (an empirical-Bayes normal model), reports the gain of choosing by the shrunken
differences, and checks it held out: choosing on half the continuations and valuing the
choice on the other half, both ways. The held-out figure is what such a choice earns, and
understates what a perfect one would (it chooses on half the data); the shrunken one is the
model's estimate of the best placement's lead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.bot import (deck_counts, finished_worth, pick, play_on,
                                                 remaining, score)
from fantasyland.optimizer.opponents.head_to_head import PLAY, deal_seats
from fantasyland.optimizer.opponents.layout import EMPTY
from fantasyland.optimizer.opponents.params import BotParams, Dealing
from fantasyland.optimizer.opponents.pools import table_odds
from fantasyland.optimizer.opponents.resolve import evaluate_played

#: The generators of an audit's futures, ``(seed, deal, AUDIT, continuation)``: apart from
#: the seats' (0 and 1), so the futures are not the deal's own cards.
AUDIT = 2


@dataclass(frozen=True)
class DecisionAudit:
    """The continuations of one decision's placements: ``(hands, placements,
    continuations)`` arrays of what each finished board is worth to the bot, whether it
    fouled, whether it entered Fantasyland, and its royalties (a foul as 0); ``placed`` are
    the placements ``(hands, placements, 13)``, the first look's best first (the bot's
    choice last where the first look did not rank it among them), and ``choice`` is the
    bot's own, an index into them."""

    decision: int
    placed: np.ndarray
    worth: np.ndarray
    fouled: np.ndarray
    entered: np.ndarray
    royalty: np.ndarray
    choice: np.ndarray
    skipped: int  # hands with fewer placements than asked, left out

    @property
    def hands(self) -> int:
        return len(self.choice)


def decisions(dealing: Dealing) -> int:
    """How many decisions of a hand can be audited: all but the last, which is exact."""
    return dealing.rounds


def audit_decision(rules: Rules, dealing: Dealing, params: BotParams, decision: int,
                   deals: int, seed: int, *, first: int = 0, placements: int = 6,
                   continuations: int = 16,
                   progress: Callable[[int], None] | None = None) -> DecisionAudit:
    """Audit ``decision`` (1 to ``decisions(dealing)``) of seat A's hand of deals
    ``first..first + deals - 1`` of ``seed`` (see the module docstring)."""
    if not 1 <= decision <= decisions(dealing):
        raise ValueError(f"decision {decision}: expected 1 to {decisions(dealing)}")
    odds = table_odds(rules) if params.table_points else None
    streets = dealing.streets
    rounds_left = len(streets) - decision
    count, keep = streets[decision - 1]
    full = deck_counts(rules.deck)
    before = sum(size for size, _ in streets[:decision - 1])  # cards dealt before it
    rows: dict[str, list[np.ndarray]] = {name: [] for name in
                                         ("placed", "worth", "fouled", "entered", "royalty")}
    choices, skipped = [], 0
    for i in range(first, first + deals):
        cards = deal_seats(rules, dealing, seed, i)[0].tolist()
        rng = np.random.default_rng([seed, i, 0, PLAY])  # seat A's, as in a head-to-head
        left = full.copy()
        layout = play_on(rules, dealing, np.full(13, EMPTY, dtype=np.int64), left,
                         cards[:before], range(decision - 1), params, rng, odds=odds)
        new = cards[before:before + count]
        np.subtract.at(left, new, 1)
        options, first_look, worth = score(rules, dealing, layout, new, keep, remaining(left),
                                           rounds_left, params, rng, odds=odds)
        if len(options) < placements:
            skipped += 1
        else:
            chosen = pick(options, worth, rng)  # the bot's own choice, as choose makes it
            compared = options[np.argsort(-first_look, kind="stable")[:placements]]
            at = np.flatnonzero((compared == chosen).all(axis=1))
            if len(at) == 0:  # the first look did not rank the choice among them: it goes last
                compared[-1] = chosen
            choices.append(int(at[0]) if len(at) else placements - 1)
            outcome = _continuations(rules, dealing, params, odds, compared, left,
                                     range(decision, len(streets)), continuations, (seed, i))
            for name, value in zip(rows, (compared, *outcome)):
                rows[name].append(value)
        if progress is not None:
            progress(1)
    shapes = {name: (0, placements, 13 if name == "placed" else continuations) for name in rows}
    arrays = {name: np.array(v) if v else np.zeros(shapes[name]) for name, v in rows.items()}
    return DecisionAudit(decision, arrays["placed"].astype(np.int64), arrays["worth"],
                         arrays["fouled"].astype(bool), arrays["entered"].astype(bool),
                         arrays["royalty"],
                         np.array(choices, dtype=np.int64), skipped)


def _continuations(rules: Rules, dealing: Dealing, params: BotParams, odds, layouts: np.ndarray,
                   left: np.ndarray, later: range, continuations: int,
                   key: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """``(K, M)`` worth, fouled, entered and royalty of each of ``layouts`` played on by the
    bot through the ``later`` decisions over ``continuations`` futures (shuffles of the
    cards ``left`` counts), the placements sharing each future and generator."""
    count = len(layouts)
    boards = np.zeros((count, continuations, 13), dtype=np.int64)
    for m in range(continuations):
        stream = np.random.default_rng([*key, AUDIT, m]).permutation(remaining(left)).tolist()
        for k in range(count):
            boards[k, m] = play_on(rules, dealing, layouts[k], left.copy(), stream, later,
                                   params, np.random.default_rng([*key, AUDIT, m, 1]), odds=odds)
    out = evaluate_played(boards.reshape(-1, 13), rules)
    fouled = out.fouled.reshape(count, continuations)
    entered = (out.entry_cards > 0).reshape(count, continuations) & ~fouled
    royalty = np.where(fouled, 0, out.royalty_total.reshape(count, continuations))
    return finished_worth(rules, dealing, params, boards, odds=odds), fouled, entered, royalty


@dataclass(frozen=True)
class Headroom:
    """What choosing among the audited placements by their continuations would gain over
    the bot's own choice (see the module docstring): the differences of the other
    placements from the bot's choice (their mean, the spread of their true values once the
    noise is taken out, and the noise of one), the share of hands whose shrunken best is
    not the bot's choice and that best's estimated lead, the best raw mean's lead (an upper
    bound: the noise of the means is in it), and the held-out gain of choosing by the
    shrunken differences, in points and in fouls, entries and royalties (each the choice's
    less the bot's, with its standard error over hands)."""

    hands: int
    mean_difference: float
    spread: float
    noise: float
    changed: float
    lead: float
    raw_lead: float
    held_out: dict[str, tuple[float, float]]


def _shrunk(differences: np.ndarray, noise: np.ndarray, others: np.ndarray
            ) -> tuple[np.ndarray, float, float]:
    """The differences shrunk towards their mean by the share of their spread that is more
    than noise (0 on the bot's choice), the mean, and the true spread's variance."""
    mean = differences[others].mean()
    spread = max(((differences[others] - mean) ** 2).mean() - noise[others].mean(), 0.0)
    weight = spread / (spread + noise) if spread > 0 else np.zeros_like(noise)
    return np.where(others, mean + weight * (differences - mean), 0.0), mean, spread


def headroom(audit: DecisionAudit) -> Headroom:
    """The headroom of ``audit``'s decision (see ``Headroom``)."""
    hands, _, m = audit.worth.shape
    if hands == 0 or m < 4:
        raise ValueError("headroom needs at least one hand and four continuations")
    n = np.arange(hands)
    others = np.ones(audit.worth.shape[:2], dtype=bool)
    others[n, audit.choice] = False

    def paired(values: np.ndarray) -> np.ndarray:
        return values - values[n, audit.choice][:, None, :]

    gaps = paired(audit.worth)
    noise = gaps.var(axis=2, ddof=1) / m
    shrunk, mean, spread = _shrunk(gaps.mean(axis=2), noise, others)
    best = shrunk.argmax(axis=1)
    halves = (np.arange(0, m, 2), np.arange(1, m, 2))
    figures = {"points": gaps, "fouls": paired(audit.fouled.astype(float)),
               "entries": paired(audit.entered.astype(float)),
               "royalties": paired(audit.royalty)}
    gains = {name: np.zeros(hands) for name in figures}
    for chosen_on, valued_on in (halves, halves[::-1]):
        part = gaps[:, :, chosen_on]
        half_noise = part.var(axis=2, ddof=1) / len(chosen_on)
        pick = _shrunk(part.mean(axis=2), half_noise, others)[0].argmax(axis=1)
        for name, values in figures.items():
            gains[name] += values[:, :, valued_on].mean(axis=2)[n, pick] / 2
    se = (lambda v: float(v.std(ddof=1) / np.sqrt(hands))) if hands > 1 else (lambda v: 0.0)
    return Headroom(hands, float(mean), float(np.sqrt(spread)),
                    float(np.sqrt(noise[others].mean())), float((best != audit.choice).mean()),
                    float(shrunk[n, best].mean()), float(gaps.mean(axis=2).max(axis=1).mean()),
                    {name: (float(v.mean()), se(v)) for name, v in gains.items()})
