"""Rules as data: the preset registry, rules files, and the house files in fixtures/house/."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pytest

import fantasyland.evaluator.rules_files
from fantasyland.evaluator.board import evaluate_board, row_values
from fantasyland.evaluator.cards import JOKER, Deck, parse_cards
from fantasyland.evaluator.handspec import Scale, parse_spec
from fantasyland.evaluator.rules import ROWS, Rules, RulesError, Scoring
from fantasyland.evaluator.rules_files import find_rules, load_rules, preset_names

HOUSE = Path(__file__).resolve().parent.parent / "fixtures" / "house"
PRESETS = ("chinese", "deuce", "double-deck", "pineapple", "pineapple-joker", "progressive",
           "progressive-joker", "standard", "ultimate")
PRESET_LIST = ", ".join(PRESETS)


# --- the registry --------------------------------------------------------------------------

def test_preset_names_are_the_variants_of_rules_md_in_order_of_name():
    # In order of name, not of file name: "pineapple-joker.toml" sorts before "pineapple.toml"
    assert preset_names() == PRESETS


@pytest.mark.parametrize("alias, name", [
    ("standard", "standard"), ("classic", "standard"), ("OFC", "standard"),
    ("pineapple", "pineapple"), ("regular", "pineapple"), ("pineapple-ofc", "pineapple"),
    ("prog", "progressive"), ("Progressive-Pineapple", "progressive"),
    ("ultimate", "ultimate"), ("ultimate-pineapple", "ultimate"),
    ("deuce", "deuce"), ("2-7", "deuce"), ("deuce-to-seven", "deuce"),
    ("2-7-pineapple", "deuce"), ("  prog  ", "progressive"),
    ("joker", "pineapple-joker"), ("Pineapple-Jokers", "pineapple-joker"),
    ("prog-joker", "progressive-joker"), ("double", "double-deck"),
    ("double-deck-pineapple", "double-deck"),
])
def test_find_rules_knows_every_alias(alias, name):
    assert find_rules(alias).name == name
    assert find_rules(alias) is find_rules(name)  # presets are built once


def test_find_rules_passes_rules_through():
    rules = find_rules("standard")
    assert find_rules(rules) is rules


def test_unknown_preset_error_names_it_and_lists_the_presets():
    with pytest.raises(RulesError, match="unknown variant 'holdem'") as raised:
        find_rules("holdem")
    for name in PRESETS:
        assert name in str(raised.value)


def test_find_rules_reads_a_file_by_path():
    assert find_rules(str(HOUSE / "scoring_2_4.toml")).name == "scoring_2_4"


def test_missing_rules_file_is_a_rules_error_naming_the_file(tmp_path):
    with pytest.raises(RulesError, match="cannot read rules file .*nowhere.toml"):
        find_rules(str(tmp_path / "nowhere.toml"))


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


# --- what each preset decides --------------------------------------------------------------

@pytest.mark.parametrize("name, counts", [
    ("standard", (13,)), ("pineapple", (14,)), ("progressive", (14, 15, 16, 17)),
    ("ultimate", (14, 15, 16, 17)), ("deuce", (14, 15)),
])
def test_dealt_counts_of_each_preset(name, counts):
    assert find_rules(name).dealt_counts == counts


@pytest.mark.parametrize("name, dealt, repeat", [
    ("standard", 13, 13), ("pineapple", 14, 14),
    ("progressive", 14, 14), ("progressive", 17, 14),
    ("ultimate", 14, 14), ("ultimate", 15, 15), ("ultimate", 16, 16), ("ultimate", 17, 17),
    ("deuce", 14, 14), ("deuce", 15, 14),
])
def test_repeat_cards_after_an_entry(name, dealt, repeat):
    assert find_rules(name).repeat_cards_after(dealt) == repeat


def test_ultimate_repeats_the_same_count():
    assert find_rules("ultimate").repeat_cards is None


def test_deuce_ranks_its_middle_deuce_to_seven_and_orders_only_bottom_over_top():
    rules = find_rules("deuce")
    assert [rules.scale(row) for row in ROWS] == [Scale.HIGH, Scale.DEUCE_TO_SEVEN, Scale.HIGH]
    assert rules.order_pairs == (("bottom", "top"),)
    assert [str(q) for q in rules.qualify] == ["T-high or better middle"]


def test_standard_order_is_bottom_over_middle_over_top():
    assert find_rules("standard").order_pairs == (("bottom", "middle"), ("middle", "top"))


def test_scoring_systems_and_foul_penalty():
    assert find_rules("standard").scoring == Scoring(3, 0, False)
    assert Scoring(3, 0).foul_penalty == 6   # 1-6: three rows and the scoop
    assert Scoring(0, 1).foul_penalty == 4   # 2-4: three rows and the majority


def test_every_ofc_preset_keeps_the_standard_top_and_bottom_royalties():
    standard = find_rules("standard")
    for name in PRESETS:
        if find_rules(name).dealing == "closed":  # classic Chinese Poker pays no royalties
            continue
        for row in ("top", "bottom"):
            assert (find_rules(name).royalty_table(row) == standard.royalty_table(row)).all()


def test_tables_are_read_only():
    with pytest.raises(ValueError):
        find_rules("standard").royalty_table("top")[0] = 99


# --- malformed rules files -----------------------------------------------------------------

def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text, message", [
    ('base = "standard"\ncolour = "red"\n', "unknown key 'colour'"),
    ('base = "standard"\n[royalties.center]\nflush = 4\n', "unknown key 'royalties.center'"),
    ('base = "standard"\n[fantasyland]\nrepeat = 14\n', "unknown key 'fantasyland.repeat'"),
    ('base = "standard"\n[scoring]\nscoop = 3\n', "unknown key 'scoring.scoop'"),
    ('base = "standard"\n[royalties.top]\nQX = 3\n', "royalties.top.QX: bad hand spec 'QX'"),
    ('base = "standard"\n[royalties.middle]\nA5432 = 3\n',
     "royalties.middle.A5432: hand spec 'A5432' names no hand"),
    ('base = "standard"\n[royalties.bottom]\nflush = "four"\n',
     "royalties.bottom.flush: expected a whole number .* got 'four'"),
    ('base = "standard"\n[royalties.bottom]\nflush = 4.5\n', "royalties.bottom.flush"),
    ('base = "standard"\n[royalties.bottom]\nflush = -4\n', "royalties.bottom.flush"),
    ('base = "standard"\n[royalties.bottom]\nflush = true\n', "royalties.bottom.flush"),
    ('base = "standard"\n[fantasyland]\nstay = { centre = "full house" }\n',
     "fantasyland.stay.centre: unknown row 'centre'"),
    ('base = "standard"\n[fantasyland]\nstay = { middle = "boat" }\n',
     "fantasyland.stay.middle: bad hand spec 'boat'"),
    ('base = "standard"\n[fantasyland]\nentry = [{ top = "QQ" }]\n', r"fantasyland.entry\[0\]"),
    ('base = "standard"\n[fantasyland]\nentry = [{ top = "QQ", cards = 12 }]\n',
     r"fantasyland.entry\[0\].cards: expected a whole number from 13 to 17, got 12"),
    ('base = "standard"\n[fantasyland]\nentry = [{ side = "QQ", cards = 14 }]\n',
     r"fantasyland.entry\[0\].side: unknown row 'side'"),
    ('base = "standard"\n[fantasyland]\nrepeat_cards = "again"\n',
     "fantasyland.repeat_cards: expected a whole number from 13 to 17 or \"same\", got 'again'"),
    ('base = "standard"\n[fantasyland]\nev_repeat_value = -2\n',
     "fantasyland.ev_repeat_value: expected points from 0 to 1000, got -2"),
    ('base = "standard"\n[fantasyland]\nev_repeat_value = { 12 = 4.0 }\n',
     "fantasyland.ev_repeat_value.12: expected a card count from 13 to 17"),
    ('base = "standard"\n[foul]\norder = ["bottom", "centre"]\n', "foul.order: unknown row"),
    ('base = "standard"\n[foul]\norder = "bottom"\n', "foul.order must be a list"),
    ('base = "standard"\n[foul]\norder = ["top", "top"]\n', "foul.order names a row twice"),
    ('base = "standard"\n[foul]\nqualify = { middle = "QX" }\n', "foul.qualify.middle"),
    ('base = "standard"\n[rows]\nmiddle = "lowball"\n', "rows.middle: unknown scale 'lowball'"),
    ('base = "standard"\n[rows]\ntop = "deuce-to-seven"\n', "rows.top"),
    ('base = "standard"\n[rows]\nmiddle = "deuce-to-seven"\n', "foul.order: the middle row"),
    ('base = "standard"\n[scoring]\nsystem = "3-3"\n', "scoring.system: unknown system '3-3'"),
    ('base = "standard"\n[scoring]\nroyalties_to_row_winner_only = "yes"\n',
     "scoring.royalties_to_row_winner_only"),
    ('base = "standard"\n[scoring]\nscoop_bonus = "three"\n', "scoring.scoop_bonus"),
    ('base = "standard"\nroyalties = 3\n', r"\[royalties\] must be a table"),
    ('base = "standard"\naliases = "mine"\n', "aliases must be a list"),
    ('base = "texas"\n', "base: unknown variant 'texas'"),
    ("base = 7\n", "base must be a preset name"),
    ('base = "standard"\n[royalties\n', "not valid TOML"),
    ('base = "standard"\nroyalties.top.QQ = \n', "not valid TOML"),
])
def test_malformed_rules_file_raises_rules_error_naming_the_bad_key(tmp_path, text, message):
    with pytest.raises(RulesError, match=message) as raised:
        load_rules(write(tmp_path, text))
    assert str(raised.value).startswith("house.toml: ")


@pytest.mark.parametrize("text, message", [
    ('name = 5\nbase = "standard"\n', "name: expected text in quotes, got 5"),
    ('name = true\nbase = "standard"\n', "name: expected text in quotes, got True"),
    ('description = ["a"]\nbase = "standard"\n',
     r"description: expected text in quotes, got \['a'\]"),
    ('description = 3.5\nbase = "standard"\n', "description: expected text in quotes, got 3.5"),
    ('base = "standard"\naliases = ["mine", 2]\n',
     r"aliases must be a list of names, got \['mine', 2\]"),
    ('base = "standard"\ndealing = 2\n', "dealing: unknown style 2; expected 'one-at-a-time'"),
    ('base = "standard"\ndealing = ["three-keep-two"]\n', r"dealing: unknown style \["),
    ('base = "standard"\nfoul = 3\n', r"\[foul\] must be a table, got 3"),
    ('base = "standard"\n[royalties]\ntop = 5\n',
     "royalties.top must be a table of hand = points, got 5"),
    ('base = "standard"\n[royalties.top]\nQQ = 7.0\n',
     "royalties.top.QQ: expected a whole number from 0 to 1000000, got 7.0"),
    ('base = "standard"\n[foul]\nqualify = { middle = 2 }\n',
     "foul.qualify.middle: expected a hand in quotes such as \"QQ\", got 2"),
    ('base = "standard"\n[fantasyland]\nstay = { top = 222 }\n',
     "fantasyland.stay.top: expected a hand in quotes such as \"QQ\", got 222"),
    ('base = "standard"\n[fantasyland]\nstay = { top = true }\n',
     "fantasyland.stay.top: expected a hand in quotes such as \"QQ\", got True"),
    ('base = "standard"\n[fantasyland]\nentry = 5\n',
     "fantasyland.entry: expected a list of rungs .* got 5"),
    ('base = "standard"\n[fantasyland]\nentry = "QQ"\n',
     "fantasyland.entry: expected a list of rungs .* got 'QQ'"),
    ('base = "standard"\n[fantasyland]\nentry = [{ top = "QQ", cards = 14.0 }]\n',
     r"fantasyland.entry\[0\].cards: expected a whole number from 13 to 17, got 14.0"),
    ('base = "standard"\n[fantasyland]\nrepeat_cards = 14.0\n',
     "fantasyland.repeat_cards: expected a whole number from 13 to 17 or \"same\", got 14.0"),
    ('base = "standard"\n[fantasyland]\nrepeat_cards = true\n',
     "fantasyland.repeat_cards: expected a whole number from 13 to 17 or \"same\", got True"),
    ('base = "standard"\n[fantasyland]\nrepeat_value = "13.7"\n',
     "fantasyland.repeat_value: expected points from 0 to 1000, got '13.7'"),
    ('base = "standard"\n[fantasyland]\nev_repeat_value = true\n',
     "fantasyland.ev_repeat_value: expected points from 0 to 1000, got True"),
    ('base = "standard"\n[fantasyland]\nrepeat_value = nan\n',
     "fantasyland.repeat_value: expected points from 0 to 1000, got nan"),
    ('base = "standard"\n[scoring]\nsystem = ["1-6"]\n',
     r"scoring.system: unknown system \['1-6'\]; expected '1-6' or '2-4'"),
    ('base = "standard"\n[scoring]\nsystem = 16\n', "scoring.system: unknown system 16"),
    ('base = "standard"\n[scoring]\nroyalties_to_row_winner_only = 1\n',
     "scoring.royalties_to_row_winner_only: expected true or false, got 1"),
    ('base = "standard"\n[scoring]\nroyalties_to_row_winner_only = "yes"\n',
     "scoring.royalties_to_row_winner_only: expected true or false, got 'yes'"),
    ('base = "standard"\n[scoring]\nmajority_bonus = 1.5\n',
     "scoring.majority_bonus: expected a whole number from 0 to 1000000, got 1.5"),
    ('base = "standard"\n[scoring]\nscoop_bonus = false\n',
     "scoring.scoop_bonus: expected a whole number from 0 to 1000000, got False"),
    ('base = "standard"\n[rows]\nmiddle = 2\n', "rows.middle: unknown scale 2"),
])
def test_a_key_of_the_wrong_type_is_refused_naming_it_and_what_was_given(tmp_path, text,
                                                                         message):
    with pytest.raises(RulesError, match=message) as raised:
        load_rules(write(tmp_path, text))
    assert str(raised.value).startswith("house.toml: ")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("table, spec, message", [
    ("royalties.top", "75432",
     "the top row holds 3 cards, so it can never make '75432', a 5-card hand"),
    ("royalties.top", "straight", "the top row holds 3 cards, so it can never make 'straight'"),
    ("royalties.top", "two pair", "the top row holds 3 cards, so it can never make 'two pair'"),
    ("royalties.top", "flush", "the top row holds 3 cards, so it can never make 'flush'"),
    ("royalties.top", "full house", "the top row holds 3 cards"),
    ("royalties.top", "quads", "the top row holds 3 cards"),
    ("royalties.top", "royal flush", "the top row holds 3 cards"),
    ("royalties.middle", "AKQ",
     "the middle row holds 5 cards, so it can never make 'AKQ', a 3-card hand"),
    ("royalties.bottom", "T32", "the bottom row holds 5 cards, so it can never make 'T32'"),
])
def test_a_royalty_for_a_hand_the_row_can_never_make_is_refused(tmp_path, table, spec,
                                                                message):
    # With "or better" such a spec would pay: top 75432 = 5 paid 5 for a top 6-6-4, and
    # middle AKQ = 5 paid 5 for a middle pair of tens.
    path = write(tmp_path, f'base = "standard"\n[{table}]\n"{spec}" = 5\n')
    with pytest.raises(RulesError, match=f"house.toml: {table}.{spec}: {message}") as raised:
        load_rules(path)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("base, key, where, message", [
    ("standard", "stay", 'stay = { top = "quads" }',
     "fantasyland.stay.top: the top row holds 3 cards, so it can never make 'quads'"),
    ("standard", "stay", 'stay = { middle = "AKQ" }', "fantasyland.stay.middle: the middle row"),
    ("standard", "entry", 'entry = [{ top = "straight", cards = 14 }]',
     r"fantasyland.entry\[0\].top: the top row holds 3 cards, so it can never make 'straight'"),
    ("deuce", "entry",
     'entry = [{ top = "KK", cards = 14 }, { top = "75432", cards = 15 }]',
     r"fantasyland.entry\[1\].top: the top row holds 3 cards, so it can never make '75432'"),
    ("standard", "qualify", 'qualify = { top = "flush" }',
     "foul.qualify.top: the top row holds 3 cards, so it can never make 'flush'"),
    ("standard", "qualify", 'qualify = { bottom = "QJ9" }',
     "foul.qualify.bottom: the bottom row holds 5 cards, so it can never make 'QJ9'"),
])
def test_a_rung_or_qualify_hand_the_row_can_never_make_is_refused(tmp_path, base, key, where,
                                                                   message):
    section = "foul" if key == "qualify" else "fantasyland"
    path = write(tmp_path, f'base = "{base}"\n[{section}]\n{where}\n')
    with pytest.raises(RulesError, match=f"house.toml: {message}"):
        load_rules(path)


@pytest.mark.parametrize("row, spec", [
    ("top", "pair"), ("top", "T-high"), ("top", "high card"), ("top", "AKQ"), ("top", "trips"),
    ("middle", "222"), ("middle", "QQ"), ("middle", "T-high"), ("bottom", "75432"),
])
def test_hands_both_or_either_row_size_can_make_still_load(tmp_path, row, spec):
    rules = load_rules(write(tmp_path, f'base = "standard"\n[royalties.{row}]\n"{spec}" = 5\n'))
    assert rules.royalty_table(row).max() == 5


def test_a_rules_file_that_is_not_utf8_is_a_rules_error_naming_the_file(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('base = "pineapple"\nname = "Café"\n'.encode("latin-1"))
    with pytest.raises(RulesError) as raised:
        find_rules(str(path))
    assert str(raised.value) == (f"cannot read rules file {str(path)!r}: byte 0xe9 on line 2 "
                                 "is not UTF-8; expected a UTF-8 TOML file")


def test_a_rules_file_in_utf8_may_hold_any_text(tmp_path):
    path = write(tmp_path, 'base = "pineapple"\nname = "Café ♠"\n')
    assert load_rules(path).name == "Café ♠"


# --- how a file merges over its base -------------------------------------------------------

def test_a_row_table_in_a_file_replaces_the_base_table_for_that_row(tmp_path):
    rules = load_rules(write(tmp_path, 'base = "standard"\n[royalties.bottom]\nquads = 7\n'))
    standard = find_rules("standard")
    strengths = {row: rules.royalty_table(row) for row in ROWS}
    assert set(strengths["bottom"].tolist()) == {0, 7}  # straight, flush ... are gone
    assert (strengths["top"] == standard.royalty_table("top")).all()
    assert (strengths["middle"] == standard.royalty_table("middle")).all()


def test_other_sections_merge_key_by_key(tmp_path):
    rules = load_rules(write(tmp_path, 'base = "progressive"\n[fantasyland]\nrepeat_cards = 15\n'))
    progressive = find_rules("progressive")
    assert rules.repeat_cards == 15
    assert rules.entry == progressive.entry and rules.stay == progressive.stay


def test_the_worth_of_staying_under_ev_is_its_own_key_by_size(tmp_path):
    rules = load_rules(write(tmp_path, 'base = "progressive"\n[fantasyland]\n'
                                       'ev_repeat_value = { 14 = 12.5, 15 = 20, 16 = 30, '
                                       '17 = 45 }\n'))
    assert rules.repeat_value_after(16) == find_rules("progressive").repeat_value_after(16)
    assert [rules.ev_repeat_value_after(n) for n in (14, 15, 16, 17)] == [12.5, 20, 30, 45]


@pytest.mark.parametrize("base, fantasyland, message", [
    # progressive deals 14 to 17 cards; a 15-card stay was worth the 16-card 50
    ("progressive", "repeat_value = { 16 = 50 }",
     ("fantasyland.repeat_value: no worth given for 14, 15, 17 cards, which these rules "
      "deal in Fantasyland; expected one for each of 14, 15, 16, 17")),
    ("progressive", "ev_repeat_value = { 14 = 12.5, 16 = 30 }",
     "fantasyland.ev_repeat_value: no worth given for 15, 17 cards"),
    ("standard", "repeat_value = { 14 = 12 }",
     "fantasyland.repeat_value: no worth given for 13 cards"),
    # the table comes from the base, the 13-card rung from the file
    ("ultimate", 'entry = [{ top = "JJ", cards = 13 }, { top = "QQ", cards = 14 }]',
     ("fantasyland.repeat_value: no worth given for 13 cards, which these rules deal in "
      "Fantasyland; expected one for each of 13, 14")),
])
def test_a_worth_of_staying_by_size_must_give_every_size_the_rules_deal(tmp_path, base,
                                                                       fantasyland, message):
    path = write(tmp_path, f'base = "{base}"\n[fantasyland]\n{fantasyland}\n')
    with pytest.raises(RulesError, match=f"house.toml: {message}"):
        load_rules(path)


def test_a_worth_of_staying_by_size_may_give_sizes_the_rules_never_deal(tmp_path):
    rules = load_rules(write(tmp_path, 'base = "pineapple"\n[fantasyland]\n'
                                       'repeat_value = { 14 = 13.7, 17 = 55 }\n'))
    assert [rules.repeat_value_after(n) for n in (14, 17)] == [13.7, 55.0]


def test_a_count_the_variant_never_deals_takes_the_worth_of_its_smallest_size():
    ultimate = find_rules("ultimate")  # deals 14 to 17: a 13-card hand is only a what-if
    assert ultimate.repeat_value_after(13) == ultimate.repeat_value_after(14) == 13.7
    assert ultimate.ev_repeat_value_after(13) == ultimate.ev_repeat_value_after(14) == 12.5


def test_without_a_worth_under_ev_the_royalty_worth_stands_in(tmp_path):
    rules = load_rules(write(tmp_path, "[fantasyland]\nrepeat_value = { 13 = 9, 15 = 20 }\n",
                             name="bare.toml"))
    assert rules.ev_repeat_value is None
    assert [rules.ev_repeat_value_after(n) for n in (13, 15)] == [9.0, 20.0]


def test_a_file_without_a_base_starts_from_nothing(tmp_path):
    rules = load_rules(write(tmp_path, "[royalties.top]\nAA = 1\n", name="bare.toml"))
    assert rules.name == "bare"
    assert rules.entry == () and rules.stay == ()
    assert rules.order_pairs == (("bottom", "middle"), ("middle", "top"))
    assert rules.royalty_table("bottom").max() == 0


@pytest.mark.parametrize("text", ['name = "x"\n', "", 'name = "x"\ndescription = "mine"\n'],
                         ids=["name only", "empty", "name and description"])
def test_a_rules_file_with_no_base_and_no_tables_is_refused(tmp_path, text):
    # It would be a game without royalties or Fantasyland, which no one means to write.
    with pytest.raises(RulesError) as raised:
        load_rules(write(tmp_path, text, name="x.toml"))
    assert str(raised.value) == (
        f'x.toml: it has no base and no tables; expected base = "<preset>" (one of '
        f"{PRESET_LIST}) or tables of its own ([royalties], [fantasyland], ...)")


def test_every_preset_and_house_fixture_still_loads():
    for name in preset_names():
        assert find_rules(name).source == name
    for path in sorted(HOUSE.glob("*.toml")):
        assert load_rules(path).source == path.name


def test_the_file_rules_came_from_is_kept_but_is_not_part_of_the_rules(tmp_path):
    one = load_rules(write(tmp_path, 'name = "same"\nbase = "pineapple"\n', name="one.toml"))
    two = load_rules(write(tmp_path, 'name = "same"\nbase = "pineapple"\n', name="two.toml"))
    assert (one.source, two.source) == ("one.toml", "two.toml")
    assert one == two and hash(one) == hash(two) and one.fingerprint == two.fingerprint


def test_a_file_may_name_itself(tmp_path):
    rules = load_rules(write(tmp_path, 'name = "mine"\nbase = "prog"\n'))
    assert (rules.name, rules.aliases) == ("mine", ())
    assert rules.entry == find_rules("progressive").entry


# --- fixtures/house/ -----------------------------------------------------------------------

def differences(rules: Rules, base: Rules) -> set[str]:
    """The parts of ``rules`` that differ from ``base``, named like the file's keys."""
    changed = {field for field in ("scales", "order", "qualify", "entry", "stay",
                                   "repeat_cards", "scoring", "deck", "showdown", "bonuses")
               if getattr(rules, field) != getattr(base, field)}
    changed |= {f"royalties.{row}" for row in ROWS
                if not np.array_equal(rules.royalty_table(row), base.royalty_table(row))}
    return changed


