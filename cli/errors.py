"""Bad input on the command line: one line on stderr, exit code 2, no traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.text import Text

from cli.render import err_console, shown
from evaluator import CardError, HandSpecError, RulesError

#: The exit code for input the library refused (the code Click uses for usage errors).
BAD_INPUT = 2

#: What the library raises for input it cannot read; ``BoardError`` is a ``CardError``.
#: Other ``ValueError``s are bugs, and keep their traceback.
INPUT_ERRORS: tuple[type[ValueError], ...] = (CardError, HandSpecError, RulesError)


def report_error(message: str) -> None:
    """Print ``error: <message>`` on stderr, one line: the message is never read as Rich
    markup, and what it echoes of the input (an id, a token) is ``shown`` escaped."""
    err_console.print(Text.assemble(("error:", "bold red"), " ", shown(message)),
                      soft_wrap=True)


@contextmanager
def reports_bad_input(*more: type[ValueError]) -> Iterator[None]:
    """Turn the library's input errors (and ``more``) into ``error: ...`` and exit code 2.

    Use it around a command's body (``with reports_bad_input():``) or as a decorator
    (``@reports_bad_input()``). A command with errors of its own passes their classes.
    """
    try:
        yield
    except INPUT_ERRORS + more as error:
        report_error(str(error))
        raise typer.Exit(BAD_INPUT) from None
