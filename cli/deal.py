"""``fantasyland deal``: reproducible random Fantasyland hands, one a line, for ``batch``."""

from __future__ import annotations

import os
import sys
from itertools import islice
from pathlib import Path
from typing import Annotated

import typer

from fantasyland.cli.command import old_spelling
from fantasyland.cli.errors import reports_bad_input
from fantasyland.cli.options import DEFAULT_VARIANT, SeedOption, VariantOption, hands_option
from fantasyland.cli.render import err_console, never_dealt_note
from fantasyland.evaluator import find_rules
from fantasyland.evaluator.user_files import FileError, check_output, is_stdout
from fantasyland.optimizer.solver import SizeError, deal_hands, hand_line, parse_size_weights

LINES_PER_WRITE = 4096


def _write(lines, output: Path | None) -> None:
    """Write the hands to ``output``, or to stdout for None or ``-``; a write that fails is
    one line naming where (``deal > /dev/full``), and stdout is then let go, so that
    Python's own flush at exit does not fail a second time."""
    path = None if output is None or is_stdout(output) else output
    to_stdout = path is None
    where = "standard output" if path is None else repr(str(path))
    try:
        out = sys.stdout if path is None else open(path, "w", encoding="utf-8")
    except OSError as error:
        raise FileError(f"cannot write {where}: {error.strerror or error}") from None
    try:
        while block := list(islice(lines, LINES_PER_WRITE)):
            out.write("".join(line + "\n" for line in block))
        out.flush()
    except BrokenPipeError:  # `deal ... | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as error:
        if to_stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise FileError(f"cannot write {where}: {error.strerror or error}") from None
    finally:
        if not to_stdout:
            try:
                out.close()
            except OSError:
                pass


def command(
    cards: Annotated[str | None, typer.Option(
        help="Cards per hand: 15, a range like 14-17 or a list like 14,16, dealt equally "
             "often; counts with weights, like 14:8,15:4; or 'mixed', the variant's "
             "Fantasyland sizes at realistic frequencies (the default; see docs/training.md).",
        show_default=False)] = None,
    hands: Annotated[int, hands_option("Hands to deal.", low=0)] = 1,
    seed: SeedOption = 0,
    variant: VariantOption = DEFAULT_VARIANT,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write to this file instead of stdout (- is stdout).",
        show_default=False)] = None,
    old_count: Annotated[int | None, old_spelling("--count", min=0)] = None,
) -> None:
    """Deal random Fantasyland hands, one a line ("As Kd ..."), ready for `fantasyland batch`.

    The same seed, hands and sizes deal the same hands, and a longer deal starts with the
    hands of a shorter one; --variant decides what 'mixed' deals, and the deck they come
    from (jokers, as Jk, or two copies of a card under two decks).
    """
    del old_count  # its value went to --hands (cli.options)
    with reports_bad_input():
        rules = find_rules(variant)
        try:
            sizes = parse_size_weights(cards or "mixed", rules)
        except SizeError as error:
            raise typer.BadParameter(str(error), param_hint="'--cards'") from None
        note = never_dealt_note(rules, list(sizes), "dealt anyway")
        if note is not None:
            err_console.print(note, soft_wrap=True, highlight=False)
        if output is not None:  # streams welcome (-o /dev/stdout); a missing directory not
            check_output(output, "deal output", streams=True)
        _write((hand_line(h) for h in deal_hands(hands, sizes, seed, deck=rules.deck)), output)