def house(name: str) -> Rules:
    return load_rules(HOUSE / f"{name}.toml")


def royalty(rules: Rules, row: str, cards: str) -> int:
    value = row_values(row, np.array([parse_cards(cards)]), rules)[0]
    return int(rules.royalty_table(row)[value])


def test_every_house_file_starts_from_a_base_and_says_where_its_rule_is_stated():
    files = sorted(HOUSE.glob("*.toml"))
    assert len(files) == 16
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# ") and "(docs/rules.md" in " ".join(lines[:4])
        assert any(line.startswith("base = ") for line in lines[:6])
        assert load_rules(path).name == path.stem


def test_house_top_trips_flat_20():
    rules, standard = house("top_trips_flat_20"), find_rules("standard")
    assert differences(rules, standard) == {"royalties.top"}
    assert royalty(rules, "top", "2s 2h 2d") == royalty(rules, "top", "As Ah Ad") == 20
    for pair in ("6s 6h 2d", "Qs Qh 2d", "As Ah Kd", "5s 5h Ad"):
        assert royalty(rules, "top", pair) == royalty(standard, "top", pair)


def test_house_middle_trips_zero():
    rules, standard = house("middle_trips_zero"), find_rules("standard")
    assert differences(rules, standard) == {"royalties.middle"}
    assert royalty(rules, "middle", "As Ah Ad Kc Qd") == 0
    for hand in ("6d 5h 4s 3c 2d", "Ac Jc 8c 4c 2c", "2c 2d 2h 3s 3c", "2c 2d 2h 2s 3c",
                 "9h 8h 7h 6h 5h", "As Ks Qs Js Ts"):
        assert royalty(rules, "middle", hand) == royalty(standard, "middle", hand)


