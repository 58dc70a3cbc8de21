"""The ``fantasyland`` app: a Typer group with one command per module of ``cli``.

A module that defines ``command`` becomes the subcommand named after the module
(``cli/score.py`` is ``fantasyland score``), so a new command is a new file and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from importlib import metadata
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

import cli
from cli.errors import report_error
from cli.options import Command, no_metavar_for_flags

#: Click's exception classes by name, reached through Typer's public ``BadParameter``: recent
#: Typers carry their own copy of Click, whose errors ``click.ClickException`` would miss.
_CLICK = {kind.__name__: kind for kind in typer.BadParameter.__mro__}


class OneLineErrors(TyperGroup):
    """The group that reports a mistyped command line in one line, as the library's own
    input errors are (``cli/errors.py``): ``error: <what> (see `fantasyland solve --help`)``,
    exit code 2, instead of Click's boxed usage text. Its flags, as its commands'
    (``cli.options.Command``), show no value in the help."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        no_metavar_for_flags(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            no_metavar_for_flags([option])
        return option

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _CLICK["ClickException"] as error:
            if type(error).__name__ == "NoArgsIsHelpError":  # the help is printed already
                sys.exit(error.exit_code)
            where = error.ctx.command_path if getattr(error, "ctx", None) else "fantasyland"
            report_error(f"{error.format_message().rstrip('.')} (see `{where} --help`)")
            sys.exit(error.exit_code)
        except typer.Abort:
            report_error("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="fantasyland",
    cls=OneLineErrors,
    help="Open-Face Chinese Poker: the best Fantasyland set, proved optimal, and the tools "
         "around it.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)


def _version() -> str:
    try:
        return metadata.version("fantasyland")
    except metadata.PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown (not installed)"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"fantasyland {_version()}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Open-Face Chinese Poker: the best Fantasyland set, proved optimal, and the tools
    around it: solve a hand, check a set, train, score boards, and measure the opponents
    and the worth of staying.

    Variants are presets (standard, pineapple, progressive, ultimate, deuce) or house
    rules in a TOML file; see docs/rules-files.md.
    """


def _register_commands() -> None:
    # Sorted by module name, so that the help lists commands in a stable order.
    for module_info in sorted(pkgutil.iter_modules(cli.__path__), key=lambda m: m.name):
        if module_info.name == __name__.rpartition(".")[2]:
            continue
        module = importlib.import_module(f"cli.{module_info.name}")
        if callable(getattr(module, "command", None)):
            app.command(name=module_info.name, cls=Command)(module.command)


_register_commands()

if __name__ == "__main__":
    app()
