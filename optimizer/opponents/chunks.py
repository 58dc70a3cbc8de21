"""Long runs in seeded chunks, each saved as it is finished, so a stopped run resumes.

A run of the bot (the hands of a pool, the deals of a head-to-head) is cut into chunks whose
seeds depend on their place alone, so a chunk is the same whoever plays it and whenever.
With a path, a chunk is saved as soon as it is played: arrays, and the meta of what played
them (JSON: the rules, the bots' knobs, the seed, the chunk's place). It is written under a
temporary name and renamed when whole, so a file under a chunk's name is a finished chunk
and a run killed while writing leaves only a ``.partial.npz``. The same command run again
reads the chunks saved instead of playing them; a saved chunk whose meta is not the run's
own is refused, with a line that says what differs, before anything is played.

A chunk is stored compressed, its integer arrays as bytes where every value fits one
(cards do), and read back as the 64-bit integers it was played as: a chunk of 500 Pineapple
hands takes about 8 KB, not 78, so the chunks of a rebuild that outlasts a sitting can be
kept in the repository (docs/notes-opponents.md). Chunks saved before, uncompressed and
wide, read as they did.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from fantasyland.optimizer.opponents.errors import OpponentModelError

#: The ending of a chunk being written: never read as a chunk.
PARTIAL = ".partial.npz"
#: The array of a saved chunk that lists the arrays stored as bytes (``save_chunk``).
NARROWED = "narrowed"

Arrays = dict[str, np.ndarray]


@dataclass(frozen=True, eq=False)
class Chunk:
    """One piece of a run: the argument of its ``play``, what it counts (hands, deals), and
    where it is saved with what meta (None: not saved)."""

    job: object
    size: int
    path: Path | None = None
    meta: dict | None = None
    # what a saved meta means today (``load_chunk``): None, what it says
    upgrade: Callable[[dict], dict] | None = None

    def saved_as(self) -> tuple[Path, dict] | None:
        """Where the chunk is saved and with what meta; None when it is not saved."""
        if self.path is None:
            return None
        if self.meta is None:
            raise ValueError(f"the chunk saved at {self.path} has no meta to check it by")
        return self.path, self.meta


def save_chunk(path: Path, meta: dict, arrays: Arrays) -> None:
    """Write ``arrays`` and ``meta`` to ``path`` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(PARTIAL)
    narrowed = sorted(name for name, array in arrays.items() if array.dtype == np.int64
                      and (array.size == 0 or (array.min() >= 0 and array.max() < 256)))
    stored = {name: array.astype(np.uint8) if name in narrowed else array
              for name, array in arrays.items()}
    # allow_pickle: numpy's default, named so that its stubs match **stored to no flag
    np.savez_compressed(partial, allow_pickle=True,
                        meta=np.array(json.dumps(meta, sort_keys=True)),
                        **{NARROWED: np.array(narrowed, dtype=str)}, **stored)
    partial.replace(path)  # a rename: a reader sees the old name absent or the file whole


def load_chunk(path: Path, meta: dict, what: str,
               *, upgrade: Callable[[dict], dict] | None = None) -> Arrays:
    """The arrays saved at ``path``, refused unless its meta is ``meta``; ``what`` names
    them in the refusal ("hands", "deals"). ``upgrade`` reads a saved meta as today's code
    would write it (a knob added since, at the default that played as before)."""
    try:
        with np.load(path) as saved:
            found = json.loads(str(saved["meta"]))
            narrowed = set(saved[NARROWED].tolist()) if NARROWED in saved.files else set()
            arrays = {name: saved[name].astype(np.int64) if name in narrowed else saved[name]
                      for name in saved.files if name not in ("meta", NARROWED)}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        raise OpponentModelError(f"{path} is not a saved chunk ({error}): move it away") \
            from None
    wanted = json.loads(json.dumps(meta))  # as JSON reads it back: lists, not tuples
    if upgrade is not None:
        found = json.loads(json.dumps(upgrade(found)))
    if found != wanted:
        raise OpponentModelError(f"{path} holds {what} played otherwise "
                                 f"({differences(found, wanted)}): move it away, or run the "
                                 "command that played it")
    return arrays


