"""The heuristic opponent: plays one ordinary (non-Fantasyland) hand of a variant.

Each decision lists every legal way to place the new cards (which card to throw away, and
which row takes each kept card) and plays the one worth most, ties broken by the seeded
generator. A finished board is worth its royalties plus ``fl_bonus`` when it enters
Fantasyland, or ``-foul_penalty`` when it fouls. The stronger bot (``table_points``) values
it instead in the points it wins at the table: its royalties, its rows' and scoop's odds
against the table's boards (``optimizer.opponents.odds``, given as ``odds``), and each
Fantasyland entry at its worth by size (``entry_worths``); a foul still costs
``foul_penalty``. The estimate of earlier rounds is the same for both; what it charges a
foul is a knob of its own (``BotParams.estimate_foul_cost``, ``foul_penalty`` unless given),
since the estimate keeps the best of its completions and so sees fouls too seldom.

Every decision but the last takes two looks. The first scores every placement:

* One round from the end: over ``samples`` random deals of the last round, each played in
  its best way (an exact one-round look-ahead).
* Earlier: over ``samples`` random futures, by the estimate of ``optimizer.opponents.estimate``
  (each row completed from the future cards that help it, keeping its best and its worst
  completion; the future is worth the best legal board among those choices).

The second look rescores the ``refine`` placements the first look likes best, and the
decision goes to the best of them:

* One round from the end: over ``refine_samples`` more deals of the last round, exactly.
* From two to ``search_from`` rounds from the end: by a one-ply search. Each of
  ``search_deals`` deals of the next round (shared by the placements) is played in its
  best way as a first look with ``search_samples`` samples judges it, and the placement is
  worth the mean of those best plays. This is what a player does: decide now, knowing that
  the next decision will be made with the next cards in view.
* Earlier (the first five cards): over ``refine_samples`` more futures. A search from
  there was measured: it cost a third more time and added fouls but no royalties.

Other second looks were measured and deleted (a two-ply search, rollouts of the bot's own
play, each searched play valued again, a wider look at the first five cards):
docs/notes-opponents.md.

The stronger bot can rescore more placements (``BotParams.rescored``, the knob
``table_refine``), since the first look's best four often leave out the safe play. It
rescores 4 by default: measured (docs/notes-opponents.md), 8 with a foul at 10 in the
estimate won 0.6 points a game more on the 300 deals it was chosen on, but on 1,050 fresh
deals it fouled a little less, entered Fantasyland less, was not measurably stronger
(-0.13 +- 0.13 a game) and took about 1.4 times as long. Its estimate charges a foul 10
(``estimate_foul_penalty``): that alone won 0.29 +- 0.07 a game on 2,000 fresh deals. In
Pineapple its first look takes 96 samples, not 48: that won 0.46 +- 0.16 a game on 1,000
fresh deals, for 9% more CPU a hand.

The bot knows its own cards and, if it sees the table (``sees_boards``, ``play_in_turn``),
the cards face up on the other boards; it never guesses at what the others hold. It
reads the variant only through ``Rules`` (royalty, foul, qualify and entry tables), so one
bot serves every rule set, 2-7 included (on a 2-7 row a useful card is a low one that pairs
nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from fantasyland.evaluator.cards import JOKER, Card, Deck
from fantasyland.evaluator.rules import ROWS, Rules
from fantasyland.optimizer.opponents.estimate import estimate
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, placements
from fantasyland.optimizer.opponents.memo import by_identity
from fantasyland.optimizer.opponents.odds import RowOdds, even_odds
from fantasyland.optimizer.opponents.params import (DEALINGS, ONE_AT_A_TIME, THREE_KEEP_TWO,
                                                    BotParams, Dealing)
from fantasyland.optimizer.opponents.resolve import evaluate_played

__all__ = ["DEALINGS", "ONE_AT_A_TIME", "THREE_KEEP_TWO", "BotParams", "Dealing", "PlayedHand",
           "choose_each", "finished_hand", "first_look", "play_hand", "play_in_turn"]

#: The stronger bot (``table_points``) values boards in points at the table in the decisions
#: at most this many rounds from the end: every one of Pineapple's, classic OFC's last four
#: (its earlier ones count royalties, ``fl_bonus`` and ``foul_penalty`` as the first bot
#: does). Fewer in Pineapple was measured and lost (docs/notes-opponents.md).
TABLE_ROUNDS = 4


def deck_counts(deck: Deck) -> np.ndarray:
    """``(53,)``: how many of each card (faces 0..51, then the joker) ``deck`` holds."""
    return np.bincount(np.asarray(deck.cards, dtype=np.int64), minlength=JOKER + 1)


def remaining(counts: np.ndarray) -> np.ndarray:
    """The cards of a multiset given by ``counts``, sorted, each as often as it is left
    (under one deck without jokers: the ids not yet seen, as ``np.flatnonzero`` lists them)."""
    return np.repeat(np.arange(len(counts)), counts)


def without(cards: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """The sorted multiset ``cards`` less one copy of each of ``taken``."""
    return remaining(np.bincount(cards, minlength=JOKER + 1)
                     - np.bincount(taken, minlength=JOKER + 1))


@dataclass(frozen=True)
class PlayedHand:
    """A finished ordinary hand: the board (top 3, middle 5, bottom 5) and the discards."""

    board: tuple[Card, ...]
    discards: tuple[Card, ...]


# --- one decision ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Judge:
    """How one decision judges layouts: the rules and dealing of the hand, the bot's knobs,
    the table's row ``odds`` that value finished boards in points (``None``: the first bot's
    valuation) and the generator every sample is drawn from. Every look of the decision, and
    the plays of later streets that a search makes for it, judge alike."""

    rules: Rules
    dealing: Dealing
    params: BotParams
    odds: RowOdds | None
    rng: np.random.Generator

    @classmethod
    def of(cls, rules: Rules, dealing: Dealing, params: BotParams, rng: np.random.Generator,
           odds: RowOdds | None, rounds_left: int) -> _Judge:
        """The judge of a decision ``rounds_left`` from the end: in points at the table
        (``odds``, or every row a toss-up without them) where the stronger bot's valuation
        reaches that far (``TABLE_ROUNDS``), else the first bot's."""
        if params.table_points and rounds_left <= TABLE_ROUNDS:
            odds = even_odds(rules) if odds is None else odds
        else:
            odds = None
        return cls(rules, dealing, params, odds, rng)

    def worth(self, boards: np.ndarray) -> np.ndarray:
        """What finished boards ``(..., 13)`` are worth to the bot (see the module docstring)."""
        rules, params, odds = self.rules, self.params, self.odds
        out = evaluate_played(boards.reshape(-1, 13), rules)
        if odds is not None:
            legal = out.royalty_total + entry_worths(rules, params)[out.entry_cards] \
                + (1.0 - odds.foul_rate) * odds.points(out.values)
            points = np.where(out.fouled, -params.foul_penalty, legal)
        else:
            points = np.where(out.fouled, -params.foul_penalty,
                              out.royalty_total + params.fl_bonus * (out.entry_cards > 0))
        return points.reshape(boards.shape[:-1])

    def finish(self, layouts: np.ndarray, deals: np.ndarray) -> np.ndarray:
        """``(N,)``: the mean over ``deals`` ``(N, K, per_round)`` of the last round of each
        layout played in its best way, the finished boards scored exactly."""
        dealing = self.dealing
        count, samples = deals.shape[:2]
        slots = np.nonzero(layouts == EMPTY)[1].reshape(count, dealing.keep)
        orders = np.array(list(permutations(range(dealing.per_round), dealing.keep)),
                          dtype=np.int64)
        boards = np.broadcast_to(layouts[:, None, None, :],
                                 (count, samples, len(orders), 13)).copy()
        c, k, a = np.ix_(np.arange(count), np.arange(samples), np.arange(len(orders)))
        boards[c[..., None], k[..., None], a[..., None], slots[:, None, None, :]] = \
            deals[:, :, orders]
        return self.worth(boards).max(axis=2).mean(axis=1)

    def last_round(self, layouts: np.ndarray, unseen: np.ndarray, samples: int) -> np.ndarray:
        """Mean worth of layouts one round from the end: each of ``samples`` random deals of
        the last round is played in its best way (an exact one-round look-ahead)."""
        deals = self.rng.permuted(np.broadcast_to(unseen, (samples, len(unseen))),
                                  axis=1)[:, :self.dealing.per_round]
        return self.finish(layouts, np.broadcast_to(deals[None],
                                                    (len(layouts),) + deals.shape))

    def first_look(self, layouts: np.ndarray, unseen: np.ndarray, rounds_left: int,
                   samples: int) -> np.ndarray:
        """Worth of layouts with ``rounds_left >= 1`` rounds to come, over ``samples``
        samples: exact over deals of the last round, estimated earlier (see the module
        docstring)."""
        if rounds_left == 1:
            return self.last_round(layouts, unseen, samples)
        return estimate(self.rules, layouts, unseen, rounds_left * self.dealing.per_round,
                        self.params, self.rng, samples)

    def second_look(self, layouts: np.ndarray, unseen: np.ndarray,
                    rounds_left: int) -> np.ndarray:
        """Worth of the placements the first look likes best (see the module docstring)."""
        params = self.params
        if 2 <= rounds_left <= params.search_from and params.search_deals:
            return self.search(layouts, unseen, rounds_left)
        return self.first_look(layouts, unseen, rounds_left, params.refine_samples)

    def search(self, layouts: np.ndarray, unseen: np.ndarray, rounds_left: int) -> np.ndarray:
        """Worth of layouts by a one-ply search: the mean over ``search_deals`` deals of the
        next round (every layout shares them) of the best play of each deal, as a first look
        with ``search_samples`` samples judges the plays."""
        params, dealing = self.params, self.dealing
        dealt = self.rng.permuted(np.broadcast_to(unseen, (params.search_deals, len(unseen))),
                                  axis=1)[:, :dealing.per_round]
        total = np.zeros(len(layouts))
        for deal in dealt:
            plays = [placements(layout, deal.tolist(), dealing.keep) for layout in layouts]
            owners = np.repeat(np.arange(len(layouts)), [len(p) for p in plays])
            stacked, left = np.concatenate(plays), without(unseen, deal)
            value = self.first_look(stacked, left, rounds_left - 1, params.search_samples)
            best = np.full(len(layouts), -np.inf)
            np.maximum.at(best, owners, value)
            total += best
        return total / len(dealt)

    def play_each(self, layouts: np.ndarray, new: Sequence[Card], keep: int,
                  unseen: np.ndarray, rounds_left: int, samples: int) -> np.ndarray:
        """``(P, 13)``: each layout's best play of ``new`` by the first look at ``samples``
        samples shared by all of them (``choose_each``), ties to the first placement."""
        options = [placements(layout, new, keep) for layout in layouts]
        owners = np.repeat(np.arange(len(layouts)), [len(o) for o in options])
        stacked = np.concatenate(options)
        if rounds_left == 0:
            worth = self.worth(stacked)
        else:
            worth = self.first_look(stacked, unseen, rounds_left, samples)
        return stacked[_best_of_each(worth, owners)]