BACK_HANDS = {"straight": "6d 5h 4s 3c 2d", "flush": "Ac Jc 8c 4c 2c",
              "full house": "2c 2d 2h 3s 3c", "quads": "2c 2d 2h 2s 3c",
              "straight flush": "9h 8h 7h 6h 5h", "royal flush": "As Ks Qs Js Ts"}


@pytest.mark.parametrize("name, bottom, middle_factor, middle_trips", [
    ("back_quads_8_middle_double",
     {"straight": 2, "flush": 4, "full house": 6, "quads": 8, "straight flush": 10,
      "royal flush": 20}, 2, 2),
    ("back_straight_4_middle_treble",
     {"straight": 4, "flush": 4, "full house": 6, "quads": 10, "straight flush": 15,
      "royal flush": 25}, 3, 2),
])
def test_house_back_table_with_the_middle_a_multiple_of_it(name, bottom, middle_factor,
                                                          middle_trips):
    rules = house(name)
    assert differences(rules, find_rules("standard")) == {"royalties.bottom", "royalties.middle"}
    for hand, cards in BACK_HANDS.items():
        assert royalty(rules, "bottom", cards) == bottom[hand]
        assert royalty(rules, "middle", cards) == middle_factor * bottom[hand]
    assert royalty(rules, "middle", "As Ah Ad Kc Qd") == middle_trips
    assert royalty(rules, "bottom", "As Ah Ad Kc Qd") == 0
    assert royalty(rules, "middle", "As Ah Kd Kc Qd") == 0


