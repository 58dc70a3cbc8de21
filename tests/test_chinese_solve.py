"""The classic Chinese Poker solve against an independent enumeration of all 72,072 settings
of a 13-card hand, against the same sampled opponent settings; and the opponent model's
setter against the same enumeration of its own objective.

The reference shares no code with the optimizer: itertools lays out every setting, numpy
scores each against every opponent setting row by row (1 unit a row won, the bonus of a row
won paid by its loser, 3 more for all three rows under 1-6; an opponent whose 13 cards hold
a natural of the schedule declares it and takes its value), and the best mean wins.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from fantasyland.evaluator import find_rules, load_rules, parse_cards
from fantasyland.evaluator.board_arrays import evaluate_boards
from fantasyland.evaluator.naturals import best_natural, settle_naturals
from fantasyland.optimizer import Sample, TableSpec, solve
from fantasyland.optimizer.solver.ev import breakdown
from fantasyland.evaluator.strength import rank3_array, rank5_array
from fantasyland.optimizer.opponents.closed import (RowWorths, model_worths, opponent_boards,
                                                    random_rows, set_hand)

ROWS = ("top", "middle", "bottom")
HOUSE = Path(__file__).resolve().parents[1] / "fixtures" / "house"


def _settings() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (top, middle, bottom) setting of 13 positions, as indices into the 286
    three-position and 1,287 five-position subsets (which are returned too)."""
    threes = list(itertools.combinations(range(13), 3))
    fives = list(itertools.combinations(range(13), 5))
    three_at = {c: i for i, c in enumerate(threes)}
    five_at = {c: i for i, c in enumerate(fives)}
    top, middle, bottom = [], [], []
    for b in fives:
        rest = [p for p in range(13) if p not in b]
        for m in itertools.combinations(rest, 5):
            top.append(three_at[tuple(p for p in rest if p not in m)])
            middle.append(five_at[m])
            bottom.append(five_at[b])
    return (np.array(threes), np.array(fives), np.array(top), np.array(middle),
            np.array(bottom))


THREE_SETS, FIVE_SETS, TOP, MIDDLE, BOTTOM = _settings()


def reference_best(dealt, rules, boards) -> float:
    """The best mean units over every legal setting, by brute force."""
    cards = np.sort(np.array(dealt))
    s3, s5 = rank3_array(cards[THREE_SETS]), rank5_array(cards[FIVE_SETS])
    ours = {"top": s3[TOP], "middle": s5[MIDDLE], "bottom": s5[BOTTOM]}
    fouled = (ours["middle"] > ours["bottom"]) | (ours["top"] > ours["middle"])
    bonus = {r: rules.royalty_table(r)[ours[r]] for r in ROWS}
    deals, seats, _ = boards.shape
    flat = boards.reshape(-1, 13)
    theirs = evaluate_boards(flat, rules)
    assert not theirs.fouled.any()  # the model never fouls
    scoop, sweep = rules.scoring.scoop_bonus, rules.showdown.sweep_bonus
    total = np.zeros(len(TOP))
    for d in range(deals):
        held = [best_natural(flat[d * seats + i].tolist(), rules.showdown.naturals)
                if rules.showdown.naturals.hands else None for i in range(seats)]
        sweeps_all = np.ones(len(TOP), dtype=bool)
        for i in range(seats):
            j = d * seats + i
            if held[i] is not None:  # declared: it takes its value from whatever we set
                total -= held[i].natural.value
                continue
            points = np.zeros(len(TOP))
            won_all = np.ones(len(TOP), dtype=bool)
            lost_all = np.ones(len(TOP), dtype=bool)
            for r in ROWS:
                won = ours[r] > theirs.strengths[r][j]
                lost = ours[r] < theirs.strengths[r][j]
                points += won.astype(int) - lost.astype(int)
                points += bonus[r] * won - theirs.royalties[r][j] * lost
                won_all &= won
                lost_all &= lost
            total += points + scoop * (won_all.astype(int) - lost_all.astype(int))
            sweeps_all &= won_all
            # A sweep needs a table of three, all setting: this one scoops us and the rest.
            if seats >= 2 and all(h is None for h in held) and all(
                    all(theirs.strengths[r][j] > theirs.strengths[r][d * seats + o]
                        for r in ROWS) for o in range(seats) if o != i):
                total -= sweep * lost_all
        if seats >= 2 and all(h is None for h in held):
            total += sweep * seats * sweeps_all
    ev = total / deals
    ev[fouled] = -np.inf
    return float(ev.max())


