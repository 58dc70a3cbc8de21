"""Rules as data: the frozen ``Rules`` object and the tables it answers from.

Code never branches on a variant's name: everything a variant changes is a field here.
``evaluator.rules_files`` reads them from presets and house-rules files in TOML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

import numpy as np

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.cards import ONE_DECK, Deck
from fantasyland.evaluator.handspec import HandSpec, Scale, parse_spec
from fantasyland.evaluator.naturals import Schedule
from fantasyland.evaluator.strength import FIVE_OF_A_KIND, NUM_LOW, NUM_STRENGTHS


class Word(StrEnum):
    """A word of the game as a type (a row, a dealing style, an objective, a status): code
    compares with its members, not with strings. It prints, compares, hashes and, unlike a
    plain ``StrEnum``, reprs as its word, so that the output, the JSON and the Python API
    (docs/python-api.md) show the words they showed as strings.

    >>> DealingStyle.CLOSED, f"{DealingStyle.CLOSED}", DealingStyle.CLOSED == "closed"
    ('closed', 'closed', True)
    """

    def __repr__(self) -> str:
        return repr(self.value)


class Row(Word):
    """A row of a set, top to bottom: the name a rules file, the output and JSON use."""

    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"


#: The rows top to bottom, as a set lists them; ``ROWS[::-1]`` is bottom first. Typed as the
#: names they are, so that a table by row stays a ``dict[str, ...]`` wherever it is built.
ROWS: tuple[str, ...] = tuple(Row)
ROW_SIZE: dict[str, int] = {Row.TOP: 3, Row.MIDDLE: 5, Row.BOTTOM: 5}


class RulesError(InputError):
    """An unknown preset or a malformed rules file; the message names the bad key."""


@dataclass(frozen=True)
class Requirement:
    """``row`` must hold at least ``spec`` on its own scale."""

    row: str
    spec: HandSpec

    def __str__(self) -> str:
        return f"{self.spec} or better {self.row}"


@dataclass(frozen=True)
class EntryRung:
    """A Fantasyland entry: when every requirement holds, the next hand deals ``cards``."""

    requires: tuple[Requirement, ...]
    cards: int


@dataclass(frozen=True)
class Scoring:
    """How two finished sets settle: 1-6 is scoop 3, majority 0; 2-4 is scoop 0, majority 1."""

    scoop_bonus: int = 3
    majority_bonus: int = 0
    royalties_to_row_winner_only: bool = False

    @property
    def foul_penalty(self) -> int:
        """What a fouled set pays before royalties: the worth of losing every row."""
        return 3 + self.scoop_bonus + self.majority_bonus


SCORING_SYSTEMS = {"1-6": Scoring(3, 0), "2-4": Scoring(0, 1), "per-hand": Scoring(0, 0)}


@dataclass(frozen=True)
class Showdown:
    """What a table settles beyond its pairs of finished sets (classic Chinese Poker):

    * ``naturals``: the special 13-card hands that win when declared (``evaluator.naturals``);
    * ``surrender``: what a player who gives up before the showdown pays each opponent
      (None: no surrender);
    * ``sweep_bonus``: what each other player pays on top of the scoop to a player who
      scoops them all, at a table of three or more (with 1-6 payments, 3
      makes it 9 from each instead of 6: docs/rules.md, "Classic Chinese Poker")."""

    naturals: Schedule = Schedule()
    surrender: int | None = None
    sweep_bonus: int = 0


class DealingStyle(Word):
    """How ordinary (non-Fantasyland) hands are dealt: a rules file's ``dealing`` key, and
    ``Rules.dealing``. Code asks it what it deals (``streets``, ``seen``, ``closed``) rather
    than comparing its name.

    >>> DealingStyle.THREE_KEEP_TWO.streets
    ((5, 5), (3, 2), (3, 2), (3, 2), (3, 2))
    >>> DealingStyle.THREE_KEEP_TWO.seen, DealingStyle.CLOSED.closed
    (17, True)
    """

    #: Classic OFC: five cards, then one at a time.
    ONE_AT_A_TIME = "one-at-a-time"
    #: Pineapple: five cards, then four rounds of three, keeping two.
    THREE_KEEP_TWO = "three-keep-two"
    #: Classic Chinese Poker: all 13 cards at once, set face down.
    CLOSED = "closed"

    @property
    def streets(self) -> tuple[tuple[int, int], ...]:
        """Each decision of an ordinary hand in order, as (cards dealt, cards kept)."""
        return _STREETS[self]

    @property
    def seen(self) -> int:
        """The cards a player sees in an ordinary hand: the 13 placed and the discards."""
        return sum(dealt for dealt, _ in self.streets)

    @property
    def closed(self) -> bool:
        """Whether a hand is dealt whole and set at once: no streets to play or advise on,
        so the opponents' hands are set by the closed-hand model, not played by the bot."""
        return len(self.streets) == 1


