"""Boards: fouls, royalties, Fantasyland entry and staying, for every preset."""

from __future__ import annotations

import doctest
from itertools import product

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import fantasyland.evaluator.board
from fantasyland.evaluator.board import (Board, BoardError, BoardReport, evaluate_board,
                                         parse_board, row_strengths, row_values)
from fantasyland.evaluator.cards import JOKER, CardError, parse_cards
from fantasyland.evaluator.jokers import played_as
from fantasyland.evaluator.rules import ROWS
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.evaluator.strength import strength_of

PRESETS = ("standard", "pineapple", "progressive", "ultimate", "deuce")
HIGH_MIDDLE_PRESETS = ("standard", "pineapple", "progressive", "ultimate")
IVEY_TEXT = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"  # docs/rules.md, "Scoring"

# Rows that complete a board around the row under test. The first combination that shares
# no card with it and does not foul is used, so each preset finds its own legal board. No
# middle filler is 7-5-4-3-2, which would enter 2-7 Fantasyland by itself.
FILLERS = {
    "top": ("4c 3d 2h", "4d 3h 2s", "5h 3s 2c", "5s 4h 2d", "8c 5d 4h", "6h 5s 3c"),
    "middle": ("7c 6d 4c 3c 2c", "7d 6c 4d 3d 2d", "8h 6s 4h 3h 2h", "8s 6h 4s 3s 2s",
               "Tc 9d 7h 6s 5c", "Td 9h 7s 6c 5d",
               "9c 8c 7c 6c 5c", "9d 8d 7d 6d 5d", "9h 8h 7h 6h 5h"),
    "bottom": ("Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts",
               "9c 8c 7c 6c 5c", "9s 8s 7s 6s 5s", "6c 6d 6h 6s 5c", "Tc Td Th Ts 6c"),
}


def legal_board(rules: str = "standard", **rows: str) -> BoardReport:
    """The report of a legal board holding the given rows, the others filled in."""
    given_cards = {row: parse_cards(text) for row, text in rows.items()}
    missing = [row for row in ("top", "middle", "bottom") if row not in rows]
    for choice in product(*(FILLERS[row] for row in missing)):
        filled = dict(given_cards, **{row: parse_cards(t) for row, t in zip(missing, choice)})
        cards = [card for row in filled.values() for card in row]
        if len(set(cards)) < 13:
            continue
        report = evaluate_board(Board(filled["top"], filled["middle"], filled["bottom"]),
                                rules=rules)
        if not report.fouled:
            return report
    raise AssertionError(f"no legal {rules} board holds {rows}")


# --- parsing -------------------------------------------------------------------------------