def differences(found: dict, wanted: dict, *, limit: int = 3) -> str:
    """What differs between a saved meta and the run's, at most ``limit`` keys: ``seed 12,
    not 11; params.samples 4, not 48`` (a long value by its key alone)."""
    def leaves(meta: dict, prefix: str = "") -> dict:
        flat: dict[str, object] = {}
        for key, value in meta.items():
            if isinstance(value, dict):
                flat |= leaves(value, f"{prefix}{key}.")
            else:
                flat[prefix + key] = value
        return flat

    ours, theirs = leaves(found), leaves(wanted)
    keys = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
    said = []
    for key in keys[:limit]:
        pair = f"{ours.get(key, 'none')}, not {theirs.get(key, 'none')}"
        said.append(f"{key} {pair}" if len(pair) <= 40 else key)
    return "; ".join(said) + (f"; and {len(keys) - limit} more" if len(keys) > limit else "")


def saved_chunks(directory: Path, pattern: str) -> list[Path]:
    """The finished chunks in ``directory`` whose names match ``pattern``, by name."""
    return sorted(p for p in Path(directory).glob(pattern) if not p.name.endswith(PARTIAL))


def _timed(args) -> tuple[int, Arrays, float]:
    play, index, job = args
    started = time.process_time()
    arrays = play(job)
    return index, arrays, time.process_time() - started


class Engine(Protocol):
    """Where chunks are played: the batch engines (``optimizer.batch.engines``: worker
    processes, or a Dask cluster) have this shape; this package does not import them."""

    @property
    def slots(self) -> int: ...

    def call(self, function: Callable[..., Any], *args: Any) -> Any: ...

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]: ...


def run_chunks(play: Callable[[object], Arrays], chunks: Sequence[Chunk], what: str,
               *, workers: int = 1, done: Callable[[Chunk, float | None], None] | None = None,
               engine: Engine | None = None) -> list[Arrays]:
    """``play(chunk.job)`` of every chunk, in chunk order, on ``workers`` processes, or on
    ``engine`` where one is given (``play`` a module's function, for them to call it).

    A chunk with a path already saved is read (``load_chunk``), and every saved one is read
    before any is played; one played is saved there as soon as it is finished, with the CPU
    seconds its play took as the array ``seconds``. ``done`` is told of each chunk, with those
    seconds (None: read, not played)."""
    results: dict[int, Arrays] = {}  # by the chunk's index
    for index, chunk in enumerate(chunks):
        saved = chunk.saved_as()
        if saved is not None and saved[0].exists():
            results[index] = load_chunk(*saved, what, upgrade=chunk.upgrade)
    missing = [i for i in range(len(chunks)) if i not in results]
    for index, chunk in enumerate(chunks):
        if index in results and done:
            done(chunk, None)

    def finished(index: int, arrays: Arrays, seconds: float) -> None:
        chunk = chunks[index]
        arrays = arrays | {"seconds": np.array(seconds)}
        saved = chunk.saved_as()
        if saved is not None:
            save_chunk(*saved, arrays)
        results[index] = arrays
        if done:
            done(chunk, seconds)

    jobs = [(play, i, chunks[i].job) for i in missing]
    if engine is not None:
        _on_engine(engine, jobs, finished)
    elif workers > 1 and len(jobs) > 1:
        from multiprocessing import Pool as Processes
        with Processes(min(workers, len(jobs))) as processes:
            for index, arrays, seconds in processes.imap_unordered(_timed, jobs):
                finished(index, arrays, seconds)
    else:
        for job in jobs:
            finished(*_timed(job))
    return [results[index] for index in range(len(chunks))]


def _on_engine(engine: Engine, jobs: list, finished: Callable[[int, Arrays, float], None]
               ) -> None:
    """Each of ``jobs`` played on ``engine``, twice its slots in flight at a time, each told
    to ``finished`` as it ends (saved at once: a stopped run loses only what was in flight)."""
    waiting = list(reversed(jobs))
    pending: set[Any] = set()
    while waiting or pending:
        while waiting and len(pending) < 2 * engine.slots:
            pending.add(engine.call(_timed, waiting.pop()))
        done, pending = engine.wait(pending)
        for future in done:
            finished(*future.result())