def _hands(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 13) for _ in range(count)]


@pytest.mark.parametrize("schedule, hands, fewest", [
    ("chinese", 100, 1), ("chinese_typical", 100, 1),
    ("chinese_sweep_9", 40, 2)])  # a sweep needs two opponents or more
def test_the_solve_finds_the_best_of_all_72072_settings(schedule, hands, fewest):
    rules = find_rules(schedule) if schedule == "chinese" else load_rules(
        HOUSE / f"{schedule}.toml")
    model = find_rules("chinese")  # the boards are given: any model's will do
    swept = 0
    for i, dealt in enumerate(_hands(hands, seed=len(schedule))):
        opponents = fewest + i % (4 - fewest)
        boards = opponent_boards(model, np.array(dealt), 4, opponents, seed=i)
        solution = solve(dealt, variant=rules, objective="ev", sample=Sample(boards=boards))
        assert solution.status == "optimal"
        assert solution.value == pytest.approx(reference_best(dealt, rules, boards), abs=1e-9)
        swept += breakdown(solution.ev, solution.report).sweeps != 0
    assert swept > 0 or not rules.showdown.sweep_bonus  # the sweep was in play


def test_the_model_sets_each_hand_at_the_best_of_its_own_row_worths():
    rules = find_rules("chinese")
    worths = RowWorths.against(random_rows(2000, np.random.default_rng(1)), rules)
    for dealt in _hands(40, seed=3):
        cards = np.sort(np.array(dealt))
        s3, s5 = rank3_array(cards[THREE_SETS]), rank5_array(cards[FIVE_SETS])
        t, m, b = s3[TOP], s5[MIDDLE], s5[BOTTOM]
        value = worths.row("top")[t] + worths.row("middle")[m] + worths.row("bottom")[b]
        value[(m > b) | (t > m)] = -np.inf
        board = set_hand(cards, worths)
        chosen = evaluate_boards(board[None], rules)
        assert not chosen.fouled[0]
        mine = sum(worths.row(r)[chosen.strengths[r][0]] for r in ROWS)
        assert mine == pytest.approx(value.max(), abs=1e-12)


def test_opponents_are_dealt_disjoint_from_the_hand_and_each_other():
    rules = find_rules("chinese")
    dealt = np.array(_hands(1, seed=9)[0])
    boards = opponent_boards(rules, dealt, 20, 3, seed=5)
    for deal in boards:
        cards = np.concatenate([dealt, deal.ravel()])
        assert len(set(cards.tolist())) == 52  # the whole deck, each card once
    again = opponent_boards(rules, dealt, 20, 3, seed=5)
    assert (again == boards).all()


def test_the_shipped_model_is_the_iteration_it_says():
    # the package data must be what `opponents --regenerate --variant chinese` writes
    from fantasyland.optimizer.opponents import closed

    rules = find_rules("chinese")
    shipped = closed._shipped(rules)  # None when the file was built for other rules
    assert shipped is not None, "rebuild it: fantasyland opponents --regenerate --variant chinese"
    assert (shipped.table == model_worths(rules).table).all()


def test_a_best_response_never_loses_on_the_deals_it_was_chosen_on():
    from fantasyland.optimizer.training.deviation import deviation

    result = deviation(find_rules("chinese"), hands=6, samples=8, opponents=2, seed=4)
    assert result.hands == 6 and result.fitted_gain >= 0  # the solve is optimal for its sample
    assert result.gain_se > 0 and 0 <= result.differs <= 1


