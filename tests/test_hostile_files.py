"""Files and streams that are not what they seem (issue 42, items 8 to 10, 12, 13 and 20).

Each case runs the command line in a child process under a time limit and a memory limit
(RLIMIT_AS), and asserts the documented behaviour: most often one line on stderr and exit
code 2, never a traceback, a hang or a read without end.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fantasyland.evaluator import RulesError
from fantasyland.evaluator.rules_files import rules_from_text

REPO = Path(__file__).resolve().parents[1]

#: Address space for a child: room for numpy and the tables, far below what a read without
#: a bound (24 GB of /dev/zero) would take.
MEMORY = 2 * 1024 ** 3

#: Seconds a child may take: generous on a loaded machine, far below a hang.
SECONDS = 60

HAND = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d 2c"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*args: str, cwd: Path, stdin=subprocess.DEVNULL, shell: str | None = None
        ) -> subprocess.CompletedProcess:
    """``fantasyland ARGS`` (or a shell line where ``fantasyland`` is this checkout's), with
    the time and memory limits."""
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="200")
    command = [sys.executable, "-m", "fantasyland.cli.main", *args]
    if shell is not None:
        env["FANTASYLAND"] = f"{sys.executable} -m fantasyland.cli.main"
        command = ["bash", "-c", "set -o pipefail; " + shell]
    return subprocess.run(command, cwd=cwd, env=env, stdin=stdin, capture_output=True,
                          text=True, errors="replace", timeout=SECONDS,
                          preexec_fn=_limit_memory)


def one_line_error(done: subprocess.CompletedProcess, *words: str, code: int = 2) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == code, done.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A directory of rules files that are not what they seem."""
    (tmp_path / "deep.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    (tmp_path / "deep_lines.toml").write_text("a = " + "[\n" * 15_000 + "]\n" * 15_000)
    (tmp_path / "dotted.toml").write_text('base = "pineapple"\nx' + ".a" * 3000 + " = 1\n")
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "dir.toml").mkdir()
    return tmp_path


# --- rules files -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, words", [
    ("deep.toml", ["larger than 65,536 bytes"]),
    ("deep_lines.toml", ["nested too deeply"]),
    ("dotted.toml", ["line 2 is 6,005 characters long"]),
    ("zero.toml", ["it is a device", "expected a regular file"]),
    ("fifo.toml", ["it is a FIFO"]),
    ("dir.toml", ["it is a directory"]),
])
def test_a_rules_file_that_is_not_one_is_one_line(hostile: Path, name: str,
                                                  words: list[str]) -> None:
    one_line_error(run("solve", "--variant", name, HAND, cwd=hostile), name, *words)


@pytest.mark.parametrize("command", [
    ["deal", "--hands", "1"], ["value", "--hands", "2"], ["score", HAND[:40]],
])
def test_every_command_reads_rules_files_through_one_reader(hostile: Path,
                                                            command: list[str]) -> None:
    for name in ("deep_lines.toml", "zero.toml"):
        one_line_error(run(*command, "--variant", name, cwd=hostile), name)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_is_rules_or_a_rules_error(text: str) -> None:
    try:
        rules_from_text(text)
    except RulesError:
        pass


_TOML_KEYS = st.sampled_from(["base", "name", "description", "royalties", "fantasyland",
                              "top", "middle", "bottom", "entry", "stay", "deck", "jokers",
                              "scoring", "table", "players", "x", "dealing", "aliases"])
_TOML_VALUES = st.recursive(
    st.one_of(st.integers(-10 ** 20, 10 ** 20), st.floats(allow_nan=False), st.booleans(),
              st.text(max_size=12), st.sampled_from(["pineapple", "QQ", "AA", "trips"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(_TOML_KEYS, inner, max_size=4)),
    max_leaves=12)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if not isinstance(value, float) or value == value else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return "{" + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + "}"


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_TOML_KEYS, _TOML_VALUES, max_size=6))
def test_arbitrary_toml_is_rules_or_a_rules_error(doc: dict) -> None:
    text = "\n".join(f"{key} = {_toml(value)}" for key, value in doc.items())
    try:
        rules_from_text(text.replace("inf", "1e300"))
    except RulesError:
        pass


# --- standard input and histories --------------------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "score", "review"])
def test_a_device_on_standard_input_is_refused_unread(tmp_path: Path, command: str) -> None:
    with open("/dev/zero", "rb") as zero:
        one_line_error(run(command, "-", cwd=tmp_path, stdin=zero),
                       "standard input is a device")


def test_standard_input_past_its_cap_stops_there(tmp_path: Path) -> None:
    done = run(cwd=tmp_path, shell="head -c 3000000 /dev/zero | $FANTASYLAND solve -")
    one_line_error(done, "standard input holds more than 1 MB")


@pytest.mark.parametrize("name, words", [
    ("zero.toml", ["history 'zero.toml'", "it is a device"]),
    ("fifo.toml", ["it is a FIFO"]),
    ("dir.toml", ["it is a directory"]),
])
def test_a_history_that_is_not_a_file_is_one_line(hostile: Path, name: str,
                                                  words: list[str]) -> None:
    one_line_error(run("review", name, cwd=hostile), *words)


