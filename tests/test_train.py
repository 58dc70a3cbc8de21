"""The trainer: seeded dealing, the running score, the session log, and ``fantasyland train``
driven through stdin and through a pseudo-terminal."""

from __future__ import annotations

import json
import os
import random
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import CardError, find_rules, format_cards
from fantasyland.optimizer.solver.dealing import (PROGRESSIVE_MIX, SizeError, parse_sizes,
                                                  pick_size, size_mix)
from fantasyland.optimizer.solver.objective import ObjectiveError
from fantasyland.optimizer.solver.table import TableSpec
from fantasyland.optimizer.training.session import Session
from fantasyland.optimizer.solver.table import Sample

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent


def optimal_text(session: Session) -> str:
    return session.solution().board.format(ascii=True)


# --- dealing --------------------------------------------------------------------------------

def test_progressive_mix_is_a_distribution_over_the_progressive_sizes():
    assert sum(PROGRESSIVE_MIX.values()) == pytest.approx(1)
    assert set(PROGRESSIVE_MIX) == set(find_rules("progressive").dealt_counts)


def test_mix_follows_the_variant_and_cards_option():
    assert size_mix(find_rules("progressive")) == pytest.approx(PROGRESSIVE_MIX)
    assert size_mix(find_rules("pineapple")) == {14: 1.0}
    assert size_mix(find_rules("standard")) == {13: 1.0}  # 13 is not in the mix
    deuce = size_mix(find_rules("deuce"))
    assert deuce[14] == pytest.approx(0.45 / 0.70) and deuce[15] == pytest.approx(0.25 / 0.70)
    assert size_mix(find_rules("progressive"), sizes=parse_sizes("15,17")) == {15: 0.5, 17: 0.5}


def test_sizes_are_drawn_at_the_mix_frequencies():
    rng = random.Random(2)
    drawn = Counter(pick_size(rng, PROGRESSIVE_MIX) for _ in range(20_000))
    for n, p in PROGRESSIVE_MIX.items():
        assert abs(drawn[n] / 20_000 - p) < 0.015


@pytest.mark.parametrize("text", ["12", "14-18", "x", "16-14", ""])
def test_bad_card_counts_are_refused(text):
    with pytest.raises(SizeError, match="bad card count"):
        parse_sizes(text)


# --- the session ----------------------------------------------------------------------------

@pytest.mark.parametrize("fl_value", [-1.0, float("inf"), float("nan"), "12"])
def test_a_bad_worth_of_staying_is_refused_before_any_hand_is_dealt(fl_value):
    with pytest.raises(ObjectiveError, match="bad fl_value"):
        Session("progressive", fl_value=fl_value)


def test_a_given_worth_of_staying_is_kept_as_a_float():
    assert Session("progressive", fl_value=12).fl_value == 12.0


def test_same_seed_deals_the_same_hands_whatever_is_typed():
    first, second = Session("progressive", seed=7), Session("progressive", seed=7)
    first.deal()
    second.deal()
    with pytest.raises(CardError):
        second.play("Qs Qd")
    first.play(optimal_text(first))
    second.play(optimal_text(second))
    assert [first.deal().cards for _ in range(3)] == [second.deal().cards for _ in range(3)]
    assert Session("progressive", seed=8).deal().cards != Session("progressive", seed=7) \
        .deal().cards


