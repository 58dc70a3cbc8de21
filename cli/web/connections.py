"""The server's connections: how long one may sit idle or trickle a request, and how many
may be open at once.

uvicorn closes a kept-alive connection ``timeout_keep_alive`` seconds after its last answer,
but a connection that never sends a whole request is never timed out, so thousands of them
held open would use up the server's files. Here every connection must send a request's
headers within ``HEADERS_WITHIN`` seconds of opening (or of its last answer); one that does
not, idle or slow, is closed. Past ``MOST`` open connections a new one is closed at once,
and the server's limit of open files is raised to hold them.
"""

from __future__ import annotations

import asyncio
import resource

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a connection has to send a request's headers.
HEADERS_WITHIN = 10.0
#: Seconds a kept-alive connection may wait for its next request (uvicorn's setting).
KEEP_ALIVE = 5
#: Connections open at once, at most.
MOST = 4096
#: Files the server keeps for its own use beside the connections: its workers' pipes, the
#: history, the page's files.
_OWN_FILES = 256


def raise_file_limit() -> int:
    """Raise the soft limit of open files towards what ``MOST`` connections need (no higher
    than the hard limit); the connections this process may then hold."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST + _OWN_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return MOST if soft == resource.RLIM_INFINITY else max(1, min(MOST, soft - _OWN_FILES))


class Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with a deadline for a request's headers and a cap on
    connections (``serve`` passes it as uvicorn's ``http``)."""

    most = MOST
    within = HEADERS_WITHIN
    _deadline: asyncio.TimerHandle | None = None  # also before a connection is made

    @classmethod
    def holding(cls, most: int) -> type[Protocol]:
        """This protocol, with at most ``most`` connections open at once."""
        return type(cls.__name__, (cls,), {"most": most})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline = None
        if len(self.connections) > self.most:
            transport.abort()  # no answer: a flood is not worth the writes
            return
        self._arm()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.within, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        waiting = self.cycle is None or self.cycle.response_complete  # for a request's headers
        if waiting and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers, from now

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)