def first_look(rules: Rules, layouts: np.ndarray, unseen: np.ndarray, dealing: Dealing,
               rounds_left: int, params: BotParams, rng: np.random.Generator,
               samples: int, *, odds: RowOdds | None = None) -> np.ndarray:
    """``(N,)``: the bot's first look at ``layouts`` with ``rounds_left >= 1`` rounds to come
    (the module docstring), valued as ``choose`` values them: how the adviser screens the
    first street's plays (``optimizer.ordinary.advise``)."""
    return _Judge.of(rules, dealing, params, rng, odds, rounds_left).first_look(
        layouts, unseen, rounds_left, samples)


def finished_worth(rules: Rules, dealing: Dealing, params: BotParams, boards: np.ndarray,
                   *, odds: RowOdds | None = None) -> np.ndarray:
    """What finished ``boards`` ``(..., 13)`` are worth to the bot, as its last street values
    them (``odds`` as ``choose`` takes them)."""
    return _Judge.of(rules, dealing, params, np.random.default_rng(0), odds, 0).worth(boards)


def _best_of_each(worth: np.ndarray, owners: np.ndarray) -> np.ndarray:
    """The index of each owner's best option (``owners`` sorted), ties to the first, owners
    in order."""
    order = np.lexsort((-worth, owners))
    ranked = owners[order]
    return order[np.r_[True, ranked[1:] != ranked[:-1]]]


