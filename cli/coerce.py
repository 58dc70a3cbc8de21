"""Option values from the typed text, without pydantic.

Typer 0.29 turns every typed value into its Python value through a pydantic ``TypeAdapter``,
so the first option a command parses imports pydantic: about 0.14 s, more than the rest of
``fantasyland score`` (docs/benchmarks.md, "Start-up"). The options of this command line are
of a few plain kinds (text, whole numbers, numbers, flags, paths, choices, and lists of
them), and ``plain_coercion`` gives each such parameter a coercion of its own, which Typer
calls in place of the adapter. Ranges, choices and path checks keep Typer's meaning; a bad
value is one line naming what was typed (``'-5' is out of range: expected 0 to 1000``).

Anything else keeps Typer's own coercion, and so does every parameter if Typer's insides ever
change shape: then a command is slower to start, never wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

try:  # Typer's insides: where a parameter keeps its coercion, and the checks it runs
    from typer._coercion import RuntimeParam
    from typer._param_types import coerce_cli_choice, coerce_cli_path
    from typer.core import _TyperParameter
    TYPER_INSIDES = True
except ImportError:  # another Typer: leave its coercion alone
    TYPER_INSIDES = False

import typer

_PLAIN = (str, int, float, bool)
#: The words a bool may be typed as (pydantic's, which Typer 0.29 takes).
_BOOLS = {**dict.fromkeys(("1", "on", "t", "true", "y", "yes"), True),
          **dict.fromkeys(("", "0", "off", "f", "false", "n", "no"), False)}


def _range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g} to {high:g}"
    return f"at least {low:g}" if low is not None else f"at most {high:g}"


def _number(kind: type[int] | type[float], text: Any, low: float | None, high: float | None
            ) -> int | float:
    """``text`` as an int or a float within ``low..high`` (either may be None)."""
    value: int | float
    if isinstance(text, kind) and not isinstance(text, bool):
        value = text
    else:
        typed = str(text).strip()
        try:
            value = kind(typed.replace("_", "")) if typed else kind("")
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise ValueError(f"{str(text)!r} is not {what}") from None
    bounded = low is not None or high is not None
    if (bounded and kind is float and math.isnan(value)) or \
            (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{str(text)!r} is out of range: expected {_range_text(low, high)}")
    return value


def _bool(text: Any) -> bool:
    word = str(text).strip().lower()
    if word not in _BOOLS:
        raise ValueError(f"{str(text)!r} is not true or false")
    return _BOOLS[word]


if TYPER_INSIDES:
    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """The coercion of one parameter of a plain kind (``leaf``), item by item for a
        list; Typer's ``coerce`` has already dealt with a missing value."""

        leaf: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if isinstance(value, (list, tuple)):
                return [self._one(item, param, ctx) for item in value]
            return self._one(value, param, ctx)

        def _one(self, value: Any, param: Any, ctx: Any) -> Any:
            info, leaf = self.parameter_info, self.leaf
            try:
                if leaf is str:
                    return value if isinstance(value, str) else str(value)
                if leaf is bool:
                    return value if isinstance(value, bool) else _bool(value)
                if leaf in (int, float):
                    return _number(leaf, value, info.min, info.max)
                if isinstance(leaf, type) and issubclass(leaf, Enum):
                    return coerce_cli_choice(value, choices=tuple(leaf),
                                             case_sensitive=info.case_sensitive, ctx=ctx)
            except ValueError as error:
                raise typer.BadParameter(str(error), ctx=ctx, param=param) from None
            # A path: Typer's own checks (exists, dir_okay ...), handed a Path already, so
            # that it has nothing to convert.
            return coerce_cli_path(value if isinstance(value, Path) else Path(value), info,
                                   path_type=Path, param=param, ctx=ctx)


def _leaf(annotation: Any, info: Any) -> Any | None:
    """The plain kind of an annotation (``list[int]`` is ``int``), or None if it is not one
    that ``PlainRuntimeParam`` knows, or asks for what it does not do (a parser, a clamp)."""
    if getattr(info, "parser", None) is not None or getattr(info, "clamp", False):
        return None
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation) or (None,)
    if annotation in _PLAIN or (isinstance(annotation, type) and issubclass(annotation, Enum)):
        return annotation
    if annotation is Path and getattr(info, "path_type", None) in (None, Path):
        return annotation
    return None


def plain_coercion(params: list) -> None:
    """Give each parameter of a plain kind its own coercion, in place of Typer's; a flag's
    value is a bool already, which Typer does not coerce."""
    if not TYPER_INSIDES:
        return
    for param in params:
        if not isinstance(param, _TyperParameter) or param._runtime_param is not None:
            continue
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or descriptor.file_annotation is not None:
            continue
        leaf = _leaf(descriptor.annotation, descriptor.parameter_info)
        if leaf is not None:
            param._runtime_param = PlainRuntimeParam(
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                leaf=leaf)
