"""``fantasyland train --ordinary``: an ordinary hand dealt street by street, each play graded
as ``advise`` grades it, through the session, stdin and a pseudo-terminal."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.ordinary.advise import Effort, advise
from fantasyland.optimizer.solver.table import Sample
from fantasyland.optimizer.ordinary.plays import PlayError, board_text
from fantasyland.optimizer.ordinary.session import OrdinarySession

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent
FAST = dict(objective="royalties", budget=32)  # royalties, 32 rollouts: a hand in seconds
ARGS = ["--objective", "royalties", "--budget", "32"]


def scripted_hand(seed: int, worst_on: tuple[int, ...] = (), variant: str = "progressive"
                  ) -> list[str]:
    """The plays of hand 1 of ``seed``: the best each street, but the worst raced one on the
    streets ``worst_on``."""
    session = OrdinarySession(variant, seed=seed, **FAST)
    session.deal()
    plays = []
    while session.finished is None:
        advice = session.advise()
        raced = [p for p in advice.plays if not p.screened]
        street = session.current.position.street
        text = (raced[-1] if street in worst_on else raced[0]).play.describe()
        plays.append(text)
        session.play(text)
    return plays


# --- the session ------------------------------------------------------------------------

def test_a_hand_deals_the_variant_s_streets_and_the_same_seed_the_same_cards():
    first = OrdinarySession("progressive", seed=4, **FAST)
    street = first.deal()
    assert len(street.position.cards) == 5 and street.position.street == 1
    dealt = list(street.position.cards)
    for _ in range(5):  # whatever is played, the next street comes from the same deck
        advice = first.advise()
        first.play(advice.plays[0].play.describe())
        if first.current is not None:
            assert len(first.current.position.cards) == 3
            dealt += first.current.position.cards
    assert first.finished is not None and len(set(dealt)) == 17
    other = OrdinarySession("progressive", seed=4, **FAST)
    assert other.deal().position.cards == tuple(dealt[:5])
    assert OrdinarySession("progressive", seed=5, **FAST).deal().position.cards != \
        tuple(dealt[:5])


def test_each_grade_is_advise_s_for_the_same_position_and_seed():
    # ultimate: progressive's dealing and royalties with no learned model, so that advise
    # alone races the play graded as the session does (the model's path races it only when
    # it is graded: tests/test_advise_learned.py)
    session = OrdinarySession("ultimate", seed=6, **FAST)
    session.deal()
    plays = scripted_hand(6, worst_on=(2, 3), variant="ultimate")
    for street, text in enumerate(plays, 1):
        p = session.current.position
        seed = session.decision_seed
        d = session.play(text)
        again = advise(find_rules("ultimate"), p.board.format(ascii=True), p.cards,
                       objective="royalties", discards=p.dead,
                       sample=Sample(seed=seed), effort=Effort(budget=32))
        mine = next(v for v in again.plays if v.play.key == d.played.play.key)
        assert d.position.street == street
        assert d.ev_lost == pytest.approx(max(mine.behind, 0.0))
        assert d.ev_lost_error == pytest.approx(mine.behind_error)
        assert d.best.play.key == again.best.play.key
        if street in (2, 3):
            assert not d.is_best and d.ev_lost > 0
        else:
            assert d.is_best and d.ev_lost == 0
    f = session.finished
    assert f is not None and len(f.decisions) == 5
    assert f.ev_lost == pytest.approx(sum(d.ev_lost for d in f.decisions))
    assert f.ev_lost > 0
    assert session.score.hands == 1 and session.score.decisions == 5
    assert session.score.best == 3 and session.score.ev_lost == pytest.approx(f.ev_lost)


def test_a_bad_play_changes_nothing():
    session = OrdinarySession("progressive", seed=6, **FAST)
    street = session.deal()
    for typo in ("Kd top", "Xx top", "", "top top", "As top, Ks t, Qs t, Js t, Ts t"):
        with pytest.raises(PlayError):
            session.play(typo)
    assert session.current == street and session.score.decisions == 0


def test_a_play_the_screen_would_leave_out_is_raced_and_graded_all_the_same():
    session = OrdinarySession("ultimate", seed=6, **FAST)  # no learned model: the screen runs
    session.deal()
    advice = session.advise()
    last = advice.plays[-1]
    assert last.screened  # left out when nothing is being graded
    d = session.play(last.play.describe())
    assert not d.screened and d.ev_lost is not None and d.ev_lost > 0
    assert d.raced == 13 and not d.is_best  # the screen's 12, and the play graded
    assert d.played.rollouts >= 32 and session.score.screened == 0
    assert d.best.play.describe() != last.play.describe()


def test_the_board_carries_over_and_discards_are_dead():
    session = OrdinarySession("progressive", seed=7, **FAST)
    session.deal()
    first = session.advise().plays[0].play
    session.play(first.describe())
    p = session.current.position
    assert board_text(p.layout) == board_text(first.layout) and p.dead == ()
    second = session.advise().plays[0].play
    session.play(second.describe())
    assert session.current.position.dead == (second.discard,)


# --- the command through stdin ----------------------------------------------------------

def test_train_ordinary_plays_a_hand_from_stdin_reprompts_and_logs(tmp_path):
    plays = scripted_hand(6, worst_on=(2,))
    log = tmp_path / "ordinary.jsonl"
    stdin = "Kd top\n?\n" + "\n".join(plays[:2]) + "\nnonsense here\n" \
        + "\n".join(plays[2:]) + "\n"
    result = runner.invoke(app, ["train", "--ordinary", "--seed", "6", "--hands", "1",
                                 "--log", str(log), *ARGS], input=stdin)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seed 6" in out and "Hand 1, street 1 (5 cards, keep 5)" in out
    assert "Hand 1, street 5 (3 cards, keep 2)" in out
    assert result.stderr.count("type the play again") == 2
    assert "'Kd' is not among the cards dealt" in result.stderr
    assert "bad play 'nonsense here': bad card 'nonsense'" in result.stderr
    assert out.count("the best play") == 4 and "EV lost " in out and "Best play:" in out
    assert "Finished:" in out and "Summary:    1 hand, 5 decisions, 4 best (80%)" in out
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert list(lines[0]) == ["session"] and lines[0]["session"]["mode"] == "ordinary"
    decisions = [line for line in lines if "street" in line]
    assert [d["street"] for d in decisions] == [1, 2, 3, 4, 5]
    assert [d["play"]["text"] for d in decisions] == plays
    assert [d["is_best"] for d in decisions] == [True, False, True, True, True]
    assert decisions[1]["ev_lost"] > 0 and decisions[-1]["exact"]
    finish = next(line for line in lines if "finished" in line)
    assert finish["finished"]["decisions"] == 5
    assert finish["finished"]["ev_lost"] == pytest.approx(decisions[1]["ev_lost"])
    assert lines[-1] == {"summary": finish["score"]}
    # the same seed and plays: the same session, printed the same way
    assert runner.invoke(app, ["train", "--ordinary", "--seed", "6", "--hands", "1", *ARGS],
                         input=stdin).stdout == out


def test_train_ordinary_ends_at_q_and_at_the_end_of_the_input_with_a_summary():
    for stdin in ("", "q\n"):
        result = runner.invoke(app, ["train", "--ordinary", "--seed", "1", *ARGS],
                               input=stdin)
        assert result.exit_code == 0, result.output
        assert "Hand 1, street 1" in result.stdout
        assert "Summary:    0 hands, 0 decisions" in result.stdout


def test_train_ordinary_options_are_checked():
    result = runner.invoke(app, ["train", "--budget", "32"], input="")
    assert result.exit_code == 2 and "only with --ordinary" in result.stderr
    result = runner.invoke(app, ["train", "--ordinary", "--cards", "15"], input="")
    assert result.exit_code == 2 and "not with --ordinary" in result.stderr
    result = runner.invoke(app, ["train", "--ordinary", "--entry-value", "12=3"], input="")
    assert result.exit_code == 2 and "expected CARDS=POINTS" in result.stderr
    result = runner.invoke(app, ["train", "--ordinary", "--variant", "chinese"], input="")
    assert result.exit_code == 2 and "no ordinary hands" in result.stderr


# --- the command in a terminal ----------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_train_ordinary_in_a_pseudo_terminal_with_a_typo_and_ctrl_c():
    plays = scripted_hand(11)
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1", TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "fantasyland.cli.main", "train", "--ordinary",
                                           "--variant", "progressive", "--seed", "11", *ARGS],
                          cwd=str(REPO), env=env, encoding="utf-8", timeout=60,
                          dimensions=(50, 140))
    try:
        child.expect(r"Hand 1, street 1")
        child.expect_exact("play> ")
        child.sendline("Kd tpo")
        child.expect("error: bad play")
        child.expect_exact("play> Kd tpo")  # asked again, the typed play kept to mend
        child.sendline("\x15" + plays[0])  # Ctrl-U clears the line (readline)
        child.expect("the best play")
        child.expect(r"Hand 1, street 2")
        child.expect_exact("play> ")
        child.sendintr()
        child.expect(r"Summary: +0 hands, 1 decision, 1 best \(100%\)")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_an_error_prints_to_the_decimals_of_the_figure_it_qualifies():
    # '2.5 ± 1' once stood beside '0.97' elsewhere: both figures now take two decimals.
    from types import SimpleNamespace

    from fantasyland.cli.train_ordinary import grade_lines

    play = SimpleNamespace(describe=lambda: "Kd top")
    d = SimpleNamespace(
        played=SimpleNamespace(play=play, behind_error=0.997, close=True),
        best=SimpleNamespace(play=play, value=3.0), advice=SimpleNamespace(plays=[1, 2],
                                                                           exact=False),
        screened=False, is_best=False, raced=2, rank=2, ev_lost=2.5)
    assert "EV lost 2.50 ± 1.00 points" in grade_lines(d, "points")[0].plain