def test_an_opponent_who_holds_a_natural_declares_it_and_is_not_compared():
    rules = load_rules(HOUSE / "chinese_typical.toml")
    dealt = [c for c in range(52) if c % 4 == 3][:13]  # the spades: also one suit, unpaid
    pairs = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9h"  # six pairs, set as a legal board
    natural = np.array(parse_cards("2c 2d 3c  4c 4d 3d 5c 5d  6c 6d 7c 7d 9h"))  # legal
    assert sorted(natural.tolist()) == sorted(parse_cards(pairs))
    plain = opponent_boards(find_rules("chinese"), np.array(dealt + natural.tolist()), 2, 1, 0)
    boards = np.stack([np.stack([natural, plain[s, 0]]) for s in range(2)])
    solution = solve(dealt, variant=rules, objective="ev", sample=Sample(boards=boards))
    parts = breakdown(solution.ev, solution.report)
    taken = [best_natural(b.tolist(), rules.showdown.naturals) for b in boards.reshape(-1, 13)]
    assert taken[0].natural.name == "six pairs" and taken[2].natural.name == "six pairs"
    # six pairs takes 3 from us in each deal, and so does any natural the other holds
    assert parts.naturals == pytest.approx(-sum(h.natural.value for h in taken if h) / 2)
    assert solution.value == pytest.approx(reference_best(dealt, rules, boards), abs=1e-9)


def test_a_natural_is_declared_when_it_is_worth_more_than_the_set():
    rules = load_rules(HOUSE / "chinese_typical.toml")
    flushes = parse_cards("2c 4c 6c 8c Tc 3d 5d 7d 9d Jd 2h 4h 6h")  # three flushes: 3
    boards = opponent_boards(find_rules("chinese"), np.array(flushes), 6, 3, seed=2)
    solution = solve(flushes, variant=rules, objective="ev", sample=Sample(boards=boards))
    choice = solution.showdown
    assert choice.natural.natural.name == "three flushes"
    field = solution.ev.field
    # every player who sets pays 3; one who declares a natural of its own settles by rank
    assert choice.declare_value == pytest.approx(
        3 * (field.opponents * field.samples - int(field.declaring.sum())) / field.samples
        + sum(settle_naturals(choice.natural, best_natural(b.tolist(), rules.showdown.naturals),
                              rules.showdown.naturals)
              for b in boards.reshape(-1, 13)[field.declaring]) / field.samples)
    assert choice.set_value == solution.value < choice.declare_value
    assert choice.surrender_value == -9 and choice.choice == "declare"


def test_a_hand_without_a_natural_is_set_or_surrendered_by_its_worth():
    sweep = load_rules(HOUSE / "chinese_sweep_9.toml")  # 1-6: a scooped hand pays 6 a player
    junk = parse_cards("2c 3d 4h 5s 7c 8d 9h Jc Qd 2h 3s 4c 6d")
    hands = {"junk": junk, "aces": parse_cards("Ac Ad Ah As Kc Kd Kh Qc Qd Jc Jd Tc 9c")}
    model = find_rules("chinese")
    for name, cards in hands.items():
        boards = opponent_boards(model, np.array(cards), 30, 3, seed=1)
        choice = solve(cards, variant=sweep, objective="ev", sample=Sample(boards=boards)).showdown
        assert choice.natural is None and choice.declare_value is None
        assert choice.surrender_value == -9
        expected = "surrender" if choice.set_value < -9 else "set"
        assert choice.choice == expected
    assert solve(hands["aces"], variant=sweep, objective="ev",
                 sample=Sample(boards=boards)).showdown.choice == "set"