@by_identity
def entry_worths(rules: Rules, params: BotParams) -> np.ndarray:
    """``worth[n]``: what entering Fantasyland with ``n`` cards is worth at the table (0 for
    no entry), in points from one opponent: the rules' ``ev_entry_value`` where they give
    it, else the worth of the run it starts (``Rules.entry_value``, ``card_worth`` a card
    beyond the repeat size)."""
    sizes = rules.entry_sizes
    worth = np.zeros(max(sizes, default=0) + 1)
    for cards in sizes:
        worth[cards] = rules.entry_value(cards, ev=True, card_worth=params.card_worth).value
    worth.flags.writeable = False
    return worth


def choose(rules: Rules, dealing: Dealing, layout: np.ndarray, new: Sequence[Card], keep: int,
           unseen: np.ndarray, rounds_left: int, params: BotParams,
           rng: np.random.Generator, *, odds: RowOdds | None = None) -> np.ndarray:
    """The layout the bot plays after being dealt ``new`` onto ``layout``; ``unseen`` is the
    sorted multiset of the cards it has not seen (``remaining``). ``odds`` are the table's
    row odds that ``table_points`` values boards with (``pools.table_odds``) in decisions at
    most ``TABLE_ROUNDS`` from the end; without them every row is a toss-up
    (``odds.even_odds``)."""
    options, _, worth = score(rules, dealing, layout, new, keep, unseen, rounds_left, params,
                              rng, odds=odds)
    return pick(options, worth, rng)


