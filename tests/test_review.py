"""``review`` (issue 17): a history graded street by street reproduces ``advise`` decision by
decision; bad lines are skipped and reported with their numbers; the command's exit codes
and its ``--json``, which validates against its schema."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.cards import parse_cards
from fantasyland.optimizer.ordinary.advise import Effort, advise
from fantasyland.optimizer.ordinary.plays import read_play
from fantasyland.optimizer.ordinary.position import PositionError
from fantasyland.optimizer.ordinary.review import play_text, review
from fantasyland.optimizer.solver.table import Sample, TableSpec

REVIEW = Path(__file__).resolve().parents[1] / "fixtures" / "review"
HAND = REVIEW / "progressive-hand.jsonl"
BAD = REVIEW / "bad-lines.jsonl"
FAST = {"sample": Sample(samples=200), "budget": 32}
#: The same for ``advise``, whose race takes the budget.
FAST_ADVICE = {"sample": Sample(samples=200), "effort": Effort(budget=32)}
runner = CliRunner()


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def late_streets() -> list[str]:
    """The scripted hand's streets 3 to 5 (cheap: no first street), still one hand."""
    return lines(HAND)[2:]


def numbers(value) -> tuple:
    """Everything advise says of a play (its board as bytes: arrays do not compare)."""
    return (value.play.key, value.play.discard, value.play.rows, value.value,
            value.standard_error, value.foul_chance, value.entry_chances, value.rollouts,
            value.behind, value.behind_error, value.close, value.screened)


def test_review_reproduces_advise_decision_by_decision():
    graded = review(late_streets(), variant="progressive", sample=Sample(samples=200, seed=3),
                    budget=32)
    assert [d.line for d in graded.decisions] == [1, 2, 3] and not graded.bad_lines
    rules = find_rules("progressive")
    thrown: list = []
    for decision, text in zip(graded.decisions, late_streets()):
        line = json.loads(text)
        advice = advise(rules, line["board"], line["cards"], discards=tuple(thrown),
                        sample=Sample(table=TableSpec(), samples=200, seed=3),
                        effort=Effort(budget=32))
        play = read_play(advice.position, play_text(line["play"]))
        mine = next(p for p in advice.plays if p.play.key == play.key)
        assert numbers(decision.played) == numbers(mine)
        assert numbers(decision.best) == numbers(advice.best)
        assert (decision.lost, decision.lost_error) == (mine.behind, mine.behind_error)
        assert decision.is_best == (mine.play.key == advice.best.play.key)
        thrown.append(play.discard)
    # the hand's earlier discards are dead for its later streets
    assert [len(d.discards) for d in graded.decisions] == [0, 1, 2]
    assert graded.decisions[2].advice.exact and graded.decisions[2].lost_error == 0


def test_the_summary_adds_the_decisions_up():
    graded = review(late_streets(), **FAST)
    assert graded.total_lost == pytest.approx(sum(d.lost for d in graded.decisions))
    assert graded.total_error == pytest.approx(
        math.sqrt(sum(d.lost_error ** 2 for d in graded.decisions)))
    assert graded.worst.lost == max(d.lost for d in graded.decisions)
    assert graded.worst.lost > 0  # the scripted last street fouls: it loses for sure


def test_a_line_without_a_hand_stands_alone():
    alone = [json.dumps({k: v for k, v in json.loads(t).items() if k != "hand"})
             for t in late_streets()]
    assert [d.discards for d in review(alone, **FAST).decisions] == [(), (), ()]


def test_a_different_seed_gives_the_numbers_of_advise_with_that_seed():
    one, two = (review(late_streets()[:1], sample=Sample(samples=200, seed=s),
                       budget=32).decisions[0] for s in (0, 1))
    assert one.played.value != two.played.value


def test_bad_lines_are_skipped_and_reported_with_their_numbers():
    graded = review(lines(BAD), **FAST)
    assert [d.line for d in graded.decisions] == [2, 7]
    assert [(b.line, b.message.split(":")[0]) for b in graded.bad_lines] == [
        (3, "not a JSON object"), (4, "bad card 'Xx'"),
        (5, "bad play 'Td top, Ac bottom'")]
    # line 7 is the hand's last street after line 2's: line 2's discard is dead for it
    assert graded.decisions[1].discards == tuple(parse_cards("6h"))


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "expected a JSON object"),
    ('{"board": "/ /", "cards": "As Ks Qs Js Ts"}', "missing key 'play'"),
    ('{"board": "/ /", "cards": "As", "play": "As top", "when": 1}', "unknown key 'when'"),
    ('{"board": "/ /", "cards": "As Ks Qs Js Ts", "play": 3}', "bad play"),
    ('{"board": "/ /", "cards": "As Ks Qs", "play": "As top"}', "got 3 dealt cards"),
    ('{"board": "/ /", "cards": "As Ks Qs Js Ts", "play": "As top", "variant": "holdem"}',
     "holdem"),
])
def test_each_kind_of_bad_line_is_one_message(text, message):
    graded = review([text], **FAST)
    assert not graded.decisions and len(graded.bad_lines) == 1
    assert message in graded.bad_lines[0].message and "\n" not in graded.bad_lines[0].message


@pytest.mark.parametrize("sample, message", [
    (Sample(table=TableSpec(dead="2c")), "a review's table is its opponents only"),
    (Sample(boards=np.zeros((1, 1, 13), dtype=int)), "give the table and samples, not boards"),
])
def test_a_sample_review_cannot_take_is_refused_before_any_line(sample, message):
    with pytest.raises(PositionError, match=message):
        review(iter(()), sample=sample)


