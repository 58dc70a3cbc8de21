"""Runs saved in chunks (``optimizer.opponents.chunks``): a pool built by ``opponents
--regenerate --chunks`` in runs that were stopped is the pool of one run, a chunk played
otherwise is refused, and a chunk half written is never read as finished.

The pools are tiny: classic OFC (the cheapest dealing to play), the shipped bot, chunks of
2 hands (``pools.CHUNK`` patched), 6 hands: three chunks.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import fantasyland.optimizer.opponents.chunks as chunks_module
import fantasyland.optimizer.opponents.pools as pools_module
from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules
from fantasyland.optimizer.opponents.chunks import (Chunk, differences, load_chunk, run_chunks,
                                                    save_chunk, saved_chunks)
from fantasyland.optimizer.opponents.draw import POOL_VARIABLE, model_name, serving_pool
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.pools import chunk_path, load_pool
from tests.lab import run

runner = CliRunner()
STANDARD = find_rules("standard")
HANDS = 6
#: Every file of a build of 6 hands in chunks of 2.
NAMES = ["hands0000000-0000002.npz", "hands0000002-0000004.npz", "hands0000004-0000006.npz"]
HAND_13 = "As Kd Qh Jc Ts 9s 8h 7d 6c 5s 4h 3d 2c"
PLAY_CHUNK = pools_module._chunk


class Stopped(Exception):
    """The run killed, as far as the test can: raised where the next chunk would start."""


@pytest.fixture
def played(monkeypatch):
    """Chunks of 2 hands; the chunk indexes each run plays, listed as they are played."""
    monkeypatch.setattr(pools_module, "CHUNK", 2)
    log = []

    def chunk(args):
        log.append(args[3])
        return PLAY_CHUNK(args)

    monkeypatch.setattr(pools_module, "_chunk", chunk)
    return log


def _regenerate(output, *more: str):
    return runner.invoke(app, ["opponents", "--regenerate", "--variant", "standard",
                               "--hands", str(HANDS), "--pool-seed", "5", "--workers", "1",
                               "--output", str(output), *more])


def _same_pool(path_a, path_b) -> None:
    a, b = load_pool(path_a), load_pool(path_b)
    assert (a.boards == b.boards).all() and (a.discards == b.discards).all()
    assert {k: v for k, v in a.meta.items() if k != "seconds"} == \
        {k: v for k, v in b.meta.items() if k != "seconds"}


def test_a_pool_built_in_two_runs_one_stopped_is_the_pool_of_one_run(played, tmp_path,
                                                                       monkeypatch):
    whole = tmp_path / "whole.npz"
    assert _regenerate(whole).exit_code == 0
    assert played == [0, 1, 2]
    played.clear()

    # the first run is stopped after its first chunk, and leaves a chunk half written
    directory, counted = tmp_path / "chunks", pools_module._chunk

    def stop_after_the_first(args):
        if played:
            raise Stopped
        return counted(args)

    monkeypatch.setattr(pools_module, "_chunk", stop_after_the_first)
    stopped = _regenerate(tmp_path / "never.npz", "--chunks", str(directory))
    assert isinstance(stopped.exception, Stopped) and not (tmp_path / "never.npz").exists()
    assert [p.name for p in saved_chunks(directory, "*.npz")] == NAMES[:1]
    (directory / NAMES[2].replace(".npz", ".partial.npz")).write_bytes(b"PK\x03\x04 cut")
    first = (directory / NAMES[0]).stat().st_mtime_ns

    # the same command again plays the two chunks not saved, and only those
    monkeypatch.setattr(pools_module, "_chunk", counted)
    played.clear()
    resumed = tmp_path / "resumed.npz"
    result = _regenerate(resumed, "--chunks", str(directory))
    assert result.exit_code == 0, result.output
    assert played == [1, 2] and (directory / NAMES[0]).stat().st_mtime_ns == first
    assert f"2 hands read from the chunks saved in {directory}" in \
        result.stderr.replace("\n", "")
    assert [p.name for p in saved_chunks(directory, "*.npz")] == NAMES
    assert not list(directory.glob("*.partial.npz"))  # the cut one was written over
    _same_pool(resumed, whole)

    # --saved-only assembles the same pool from the chunks, playing none
    played.clear()
    assembled = tmp_path / "assembled.npz"
    result = _regenerate(assembled, "--chunks", str(directory), "--saved-only")
    assert result.exit_code == 0 and played == []
    assert result.stdout.startswith("Wrote 6 boards (one-at-a-time, rules standard, seed 5)")
    _same_pool(assembled, whole)

    # and the EV objective plays against it
    monkeypatch.setenv(POOL_VARIABLE, str(assembled))
    assert (serving_pool(STANDARD).boards == load_pool(whole).boards).all()
    assert "of 6 boards (seed 5" in model_name(STANDARD)
    solved = runner.invoke(app, ["solve", HAND_13, "--variant", "standard", "--objective",
                                 "ev", "--samples", "20", "--json"])
    assert solved.exit_code == 0, solved.output
    assert 0 < json.loads(solved.stdout)["ev"]["pool_boards"] <= 6  # the shipped pool: 1,721


def test_chunks_played_in_another_order_or_on_two_workers_are_the_same_pool(played, tmp_path,
                                                                          monkeypatch):
    whole, directory = tmp_path / "whole.npz", tmp_path / "chunks"
    assert _regenerate(whole, "--chunks", str(directory)).exit_code == 0
    # the last chunk alone, saved first: the others are played after it
    later = tmp_path / "later"
    later.mkdir()
    (later / NAMES[2]).write_bytes((directory / NAMES[2]).read_bytes())
    played.clear()
    assert _regenerate(tmp_path / "later.npz", "--chunks", str(later)).exit_code == 0
    assert played == [0, 1]
    _same_pool(tmp_path / "later.npz", whole)
    # two workers, playing the chunk function they can import (not the fixture's)
    monkeypatch.setattr(pools_module, "_chunk", PLAY_CHUNK)
    result = _regenerate(tmp_path / "two.npz", "--chunks", str(tmp_path / "two"), "--workers",
                         "2")
    assert result.exit_code == 0, result.output
    _same_pool(tmp_path / "two.npz", whole)


@pytest.mark.parametrize("args, differs", [
    (["--pool-seed", "6"], "seed 5, not 6"),
    (["--variant", "pineapple", "--hands", "4"], "dealing"),
])
def test_a_chunk_played_otherwise_is_refused_in_one_line(played, tmp_path, args, differs):
    directory = tmp_path / "chunks"
    assert _regenerate(tmp_path / "pool.npz", "--chunks", str(directory)).exit_code == 0
    played.clear()
    result = _regenerate(tmp_path / "other.npz", "--chunks", str(directory), *args)
    assert result.exit_code == 2 and result.stdout == "" and played == []
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: {directory / NAMES[0]} holds hands played "
                                    "otherwise (")
    assert differs in result.stderr and "move it away" in result.stderr


def test_a_chunk_of_another_bot_is_refused_to_a_candidate_s_pool(played, tmp_path, capsys):
    # the laboratory's candidate pools (tools/bots.py pool) keep and check chunks alike
    directory = tmp_path / "chunks"
    assert _regenerate(tmp_path / "pool.npz", "--chunks", str(directory)).exit_code == 0
    played.clear()
    code, out, err = run(capsys, "pool", "--variant", "standard", "--hands", str(HANDS),
                         "--pool-seed", "5", "--workers", "1", "--bot", "strong",
                         "--output", str(tmp_path / "other.npz"), "--chunks", str(directory))
    assert code == 2 and out == "" and played == [] and err.count("\n") == 1
    assert err.startswith(f"error: {directory / NAMES[0]} holds hands played otherwise (")
    assert "params.table_points" in err and "move it away" in err
    # with the shipped bot's knobs it is the same pool, read from the chunks
    code, out, _ = run(capsys, "pool", "--variant", "standard", "--hands", str(HANDS),
                       "--pool-seed", "5", "--workers", "1", "--output",
                       str(tmp_path / "same.npz"), "--chunks", str(directory))
    assert code == 0 and played == [] and out.startswith("Wrote 6 boards (rules standard")
    _same_pool(tmp_path / "same.npz", tmp_path / "pool.npz")


def test_saved_only_refuses_a_pool_not_all_saved_and_says_what_is(played, tmp_path):
    directory = tmp_path / "chunks"
    assert runner.invoke(app, ["opponents", "--regenerate", "--variant", "standard", "--hands",
                               "2", "--pool-seed", "5", "--output", str(tmp_path / "two.npz"),
                               "--chunks", str(directory)]).exit_code == 0
    result = _regenerate(tmp_path / "pool.npz", "--chunks", str(directory), "--saved-only")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert (f"{directory} holds 1 of the 3 chunks of 6 hands (the first missing: {NAMES[1]}): "
            "play the rest first, or assemble the 2 hands saved from the first on "
            "(--hands 2)") in result.stderr
    assert not (tmp_path / "pool.npz").exists()


# --- the mechanics ---------------------------------------------------------------------------

def _boards(job) -> dict[str, np.ndarray]:
    return {"boards": np.full((2, 13), job, dtype=np.int64)}


def test_a_chunk_stopped_while_written_is_not_taken_for_finished(tmp_path, monkeypatch):
    path = tmp_path / "c.npz"

    def cut(file, **arrays):  # the write begins, and the run is killed
        with open(file, "wb") as out:
            out.write(b"PK\x03\x04")
        raise Stopped

    monkeypatch.setattr(chunks_module.np, "savez_compressed", cut)
    with pytest.raises(Stopped):
        save_chunk(path, {"seed": 1}, _boards(1))
    monkeypatch.undo()
    assert not path.exists() and saved_chunks(tmp_path, "*.npz") == []
    [again] = run_chunks(_boards, [Chunk(3, 2, path, {"seed": 1})], "hands")
    assert (again["boards"] == 3).all() and path.exists()


def test_a_saved_chunk_is_read_whole_and_refused_with_what_differs(tmp_path):
    path = tmp_path / "c.npz"
    save_chunk(path, {"seed": 1, "params": {"samples": 48}}, _boards(7))
    assert (load_chunk(path, {"seed": 1, "params": {"samples": 48}}, "hands")["boards"]
            == 7).all()
    with pytest.raises(OpponentModelError, match=r"c.npz holds hands played otherwise "
                       r"\(params.samples 48, not 4; seed 1, not 2\): move it away"):
        load_chunk(path, {"seed": 2, "params": {"samples": 4}}, "hands")
    (tmp_path / "bad.npz").write_bytes(b"not a chunk")
    with pytest.raises(OpponentModelError, match="bad.npz is not a saved chunk"):
        load_chunk(tmp_path / "bad.npz", {}, "hands")
    assert differences({"a": 1, "b": "x" * 50}, {"a": 1, "b": "y"}) == "b"
    assert differences({"k": 1}, {}) == "k 1, not none"


def test_a_chunk_is_stored_small_and_read_back_as_it_was_played(tmp_path):
    rng = np.random.default_rng(0)
    played = {"boards": rng.integers(0, 53, (500, 13)), "discards": rng.integers(0, 52, (500, 4)),
              "jokers": rng.random((500, 13)) < 0.01, "seconds": np.array(81.5),
              "points": rng.integers(-300, 300, 500)}  # not one byte a value: kept wide
    path = tmp_path / "c.npz"
    save_chunk(path, {"seed": 1}, played)
    back = load_chunk(path, {"seed": 1}, "hands")
    assert back.keys() == played.keys()
    for name, array in played.items():
        assert back[name].dtype == array.dtype and (back[name] == array).all(), name
    wide = tmp_path / "wide.npz"  # as chunks were saved before: uncompressed, 64-bit
    np.savez(wide, meta=np.array(json.dumps({"seed": 1})), **played)
    assert path.stat().st_size < wide.stat().st_size / 3
    old = load_chunk(wide, {"seed": 1}, "hands")
    assert all((old[name] == array).all() for name, array in played.items())


def test_chunk_paths_sort_in_the_order_of_their_hands(tmp_path):
    names = [chunk_path(tmp_path, start, start + 500).name for start in (0, 500, 10_000)]
    assert names == sorted(names) == ["hands0000000-0000500.npz", "hands0000500-0001000.npz",
                                      "hands0010000-0010500.npz"]