def test_a_hand_worth_less_than_the_surrender_is_surrendered(tmp_path):
    cheap = tmp_path / "cheap.toml"
    cheap.write_text('base = "chinese"\n[scoring]\nsystem = "1-6"\nsurrender = 1\n')
    rules = load_rules(cheap)
    junk = parse_cards("2c 3d 4h 5s 7c 8d 9h Jc Qd 2h 3s 4c 6d")
    boards = opponent_boards(find_rules("chinese"), np.array(junk), 30, 3, seed=1)
    choice = solve(junk, variant=rules, objective="ev", sample=Sample(boards=boards)).showdown
    assert choice.surrender_value == -3 and choice.set_value < -3
    assert choice.choice == "surrender"


def test_there_is_no_showdown_choice_outside_closed_chinese_poker():
    assert solve("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s", variant="pineapple", objective="ev",
                 sample=Sample(samples=20)).showdown is None
    assert solve("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s", variant="chinese").showdown is None


def test_a_known_board_at_the_table_is_played_as_it_is_and_the_rest_dealt_around_it():
    rules = find_rules("chinese")
    dealt = parse_cards("Ah Kd Qs Jh Tc 9s 8d 7c 6h 5s 4d 3c 2h")
    known = "2c 3d 4c / 5h 7s 8c 9c Td / Kc Kh As Ad 2d"
    solution = solve(dealt, variant=rules, objective="ev",
                     sample=Sample(table=TableSpec(3, (known,)), samples=10))
    boards = solution.ev.field.boards
    assert (boards[:, 0] == boards[0, 0]).all()  # the known board in every deal
    for deal in boards:
        assert len(set(np.concatenate([dealt, deal.ravel()]).tolist())) == 52
    with pytest.raises(ValueError, match="set at once"):
        solve(dealt, variant=rules, objective="ev", sample=Sample(table=TableSpec(2,
                                                                    ("2c 3d / 5h 7s 8c 9c Td /",))))


@pytest.mark.parametrize("schedule", ["chinese_sweep_9", "chinese_long_schedule"])
def test_every_set_is_worth_at_each_deal_what_the_table_settles(schedule):
    # The objective's points, deal by deal (sweeps and declared naturals included), against
    # evaluator.scoring.settle_table, for the best set and for random ones, fouled too.
    from fantasyland.evaluator import evaluate_board
    from fantasyland.evaluator.board import Board
    from fantasyland.evaluator.scoring import Seat, settle_table
    from fantasyland.optimizer.solver.ev import set_points

    rules = load_rules(HOUSE / f"{schedule}.toml")
    rng = random.Random(7)
    checked = swept = 0
    for i, dealt in enumerate(_hands(12, seed=11)):
        opponents = 2 + i % 2
        boards = opponent_boards(find_rules("chinese"), np.array(dealt), 30, opponents, seed=i)
        solution = solve(dealt, variant=rules, objective="ev", sample=Sample(boards=boards))
        shuffled = rng.sample(dealt, 13)
        for cards in (list(solution.board.cards), shuffled):
            ours = evaluate_board(Board(cards[:3], cards[3:8], cards[8:]), rules=rules)
            parts = set_points(solution.ev.field, rules.scoring, ours)
            points = sum(parts.values())
            swept += int((parts["sweeps"] != 0).sum())
            for d, deal in enumerate(boards):
                table = [Seat(report=ours)]
                for theirs in deal.tolist():
                    held = best_natural(theirs, rules.showdown.naturals)
                    table.append(Seat(natural=held, cards=tuple(theirs)) if held else Seat(
                        report=evaluate_board(Board(theirs[:3], theirs[3:8], theirs[8:]),
                                              rules=rules)))
                assert points[d] == settle_table(table, rules).totals[0], (dealt, d)
                checked += 1
    assert checked == 12 * 2 * 30
    assert swept > 0 or schedule != "chinese_sweep_9"


