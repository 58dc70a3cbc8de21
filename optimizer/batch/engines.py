"""Where a batch's hands are solved: this process, a pool of worker processes, or Dask.

Each engine takes chunks of tasks and returns their results; the batch keeps them in input
order. Workers import the optimizer once and solve with CP-SAT on one thread each.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from fantasyland.evaluator.cards import Card
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.batch.files import BatchError, record_line
from fantasyland.optimizer.solver.proof import ProofMethod
from fantasyland.optimizer.solver.solve import Solution, solve
from fantasyland.optimizer.solver.table import Sample


@dataclass(frozen=True)
class Settings:
    """What every hand of a batch is solved with; ``record`` turns a solution into the
    output record (the ``solve --json`` schema), in the worker. ``options`` are the other
    settings, flat as the batch's settings file keeps them: ``samples`` and ``seed``, and
    the table's fields (``opponents``, ``against``, ...: ``TableSpec``) for ``ev``."""

    record: Callable[[Solution], Mapping[str, Any]]
    objective: str = "royalties"
    fl_value: float | None = None
    time_limit: float = 10.0
    options: tuple[tuple[str, Any], ...] = ()
    #: How each optimum is proved (``solve``'s ``proof``): like the time limit, not a
    #: setting the output is kept to, as the answer is the same.
    proof: str = ProofMethod.FASTEST

    def solve_options(self) -> dict[str, Any]:
        """``options`` as keyword arguments of ``solve``: the table's and the sample's as one
        ``sample``."""
        sample, rest = Sample.split(dict(self.options))
        return {"sample": sample, **rest}


class Task(NamedTuple):
    seq: int  # position among the lines this run handles
    line: int
    id: str
    cards: tuple[Card, ...]
    rules: int


class Result(NamedTuple):
    seq: int
    text: str | None  # the output line, or None when the hand failed
    value: float
    stays: bool
    cpu: float = 0.0  # CPU seconds the worker spent on the hand
    error: str | None = None
    detail: str | None = None


_WORKER_RULES: dict[Rules, Rules] = {}


def solve_chunk(tasks: Sequence[Task], rules: Mapping[int, Rules],
                settings: Settings) -> list[Result]:
    """Solve tasks in a worker. A hand that fails is reported, never raised: one hand must
    not stop a run of millions."""
    results = []
    for task in tasks:
        # One instance per distinct rules in this process, so that their tables are built once.
        task_rules = _WORKER_RULES.setdefault(rules[task.rules], rules[task.rules])
        cpu = time.process_time()
        try:
            solution = solve(task.cards, variant=task_rules, objective=settings.objective,
                             fl_value=settings.fl_value,
                             time_limit=settings.time_limit, proof=settings.proof,
                             **settings.solve_options())
            text = record_line(task.id, settings.record(solution))
            results.append(Result(task.seq, text, solution.value, solution.stays,
                                  time.process_time() - cpu))
        except ValueError as error:
            results.append(Result(task.seq, None, 0.0, False, error=str(error)))
        except Exception as error:  # noqa: BLE001 -- a bug, kept with its traceback
            results.append(Result(task.seq, None, 0.0, False,
                                  error=f"solve failed: {type(error).__name__}: {error}",
                                  detail=traceback.format_exc()))
    return results


def _watch_parent(parent: int) -> None:
    # A worker whose batch was killed (SIGKILL leaves no time to stop the pool) exits on its
    # own instead of running on; checked once a second.
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _init_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


class Engine:
    """Runs ``solve_chunk`` calls, or any module-level function's (``call``): here, in a
    process pool, or on a cluster."""

    max_chunk = 16  # hands per chunk: enough to make the cost of a call negligible

    @property
    def slots(self) -> int:
        """Chunks that run at once."""
        return 1

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """A future of ``function(*args)``; the function must be importable by the workers
        (a module's, not a closure)."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_result(function(*args))
        return future

    def submit(self, tasks: list[Task], rules: dict[int, Rules], settings: Settings) -> Any:
        return self.call(solve_chunk, tasks, rules, settings)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        """Block until at least one of ``pending`` is done; return (done, not done)."""
        done, rest = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def close(self, *, wait: bool = True) -> None:
        pass


class PoolEngine(Engine):
    """Worker processes, started fresh (``spawn``) so that none inherits the parent's threads
    or open files; each imports the solver once and lives for the whole batch."""

    def __init__(self, workers: int):
        self._workers = workers
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker, initargs=(os.getpid(),))

    @property
    def slots(self) -> int:
        return self._workers

    def call(self, function, *args):
        return self._pool.submit(function, *args)

    def close(self, *, wait: bool = True) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


def _client_class(distributed: Any) -> type:
    """Dask's ``Client``, closing itself when it cannot start. Left half-started, it would be
    closed by the garbage collector at exit, after its event loop has stopped: it then waits
    for that loop forever, and the process never ends."""

    class Client(distributed.Client):
        def start(self, **kwargs: Any) -> None:
            try:
                super().start(**kwargs)
            except BaseException:
                self.close()
                raise

    return Client


class DaskEngine(Engine):
    """A Dask distributed cluster: each chunk is one task. The workers need this package
    installed (the same version), and run best with one thread per worker process."""

    max_chunk = 64  # a task costs the scheduler about a millisecond

    def __init__(self, address: str, timeout: float = 30.0):
        try:
            import distributed
        except ImportError:
            raise BatchError("--cluster needs Dask distributed: pip install "
                             "'fantasyland[cluster]'") from None
        self._distributed = distributed
        try:
            self._client = _client_class(distributed)(address, timeout=timeout,
                                                      set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise BatchError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None
        self._slots, self._counted = 1, -float("inf")

    @property
    def slots(self) -> int:
        """The cluster's worker threads, counted again every 10 s: workers may join late."""
        if time.monotonic() - self._counted > 10:
            self._slots = max(sum(self._client.nthreads().values()), 1)
            self._counted = time.monotonic()
        return self._slots

    def call(self, function, *args):
        return self._client.submit(function, *args, pure=False)

    def wait(self, pending):
        done, rest = self._distributed.wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def close(self, *, wait: bool = True) -> None:
        self._client.close()


@contextmanager
def open_engine(*, workers: int = 1, cluster: str | None = None) -> Iterator[Engine]:
    """The engine for ``--workers`` / ``--cluster``: one worker runs in this process."""
    if workers < 1:
        raise BatchError(f"bad --workers {workers}: expected 1 or more")
    engine = DaskEngine(cluster) if cluster else PoolEngine(workers) if workers > 1 else Engine()
    try:
        yield engine
    except BaseException:
        engine.close(wait=False)  # interrupted: do not wait for the chunks still running
        raise
    engine.close()


