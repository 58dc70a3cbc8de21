"""The class of every command: flags that show no value in the help, old spellings, and
options read without pydantic.

Kept apart from ``cli.options`` (which reaches into the library for its defaults) so that
``cli.main`` can build the group and its help without importing the library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperCommand

if TYPE_CHECKING:  # the click that Typer carries, whose Command the mixin below extends
    from typer._click.core import Command as ClickCommand
else:
    ClickCommand = object

from fantasyland.cli.coerce import plain_coercion


#: Old option names, hidden, and the names they are now.
RENAMED = {"--samples": "--hands", "--jobs": "--workers", "--count": "--hands",
           "--rounds": "--hands", "--bench-hands": "--hands", "--boards": "--hands"}


def old_spelling(old: str, **same: Any) -> Any:
    """A hidden option under an old name; ``same`` repeats the new option's range and
    callback. ``Command`` hands its value to the new option, with a note."""
    return typer.Option(old, hidden=True, show_default=False,
                        help=f"The old spelling of {RENAMED[old]}.", **same)


def _renamed_pairs(params: list) -> list[tuple[Any, Any]]:
    """(old, new) parameters: each hidden option with an old name, and the one it is now."""
    by_name = {opt: param for param in params for opt in getattr(param, "opts", ())}
    return [(param, by_name[RENAMED[param.opts[0]]]) for param in params
            if getattr(param, "hidden", False) and param.opts and param.opts[0] in RENAMED]


def no_metavar_for_flags(params: list) -> None:
    # Typer's rich help prints every parameter's type in a column, flags too, as ``<bool>``
    # (typer.rich_utils asks each one's display_type_rich, which does not look at
    # is_flag); a metavar of its own, empty, is what it prints instead.
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


def given(ctx: Any, name: str) -> bool:
    """Whether the parameter ``name`` was typed on the command line (not its default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


#: Click's usage error, reached through Typer's public ``BadParameter`` (see ``cli.main``).
UsageError = next(kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "UsageError")


class FlagsShowNoValue(ClickCommand):
    """For a command or a group: its flags, ``--help`` included, show no value in the help,
    and its options of plain kinds are read without pydantic (``cli.coerce``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        no_metavar_for_flags(self.params)
        plain_coercion(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            no_metavar_for_flags([option])
            plain_coercion([option])
        return option


def from_command_line_or_file(ctx: Any, name: str) -> bool:
    """Whether the parameter ``name`` was chosen, on the command line or in the player's
    config file (``cli.defaults``), rather than left at its built-in default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "DEFAULT_MAP")


class Command(FlagsShowNoValue, TyperCommand):
    """A command whose flags show no value in the help, whose options start from the
    player's config file (``cli.defaults``) where it sets them, and whose old option
    spellings (``RENAMED``) work: each gives its value to the new option and prints
    ``note: --old is now --new`` on stderr; both at once are refused."""

    def make_context(self, info_name: Any, args: Any, parent: Any = None, **extra: Any) -> Any:
        if "default_map" not in extra:
            from fantasyland.cli.defaults import default_map
            from fantasyland.cli.errors import reports_bad_input

            with reports_bad_input():  # a bad config file (ConfigError)
                extra["default_map"] = default_map(self.name or "", self.params)
        return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        for old, new in _renamed_pairs(self.params):
            if not given(ctx, old.name):
                continue
            old_name, new_name = old.opts[0], new.opts[0]
            if given(ctx, new.name):
                raise UsageError(f"{old_name} and {new_name} given together: {old_name} is the "
                                 f"old spelling of {new_name}; give {new_name} only", ctx=ctx)
            from rich.text import Text

            from fantasyland.cli.render import err_console

            err_console.print(Text(f"note: {old_name} is now {new_name}", style="yellow"),
                              soft_wrap=True)
            ctx.params[new.name], ctx.params[old.name] = ctx.params[old.name], None
        from fantasyland.cli.render import err_console, show_model_builds

        if err_console.is_terminal:  # someone watches: a long build shows its progress
            show_model_builds()
        return super().invoke(ctx)
