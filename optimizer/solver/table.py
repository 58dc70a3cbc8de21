"""Who sits at the table, what is known of them, and the opponents' boards that follows.

A table is ``opponents`` seats. Some seats may be known (``against``): a finished board,
which the EV is then exact against, or what is visible of an unfinished one, which the bot
finishes from the deck that is left (``optimizer.opponents.unfinished``). Some may be in
Fantasyland (``fantasyland``: the cards each is dealt): such an opponent is dealt from the
deck that is left and sets its cards with this solver, for royalties plus its variant's
worth of staying. The other seats are ordinary hands of the bot, drawn from the pools
(``optimizer.opponents.draw``). ``dead`` cards were seen elsewhere (shown discards): no
sampled board holds them.

Every sampled board avoids the dealt hand, the dead cards and the known boards' cards. The
boards that are made for this hand alone (the Fantasyland opponents' sets, the unfinished
boards the bot completes, and the bot's hands played live where the pools hold too few
boards that fit) are costly, so ``LIVE_DEALS`` deals of them are made, each dealt from one
deck, so that within a deal they share no card (under two decks: no card more often than
the decks hold), and the samples reuse them in turn. The standard error then counts each
such deal once (``OpponentField.groups``). Pool boards are drawn for each seat on its own,
as docs/ev-and-opponents.md explains ("Three-handed and more").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from fantasyland.evaluator.board import Board, row_strengths, row_values
from fantasyland.evaluator.cards import JOKER, Card, format_cards, parse_cards
from fantasyland.evaluator.rules import ROW_SIZE, ROWS, Rules
from fantasyland.optimizer.solver.objective import ObjectiveError

if TYPE_CHECKING:  # the opponent model loads where a table is drawn
    from fantasyland.optimizer.opponents.draw import PoolShare

#: Deals of the boards made for one hand (Fantasyland sets, finished unfinished boards,
#: hands played live), which the samples share: each costs a solve or a bot's hand.
LIVE_DEALS = 16
#: Fewest pool boards (with their relabellings) that fit the known cards for the pool to
#: serve a seat; below it the seat's hands are played live.
MIN_POOL_PAIRS = 64


class TableError(ObjectiveError):
    """A table that cannot be: a card in two places, too many players for the deck, a board
    that cannot be read. The message quotes the input."""


@dataclass(frozen=True)
class KnownBoard(Board):
    """An opponent's board as far as it is seen: each row's cards, perhaps short, and the
    text it was given as (for messages)."""

    text: str = ""

    @property
    def finished(self) -> bool:
        return all(len(self.row(r)) == ROW_SIZE[r] for r in ROWS)


@dataclass(frozen=True)
class Table:
    """The seats: the known boards first, then the Fantasyland players, then the bot's."""

    opponents: int = 1
    against: tuple[KnownBoard, ...] = ()
    fantasyland: tuple[int, ...] = ()
    dead: tuple[Card, ...] = ()

    @property
    def bot_seats(self) -> int:
        return self.opponents - len(self.against) - len(self.fantasyland)

    @property
    def exact(self) -> bool:
        """Every seat is a finished board: the EV needs no sample."""
        return self.opponents == len(self.against) and all(b.finished for b in self.against)

    @property
    def plain(self) -> bool:
        """Nothing is known: the pools' draw as it has always been."""
        return not (self.against or self.fantasyland or self.dead)

    @property
    def known_cards(self) -> tuple[Card, ...]:
        return self.dead + tuple(c for b in self.against for c in b.cards)

    def record(self) -> dict:
        """The table as plain data (JSON)."""
        return {"opponents": self.opponents,
                "against": [b.format(ascii=True) for b in self.against],
                "opponent_fantasyland": list(self.fantasyland),
                "dead": [format_cards([c], ascii=True) for c in self.dead]}


