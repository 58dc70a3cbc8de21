"""``fantasyland serve``: the solver, the trainer, the checker and the adviser in a browser."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from fantasyland.cli.errors import BAD_INPUT, report_error
from fantasyland.cli.options import WorkersOption, workers_count

#: The names of this machine itself: a server bound to a loopback address answers no other
#: name (and its own address), which keeps a web page elsewhere from reaching it through a
#: rebound DNS name.
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    """Whether ``host`` answers this machine only: ``localhost``, any address in
    127.0.0.0/8, and ::1.

    >>> is_loopback("127.0.0.2"), is_loopback("[::1]"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: it may resolve anywhere
        return False


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: any free one); one line, exit 2, if not."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        report_error(f"cannot listen on {host}:{port}: {error.strerror or error}; give another "
                     "--port (0 picks a free one) or --host")
        raise typer.Exit(BAD_INPUT) from None
    return sock


def command(
    host: Annotated[str, typer.Option(
        help="The address to listen on. The default answers this machine only; 0.0.0.0 "
             "answers every machine that can reach it (there is no login).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        help="The port to listen on; 0 picks a free one.", min=0, max=65535)] = 8765,
    open_page: Annotated[bool, typer.Option(
        "--open", help="Open the page in the default browser once the server is up.")] = False,
    history: Annotated[Path | None, typer.Option(
        help="The SQLite database of training hands (made if missing).",
        show_default="history.sqlite3 in $XDG_DATA_HOME/fantasyland or "
                     "~/.local/share/fantasyland", dir_okay=False)] = None,
    workers: WorkersOption = None,
    request_limit: Annotated[float, typer.Option(
        "--request-limit", help="Seconds a request may run before it is stopped (HTTP 504).",
        min=1, max=3600)] = 60.0,
) -> None:
    """Serve the page at http://HOST:PORT/: solve, train, check and advise in a browser.

    The page talks to a JSON API with one endpoint a command (POST /api/solve takes solve's
    fields and answers what solve --json prints; docs/serve.md). Solves run in worker
    processes, each under the request limit; training hands are kept in a SQLite database,
    one row a hand as it is graded. A request that leaves a setting out gets the commands'
    default (the config file's, if it sets one: `fantasyland config`). Ctrl-C stops the
    server.
    """
    import uvicorn

    from fantasyland.cli.web import connections
    from fantasyland.cli.web.app import Settings, create_app
    from fantasyland.cli.web.history import StoreError, default_path

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sock = _listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    try:
        settings = Settings(history=history or default_path(), workers=workers_count(workers),
                            request_limit=request_limit,
                            allowed_hosts=(*LOOPBACK, host) if is_loopback(host) else ("*",))
        app = create_app(settings)
    except StoreError as error:  # the history cannot be made or opened
        report_error(str(error))
        raise typer.Exit(BAD_INPUT) from None
    if not is_loopback(host):
        typer.echo(f"note: --host {host} serves every machine that can reach this one, with "
                   "no login", err=True)
    # Idle and slow connections are closed, and their number capped (cli.web.connections).
    server = uvicorn.Server(uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=5,
        http=connections.Protocol.holding(connections.raise_file_limit()),
        timeout_keep_alive=connections.KEEP_ALIVE))

    async def run() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.05)
        if server.started:
            typer.echo(f"fantasyland serve: {url} (history {settings.history}; Ctrl-C stops)")
            if open_page and not webbrowser.open(url):
                typer.echo(f"note: no browser could be opened; open {url} in one", err=True)
        try:
            await serving
        except SystemExit:  # uvicorn's word that the app did not start; its log says why
            pass

    asyncio.run(run())
    if not server.started:
        report_error("the server did not start: the lines above say why")
        raise typer.Exit(1)
