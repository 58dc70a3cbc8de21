"""The server's worker processes: jobs run there, each under a time limit.

A slow solve must not block the others, and a request must not hold a worker forever, so
each job runs in a process of its own from a fixed set. A request takes an idle worker (or
waits for one), sends it the job and waits for the answer until the time limit, watching
whether its client is still there. A job that runs out of time, or whose client went away,
has its worker killed and replaced, so nothing is left stuck. A worker that dies (out of
memory, say) is replaced too, and the request is told so.

The queue for the workers is fair between clients (by address): an idle worker goes to the
clients in turn, not to the requests in the order they came, and one client's jobs hold at
most all the workers but one, so a client with six slow jobs queued does not make another's
quick solve wait behind them. A client may queue ``per_client`` jobs, and all clients
``most`` together; past that a request is refused at once (``Full``: HTTP 503).

Workers are started with ``spawn``, not ``fork``: the server has threads (uvicorn's), and a
forked child of a threaded process can inherit a held lock.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import traceback
from collections import Counter, deque
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


# How a job can end without its answer. None is an ``InputError``: the input may be fine, and
# each has a status of its own (504, 499, 500, 503), not bad input's 400.
class TimeLimit(Exception):
    """A job ran past the server's time limit; its worker was replaced."""


class Gone(Exception):
    """The client disconnected before its job finished; the worker was replaced."""


class WorkerDied(Exception):
    """A worker process ended in the middle of a job; it was replaced."""


class Full(Exception):
    """The queue holds as many jobs as it takes, from this client or from all; the message
    says which, in one line."""


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

    def __init__(self, size: int, limit: float, per_client: int = 8, most: int = 64) -> None:
        self.size, self.limit = size, limit
        self.per_client, self.most = per_client, most
        self.share = max(1, size - 1)  # workers one client's jobs may hold at once
        self._context = multiprocessing.get_context("spawn")
        self._started = False
        self._idle: deque[_Worker] = deque()
        self._all: set[_Worker] = set()
        # Each client's waiting requests, the clients in the order they are served next.
        self._waiting: dict[str, deque[asyncio.Future[_Worker]]] = {}
        self._running: Counter[str] = Counter()
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
        self._started = True
        workers = [self._spawn() for _ in range(self.size)]
        for worker in workers:
            await self._ready(worker)
            self._free(worker)

    def _free(self, worker: _Worker) -> None:
        """``worker`` is idle: it goes to the next client in turn that may take one."""
        self._idle.append(worker)
        while self._idle:
            client = next((c for c in self._waiting if self._running[c] < self.share), None)
            if client is None:
                return
            waiters = self._waiting.pop(client)
            waiter = waiters.popleft()
            if waiters:
                self._waiting[client] = waiters  # to the back of the turn
            self._running[client] += 1
            waiter.set_result(self._idle.popleft())

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

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, ready)
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
            self._free(fresh)

        asyncio.get_running_loop().create_task(when_ready())

    async def _take(self, client: str, gone: Callable[[], Awaitable[bool]]) -> _Worker:
        """A worker for ``client``'s job, in its turn; ``Full`` if its queue is, ``Gone`` if
        the client leaves while it waits."""
        assert self._started, "the pool was not started"
        waiters = self._waiting.get(client, ())
        if len(waiters) >= self.per_client:
            raise Full(f"this client's queue is full ({len(waiters)} waiting for a worker, the "
                       "most the server queues for one client)")
        if sum(map(len, self._waiting.values())) >= self.most:
            raise Full(f"the server's queue is full ({self.most} waiting for a worker)")
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(waiter)
        if self._idle:
            self._free(self._idle.pop())
        try:
            while True:
                await asyncio.wait([waiter], timeout=POLL * 5)
                if waiter.done():
                    return waiter.result()
                if await gone():
                    raise Gone
        except BaseException:
            if waiter.done() and not waiter.cancelled():  # a worker came as it gave up
                self._done(client)
                self._free(waiter.result())
            else:
                waiter.cancel()
                queue = self._waiting.get(client)
                if queue is not None and waiter in queue:
                    queue.remove(waiter)
                    if not queue:
                        del self._waiting[client]
            raise

    async def run(self, job: str, fields: dict[str, Any],
                  gone: Callable[[], Awaitable[bool]], *, client: str = "") -> tuple[str, Any]:
        """Run ``client``'s ``job`` on a worker: ``("ok", record)``, ``("bad", message)`` or
        ``("fault", traceback)``; raises ``Full``, ``TimeLimit``, ``Gone`` or
        ``WorkerDied``. The time limit counts from when a worker takes the job."""
        worker = await self._take(client, gone)
        loop = asyncio.get_running_loop()
        try:
            try:
                worker.conn.send((job, fields))
            except OSError:  # it died while idle
                raise WorkerDied from None
            answer = await self._answer(worker, loop.time() + self.limit, gone)
        except BaseException:  # time, a gone client, a dead worker, or the server stopping
            self._done(client)
            self._replace(worker)
            raise
        self._done(client)
        self._free(worker)
        return answer

    def _done(self, client: str) -> None:
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]

    def status(self) -> dict:
        """The pool as ``GET /api/status`` shows it: workers alive, idle, and replaced."""
        return {"workers": self.size, "limit": self.limit,
                "alive": sum(worker.process.is_alive() for worker in self._all),
                "idle": len(self._idle),
                "replaced": self.replaced}

    async def close(self) -> None:
        for worker in list(self._all):
            worker.stop()
        self._all.clear()