@dataclass(frozen=True)
class TableSpec:
    """The table as the player gives it, not yet checked (``read_table`` checks it against
    the dealt hand): ``opponents`` seats, the boards seen at some of them (``against``,
    finished or not, as text or ``Board``), the card counts of those in Fantasyland
    (``opponent_fantasyland``), and the ``dead`` cards seen elsewhere. The command-line
    options and the batch's settings of the same names are its fields."""

    opponents: int | None = None  # None: the rules' table (``Rules.players``) less one
    against: tuple[str | Board, ...] = ()
    opponent_fantasyland: tuple[int, ...] = ()
    dead: str | tuple[Card, ...] = ()

    def seated(self, rules: Rules) -> int:
        """The opponents: as given, or as many as the rules' table seats by default."""
        return rules.players - 1 if self.opponents is None else self.opponents

    @property
    def known(self) -> bool:
        """Something is known beyond the number of opponents."""
        return bool(self.against or self.opponent_fantasyland or self.dead)

    def options(self) -> dict[str, Any]:
        """The fields that are not their defaults, by name (the batch's settings)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> tuple[TableSpec, dict[str, Any]]:
        """The spec made of those of ``options`` that name its fields (as JSON gives them,
        lists for tuples), and the other options: flat options such as a batch's settings,
        as ``solve`` takes them."""
        names = {f.name for f in fields(cls)}
        given: dict[str, Any] = {name: tuple(value) if isinstance(value, list) else value
                                 for name, value in options.items() if name in names}
        return cls(**given), {k: v for k, v in options.items() if k not in names}


#: No one known: heads-up against the pools' bot.
PLAIN = TableSpec()


@dataclass(frozen=True, kw_only=True, eq=False)  # eq: an array of boards has no one truth
class Sample:
    """The opponents a hand is valued against under the ev objective, as the player gives
    them: the ``table``, and a sample of ``samples`` deals of it drawn from ``seed`` (None:
    the default of whatever takes it), or ``boards``, the sample itself: an ``(samples,
    opponents, 13)`` array of boards laid out top, middle, bottom. What ``solve``, ``grade``
    and ``advise`` take; each checks it where it reads it."""

    table: TableSpec = PLAIN
    samples: int | None = None
    seed: int = 0
    boards: np.ndarray | None = None

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> tuple[Sample, dict[str, Any]]:
        """The sample made of those of ``options`` that name its fields or the table's
        (flat, as a batch's settings keep them: ``TableSpec.split``), and the other options."""
        table, rest = TableSpec.split(options)
        own = {"samples", "seed"}
        return cls(table=table, **{k: v for k, v in rest.items() if k in own}), \
            {k: v for k, v in rest.items() if k not in own}


#: The default: heads-up against the pools' bot, the default deals, seed 0.
DEFAULT_SAMPLE = Sample()


def check_sample(sample: Sample) -> Sample:
    """``sample``, once it is known to be one (its fields are checked where they are read)."""
    if not isinstance(sample, Sample):
        raise ObjectiveError(f"bad sample {sample!r}: expected a Sample (table, samples, "
                             "seed, boards)")
    return sample


def read_board(text: str | Board, rules: Rules) -> KnownBoard:
    """``"TOP / MIDDLE / BOTTOM"``, whole or with rows short (what is seen so far)."""
    if isinstance(text, Board):
        return KnownBoard(text.top, text.middle, text.bottom, text=text.format(ascii=True))
    parts = re.split(r"[/|]", text)
    if len(parts) != 3:
        raise TableError(f"bad board {text.strip()!r}: expected three rows separated by '/' "
                         "(top / middle / bottom), short rows allowed: 'Kh Kd / 7c 8c / 2s'")
    rows: dict[str, tuple[Card, ...]] = {}
    for name, part in zip(ROWS, parts):
        cards = parse_cards(part, deck=rules.deck) if part.strip() else ()
        if len(cards) > ROW_SIZE[name]:
            raise TableError(f"bad board {text.strip()!r}: the {name} row has {len(cards)} "
                             f"cards ({part.strip()!r}), at most {ROW_SIZE[name]}")
        rows[name] = tuple(cards)
    return KnownBoard(rows["top"], rows["middle"], rows["bottom"], text=text.strip())


def refuse_copies(rules: Rules, places: Sequence[tuple[str, Sequence[Card]]]) -> None:
    """Refuse, with a ``TableError`` naming the places, a card found more often among
    ``places`` (``(where, cards)`` pairs) than the deck holds it."""
    copies: dict[Card, list[str]] = {}
    for where, cards in places:
        for card in cards:
            copies.setdefault(card, []).append(where)
            if len(copies[card]) > rules.deck.copies(card):
                name = format_cards([card], ascii=True)
                places_of = copies[card]
                twice = places_of[0] if len(set(places_of)) == 1 else " and ".join(
                    dict.fromkeys(places_of))
                raise TableError(f"card {name!r} is in {twice}"
                                 + (" twice" if len(set(places_of)) == 1 else "")
                                 + (": the deck holds it once" if rules.deck.decks == 1
                                    else ": two decks hold it twice"))


def already_fouls(board: KnownBoard, rules: Rules) -> str | None:
    """Why an unfinished board fouls whatever comes, if it does: two of its full rows out of
    the rules' order, or a full row that fails its qualifier (rows holding a joker are left
    to the finished board)."""
    if board.finished:
        return None
    full = {r: np.array([board.row(r)]) for r in ROWS
            if len(board.row(r)) == ROW_SIZE[r] and JOKER not in board.row(r)}
    strength = {r: int(row_strengths(cards)[0]) for r, cards in full.items()}
    order = [r for r in rules.order if r in full]
    for i, stronger in enumerate(order):
        for weaker in order[i + 1:]:
            if strength[stronger] < strength[weaker]:
                return f"its full {weaker} row beats its full {stronger} row"
    for requirement in rules.qualify:
        row = requirement.row
        if row in full and not rules.qualify_table(row)[int(row_values(row, full[row],
                                                                       rules)[0])]:
            return f"its full {row} row must be {requirement.spec} or better"
    return None


def read_table(rules: Rules, dealt: Sequence[Card], *, spec: TableSpec = PLAIN,
               named: Sequence[tuple[str, Sequence[Card]]] = ()) -> Table:
    """The table ``spec`` for a dealt hand, once it is known that it can be: every card in
    one place (under two decks no more often than they hold it), every player's cards in the
    deck, no more known or Fantasyland seats than opponents. Raises ``TableError``.

    ``named`` splits ``dealt`` by where the cards are (``("the board", ...)``, ...), for an
    error to name the place rather than "the dealt hand"."""
    # the opponent model loads on use
    from fantasyland.optimizer.opponents.draw import max_opponents

    most = max_opponents(rules)
    opponents = spec.seated(rules)
    if isinstance(opponents, bool) or not isinstance(opponents, int) \
            or not 1 <= opponents <= most:
        raise TableError(f"bad opponents count {opponents!r}: expected 1 (heads-up) to {most}"
                         f" ({most + 1} at the table) under these rules")
    boards = tuple(read_board(b, rules) for b in spec.against)
    fantasyland = tuple(spec.opponent_fantasyland)
    for n in fantasyland:
        if isinstance(n, bool) or not isinstance(n, int) or not 13 <= n <= 17:
            raise TableError(f"bad opponent Fantasyland {n!r}: expected 13 to 17 cards")
    if len(boards) + len(fantasyland) > opponents:
        raise TableError(
            f"{len(boards)} known board{'s' * (len(boards) != 1)} and {len(fantasyland)} "
            f"opponent{'s' * (len(fantasyland) != 1)} in Fantasyland, but "
            f"{opponents} opponent{'s' * (opponents > 1)}: each takes a seat (give "
            f"--opponents {len(boards) + len(fantasyland)})")
    dead = parse_cards(spec.dead, deck=rules.deck) if isinstance(spec.dead, str) \
        else tuple(spec.dead)
    places = [*(named or [("the dealt hand", tuple(dealt))]), ("the dead cards", dead)] + [
        (f"the board {b.text!r}", b.cards) for b in boards]
    refuse_copies(rules, places)
    if rules.dealing.closed:
        unfinished = [b.text for b in boards if not b.finished]
        if unfinished:
            raise TableError(f"the board {unfinished[0]!r} is short: under {rules.name} every "
                             "hand is set at once, so a board is seen finished or not at all")
        if fantasyland:
            raise TableError(f"{rules.name} has no Fantasyland: drop --opponent-fantasyland")
    for board in boards:
        why = already_fouls(board, rules)
        if why is not None:
            raise TableError(f"the board {board.text!r} already fouls ({why}): it scores as "
                             "a fouled board whatever comes, so give it finished, with any "
                             "cards in its short rows")
    ordinary = rules.dealing.seen
    needed = len(dealt) + len(dead) + ordinary * (opponents - len(fantasyland)) \
        + sum(fantasyland)
    size = len(rules.deck.cards)
    if needed > size:
        raise TableError(
            f"too many opponents for the deck: {len(dealt)} dealt cards"
            + (f", {len(dead)} dead" if dead else "")
            + f" and {opponents} opponent{'s' * (opponents > 1)} ("
            + " + ".join([f"{ordinary}"] * (opponents - len(fantasyland))
                         + [str(n) for n in fantasyland])
            + f" cards) need {needed}, and the deck holds {size}")
    return Table(opponents, boards, fantasyland, tuple(dead))


@dataclass(frozen=True)
class TableDraw:
    """The opponents' boards for a table: ``(samples, opponents, 13)``, and how made."""

    boards: np.ndarray
    groups: np.ndarray | None  # the live deal of each sample, where the samples share them
    fantasyland_hands: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]  # (dealt, set)
    live_deals: int  # deals made for this hand (0: none)
    share: PoolShare | None = None  # the pool seats' ``PoolShare`` (the pool's error), if any


