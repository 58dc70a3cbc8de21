"""The web app: the page, and the JSON API over the library (``cli.web.api``).

Every answer is JSON. Bad input (an ``InputError``: the body, a field or a job refused it)
is HTTP 400 with ``{"error": "<one line>"}``, the line the CLI would print, answered by one
handler (``refused``); a request past the time limit is 504; a step of a game whose last step
still runs is 409 (``cli.web.games``); a fault of the server's own is 500, its traceback in
the server's log and never in the answer. Nothing a client sends can stop the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from fantasyland.cli.play_history import PlayedHands
from fantasyland.cli.web import jobs
from fantasyland.cli.web.api import ENDPOINTS, Endpoint, game_name
from fantasyland.cli.web.fields import decimal, read_fields, whole
from fantasyland.cli.web.games import IDLE_SECONDS, MOST_GAMES, GameBusy, Games
from fantasyland.cli.web.guard import RETRY_AFTER, Guard
from fantasyland.cli.web.history import History, StoreError
from fantasyland.cli.web.workers import Full, Gone, Pool, TimeLimit, WorkerDied
from fantasyland.evaluator import InputError

log = logging.getLogger("fantasyland.serve")

STATIC = Path(__file__).with_name("static")
#: Seconds a request's body has to arrive, once its headers have.
BODY_WITHIN = 30.0

@dataclass(frozen=True)
class Settings:
    """How the server runs: ``serve``'s options."""

    history: Path
    workers: int = 2
    request_limit: float = 60.0  # seconds a job may run in a worker
    body_limit: int = 256 * 1024  # bytes a request body may hold
    max_requests: int = 64  # requests answered at once; past it, 503 (cli.web.guard)
    allowed_hosts: tuple[str, ...] = field(default=("*",))
    games: int = MOST_GAMES  # games of the Play view kept at once (cli.web.games)
    game_idle: float = IDLE_SECONDS  # seconds a game may go unused before it is let go


class BadRequest(InputError):
    """A body refused before any job, or a job's refusal brought back from its worker: the
    message is the answer's one line."""


class Answered(Exception):
    """A request answered before its record: the ``response`` says why (time, load, a gone
    client, a fault)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


class SlowBody(Exception):
    """The body did not arrive within ``BODY_WITHIN``: 408, and the connection is closed
    rather than kept for a next request that would first have to finish this one. Not an
    ``InputError``: nothing was refused, the input never came."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int) -> Any:
    """The request's JSON body, refused past ``limit`` bytes (read no further than that)."""
    size = decimal(request.headers.get("content-length", ""))
    if size is not None and size > limit:
        raise BadRequest(f"the request body is {size:,} bytes: expected at most "
                         f"{limit:,} (the server's limit)")
    data = bytearray()
    try:
        async with asyncio.timeout(BODY_WITHIN):  # a body sent a byte a minute holds a task
            async for chunk in request.stream():
                data += chunk
                if len(data) > limit:
                    raise BadRequest(f"the request body is over {limit:,} bytes: expected at "
                                     f"most {limit:,} (the server's limit)")
    except TimeoutError:
        raise SlowBody(f"the request body did not arrive within {BODY_WITHIN:g} s: expected "
                       "a whole JSON object") from None
    if not data.strip():
        return {}
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8: expected a JSON object") from None
    except json.JSONDecodeError as error:
        raise BadRequest(f"the request body is not JSON ({error.msg} at line {error.lineno} "
                         f"column {error.colno}): expected a JSON object of fields") from None
    except RecursionError:
        raise BadRequest("the request body is nested too deeply: expected a JSON object of "
                         "fields") from None
    except ValueError:  # a number of more digits than Python converts (4,300)
        raise BadRequest("the request body holds a number of more than 4,300 digits: "
                         "expected a JSON object of fields") from None


