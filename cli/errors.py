"""Bad input on the command line: one line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TextIO

import typer
from rich.text import Text

from fantasyland.cli.render import err_console, shown
from fantasyland.evaluator import InputError, user_files

#: The exit code for input the library refused (the code Click uses for usage errors).
BAD_INPUT = 2

#: Bad lines of an input printed on stderr; the rest are counted (batch and review).
SHOWN_BAD_LINES = 20


def report_error(message: str) -> None:
    """Print ``error: <message>`` on stderr, one line: the message is never read as Rich
    markup, and what it echoes of the input (an id, a token) is ``shown`` escaped."""
    err_console.print(Text.assemble(("error:", "bold red"), " ", shown(message)),
                      soft_wrap=True)


@contextmanager
def reports_bad_input() -> Iterator[None]:
    """Turn input the library refuses (an ``InputError``, whichever layer raised it) into
    ``error: ...`` and exit code 2. Other ``ValueError``s are bugs, and keep their traceback.

    Use it around a command's body (``with reports_bad_input():``) or as a decorator
    (``@reports_bad_input()``).
    """
    try:
        yield
    except InputError as error:
        report_error(str(error))
        raise typer.Exit(BAD_INPUT) from None


#: The most a command reads from standard input for ``-``: a hand or a history, never more.
MAX_STDIN_BYTES = 1024 * 1024


def read_stdin(command: str, what: str, *, limit: int = MAX_STDIN_BYTES) -> str:
    """All of standard input, at most ``limit`` bytes, for a command given ``-``: ``what``
    it reads there names it in the one-line error for a closed, an empty, a device or an
    oversized input (exit code 2)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        report_error(f"standard input is closed: {command} - reads {what} from it; pipe "
                     f"them in (echo \"...\" | fantasyland {command} -) or give them as "
                     "arguments")
        raise typer.Exit(BAD_INPUT)
    with reports_bad_input():
        data = user_files.read_stdin(f"{what} for {command} -", limit=limit)
    text = data.decode("utf-8-sig", errors="replace")
    if not text.strip():
        report_error(f"standard input is empty: {command} - reads {what} from it")
        raise typer.Exit(BAD_INPUT)
    return text


def check_stdin_open(command: str, reads: str, instead: str) -> None:
    """Refuse, before any work, a command that reads standard input when it is closed
    (``fantasyland train <&-``): Python then has no ``sys.stdin`` at all."""
    if sys.stdin is None or sys.stdin.closed:
        report_error(f"standard input is closed: {command} reads {reads} from it; {instead}")
        raise typer.Exit(BAD_INPUT)


class _Log:
    """A training log that a failed write cannot end the session with: the first failure
    (a full disk) is one line on stderr naming what is not logged, and the log is then let
    go; the session and its summary go on."""

    def __init__(self, out: TextIO, path: Path):
        self._out: TextIO | None = out
        self._path = path

    def write(self, text: str) -> None:
        self._try("write", text)

    def flush(self) -> None:
        self._try("flush")

    def close(self) -> None:
        self._try("close")

    def _try(self, method: str, *args: str) -> None:
        if self._out is None:
            return
        try:
            getattr(self._out, method)(*args)
        except OSError as error:
            report_error(f"cannot write the log {str(self._path)!r}: "
                         f"{error.strerror or error}; the session goes on, and what it plays "
                         "from here on is not logged")
            out, self._out = self._out, None
            try:
                out.close()
            except OSError:  # its buffer cannot be written either: dropped with it
                pass


def open_log(stack: ExitStack, log: Path | None, header: dict) -> TextIO | None:
    """The training log ``log`` opened for appending in ``stack``, its ``header`` line
    written; None without a log. A log that cannot be opened is one line, exit code 2; a
    write that fails later is one line, and the session goes on (``_Log``). A FIFO without a
    reader is refused rather than waited for."""
    if log is None:
        return None
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(log, flags, 0o666)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        out = _Log(open(fd, "a", encoding="utf-8"), log)
    except OSError as error:
        report_error(f"cannot write the log {str(log)!r}: {error.strerror}")
        raise typer.Exit(BAD_INPUT) from None
    stack.callback(out.close)
    out.write(json.dumps(header, sort_keys=True) + "\n")
    out.flush()
    return out  # type: ignore[return-value]  # it writes and flushes as a TextIO does
