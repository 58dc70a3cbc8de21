"""``fantasyland score``: what it prints for finished sets, and how it refuses bad input."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.cli.render import card_text, cards_text
from fantasyland.evaluator import parse_cards

runner = CliRunner()

IVEY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
QQ7_OVER_QQ654 = "QsQd7h / QcQh6s5d4c / Ah Kh Jh 9h 8h"
# A legal middle (8-high straight) and bottom (jack-high flush) under any pair or trips on top.
UNDER_ANY_TOP = "4h 5h 6c 7d 8s / Jc Tc 9c 7c 5c"


def score(*args: str):
    return runner.invoke(app, ["score", *args])


def score_json(*args: str) -> dict:
    result = score(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def labelled(output: str, label: str) -> str:
    """The value printed after ``label:`` in the human output."""
    match = re.search(rf"^{label}:\s+(.*)$", output, re.MULTILINE)
    assert match, f"no {label!r} line in:\n{output}"
    return match.group(1)


# --- help ----------------------------------------------------------------------------------

def test_help_lists_the_score_command():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "score" in result.stdout


def test_no_arguments_shows_help():
    result = runner.invoke(app, [])
    assert "score" in result.output
    assert "Traceback" not in result.output


def test_score_help_documents_variant_and_json():
    result = score("--help")
    assert result.exit_code == 0
    assert "--variant" in result.stdout and "--json" in result.stdout
    assert "pineapple" in result.stdout  # the preset names come from the registry


def test_version_prints_a_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.startswith("fantasyland ")


# --- the worked example: Ivey's set --------------------------------------------------------

def test_ivey_board_human_shows_rows_royalties_and_no_foul():
    result = score(IVEY)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for hand in ("Pair of Sixes", "Pair of Tens", "Threes full of Twos"):
        assert hand in out
    assert "6♠ 6♣ 4♥" in out and "3♥ 3♦ 3♠ 2♥ 2♦" in out
    assert labelled(out, "Fouled") == "no"
    assert labelled(out, "Royalties") == "7 (top 1, middle 0, bottom 6)"
    assert labelled(out, "Fantasyland entry").startswith("no (needs QQ or better top")
    assert labelled(out, "Fantasyland stay").startswith("no")
    assert result.stderr == ""


def test_ivey_board_json_royalties_are_1_0_6_total_7():
    data = score_json(IVEY, "--variant", "standard")
    assert data["board"] == {"top": ["6s", "6c", "4h"],
                             "middle": ["Td", "Ts", "9c", "Qs", "8c"],
                             "bottom": ["3h", "3d", "3s", "2h", "2d"]}
    assert data["variant"] == "standard"
    assert data["fouled"] is False and data["foul_reasons"] == []
    assert data["royalties"] == {"top": 1, "middle": 0, "bottom": 6, "total": 7}
    assert data["rows"]["top"] == {"cards": ["6s", "6c", "4h"], "hand": "Pair of Sixes",
                                   "class": "pair", "royalty": 1, "jokers": []}
    assert data["rows"]["bottom"]["class"] == "full house"
    assert data["fantasyland_cards"] is None
    assert data["stays"] is False and data["stay_rows"] == []


def test_json_keys_are_sorted_and_output_is_deterministic():
    first, second = score(IVEY, "--json"), score(IVEY, "--json")
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert list(data) == sorted(data)
    assert list(data["rows"]["top"]) == sorted(data["rows"]["top"])
    assert {"board", "variant", "fouled", "foul_reasons", "rows", "royalties", "stays",
            "stay_rows", "fantasyland_cards"} <= set(data)


def test_board_may_be_unquoted_run_together_or_use_symbols_and_10():
    expected = score_json(IVEY)["board"]
    assert score_json(*IVEY.split())["board"] == expected
    assert score_json("6s6c4h/TdTs9cQs8c/3h3d3s2h2d")["board"] == expected
    assert score_json("6♠ 6♣ 4♥ / 10♦ 10♠ 9♣ Q♠ 8♣ / 3♥ 3♦ 3♠ 2♥ 2♦")["board"] == expected


# --- fouls ---------------------------------------------------------------------------------

def test_top_qq7_over_middle_qq654_fouls_on_kickers():
    result = score(QQ7_OVER_QQ654)
    assert result.exit_code == 0  # a foul is a result, not an error
    assert labelled(result.stdout, "Fouled").startswith("yes: ")
    assert "on kickers" in result.stdout
    assert labelled(result.stdout, "Royalties").startswith("0 ")
    data = score_json(QQ7_OVER_QQ654)
    assert data["fouled"] is True
    assert data["foul_reasons"] == [
        "the top row (Pair of Queens) beats the middle row (Pair of Queens) on kickers"]
    assert data["royalties"] == {"top": 0, "middle": 0, "bottom": 0, "total": 0}
    assert data["rows"]["top"]["royalty"] == 7  # what the hand is worth by itself
    assert data["fantasyland_cards"] is None and data["stays"] is False


def test_top_qq7_over_middle_qq982_is_legal_and_enters():
    data = score_json("QsQd7h / QcQh9s8d2c / Ah Kh Jh 9h 8h", "--variant", "standard")
    assert data["fouled"] is False
    assert data["fantasyland_cards"] == 13


# --- Fantasyland entry and stay ------------------------------------------------------------

@pytest.mark.parametrize(("top", "cards"), [
    ("QsQd3c", 14), ("KsKd3c", 15), ("AsAd3c", 16), ("2s2d2h", 17), ("JsJd3c", None),
])
def test_progressive_entry_deals_more_cards_for_a_better_top(top, cards):
    data = score_json(f"{top} / {UNDER_ANY_TOP}", "--variant", "progressive")
    assert data["fouled"] is False
    assert data["variant"] == "progressive"
    assert data["fantasyland_cards"] == cards


def test_progressive_kk_top_human_says_15_cards():
    result = score(f"KsKd3c / {UNDER_ANY_TOP}", "--variant", "prog")
    assert labelled(result.stdout, "Fantasyland entry") == "yes, with 15 cards"


@pytest.mark.parametrize(("variant", "cards"), [("standard", 13), ("pineapple", 14),
                                                ("ultimate", 14), ("deuce", None)])
def test_qq_top_entry_count_depends_on_the_variant(variant, cards):
    # deuce needs KK+ on top, and its middle must be a 10-high lowball hand.
    data = score_json(f"QsQd3c / {UNDER_ANY_TOP}", "--variant", variant)
    assert data["fantasyland_cards"] == cards


def test_deuce_kk_top_and_75432_middle_enter_with_15():
    data = score_json("KsKd3c / 7h 5d 4c 3s 2d / Ah Kh Jh 9h 8h", "--variant", "2-7")
    assert data["variant"] == "deuce"
    assert data["fouled"] is False
    assert data["fantasyland_cards"] == 15


def test_trips_top_stays_in_pineapple_and_names_the_row():
    data = score_json(f"2s2d2h / {UNDER_ANY_TOP}", "--variant", "pineapple")
    assert data["stays"] is True and data["stay_rows"] == ["top"]
    result = score(f"2s2d2h / {UNDER_ANY_TOP}", "--variant", "pineapple")
    assert labelled(result.stdout, "Fantasyland stay").startswith("yes")
    assert "top Three Twos" in result.stdout


def test_full_house_middle_stays_in_standard_but_not_in_pineapple():
    board = "Qs Qd 3c / 2c 2d 2h 3s 3d / Ac Ad Ah Kc Kd"
    assert score_json(board, "--variant", "standard")["stay_rows"] == ["middle"]
    assert score_json(board, "--variant", "pineapple")["stays"] is False


# --- bad input -----------------------------------------------------------------------------

def assert_bad_input(result, *quoted: str) -> None:
    """Exit 2, nothing on stdout, one ``error:`` line on stderr naming the bad input."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for text in quoted:
        assert text in lines[0]
    assert "Traceback" not in result.output


