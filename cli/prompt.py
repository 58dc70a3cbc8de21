"""Reading what a trainer's player types: one line at a time, until it can be used.

Both trainers (``train`` and ``train --ordinary``) read the same way: ``q`` quits, ``?``
shows the help, an empty line is asked again, and a line that cannot be used is reported in
one line and asked for again, typed back for the player to mend where the terminal can.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from fantasyland.cli.errors import report_error

try:  # line editing and history for input() in a terminal; absent on some platforms
    import readline
    EDITING = True
except ImportError:
    EDITING = False

QUIT = {"q", "quit", "exit"}
T = TypeVar("T")


def read_line(prompt: str, interactive: bool, *, again: str = "") -> str:
    """One line of input; ``EOFError`` at the end of the input. In a terminal the line can be
    edited (arrows, history), and ``again``, a line that could not be used, is typed back
    for the player to mend rather than retype."""
    if interactive:
        if EDITING and again:
            readline.set_startup_hook(lambda: readline.insert_text(again))
        try:
            return input(prompt)
        finally:
            if EDITING:
                readline.set_startup_hook()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def read_until(prompt: str, interactive: bool, show_help: Callable[[], None],
               use: Callable[[str], T], errors: tuple[type[Exception], ...], what: str
               ) -> T | None:
    """``use`` of the first line it takes without one of ``errors``; None when the player
    quits. ``what`` names the thing typed in the message that asks again ("set", "play")."""
    again = ""
    while True:
        text = read_line(prompt, interactive, again=again).strip()
        again = ""
        if text.lower() in QUIT:
            return None
        if not text:
            continue
        if text in ("?", "help"):
            show_help()
            continue
        try:
            return use(text)
        except errors as error:
            mendable = interactive and EDITING and sys.stdout.isatty()
            report_error(f"{error}; mend the {what} and press Enter (? for help)" if mendable
                         else f"{error}; type the {what} again (? for help)")
            again = text if mendable else ""