def test_a_typo_keeps_the_hand_and_the_score():
    session = Session("pineapple", seed=3)
    hand = session.deal()
    for typo in ("Qs Qd", "Xx / / ", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"):
        with pytest.raises(CardError):
            session.play(typo)
    assert session.current == hand and session.score.hands == 0
    assert session.play(optimal_text(session)).optimal


def test_running_score_counts_optimal_sets_fouls_and_ev_lost():
    session = Session("pineapple", seed=3)
    session.deal()
    best = session.play(optimal_text(session))
    session.deal()
    optimum = session.solution().report
    # The optimal rows with middle and bottom swapped: the middle now beats the bottom.
    swapped = " / ".join(format_cards(optimum.row(r).cards, ascii=True)
                         for r in ("top", "bottom", "middle"))
    fouled = session.play(swapped)
    assert best.optimal and fouled.fouled and not fouled.optimal
    assert session.score.hands == 2 and session.score.optimal == 1
    assert session.score.fouls == 1 and session.score.optimal_share == 0.5
    assert session.score.ev_lost == pytest.approx(fouled.ev_lost) == session.solution().value


# --- the command through stdin --------------------------------------------------------------

def test_train_reads_sets_from_stdin_reprompts_on_typos_and_logs(tmp_path):
    session = Session("pineapple", seed=5)
    session.deal()
    first = optimal_text(session)
    log = tmp_path / "session.jsonl"
    result = runner.invoke(app, ["train", "--variant", "pineapple", "--objective", "royalties",
                                 "--seed", "5", "--hands", "2", "--log", str(log)],
                           input=f"Qs Qd\n?\n{first}\nq\n")
    assert result.exit_code == 0, result.output
    assert "Hand 1 (14 cards)" in result.stdout and "Hand 2 (14 cards)" in result.stdout
    assert "error: got 2 cards" in result.stderr and "type the set again" in result.stderr
    assert "EV lost:    0: your set is optimal" in result.stdout
    assert "Summary:    1 hand, 1 optimal (100%), 0 fouls, EV lost 0" in result.stdout
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert list(lines[0]) == ["session"] and lines[0]["session"]["seed"] == 5
    assert lines[1]["hand"] == 1 and lines[1]["is_optimal"] and lines[1]["ev_lost"] == 0
    assert lines[-1] == {"summary": lines[1]["score"]}


def test_train_ends_at_the_end_of_the_input_with_a_summary():
    result = runner.invoke(app, ["train", "--seed", "1", "--cards", "16"], input="")
    assert result.exit_code == 0
    assert "Hand 1 (16 cards)" in result.stdout and "Summary:    0 hands" in result.stdout


def test_train_same_seed_same_session():
    args = ["train", "--seed", "9", "--hands", "2", "--cards", "14-15"]
    stdin = "q\n"
    assert runner.invoke(app, args, input=stdin).stdout == \
        runner.invoke(app, args, input=stdin).stdout


def test_train_bad_options_exit_2():
    result = runner.invoke(app, ["train", "--cards", "12"], input="")
    assert result.exit_code == 2 and "bad card count '12'" in result.stderr
    result = runner.invoke(app, ["train", "--variant", "holdem"], input="")
    assert result.exit_code == 2 and "unknown variant 'holdem'" in result.stderr


# --- the command in a terminal --------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_train_in_a_pseudo_terminal_with_a_typo_and_ctrl_c():
    session = Session("pineapple", seed=11)
    session.deal()
    best = optimal_text(session)
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1", TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "fantasyland.cli.main", "train", "--variant",
                                           "pineapple", "--objective", "royalties", "--seed",
                                           "11"],
                          cwd=str(REPO), env=env, encoding="utf-8", timeout=20,
                          dimensions=(50, 120))
    try:
        child.expect(r"Hand 1 \(14 cards\)")
        child.expect_exact("set> ")
        child.sendline("Qs Qd 2c / 9h")  # a mistyped set: wrong row count
        child.expect("error: expected three rows")
        child.expect_exact("set> Qs Qd 2c / 9h")  # asked again, the typed set kept to mend
        child.sendline("\x15" + best)  # Ctrl-U clears the line (readline), then the set
        child.expect(r"EV lost: +0: your set is optimal")
        child.expect(r"Score: +1 hand, 1 optimal \(100%\), 0 fouls")
        child.expect(r"Hand 2 \(14 cards\)")
        child.expect_exact("set> ")
        child.sendintr()
        child.expect(r"Summary: +1 hand, 1 optimal \(100%\), 0 fouls, EV lost 0")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_an_ev_grade_is_reproduced_by_check_with_the_logged_seed():
    from fantasyland.optimizer.training.grading import grade

    session = Session("pineapple", "ev", seed=3, table=TableSpec(2))
    session.deal()
    session.deal()  # hand 2, so the seed is not the session's own
    played = Session("pineapple", seed=3)  # the royalties optimum: usually not ev's
    played.deal()
    played.deal()
    g = session.play(optimal_text(played))
    record = session.hand_record(g)
    assert record["ev_seed"] == 3_000_002
    again = grade(session.current.cards, optimal_text(played), variant="pineapple", objective="ev",
                  sample=Sample(table=TableSpec(2), seed=record["ev_seed"]))
    assert again.ev_lost == pytest.approx(g.ev_lost) and again.player.value == g.player.value
    header = session.header_record()["session"]
    assert header["opponents"] == 2 and header["fl_value"] == {"14": pytest.approx(25.0)}


def test_the_worth_of_staying_is_shown_by_size_where_the_sizes_differ():
    worths = Session("ultimate", seed=1).staying_worths
    assert worths == {14: 13.7, 15: 19.5, 16: 29.0, 17: 55.4}


def test_the_running_score_is_rounded_as_each_hand_s_ev_lost_is():
    session = Session("pineapple", "ev", seed=3, samples=7)  # sevenths: float noise unrounded
    for _ in range(3):
        session.deal()
        top_first = format_cards(session.current.cards).split()  # highest first: no good set
        session.play(" ".join(top_first[:3]) + " / " + " ".join(top_first[3:8]) + " / "
                     + " ".join(top_first[8:13]))
    record = session.score.record()
    assert record["hands"] == 3 and record["ev_lost"] > 0
    assert all(value == round(value, 9) for value in record.values()), record
