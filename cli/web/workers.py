"""The server's worker processes: jobs run there, each under a time limit.

A slow solve must not block the others, and a request must not hold a worker forever, so
each job runs in a process of its own from a fixed set. A request takes an idle worker (or
waits for one), sends it the job and waits for the answer until the time limit, watching
whether its client is still there. A job that runs out of time, or whose client went away,
has its worker killed and replaced, so nothing is left stuck. A worker that dies (out of
memory, say) is replaced too, and the request is told so.

Workers are started with ``spawn``, not ``fork``: the server has threads (uvicorn's), and a
forked child of a threaded process can inherit a held lock.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("fantasyland.serve")

#: How often a waiting request asks whether its client has gone, in seconds.
POLL = 0.1
#: How long a worker may take to start and load the solver, in seconds.
STARTUP = 120.0


class TimeLimit(Exception):
    """A job ran past the server's time limit; its worker was replaced."""


class Gone(Exception):
    """The client disconnected before its job finished; the worker was replaced."""


class WorkerDied(Exception):
    """A worker process ended in the middle of a job; it was replaced."""


def _serve(conn: Connection) -> None:
    """A worker's loop: a job in, its answer out, until the pipe closes.

    An answer is ``("ok", record)``, ``("bad", message)`` for input the job refused, or
    ``("fault", traceback)`` for a bug (the server logs it; the client gets one line).
    """
    from fantasyland.cli.web.jobs import answer, warm

    try:
        warm()
    except Exception:  # a failed warm-up is not fatal: the first job will say what is wrong
        log.exception("warm-up failed")
    conn.send(("ready", None))
    while True:
        try:
            name, fields = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            reply = answer(name, fields)
        except Exception:
            reply = ("fault", traceback.format_exc())
        try:
            conn.send(reply)
        except (OSError, ValueError):  # the server closed the pipe: it is going away
            return


@dataclass(eq=False)  # a worker is itself, not its fields: the pool keeps a set of them
class _Worker:
    process: BaseProcess
    conn: Connection

    def stop(self) -> None:
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)


class Pool:
    """``size`` worker processes, each job limited to ``limit`` seconds."""

    def __init__(self, size: int, limit: float) -> None:
        self.size, self.limit = size, limit
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self.replaced = 0  # workers killed for time or a gone client, or that died

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs,), daemon=True,
                                        name="fantasyland-worker")
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._all.add(worker)
        return worker

    async def start(self) -> None:
        """Start the workers and wait until each has loaded the solver."""
        self._idle = asyncio.Queue()
        workers = [self._spawn() for _ in range(self.size)]
        for worker in workers:
            await self._ready(worker)
            self._idle.put_nowait(worker)

    async def _ready(self, worker: _Worker) -> None:
        message = await self._answer(worker, asyncio.get_running_loop().time() + STARTUP)
        if message[0] != "ready":
            raise RuntimeError(f"a worker started badly: {message!r}")

    async def _answer(self, worker: _Worker, deadline: float,
                      gone: Callable[[], Awaitable[bool]] | None = None) -> tuple[str, Any]:
        """The worker's next message; ``TimeLimit`` after ``deadline`` (loop time), ``Gone``
        once ``gone()`` says so, ``WorkerDied`` if the worker ends first."""
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = worker.conn.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            while not readable.done():
                wait = min(POLL, deadline - loop.time())
                if wait <= 0:
                    raise TimeLimit
                await asyncio.wait([readable], timeout=wait)
                if not readable.done() and gone is not None and await gone():
                    raise Gone
        finally:
            loop.remove_reader(fd)
        try:
            return worker.conn.recv()
        except (EOFError, OSError):
            raise WorkerDied from None

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and put a fresh one in its place (it takes jobs once loaded)."""
        assert self._idle is not None
        self._all.discard(worker)
        worker.stop()
        self.replaced += 1
        fresh = self._spawn()

        async def when_ready() -> None:
            try:
                await self._ready(fresh)
            except (WorkerDied, TimeLimit, RuntimeError):
                log.error("a replacement worker failed to start; starting another")
                self._replace(fresh)
                return
            assert self._idle is not None
            self._idle.put_nowait(fresh)

        asyncio.get_running_loop().create_task(when_ready())

    async def _take(self, gone: Callable[[], Awaitable[bool]]) -> _Worker:
        """An idle worker; ``Gone`` if the client leaves while it waits for one."""
        assert self._idle is not None, "the pool was not started"
        while True:
            try:
                return await asyncio.wait_for(self._idle.get(), timeout=POLL * 5)
            except asyncio.TimeoutError:
                if await gone():
                    raise Gone from None

    async def run(self, job: str, fields: dict[str, Any],
                  gone: Callable[[], Awaitable[bool]]) -> tuple[str, Any]:
        """Run ``job`` on a worker: ``("ok", record)``, ``("bad", message)`` or ``("fault",
        traceback)``; raises ``TimeLimit``, ``Gone`` or ``WorkerDied``. The time limit counts
        from when a worker takes the job."""
        worker = await self._take(gone)
        loop = asyncio.get_running_loop()
        try:
            try:
                worker.conn.send((job, fields))
            except OSError:  # it died while idle
                raise WorkerDied from None
            answer = await self._answer(worker, loop.time() + self.limit, gone)
        except BaseException:  # time, a gone client, a dead worker, or the server stopping
            self._replace(worker)
            raise
        assert self._idle is not None
        self._idle.put_nowait(worker)
        return answer

    def status(self) -> dict:
        """The pool as ``GET /api/status`` shows it: workers alive, idle, and replaced."""
        return {"workers": self.size, "limit": self.limit,
                "alive": sum(worker.process.is_alive() for worker in self._all),
                "idle": 0 if self._idle is None else self._idle.qsize(),
                "replaced": self.replaced}

    async def close(self) -> None:
        for worker in list(self._all):
            worker.stop()
        self._all.clear()