def test_house_row_winner_royalties():
    rules = house("row_winner_royalties")
    assert differences(rules, find_rules("standard")) == {"scoring"}
    assert rules.scoring == Scoring(3, 0, royalties_to_row_winner_only=True)


def test_house_scoring_2_4():
    rules = house("scoring_2_4")
    assert differences(rules, find_rules("standard")) == {"scoring"}
    assert rules.scoring == Scoring(scoop_bonus=0, majority_bonus=1)


def test_house_pineapple_middle_boat_stays():
    rules, pineapple = house("pineapple_middle_boat_stays"), find_rules("pineapple")
    assert differences(rules, pineapple) == {"stay"}
    assert sorted(str(s) for s in rules.stay) == sorted(
        [str(s) for s in pineapple.stay] + ["full house or better middle"])


def test_house_variable_value_fantasyland():
    rules, pineapple = house("variable_value_fantasyland"), find_rules("pineapple")
    assert differences(rules, pineapple) == {"entry"}
    assert [(str(r.requires[0].spec), r.cards) for r in rules.entry] == [
        ("QQ", 13), ("KK", 14), ("AA", 15)]
    assert rules.dealt_counts == (13, 14, 15)


def test_house_jokers_five_of_a_kind_pays_its_own_royalty():
    rules, pineapple = house("jokers_five_of_a_kind"), find_rules("pineapple")
    assert differences(rules, pineapple) == {"deck", "royalties.bottom", "royalties.middle"}
    assert rules.deck == Deck(decks=1, jokers=2, five_of_a_kind=True)
    five = "As Ad Ac Ah Jk"
    assert evaluate_board(f"Qs Qh Jk / 2c 3c 4c 5c 7d / {five}", rules=rules).bottom.royalty == 50
    # five of a kind beats four
    assert evaluate_board(f"2s 3h 4d / {five} / Ks Kh Kd Kc Qc", rules=rules).fouled
    assert evaluate_board(f"2s 3h 4d / Ks Kh Kd Kc Jk / {five}", rules=rules).middle.royalty == 100
    for row in ("bottom", "middle"):  # below five of a kind, the base's table is unchanged
        below = parse_spec("five of a kind").threshold(Scale.HIGH)
        assert np.array_equal(rules.royalty_table(row)[:below],
                              pineapple.royalty_table(row)[:below])


