"""docs/rules.md states the rules the presets hold: its tables are the presets' own.

The page's tables (the presets at a glance, the royalty tables, Fantasyland entry and stay)
are rendered here from ``find_rules`` and must appear in the page as they are, so a preset
that changes without the page, or a page edited by hand, fails. Its examples are
``fantasyland score`` transcripts, which tests/test_docs.py runs. To redraw a table after a
preset changes: ``python tests/test_rules_page.py`` prints them all.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fantasyland.evaluator import find_rules, parse_spec, preset_names
from fantasyland.evaluator.cards import RANK_CHARS
from fantasyland.evaluator.handspec import Scale
from fantasyland.evaluator.rules import ROWS, Rules, Scoring

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
#: The presets in the page's order: every preset, each once.
PRESETS = ("standard", "pineapple", "progressive", "ultimate", "deuce", "pineapple-joker",
           "progressive-joker", "double-deck", "chinese")
#: The 5-card hands the middle and bottom tables list, weakest first.
FIVE_CARD_HANDS = ("trips", "straight", "flush", "full house", "quads", "straight flush",
                   "royal flush", "five of a kind")
#: The 2-7 middle's hands, weakest first.
LOWBALL_HANDS = ("T-high", "9-high", "8-high", "7-high", "75432")
DEALING = {"one-at-a-time": "5 cards, then 1 at a time (13 seen)",
           "three-keep-two": "5 cards, then four rounds of 3 keeping 2 (17 seen)",
           "closed": "13 cards at once, set face down"}


def royalty(rules: Rules, row: str, spec: str) -> int:
    """The royalty of the weakest hand a spec names on ``row``: what every hand of it earns
    up to the next listed hand."""
    return int(rules.royalty_table(row)[parse_spec(spec).threshold(rules.scale(row))])


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def presets_table() -> str:
    rows = []
    for name in PRESETS:
        rules = find_rules(name)
        deck = rules.deck
        cards = f"{len(deck.cards)}: " + (
            "two decks" if deck.decks == 2 else "one deck") + (
            f" and {deck.jokers} jokers" if deck.jokers else "")
        rows.append([f"`{name}`", cards, DEALING[rules.dealing], str(rules.seats)])
    return table(["preset", "cards in the deck", "an ordinary hand", "seats"], rows)


def top_table() -> str:
    rules = find_rules("standard")
    pairs = [(r * 2, royalty(rules, "top", r * 2)) for r in RANK_CHARS]
    pairs = [(hand, points) for hand, points in pairs if points]
    trips = [(r * 3, royalty(rules, "top", r * 3)) for r in RANK_CHARS]
    rows = []
    for i, (hand, points) in enumerate(trips):
        pair = [f"`{pairs[i][0]}`", str(pairs[i][1])] if i < len(pairs) else ["", ""]
        rows.append(pair + [f"`{hand}`", str(points)])
    return table(["top pair", "royalty", "top trips", "royalty"], rows)


def five_card_table() -> str:
    rules = find_rules("standard")
    rows = [[hand, str(royalty(rules, "middle", hand)), str(royalty(rules, "bottom", hand))]
            for hand in FIVE_CARD_HANDS]
    return table(["hand", "middle", "bottom"], rows)


def lowball_table() -> str:
    rules = find_rules("deuce")
    return table(["2-7 middle", "royalty"],
                 [[f"`{hand}`", str(royalty(rules, "middle", hand))] for hand in LOWBALL_HANDS])


def fantasyland_table() -> str:
    rows = []
    for name in PRESETS:
        rules = find_rules(name)
        if not rules.entry:
            rows.append([f"`{name}`", "no Fantasyland", "", ""])
            continue
        entry = "; ".join(" and ".join(str(req) for req in rung.requires) + f": {rung.cards}"
                          for rung in rules.entry)
        stay = "; ".join(str(req) for req in rules.stay)
        repeat = (str(rules.repeat_cards) if rules.repeat_cards is not None
                  else "as many as the hand that stayed")
        rows.append([f"`{name}`", entry, stay, repeat])
    return table(["preset", "enters with: cards", "stays with any of", "a repeat deals"], rows)


TABLES = {"presets": presets_table, "top": top_table, "middle and bottom": five_card_table,
          "2-7 middle": lowball_table, "Fantasyland": fantasyland_table}


def test_the_page_lists_every_preset_once():
    assert sorted(PRESETS) == sorted(preset_names())


@pytest.mark.parametrize("name", TABLES)
def test_the_page_shows_the_presets_table(name):
    assert TABLES[name]() in PAGE.read_text(encoding="utf-8"), (
        f"docs/rules.md does not show the {name} table as the presets hold it; "
        "`python tests/test_rules_page.py` prints it")


def test_every_preset_but_deuces_middle_pays_the_standard_tables_or_none():
    """What the page says of the royalty tables: one set of tables for every OFC preset,
    2-7's own middle, and classic Chinese Poker none."""
    standard = find_rules("standard")
    different = set()
    for name in PRESETS:
        rules = find_rules(name)
        for row in ROWS:
            ours = rules.royalty_table(row)
            if not ours.any():
                different.add((name, "none"))
            elif not np.array_equal(ours, standard.royalty_table(row)):
                different.add((name, row))
    assert different == {("deuce", "middle"), ("chinese", "none")}


def test_every_ofc_preset_scores_1_6_and_chinese_per_hand():
    for name in PRESETS:
        rules = find_rules(name)
        expected = Scoring(0, 0) if name == "chinese" else Scoring(3, 0)
        assert rules.scoring == expected, name
        assert (rules.showdown.surrender == 3) == (name == "chinese"), name


def test_the_deuce_middle_is_lowball_and_the_other_rows_high():
    scales = {(name, row): find_rules(name).scale(row) for name in PRESETS for row in ROWS}
    assert {key for key, scale in scales.items() if scale is not Scale.HIGH} == {
        ("deuce", "middle")}


if __name__ == "__main__":
    print("\n\n".join(render() for render in TABLES.values()))