def pick(options: np.ndarray, worth: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The placement a decision plays: the one worth most, a tie broken by ``rng``."""
    best = np.flatnonzero(worth >= worth.max() - 1e-9)
    return options[best[rng.integers(len(best))] if len(best) > 1 else best[0]]


def score(rules: Rules, dealing: Dealing, layout: np.ndarray, new: Sequence[Card], keep: int,
          unseen: np.ndarray, rounds_left: int, params: BotParams, rng: np.random.Generator,
          *, odds: RowOdds | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How ``choose`` scores a decision (its arguments alike): every placement ``(P, 13)``,
    the first look's worth of each, and the worth the decision compares (the second look's
    where it rescored, ``-inf`` where it did not; the exact worth on the last street), so
    that an audit can see what the bot weighed (``optimizer.opponents.audit``)."""
    judge = _Judge.of(rules, dealing, params, rng, odds, rounds_left)
    options = placements(layout, new, keep)
    if rounds_left == 0:
        worth = judge.worth(options)
        return options, worth, worth
    first = judge.first_look(options, unseen, rounds_left, params.samples)
    worth = first
    if params.rescored and len(options) > 1:
        top = np.argsort(-first, kind="stable")[:params.rescored]
        worth = np.full(len(options), -np.inf)
        worth[top] = judge.second_look(options[top], unseen, rounds_left)
    return options, first, worth


def choose_each(rules: Rules, dealing: Dealing, layouts: np.ndarray, new: Sequence[Card],
                keep: int, unseen: np.ndarray, rounds_left: int, params: BotParams,
                rng: np.random.Generator, *, odds: RowOdds | None = None) -> np.ndarray:
    """``(P, 13)``: the bot's play for each of ``layouts`` dealt the same ``new`` cards, by
    its first look alone (its second look is left out), ties to the first placement. The
    samples are shared by every layout and their number does not depend on how many there
    are: what a rollout of several plays over one deal of the future needs
    (``optimizer.ordinary``). One round from the end each layout's play is therefore the
    one it would get alone; earlier the estimate's cards of a row's own start after those
    of the batch's emptiest rows (``estimate``), so a play can differ with the layouts
    beside it, though in law it is the same."""
    return _Judge.of(rules, dealing, params, rng, odds, rounds_left).play_each(
        layouts, new, keep, unseen, rounds_left, params.samples)


def play_on(rules: Rules, dealing: Dealing, layout: np.ndarray, left: np.ndarray,
            cards: Sequence[Card], decisions: range, params: BotParams,
            rng: np.random.Generator, *, odds: RowOdds | None = None) -> np.ndarray:
    """``layout`` played on by the bot alone through ``decisions`` (indices into
    ``dealing.streets``, 0 the first cards), each dealt the next cards of ``cards``;
    ``left`` counts the cards the player has not seen (``deck_counts`` less those seen) and
    loses each card as it is dealt. ``odds`` as ``choose`` takes them."""
    streets = dealing.streets
    position = 0
    for index in decisions:
        count, keep = streets[index]
        new = list(cards[position:position + count])
        np.subtract.at(left, new, 1)
        layout = choose(rules, dealing, layout, new, keep, remaining(left),
                        len(streets) - 1 - index, params, rng, odds=odds)
        position += count
    return layout


def play_hand(rules: Rules, dealing: Dealing, cards: Sequence[Card], params: BotParams,
              rng: np.random.Generator, *, odds: RowOdds | None = None) -> PlayedHand:
    """Play one hand whose cards arrive in the order of ``cards`` (``dealing.seen`` of them);
    ``odds`` as ``choose`` takes them."""
    return play_in_turn(rules, dealing, [cards], [params], [rng], odds=odds)[0]


def play_in_turn(rules: Rules, dealing: Dealing, hands: Sequence[Sequence[Card]],
                 bots: Sequence[BotParams], rngs: Sequence[np.random.Generator],
                 *, odds: RowOdds | None = None) -> list[PlayedHand]:
    """Hands played at one table street by street, the seats in turn: seat ``s`` is dealt
    ``hands[s]`` in that order and played by ``bots[s]`` with ``rngs[s]``. A bot that sees
    the table (``BotParams.sees_boards``) counts the cards on the other boards so far as
    seen, face up as they are at a real table, so its looks never deal them to it; one that
    does not plays each hand as ``play_hand`` does alone."""
    for cards in hands:
        if len(cards) != dealing.seen:
            raise ValueError(f"{dealing.name} deals {dealing.seen} cards, got {len(cards)}")
    layouts = [np.full(13, EMPTY, dtype=np.int64) for _ in hands]
    lefts = [deck_counts(rules.deck) for _ in hands]
    rounds = dealing.streets
    position = 0
    for index, (count, keep) in enumerate(rounds):
        for seat, cards in enumerate(hands):
            new = list(cards[position:position + count])
            np.subtract.at(lefts[seat], new, 1)
            left = lefts[seat]
            if bots[seat].sees_boards and len(hands) > 1:
                shown = np.concatenate([layout[layout != EMPTY]
                                        for other, layout in enumerate(layouts) if other != seat])
                left = left.copy()
                np.subtract.at(left, shown, 1)
            layouts[seat] = choose(rules, dealing, layouts[seat], new, keep, remaining(left),
                                   len(rounds) - 1 - index, bots[seat], rngs[seat], odds=odds)
        position += count
    return [finished_hand(cards, layout) for cards, layout in zip(hands, layouts)]


def finished_hand(cards: Sequence[Card], layout: np.ndarray) -> PlayedHand:
    """The finished hand of ``layout``, its rows sorted, and the rest of ``cards`` thrown."""
    discards = tuple(remaining(np.bincount(list(cards), minlength=JOKER + 1)
                               - np.bincount(layout, minlength=JOKER + 1)).tolist())
    board = tuple(c for row in ROWS for c in sorted(layout[ROW_SLOTS[row]].tolist(),
                                                     reverse=True))
    return PlayedHand(board, discards)