def test_house_double_deck_aa_entry():
    rules, double = house("double_deck_aa_entry"), find_rules("double-deck")
    assert differences(rules, double) == {"entry"}
    assert [(str(r.requires[0].spec), r.cards) for r in rules.entry] == [("AA", 14)]
    bottom = "As As Ad Ad Ac"  # five aces, from two decks
    kings = evaluate_board(f"Ks Kh 2c / Qc Qd Qh 3c 3d / {bottom}", rules=rules)
    aces = evaluate_board(f"Ah Ac 2c / Qc Qd Qh 3c 3d / {bottom}", rules=rules)
    assert (kings.fantasyland_cards, aces.fantasyland_cards) == (None, 14)
    assert kings.bottom.name == "Five Aces" and kings.bottom.royalty == 15  # as a straight flush


# --- the presets of "The deck is data" -------------------------------------------------------

@pytest.mark.parametrize("name, base", [("pineapple-joker", "pineapple"),
                                        ("progressive-joker", "progressive")])
def test_a_joker_preset_is_its_base_with_two_jokers_and_no_five_of_a_kind(name, base):
    rules, plain = find_rules(name), find_rules(base)
    # The game differs by its deck alone; what the deck changes: the worths of staying
    # (measured under these rules, docs/fantasyland-value.md) and the opponents, the
    # two-joker pool unweighted.
    assert differences(rules, plain) == {"deck"}
    assert rules.deck == Deck(decks=1, jokers=2, five_of_a_kind=False)
    assert len(rules.deck.cards) == 54 and rules.deck.cards.count(JOKER) == 2
    assert (rules.repeat_value, rules.ev_repeat_value) == (24.8, 20.3)
    assert rules.dealing == plain.dealing and rules.opponent_royalties is None