def _left(rules: Rules, used: Sequence[Card]) -> list[Card]:
    """The deck less ``used``, copy by copy."""
    from fantasyland.optimizer.opponents.bot import deck_counts, remaining

    counts = deck_counts(rules.deck) - np.bincount(np.asarray(list(used), dtype=np.int64),
                                                   minlength=JOKER + 1)
    return remaining(counts).tolist()


#: What sets a Fantasyland opponent's cards: the solver's ``fantasyland_set``, passed in by
#: the solver, so that this module does not import the solve that imports it.
SetFantasyland = Callable[[Rules, Sequence[Card]], tuple[Card, ...]]


def draw_table(rules: Rules, dealt: Sequence[Card], table: Table, samples: int,
               seed: int, *, set_fantasyland: SetFantasyland | None = None) -> TableDraw:
    """The opponents' boards of ``samples`` seeded deals at ``table`` (module docstring);
    ``set_fantasyland`` sets the Fantasyland opponents' cards (``solve.fantasyland_set``)."""
    from fantasyland.optimizer.opponents.draw import (candidate_pairs, dealt_array, draw_boards,
                                          opponent_draw, pool_weights, serving_bot,
                                          serving_pool)
    from fantasyland.optimizer.opponents.errors import OpponentModelError
    from fantasyland.optimizer.opponents.unfinished import as_played, complete, play_live

    if table.fantasyland and set_fantasyland is None:
        raise TableError("an opponent in Fantasyland needs a solver to set its cards")
    if table.exact:
        every = np.array([_played(rules, b) for b in table.against])
        return TableDraw(every[None], None, (), 0)
    if table.plain:
        boards, drawn_share = opponent_draw(rules, tuple(dealt), samples, table.opponents,
                                            seed)
        return TableDraw(boards, None, (), 0, drawn_share)
    fixed = tuple(dealt) + table.known_cards
    if rules.dealing.closed:  # every hand is set at once by the model: dealt exactly
        from fantasyland.optimizer.opponents.closed import seat_boards

        rest = np.asarray(_left(rules, fixed), dtype=np.int64)
        known = [np.broadcast_to(np.array(_played(rules, b)), (samples, 13))
                 for b in table.against]
        dealt_seats = seat_boards(rules, rest, samples, table.bot_seats, seed)
        boards = np.stack(known + [dealt_seats[:, i] for i in range(table.bot_seats)], axis=1)
        return TableDraw(boards.astype(np.int64), None, (), 0)
    # The bot's seats: from the pool while it holds enough boards that fit the known cards.
    pooled = 0
    share: PoolShare | None = None
    if table.bot_seats:
        pool, fixed_ids = serving_pool(rules), dealt_array(fixed, deck=rules.deck)
        exact, relaxed = candidate_pairs(pool, fixed_ids)
        if len(exact) + len(relaxed) >= MIN_POOL_PAIRS:
            pooled = table.bot_seats
    live_bots = table.bot_seats - pooled
    unfinished = [b for b in table.against if not b.finished]
    makes_live = bool(unfinished or table.fantasyland or live_bots)
    deals = min(samples, LIVE_DEALS) if makes_live else 0
    bot = serving_bot(rules) if unfinished or live_bots else None
    seats = []  # per seat: (deals or samples, 13) boards
    live: list[list[tuple[Card, ...]]] = []
    hands: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    for g in range(deals):
        rng = np.random.default_rng([seed, 16, g])
        left = _left(rules, fixed)
        row = []
        for board in unfinished:
            assert bot is not None  # served where a board is unfinished
            finished, thrown = complete(rules, {r: board.row(r) for r in ROWS}, left, rng,
                                       bot)
            left = _take(left, _without(finished, board.cards) + list(thrown))
            row.append(as_played(rules, finished))
        for n in table.fantasyland:
            cards = rng.permutation(np.asarray(left, dtype=np.int64))[:n].tolist()
            left = _take(left, cards)
            assert set_fantasyland is not None  # refused above without it
            setting = set_fantasyland(rules, cards)
            hands.append((tuple(sorted(cards, reverse=True)), setting))
            row.append(setting)
        for _ in range(live_bots):
            assert bot is not None  # served where a seat plays live
            finished, thrown = play_live(rules, left, rng, bot)
            left = _take(left, list(finished + thrown))
            row.append(as_played(rules, finished))
        live.append(row)
    index = np.arange(samples) % max(deals, 1)  # each sample's live deal, where there are any
    live_seat = 0
    for board in table.against:
        if board.finished:
            seats.append(np.broadcast_to(np.array(_played(rules, board)), (samples, 13)))
        else:
            seats.append(np.array([live[g][live_seat] for g in index]))
            live_seat += 1
    for _ in table.fantasyland:
        seats.append(np.array([live[g][live_seat] for g in index]))
        live_seat += 1
    if pooled:
        try:
            draw = draw_boards(pool, fixed_ids, samples * pooled, seed,
                               weights=pool_weights(pool, rules), pairs=(exact, relaxed))
        except OpponentModelError as error:
            raise TableError(str(error)) from None
        drawn, share = draw.boards.reshape(samples, pooled, 13), replace(draw.share,
                                                                         seats=pooled)
        seats.extend(drawn[:, i] for i in range(pooled))
    for _ in range(live_bots):
        seats.append(np.array([live[g][live_seat] for g in index]))
        live_seat += 1
    boards = np.stack(seats, axis=1).astype(np.int64)
    groups = index if deals and deals < samples else None
    return TableDraw(boards, groups, tuple(hands), deals, share)