def test_a_history_nested_past_the_stack_is_a_bad_line(tmp_path: Path) -> None:
    (tmp_path / "deep.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    one_line_error(run("review", "deep.jsonl", cwd=tmp_path), "line 1", "nested too deeply")


def test_review_shows_twenty_bad_lines_and_counts_the_rest(tmp_path: Path) -> None:
    (tmp_path / "binary.jsonl").write_bytes(bytes(range(256)) * 80)
    done = run("review", "binary.jsonl", cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 21, done.stderr[-2000:]
    assert lines[-1].startswith("error: ") and "more bad lines not shown" in lines[-1]


# --- batch input -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, words", [
    ("zero.toml", ["batch input 'zero.toml'", "it is a device"]),
    ("fifo.toml", ["it is a FIFO"]),
    ("dir.toml", ["it is a directory"]),
])
def test_a_batch_input_that_is_not_a_file_is_one_line(hostile: Path, name: str,
                                                      words: list[str]) -> None:
    one_line_error(run("batch", name, "-o", "out.jsonl", cwd=hostile), *words)
    assert not list(hostile.glob("out.jsonl*"))


def test_batch_refuses_a_device_on_standard_input(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        one_line_error(run("batch", "-", "-o", "out.jsonl", cwd=tmp_path, stdin=zero),
                       "standard input is a device")


def test_hostile_batch_lines_are_bad_lines_and_the_rest_is_solved(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text(
        f"a {HAND}\n"
        + '{"id": "deep", "cards": ' + "[" * 30_000 + "]" * 30_000 + "}\n"
        + "x" * 9_000_000 + "\n"
        + f"b {HAND[:-2]}2h\n")
    done = run("batch", "in.txt", "-o", "out.jsonl", "--no-progress", cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert [json.loads(line)["id"] for line in open(tmp_path / "out.jsonl")] == ["a", "b"]
    errors = [json.loads(line) for line in open(tmp_path / "out.jsonl.errors")]
    assert [(e["id"], e["line"]) for e in errors] == [("2", 2), ("3", 3)]
    assert "nested too deeply" in errors[0]["message"]
    assert errors[1]["length"] == 9_000_000 and len(errors[1]["text"]) <= 1000
    assert (tmp_path / "out.jsonl.errors").stat().st_size < 10_000


# --- outputs -----------------------------------------------------------------------------------

@pytest.mark.parametrize("output, words", [
    ("-", ["batch output '-'", "not standard output"]),
    ("/dev/full", ["it is a device"]),
    ("/proc/nope/out.jsonl", ["its directory '/proc/nope'"]),
])
def test_batch_refuses_an_output_it_cannot_resume_before_any_work(tmp_path: Path, output: str,
                                                                  words: list[str]) -> None:
    (tmp_path / "in.txt").write_text(HAND + "\n")
    one_line_error(run("batch", "in.txt", "-o", output, cwd=tmp_path), *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_batch_to_dev_stdout_through_a_pipe_does_not_hang(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text(HAND + "\n")
    done = run(cwd=tmp_path, shell="$FANTASYLAND batch in.txt -o /dev/stdout | cat")
    one_line_error(done, "'/dev/stdout'", "FIFO")


def test_opponents_refuses_a_pool_it_cannot_write_before_playing(tmp_path: Path) -> None:
    one_line_error(run("opponents", "--regenerate", "--hands", "20", "--output",
                       "/proc/nope/pool.npz", cwd=tmp_path), "pool '/proc/nope/pool.npz'")
    (tmp_path / "file").write_text("")
    one_line_error(run("opponents", "--regenerate", "--hands", "20", "--output", "pool.npz",
                       "--chunks", "file", cwd=tmp_path), "chunks in 'file'",
                   "not a directory")
    assert not (tmp_path / "pool.npz").exists()


def test_deal_names_standard_output_when_it_cannot_write(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "fantasyland.cli.main", "deal",
                               "--hands", "3"], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=SECONDS, preexec_fn=_limit_memory,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
    one_line_error(done, "cannot write standard output: No space left on device")


def test_deal_dash_is_standard_output(tmp_path: Path) -> None:
    done = run("deal", "--hands", "2", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2, done.stderr
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("ordinary", [[], ["--ordinary"]])
def test_train_log_on_a_full_disk_is_one_line_and_the_summary(tmp_path: Path,
                                                             ordinary: list[str]) -> None:
    done = run(cwd=tmp_path, shell=f"echo q | $FANTASYLAND train {' '.join(ordinary)} "
                                   "--seed 1 --log /dev/full")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.strip().splitlines() == [
        "error: cannot write the log '/dev/full': No space left on device; the session goes "
        "on, and what it plays from here on is not logged"]
    assert "Summary:" in done.stdout


@pytest.mark.parametrize("name, words", [
    ("zero.toml", ["config file", "it is a device"]),
    ("fifo.toml", ["it is a FIFO"]),
    ("deep_lines.toml", ["larger than 16,384 bytes"]),
])
def test_a_config_file_that_is_not_one_is_one_line(hostile: Path, name: str,
                                                   words: list[str]) -> None:
    (hostile / "nested.toml").write_text("a = " + "[" * 5000 + "]" * 5000)
    for config, found in ((name, words), ("nested.toml", ["nested too deeply"])):
        done = subprocess.run([sys.executable, "-m", "fantasyland.cli.main", "deal"],
                              cwd=hostile, capture_output=True, text=True, timeout=SECONDS,
                              preexec_fn=_limit_memory,
                              env=dict(os.environ, PYTHONPATH=str(REPO),
                                       FANTASYLAND_CONFIG=config))
        one_line_error(done, config, *found)
