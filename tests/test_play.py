"""``fantasyland play``: the table, the log review reads, the history, going on after a stop.

The game is driven as a script drives it (``CliRunner``: standard input is not a terminal, so
a move confirms itself); tests/test_play_terminal.py plays it in a pseudo-terminal. Every
session here plays pineapple under royalties, with the adviser's least budget, so that a hand
takes a second or two.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.cards import parse_cards
from fantasyland.optimizer.play.figures import Figures, HandFigures, Mean
from fantasyland.optimizer.play.history import read_log
from fantasyland.optimizer.play.seating import PLAYER, deal_of, hand_deck, runs, seating_for

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()
ADVISER = "=\n"  # a line that plays the adviser's best
#: The settings of every session here, but the seed.
QUICK = ["--variant", "pineapple", "--objective", "royalties", "--budget", "32"]


def play(tmp_path: Path, *args: str, lines: str = ""):
    """``fantasyland play`` with ``args``, its history in ``tmp_path``, fed ``lines``."""
    return runner.invoke(app, ["play", *QUICK, "--history", str(tmp_path / "history.sqlite3"),
                               *args], input=lines)


def hand_records(log: Path) -> list[dict]:
    return [json.loads(line[len("# hand "):]) for line in log.read_text().splitlines()
            if line.startswith("# hand ")]


# --- the table ---------------------------------------------------------------------------

def test_the_button_moves_a_seat_each_hand_and_the_seat_after_it_acts_first():
    seats = [seating_for(hand, 3, duplicate=False) for hand in (1, 2, 3, 4)]
    assert [s.button for s in seats] == [0, 1, 2, 0]
    assert seats[0].order == (1, 2, 0) and seats[1].order == (2, 0, 1)
    assert [s.on_button(PLAYER) for s in seats] == [True, False, False, True]


def test_duplicate_replays_a_deal_once_a_seat_the_player_in_every_position():
    for players in (2, 3):
        hands = range(1, 2 * players + 1)
        deals = [deal_of(h, players, duplicate=True)[0] for h in hands]
        assert deals == [1] * players + [2] * players
        for deal in (1, 2):
            positions = {seating_for(h, players, duplicate=True).position(PLAYER)
                         for h in hands if deal_of(h, players, duplicate=True)[0] == deal}
            assert positions == set(range(players))


def test_each_seat_is_dealt_its_own_run_a_fantasyland_seat_its_size():
    rules = find_rules("pineapple")
    deck = hand_deck(rules, 7, 1)
    assert sorted(deck) == sorted(rules.deck.cards) and deck == hand_deck(rules, 7, 1)
    assert deck != hand_deck(rules, 7, 2)
    dealt = runs(rules, deck, seating_for(1, 3, duplicate=False), {2: 14})
    assert [len(dealt[s]) for s in (0, 1, 2)] == [17, 17, 14]
    assert sum(map(Counter, dealt.values()), Counter()) == Counter(deck[:48])


@pytest.mark.parametrize("board, played_in, expected", [
    ("Kh Kd 2c / 5s 5d 9c 9d Jh / Ac Kc Qc Tc 3c", None, 15),  # KK top enters with 15
    ("Qh Qd 2c / 5s 5d 9c Jd Jh / 7s 7h 7d 3d 3s", None, 14),  # QQ with 14
    ("Kh Kd 2c / 5s 5d 9c Jd 8h / 7s 7h 7d 3d 3s", None, None),  # KK over 55: a foul
    ("2h 2d 2c / 5s 5d 5h 9d Jh / Ac Kc Qc Tc 3c", 17, 14),  # trips top stay: the repeat's 14
    ("Kh Kd 2c / 5s 5d 9c 9d Jh / Ac Kc Qc Tc 3c", 16, None),  # in Fantasyland KK does not stay
])
def test_who_is_in_fantasyland_next_follows_the_variant_s_entry_and_stay(board, played_in,
                                                                        expected):
    from fantasyland.evaluator.board import evaluate_board
    from fantasyland.optimizer.play.showdown import SeatResult

    rules = find_rules("progressive")
    seat = SeatResult(0, evaluate_board(board, rules=rules), played_in, (), 0)
    assert seat.next_fantasyland(rules) == expected
    assert seat.entered == (expected if played_in is None else None)


def test_points_a_hand_have_the_standard_error_of_a_mean():
    mean = Mean.of([3, -1, 4, -6])
    assert mean.mean == 0 and mean.error == pytest.approx((62 / 3 / 4) ** 0.5)
    assert Mean.of([5]).error is None and Mean.of([]).count == 0


def test_duplicate_figures_add_the_points_of_a_deal_s_replays():
    figures = Figures([HandFigures(h, (h + 1) // 2, p, h % 2 == 0, False, None, False, 0,
                                   0.0, None) for h, p in ((1, 6), (2, -2), (3, -3), (4, 1))])
    deals = figures.by_deal(2)
    assert (deals.count, deals.mean) == (2, 1.0)


def test_the_game_is_a_state_machine_a_script_or_a_page_can_drive():
    from fantasyland.optimizer.play import Game, MoveError, PlaySettings

    game = Game(PlaySettings(variant="pineapple", objective="royalties", seed=9))
    game.deal()
    turn = game.turn
    assert turn is not None and turn.street == 1 and not turn.fantasyland
    moves = game.legal_moves()
    assert len(moves) == len({m.play.key for m in moves}) > 1
    with pytest.raises(MoveError, match="bad play 'Kd top'"):
        game.read_move("Kd top")
    typed = game.read_move(moves[-1].describe())
    assert typed.play.key == moves[-1].play.key
    while not game.finished:
        game.play(game.legal_moves()[-1])
    assert game.turn is None and len(game.street_grades) == 5
    assert sum(s.points for s in game.showdown.seats) == 0
    assert game.figures.hands[-1].points == game.showdown.seats[PLAYER].points


# --- a session ----------------------------------------------------------------------------

def test_the_same_seed_and_lines_play_the_same_game_byte_for_byte(tmp_path):
    first = play(tmp_path, "--hands", "2", "--seed", "5", "--log", str(tmp_path / "a.jsonl"),
                 lines=ADVISER * 10)
    again = play(tmp_path, "--hands", "2", "--seed", "5", "--log", str(tmp_path / "b.jsonl"),
                 lines=ADVISER * 10)
    assert first.exit_code == again.exit_code == 0, first.output
    assert first.stdout == again.stdout
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert "Hand 2: bot 1 on the button" in first.stdout and "Session: " in first.stdout


def test_a_bad_line_is_said_in_one_line_and_the_street_asked_again(tmp_path):
    clean = play(tmp_path, "--hands", "1", "--seed", "5", lines=ADVISER * 5)
    mended = play(tmp_path, "--hands", "1", "--seed", "5",
                  lines="zz top\nAs top\n" + ADVISER * 5)
    assert mended.exit_code == 0
    assert mended.stdout == clean.stdout  # nothing lost, nothing played twice
    errors = mended.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("error: bad play 'zz top': bad card 'zz'")
    assert errors[1].startswith("error: bad play 'As top': expected a row after each card") \
        or "not among the cards dealt" in errors[1]


def test_the_log_is_a_history_review_reads_and_grades(tmp_path):
    log = tmp_path / "session.jsonl"
    result = play(tmp_path, "--hands", "2", "--seed", "2", "--log", str(log),
                  lines=ADVISER * 10)
    assert result.exit_code == 0, result.output
    schema = json.loads((REPO / "cli" / "schemas" / "history.schema.json").read_text())
    streets = [json.loads(line) for line in log.read_text().splitlines()
               if not line.startswith("#")]
    assert len(streets) == 10
    for line in streets:
        jsonschema.validate(line, schema)
    assert [line["hand"] for line in streets] == ["s2h1"] * 5 + ["s2h2"] * 5
    review = runner.invoke(app, ["review", str(log), "--objective", "royalties", "--budget",
                                 "32", "--json"])
    assert review.exit_code == 0, review.output
    graded = json.loads(review.stdout)
    assert graded["summary"]["decisions"] == 10 and graded["summary"]["bad_lines"] == 0
    # the last two streets are valued exactly, by play and review alike: = played the best
    exact = [d for d in graded["decisions"] if d["exact"]]
    assert len(exact) == 4 and all(d["ev_lost"] == 0 for d in exact)


def test_a_street_whose_board_already_fouls_is_graded_in_the_record_not_logged_for_review(
        tmp_path):
    log = tmp_path / "session.jsonl"
    # Under seed 1 the adviser's picks lock hand 1 into a foul by its fourth street.
    result = play(tmp_path, "--hands", "1", "--seed", "1", "--log", str(log),
                  lines=ADVISER * 5)
    assert result.exit_code == 0, result.output
    [record] = hand_records(log)
    fouled = [g["street"] for g in record["streets"] if g["ev_lost"] is None]
    assert fouled and len(record["streets"]) == 5
    logged = [json.loads(line) for line in log.read_text().splitlines()
              if not line.startswith("#")]
    assert len(logged) == 5 - len(fouled)
    review = runner.invoke(app, ["review", str(log), "--objective", "royalties", "--budget",
                                 "32", "--json"])
    assert review.exit_code == 0, review.output
    summary = json.loads(review.stdout)["summary"]
    assert summary["bad_lines"] == 0 and summary["decisions"] == len(logged)


def test_a_session_stopped_mid_hand_loses_that_hand_and_the_next_goes_on(tmp_path):
    straight = tmp_path / "straight.jsonl"
    assert play(tmp_path, "--hands", "3", "--seed", "2", "--log", str(straight),
                lines=ADVISER * 15).exit_code == 0
    log = tmp_path / "stopped.jsonl"
    stopped = play(tmp_path, "--seed", "2", "--log", str(log), lines=ADVISER * 7)
    assert stopped.exit_code == 0
    assert "Hand 2 was left unfinished: it is not counted." in stopped.stdout
    assert [r["hand"] for r in hand_records(log)] == [1]
    assert "s2h2" not in log.read_text()
    with log.open("a") as out:  # killed while writing hand 2's lines: half a line is left
        out.write('{"board": " /  / ", "cards": "Kh')
    resumed = play(tmp_path, "--seed", "2", "--log", str(log), "--hands", "2",
                   lines=ADVISER * 10)
    assert resumed.exit_code == 0, resumed.output
    assert "Going on with" in resumed.stdout and "Hand 2: bot 1 on the button" in resumed.stdout
    assert log.read_bytes() == straight.read_bytes()
    assert "Session: " in resumed.stdout and "over 3 hands" in resumed.stdout


def test_a_log_of_another_session_is_refused_in_one_line(tmp_path):
    log = tmp_path / "session.jsonl"
    assert play(tmp_path, "--hands", "1", "--seed", "2", "--log", str(log),
                lines=ADVISER * 5).exit_code == 0
    before = log.read_bytes()
    other = play(tmp_path, "--seed", "3", "--log", str(log), lines=ADVISER)
    assert other.exit_code == 2 and other.stdout == ""
    assert other.stderr == (f"error: the log {str(log)!r} is a session played with seed 2, "
                            "not 3: give the same settings to go on with it, or another --log\n")
    assert log.read_bytes() == before
    stranger = tmp_path / "notes.jsonl"
    stranger.write_text('{"board": "/ /", "cards": "Kh", "play": "Kh top"}\n')
    refused = play(tmp_path, "--seed", "2", "--log", str(stranger), lines=ADVISER)
    assert refused.exit_code == 2 and "not a log of play" in refused.stderr


def test_every_hand_is_a_row_of_the_history_written_as_it_ends(tmp_path):
    log = tmp_path / "session.jsonl"
    result = play(tmp_path, "--hands", "2", "--seed", "4", "--log", str(log),
                  lines=ADVISER * 12)
    assert result.exit_code == 0
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        rows = db.execute("SELECT session, number, points, board, fouled FROM played "
                          "ORDER BY id").fetchall()
    records = hand_records(log)
    assert [(str(log), r["hand"], r["showdown"]["seats"][0]["points"],
             r["showdown"]["seats"][0]["board"], int(r["showdown"]["seats"][0]["fouled"]))
            for r in records] == rows
    assert len(rows) == 2


def test_fantasyland_is_set_whole_and_graded_by_the_solver(tmp_path):
    log = tmp_path / "session.jsonl"
    result = play(tmp_path, "--hands", "1", "--seed", "3", "--fantasyland", "14", "--log",
                  str(log), lines="Ks / Jd / 9s\n" + ADVISER)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("error: bad set 'Ks / Jd / 9s': ")
    assert "you     in Fantasyland: set 14 cards" in result.stdout
    (record,) = hand_records(log)
    assert record["set"]["optimal"] and record["set"]["ev_lost"] == 0
    assert record["showdown"]["seats"][0]["fantasyland"] == 14
    assert record["figures"]["in_fantasyland"] and record["figures"]["decisions"] == 0


def test_duplicate_deals_the_player_the_cards_the_bot_held(tmp_path):
    log = tmp_path / "session.jsonl"
    result = play(tmp_path, "--hands", "2", "--seed", "6", "--duplicate", "--log", str(log),
                  lines=ADVISER * 10)
    assert result.exit_code == 0, result.output
    first, second = hand_records(log)

    def held(record: dict, seat: int) -> Counter:
        s = record["showdown"]["seats"][seat]
        return Counter(parse_cards(s["board"].replace("/", " ") + " " + s["discards"]))

    assert held(second, 0) == held(first, 1) and held(second, 1) == held(first, 0)
    assert "Duplicate: " in result.stdout and "a deal over 1 hand" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--fantasyland", "15"], "error: bad Fantasyland size 15: pineapple deals 14\n"),
    (["--variant", "chinese"], "error: chinese sets all 13 cards at once: it has no streets "
                               "to play (play a variant with an ordinary hand)\n"),
    (["--duplicate", "--fantasyland", "14"], "error: duplicate deals ordinary hands only: "
                                             "give --fantasyland or --duplicate, not both\n"),
])
def test_a_session_that_cannot_be_played_is_one_line(tmp_path, args, message):
    result = play(tmp_path, *args, lines=ADVISER)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_a_closed_standard_input_is_one_line(tmp_path):
    import subprocess
    import sys

    # as a shell runs it with <&-: file descriptor 0 closed, not an empty input
    script = 'exec "$0" -m fantasyland.cli.main play --history "$1" <&-'
    result = subprocess.run(["bash", "-c", script, sys.executable, str(tmp_path / "h.sqlite3")],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("error: standard input is closed: play reads each move from it; "
                             "give it a terminal, or a file or pipe of moves a line each "
                             "(yes = | fantasyland play)\n")
    assert not (tmp_path / "h.sqlite3").exists()


def test_a_log_read_back_keeps_its_whole_hands_only():
    header = '# play {"settings": {"seed": 1}, "version": 1}\n'
    record = {"figures": HandFigures(1, 1, 3, True, False, 14, False, 5, 0.5, None).record(),
              "next_fantasyland": {"0": 14}}
    whole = header + '{"board": "/ /"}\n' + "# hand " + json.dumps(record) + "\n"
    read = read_log(whole + '{"board": "/ /"}\n{"bo')
    assert (read.hands, read.fantasyland, read.keep) == (1, {0: 14}, len(whole))
    assert read.figures.entries == {14: 1}