def test_under_a_joker_preset_a_joker_beside_quads_makes_no_five_of_a_kind():
    report = evaluate_board("2s 3h 4d / 6c 7c 8c 9c Tc / As Ad Ac Ah Jk", rules="pineapple-joker")
    assert report.bottom.class_name == "quads" and report.bottom.royalty == 10


def test_double_deck_is_pineapple_from_two_decks_with_five_of_a_kind_as_a_straight_flush():
    rules, pineapple = find_rules("double-deck"), find_rules("pineapple")
    assert differences(rules, pineapple) == {"deck"}
    assert rules.deck == Deck(decks=2, jokers=0, five_of_a_kind=True)
    assert len(rules.deck.cards) == 104 and rules.deck.copies(parse_cards("As")[0]) == 2
    flush = parse_spec("straight flush").threshold(Scale.HIGH)
    five = parse_spec("five of a kind").threshold(Scale.HIGH)
    for row in ("middle", "bottom"):
        assert rules.royalty_table(row)[five] == rules.royalty_table(row)[flush] > 0


@pytest.mark.parametrize("table, message", [
    ("decks = 3", "deck.decks: expected 1 (52 cards) or 2 (104), got 3"),
    ("jokers = 3", "deck.jokers: expected 0, 1 or 2, got 3"),
    ("jokers = true", "deck.jokers: expected 0, 1 or 2, got True"),
    ('five_of_a_kind = "yes"', "deck.five_of_a_kind: expected true or false, got 'yes'"),
    ("decks = 2\nfive_of_a_kind = false", "deck.five_of_a_kind = false with two decks"),
    ("cards = 54", "unknown key 'deck.cards'"),
])
def test_a_bad_deck_table_is_refused_naming_the_key(tmp_path, table, message):
    path = write(tmp_path, f'base = "pineapple"\n[deck]\n{table}\n')
    with pytest.raises(RulesError, match=re.escape(f"house.toml: {message}")):
        load_rules(path)


