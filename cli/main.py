"""The ``fantasyland`` app: a Typer group with one command per module of ``cli``.

A module that defines ``command`` becomes the subcommand named after the module
(``cli/score.py`` is ``fantasyland score``), so a new command is a new file and nothing else.

The commands are found without importing them, and a command's module is imported only when
that command runs: ``fantasyland score`` loads the scoring code and not the solver, and
``fantasyland --help`` reads each command's summary from its source
(docs/benchmarks.md, "Start-up").
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.util
import inspect
import pkgutil
import sys
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo

from fantasyland import cli
from fantasyland.cli.command import Command, FlagsShowNoValue

if TYPE_CHECKING:  # the same class, as the Typer it is checked with names it
    from typer._click.exceptions import ClickException
else:
    #: Click's base exception, reached through Typer's public ``BadParameter``: recent Typers
    #: carry their own copy of Click, whose errors ``click.ClickException`` would miss.
    ClickException = next(kind for kind in typer.BadParameter.__mro__
                          if kind.__name__ == "ClickException")


class OneLineErrors(FlagsShowNoValue, TyperGroup):
    """The group that reports a mistyped command line in one line, as the library's own
    input errors are (``cli/errors.py``): ``error: <what> (see `fantasyland solve --help`)``,
    exit code 2, instead of Click's boxed usage text. Its commands load on first use, and
    its flags, as its commands' (``cli.command.Command``), show no value in the help."""

    _listing = False  # while the help lists the commands, a summary of each is enough

    def list_commands(self, ctx) -> list[str]:
        return list(command_summaries())

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in self.commands:
            if self._listing and cmd_name in command_summaries():
                # The help shows the name and the docstring, nothing more.
                return TyperCommand(name=cmd_name, help=command_summaries()[cmd_name])
            info = _command_info(cmd_name)
            if info is None:
                return None
            self.commands[cmd_name] = typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode)
        return self.commands[cmd_name]

    def resolve_command(self, ctx, args):
        if args and _command_info(args[0]) is None:
            # Not a command: Typer suggests the loaded commands that look like it, so load
            # them all, as the app did before commands loaded on first use.
            for name in command_summaries():
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def format_help(self, ctx, formatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        except ClickException as error:
            if type(error).__name__ == "NoArgsIsHelpError":  # the help is printed already
                sys.exit(error.exit_code)
            from fantasyland.cli.errors import report_error

            context = getattr(error, "ctx", None)  # a usage error's; other errors have none
            where = context.command_path if context else "fantasyland"
            report_error(f"{error.format_message().rstrip('.')} (see `{where} --help`)")
            sys.exit(error.exit_code)
        except typer.Abort:
            from fantasyland.cli.errors import report_error

            report_error("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="fantasyland",
    cls=OneLineErrors,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)


def _version() -> str:
    from importlib import metadata

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
    around it.

    Variants are presets (standard, pineapple, progressive, ultimate, deuce,
    pineapple-joker, progressive-joker, double-deck, chinese) or house rules in a TOML file;
    see docs/rules.md and docs/rules-files.md. Every command plays pineapple and values a set
    by ev unless told otherwise, or as your config file says (`fantasyland config`).
    """


@cache
def _module_names() -> tuple[str, ...]:
    """The modules of ``cli`` that could define a command, sorted by name so that the help
    lists the commands in a stable order."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(cli.__path__) if m.name != "main"))


@cache
def command_summaries() -> dict[str, str | None]:
    """Each command's name and docstring, read from the source of the modules of ``cli``
    that define a function ``command``, without importing them (for the help)."""
    found = {}
    for name in _module_names():
        spec = importlib.util.find_spec(f"{cli.__name__}.{name}")
        source = spec.loader.get_source(spec.name) \
            if spec and isinstance(spec.loader, importlib.abc.InspectLoader) else None
        if source is None:  # no source to read: import it to see
            info = _command_info(name)
            if info is not None:
                found[name] = inspect.getdoc(info.callback)
            continue
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name == "command":
                found[name] = ast.get_docstring(node)
    return found


@cache
def _command_info(name: str) -> CommandInfo | None:
    """The command ``name``, registered on ``app`` the first time it is asked for; None if
    no module of ``cli`` by that name defines one."""
    if name not in _module_names():
        return None
    module = importlib.import_module(f"{cli.__name__}.{name}")
    command = getattr(module, "command", None)
    if not callable(command):
        return None
    # a module may give its command a class of its own (``opponents``: a help of one screen)
    app.command(name=name, cls=getattr(module, "COMMAND_CLASS", Command))(command)
    return app.registered_commands[-1]


if __name__ == "__main__":
    app()