def _played(rules: Rules, board: KnownBoard) -> tuple[Card, ...]:
    from fantasyland.optimizer.opponents.unfinished import as_played

    return as_played(rules, board.cards)


def _without(finished: Sequence[Card], visible: Sequence[Card]) -> list[Card]:
    """The cards a finished board took from the deck: its cards less the ``visible`` ones,
    which were out of it already (copy by copy, jokers as jokers)."""
    cards = list(finished)
    for card in visible:
        if card in cards:
            cards.remove(card)
    return cards


def _take(left: list[Card], cards: Sequence[Card]) -> list[Card]:
    """``left`` less one copy of each of ``cards`` (each is there: they were dealt from it)."""
    out = list(left)
    for card in cards:
        if card in out:
            out.remove(card)
    return out


def describe(table: Table) -> str:
    """The table in a few words, for the output."""
    parts = []
    finished = sum(b.finished for b in table.against)
    if finished:
        parts.append(f"{finished} known board{'s' * (finished > 1)}")
    if len(table.against) - finished:
        n = len(table.against) - finished
        parts.append(f"{n} unfinished board{'s' * (n > 1)} completed by the bot")
    for n in table.fantasyland:
        parts.append(f"an opponent in Fantasyland with {n} cards")
    if table.dead:
        parts.append(f"{len(table.dead)} dead card{'s' * (len(table.dead) > 1)}")
    return ", ".join(parts)


