"""Reading rules: the preset registry and rules files in TOML.

Presets ship as TOML files in ``evaluator/presets/``; a house-rules file has the same form and
may start from a preset with ``base = "pineapple"``. The file format is documented in
docs/rules-files.md.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from fantasyland.evaluator.cards import Deck
from fantasyland.evaluator.handspec import HandSpec, HandSpecError, Scale, parse_spec
from fantasyland.evaluator.naturals import DETECTORS, Natural, Schedule, detector_name
from fantasyland.evaluator.user_files import FileError, read_file
from fantasyland.evaluator.rules import (
    ROW_SIZE,
    ROWS,
    Row,
    SCORING_SYSTEMS,
    EntryRung,
    Requirement,
    Rules,
    RulesError,
    DealingStyle,
    Scoring,
    Showdown,
)

#: The most points a rules file may give a figure (a worth of staying); ``--fl-value``, the
#: same figure on the command line, has the same bound.
MAX_POINTS = 1000

# --- checking a document -------------------------------------------------------------------

_TOP_KEYS = {"name", "aliases", "description", "base", "dealing", "deck", "rows", "foul",
             "royalties", "bonuses", "fantasyland", "scoring", "naturals", "opponents",
             "table"}
_SECTION_KEYS = {
    "rows": set(ROWS),
    "foul": {"order", "qualify"},
    "royalties": set(ROWS),
    "bonuses": set(ROWS),
    "fantasyland": {"entry", "stay", "repeat_cards", "repeat_value", "ev_repeat_value",
                    "entry_value", "ev_entry_value"},
    "scoring": {"system", "scoop_bonus", "majority_bonus", "royalties_to_row_winner_only",
                "sweep_bonus", "surrender", "unit"},
    "naturals": {"hands", "between"},
    "table": {"players"},
    "opponents": {"mean_royalties"},
    "deck": {"decks", "jokers", "five_of_a_kind"},
}


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """A rules document over its base: each key of a section replaces the base's key."""
    merged = copy.deepcopy(base)
    for key in ("name", "aliases", "description"):
        merged.pop(key, None)
    for key, value in override.items():
        if key in _SECTION_KEYS and isinstance(value, dict):
            merged.setdefault(key, {}).update(copy.deepcopy(value))
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _spec(value: Any, where: str, row: str, scale: Scale) -> HandSpec:
    """The hand ``value`` names, bound to ``row``: a hand the row can never make is refused
    here, for royalty tables, qualify, entry and stay alike."""
    if not isinstance(value, str):
        raise RulesError(f"{where}: expected a hand in quotes such as \"QQ\", got {value!r}")
    try:
        spec = parse_spec(value)
        spec.threshold(scale)  # a spec can parse yet name no hand on the row's scale
    except HandSpecError as error:
        raise RulesError(f"{where}: {error}") from None
    counts = spec.row_sizes(scale)
    if ROW_SIZE[row] not in counts:  # as "or better" it would pay for other hands, or never
        raise RulesError(f"{where}: the {row} row holds {ROW_SIZE[row]} cards, so it can never "
                         f"make {spec.text!r}, a {counts[0]}-card hand")
    return spec


