"""The ``fantasyland`` app: a Typer group with one command per module of ``cli``.

A module that defines ``command`` becomes the subcommand named after the module
(``cli/score.py`` is ``fantasyland score``), so a new command is a new file and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib import metadata
from typing import Annotated

import typer

import cli

app = typer.Typer(
    name="fantasyland",
    help="Open-Face Chinese Poker: score finished sets under a variant's rules.",
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
    """Open-Face Chinese Poker: score finished sets under a variant's rules.

    Variants are presets (standard, pineapple, progressive, ultimate, deuce) or house
    rules in a TOML file; see the README.
    """


def _register_commands() -> None:
    # Sorted by module name, so that the help lists commands in a stable order.
    for module_info in sorted(pkgutil.iter_modules(cli.__path__), key=lambda m: m.name):
        if module_info.name == __name__.rpartition(".")[2]:
            continue
        module = importlib.import_module(f"cli.{module_info.name}")
        if callable(getattr(module, "command", None)):
            app.command(name=module_info.name)(module.command)


_register_commands()

if __name__ == "__main__":
    app()