_STREETS = {DealingStyle.ONE_AT_A_TIME: ((5, 5),) + ((1, 1),) * 8,
            DealingStyle.THREE_KEEP_TWO: ((5, 5),) + ((3, 2),) * 4,
            DealingStyle.CLOSED: ((13, 13),)}
#: The worth of each Fantasyland card beyond the repeat size, where the rules give no worth
#: of an entry of that size: about what `fantasyland value` measures a card
#: (docs/fantasyland-value.md: 13.7, 18.5, 24.2 and 31.8 for 14 to 17 in progressive).
CARD_WORTH = 5.5


@dataclass(frozen=True)
class EntryValue:
    """The worth of entering Fantasyland with ``cards`` cards, in the objective's points
    (from one opponent under ev), and where it comes from: ``"rules"`` (``entry_value``),
    ``"repeat"`` (a size that repeats as itself is worth its ``repeat_value``: the same
    run), or ``"estimate"`` (the repeat's worth plus ``CARD_WORTH`` a card beyond it)."""

    cards: int
    value: float
    source: str


#: The cached tables of ``Rules``, derived from its fields and left out of a pickle.
_DERIVED = frozenset({"_royalty_tables", "_stay_tables", "_qualify_tables"})


@dataclass(frozen=True, repr=False)
class Rules:
    """Everything a variant decides. Build one with ``find_rules`` or
    ``load_rules`` (``evaluator.rules_files``)."""

    name: str
    description: str
    scales: tuple[tuple[str, Scale], ...]
    order: tuple[str, ...]
    qualify: tuple[Requirement, ...]
    royalties: tuple[tuple[str, tuple[tuple[HandSpec, int], ...]], ...]
    entry: tuple[EntryRung, ...]
    stay: tuple[Requirement, ...]
    repeat_cards: int | None  # None: a repeat deals as many cards as the hand that stayed
    scoring: Scoring = field(default_factory=Scoring)
    # The estimated worth of staying, by the size of the hand that stays (``repeat_values``,
    # where it differs from ``repeat_value``, as in ``ultimate``): the default fl_value.
    # In royalty points for the royalties objective; for the ev objective (``ev_...``) in
    # points won at the table from one opponent, None where the rules do not give it.
    # A table by size lists every size in ``dealt_counts`` (a rules file that leaves one out
    # is refused); ``repeat_value`` is then its smallest size's, for a count never dealt.
    repeat_value: float = 0.0
    repeat_values: tuple[tuple[int, float], ...] = ()
    ev_repeat_value: float | None = None
    ev_repeat_values: tuple[tuple[int, float], ...] = ()
    # The worth of entering Fantasyland by the cards the entry deals (``entry_value``, and
    # ``ev_entry_value`` for the ev objective): ``W(n)`` of `fantasyland value`, where a size
    # does not repeat as itself (progressive's 15 to 17); see ``entry_value``.
    entry_values: tuple[tuple[int, float], ...] = ()
    ev_entry_values: tuple[tuple[int, float], ...] = ()
    # How ordinary (non-Fantasyland) hands are dealt. The opponent model plays opponents'
    # hands this way, or under ``closed`` dealing sets them whole.
    dealing: DealingStyle = DealingStyle.ONE_AT_A_TIME
    aliases: tuple[str, ...] = ()
    # The mean royalties a board (a foul counting 0, in these rules' points) that the EV
    # objective's opponent model is weighted to, their foul and entry rates held; None: the
    # opponent boards as the bot played them (docs/ev-and-opponents.md, "Calibration").
    opponent_royalties: float | None = None
    # What is dealt: how many decks, how many jokers, and whether five of a kind exists.
    deck: Deck = ONE_DECK
    # Classic Chinese Poker's settlement beyond the pairs: naturals, surrender, the sweep.
    showdown: Showdown = Showdown()
    # The players at the table when nothing says otherwise (``[table] players``): the
    # default ``--opponents`` is one less. Heads-up in OFC; four in classic Chinese Poker.
    players: int = 2
    # Whether the row royalties are the bonuses of classic Chinese Poker (``[bonuses]`` in a
    # rules file: units for winning a row with a hand, paid by the player who loses it).
    bonuses: bool = False
    # What the output calls one payment ("point"; "unit" in classic Chinese Poker): a word,
    # not part of what the rules decide.
    unit: str = field(default="point", compare=False)
    # Where these rules were read from (a rules file's name, or a preset's), for errors found
    # after loading to name it as load time's do; not part of what the rules decide.
    source: str = field(default="", compare=False)


    def __repr__(self) -> str:
        """The variant by name: its tables are what ``description`` and docs/rules.md say."""
        return f"<Rules {self.name!r}>"

    def __getstate__(self) -> dict[str, object]:
        """What a pickle keeps: the rules, not the tables derived from them, which a copy
        builds again on first use (they are most of a pickle's 350 KB: a worker's job, a
        game kept between the browser's requests)."""
        return {name: value for name, value in self.__dict__.items()
                if name not in _DERIVED}

    def scale(self, row: str) -> Scale:
        return dict(self.scales)[row]

    def scale_size(self, row: str) -> int:
        return NUM_STRENGTHS if self.scale(row) is Scale.HIGH else NUM_LOW

    @cached_property
    def _royalty_tables(self) -> dict[str, np.ndarray]:
        tables = {}
        for row, entries in self.royalties:
            table = np.zeros(self.scale_size(row), dtype=np.int64)
            # The highest threshold a hand meets decides its royalty.
            for spec, points in sorted(entries, key=lambda e: e[0].threshold(self.scale(row))):
                table[spec.threshold(self.scale(row)):] = points
            if self.scale(row) is Scale.HIGH and not any(
                    spec.cls == FIVE_OF_A_KIND for spec, _ in entries):
                # Five of a kind pays as the row's straight flush unless the file says.
                flush = parse_spec("straight flush").threshold(Scale.HIGH)
                table[parse_spec("five of a kind").threshold(Scale.HIGH):] = table[flush]
            table.flags.writeable = False
            tables[row] = table
        return tables

    def royalty_table(self, row: str) -> np.ndarray:
        """Royalty of every value on ``row``'s scale."""
        return self._royalty_tables[row]

    def meets(self, requirement: Requirement, value: int) -> bool:
        """Whether a value on the requirement's row scale holds at least its hand."""
        return value >= requirement.spec.threshold(self.scale(requirement.row))

    def _meets_table(self, requirements: tuple[Requirement, ...], row: str) -> np.ndarray:
        table = np.zeros(self.scale_size(row), dtype=bool)
        for requirement in requirements:
            if requirement.row == row:
                table[requirement.spec.threshold(self.scale(row)):] = True
        table.flags.writeable = False
        return table

    @cached_property
    def _stay_tables(self) -> dict[str, np.ndarray]:
        # Rules without an entry have no Fantasyland, so nothing stays in one: a house file
        # with ``entry = []`` drops its base's ``stay`` with it.
        stay = self.stay if self.entry else ()
        return {row: self._meets_table(stay, row) for row in ROWS}

    def stay_table(self, row: str) -> np.ndarray:
        """True for every value on ``row``'s scale that keeps the player in Fantasyland."""
        return self._stay_tables[row]

    @cached_property
    def _qualify_tables(self) -> dict[str, np.ndarray]:
        tables = {}
        for row in ROWS:
            if any(q.row == row for q in self.qualify):
                tables[row] = self._meets_table(self.qualify, row)
            else:
                tables[row] = np.ones(self.scale_size(row), dtype=bool)
        return tables

    def qualify_table(self, row: str) -> np.ndarray:
        """False for every value on ``row``'s scale that fouls the set by itself."""
        return self._qualify_tables[row]

    @property
    def order_pairs(self) -> tuple[tuple[str, str], ...]:
        """(stronger, weaker) row pairs that must hold on the high scale."""
        return tuple(zip(self.order, self.order[1:]))

    @property
    def pays_royalties(self) -> bool:
        """Whether any row pays a royalty (or, under ``bonuses``, a bonus) at all: classic
        Chinese Poker's base game pays none."""
        return any(self.royalty_table(row).any() for row in ROWS)

    @property
    def dealt_counts(self) -> tuple[int, ...]:
        """Every Fantasyland size this variant deals, on entry or on a repeat: none without
        an entry (classic Chinese Poker), whatever its ``repeat_cards``."""
        if not self.entry:
            return ()
        counts = {rung.cards for rung in self.entry}
        if self.repeat_cards is not None:
            counts.add(self.repeat_cards)
        return tuple(sorted(counts))

    @cached_property
    def fingerprint(self) -> str:
        """A digest of what the rules decide (each row's scale, royalty, qualify and stay
        tables, the foul order, the entries, repeats, scoring, dealing, worths of staying,
        the opponents' royalties and the deck), not of how a file spells it: ``"qq"`` for ``"QQ"``,
        or royalty keys in another order, leave it as it is; any change to a table changes
        it."""
        import hashlib  # here: only a batch's resume check needs it, not every start-up

        digest = hashlib.sha256()
        for row in ROWS:
            digest.update(f"{row}:{self.scale(row).value}".encode())
            for table in (self.royalty_table(row), self.qualify_table(row),
                          self.stay_table(row)):
                digest.update(np.ascontiguousarray(table, dtype=np.int64).tobytes())
        # rows and the dealing by their values, as the strings they were before their types
        entries = [(sorted((str(req.row), req.spec.threshold(self.scale(req.row)))
                           for req in rung.requires), rung.cards) for rung in self.entry]
        order = tuple(map(str, self.order))
        digest.update(repr((order, sorted(entries), self.repeat_cards, self.scoring,
                            self.dealing.value, self.repeat_value, self.repeat_values,
                            self.ev_repeat_value, self.ev_repeat_values,
                            self.opponent_royalties)).encode())
        if self.deck != ONE_DECK:  # (one deck adds nothing, so older digests still match)
            digest.update(repr(self.deck).encode())
        if self.entry_values or self.ev_entry_values:  # (the same)
            digest.update(repr((self.entry_values, self.ev_entry_values)).encode())
        if self.showdown != Showdown() or self.bonuses or self.players != 2:  # (the same)
            digest.update(repr((self.showdown, self.bonuses, self.players)).encode())
        return digest.hexdigest()[:16]

    @property
    def seats(self) -> int:
        """The most players a table of these rules seats: the deck must hold the cards of
        every player, each of whom may see as many as an ordinary hand or the largest
        Fantasyland deals. So 4 for classic OFC, 3 for Pineapple, 6 from two decks."""
        most = max(self.dealing.seen, *self.dealt_counts, 13)
        return len(self.deck.cards) // most

    def repeat_cards_after(self, dealt: int) -> int:
        return dealt if self.repeat_cards is None else self.repeat_cards

    def repeat_value_after(self, dealt: int) -> float:
        """The worth of staying in Fantasyland from a hand of ``dealt`` cards, in royalty
        points. A count the variant never deals (a what-if) takes the smallest size's."""
        return dict(self.repeat_values).get(dealt, self.repeat_value)

    def ev_repeat_value_after(self, dealt: int) -> float:
        """The same in points won at the table from one opponent. Where the rules do not
        give it, the worth in royalty points stands in: the same order of size, though the
        presets show they can differ by a third (docs/fantasyland-value.md)."""
        if self.ev_repeat_value is None:
            return self.repeat_value_after(dealt)
        return dict(self.ev_repeat_values).get(dealt, self.ev_repeat_value)

    def entry_value(self, cards: int, ev: bool, *, card_worth: float = CARD_WORTH) -> EntryValue:
        """The worth of entering Fantasyland with ``cards`` cards (``EntryValue``): the rules'
        ``entry_value`` (``ev_entry_value`` under ev) where they give it; else, for a size
        that repeats as itself, the worth of staying at that size, which is the same run;
        else the worth of the repeat it leads to plus ``card_worth`` a card beyond it."""
        given = dict(self.ev_entry_values if ev else self.entry_values)
        if cards in given:
            return EntryValue(cards, given[cards], "rules")
        repeat = self.repeat_cards_after(cards)
        worth = self.ev_repeat_value_after(repeat) if ev else self.repeat_value_after(repeat)
        if repeat == cards:
            return EntryValue(cards, worth, "repeat")
        return EntryValue(cards, worth + card_worth * max(cards - repeat, 0), "estimate")

    @property
    def entry_sizes(self) -> tuple[int, ...]:
        """The card counts a Fantasyland entry deals, smallest first."""
        return tuple(sorted({rung.cards for rung in self.entry}))

