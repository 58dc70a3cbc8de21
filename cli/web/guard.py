"""What every request passes before the app sees it, and what every answer carries.

A page on another site can make a player's browser send a request to this server (a form's
POST needs no permission), so a request that writes must show it comes from the server's
own page: a ``POST`` is taken only as ``Content-Type: application/json`` (which a form
cannot send without the browser asking first) and with an ``Origin``, when the browser
sends one, that is the server's own. Anything else is refused before it reaches a handler,
so it writes nothing. Past ``limit`` requests at once, a request is answered 503 at once
rather than queued without end. Every answer, a refusal included, carries the headers that
keep the page out of another site's frames and its files read as what they are.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The page may load only what the server itself serves, and no other page may frame it.
POLICY = ("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
          "form-action 'self'; base-uri 'none'")
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
#: Methods that only read: no Origin or Content-Type is asked of them.
_READS = (b"GET", b"HEAD", b"OPTIONS")
#: Seconds a client refused for a full server is asked to wait before it tries again.
RETRY_AFTER = 2


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def refusal(scope: Scope) -> tuple[int, str] | None:
    """Why a request that may write must be refused (its status and one line), or None."""
    if scope["method"].encode() in _READS:
        return None
    origin = _header(scope, b"origin")
    own = f"{scope.get('scheme', 'http')}://{_header(scope, b'host') or ''}"
    if origin is not None and origin.lower() != own.lower():
        shown = json.dumps(origin[:80], ensure_ascii=False)
        return 403, (f"a request from another site's page ({shown}) is refused: only this "
                     f"server's own page ({own}) may send requests")
    kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    if kind != "application/json":
        shown = json.dumps(kind[:80] or "none", ensure_ascii=False)
        return 415, (f"Content-Type {shown} is refused: expected application/json, with a "
                     "JSON object of fields")
    return None


class Guard:
    """The ASGI middleware that refuses cross-site writes and requests past ``limit`` at
    once, and adds ``HEADERS`` to every answer."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit
        self.running = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = {key.lower() for key, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(pair for pair in HEADERS if pair[0] not in given)]
            await send(message)

        refused = refusal(scope)
        if refused is None and self.running >= self.limit:
            refused = 503, (f"the server is answering {self.limit} requests already: try "
                            f"again in {RETRY_AFTER} s")
        if refused is not None:
            await _answer(with_headers, *refused)
            return
        self.running += 1
        try:
            await self.app(scope, receive, with_headers)
        finally:
            self.running -= 1


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}, ensure_ascii=False).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if status == 503:
        headers.append((b"retry-after", str(RETRY_AFTER).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
