"""``fantasyland batch``: inputs, ids, bad lines, order, resume after SIGKILL, and workers.

Records carry ``solve_ms``, a timing, so runs are compared with it masked: everything else
must match byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fantasyland.cli.batch import _print_summary
from fantasyland.cli.main import app
from fantasyland.cli.solve import solution_dict
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.batch.engines import Engine, Settings
from fantasyland.optimizer.batch.files import BadLine, Hand, Reader, record_line, split_id
from fantasyland.optimizer.batch.run import Summary, run_batch
from fantasyland.optimizer.opponents.pools import pool_for
from fantasyland.optimizer.solver.dealing import deal_hands, hand_line

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent

#: The worked Ivey set's 13 cards plus one, dealt as a 14-card Fantasyland hand.
HAND = "6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h 2d Ah"


def batch(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["batch", *args, "--no-progress"], input=stdin)


def stable(text: str) -> str:
    """Output text with the one timing field masked."""
    return re.sub(r'"solve_ms":[0-9.e+-]+', '"solve_ms":0', text)


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def dealt(count: int, seed: int, cards: int = 14) -> list[str]:
    return [hand_line(h) for h in deal_hands(count, {cards: 1.0}, seed)]


def mixed_input(count: int) -> list[str]:
    """Seeded hands, with an id, JSON lines, a comment, a blank and bad lines among them."""
    lines = dealt(count, 11)
    lines[2] = "hand-3 " + lines[2]
    lines[4] = json.dumps({"id": "json-5", "cards": lines[4].split(), "variant": "prog"})
    lines.insert(6, "As Kd Qh")  # wrong count
    lines.insert(9, "# a comment")
    lines.insert(10, "")
    lines.insert(13, "hand-3 " + lines[0])  # duplicate id
    return lines


@pytest.fixture
def hands_file(tmp_path) -> Path:
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(dealt(12, 5)) + "\n")
    return path


# --- input and output ----------------------------------------------------------------------

def test_text_lines_give_one_record_each_in_input_order_with_line_numbers_as_ids(
        hands_file, tmp_path):
    out = tmp_path / "out.jsonl"
    result = batch(str(hands_file), "-o", str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    got = records(out)
    assert [r["id"] for r in got] == [str(n) for n in range(1, 13)]
    for line, record in zip(hands_file.read_text().splitlines(), got):
        assert sorted(record["cards"]) == sorted(line.split())


def test_a_record_is_the_solve_json_schema_plus_id(tmp_path):
    (tmp_path / "one.txt").write_text(HAND + "\n")
    out = tmp_path / "out.jsonl"
    assert batch(str(tmp_path / "one.txt"), "-o", str(out), "--workers", "1").exit_code == 0
    record = records(out)[0]
    solved = runner.invoke(app, ["solve", HAND, "--json"])  # the same defaults
    solved = json.loads(solved.stdout)
    assert record.pop("id") == "1"
    record.pop("solve_ms"), solved.pop("solve_ms")
    assert record == solved
    assert out.read_text().startswith('{"id":"1",')  # id first, one compact line


def test_text_ids_come_first_when_they_are_not_cards(tmp_path):
    lines = dealt(3, 2)
    (tmp_path / "in.txt").write_text(f"h1 {lines[0]}\n42,{lines[1]}\n\t{lines[2]}\n")
    out = tmp_path / "out.jsonl"
    assert batch(str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1").exit_code == 0
    assert [r["id"] for r in records(out)] == ["h1", "42", "3"]


def test_jsonl_input_with_ids_card_lists_and_a_variant_per_line(tmp_path):
    lines = dealt(3, 4)
    (tmp_path / "in.jsonl").write_text("\n".join([
        json.dumps({"id": "a", "cards": lines[0]}),
        json.dumps({"id": 7, "cards": lines[1].split()}),
        json.dumps({"cards": lines[2], "variant": "progressive"}),
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.jsonl"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    got = records(out)
    assert [r["id"] for r in got] == ["a", "7", "3"]
    assert [r["variant"] for r in got] == ["pineapple", "pineapple", "progressive"]


def test_a_json_line_with_a_key_it_may_not_have_is_a_bad_line_naming_it(tmp_path):
    # "varaint" was ignored, and the hand solved under the batch's variant with exit 0.
    lines = dealt(2, 4)
    (tmp_path / "in.jsonl").write_text("\n".join([
        json.dumps({"id": "a", "cards": lines[0], "varaint": "deuce"}),
        json.dumps({"id": "b", "cards": lines[1]}),
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.jsonl"), "-o", str(out), "--workers", "1",
                   "--objective", "royalties")
    assert result.exit_code == 1
    message = "unknown key 'varaint': expected id, cards, variant"
    assert result.stderr.splitlines()[0] == f"error: line 1 (id a): {message}"
    assert [r["id"] for r in records(out)] == ["b"]
    assert [(e["id"], e["message"]) for e in records(Path(f"{out}.errors"))] == [
        ("a", message)]


def test_an_id_that_is_not_utf8_is_a_bad_line_not_an_id_that_collides(tmp_path):
    # Read with U+FFFD for bad bytes, "h\xff" and "h\xfe" were one id, "h\ufffd".
    lines = dealt(3, 4)
    (tmp_path / "in.txt").write_bytes(b"h\xff " + lines[0].encode() + b"\n"
                                      + b"h\xfe " + lines[1].encode() + b"\n"
                                      + b"h3 " + lines[2].encode() + b"\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1",
                   "--objective", "royalties")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        "error: line 1: not UTF-8: byte 0xff at column 2: expected a line of UTF-8 text",
        "error: line 2: not UTF-8: byte 0xfe at column 2: expected a line of UTF-8 text"]
    assert [r["id"] for r in records(out)] == ["h3"]
    errors = Path(f"{out}.errors").read_bytes().decode("utf-8")  # strict: the file is UTF-8
    texts = [json.loads(line)["text"] for line in errors.splitlines()]
    # the errors file keeps each line's bytes, as JSON escapes
    assert [t.encode("utf-8", "surrogateescape") for t in texts] == [
        b"h\xff " + lines[0].encode(), b"h\xfe " + lines[1].encode()]


def test_a_json_line_escaping_a_lone_surrogate_is_a_bad_line_not_a_traceback(tmp_path):
    lines = dealt(2, 4)
    (tmp_path / "in.jsonl").write_text(
        '{"id": "a\\udcff", "cards": "x\\udcff"}\n'
        + json.dumps({"id": "b", "cards": "x\udcff " + lines[0]}) + "\n"
        + json.dumps({"id": "c", "cards": lines[1]}) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.jsonl"), "-o", str(out), "--workers", "1",
                   "--objective", "royalties")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert [r["id"] for r in records(out)] == ["c"]
    errors = records(Path(f"{out}.errors"))
    assert errors[0]["message"].startswith('bad id "a\udcff": expected text')
    assert errors[1]["id"] == "b" and errors[1]["message"].startswith("bad card 'x\\udcff'")


def test_dash_reads_stdin(hands_file, tmp_path):
    from_file, from_stdin = tmp_path / "file.jsonl", tmp_path / "stdin.jsonl"
    assert batch(str(hands_file), "-o", str(from_file), "--workers", "1").exit_code == 0
    result = batch("-", "-o", str(from_stdin), "--workers", "1", stdin=hands_file.read_text())
    assert result.exit_code == 0, result.output
    assert stable(from_stdin.read_text()) == stable(from_file.read_text())


def test_options_reach_the_solver(hands_file, tmp_path):
    out = tmp_path / "out.jsonl"
    result = batch(str(hands_file), "-o", str(out), "--workers", "1", "--variant", "prog",
                   "--fl-value", "3.5", "--objective", "royalties")
    assert result.exit_code == 0, result.output
    assert {(r["variant"], r["fl_value"], r["objective"]) for r in records(out)} == \
        {("progressive", 3.5, "royalties")}


def test_summary_gives_hands_failures_mean_value_stay_rate_and_wall_time(hands_file, tmp_path):
    out = tmp_path / "out.jsonl"
    result = batch(str(hands_file), "-o", str(out), "--workers", "1")
    got = records(out)
    mean = sum(r["value"] for r in got) / len(got)
    stays = sum(r["stays"] for r in got) / len(got)
    assert "Hands:      12 (12 solved now, 0 already in" in result.stderr
    assert f"Mean value: {mean:.3f}" in result.stderr
    assert f"Stay rate:  {stays:.1%}" in result.stderr
    assert re.search(r"Wall time:  [0-9.]+ m?s \([0-9.]+ hands/s\)", result.stderr)
    assert result.stdout == ""


@pytest.mark.parametrize("solved, seconds, shown", [
    (3, 0.025, "25.0 ms (120.0 hands/s)"),  # not "0.0 s (120.0 hands/s)"
    (300, 2.5, "2.50 s (120.0 hands/s)"),
    (1440, 12.0, "12.0 s (120.0 hands/s)"),
])
def test_summary_wall_time_has_the_figures_its_rate_was_computed_from(
        capsys, tmp_path, solved, seconds, shown):
    _print_summary(Summary(solved=solved, seconds=seconds), tmp_path / "o", tmp_path / "e")
    assert f"Wall time:  {shown}" in capsys.readouterr().err


def test_progress_bar_shows_the_rate_on_stderr(hands_file, tmp_path):
    result = runner.invoke(app, ["batch", str(hands_file), "-o", str(tmp_path / "o.jsonl"),
                                 "--workers", "1"])
    assert result.exit_code == 0
    assert "hands/s" in result.stderr and "12/12" in result.stderr


# --- bad lines -----------------------------------------------------------------------------

def test_bad_lines_are_reported_with_line_numbers_skipped_and_listed(tmp_path):
    good = dealt(3, 9)
    bad = {2: "As Kd Qh Xx 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",  # bad card
           4: "As Kd Qh Jc",  # wrong count
           5: "As As " + " ".join(good[0].split()[2:]),  # duplicate card
           7: "dup " + good[1],
           8: "dup " + good[2],  # duplicate id
           9: '{"id": "j", "cards": ',  # bad JSON
           10: json.dumps({"cards": good[2], "variant": "holdem"})}
    lines = [good[0], bad[2], good[1], bad[4], bad[5], good[2], bad[7], bad[8], bad[9], bad[10]]
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1
    assert [r["id"] for r in records(out)] == ["1", "3", "6", "dup"]
    errors = records(Path(str(out) + ".errors"))
    assert [e["line"] for e in errors] == [2, 4, 5, 8, 9, 10]
    assert [e["text"] for e in errors] == [bad[n] for n in (2, 4, 5, 8, 9, 10)]
    assert errors[3]["id"] == "dup" and "duplicate id 'dup'" in errors[3]["message"]
    assert "bad card 'Xx'" in errors[0]["message"]
    assert "got 4 cards" in errors[1]["message"]
    assert "duplicate card 'As'" in errors[2]["message"]
    assert "bad JSON" in errors[4]["message"]
    assert "unknown variant 'holdem'" in errors[5]["message"]
    for e in errors:
        assert f"error: line {e['line']}" in result.stderr
    assert "(id dup)" in result.stderr
    assert "6 failed" in result.stderr


def test_a_bad_json_line_keeps_its_id_in_the_report_and_the_errors_file(tmp_path):
    lines = ['{"id":"a","cards":["As",5]}',
             json.dumps({"id": "c", "cards": HAND, "variant": 5}),
             '{"id":"d"}',
             json.dumps({"id": 7, "cards": HAND, "variant": True})]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.jsonl"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1
    errors = records(Path(f"{out}.errors"))
    assert [e["id"] for e in errors] == ["a", "c", "d", "7"]
    assert "error: line 1 (id a): bad card 5 in 'cards': expected a string" in result.stderr
    assert "error: line 2 (id c): bad variant 5: expected a string" in result.stderr
    assert "error: line 3 (id d): missing 'cards'" in result.stderr
    assert "error: line 4 (id 7): bad variant true:" in result.stderr  # JSON's word, not True
    assert "None" not in result.stderr and "True" not in result.stderr


def test_a_bad_line_without_an_id_is_reported_by_its_line_number_alone(tmp_path):
    lines = [HAND, '{"cards": 5}', '{"id": "j", "cards": ', '{"id": [1], "cards": "As"}']
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.jsonl"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1
    assert "error: line 2: bad 'cards' 5: expected a string" in result.stderr
    assert "error: line 3: bad JSON" in result.stderr
    assert "error: line 4: bad id [1]: expected a string or a whole number" in result.stderr
    assert "(id" not in result.stderr and "None" not in result.stderr
    # A hand without an id has its line number for one, bad or not (README "`batch`").
    assert [e["id"] for e in records(Path(f"{out}.errors"))] == ["2", "3", "4"]


def test_an_escape_code_in_a_batch_id_is_shown_escaped(tmp_path):
    red = "\x1b[31mred\x1b[0m"
    (tmp_path / "in.txt").write_text(
        f"{red} As Kd Qh\n"  # a text line's id, and a bad line, so that it is echoed
        + json.dumps({"id": "\x1b]0;title\x07", "cards": "As Kd"}) + "\n"
        + f"{red} As Kd Qh\n")  # and a duplicate, whose message quotes the id
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == r"error: line 1 (id \x1b[31mred\x1b[0m): got 3 cards: expected 13 to 17"
    assert lines[1].startswith(r"error: line 2 (id \x1b]0;title\x07): ")
    assert lines[2].startswith(r"error: line 3 (id \x1b[31mred\x1b[0m): ")
    # the files keep the id as it was given: only the terminal is spared
    assert [e["id"] for e in records(Path(f"{out}.errors"))][0] == red


def test_every_error_line_shows_what_it_echoes_of_the_input_escaped(tmp_path):
    # A rules file's name is echoed as it is (the rules errors name their file): any command's
    # error line escapes it, as batch's bad lines escape an id.
    named = tmp_path / "\x1b[31mred.toml"
    named.write_text("royalties = [\n", encoding="utf-8")
    for args in (["score", "As Kd Qh / Jc Ts 9s 8h 7d / 6c 5s 4h 3d 2c"], ["deal"]):
        result = runner.invoke(app, [*args, "--variant", str(named)])
        assert result.exit_code == 2 and "\x1b" not in result.stderr, args
        assert result.stderr.startswith(r"error: \x1b[31mred.toml: not valid TOML"), args


@pytest.mark.parametrize("hand_id", ["", "  "])
def test_a_blank_id_is_a_bad_line(tmp_path, hand_id):
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": hand_id, "cards": HAND}) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.jsonl"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1
    assert f'error: line 1: bad id "{hand_id}": expected a non-blank string' in result.stderr
    assert out.read_text() == ""


@pytest.mark.parametrize("line", ["[1, 2]", "[As Kd Qh]", "[]"])
def test_a_line_starting_with_a_bracket_is_neither_json_nor_cards(line):
    bad = Reader("pineapple").parse(4, line)
    assert isinstance(bad, BadLine) and bad.id == "4"
    assert bad.message == ("bad line starting with '[': expected a JSON object or a line of "
                           "cards")


def test_a_mistyped_first_card_is_a_bad_card_not_an_id():
    assert split_id("Ax Kd Qh")[0] is None
    assert split_id("Zs Kd Qh")[0] is None
    assert split_id("AsKdQx Jh")[0] is None
    assert split_id("12 As")[0] == "12"
    assert split_id("game-7 As")[0] == "game-7"


def test_reader_counts_blank_and_comment_lines_in_line_numbers():
    items = list(Reader("pineapple").read(["", "# note", HAND, "  ", "As"]))
    assert isinstance(items[0], Hand) and items[0].line == 3 and items[0].id == "3"
    assert isinstance(items[1], BadLine) and items[1].line == 5


def test_errors_file_option_and_no_stale_errors_after_a_clean_run(hands_file, tmp_path):
    errors, out = tmp_path / "bad.jsonl", tmp_path / "out.jsonl"
    errors.write_text('{"line": 99}\n')
    assert batch(str(hands_file), "-o", str(out), "--errors", str(errors),
                 "--workers", "1").exit_code == 0
    assert not errors.exists()


def _explode_on_sixes(solution):
    if 16 in solution.cards:  # 6c
        raise ZeroDivisionError("boom")
    return solution_dict(solution)


def test_a_hand_that_fails_in_the_solver_is_reported_and_the_batch_goes_on(tmp_path):
    lines = dealt(20, 1)
    out = tmp_path / "out.jsonl"
    summary = run_batch(lines, out, Settings(_explode_on_sixes), Engine())
    failed = [n for n, line in enumerate(lines, 1) if "6c" in line.split()]
    assert 0 < summary.failed == len(failed) and summary.solved == 20 - len(failed)
    errors = records(Path(str(out) + ".errors"))
    assert [e["line"] for e in errors] == failed
    assert "ZeroDivisionError: boom" in errors[0]["message"] and "traceback" in errors[0]


# --- resume --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, Path]:
    """One input, solved uninterrupted by one worker and by two."""
    base = tmp_path_factory.mktemp("reference")
    inp = base / "in.txt"
    inp.write_text("\n".join(mixed_input(150)) + "\n")
    outputs = {"input": inp}
    for workers in ("1", "2"):
        out = base / f"w{workers}.jsonl"
        result = batch(str(inp), "-o", str(out), "--workers", workers)
        assert result.exit_code == 1, result.output  # the input has bad lines
        outputs[workers] = out
    return outputs


def test_two_workers_write_what_one_writes(reference):
    one, two = reference["1"], reference["2"]
    assert stable(two.read_text()) == stable(one.read_text())
    assert Path(f"{two}.errors").read_text() == Path(f"{one}.errors").read_text()
    assert len(one.read_text().splitlines()) == 150  # every dealt hand; two bad lines


def test_rerun_of_a_finished_output_adds_nothing(reference, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text(reference["1"].read_text())
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1  # the bad lines are bad again
    assert out.read_text() == reference["1"].read_text()
    assert "0 solved now, 150 already in" in result.stderr


def test_rerun_cuts_a_partial_last_line_and_finishes_without_duplicates_or_gaps(
        reference, tmp_path):
    whole = reference["1"].read_text()
    lines = whole.splitlines(keepends=True)
    out = tmp_path / "out.jsonl"
    out.write_text("".join(lines[:40]) + lines[40][:57])  # killed mid-line
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1
    assert stable(out.read_text()) == stable(whole)
    assert "already in" in result.stderr and "40 already in" in result.stderr


def test_a_rerun_fills_a_hole_in_input_order_and_leaves_other_ids_where_they_are(
        reference, tmp_path):
    # The hand that fills a hole was appended at the end, though the help promises input order.
    lines = reference["1"].read_text().splitlines(keepends=True)
    foreign = record_line("not-in-this-input", {"objective": "ev"})
    out = tmp_path / "out.jsonl"
    out.write_text(foreign + "".join(lines[:20] + lines[21:90] + lines[95:]))
    Path(f"{out}.settings").write_bytes(Path(f"{reference['1']}.settings").read_bytes())
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1, result.output  # the input's bad lines
    assert "6 solved now, 144 already in" in result.stderr
    assert stable(out.read_text()) == stable(foreign + "".join(lines))
    assert not Path(f"{out}.reorder").exists()


def test_a_rerun_keeps_one_line_of_an_id_written_twice(reference, tmp_path):
    # Two runs at once (before outputs were locked) left every hand twice, and a third kept them.
    whole = reference["1"].read_text()
    out = tmp_path / "out.jsonl"
    out.write_text(whole + whole)
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1, result.output
    assert "0 solved now, 150 already in" in result.stderr
    assert out.read_text() == whole


def test_a_rerun_puts_an_output_killed_while_it_was_reordered_in_input_order(
        reference, tmp_path):
    # The rewrite is whole or nothing: a run killed in it leaves every line, out of order.
    lines = reference["1"].read_text().splitlines(keepends=True)
    out = tmp_path / "out.jsonl"
    out.write_text("".join(lines[100:] + lines[:100]))
    Path(f"{out}.reorder").write_text(lines[0])  # the killed rewrite's scratch file
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1, result.output
    assert out.read_text() == "".join(lines)
    assert not Path(f"{out}.reorder").exists()


def _batch_process(args: list[str], cwd: Path, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get(
        "PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "fantasyland.cli.main", "batch", *args,
                             "--no-progress"], cwd=cwd, env=env, **kwargs)


def _wait_for_lines(path: Path, count: int, run: subprocess.Popen, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_bytes().count(b"\n") >= count):
        assert run.poll() is None, "the first run ended early"
        assert time.monotonic() < deadline, f"{path} did not reach {count} lines"
        time.sleep(0.01)


def test_a_second_run_on_an_output_being_written_is_refused_and_a_killed_run_frees_it(
        reference, tmp_path):
    # Two runs on one output both exited 0 and left every hand twice.
    out = tmp_path / "out.jsonl"
    lines = reference["input"].read_text().splitlines(keepends=True)
    # The first run reads stdin, which the test holds open: it keeps the output while the
    # second starts, however fast or slow the machine.
    first = _batch_process(["-", "-o", str(out), "--workers", "1"], tmp_path,
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        first.stdin.write("".join(lines[:12]).encode())  # results lag a few chunks behind
        first.stdin.flush()
        _wait_for_lines(out, 1, first)
        second = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
        assert second.exit_code == 2
        assert second.stderr.splitlines() == [
            f"error: another batch is writing {str(out)!r} (process {first.pid}): let it "
            "finish (or stop it and run again to go on), or use another output file"]
        os.kill(first.pid, signal.SIGKILL)  # the kernel releases its lock
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        first.stdin.close()
    written = out.read_bytes().count(b"\n")  # whole lines: a rerun cuts a partial one off
    assert written >= 1
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "1")
    assert result.exit_code == 1, result.output  # the input's bad lines
    assert f"{written} already in" in result.stderr
    assert stable(out.read_text()) == stable(reference["1"].read_text())


def _group_alive(pgid: int) -> bool:
    """Whether any process of the group is still running (zombies do not count)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def test_sigkill_midway_then_rerun_equals_an_uninterrupted_run(reference, tmp_path):
    out = tmp_path / "out.jsonl"
    lines = reference["input"].read_text().splitlines(keepends=True)
    given = lines[:60]
    # The run reads stdin, which the test holds open after 60 lines: it is killed midway
    # however fast the machine, where reading the file it could finish before the kill.
    run = _batch_process(["-", "-o", str(out), "--workers", "2"], tmp_path,
                         start_new_session=True, stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        run.stdin.write("".join(given).encode())
        run.stdin.flush()
        _wait_for_lines(out, 10, run)
        os.kill(run.pid, signal.SIGKILL)  # the main process only: its workers must notice
        run.wait(timeout=30)
        written = out.read_bytes().count(b"\n")
        assert 10 <= written < len(given)
        if Path("/proc").is_dir():
            deadline = time.monotonic() + 30
            while _group_alive(run.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not _group_alive(run.pid), "worker processes outlived the killed batch"
    finally:
        if run.poll() is None or _group_alive(run.pid):
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
        run.stdin.close()
    result = batch(str(reference["input"]), "-o", str(out), "--workers", "2")
    assert result.exit_code == 1, result.output
    assert stable(out.read_text()) == stable(reference["1"].read_text())
    assert Path(f"{out}.errors").read_text() == Path(f"{reference['1']}.errors").read_text()


# --- refusals ------------------------------------------------------------------------------

def test_an_output_of_another_objective_is_refused(hands_file, tmp_path):
    out = tmp_path / "out.jsonl"  # from before outputs had a settings file: no OUTPUT.settings
    out.write_text(record_line("1", {"objective": "other"}))
    result = batch(str(hands_file), "-o", str(out), "--workers", "1")
    assert result.exit_code == 2
    assert "was written with --objective 'other', not 'ev'" in result.stderr


def test_an_output_without_a_settings_file_is_checked_on_its_first_record(hands_file, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text(record_line("1", {"objective": "ev", "ev": {"samples": 20, "opponents": 1}}))
    result = batch(str(hands_file), "-o", str(out), "--workers", "1", "--objective", "ev",
                   "--samples", "21")
    assert result.exit_code == 2
    assert "was written with --samples 20, not 21" in result.stderr


@pytest.fixture
def one_hand(tmp_path) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(HAND + "\n")
    return path


EV = ("--objective", "ev", "--samples", "20")


@pytest.mark.parametrize("first, then, message", [
    (["--variant", "progressive"], ["--variant", "deuce"],
     "was written with --variant 'progressive', not 'deuce': rerun with the same --variant"),
    ([], ["--fl-value", "20"], "was written with the default --fl-value, not 20.0"),
    (["--fl-value", "20"], ["--fl-value", "20.5"], "was written with --fl-value 20.0, not 20.5"),
    (["--objective", "royalties"], list(EV), "was written with --objective 'royalties', not 'ev'"),
    (list(EV), [*EV, "--seed", "1"], "was written with --seed 0, not 1"),
    ([*EV, "--seed", "5"], list(EV), "was written with --seed 5, not 0"),
    (list(EV), ["--objective", "ev", "--samples", "21"], "was written with --samples 20, not 21"),
    (list(EV), [*EV, "--opponents", "2"], "was written with --opponents 1, not 2"),
])
def test_a_rerun_with_other_settings_is_refused_and_the_output_left_alone(
        one_hand, tmp_path, first, then, message):
    out = tmp_path / "out.jsonl"
    assert batch(str(one_hand), "-o", str(out), "--workers", "1", *first).exit_code == 0
    with out.open("a") as partial:
        partial.write('{"id":"2","alter')  # a killed run's last line: not cut off either
    before = out.read_bytes(), Path(f"{out}.settings").read_bytes()
    result = batch(str(one_hand), "-o", str(out), "--workers", "1", *then)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1
    assert (out.read_bytes(), Path(f"{out}.settings").read_bytes()) == before


@pytest.mark.parametrize("first, then", [
    (["--variant", "progressive"], ["--variant", "prog"]),  # an alias is the same rules
    (list(EV), [*EV, "--seed", "0", "--opponents", "1"]),  # solve's defaults, spelt out
    (["--objective", "royalties"],  # under royalties they change no record
     ["--objective", "royalties", "--seed", "3", "--samples", "7"]),
])
def test_a_rerun_with_the_same_settings_in_other_words_goes_on(
        hands_file, tmp_path, first, then):
    out = tmp_path / "out.jsonl"
    lines = hands_file.read_text().splitlines(keepends=True)
    (tmp_path / "half.txt").write_text("".join(lines[:2]))
    assert batch(str(tmp_path / "half.txt"), "-o", str(out), "--workers", "1",
                 *first).exit_code == 0
    result = batch(str(hands_file), "-o", str(out), "--workers", "1", *then)
    assert result.exit_code == 0, result.output
    assert "10 solved now, 2 already in" in result.stderr


def test_a_rerun_with_an_edited_rules_file_is_refused(one_hand, tmp_path):
    rules, out = tmp_path / "house.toml", tmp_path / "out.jsonl"
    rules.write_text('base = "pineapple"\n[fantasyland]\nrepeat_value = 5\n')
    assert batch(str(one_hand), "-o", str(out), "--variant", str(rules)).exit_code == 0
    rules.write_text('base = "pineapple"\n[fantasyland]\nrepeat_value = 7\n')
    result = batch(str(one_hand), "-o", str(out), "--variant", str(rules))
    assert result.exit_code == 2
    assert "was written with --variant 'house' holding other rules" in result.stderr


def test_an_ev_rerun_against_another_opponent_model_is_refused(one_hand, tmp_path):
    # An output written before the pool was rebuilt or recalibrated: its EVs were measured
    # against other boards and would not compare with new ones.
    out = tmp_path / "out.jsonl"
    assert batch(str(one_hand), "-o", str(out), *EV).exit_code == 0
    settings_file = Path(f"{out}.settings")
    settings = json.loads(settings_file.read_text())
    pool = pool_for(find_rules("pineapple"))
    assert settings["opponent_model"].startswith(
        f"the pineapple pool of {len(pool)} boards (seed {pool.meta['seed']}, digest ")
    assert settings["opponent_model"].endswith(")")  # as the learned bot played them
    settings_file.write_text(json.dumps(settings | {"opponent_model": "an older pool"}))
    result = batch(str(one_hand), "-o", str(out), *EV)
    assert result.exit_code == 2
    assert "was written against another opponent model (an older pool; now the pineapple " \
           "pool" in result.stderr and len(result.stderr.splitlines()) == 1
    royalties = tmp_path / "royalties.jsonl"  # no opponents, no model to record
    assert batch(str(one_hand), "-o", str(royalties), "--objective",
                 "royalties").exit_code == 0
    assert "opponent_model" not in json.loads(Path(f"{royalties}.settings").read_text())


def test_a_line_s_own_variant_is_not_a_batch_setting(tmp_path):
    lines = dealt(3, 6)
    lines[0] = json.dumps({"id": "p", "cards": lines[0], "variant": "progressive"})
    (tmp_path / "half.txt").write_text(lines[0] + "\n")
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    assert batch(str(tmp_path / "half.txt"), "-o", str(out), "--workers", "1").exit_code == 0
    result = batch(str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert [r["variant"] for r in records(out)] == ["progressive", "pineapple", "pineapple"]


def test_a_new_output_gets_a_settings_file_beside_it(one_hand, tmp_path):
    out = tmp_path / "out.jsonl"
    assert batch(str(one_hand), "-o", str(out), *EV, "--seed", "4").exit_code == 0
    settings = json.loads(Path(f"{out}.settings").read_text())
    assert {k: settings[k] for k in ("objective", "variant", "fl_value", "samples", "seed",
                                     "opponents")} == {
        "objective": "ev", "variant": "pineapple", "fl_value": None, "samples": 20, "seed": 4,
        "opponents": 1}


def test_an_output_that_is_not_batch_records_is_refused(hands_file, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("some notes\n")
    result = batch(str(hands_file), "-o", str(out), "--workers", "1")
    assert result.exit_code == 2
    assert "line 1 is not a batch record" in result.stderr
    assert out.read_text() == "some notes\n"


@pytest.mark.parametrize("args, message", [
    (["--variant", "holdem"], "unknown variant 'holdem'"),
    (["--objective", "money"], "'money' is not one of 'royalties', 'ev'"),
    (["--fl-value", "-1"], "Invalid value for '--fl-value'"),
    (["--fl-value", "1e308"], "Invalid value for '--fl-value'"),
    (["--time-limit", "0"], "Invalid value for '--time-limit'"),
])
def test_bad_options_exit_2_before_solving(hands_file, tmp_path, args, message):
    out = tmp_path / "out.jsonl"
    result = batch(str(hands_file), "-o", str(out), "--workers", "1", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("count", ["0", "3"])
def test_opponents_other_than_heads_up_or_three_handed_exit_2(hands_file, tmp_path, count):
    out = tmp_path / "out.jsonl"
    result = batch(str(hands_file), "-o", str(out), "--workers", "1", "--opponents", count)
    assert result.exit_code == 2
    assert "'--opponents'" in result.stderr
    assert not out.exists()


@pytest.fixture
def no_pool_rules(tmp_path) -> Path:
    """Rules whose foul rules (a pair or better in the middle) no shipped opponent pool has."""
    path = tmp_path / "q.toml"
    path.write_text('base = "pineapple"\n[foul]\nqualify = { middle = "pair" }\n')
    return path


def test_ev_under_rules_without_an_opponent_pool_fails_up_front(hands_file, tmp_path,
                                                               no_pool_rules):
    out = tmp_path / "out.jsonl"
    result = batch(str(hands_file), "-o", str(out), "--workers", "1", "--objective", "ev",
                   "--variant", str(no_pool_rules))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: no opponent pool for the rules 'q'")
    assert len(result.stderr.splitlines()) == 1
    assert not out.exists()


def test_bench_of_ev_under_rules_without_an_opponent_pool_fails_before_measuring(
        no_pool_rules):
    result = runner.invoke(app, ["batch", "--bench", "--hands", "1", "--workers", "1",
                                 "--objective", "ev", "--variant", str(no_pool_rules)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: no opponent pool") and result.stdout == ""


def test_a_line_s_own_variant_without_an_opponent_pool_is_a_bad_line(tmp_path, no_pool_rules):
    lines = dealt(2, 3)
    lines[0] = json.dumps({"id": "q1", "cards": lines[0], "variant": str(no_pool_rules)})
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    result = batch(str(tmp_path / "in.txt"), "-o", str(out), "--workers", "1", *EV)
    assert result.exit_code == 1, result.output
    assert "error: line 1 (id q1): no opponent pool" in result.stderr
    assert [r["id"] for r in records(out)] == ["2"]
    assert [e["id"] for e in records(Path(f"{out}.errors"))] == ["q1"]


def test_missing_input_or_output_or_the_same_file_exit_2(hands_file, tmp_path):
    assert batch(str(tmp_path / "nope.txt"), "-o", str(tmp_path / "o")).exit_code == 2
    assert batch(str(hands_file)).exit_code == 2
    same = batch(str(hands_file), "-o", str(hands_file))
    assert same.exit_code == 2 and "same file" in same.stderr


# --- benchmark -----------------------------------------------------------------------------

def test_bench_prints_hands_per_second_for_14_and_17_cards():
    result = runner.invoke(app, ["batch", "--bench", "--hands", "2", "--workers", "1",
                                 "--objective", "royalties"])
    assert result.exit_code == 0, result.output
    assert "Machine:" in result.stdout and "Hands/s" in result.stdout
    assert re.search(r"│\s+14 │ royalties", result.stdout)
    assert re.search(r"│\s+17 │ royalties", result.stdout)


def test_bench_says_why_a_hand_failed():
    result = runner.invoke(app, ["batch", "--bench", "--hands", "1", "--workers", "1",
                                 "--objective", "money"])
    assert result.exit_code == 2
    assert "'money' is not one of 'royalties', 'ev'" in result.stderr


def test_more_solve_options_reach_every_hand(tmp_path):
    out = tmp_path / "out.jsonl"
    settings = Settings(solution_dict, options=(("alternatives", 2),))
    assert run_batch(dealt(3, 8), out, settings, Engine()).solved == 3
    assert all(len(r["alternatives"]) == 2 for r in records(out))


def test_an_output_in_a_missing_directory_fails_before_solving(hands_file, tmp_path):
    result = batch(str(hands_file), "-o", str(tmp_path / "nope" / "out.jsonl"), "--workers", "1")
    assert result.exit_code == 2
    assert "No such file or directory" in result.stderr
    assert "Hands:" not in result.stderr