def _row(value: Any, where: str) -> Row:
    if value not in ROWS:
        raise RulesError(f"{where}: unknown row {value!r}; expected top, middle or bottom")
    return Row(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RulesError(f"{where}: expected text in quotes, got {value!r}")
    return value


def _int(value: Any, where: str, low: int = 0, high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{where}: expected a whole number from {low} to {high}, got {value!r}")
    return value


def _requirements(table: Any, where: str,
                  scales: dict[str, Scale]) -> tuple[Requirement, ...]:
    if not isinstance(table, dict):
        raise RulesError(f"{where}: expected a table of row = hand, got {table!r}")
    return tuple(Requirement(_row(row, f"{where}.{row}"),
                             _spec(spec, f"{where}.{row}", row, scales[row]))
                 for row, spec in table.items())


def _check_keys(doc: dict[str, Any], source: str) -> None:
    for key, value in doc.items():
        if key not in _TOP_KEYS:
            raise RulesError(f"{source}: unknown key {key!r}; expected one of "
                             + ", ".join(sorted(_TOP_KEYS)))
        if key in _SECTION_KEYS:
            if not isinstance(value, dict):
                raise RulesError(f"{source}: [{key}] must be a table, got {value!r}")
            for sub in value:
                if sub not in _SECTION_KEYS[key]:
                    raise RulesError(f"{source}: unknown key '{key}.{sub}'; expected one of "
                                     + ", ".join(sorted(_SECTION_KEYS[key])))


def _scales(doc: dict[str, Any], source: str) -> tuple[tuple[str, Scale], ...]:
    scales = []
    for row in ROWS:
        value = doc.get("rows", {}).get(row, "high")
        try:
            scales.append((row, Scale(value)))
        except ValueError:
            raise RulesError(f"{source}: rows.{row}: unknown scale {value!r}; expected "
                             + " or ".join(repr(s.value) for s in Scale)) from None
    if dict(scales)[Row.TOP] is not Scale.HIGH:
        raise RulesError(f"{source}: rows.top: a 3-card top row is ranked high only")
    return tuple(scales)


def _order(doc: dict[str, Any], scales: dict[str, Scale], source: str) -> tuple[str, ...]:
    order = doc.get("foul", {}).get("order", list(map(str, ROWS[::-1])))
    if not isinstance(order, list):
        raise RulesError(f"{source}: foul.order must be a list of rows, strongest first")
    rows = tuple(_row(r, f"{source}: foul.order") for r in order)
    if len(set(rows)) != len(rows):
        raise RulesError(f"{source}: foul.order names a row twice: {order!r}")
    for row in rows:
        if len(rows) > 1 and scales[row] is not Scale.HIGH:
            raise RulesError(f"{source}: foul.order: the {row} row is ranked "
                             f"{scales[row].value}, so it cannot be ordered against others; "
                             "give it a foul.qualify hand instead")
    return rows


def _royalties(doc: dict[str, Any], source: str, scales: dict[str, Scale],
               ) -> tuple[tuple[str, tuple[tuple[HandSpec, int], ...]], ...]:
    """Each row's royalty table; ``[bonuses]`` tables become royalties paid to the row's
    winner only, less the 1 unit every row won pays (``_bonuses``)."""
    key = "bonuses" if _bonuses(doc, source) else "royalties"
    tables = []
    for row in ROWS:
        table = doc.get(key, {}).get(row, {})
        if not isinstance(table, dict):
            raise RulesError(f"{source}: {key}.{row} must be a table of hand = "
                             f"{'units' if key == 'bonuses' else 'points'}, got {table!r}")
        low = 1 if key == "bonuses" else 0
        entries = tuple(
            (_spec(spec, f"{source}: {key}.{row}.{spec}", row, scales[row]),
             _int(points, f"{source}: {key}.{row}.{spec}", low) - low)
            for spec, points in table.items())
        tables.append((row, entries))
    return tuple(tables)


def _bonuses(doc: dict[str, Any], source: str) -> bool:
    """Whether the rules pay classic Chinese Poker's bonuses: ``[bonuses.ROW]`` tables of
    hand = the units a row won with that hand (or better) pays instead of 1, paid only by
    the player who loses the row. They are royalties paid to the row's winner only, so a
    file gives bonuses or royalties, not both."""
    if not doc.get("bonuses"):
        return False
    if any(doc.get("royalties", {}).values()):
        raise RulesError(f"{source}: [bonuses] and [royalties] both given; expected one: "
                         "bonuses are royalties paid only by the player who loses the row")
    if doc.get("scoring", {}).get("royalties_to_row_winner_only") is False:
        raise RulesError(f"{source}: [bonuses] with scoring.royalties_to_row_winner_only = "
                         "false; a bonus is paid only by the player who loses the row")
    return True


def _tables(value: Any, where: str, what: str, example: str,
            fits: Callable[[dict[str, Any]], bool]) -> list[tuple[str, dict[str, Any]]]:
    """The tables of a key that holds a list of them (``[{ top = "QQ", cards = 14 }]``),
    each with where it is in the file; refused unless ``value`` is ``what`` and each table
    ``fits``, the message showing ``example``."""
    if not isinstance(value, list):
        raise RulesError(f"{where}: expected {what} such as [{example}], got {value!r}")
    tables = []
    for i, table in enumerate(value):
        if not isinstance(table, dict) or not fits(table):
            raise RulesError(f"{where}[{i}]: expected {example}, got {table!r}")
        tables.append((f"{where}[{i}]", table))
    return tables


def _fantasyland(doc: dict[str, Any], source: str, scales: dict[str, Scale],
                 ) -> tuple[tuple[EntryRung, ...], tuple[Requirement, ...], int | None]:
    fl = doc.get("fantasyland", {})
    entry = []
    for where, rung in _tables(fl.get("entry", []), f"{source}: fantasyland.entry",
                               "a list of rungs", '{ top = "QQ", cards = 14 }',
                               lambda rung: "cards" in rung):
        rest = {k: v for k, v in rung.items() if k != "cards"}
        entry.append(EntryRung(_requirements(rest, where, scales),
                               _int(rung["cards"], f"{where}.cards", 13, 17)))
    stay = _requirements(fl.get("stay", {}), f"{source}: fantasyland.stay", scales)
    repeat = fl.get("repeat_cards", 13)
    if repeat != "same" and (isinstance(repeat, bool) or not isinstance(repeat, int)
                             or not 13 <= repeat <= 17):
        raise RulesError(f"{source}: fantasyland.repeat_cards: expected a whole number from "
                         f"13 to 17 or \"same\", got {repeat!r}")
    return tuple(entry), stay, None if repeat == "same" else repeat


def _scoring(doc: dict[str, Any], source: str) -> Scoring:
    section = dict(doc.get("scoring", {}))
    system = section.pop("system", "1-6")
    if not isinstance(system, str) or system not in SCORING_SYSTEMS:
        raise RulesError(f"{source}: scoring.system: unknown system {system!r}; expected "
                         + " or ".join(map(repr, SCORING_SYSTEMS)))
    base = SCORING_SYSTEMS[system]
    winner_only = section.get("royalties_to_row_winner_only", False)
    if not isinstance(winner_only, bool):
        raise RulesError(f"{source}: scoring.royalties_to_row_winner_only: expected true or "
                         f"false, got {winner_only!r}")
    return Scoring(
        _int(section.get("scoop_bonus", base.scoop_bonus), f"{source}: scoring.scoop_bonus"),
        _int(section.get("majority_bonus", base.majority_bonus),
             f"{source}: scoring.majority_bonus"),
        winner_only or _bonuses(doc, source))


def _unit(doc: dict[str, Any], source: str) -> str:
    """``scoring.unit``: what the output calls one of the table's payments, in the
    singular ("point", the default; "unit" in classic Chinese Poker)."""
    unit = _text(doc.get("scoring", {}).get("unit", "point"), f"{source}: scoring.unit")
    if not unit.isalpha():
        raise RulesError(f"{source}: scoring.unit: expected one word in the singular, such as "
                         f"\"point\" or \"unit\", got {unit!r}")
    return unit


def _players(doc: dict[str, Any], source: str) -> int:
    """``[table] players``: the players at the table by default (2 to 6)."""
    return _int(doc.get("table", {}).get("players", 2), f"{source}: table.players", 2, 6)


def _showdown(doc: dict[str, Any], source: str) -> Showdown:
    """Naturals, surrender and the sweep (``Showdown``)."""
    scoring = doc.get("scoring", {})
    surrender = scoring.get("surrender")
    if surrender is not None:
        surrender = _int(surrender, f"{source}: scoring.surrender", 0, MAX_POINTS)
    sweep = _int(scoring.get("sweep_bonus", 0), f"{source}: scoring.sweep_bonus", 0, MAX_POINTS)
    section = doc.get("naturals", {})
    between = section.get("between", "higher")
    if between not in ("higher", "difference"):
        raise RulesError(f"{source}: naturals.between: expected \"higher\" (the higher "
                         f"natural wins its value) or \"difference\" (the difference of the "
                         f"values), got {between!r}")
    naturals: list[Natural] = []
    for where, entry in _tables(section.get("hands", []), f"{source}: naturals.hands",
                                "a list, lowest first,", '{ hand = "six pairs", value = 3 }',
                                lambda entry: set(entry) == {"hand", "value"}):
        name = detector_name(_text(entry["hand"], f"{where}.hand"))
        if name is None:
            raise RulesError(f"{where}.hand: unknown natural {entry['hand']!r}; expected one "
                             "of " + ", ".join(DETECTORS))
        if any(n.name == name for n in naturals):
            raise RulesError(f"{where}.hand: {entry['hand']!r} is in the schedule twice")
        naturals.append(Natural(name, _int(entry["value"], f"{where}.value", 1, MAX_POINTS)))
    return Showdown(Schedule(tuple(naturals), between), surrender, sweep)


def _points(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 0 <= value <= MAX_POINTS:
        raise RulesError(f"{where}: expected points from 0 to {MAX_POINTS}, got {value!r}")
    return float(value)


def _repeat_value(doc: dict[str, Any], source: str,
                  key: str) -> tuple[float | None, tuple[tuple[int, float], ...]]:
    """``repeat_value`` (or ``ev_repeat_value``): points, or a table of points by the size of
    the hand that stays; None where the rules do not give it. The points stand for every size
    a table leaves out (only sizes the rules never deal: see ``_check_sizes``)."""
    where = f"{source}: fantasyland.{key}"
    value = doc.get("fantasyland", {}).get(key)
    if value is None:
        return None, ()
    if not isinstance(value, dict):
        return _points(value, where), ()
    by_size = {}
    for size, points in value.items():
        if not str(size).isdigit() or not 13 <= int(size) <= 17:
            raise RulesError(f"{where}.{size}: expected a card count from 13 to 17")
        by_size[int(size)] = _points(points, f"{where}.{size}")
    if not by_size:
        raise RulesError(f"{where}: expected points or a table such as {{ 14 = 13.7 }}")
    return by_size[min(by_size)], tuple(sorted(by_size.items()))


def _entry_values(doc: dict[str, Any], source: str, key: str,
                  entry: tuple[EntryRung, ...]) -> tuple[tuple[int, float], ...]:
    """``entry_value`` (or ``ev_entry_value``): the worth of entering Fantasyland, as a table
    of points by the cards the entry deals (13 to 17). Sizes no rung of ``entry`` deals are
    left out: a house file that changes the entries of its base keeps the base's table."""
    where = f"{source}: fantasyland.{key}"
    value = doc.get("fantasyland", {}).get(key)
    if value is None:
        return ()
    if not isinstance(value, dict) or not value:
        raise RulesError(f"{where}: expected a table of points by entry size, such as "
                         f"{{ 15 = 18.5 }}, got {value!r}")
    sizes = {rung.cards for rung in entry}
    by_size = {}
    for size, points in value.items():
        if not str(size).isdigit() or not 13 <= int(size) <= 17:
            raise RulesError(f"{where}.{size}: expected a card count from 13 to 17")
        if int(size) in sizes:
            by_size[int(size)] = _points(points, f"{where}.{size}")
    return tuple(sorted(by_size.items()))


def _opponent_royalties(doc: dict[str, Any], source: str) -> float | None:
    """``opponents.mean_royalties``: the royalties the opponent model is weighted to, or
    ``false`` (the default) for the boards as the bot played them."""
    value = doc.get("opponents", {}).get("mean_royalties", False)
    if value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 0 < value <= 100:
        raise RulesError(f"{source}: opponents.mean_royalties: expected royalties a board "
                         f"above 0 and at most 100, or false, got {value!r}")
    return float(value)


def _deck(doc: dict[str, Any], source: str) -> Deck:
    table = doc.get("deck", {})
    decks = table.get("decks", 1)
    if isinstance(decks, bool) or decks not in (1, 2):
        raise RulesError(f"{source}: deck.decks: expected 1 (52 cards) or 2 (104), got {decks!r}")
    jokers = table.get("jokers", 0)
    if isinstance(jokers, bool) or jokers not in (0, 1, 2):
        raise RulesError(f"{source}: deck.jokers: expected 0, 1 or 2, got {jokers!r}")
    five = table.get("five_of_a_kind", decks == 2)
    if not isinstance(five, bool):
        raise RulesError(f"{source}: deck.five_of_a_kind: expected true or false, got {five!r}")
    if decks == 2 and not five:
        raise RulesError(f"{source}: deck.five_of_a_kind = false with two decks, which deal "
                         "five of a kind (five aces are in the deck); expected true, and a "
                         "royalty for it in [royalties] if it should not pay as a straight "
                         "flush")
    return Deck(decks, jokers, five)


def _check_sizes(rules: Rules, source: str) -> None:
    """A worth of staying given by size must give it for every size the rules deal: a hand
    of a size the table left out would otherwise be worth some other size's."""
    for key, table in (("repeat_value", rules.repeat_values),
                       ("ev_repeat_value", rules.ev_repeat_values)):
        missing = [str(n) for n in rules.dealt_counts if table and n not in dict(table)]
        if missing:
            raise RulesError(f"{source}: fantasyland.{key}: no worth given for "
                             f"{', '.join(missing)} cards, which these rules deal in "
                             "Fantasyland; expected one for each of "
                             + ", ".join(map(str, rules.dealt_counts)))


def rules_from_document(doc: dict[str, Any], *, source: str = "rules") -> Rules:
    """Build rules from a parsed TOML document (after any ``base`` has been merged in)."""
    _check_keys(doc, source)
    scales = _scales(doc, source)
    row_scales = dict(scales)
    order = _order(doc, row_scales, source)
    qualify = _requirements(doc.get("foul", {}).get("qualify", {}), f"{source}: foul.qualify",
                            row_scales)
    entry, stay, repeat = _fantasyland(doc, source, row_scales)
    repeat_value, repeat_values = _repeat_value(doc, source, "repeat_value")
    ev_repeat_value, ev_repeat_values = _repeat_value(doc, source, "ev_repeat_value")
    entry_values = _entry_values(doc, source, "entry_value", entry)
    ev_entry_values = _entry_values(doc, source, "ev_entry_value", entry)
    dealing = doc.get("dealing", DealingStyle.ONE_AT_A_TIME.value)
    if not isinstance(dealing, str) or dealing not in set(DealingStyle):
        raise RulesError(f"{source}: dealing: unknown style {dealing!r}; expected "
                         + " or ".join(repr(style.value) for style in DealingStyle))
    aliases = doc.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise RulesError(f"{source}: aliases must be a list of names, got {aliases!r}")
    rules = Rules(
        name=_text(doc.get("name", Path(source).stem), f"{source}: name"),
        description=_text(doc.get("description", ""), f"{source}: description"),
        scales=scales, order=order, qualify=qualify, royalties=_royalties(doc, source, row_scales),
        entry=entry, stay=stay, repeat_cards=repeat, scoring=_scoring(doc, source),
        aliases=tuple(aliases), repeat_value=repeat_value or 0.0, repeat_values=repeat_values,
        ev_repeat_value=ev_repeat_value, ev_repeat_values=ev_repeat_values,
        entry_values=entry_values, ev_entry_values=ev_entry_values, dealing=DealingStyle(dealing),
        opponent_royalties=_opponent_royalties(doc, source),
        deck=_deck(doc, source), showdown=_showdown(doc, source),
        bonuses=_bonuses(doc, source), players=_players(doc, source), source=source,
        unit=_unit(doc, source),
    )
    if rules.players > rules.seats:
        raise RulesError(f"{source}: table.players: {rules.players} players, but the deck "
                         f"seats {rules.seats} under these rules")
    _check_sizes(rules, source)
    for row in ROWS:  # resolve every spec now, so that a bad one fails at load time
        try:
            rules.royalty_table(row), rules.stay_table(row), rules.qualify_table(row)
        except HandSpecError as error:
            raise RulesError(f"{source}: {error}") from None
    return rules


def _read_text(path: Path | Traversable, shown: str) -> str:
    """The text of a rules file: TOML is UTF-8, so other bytes are refused with their line."""
    try:
        # the user's files through the one bounded reader; the presets are the package's own
        data = (read_file(path, "rules file", limit=MAX_RULES_BYTES) if isinstance(path, Path)
                else path.read_bytes())
    except FileError as error:
        raise RulesError(str(error)) from None
    except OSError as error:
        raise RulesError(f"cannot read rules file {shown!r}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RulesError(f"cannot read rules file {shown!r}: byte 0x{data[error.start]:02x} on "
                         f"line {line} is not UTF-8; expected a UTF-8 TOML file") from None


#: The most a rules file may hold, and the longest line: the presets take under 2 KB and 200
#: columns. tomllib's time grows with the square of a dotted key's length, so a bound on
#: the line is what keeps a hostile file (``x.a.a.a...``) to a second.
MAX_RULES_BYTES = 64 * 1024
MAX_RULES_LINE = 4096


def _read_toml(text: str, source: str) -> dict[str, Any]:
    if len(text) > MAX_RULES_BYTES:
        raise RulesError(f"{source}: {len(text):,} characters; expected a rules file of at "
                         f"most {MAX_RULES_BYTES:,}")
    longest = max(map(len, text.splitlines()), default=0)
    if longest > MAX_RULES_LINE:
        line = next(i for i, row in enumerate(text.splitlines(), 1) if len(row) == longest)
        raise RulesError(f"{source}: line {line} is {longest:,} characters long; expected "
                         f"lines of at most {MAX_RULES_LINE:,}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once a level: ``a = [[[[...`` runs out of stack
        raise RulesError(f"{source}: not valid TOML: arrays or tables nested too deeply; "
                         "expected a rules file") from None


def _resolve(doc: dict[str, Any], source: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    base = doc.get("base")
    if base is None:
        return doc
    if not isinstance(base, str):
        raise RulesError(f"{source}: base must be a preset name, got {base!r}")
    if base in seen:
        raise RulesError(f"{source}: base {base!r} refers back to itself")
    base_doc = _resolve(_preset_documents().get(_canonical(base), {}) or _unknown(base, source),
                        base, seen + (base,))
    merged = _merge(base_doc, {k: v for k, v in doc.items() if k != "base"})
    return merged


# --- the preset registry --------------------------------------------------------------------

def _preset_documents() -> dict[str, dict[str, Any]]:
    if not _PRESET_DOCS:
        # by name, so that "pineapple-joker" follows "pineapple" (the file names sort the
        # other way, "-" before ".")
        for entry in sorted(resources.files("fantasyland.evaluator.presets").iterdir(),
                            key=lambda p: p.name.removesuffix(".toml")):
            if entry.name.endswith(".toml"):
                doc = _read_toml(_read_text(entry, entry.name), entry.name)
                _PRESET_DOCS[doc.get("name", entry.name[:-5])] = doc
    return _PRESET_DOCS


_PRESET_DOCS: dict[str, dict[str, Any]] = {}
_PRESETS: dict[str, Rules] = {}


def _aliases() -> dict[str, str]:
    names = {}
    for name, doc in _preset_documents().items():
        names[name] = name
        for alias in doc.get("aliases", []):
            names[alias.lower()] = name
    return names


def _canonical(name: str) -> str:
    return _aliases().get(name.strip().lower(), name)


def _unknown(name: str, source: str | None = None) -> dict[str, Any]:
    where = f"{source}: base: " if source else ""  # a rules file's base, or find_rules' name
    raise RulesError(f"{where}unknown variant {name!r}: expected one of "
                     + ", ".join(preset_names()) + " or a path to a .toml rules file")


def preset_names() -> tuple[str, ...]:
    return tuple(_preset_documents())


def _check_not_empty(doc: dict[str, Any], source: str) -> None:
    """A file with neither a base nor a table of its own (``name = "x"`` alone) would be a
    game without royalties or Fantasyland, which is never what its author meant."""
    if "base" not in doc and not any(key in _SECTION_KEYS for key in doc):
        raise RulesError(f"{source}: it has no base and no tables; expected base = "
                         f"\"<preset>\" (one of {', '.join(preset_names())}) or tables of its "
                         "own ([royalties], [fantasyland], ...)")


def load_rules(path: str | Path) -> Rules:
    """Load a rules file (TOML); ``base = "preset"`` starts it from a preset. A file with no
    base and no tables is refused."""
    path = Path(path)
    doc = _read_toml(_read_text(path, str(path)), path.name)
    _check_keys(doc, path.name)
    _check_not_empty(doc, path.name)
    return rules_from_document(_resolve(doc, path.name) | {"name": doc.get("name", path.stem)},
                               source=path.name)


def rules_from_text(text: str, *, source: str = "rules") -> Rules:
    """A rules file given as its text (an upload, say), read as ``load_rules`` reads a file:
    the same checks and messages, each starting with ``source``.

    >>> rules_from_text('base = "pineapple"\\nname = "house"').name
    'house'
    >>> rules_from_text("base = ")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    fantasyland.evaluator.rules.RulesError: rules: not valid TOML: Invalid value
    (at end of document)
    """
    doc = _read_toml(text, source)
    _check_keys(doc, source)
    _check_not_empty(doc, source)
    return rules_from_document(_resolve(doc, source) | {"name": doc.get("name", source)},
                               source=source)


def find_preset(name: str) -> Rules:
    """A preset by name or alias, and never a file: for callers that must not read a path
    they were given (the web server).

    >>> find_preset("prog").name
    'progressive'
    >>> find_preset("house.toml")  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    fantasyland.evaluator.rules.RulesError: unknown variant 'house.toml': expected one of
    chinese, ..., ultimate
    """
    if _canonical(name) not in _preset_documents():
        raise RulesError(f"unknown variant {name!r}: expected one of "
                         + ", ".join(preset_names()))
    return find_rules(name)


def find_rules(name: str | Rules) -> Rules:
    """A preset by name or alias (``"pineapple"``, ``"prog"``), or a rules file by path.

    >>> find_rules("prog").name
    'progressive'
    >>> find_rules("holdem")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    fantasyland.evaluator.rules.RulesError: unknown variant 'holdem': expected one of chinese,
    deuce, double-deck, pineapple, pineapple-joker, progressive, progressive-joker, standard,
    ultimate or a path to a .toml rules file
    """
    if isinstance(name, Rules):
        return name
    canonical = _canonical(name)
    if canonical in _preset_documents():
        if canonical not in _PRESETS:
            doc = _preset_documents()[canonical]
            resolved = _resolve(doc, canonical) | {
                k: doc[k] for k in ("name", "aliases", "description") if k in doc}
            _PRESETS[canonical] = rules_from_document(resolved, source=canonical)
        return _PRESETS[canonical]
    if name.endswith(".toml") or Path(name).is_file():
        return load_rules(name)
    _unknown(name)
    raise AssertionError  # unreachable: _unknown raises