def test_parse_board_reads_slashes_and_bars_in_any_card_spelling():
    expected = parse_board("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
    assert parse_board("6s6c4h|TdTs9cQs8c|3h3d3s2h2d") == expected
    assert parse_board("6♠ 6♣ 4♥ / 10d 10s 9c Qs 8c / 3h,3d,3s,2h,2d") == expected
    assert expected.format(ascii=True) == "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
    assert len(expected.cards) == 13
    assert parse_board("6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h 2d") == expected  # 3 / 5 / 5


@pytest.mark.parametrize("text, message", [
    ("6s 6c 4h / Td Ts 9c Qs 8c", "expected three rows"),
    ("6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h", "got 12 cards in .*: a set is 13 cards"),
    ("6s 6c / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d", "the top row has 2 cards"),
    ("6s 6c 4h / Td Ts 9c Qs / 3h 3d 3s 2h 2d 2c", "the middle row has 4 cards"),
    ("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 6s", "duplicate card '6s' in the top and bottom"),
])
def test_bad_board_raises_board_error(text, message):
    with pytest.raises(BoardError, match=message):
        parse_board(text)


@pytest.mark.parametrize("board, message", [
    (Board((0, 1), (4, 5, 6, 7, 8), (9, 10, 11, 12, 13)), "the top row has 2 cards: expected 3"),
    (Board((0, 1, 2), (4, 5, 6, 7, 8), (9, 10, 11, 12, 2)),
     "duplicate card '2h' in the top and bottom rows"),
    (Board((0, 1, 2), (4, 5, 6, 7, 7), (9, 10, 11, 12, 13)),
     "duplicate card '3s' twice in the middle row"),
    (Board((0, 1, 53), (4, 5, 6, 7, 8), (9, 10, 11, 12, 13)), "the top row holds 53"),
    (Board((0, 1, 52), (4, 5, 6, 7, 8), (9, 10, 11, 12, 13)),
     r"bad card 'Jk': a joker, and these rules deal none .* \(in the top row\)"),
    (Board((0, 1, "As"), (4, 5, 6, 7, 8), (9, 10, 11, 12, 13)), "the top row holds 'As'"),
])
def test_evaluate_board_refuses_a_board_built_in_code_that_is_not_13_distinct_cards(
        board, message):
    # Such a board once evaluated silently: a 2-card top read as "Four Twos".
    with pytest.raises(BoardError, match=message):
        evaluate_board(board)


def test_evaluate_board_accepts_numpy_card_ints():
    cards = np.array(parse_board(IVEY_TEXT).cards, dtype=np.int64)
    board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
    assert evaluate_board(board).royalties.total == 7


def test_bad_card_in_a_board_raises_card_error_quoting_it():
    with pytest.raises(CardError, match="'Xx'"):
        parse_board("6s 6c Xx / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")


# --- fouls: top against middle on one scale ------------------------------------------------

@pytest.mark.parametrize("top, middle", [
    pytest.param("Qs Qh 7d", "Qc Qd 9s 8h 2d", id="top_qq7_under_middle_qq982_is_legal"),
    pytest.param("As Kd Qh", "Ac Kc Qd 3d 2h", id="top_akq_under_middle_akq32_is_legal"),
    pytest.param("Qs Qh 7d", "Qc Qd 7c 5h 2d", id="top_qq7_under_middle_qq752_equal_kicker"),
    pytest.param("As Kd 4h", "Ac Kc 4d 3d 2h", id="top_ak4_under_middle_ak432"),
    pytest.param("As Ah Kd", "2c 2d 3h 3s 4c", id="top_pair_under_middle_two_pair"),
    pytest.param("As Ah Ad", "5c 4d 3h 2s Ac", id="top_trips_under_middle_wheel"),
    pytest.param("Qs Qh Qd", "Kc Kd Ks 7c 2c", id="top_trips_under_higher_middle_trips"),
    pytest.param("Ah Kh Qh", "Ac Kd Qs 3c 2d", id="top_three_flush_is_only_ace_high"),
    pytest.param("Qh Jd Tc", "Qs Jc Ts 4d 2h", id="top_three_straight_is_only_queen_high"),
    pytest.param("Qh Jh Th", "Kc Qd 9h 5s 3c", id="top_qjt_suited_under_middle_king_high"),
])
def test_top_not_above_middle_is_legal(top, middle):
    report = evaluate_board(f"{top} / {middle} / {free('bottom', top, middle)}")
    assert not report.fouled, report.foul_reasons


@pytest.mark.parametrize("top, middle, reason", [
    pytest.param("Qs Qh 7d", "Qc Qd 6s 5h 4d",
                 "the top row (Pair of Queens) beats the middle row (Pair of Queens) on kickers",
                 id="top_qq7_over_middle_qq654_fouls"),
    pytest.param("As Kd Qh", "Ac Kc Jd Td 9h", "the top row (Ace high) beats the middle row",
                 id="top_akq_over_middle_akjt9_fouls"),
    pytest.param("As Kd 5h", "Ac Kc 4d 3d 2h", "on kickers",
                 id="top_ak5_over_middle_ak432_fouls"),
    pytest.param("Ks Kh Kd", "Qs Qh Qd 7c 2c", "(Three Kings) beats the middle row (Three Queens)",
                 id="top_trips_over_lower_middle_trips_fouls"),
    pytest.param("2s 2h 4d", "Ac Kd Qh Jc 9s", "(Pair of Twos) beats",
                 id="top_pair_over_no_pair_fouls"),
    pytest.param("As Ah 4d", "Kc Kd Qh Jc 9s", "(Pair of Aces) beats",
                 id="top_aces_over_middle_kings_fouls"),
    pytest.param("Qh Jh Th", "Jc 9d 8h 5s 3c", "(Queen high) beats",
                 id="top_qjt_over_middle_jack_high_fouls"),
])
def test_top_above_middle_fouls(top, middle, reason):
    report = evaluate_board(f"{top} / {middle} / {free('bottom', top, middle)}")
    assert report.fouled
    assert any(reason in r for r in report.foul_reasons), report.foul_reasons


def free(row: str, *rows: str) -> str:
    """The first filler for ``row`` that shares no card with ``rows``."""
    used = set(parse_cards(" ".join(rows)))
    for filler in FILLERS[row]:
        if not used & set(parse_cards(filler)):
            return filler
    raise AssertionError(f"every {row} filler is blocked")


def test_same_rank_trips_on_top_and_in_the_middle_cannot_be_dealt_but_would_be_legal():
    # Only four cards of a rank exist, so no board holds QQQ on top and QQQxy in the
    # middle; the scale still puts any 5-card trips above the 3-card trips of its rank.
    assert strength_of(parse_cards("Qs Qh Qd")) < strength_of(parse_cards("Qc Qd Qh 3c 2d"))
    with pytest.raises(BoardError, match="duplicate"):
        parse_board("Qs Qh Qd / Qc Qd Qs 3c 2d / Ac Kc Qc Jc Tc")


@pytest.mark.parametrize("middle, bottom, legal", [
    pytest.param("9s 8h 7d 6c 5s", "9h 8d 7c 6s 5h", True, id="equal_straights_are_legal"),
    pytest.param("Kc Kd 3h 3s 2c", "Kh Ks 3c 3d 4c", True,
                 id="equal_two_pair_bottom_kicker_higher_is_legal"),
    pytest.param("Kc Kd 3h 3s 2c", "Kh Ks 2h 2d Ac", False,
                 id="middle_kings_up_over_bottom_fouls"),
    pytest.param("Ac Jc 8c 4c 2c", "Ks Qd Jh Tc 9s", False,
                 id="middle_flush_over_bottom_straight_fouls"),
    pytest.param("2c 2d 2h 3s 3c", "Ac Kc Qc Jc 9c", False,
                 id="middle_boat_over_bottom_flush_fouls"),
])
def test_middle_against_bottom(middle, bottom, legal):
    report = evaluate_board(f"{free('top', middle, bottom)} / {middle} / {bottom}")
    assert report.fouled is not legal, report.foul_reasons


# --- royalties: every entry of docs/rules.md's tables, on every preset ---------------------

RANKS = "23456789TJQKA"
# docs/rules.md: top pairs 66 = 1 .. AA = 9; trips 222 = 10 .. AAA = 22, one more per rank.
TOP_ROYALTIES = [(f"{r}h {r}s 2d", i + 1) for i, r in enumerate(RANKS[4:])]
TOP_ROYALTIES += [(f"{r}d {r}h {r}s", 10 + i) for i, r in enumerate(RANKS)]
TOP_ROYALTIES += [("5h 5s 2d", 0), ("Ah Ks Qd", 0)]

# Each class at its weakest and at its strongest hand, so both ends of a threshold show.
CLASS_HANDS = {
    "two pair": ("3s 3h 2d 2c 4d", "As Ah Kd Kc Qd"),
    "trips": ("2s 2h 2d 3c 4d", "As Ah Ad Kc Qd"),
    "straight": ("5d 4h 3s 2c Ad", "Ad Kh Qs Jc Td"),
    "flush": ("7d 5d 4d 3d 2d", "Ad Kd Qd Jd 9d"),
    "full house": ("2s 2h 2d 3c 3d", "As Ah Ad Kc Kd"),
    "quads": ("2s 2h 2d 2c 3d", "As Ah Ad Ac Kd"),
    "straight flush": ("5d 4d 3d 2d Ad", "Kd Qd Jd Td 9d"),
    "royal flush": ("Ad Kd Qd Jd Td",),
}
MIDDLE_ROYALTIES = {"two pair": 0, "trips": 2, "straight": 4, "flush": 8, "full house": 12,
                    "quads": 20, "straight flush": 30, "royal flush": 50}
BOTTOM_ROYALTIES = {"two pair": 0, "trips": 0, "straight": 2, "flush": 4, "full house": 6,
                    "quads": 10, "straight flush": 15, "royal flush": 25}


def class_cases(table: dict[str, int]):
    return [pytest.param(cards, points, id=f"{name}-{cards.replace(' ', '')}")
            for name, points in table.items() for cards in CLASS_HANDS[name]]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("top, points", TOP_ROYALTIES)
def test_top_royalty_from_rules_md(preset, top, points):
    report = legal_board(preset, top=top)
    assert report.royalties.top == points


@pytest.mark.parametrize("preset", HIGH_MIDDLE_PRESETS)
@pytest.mark.parametrize("middle, points", class_cases(MIDDLE_ROYALTIES))
def test_middle_royalty_from_rules_md(preset, middle, points):
    report = legal_board(preset, middle=middle)
    assert report.royalties.middle == points


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bottom, points", class_cases(BOTTOM_ROYALTIES))
def test_bottom_royalty_from_rules_md(preset, bottom, points):
    report = legal_board(preset, bottom=bottom)
    assert report.royalties.bottom == points


def test_royalties_total_is_the_sum_of_the_rows():
    report = evaluate_board(IVEY_TEXT)
    assert (report.royalties.top, report.royalties.middle, report.royalties.bottom) == (1, 0, 6)
    assert report.royalties.total == 7


# --- 2-7 (deuce) middle --------------------------------------------------------------------

@pytest.mark.parametrize("middle, points", [
    pytest.param("7h 5d 4s 3c 2h", 8, id="75432_is_8"),
    pytest.param("7h 6d 5s 4c 2h", 4, id="76542_the_worst_7_high_is_4"),
    pytest.param("7h 6d 4s 3c 2h", 4, id="76432_is_7_high_4"),
    pytest.param("8h 7d 6s 5c 3h", 2, id="87653_the_worst_8_high_is_2"),
    pytest.param("8h 5d 4s 3c 2h", 2, id="85432_the_best_8_high_is_2"),
    pytest.param("9h 8d 7s 6c 4h", 1, id="98764_the_worst_9_high_is_1"),
    pytest.param("9h 5d 4s 3c 2h", 1, id="95432_is_9_high_1"),
    pytest.param("Th 9d 8s 7c 5h", 0, id="t9875_qualifies_for_nothing"),
    pytest.param("Th 5d 4s 3c 2h", 0, id="t5432_qualifies_for_nothing"),
])
def test_deuce_middle_royalties(middle, points):
    report = legal_board("deuce", middle=middle)
    assert report.royalties.middle == points


@pytest.mark.parametrize("middle", [
    pytest.param("Jh 5d 4s 3c 2h", id="jack_high"),
    pytest.param("Ah 5d 4s 3c 2h", id="a5432_is_ace_high_not_a_wheel"),
    pytest.param("8h 8d 4s 3c 2h", id="pair"),
    pytest.param("6h 5d 4s 3c 2h", id="straight_65432"),
    pytest.param("Th 9d 8s 7c 6h", id="straight_t9876"),
    pytest.param("9h 7h 5h 3h 2h", id="flush"),
    pytest.param("7h 5h 4h 3h 2h", id="suited_75432_is_a_flush"),
])
def test_deuce_middle_must_be_ten_high_or_lower_without_pair_straight_or_flush(middle):
    report = evaluate_board(f"4c 3d 2d / {middle} / Ac Kc Qc Jc Tc", rules="deuce")
    assert report.fouled
    assert report.foul_reasons == (
        f"the middle row ({report.middle.name}) must be T-high or better",)
    assert report.royalties.total == 0 and report.fantasyland_cards is None


def test_deuce_middle_is_not_ordered_against_top_or_bottom():
    # Aces on top over a 7-high middle is normal in 2-7; only bottom must beat top.
    report = evaluate_board("As Ah Kd / 7h 5d 4s 3c 2h / 3s 3d 3h 9c 9d", rules="deuce")
    assert not report.fouled
    assert report.royalties == type(report.royalties)(9, 8, 6)
    assert report.middle.name == "7-5-4-3-2 low"


def test_deuce_bottom_must_beat_top():
    report = evaluate_board("As Ah Kd / 7h 5d 4s 3c 2h / Ks Kh Qd Jc 9d", rules="deuce")
    assert report.foul_reasons == (
        "the top row (Pair of Aces) beats the bottom row (Pair of Kings)",)


# --- Fantasyland entry ---------------------------------------------------------------------

@pytest.mark.parametrize("preset, cards", [
    # entry cards for tops JJ, QQ, KK, AA, 222 (docs/rules.md, "Fantasyland")
    ("standard", (None, 13, 13, 13, 13)),
    ("pineapple", (None, 14, 14, 14, 14)),
    ("progressive", (None, 14, 15, 16, 17)),
    ("ultimate", (None, 14, 15, 16, 17)),
    ("deuce", (None, None, 14, 14, 14)),
])
def test_fantasyland_entry_cards_by_top(preset, cards):
    tops = ("Jh Js 2d", "Qh Qs 2d", "Kh Ks 2d", "Ah As 2d", "2d 2h 2s")
    assert tuple(legal_board(preset, top=top).fantasyland_cards for top in tops) == cards


@pytest.mark.parametrize("top, middle, cards", [
    pytest.param("4c 3d 2d", "7h 5d 4s 3c 2h", 14, id="75432_middle_alone_14"),
    pytest.param("Kh Ks 2d", "7h 5d 4s 3c 2h", 15, id="kk_top_and_75432_middle_15"),
    pytest.param("Ah As 2d", "7h 5d 4s 3c 2h", 15, id="aa_top_and_75432_middle_15"),
    pytest.param("Kh Ks 2d", "7h 6d 4s 3c 2h", 14, id="kk_top_with_76432_middle_14"),
    pytest.param("Qh Qs 2d", "7h 6d 4s 3c 2h", None, id="qq_top_is_not_enough"),
])
def test_deuce_entry(top, middle, cards):
    report = evaluate_board(f"{top} / {middle} / {free('bottom', top, middle)}", rules="deuce")
    assert report.fantasyland_cards == cards


# --- staying in Fantasyland ----------------------------------------------------------------

@pytest.mark.parametrize("preset, rows, stays", [
    ("standard", {"top": "2d 2h 2s"}, ("top",)),
    ("standard", {"middle": "2s 2h 2d 3c 3d"}, ("middle",)),
    ("standard", {"middle": "Ad Kd Qd Jd 9d"}, ()),          # a flush is not enough
    ("standard", {"bottom": "2s 2h 2d 2c 3d"}, ("bottom",)),
    ("standard", {"bottom": "As Ah Ad Kc Kd"}, ()),           # nor a full house bottom
    ("standard", {"top": "Ah As Kd"}, ()),                    # AA enters but does not stay
    *[(preset, rows, stays) for preset in ("pineapple", "progressive", "ultimate", "deuce")
      for rows, stays in (({"top": "2d 2h 2s"}, ("top",)),
                          ({"bottom": "2s 2h 2d 2c 3d"}, ("bottom",)),
                          ({"bottom": "5d 4d 3d 2d Ad"}, ("bottom",)),
                          ({"bottom": "As Ah Ad Kc Kd"}, ()))],
    *[(preset, {"middle": "2s 2h 2d 3c 3d"}, ())
      for preset in ("pineapple", "progressive", "ultimate")],  # no middle boat here
])
def test_stay_rows(preset, rows, stays):
    report = legal_board(preset, **rows)
    # the fillers bring a royal bottom, which stays by itself; judge only the rows asked
    assert tuple(r for r in report.stay_rows if r in rows) == stays


def test_stays_reports_any_row():
    assert legal_board("pineapple", top="2d 2h 2s").stays
    assert not evaluate_board("Ah As Kd / 2s 2h 2d 3c 3d / 4s 4h 4d 3s 3h", rules="pineapple").stays


# --- a fouled board ------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
def test_fouled_board_scores_no_royalties_no_entry_no_stay(preset):
    # AAA on top over the middle's kings fouls every preset's order (bottom over top in 2-7).
    report = evaluate_board("As Ah Ad / Kc Kd Ks 7c 2c / Qc Qd Qh 2d 2h", rules=preset)
    assert report.fouled
    assert report.royalties.total == 0
    assert report.fantasyland_cards is None
    assert report.stay_rows == () and not report.stays
    assert report.top.royalty == 22  # the row itself still says what it would have paid


# --- properties on random boards -----------------------------------------------------------

boards = st.permutations(range(52)).map(lambda d: Board(tuple(d[:3]), tuple(d[3:8]),
                                                        tuple(d[8:13])))


def deuce_middle_qualifies(cards: tuple[int, ...]) -> bool:
    ranks = sorted({c >> 2 for c in cards})
    flush = len({c & 3 for c in cards}) == 1
    straight = len(ranks) == 5 and ranks[4] - ranks[0] == 4
    return len(ranks) == 5 and ranks[4] <= 8 and not flush and not straight  # 8 is the ten


@given(boards, st.sampled_from(PRESETS))
def test_random_board_fouls_exactly_when_the_rows_are_out_of_order(board, preset):
    report = evaluate_board(board, rules=preset)
    top, middle, bottom = (strength_of(board.row(r)) for r in ("top", "middle", "bottom"))
    if preset == "deuce":
        expected = bottom < top or not deuce_middle_qualifies(board.middle)
    else:
        expected = bottom < middle or middle < top
    assert report.fouled == expected


@given(boards, st.sampled_from(PRESETS))
def test_random_fouled_board_never_reports_royalties_entry_or_stay(board, preset):
    report = evaluate_board(board, rules=preset)
    if report.fouled:
        assert report.royalties.total == 0
        assert report.fantasyland_cards is None and report.stay_rows == ()
    else:
        assert report.royalties.total == sum(report.row(r).royalty
                                             for r in ("top", "middle", "bottom"))


# --- jokers on typed boards against every choice of faces ----------------------------------

JOKER_RULES = ("pineapple-joker", "progressive-joker",
               "fixtures/house/jokers_five_of_a_kind.toml")


@st.composite
def joker_boards(draw) -> Board:
    """A board of one or two jokers and 11 or 12 cards, often laid low to high (top to
    bottom) so that many are legal and a joker may have to play down."""
    jokers = draw(st.integers(1, 2))
    cards = draw(st.lists(st.integers(0, 51), min_size=13 - jokers, max_size=13 - jokers,
                          unique=True))
    if draw(st.booleans()):
        cards.sort(key=lambda card: card >> 2)
    for _ in range(jokers):
        cards.insert(draw(st.integers(0, len(cards))), JOKER)
    return Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))


