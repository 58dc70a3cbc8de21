"""The table as it is: opponents in Fantasyland, unfinished boards, dead cards, four players,
and the one-line errors of a table that cannot be (``optimizer.solver.table``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator.board import Board, evaluate_board
from fantasyland.evaluator.cards import parse_cards
from fantasyland.evaluator.rules_files import find_rules
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver.solve import fantasyland_set
from fantasyland.optimizer.solver.table import TableSpec, draw_table, read_table
from fantasyland.optimizer.solver.table import Sample
from tests.test_schemas import validator

runner = CliRunner()
HAND = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
PINEAPPLE = find_rules("pineapple")


def _error(*args: str) -> str:
    result = runner.invoke(app, ["solve", HAND, "--objective", "ev", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


# --- what cannot be ------------------------------------------------------------------------

def test_a_card_of_the_hand_on_a_known_board_is_refused():
    line = _error("--against", "Ac Jd 2h / 9c 9d 9h 4c 4d / Tc Jh Qc Kc Ad")
    assert "card 'Ac' is in the dealt hand and the board" in line


def test_a_dead_card_on_a_known_board_is_refused():
    line = _error("--against", "Jc Jd 2h / 9c 9d 9h 4c 4d / Tc Jh Qc Kc Ad", "--dead", "9h 8d")
    assert "card '9h' is in the dead cards and the board" in line


def test_a_card_twice_among_the_dead_is_refused():
    assert "duplicate card '8d'" in _error("--dead", "8d 8d")


def test_a_row_with_too_many_cards_is_refused():
    line = _error("--against", "Kh Kc 9d 8d / 7d / 2h")
    assert "the top row has 4 cards ('Kh Kc 9d 8d'), at most 3" in line


def test_a_board_without_three_rows_is_refused():
    assert "expected three rows" in _error("--against", "Kh Kc / 7d")


def test_an_unfinished_board_that_already_fouls_is_refused():
    # the middle is full at a pair of twos, the top full at a pair of kings
    line = _error("--against", "Kh Kc 9d / 2d 2h 5c 6c 8c / Jd")
    assert "already fouls (its full top row beats its full middle row)" in line


def test_more_known_seats_than_opponents_are_refused():
    line = _error("--against", "Kh Kc / 7d / 2h", "--opponent-fantasyland", "14")
    assert "1 known board and 1 opponent in Fantasyland, but 1 opponent" in line
    assert "--opponents 2" in line


def test_too_many_opponents_for_the_deck_are_refused():
    # classic OFC seats four, but a 14-card Fantasyland and three 13-card hands need 53
    result = runner.invoke(app, ["solve", "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s",
                                 "--variant", "standard", "--opponents", "3"])
    assert result.exit_code == 2
    assert "too many opponents for the deck: 14 dealt cards and 3 opponents (13 + 13 + 13 " \
           "cards) need 53, and the deck holds 52" in result.output


def test_an_opponent_in_fantasyland_needs_13_to_17_cards():
    result = runner.invoke(app, ["solve", HAND, "--opponent-fantasyland", "12"])
    assert result.exit_code == 2 and "--opponent-fantasyland" in result.output


def test_the_table_needs_the_ev_objective():
    result = runner.invoke(app, ["check", HAND, "--set", "Kd Qd Qh / Ts 5s 4s 3s 2s / Ac Ah "
                                 "As 7c 7h", "--dead", "8d", "--objective", "royalties"])
    assert result.exit_code == 2 and "only under the ev objective" in result.output


# --- what it samples -----------------------------------------------------------------------

def _cards(boards: np.ndarray) -> list[set[int]]:
    return [set(b.tolist()) for b in boards.reshape(-1, 13)]


def test_dead_cards_are_on_no_sampled_board():
    dealt = parse_cards(HAND)
    dead = parse_cards("Kh Ks Jc 9d")
    table = read_table(PINEAPPLE, dealt, spec=TableSpec(2, dead="Kh Ks Jc 9d"))
    drawn = draw_table(PINEAPPLE, dealt, table, 100, 5)
    assert not any(board & (set(dealt) | set(dead)) for board in _cards(drawn.boards))


def test_an_opponent_in_fantasyland_sets_the_solver_s_optimum_of_its_cards():
    dealt = parse_cards(HAND)
    table = read_table(PINEAPPLE, dealt, spec=TableSpec(opponent_fantasyland=(15,)))
    drawn = draw_table(PINEAPPLE, dealt, table, 24, 2, set_fantasyland=fantasyland_set)
    assert drawn.live_deals == 16 and len(drawn.fantasyland_hands) == 16
    assert drawn.groups is not None and drawn.groups.max() == 15
    for (cards, board), sample in zip(drawn.fantasyland_hands[:6], drawn.boards):
        assert len(cards) == 15 and not set(cards) & set(dealt)
        assert set(board) <= set(cards)
        # the sampled board is the set, worth the optimum a fresh solve of its cards proves
        assert tuple(sample[0]) == board
        best = solve(cards, variant=PINEAPPLE, objective="royalties")
        report = evaluate_board(Board(board[:3], board[3:8], board[8:]), rules=PINEAPPLE)
        worth = report.royalties.total + (best.fl_value if report.stays else 0)
        assert not report.fouled and worth == pytest.approx(best.value)


def test_an_unfinished_board_keeps_what_is_seen_and_is_finished_from_the_deck_left():
    dealt = parse_cards(HAND)
    table = read_table(PINEAPPLE, dealt, spec=TableSpec(2, ("Kh Kc / 7d 8d / 2h",), (14,)))
    drawn = draw_table(PINEAPPLE, dealt, table, 3, 1, set_fantasyland=fantasyland_set)
    assert drawn.boards.shape == (3, 2, 13)
    for deal in drawn.boards:
        seen, fantasyland = set(deal[0].tolist()), set(deal[1].tolist())
        assert {c for c in parse_cards("Kh Kc")} <= set(deal[0][:3].tolist())
        assert set(parse_cards("7d 8d")) <= set(deal[0][3:8].tolist())
        assert parse_cards("2h")[0] in deal[0][8:].tolist()
        # one deck: the two opponents of a deal share no card, nor with the hand
        assert not seen & fantasyland and not (seen | fantasyland) & set(dealt)


def test_the_same_seed_makes_the_same_table():
    dealt = parse_cards(HAND)
    table = read_table(PINEAPPLE, dealt, spec=TableSpec(2, ("Kh Kc / 7d 8d / 2h",), dead="9c"))
    first = draw_table(PINEAPPLE, dealt, table, 2, 7).boards
    assert (first == draw_table(PINEAPPLE, dealt, table, 2, 7).boards).all()
    assert not (first == draw_table(PINEAPPLE, dealt, table, 2, 8).boards).all()


def test_classic_ofc_seats_three_opponents():
    hand = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s"
    solution = solve(hand, variant="standard", objective="ev",
                     sample=Sample(table=TableSpec(3), samples=50))
    assert solution.ev.field.opponents == 3 and solution.status == "optimal"


def test_solve_json_shows_the_table_and_fits_its_schema():
    result = runner.invoke(app, ["solve", HAND, "--json", "--opponents", "2", "--against",
                                 "Jc Jd 2h / 9c 9d 8h 4c 4d / Tc Th Td Kc Kh",
                                 "--opponent-fantasyland", "14", "--dead", "8d",
                                 "--samples", "20"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["ev"]["table"] == {
        "opponents": 2, "against": ["Jc Jd 2h / 9c 9d 8h 4c 4d / Tc Th Td Kc Kh"],
        "opponent_fantasyland": [14], "dead": ["8d"]}
    assert record["ev"]["deals"] == 16 and record["ev"]["exact"] is False
    assert validator("solve.schema.json").is_valid(record)


def test_a_known_board_is_exact_in_the_output():
    result = runner.invoke(app, ["solve", HAND, "--against",
                                 "Jc Jd 2h / 9c 9d 8h 4c 4d / Tc Th Td Kc Kh"])
    assert result.exit_code == 0
    assert "(exact: every board is known)" in result.output and "±" not in result.output
    assert "Table:      1 known board" in result.output


# --- in every command ----------------------------------------------------------------------

KNOWN = "Jc Jd 2h / 9c 9d 8h 4c 4d / Tc Th Td Kc Kh"


def test_check_grades_against_the_known_board_and_says_so(tmp_path):
    result = runner.invoke(app, ["check", HAND, "--set", "Kd Qd Qh / Ts 5s 4s 3s 2s / Ac Ah "
                                 "As 7c 7h", "--objective", "ev", "--against", KNOWN, "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["table"]["against"] == [KNOWN] and record["ev_lost"] > 0
    assert validator("check.schema.json").is_valid(record)


def test_train_deals_without_the_table_s_cards_and_logs_the_table(tmp_path):
    log = tmp_path / "log.jsonl"
    result = runner.invoke(app, ["train", "--seed", "2", "--hands", "1", "--variant",
                                 "pineapple", "--objective", "ev", "--against", KNOWN,
                                 "--dead", "8d", "--log", str(log)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "heads-up (1 known board, 1 dead card)" in result.output
    header = json.loads(log.read_text().splitlines()[0])
    assert header["session"]["table"]["dead"] == ["8d"]
    assert validator("train-log.schema.json").is_valid(header)
    from fantasyland.optimizer.training.session import Session
    session = Session("pineapple", "ev", seed=2, table=TableSpec(against=(KNOWN,), dead="8d"))
    for _ in range(20):
        assert not set(session.deal().cards) & set(parse_cards(KNOWN.replace("/", "") + " 8d"))


def test_batch_solves_each_hand_against_the_table_and_refuses_a_hand_that_clashes(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(HAND + "\n" + HAND.replace("Ac", "Jc") + "\n")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["batch", str(hands), "-o", str(out), "--objective", "ev",
                                 "--against", KNOWN, "--workers", "1", "--no-progress"])
    assert result.exit_code == 1, result.output  # one line failed
    record = json.loads(out.read_text().splitlines()[0])
    assert record["ev"]["exact"] and record["ev"]["table"]["against"] == [KNOWN]
    errors = (tmp_path / "out.jsonl.errors").read_text()
    assert "card 'Jc' is in the dealt hand and the board" in errors
    settings = json.loads((tmp_path / "out.jsonl.settings").read_text())
    assert settings["against"] == [KNOWN]
    assert validator("batch-settings.schema.json").is_valid(settings)
    again = runner.invoke(app, ["batch", str(hands), "-o", str(out), "--objective", "ev",
                                "--workers", "1", "--no-progress"])
    assert again.exit_code == 2 and "--against" in again.output  # other settings


def test_batch_refuses_the_table_under_royalties(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(HAND + "\n")
    result = runner.invoke(app, ["batch", str(hands), "-o", str(tmp_path / "o.jsonl"),
                                 "--dead", "8d", "--objective", "royalties", "--workers", "1",
                                 "--no-progress"])
    assert result.exit_code == 2 and "only under the ev objective" in result.output


def test_two_decks_count_a_card_s_copies_across_the_table():
    rules = find_rules("double-deck")
    dealt = parse_cards("As As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s 2c", deck=rules.deck)
    with pytest.raises(ValueError, match="card 'As' is in the dealt hand and the dead cards"):
        read_table(rules, dealt, spec=TableSpec(dead="As"))
    table = read_table(rules, dealt, spec=TableSpec(dead="Kd"))  # the second Kd is the dead one
    assert table.dead == parse_cards("Kd")
