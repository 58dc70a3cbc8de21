"""Classic Chinese Poker settles as docs/rules.md says: a table of four, the bonuses,
naturals, surrender and the sweep, from the rules files in fixtures/house/."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from fantasyland.evaluator import RulesError, evaluate_board, find_rules, load_rules, parse_cards
from fantasyland.evaluator.board import Board
from fantasyland.evaluator.naturals import DETECTORS, best_natural
from fantasyland.evaluator.scoring import Seat, settle, settle_table

HOUSE = Path(__file__).resolve().parents[1] / "fixtures" / "house"
CHINESE = find_rules("chinese")

# A four-player table (docs/scoring.md): West's back, aces full, is the best hand at the
# table, and West loses anyway.
NORTH = "6h 6s 4h / 8h 8s Jh 5h 3h / 2c 2d 2h Ks Qh"
EAST = "As Kd 4s / 3c 3d Qd Ts 5s / Jc Jd 7c 7d 9h"
SOUTH = "8c 8d 3s / 9c 9d Kh 7h 2s / Tc Td 5c 5d Qs"
WEST = "Kc Qc 7s / 6c 6d Js Th 9s / Ac Ad Ah 4c 4d"


def board(text: str, rules=CHINESE):
    return evaluate_board(text, rules=rules)


def seats(*texts: str, rules=CHINESE) -> list[Seat]:
    return [Seat(board(t, rules)) for t in texts]


def test_the_preset_is_closed_chinese_poker_for_two_to_four():
    for alias in ("chinese-poker", "pusoy", "sap-sam"):
        assert find_rules(alias) is CHINESE
    assert CHINESE.dealing == "closed" and CHINESE.seats == 4
    assert not CHINESE.entry and not CHINESE.stay
    assert not any(CHINESE.royalty_table(row).any() for row in ("top", "middle", "bottom"))


def test_a_four_player_table_north_3_east_minus_5_south_3_west_minus_1():
    result = settle_table(seats(NORTH, EAST, SOUTH, WEST), CHINESE)
    assert result.totals == (3, -5, 3, -1)
    assert result.pairs[0][1] == 3 and result.pairs[0][2] == -1 and result.pairs[0][3] == 1
    assert result.pairs[1][2] == -1 and result.pairs[1][3] == -1 and result.pairs[2][3] == 1


def test_east_with_the_sevens_in_the_middle_beats_west_and_loses_less():
    east = "As Kd 4s / 7c 7d Qd Ts 5s / Jc Jd 3c 3d 9h"
    assert not board(east).fouled
    assert settle(board(east), board(WEST)) == 1  # front and middle: the middle now East's
    assert settle_table(seats(NORTH, east, SOUTH, WEST), CHINESE).totals[1] == -3


def test_east_cannot_put_the_jacks_in_front():
    cards = parse_cards(EAST.replace("/", " "))
    jacks = [c for c in cards if c >> 2 == 9]
    rest = [c for c in cards if c not in jacks]
    for third in rest:
        left = [c for c in rest if c != third]
        for middle in combinations(left, 5):
            bottom = tuple(c for c in left if c not in middle)
            set_ = Board((*jacks, third), middle, bottom)
            assert evaluate_board(set_, rules=CHINESE).fouled


def test_the_bonus_example_a_pays_b_3_under_the_typical_scale():
    typical = load_rules(HOUSE / "chinese_typical.toml")
    a = board("6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh 8c 8d", typical)
    b = board("Qc Qd 7c / Jc Jd Jh 2c 2d / 5c 5d 5h 5s Ac", typical)
    assert settle(a, b) == -3  # A wins 3 for the front; B 2 for the middle, 4 for the back
    base = [board(t) for t in ("6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh 8c 8d",
                               "Qc Qd 7c / Jc Jd Jh 2c 2d / 5c 5d 5h 5s Ac")]
    assert settle(*base) == -1  # base payments: B wins two of three


def test_a_bonus_is_paid_by_the_loser_of_the_row_only():
    typical = load_rules(HOUSE / "chinese_typical.toml")
    higher = board("Kc Kd Kh / 2c 3d 4h 5s 6c / 9c 9d 9h 8c 8d", typical)
    lower = board("6c 6d 6h / 2d 3h 4s 5c 6s / Tc Td Th Ac Ad", typical)
    plain = board("5d 3s 2h / 4c 6h 8s 9s Kd / Jc Jd Jh Js Qs", typical)
    assert not any(b.fouled for b in (higher, lower, plain))
    assert settle(higher, lower) == 3 + 0 - 1  # front trips 3; middle tied; back lost 1
    assert settle(lower, plain) == 3 + 1 - 4  # the front trips win 3; quads back pay 4
    assert settle(plain, lower) == -(3 + 1 - 4)


@pytest.mark.parametrize("name, holds, misses", [
    ("six pairs", "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s",
     "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 8d 9s"),
    ("five pairs and trips", "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d",
     "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 8d"),
    ("four trips", "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 9s",
     "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 6h 9s"),
    ("three quads", "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 9s",
     "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5s 9s"),
    ("three straights", "Ac 2d 3h 4c 5d 6h 7c 8d 9h Tc Jd Qh Ks",
     "Ac 2d 3h 4c 5d 6h 7c 8d 9h Tc Jd Qh Qs"),
    ("three flushes", "2c 4c 6c 8c Tc 3d 5d 7d 9d Jd 2h 4h 6h",
     "2c 4c 6c 8c Tc 3d 5d 7d 9d Jd 2h 4h 6s"),
    ("three straight flushes", "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah",
     "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh As"),
    ("complete straight", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",
     "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc"),
    ("one suit", "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
     "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah"),
    ("one colour", "2d 3h 4d 5h 6d 7h 8d 9h Td Jh Qd Kh Ad",
     "2d 3h 4d 5h 6d 7h 8d 9h Td Jh Qd Kh As"),
    ("twelve of one colour", "2d 3h 4d 5h 6d 7h 8d 9h Td Jh Qd Kh As",
     "2d 3h 4d 5h 6d 7h 8d 9h Td Jh Qd Kc As"),
    ("small", "2c 2d 3h 3s 4c 5d 5h 6s 6c 7d 7h 8s 8c",
     "2c 2d 3h 3s 4c 5d 5h 6s 6c 7d 7h 8s 9c"),
    ("big", "8c 8d 9h 9s Tc Jd Jh Qs Qc Kd Kh As Ac",
     "7c 8d 9h 9s Tc Jd Jh Qs Qc Kd Kh As Ac"),
    ("twelve picture cards", "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c",
     "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh As 2c"),
])
def test_every_natural_has_a_positive_and_a_near_miss(name, holds, misses):
    detect = DETECTORS[name]
    assert detect(tuple(sorted(parse_cards(holds)))) is not None
    assert detect(tuple(sorted(parse_cards(misses)))) is None


def _cut_into(cards, fits, sizes=(5, 5, 3)) -> bool:
    """Brute force: whether some cut of the cards into rows of ``sizes`` has every row
    ``fits`` (each 5-card, then 3-card subset tried in turn, rows that do not fit dropped)."""
    if not sizes:
        return True
    return any(fits(row) and _cut_into(set(cards) - set(row), fits, sizes[1:])
               for row in combinations(sorted(cards), sizes[0]))


def _is_straight(row) -> bool:
    ranks = sorted({c >> 2 for c in row})
    wheel = {12, 0, 1, 2, 3} if len(row) == 5 else {12, 0, 1}
    return len(ranks) == len(row) and (ranks[-1] - ranks[0] == len(row) - 1
                                       or set(ranks) == wheel)


def _is_flush(row) -> bool:
    return len({c & 3 for c in row}) == 1


def test_three_straights_and_three_flushes_are_found_as_a_brute_force_finds_them():
    # The detectors search by rank and suit counts; this cuts the cards every way there is.
    import random

    rng = random.Random(8)
    hands = []
    while len(hands) < 40:  # three straights, of random ranks and suits, and near misses
        ranks = [r for low in (rng.randrange(-1, 9), rng.randrange(-1, 9)) for r in
                 range(low, low + 5)] + list(range(k := rng.randrange(-1, 11), k + 3))
        cards = {(r % 13) * 4 + rng.randrange(4) for r in ranks}
        if len(cards) == 13:
            hands.append(cards)
            swapped = set(cards)
            swapped.remove(rng.choice(sorted(cards)))
            swapped.add(rng.choice(sorted(set(range(52)) - cards)))
            hands.append(swapped)
    for _ in range(20):  # three flushes, and near misses
        suits = [rng.randrange(4) for _ in range(3)]
        cards = set()
        for suit, size in zip(suits, (5, 5, 3)):
            cards |= set(rng.sample([r * 4 + suit for r in range(13) if r * 4 + suit
                                     not in cards], size))
        swapped = set(cards)
        swapped.remove(rng.choice(sorted(cards)))
        swapped.add(rng.choice(sorted(set(range(52)) - cards)))
        hands += [cards, swapped]
    found = {"three straights": 0, "three flushes": 0}
    for cards in hands:
        for name, fits in (("three straights", _is_straight), ("three flushes", _is_flush)):
            held = DETECTORS[name](tuple(sorted(cards))) is not None
            assert held == _cut_into(cards, fits), (name, sorted(cards))
            found[name] += held
    assert all(0 < n < len(hands) // 2 for n in found.values()), found


def test_every_natural_of_the_schedules_is_tested():
    named = {n.name for f in HOUSE.glob("chinese_*.toml")
             for n in load_rules(f).showdown.naturals.hands}
    assert named <= set(DETECTORS)
    assert set(DETECTORS) == {  # the parametrized list above, by name
        "six pairs", "five pairs and trips", "four trips", "three quads", "three straights",
        "three flushes", "three straight flushes", "complete straight", "one suit",
        "one colour", "twelve of one colour", "small", "big", "twelve picture cards"}


def test_two_holders_of_a_natural_compare_as_the_rules_say():
    six = DETECTORS["six pairs"]
    aces = six(tuple(sorted(parse_cards("Ac Ad 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s"))))
    kings = six(tuple(sorted(parse_cards("Kc Kd 3h 3s 4h 4s 5h 5s 6h 6s 7h 7s 9h"))))
    assert aces > kings
    straights = DETECTORS["three straights"]
    low = straights(tuple(sorted(parse_cards("Ac 2d 3h 4c 5d 6h 7c 8d 9h Tc Jd Qh Ks"))))
    # the best of its cuts: T-A behind, 5-9 in the middle, 2-3-4 in front (by high cards)
    assert low == (12, 7, 2)
    flushes = DETECTORS["three flushes"]
    key = flushes(tuple(sorted(parse_cards("2c 4c 6c 8c Ac 3d 5d 7d 9d Jd 2h 4h 6h"))))
    worse = flushes(tuple(sorted(parse_cards("2c 4c 6c 8c Kc 3d 5d 7d 9d Jd 2s 4s 6s"))))
    assert key > worse  # the backs decide: ace-high against king-high


def test_the_highest_natural_held_is_the_one_declared():
    typical = load_rules(HOUSE / "chinese_typical.toml").showdown.naturals
    dragon = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")  # also three straights
    held = best_natural(dragon, typical)
    assert held.natural.name == "complete straight" and held.natural.value == 13


def test_naturals_settle_against_sets_and_each_other():
    typical = load_rules(HOUSE / "chinese_typical.toml")
    long = load_rules(HOUSE / "chinese_long_schedule.toml")
    six = best_natural(parse_cards("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s"),
                       typical.showdown.naturals)
    dragon = best_natural(parse_cards("2h 3h 4s 5h 6h 7h 8c 9h Th Jh Qh Kh Ah"),
                          typical.showdown.naturals)
    table = [Seat(natural=six), Seat(natural=dragon), Seat(board(NORTH, typical)),
             Seat(board(EAST, typical))]
    result = settle_table(table, typical)
    assert result.pairs[0][1] == -13 and result.pairs[0][2] == 3 and result.pairs[1][3] == 13
    assert result.pairs[2][3] == settle(board(NORTH, typical), board(EAST, typical))
    assert sum(result.totals) == 0
    flushes = best_natural(parse_cards("2c 4c 6c 8c Tc 3d 5d 7d 9d Jd 2h 4h 6h"),
                           long.showdown.naturals)
    quads = best_natural(parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 9s"),
                         long.showdown.naturals)
    assert quads.natural.name == "three quads"
    difference = settle_table([Seat(natural=flushes), Seat(natural=quads)], long)
    assert difference.pairs[1][0] == 16 - 3  # against a bank: the difference


def test_a_surrender_pays_each_player_and_two_surrenders_cancel():
    result = settle_table([Seat(surrendered=True), Seat(surrendered=True),
                           *seats(NORTH, WEST)], CHINESE)
    assert result.pairs[0] == (0, 0, -3, -3) and result.pairs[1][0] == 0
    assert result.pairs[2][3] == settle(board(NORTH), board(WEST))
    with pytest.raises(ValueError, match="no surrender"):
        settle_table([Seat(surrendered=True), *seats(NORTH)], find_rules("standard"))


def test_the_sweep_pays_9_from_each_player_scooped_at_a_table_of_three_or_more():
    sweep = load_rules(HOUSE / "chinese_sweep_9.toml")
    best = "Ac Ad 2h / Kc Kd Kh 3c 4d / 9s Ts Js Qs Ks"  # pair of aces front, trips, a flush
    others = ["Qc Qd 3h / Jc Jd 5h 6s 7c / Tc Td Th 8h 8d",
              "Jh Js 4h / 9c 9d 2c 5d 6d / 7h 7d 7s 2d 2s"]
    result = settle_table(seats(best, *others, rules=sweep), sweep)
    bonus = {1: 0, 2: 0}
    for j in (1, 2):
        plain = settle(board(best, sweep), board(others[j - 1], sweep))
        bonus[j] = result.pairs[0][j] - plain
    assert bonus == {1: 3, 2: 3}  # 9 instead of 6 from each, besides the bonuses
    heads_up = settle_table(seats(best, others[0], rules=sweep), sweep)
    assert heads_up.pairs[0][1] == settle(board(best, sweep), board(others[0], sweep))


@pytest.mark.parametrize("text, message", [
    ('[naturals]\nhands = [{ hand = "seven pairs", value = 3 }]', "unknown natural 'seven pairs'"),
    ('[naturals]\nhands = [{ hand = "six pairs", value = 3 }, { hand = "six and a half pairs", '
     'value = 4 }]', "in the schedule twice"),
    ('[naturals]\nbetween = "lower"', "naturals.between"),
    ('[bonuses.top]\ntrips = 0', "bonuses.top.trips: expected a whole number from 1"),
    ('[bonuses.top]\ntrips = 3\n[royalties.top]\nQQ = 7', "both given"),
    ('[scoring]\nsurrender = -1', "scoring.surrender"),
    ('[scoring]\nunit = "big blinds"', "scoring.unit: expected one word"),
])
def test_bad_chinese_rules_files_name_the_key(tmp_path, text, message):
    path = tmp_path / "house.toml"
    path.write_text('base = "chinese"\n' + text + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match=message):
        load_rules(path)