def every_choice_of_faces(cards: tuple[int, ...], five_of_a_kind: bool) -> list[tuple]:
    """Each joker of the row as any of the 52 cards, but never a card of its row or the
    other joker's face, save where the row is then five of one rank and the rules count
    five of a kind (docs/rules.md, "Jokers")."""
    real = [card for card in cards if card != JOKER]
    choices = []
    for faces in product(range(52), repeat=len(cards) - len(real)):
        if len({card >> 2 for card in real + list(faces)}) == 1 and len(cards) == 5:
            if five_of_a_kind:
                choices.append(faces)
        elif len(set(faces)) == len(faces) and not set(faces) & set(real):
            choices.append(faces)
    return choices


def ways_of_playing(row: str, cards: tuple[int, ...], rules) -> set[tuple[int, int]]:
    """The (strength, value) of each way row ``cards`` plays: every choice of its faces."""
    faces = every_choice_of_faces(cards, rules.deck.five_of_a_kind) if JOKER in cards else [()]
    played = np.array([played_as(cards, f) for f in faces], dtype=np.int64)
    return set(zip(row_strengths(played).tolist(), row_values(row, played, rules).tolist()))


def worth_of_set(ways: dict[str, tuple[int, int]], rules) -> tuple:
    """How the rule ranks a set whose rows play ``ways`` (strength, value): legal first,
    then the royalties with the worth of staying if it stays, then the bottom, middle and
    top."""
    strength = {row: ways[row][0] for row in ROWS}
    legal = (strength["bottom"] >= strength["middle"] >= strength["top"]
             and all(rules.qualify_table(row)[ways[row][1]] for row in ROWS))
    stays = any(rules.stay_table(row)[ways[row][1]] for row in ROWS)
    worth = (sum(int(rules.royalty_table(row)[ways[row][1]]) for row in ROWS)
             + (rules.repeat_value if stays else 0)) if legal else -np.inf
    return legal, worth, strength["bottom"], strength["middle"], strength["top"]