def test_the_strength_tables_by_colex_index_are_the_ranks_of_their_hands():
    # The model reads a hand's subsets' strengths off two tables indexed by colex rank; the
    # tables are built by highest card, the check ranks the hands themselves.
    from fantasyland.optimizer.opponents.closed import _strength_table, colex

    rng = np.random.default_rng(3)
    for size, rank in ((3, rank3_array), (5, rank5_array)):
        hands = np.sort(np.array([rng.choice(52, size, replace=False) for _ in range(20000)]),
                        axis=1)
        hands[:2] = [np.arange(size), np.arange(52 - size, 52)]  # the first and the last
        assert (_strength_table(size)[colex(hands)] == rank(hands)).all()
        assert len(_strength_table(size)) == len(list(itertools.combinations(range(52), size)))


def test_a_model_built_for_a_rules_file_is_kept_and_read_back_while_it_still_fits(
        tmp_path, monkeypatch):
    from fantasyland.optimizer.opponents import closed

    monkeypatch.setenv(closed.CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(closed, "ROUNDS", 1)
    monkeypatch.setattr(closed, "HANDS", 300)  # a small model: the cache is what is tested
    monkeypatch.setattr(closed, "_WORTHS", {})
    rules = load_rules(HOUSE / "chinese_typical.toml")
    built = closed.model_worths(rules).table
    path = closed.cached_model_path(rules)
    assert path.parent == tmp_path and path.is_file() and rules.fingerprint in path.name
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no partial file is left

    real_iterate = closed.iterate

    def no_build(*args, **kwargs):
        raise AssertionError("built again")
    monkeypatch.setattr(closed, "iterate", no_build)
    monkeypatch.setattr(closed, "_WORTHS", {})
    assert (closed.model_worths(rules).table == built).all()  # read back, not built

    monkeypatch.setattr(closed, "iterate", real_iterate)
    for damage in (b"not a model", b""):  # a damaged file is built afresh and replaced
        path.write_bytes(damage)
        monkeypatch.setattr(closed, "_WORTHS", {})
        assert (closed.model_worths(rules).table == built).all()
    monkeypatch.setattr(closed, "HANDS", 400)  # built another way now: not read
    monkeypatch.setattr(closed, "_WORTHS", {})
    assert not (closed.model_worths(rules).table == built).all()


HAND = "Ah Kh Kd Qc Jh Jd Th 9h 7s 5s 4c 3c 2c"
FOULED = "4c 3c 2c / Kh Kd 5s Jh Jd / Ah Qc Th 9h 7s"


def test_check_train_and_bench_grade_chinese_poker_by_its_ev_in_its_words(tmp_path):
    # Without Fantasyland the royalties cannot tell two sets apart: the default is ev, the
    # output speaks of units, and shows no stay, discards or royalty column.
    from typer.testing import CliRunner

    from fantasyland.cli.main import app

    runner = CliRunner()
    checked = runner.invoke(app, ["check", HAND, "--set", FOULED, "--variant", "chinese"])
    assert checked.exit_code == 0, checked.output
    assert "(ev)" in checked.output and " units" in checked.output
    for absent in ("Stays", "Discards", "Royalt", "Fantasyland", "points"):
        assert absent not in checked.output, absent
    assert "a fouled set loses every row to each opponent who does not foul.\n" in \
        checked.output.replace("A fouled", "a fouled")
    ofc = runner.invoke(app, ["check", HAND + " 6d", "--set", FOULED, "--objective",
                              "royalties"])
    assert "(royalties)" in ofc.output and "Stays:" in ofc.output  # OFC as it was

    trained = runner.invoke(app, ["train", "--variant", "chinese", "--seed", "3", "--hands",
                                  "1"], input="q\n")
    assert "ev objective, 4-handed, seed 3" in trained.output
    assert "staying worth" not in trained.output and "discards" not in trained.output
    assert "EV lost 0 units" in trained.output

    hands = tmp_path / "hands.txt"
    hands.write_text(HAND + "\n")
    out = tmp_path / "out.jsonl"
    batched = runner.invoke(app, ["batch", str(hands), "-o", str(out), "--variant", "chinese"])
    assert batched.exit_code == 0, batched.output
    record = json.loads(out.read_text().splitlines()[0])
    assert record["objective"] == "ev" and record["ev"]["samples"] == 40
