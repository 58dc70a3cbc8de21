"""``fantasyland deal``: the same hands from the same seed, the sizes asked for, bad options."""

from __future__ import annotations

from collections import Counter

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules, parse_cards
from fantasyland.optimizer.solver.dealing import (PROGRESSIVE_MIX, deal_hands, parse_size_weights,
                                                  size_mix)

runner = CliRunner()


def deal(*args: str) -> list[str]:
    result = runner.invoke(app, ["deal", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_the_same_seed_deals_the_same_hands():
    assert deal("--cards", "14", "--hands", "50", "--seed", "7") == \
        deal("--cards", "14", "--hands", "50", "--seed", "7")


def test_another_seed_deals_other_hands():
    assert deal("--cards", "14", "--hands", "5", "--seed", "7") != \
        deal("--cards", "14", "--hands", "5", "--seed", "8")


def test_a_longer_deal_starts_with_the_shorter_one():
    assert deal("--cards", "mixed", "--variant", "progressive", "--hands", "200")[:50] == \
        deal("--cards", "mixed", "--variant", "progressive", "--hands", "50")


@pytest.mark.parametrize("cards", [13, 14, 17])
def test_every_hand_has_the_count_asked_for_and_distinct_cards(cards):
    lines = deal("--cards", str(cards), "--hands", "300", "--seed", "3")
    assert len(lines) == 300
    for line in lines:
        dealt = parse_cards(line, count=cards)  # refuses duplicates and wrong counts
        assert list(dealt) == sorted(dealt, reverse=True)


def test_count_zero_deals_nothing():
    assert deal("--hands", "0") == []


def test_the_default_deals_the_variants_own_size():
    assert {len(line.split()) for line in deal("--hands", "20")} == {14}  # pineapple
    assert {len(line.split()) for line in deal("--hands", "20", "--variant", "standard")} == {13}


def test_mixed_progressive_sizes_follow_the_documented_frequencies():
    lines = deal("--cards", "mixed", "--variant", "progressive", "--hands", "4000")
    sizes = Counter(len(line.split()) for line in lines)
    assert set(sizes) == {14, 15, 16, 17}
    for size, share in PROGRESSIVE_MIX.items():
        assert sizes[size] / 4000 == pytest.approx(share, abs=0.03)
    assert sizes[14] > sizes[15] > sizes[16] > sizes[17]  # QQ entries and repeats most often


def test_mixed_covers_only_the_sizes_a_variant_deals():
    assert size_mix(find_rules("pineapple")) == {14: 1.0}
    assert set(size_mix(find_rules("deuce"))) == {14, 15}
    assert size_mix(find_rules("standard")) == {13: 1.0}  # not in the table: equal shares
    assert sum(size_mix(find_rules("ultimate")).values()) == pytest.approx(1.0)


def test_weighted_sizes():
    assert parse_size_weights("14:3,17:1", find_rules("pineapple")) == {14: 0.75, 17: 0.25}
    sizes = Counter(len(h) for h in deal_hands(2000, {14: 0.75, 17: 0.25}, 5))
    assert sizes[14] / 2000 == pytest.approx(0.75, abs=0.04)


def test_writes_to_a_file(tmp_path):
    out = tmp_path / "hands.txt"
    assert deal("--hands", "3", "-o", str(out)) == []
    assert out.read_text().splitlines() == deal("--hands", "3")


def test_a_size_the_variant_never_deals_is_dealt_with_a_note():
    result = runner.invoke(app, ["deal", "--cards", "17", "--hands", "1"])
    assert result.exit_code == 0
    assert len(result.stdout.split()) == 17
    assert "never 17" in result.stderr


@pytest.mark.parametrize("text, sizes", [
    ("14-16", {14: 1 / 3, 15: 1 / 3, 16: 1 / 3}),  # the grammar of train and bench
    ("14,17", {14: 0.5, 17: 0.5}),
    ("14-15:2,17:1", {14: 0.4, 15: 0.4, 17: 0.2}),
    ("14-15,15", {14: 0.5, 15: 0.5}),  # a count given twice without weights: once
])
def test_deal_reads_counts_as_train_and_bench_do_and_weights_too(text, sizes):
    assert parse_size_weights(text, find_rules("progressive")) == pytest.approx(sizes)


@pytest.mark.parametrize("cards, part", [
    ("12", "12"), ("18", "18"), ("x", "x"), ("14:0", "14:0"), ("14:1,14:2", "14:2"),
    ("14:-1", "14:-1"), ("mixd", "mixd"), ("14,14:2", "14:2"),
])
def test_bad_card_counts_are_refused_with_exit_2(cards, part):
    result = runner.invoke(app, ["deal", "--cards", cards])
    assert result.exit_code == 2
    expected = "14 is given twice and has a weight" if part == "14:2" else "expected 13 to 17"
    assert result.stderr.startswith(f"error: Invalid value for '--cards': bad card count "
                                    f"{part!r}: {expected}")
    assert result.stdout == ""


@pytest.mark.parametrize("command", ["deal", "train", "bench"])
@pytest.mark.parametrize("cards", ["14-", "14-,16", "1_5", "\uff11\uff15"])
def test_a_range_without_its_end_or_a_count_not_in_ascii_digits_is_refused(command, cards):
    # One parser reads every --cards: "14-" was read as 14, "1_5" as 15.
    result = runner.invoke(app, [command, "--cards", cards])
    assert result.exit_code == 2
    bad = cards.split(",")[0]
    assert result.stderr.startswith(f"error: Invalid value for '--cards': bad card count "
                                    f"{bad!r}: expected 13 to 17")
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


@pytest.mark.parametrize("option", [["--hands", "-1"], ["--seed", "-3"]])
def test_negative_count_or_seed_is_refused(option):
    assert runner.invoke(app, ["deal", *option]).exit_code == 2


def test_unknown_variant_is_refused():
    result = runner.invoke(app, ["deal", "--variant", "holdem"])
    assert result.exit_code == 2
    assert "unknown variant 'holdem'" in result.stderr


def test_deal_hands_refuses_a_negative_count():
    with pytest.raises(ValueError, match="bad count -1"):
        list(deal_hands(-1, {14: 1.0}, 1))


# --- the rules' deck -----------------------------------------------------------------------

def test_one_deck_without_jokers_deals_what_it_dealt_before_decks_were_data():
    # Recorded before deal took the rules' deck: dealing from Deck().cards, which is
    # range(52), draws the same hands from the same seed.
    assert deal("--cards", "14", "--hands", "3", "--seed", "0") == [
        "Ac Kh Jd Tc 9s 9h 8h 8d 8c 7h 6s 6c 5d 2h",
        "As Ac Ks Js Jh Th 7d 6s 6h 6c 4d 4c 3h 3c",
        "As Ah Qc Js Ts Td 9h 9c 8s 7h 7c 6c 5d 3h"]
    assert deal("--hands", "2", "--variant", "progressive") == [
        "Ac Ks Jh Jd Tc 9s 9h 8h 8d 7h 6s 6h 6c 5d 4c 2h",
        "Kd Kc Js Jh Ts Th 9h 8s 7h 7d 7c 6s 6c 4d 3h 3c"]


@pytest.mark.parametrize("variant", ["pineapple-joker", "progressive-joker"])
def test_jokers_are_dealt_as_often_as_two_of_54_cards(variant):
    rules = find_rules(variant)
    lines = deal("--variant", variant, "--cards", "14", "--hands", "3000", "--seed", "2")
    hands = [parse_cards(line, count=14, deck=rules.deck) for line in lines]  # Jk reads back
    jokers = Counter(hand.count(52) for hand in hands)
    assert set(jokers) == {0, 1, 2}
    # A 14-card hand holds 14 * 2 / 54 = 0.519 jokers on average; the standard error of the
    # mean of 3,000 hands is 0.011, so 0.06 is more than five of them.
    mean = sum(n * count for n, count in jokers.items()) / len(hands)
    assert abs(mean - 14 * 2 / 54) < 0.06
    assert all(line.startswith("Jk") for line in lines if "Jk" in line)  # jokers first


def test_a_variant_without_jokers_deals_none():
    assert not any("Jk" in line for line in deal("--cards", "17", "--hands", "500"))


def test_double_deck_deals_both_copies_of_a_card_and_never_three():
    rules = find_rules("double-deck")
    lines = deal("--variant", "double-deck", "--cards", "17", "--hands", "1000", "--seed", "4")
    copies = Counter()
    for line in lines:
        hand = parse_cards(line, count=17, deck=rules.deck)  # refuses a third copy
        copies.update(Counter(hand).values())
    # The chance a 17-card hand of 104 holds both copies of some card is 0.79.
    assert copies[2] > 0 and set(copies) == {1, 2}
    twice = sum(any(n == 2 for n in Counter(parse_cards(line, deck=rules.deck)).values())
                for line in lines)
    assert 0.7 < twice / len(lines) < 0.85
    with pytest.raises(ValueError, match="duplicate card"):
        parse_cards(next(line for line in lines if len(set(line.split())) < 17))


def test_deal_hands_takes_the_deck_and_one_deck_is_the_default():
    sizes = {15: 1.0}
    assert list(deal_hands(20, sizes, 9)) == list(deal_hands(20, sizes, 9,
                                                             deck=find_rules("pineapple").deck))
    double = list(deal_hands(20, sizes, 9, deck=find_rules("double-deck").deck))
    assert double != list(deal_hands(20, sizes, 9)) and all(len(h) == 15 for h in double)