def best_worth_of_any_faces(board: Board, rules) -> tuple:
    """The best ``worth_of_set`` over every choice of faces for every joker, by brute force."""
    ways = [ways_of_playing(row, board.row(row), rules) for row in ROWS]
    return max(worth_of_set(dict(zip(ROWS, way)), rules) for way in product(*ways))


@given(joker_boards(), st.sampled_from(JOKER_RULES))
@example(parse_board("7c 2c 3d / As Ks Qs Js Jk / Ah Kh Qh Jh Th", deck=find_rules("joker").deck),
         "pineapple-joker")  # a middle equal to the bottom is legal (issue 44, item 1)
@settings(max_examples=200)
def test_the_faces_score_chooses_for_jokers_are_the_best_of_every_choice(board, rules):
    rules = find_rules(rules)
    report = evaluate_board(board, rules=rules)
    chosen = report.board
    for row in ROWS:  # each joker stands for a face the rules allow it in its row
        if JOKER in board.row(row):
            assert chosen.faces(row) in every_choice_of_faces(board.row(row),
                                                              rules.deck.five_of_a_kind)
    played = {row: ways_of_playing(row, chosen.played(row), rules).pop() for row in ROWS}
    assert worth_of_set(played, rules) == best_worth_of_any_faces(board, rules)
    assert report.fouled == (not worth_of_set(played, rules)[0])


def test_board_doctests_pass():
    # pyproject's testpaths hold only tests/, so the module's examples are run from here.
    result = doctest.testmod(fantasyland.evaluator.board)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("middle, cls", [
    ("Ac 2d 3c 4c 5c", "high card"),  # 2-7: the ace is high, so the wheel is no straight
    ("7c 6d 5c 4c 3c", "straight"),
    ("9c 7c 5c 4c 2c", "flush"),
    ("9c 7d 5c 4c 2c", "high card"),
])
def test_a_deuce_to_seven_middle_is_classed_on_its_own_scale(middle, cls):
    report = evaluate_board(f"Qh Qd 4h / {middle} / As Ks Qs Js 9s", rules="deuce")
    assert report.middle.class_name == cls