def create_app(settings: Settings) -> Starlette:
    """The app for ``settings``; its lifespan starts and stops the worker pool."""
    pool = Pool(settings.workers, settings.request_limit)
    history = History(settings.history)
    played = PlayedHands(settings.history)
    games = Games(most=settings.games, idle=settings.game_idle)

    async def run(request: Request, job: str, heavy: bool, fields: dict[str, Any]) -> Any:
        """``job``'s record for ``fields``: run in a worker when ``heavy``, else beside the
        server. Raises ``BadRequest`` for input the job refused, and ``Answered`` with the
        answer for everything else that is not a record."""
        try:
            if heavy:
                client = request.client.host if request.client else ""
                status, result = await pool.run(job, fields, request.is_disconnected,
                                                client=client)
            else:
                status, result = await asyncio.to_thread(jobs.answer, job, fields)
        except Full as error:
            raise Answered(JSONResponse({"error": f"{error}: try again in {RETRY_AFTER} s"},
                                        503, headers={"Retry-After": str(RETRY_AFTER)}))
        except TimeLimit:
            raise Answered(_error(504, f"the request took longer than "
                                       f"{settings.request_limit:g} s, the server's limit "
                                       "(serve --request-limit), and was stopped")) from None
        except Gone:
            raise Answered(_error(499, "the client went away; the request was stopped")) \
                from None
        except WorkerDied:
            raise Answered(_error(500, "the worker running the request died (out of "
                                       "memory?); it was replaced: try again")) from None
        if status == "bad":
            raise BadRequest(result)
        if status == "fault":
            log.error("fault in %s: %s", job, result)
            raise Answered(_error(500, "internal error: " + result.strip().splitlines()[-1]
                                  + " (the server's log has the details)"))
        return result

    async def fields_of(request: Request, endpoint: Endpoint) -> dict[str, Any]:
        """The request's fields, read as ``endpoint`` takes them."""
        try:
            return read_fields(await _body(request, settings.body_limit), endpoint.fields)
        except SlowBody as error:
            raise Answered(JSONResponse({"error": str(error)}, 408,
                                        headers={"Connection": "close"})) from None

    async def answer(request: Request, endpoint: Endpoint) -> Response:
        fields = await fields_of(request, endpoint)
        if "time_limit" in fields:  # the solver's own limit, within the server's
            fields["time_limit"] = min(fields["time_limit"], settings.request_limit)
        if endpoint.job == "train_deal" and fields["seed"] is None:
            fields["seed"] = secrets.randbelow(10**9)  # a fresh session; the answer says it
        result = await run(request, endpoint.job, endpoint.heavy, fields)
        if endpoint.job == "train_grade":
            result = await asyncio.to_thread(_record, history, fields, result)
        return JSONResponse(result)

    async def play(request: Request, endpoint: Endpoint) -> Response:
        """A step of a game of the Play view (``cli.web.games``, ``cli.web.play_jobs``)."""
        fields = await fields_of(request, endpoint)
        if endpoint.job == "play_start":
            if fields["seed"] is None:
                fields["seed"] = secrets.randbelow(10**9)  # a fresh game; the view says it
            result = await run(request, endpoint.job, True, fields)
            game_id = games.add(result["state"], [result["header"]])
            return JSONResponse({"game": game_id, "view": result["view"]})
        kept = games.take(fields["game"])
        try:
            result = await run(request, endpoint.job, True, fields | {"state": kept.state})
            kept.state = result.pop("state")
            if "lines" in result:  # the hand ended: kept in the log and the history
                kept.lines.extend(result.pop("lines"))
                result |= await asyncio.to_thread(_played, played, fields["game"],
                                                  result.pop("record"), result["view"])
        finally:
            games.release(kept)
        return JSONResponse({"game": fields["game"], **result})

    async def play_log(request: Request) -> Response:
        game_id = game_name("game", request.query_params.get("game", ""))
        text = "".join(line + "\n" for line in games.get(game_id).lines)
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="play-{game_id}.jsonl"'})

    def route(endpoint: Endpoint) -> Route:
        step = play if endpoint.job.startswith("play_") else answer

        async def handle(request: Request) -> Response:
            try:
                return await step(request, endpoint)
            except Answered as answered:
                return answered.response

        return Route(f"/api/{endpoint.path}", handle, methods=["POST"])

    async def variants(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(jobs.variants))

    async def fields(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(jobs.fields))

    async def train_history(request: Request) -> Response:
        given = request.query_params.get("limit", "100")
        limit = whole(1, high=1000)("limit", given if decimal(given) is None else decimal(given))
        return JSONResponse(await asyncio.to_thread(history.recent, limit))

    async def pool_status(request: Request) -> Response:
        return JSONResponse(pool.status())

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 404
        if status == 405:
            allowed = (exc.headers or {}).get("Allow", "") if isinstance(exc, HTTPException) \
                else ""
            takes = "POST with a JSON object" if "POST" in allowed else "GET"
            return _error(405, f"{request.method} {request.url.path} is not allowed: it takes "
                               f"{takes} (docs/serve.md)")
        if status == 404:
            return _error(404, f"no such page or endpoint: {request.url.path}")
        return _error(status, str(getattr(exc, "detail", "")) or "error")

    async def refused(request: Request, exc: Exception) -> Response:
        return _error(400, str(exc))

    async def busy(request: Request, exc: Exception) -> Response:
        return _error(409, str(exc))

    async def fault(request: Request, exc: Exception) -> Response:
        log.exception("fault answering %s", request.url.path, exc_info=exc)
        return _error(500, f"internal error: {type(exc).__name__} (the server's log has the "
                           "details)")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.close()

    routes = [Route("/", index), Route("/api/variants", variants), Route("/api/fields", fields),
              Route("/api/train/history", train_history), Route("/api/status", pool_status),
              Route("/api/play/log", play_log),
              *(route(endpoint) for endpoint in ENDPOINTS),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, limit=settings.max_requests),
                                Middleware(TrustedHostMiddleware,
                                           allowed_hosts=list(settings.allowed_hosts))],
                    exception_handlers={HTTPException: not_found, InputError: refused,
                                        GameBusy: busy, Exception: fault})
    app.state.history = history
    return app


def _record(history: History, fields: dict[str, Any], result: dict) -> dict:
    """Store a graded training hand; the answer gains its row id and the session's score.
    A hand that cannot be stored (a full disk) keeps its grade: the answer says, under
    ``unsaved``, why it was not stored."""
    try:
        hand_id = history.add(fields["session"], fields["seed"], fields["number"], result)
    except StoreError as error:
        log.warning("%s", error)
        return {"grade": result["grade"], "unsaved": str(error)}
    score = history.score(fields["session"], result["variant"], result["objective"])
    return {"grade": result["grade"], "score": score,
            "hand_id": hand_id}


def _played(played: PlayedHands, game_id: str, record: dict, view: dict) -> dict:
    """Store a finished hand of the Play view in the history, under the session
    ``play-<game>``: the answer gains its row id and the session's rows, or, for a hand that
    cannot be stored (a full disk), ``unsaved`` and why."""
    session = f"play-{game_id}"
    try:
        hand_id = played.add_hand(session, view["settings"], record)
    except StoreError as error:
        log.warning("%s", error)
        return {"unsaved": str(error)}
    return {"hand_id": hand_id, "history": played.hands(session)}