def test_bad_card_token_is_quoted_and_exits_2():
    assert_bad_input(score("6s 6c 4x / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"), "'4x'", "expected")


def test_wrong_row_size_names_the_row_and_exits_2():
    assert_bad_input(score("6s 6c / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"),
                     "top row has 2 cards", "expected 3")


def test_missing_row_separator_exits_2():
    assert_bad_input(score("6s 6c 4h Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"), "three rows")


def test_duplicate_card_is_named_and_exits_2():
    assert_bad_input(score("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 6s"),
                     "duplicate card '6s'")


def test_unknown_variant_lists_the_presets_and_exits_2():
    assert_bad_input(score(IVEY, "--variant", "holdem"), "'holdem'", "pineapple", ".toml")


def test_missing_rules_file_exits_2(tmp_path):
    assert_bad_input(score(IVEY, "--variant", str(tmp_path / "nowhere.toml")),
                     "nowhere.toml")


def test_malformed_rules_file_names_the_key_and_exits_2(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text('base = "pineapple"\n[fantasyland]\nstay = { top = "QX" }\n')
    assert_bad_input(score(IVEY, "--variant", str(path)), "typo.toml", "'QX'")


# --- house rules from a file ---------------------------------------------------------------

HOUSE_RULES = """\
name = "house"
base = "pineapple"
description = "Top trips a flat 20; full house or better middle also stays."

[royalties.top]   # replaces pineapple's whole top table: pairs pay nothing here
222 = 20

[fantasyland]
stay = { top = "222", middle = "full house", bottom = "quads" }
"""


def test_house_rules_file_replaces_the_top_table_and_adds_a_stay(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES)
    trips = score_json(f"Ks Kd Kh / {UNDER_ANY_TOP}", "--variant", str(path))
    assert trips["variant"] == "house"
    assert trips["royalties"]["top"] == 20
    assert trips["fantasyland_cards"] == 14  # entry is pineapple's
    pair = score_json(f"KsKd3c / {UNDER_ANY_TOP}", "--variant", str(path))
    assert pair["royalties"]["top"] == 0
    full_house_middle = score_json("Qs Qd 3c / 2c 2d 2h 3s 3d / Ac Ad Ah Kc Kd",
                                   "--variant", str(path))
    assert full_house_middle["stay_rows"] == ["middle"]


# --- rendering -----------------------------------------------------------------------------

def test_red_suits_render_red_and_black_suits_do_not():
    hearts, diamonds, spades, clubs = parse_cards("Ah Kd Qs Jc")
    assert "red" in str(card_text(hearts).style) and "red" in str(card_text(diamonds).style)
    assert "red" not in str(card_text(spades).style)
    assert "red" not in str(card_text(clubs).style)


def test_cards_fall_back_to_ascii_where_suit_symbols_cannot_be_encoded():
    ascii_out = Console(file=io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert cards_text(parse_cards("Ah Td"), out=ascii_out).plain == "Ah Td"
    utf8_out = Console(file=io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert cards_text(parse_cards("Ah Td"), out=utf8_out).plain == "A♥ T♦"


def test_score_reads_the_board_from_stdin_on_one_line_or_three():
    board = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
    given = runner.invoke(app, ["score", board, "--json"]).stdout
    for text in (board + "\n", "6s 6c 4h\nTd Ts 9c Qs 8c\n3h 3d 3s 2h 2d\n"):
        piped = runner.invoke(app, ["score", "-", "--json"], input=text)
        assert piped.exit_code == 0, piped.output
        assert piped.stdout == given


# --- jokers and two decks (docs/rules.md, "Jokers" and "Two decks") ------------------------

def house_file(name: str) -> str:
    return str(Path(__file__).resolve().parent.parent / "fixtures" / "house" / name)


def row_line(output: str, row: str) -> str:
    """The table line of ``row``, its cells separated by single spaces."""
    line = next(line for line in output.splitlines() if re.match(rf"^\W*{row}\b", line))
    return " ".join(cell.strip() for cell in re.split(r"[│┃|]", line) if cell.strip())


def test_a_joker_is_played_down_to_keep_the_set_legal():
    # As trips the top would beat the middle's kings; as an ace it is QQA, under the kings,
    # and the one ace not on the board already (Ac is in the bottom).
    board = "Qs Qh Jk / Kc Kd 5s 4h 3c / As Ad Ac Kh Ks"
    result = score(board, "--variant", "pineapple-joker")
    assert result.exit_code == 0, result.output
    assert row_line(result.stdout, "top") == "top Q♠ Q♥ 🃏=A♥ Pair of Queens 7"
    assert labelled(result.stdout, "Fouled") == "no"
    data = score_json(board, "--variant", "pineapple-joker")
    assert data["board"]["top"] == data["rows"]["top"]["cards"] == ["Qs", "Qh", "Jk"]
    assert data["rows"]["top"]["jokers"] == ["Ah"] and data["rows"]["top"]["class"] == "pair"
    assert data["rows"]["middle"]["jokers"] == data["rows"]["bottom"]["jokers"] == []


def test_a_joker_makes_the_middle_equal_to_the_bottom_which_is_legal():
    # Rows that tie do not foul (the bottom only has to be at least the middle), so the
    # joker completes a royal flush beside the bottom's, not the ace-high flush under it.
    board = "7c 2c 3d / As Ks Qs Js Jk / Ah Kh Qh Jh Th"
    result = score(board, "--variant", "pineapple-joker")
    assert result.exit_code == 0, result.output
    assert row_line(result.stdout, "middle") == (
        "middle A♠ K♠ Q♠ J♠ 🃏=T♠ Royal flush 50")
    assert labelled(result.stdout, "Fouled") == "no"
    data = score_json(board, "--variant", "pineapple-joker")
    assert (data["rows"]["middle"]["class"], data["rows"]["middle"]["jokers"]) == (
        "straight flush", ["Ts"])
    assert data["royalties"] == {"top": 0, "middle": 50, "bottom": 25, "total": 75}


def test_trips_on_top_made_by_a_joker_pay_20_and_stay():
    board = "Qs Qh Jk / 9c 9d 9h 5c 5d / As Ad Ac Kh Kd"
    result = score(board, "--variant", "joker")
    assert row_line(result.stdout, "top") == "top Q♠ Q♥ 🃏=Q♣ Three Queens 20"
    assert labelled(result.stdout, "Fantasyland stay").startswith(
        "yes if played in Fantasyland (top Three Queens)")
    data = score_json(board, "--variant", "joker")
    assert (data["rows"]["top"]["jokers"], data["stay_rows"]) == (["Qc"], ["top"])
    assert data["royalties"] == {"top": 20, "middle": 12, "bottom": 6, "total": 38}


def test_five_of_a_kind_counts_under_the_house_file_and_not_under_pineapple_joker():
    board = "2s 3h 4d / 6c 7c 8c 9c Tc / As Ad Ac Ah Jk"
    five = score(board, "--variant", house_file("jokers_five_of_a_kind.toml"))
    assert row_line(five.stdout, "bottom") == "bottom A♠ A♦ A♣ A♥ 🃏=A♣ Five Aces 50"
    assert "🃏=A♣" in five.stdout  # under five of a kind a joker may repeat a card of its row
    four = score(board, "--variant", "pineapple-joker")
    assert row_line(four.stdout, "bottom") == "bottom A♠ A♦ A♣ A♥ 🃏=K♣ Four Aces 10"
    data = score_json(board, "--variant", "pineapple-joker")
    assert (data["rows"]["bottom"]["class"], data["rows"]["bottom"]["jokers"]) == ("quads",
                                                                                  ["Kc"])


def test_five_of_a_kind_from_two_decks_pays_as_a_straight_flush():
    data = score_json("Qs Qh 2c / Kc Kd Kh 3c 3d / As As Ad Ad Ac", "--variant", "double-deck")
    assert data["rows"]["bottom"]["hand"] == "Five Aces"
    assert data["rows"]["bottom"]["class"] == "five of a kind"
    assert data["rows"]["bottom"]["royalty"] == 15  # the bottom's straight flush
    assert data["board"]["bottom"] == ["As", "As", "Ad", "Ad", "Ac"]


def test_under_two_decks_a_flush_with_a_pair_beats_a_higher_plain_flush():
    pair_flush, plain = "Ah Ah Kh 9h 2h", "As Ks Qs Js 9s"  # A-A-K-9-2 over A-K-Q-J-9
    legal = score_json(f"Qs Qh 2c / {plain} / {pair_flush}", "--variant", "double-deck")
    assert not legal["fouled"] and legal["rows"]["bottom"]["class"] == "flush"
    fouled = score_json(f"Qs Qh 2c / {pair_flush} / {plain}", "--variant", "double-deck")
    assert fouled["fouled"]
    assert fouled["foul_reasons"][0].startswith("the middle row (Ace-high flush) beats the "
                                                "bottom row")


def test_two_jokers_in_one_row_are_shown_each_with_its_face():
    board = "Qd Qh 2c / Kc Kd 5s 4h 3c / Jk Jk As Ks Qs"
    result = score(board, "--variant", "joker")
    assert row_line(result.stdout, "bottom") == "bottom 🃏=T♠ 🃏=J♠ A♠ K♠ Q♠ Royal flush 25"
    data = score_json(board, "--variant", "joker")
    assert data["rows"]["bottom"]["cards"] == ["Jk", "Jk", "As", "Ks", "Qs"]
    assert data["rows"]["bottom"]["jokers"] == ["Ts", "Js"]


def test_a_joker_shows_as_jk_with_its_face_where_symbols_cannot_be_encoded():
    from fantasyland.cli.render import row_text
    from fantasyland.evaluator import evaluate_board

    report = evaluate_board("Qs Qh Jk / 9c 9d 9h 5c 5d / As Ad Ac Kh Kd", rules="joker")
    ascii_out = Console(file=io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert row_text(report.top, out=ascii_out).plain == "Qs Qh Jk=Qc"


@pytest.mark.parametrize("board, variant, message", [
    ("Qs Qh Jk / 9c 9d 9h 5c 5d / As Ad Ac Kh Kd", "pineapple",
     "error: bad card 'Jk': a joker, and these rules deal none (a rules file's [deck] jokers "
     "= 1 or 2 deals them)\n"),
    ("Jk Qh Jk / 9c 9d 9h 5c 5d / As Ad Ac Kh Jk", "pineapple-joker",
     "error: too many jokers: 'Jk' is joker 3, and the deck holds 2 (in the top and bottom "
     "rows)\n"),
    ("Qs Qh 2c / As As Ad Ad Ac / Kc Kd Kh As 3d", "double-deck",
     "error: a third 'As': two decks hold two of each card (in the middle and bottom rows)\n"),
    ("Qs Qh 2c / As Ks Qd Jd 9s / Ah As Kh 9h 2h", "pineapple",
     "error: duplicate card 'As' in the middle and bottom rows\n"),
], ids=["joker without jokers", "a third joker", "a third copy", "a second copy, one deck"])
def test_a_card_the_rules_deck_does_not_hold_is_named_and_exits_2(board, variant, message):
    result = score(board, "--variant", variant)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == message


# --- a finished table: score BOARD --against BOARD ... -------------------------------------

FOUR_PLAYERS = ["6h 6s 4h / 8h 8s Jh 5h 3h / 2c 2d 2h Ks Qh",  # North (docs/scoring.md)
              "As Kd 4s / 3c 3d Qd Ts 5s / Jc Jd 7c 7d 9h",  # East
              "8c 8d 3s / 9c 9d Kh 7h 2s / Tc Td 5c 5d Qs",  # South
              "Kc Qc 7s / 6c 6d Js Th 9s / Ac Ad Ah 4c 4d"]  # West


def table_args(boards: list[str]) -> list[str]:
    return [boards[0], *(arg for b in boards[1:] for arg in ("--against", b))]


def test_a_table_settles_every_pair_and_prints_each_net():
    result = score(*table_args(FOUR_PLAYERS), "--variant", "chinese")
    assert result.exit_code == 0, result.output
    nets = re.findall(r"([+-]\d+|0)\s+│\s*$", result.output, re.MULTILINE)
    assert nets == ["+3", "-5", "+3", "-1"]
    assert "you v against 1: +3" in result.output
    players = score_json(*table_args(FOUR_PLAYERS), "--variant", "chinese")["players"]
    assert [p["net"] for p in players] == [3, -5, 3, -1]
    assert players[1]["pairs"] == [-3, 0, -1, -1]
    assert players[3]["set"]["rows"]["bottom"]["hand"] == "Aces full of Fours"


def test_the_same_works_for_ofc_with_royalties_and_a_foul():
    ours = "Qs Qd 7h / Qc Qh 6s 5d 4c / Ah Kh Jh 9h 8h"  # fouls: the middle's queens lose
    theirs = "As Ad 2c / 3c 4d 5h 7s 8c / Kc Kd 9c 9d 2d"  # fouls too: aces over 8-high
    third = "2h 3h 4h / 7d 8d 9s Tc Js / Ts Td Th 3s 3d"  # a straight, tens full
    players = score_json(ours, "--against", theirs, "--against", third, "--variant",
                         "pineapple")["players"]
    fouled = 6  # a fouled set pays the scoop (6) plus the other's royalties
    royalties = players[2]["set"]["royalties"]["total"]
    assert players[0]["pairs"] == [0, 0, -(fouled + royalties)]
    assert [p["net"] for p in players] == [-(fouled + royalties)] * 2 + [
        2 * (fouled + royalties)]


def test_a_table_marks_fouled_on_the_row_that_fouls():
    # Ours: a middle of two pair over a bottom of a pair (the middle fouls); theirs: aces on
    # top over an 8-high middle (the top fouls).
    ours = "2c 3d 4h / Qc Qh 6s 6d 4c / Ah Ad Jh 9h 8c"
    theirs = "As Ks 2d / 3c 4d 5h 7s 8d / Kc Kd 9c 9d 2s"
    result = score(ours, "--against", theirs, "--variant", "pineapple")
    assert result.exit_code == 0, result.output
    players: list[list[str]] = []  # each player's top, middle and bottom cells, unwrapped
    for line in result.stdout.splitlines():
        cells = [cell.strip() for cell in line.split("│")[1:5]]
        if len(cells) < 4:
            continue
        if cells[0]:
            players.append(cells[1:])
        else:
            players[-1] = [f"{a} {b}".strip() for a, b in zip(players[-1], cells[1:])]
    you, against = players
    assert [cell.endswith("(fouled)") for cell in you] == [False, True, False]
    assert [cell.endswith("(fouled)") for cell in against] == [True, False, False]


@pytest.mark.parametrize("args, message", [
    ([FOUR_PLAYERS[0], "--against", FOUR_PLAYERS[0]], "card '6h' is in"),
    (table_args(FOUR_PLAYERS + ["Kc Qc 7s / 6c 6d Js Th 9s / Ac Ad Ah 4c 4d"]), "5 players"),
    ([FOUR_PLAYERS[0], "--against", "surrender", "--variant", "standard"],
     "standard has no surrender"),
    ([FOUR_PLAYERS[0], "--against", "natural " + FOUR_PLAYERS[1].replace("/", ""), "--variant",
      "chinese"], "chinese pays no special hands"),
    ([FOUR_PLAYERS[0], "--against", "Ac Ad / 2c 3d 4h 5s 7c / 8c 8d 9h 9s Tc"],
     "the top row has 2 cards"),
])
def test_a_table_that_cannot_be_is_one_line_and_exit_2(args, message):
    result = score(*args)
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_a_chinese_poker_set_is_scored_without_fantasyland_lines():
    from typer.testing import CliRunner

    from fantasyland.cli.main import app

    out = CliRunner().invoke(app, ["score", "--variant", "chinese",
                                   "6h 6s 4h / 8h 8s Jh 5h 3h / 2c 2d 2h Ks Qh"]).output
    assert "Fouled:  no" in out
    assert "Fantasyland" not in out.split("\n", 1)[1] and "Royalt" not in out