def test_the_deck_defaults_to_one_deck_without_jokers_and_two_decks_to_five_of_a_kind(tmp_path):
    assert find_rules("pineapple").deck == Deck(1, 0, False)
    rules = load_rules(write(tmp_path, 'base = "pineapple"\n[deck]\ndecks = 2\n'))
    assert rules.deck == Deck(2, 0, True)


def test_rules_doctests_pass():
    # pyproject's testpaths hold only tests/, so the module's examples are run from here.
    result = doctest.testmod(fantasyland.evaluator.rules_files)
    assert result.attempted > 0 and result.failed == 0


def test_the_fingerprint_follows_what_the_rules_decide_not_how_the_file_spells_it(tmp_path):
    base = load_rules(write(tmp_path, 'base = "standard"\nname = "a"\n'
                                      '[royalties.top]\n66 = 1\nQQ = 7\n', "a.toml"))
    respelled = load_rules(write(tmp_path, 'base = "standard"\nname = "b"\n'
                                           'description = "other words"\n'
                                           '[royalties.top]\nqq = 7\n"66" = 1\n', "b.toml"))
    changed = load_rules(write(tmp_path, 'base = "standard"\nname = "a"\n'
                                         '[royalties.top]\n66 = 1\nQQ = 8\n', "c.toml"))
    assert respelled.fingerprint == base.fingerprint
    assert changed.fingerprint != base.fingerprint
    fingerprints = {find_rules(name).fingerprint for name in preset_names()}
    assert len(fingerprints) == len(preset_names())