def test_a_play_the_first_street_screen_would_leave_out_is_raced_and_graded():
    line = json.dumps({"board": "/ /", "cards": "Kd 7c 8c 2h 2d",
                       "play": "Kd bottom, 7c top, 8c top, 2h top, 2d middle"})
    # ultimate: progressive's dealing and royalties, and no learned model, so the screen runs
    (decision,) = review([line], variant="ultimate", **FAST).decisions
    alone = advise(find_rules("ultimate"), "/ /", "Kd 7c 8c 2h 2d", **FAST_ADVICE)
    played = next(p for p in alone.plays if p.play.key == decision.played.play.key)
    assert played.screened  # advise alone leaves it out
    assert not decision.screened and decision.lost is not None and decision.lost > 0
    assert decision.played.rollouts >= 32


# --- the command ---------------------------------------------------------------------------

def invoke(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["review", *args], input=stdin)


def test_the_command_prints_the_decisions_and_the_summary():
    result = invoke("-", "--budget", "32", stdin="\n".join(late_streets()) + "\n")
    assert result.exit_code == 0, result.output
    assert "Decisions:  3 graded" in result.stdout and "EV lost:" in result.stdout
    assert "Worst:      line 3, street 5" in result.stdout and result.stderr == ""


LAST_STREET = {"board": "Kd Qs Jc / 7c 8c 9c 3c / 2h 2d 5h 5d", "cards": "Ac Td 7h"}


def test_the_table_shows_cards_as_every_command_does_and_fits_80_columns():
    result = invoke("-", "--budget", "32", "--objective", "royalties",
                    stdin="\n".join(late_streets()) + "\n")
    assert result.exit_code == 0, result.output
    table = result.stdout[:result.stdout.index("Decisions:")]  # piped, prose is one line
    assert max(len(line.rstrip()) for line in table.splitlines()) <= 80
    assert "K♦ Q♠ J♣" in result.stdout and "A♣ bottom" in result.stdout
    assert "Kd" not in result.stdout and "Ac bottom" not in result.stdout


@pytest.mark.parametrize("play, said", [
    ("7h middle, Td bottom", "1 graded, 1 best play\n"),
    ("Td middle, Ac bottom", "1 graded, 0 best plays\n"),
])
def test_the_summary_counts_best_plays_in_english(play, said):
    result = invoke("-", "--objective", "royalties",
                    stdin=json.dumps({**LAST_STREET, "play": play}) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Decisions:  {said}" in result.stdout


def test_json_reproduces_the_library_and_validates_against_the_schema():
    from test_schemas import problems

    result = invoke(str(HAND), "--variant", "progressive", "--budget", "32", "--seed", "2",
                    "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert problems("review.schema.json", document) == []
    graded = review(lines(HAND), budget=32, sample=Sample(seed=2))
    assert [d["ev_lost"] for d in document["decisions"]] == [
        None if d.lost is None else round(d.lost, 6) for d in graded.decisions]
    assert document["summary"]["worst_line"] == graded.worst.line
    broken = dict(document, summary={**document["summary"], "ev_lost": "lots"})
    assert problems("review.schema.json", broken)


def test_some_bad_lines_exit_1_and_are_each_one_line_on_stderr():
    result = invoke(str(BAD), "--budget", "32", "--objective", "royalties")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        line for line in result.stderr.splitlines() if line.startswith("error: line ")]
    assert [line.split(":")[1] for line in result.stderr.splitlines()] == [
        " line 3", " line 4", " line 5"]
    assert "Skipped:    3 bad lines: 3, 4, 5" in result.stdout


@pytest.mark.parametrize("args, stdin, message", [
    (["-"], "{nope\n", "error: line 1: not a JSON object"),
    (["no-such-file.jsonl"], None, "error: cannot read history 'no-such-file.jsonl'"),
    (["-"], "", "error: standard input is empty"),
    (["-", "--opponents", "3"], "x\n", "error: Invalid value for '--opponents'"),
])
def test_nothing_graded_is_exit_2_without_a_traceback(args, stdin, message):
    result = invoke(*args, stdin=stdin)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_a_history_of_comments_only_is_exit_2(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing yet\n\n", encoding="utf-8")
    result = invoke(str(empty))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: ") and "holds no street" in result.stderr


def test_a_line_s_seed_wins_over_the_run_s_and_a_bad_one_is_a_bad_line():
    street = dict(LAST_STREET, play="Ac middle, Td bottom, discard 7h", opponents=1)
    own = review([json.dumps(street | {"seed": 5})], **FAST)
    (graded,) = own.decisions
    alone = advise(find_rules("progressive"), street["board"], street["cards"],
                   sample=Sample(samples=200, seed=5), effort=Effort(budget=32))
    assert graded.advice.seed == 5 and graded.best.value == alone.best.value
    bad = review([json.dumps(street | {"seed": -1}), json.dumps(street | {"seed": "1"})], **FAST)
    assert [b.message for b in bad.bad_lines] == [
        "bad seed -1: expected a whole number >= 0", "bad seed '1': expected a whole number >= 0"]


def test_a_line_names_the_opponents_in_fantasyland_as_advise_takes_them():
    street = dict(LAST_STREET, play="Ac middle, Td bottom, discard 7h", opponents=1)
    (graded,) = review([json.dumps(street | {"opponent_fantasyland": [14]})], **FAST).decisions
    assert graded.advice.table.fantasyland == (14,)
    bad = review([json.dumps(street | {"opponent_fantasyland": ["14"]})], **FAST)
    assert bad.bad_lines[0].message.startswith("bad opponent_fantasyland: expected a list")