@pytest.mark.parametrize("name, target", [
    ("pineapple", None), ("progressive", None), ("ultimate", None), ("deuce", None),
    ("standard", None), ("double-deck", 4.5)])
def test_the_opponents_royalty_target_of_each_preset(name, target):
    # Pineapple's opponents are the learned bot's boards as it played them, and so
    # progressive's and ultimate's; the two-deck pool, the heuristic bot's, is weighted to
    # the middle of where decent heads-up bots sit; classic never had a target.
    assert find_rules(name).opponent_royalties == target


@pytest.mark.parametrize("value", ['"4.5"', "-1", "0", "101", "true", "nan"])
def test_a_bad_opponents_royalty_target_is_refused_naming_the_key(tmp_path, value):
    path = tmp_path / "house.toml"
    path.write_text(f'base = "pineapple"\n[opponents]\nmean_royalties = {value}\n')
    with pytest.raises(RulesError, match=r"opponents\.mean_royalties: expected royalties a "
                                         "board above 0 and at most 100, or false"):
        load_rules(path)


def test_the_opponents_royalty_target_is_part_of_the_fingerprint(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "pineapple"\n[opponents]\nmean_royalties = 4.0\n')
    house = load_rules(path)
    assert house.opponent_royalties == 4.0
    assert house.fingerprint != find_rules("pineapple").fingerprint
    path.write_text('base = "pineapple"\n[opponents]\nmean_royalties = false\n')
    assert load_rules(path).opponent_royalties is None


@pytest.mark.parametrize("name, seats", [
    ("standard", 4), ("pineapple", 3), ("progressive", 3), ("ultimate", 3), ("deuce", 3),
    ("pineapple-joker", 3), ("progressive-joker", 3), ("double-deck", 6)])
def test_a_table_seats_the_players_its_deck_holds_cards_for(name, seats):
    # docs/rules.md: double deck seats 2 to 6 (17 cards each of 104). The others follow from the
    # cards each player sees: 13 in classic OFC (4 of 52), 17 in Pineapple (3 of 52 or 54).
    assert find_rules(name).seats == seats


# --- classic Chinese Poker's house files (their settlements: tests/test_chinese_scoring.py) --

BONUS_ROWS = {"royalties.top", "royalties.middle", "royalties.bottom"}


@pytest.mark.parametrize("name, changed", [
    ("chinese_typical", BONUS_ROWS | {"scoring", "showdown", "bonuses"}),
    ("chinese_extra_units", BONUS_ROWS | {"scoring", "bonuses"}),
    ("chinese_long_schedule", BONUS_ROWS | {"scoring", "showdown", "bonuses"}),
    ("chinese_middle_doubled", BONUS_ROWS | {"scoring", "showdown", "bonuses"}),
    ("chinese_straight_flush_7_14", BONUS_ROWS | {"scoring", "showdown", "bonuses"}),
    ("chinese_sweep_9", BONUS_ROWS | {"scoring", "showdown", "bonuses"}),
])
def test_house_chinese_files_change_the_payments_only(name, changed):
    rules, chinese = house(name), find_rules("chinese")
    assert differences(rules, chinese) == changed
    assert rules.scoring.royalties_to_row_winner_only  # a bonus is paid by the row's loser
    # a bonus is the units a row won pays in all: the royalty is what it adds to the 1
    assert royalty(rules, "top", "2s 2h 2d") == 2
    assert royalty(rules, "top", "As Ah Kd") == 0


def test_house_chinese_sweep_9_pays_1_6_and_9_for_the_sweep():
    rules = house("chinese_sweep_9")
    assert (rules.scoring.scoop_bonus, rules.showdown.sweep_bonus,
            rules.showdown.surrender) == (3, 3, 3)
    assert royalty(rules, "middle", "9s 9h 9d 9c 2d") == 7  # quads in the middle: 8 in all


def test_rules_without_an_entry_have_no_stay_and_deal_no_fantasyland(tmp_path):
    # A house file with entry = [] kept its base's stay: solve said "Stays: yes".
    path = tmp_path / "no-entry.toml"
    path.write_text('name = "no-entry"\nbase = "pineapple"\n[fantasyland]\nentry = []\n')
    rules = load_rules(path)
    assert rules.stay  # as written (the base's), but nothing meets it
    assert not any(rules.stay_table(row).any() for row in ("top", "middle", "bottom"))
    assert rules.dealt_counts == ()
    assert find_rules("chinese").dealt_counts == ()  # repeat_cards alone deals nothing
