"""The defaults every command and the browser start from: built in, then the player's own.

One story: every command plays ``pineapple`` and values a set by ``ev`` unless told
otherwise (docs/options.md). A player changes that once, in a TOML file read by every
command and by ``serve``: ``$XDG_CONFIG_HOME/fantasyland/config.toml`` (``~/.config/...``
when XDG_CONFIG_HOME is not set), or the file that ``FANTASYLAND_CONFIG`` names. Its keys
are ``KEYS``; an option given on the command line wins over it. ``fantasyland config``
prints each value and where it came from.

A file that cannot be read (bad TOML, an unknown key, a bad value) raises ``ConfigError``,
whose message names the file and the key, in one line.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.rules_files import MAX_POINTS
from fantasyland.evaluator.user_files import FileError, read_file
from fantasyland.optimizer.solver import OBJECTIVES

#: The environment variable that names the config file, in place of the usual place.
CONFIG_VARIABLE = "FANTASYLAND_CONFIG"

#: The most a config file may hold: a dozen keys take a few hundred bytes, and the bound
#: keeps tomllib's time on a hostile file (a dotted key thousands of parts long) short.
MAX_CONFIG_BYTES = 16 * 1024

#: What a default is when neither the file nor the command line sets it. None stands for
#: the variant's own figure: its table (opponents), its worth of a repeat (fl_value), and
#: the opponent deals a solve samples under it (samples).
BUILT_IN: dict[str, Any] = {"variant": "pineapple", "objective": "ev", "opponents": None,
                            "fl_value": None, "samples": None}
KEYS = tuple(BUILT_IN)

#: How ``fantasyland config`` and the docs say what None stands for.
VARIANTS_OWN = {"opponents": "the variant's table", "fl_value": "the variant's",
                "samples": "solve's (2000; 40 in chinese)"}

#: Each key's bounds: the command-line option's (cli.options).
_MAX_OPPONENTS = 5  # two decks seat six; one deck's bound is checked with its rules
_MAX_SAMPLES = 100_000

#: Options of a command that the file does not set, and why. bench times the objectives as
#: its own option chooses (docs/benchmarks.md), whatever a player usually plays.
NOT_FROM_FILE: dict[str, tuple[str, ...]] = {"bench": ("objective",)}


class ConfigError(InputError):
    """A config file that cannot be read, or a key of it that is not what it should be."""


@dataclass(frozen=True)
class Defaults:
    """The defaults in force: ``values`` by key, and the keys ``from_file`` that the file at
    ``path`` set (``path`` None: no file, the built-in defaults hold)."""

    values: dict[str, Any]
    from_file: frozenset[str]
    path: Path | None
    named_by: str  # what chose the path: FANTASYLAND_CONFIG, XDG_CONFIG_HOME or the home

    def source(self, key: str) -> str:
        """Where ``key``'s value came from, in words."""
        return f"config file {self.path}" if key in self.from_file else "built-in default"


def config_path() -> tuple[Path, str]:
    """The config file's path, and what chose it (see the module docstring)."""
    named = os.environ.get(CONFIG_VARIABLE, "")
    if named:
        return Path(named).expanduser(), CONFIG_VARIABLE
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative one is to be ignored
        return Path(xdg) / "fantasyland" / "config.toml", "XDG_CONFIG_HOME"
    return Path.home() / ".config" / "fantasyland" / "config.toml", "the home directory"


def load() -> Defaults:
    """The defaults in force now: the built-in ones, and over them the config file's.

    A file named by FANTASYLAND_CONFIG must exist; the usual place may hold none.
    """
    path, named_by = config_path()
    if not os.path.lexists(path):
        if named_by == CONFIG_VARIABLE:
            raise ConfigError(f"{path}: no such file (named by {CONFIG_VARIABLE}); expected "
                              "a TOML file of defaults, or unset it")
        return Defaults(dict(BUILT_IN), frozenset(), None, named_by)
    try:  # the one bounded reader: a FIFO or a link to /dev/zero is refused, not read
        data = read_file(path, "config file", limit=MAX_CONFIG_BYTES)
    except FileError as error:
        raise ConfigError(str(error)) from None
    import tomllib

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: not a TOML file: {error}") from None
    except RecursionError:  # tomllib recurses once a level: a = [[[[... runs out of stack
        raise ConfigError(f"{path}: not a TOML file: arrays or tables nested too "
                          "deeply") from None
    values = dict(BUILT_IN)
    for key, value in table.items():
        if key not in BUILT_IN:
            raise ConfigError(f"{path}: unknown key {key!r}: expected "
                              + ", ".join(KEYS))
        values[key] = _READ[key](path, key, value)
    return Defaults(values, frozenset(table), path, named_by)


def _bad(path: Path, key: str, value: Any, expected: str) -> ConfigError:
    import json

    shown = json.dumps(value, ensure_ascii=False, default=str)
    return ConfigError(f"{path}: bad {key} {shown}: expected {expected}")


def _variant(path: Path, key: str, value: Any) -> str:
    """A preset or one of its aliases, or a rules file, its path relative to the config
    file's folder when it is not absolute."""
    from fantasyland.evaluator import find_preset, preset_names
    from fantasyland.evaluator.rules import RulesError

    expected = (f"a preset ({', '.join(preset_names())}) or the path of a .toml rules file")
    if not isinstance(value, str) or not value.strip():
        raise _bad(path, key, value, expected)
    if not value.endswith(".toml"):
        try:
            find_preset(value)
        except RulesError:
            raise _bad(path, key, value, expected) from None
        return value
    file = (path.parent / Path(value).expanduser()).resolve()
    if not file.is_file():
        raise _bad(path, key, value, f"{expected}; there is no file {file}")
    return str(file)


def _objective(path: Path, key: str, value: Any) -> str:
    if value not in OBJECTIVES:
        raise _bad(path, key, value, " or ".join(f'"{name}"' for name in OBJECTIVES))
    return value


def _whole(high: int):
    def read(path: Path, key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
            raise _bad(path, key, value, f"a whole number from 1 to {high}")
        return value

    return read


def _points(path: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not 0 <= value <= MAX_POINTS:
        raise _bad(path, key, value, f"points from 0 to {MAX_POINTS:g}")
    return float(value)


_READ = {"variant": _variant, "objective": _objective, "opponents": _whole(_MAX_OPPONENTS),
         "fl_value": _points, "samples": _whole(_MAX_SAMPLES)}


def default_map(command: str, params: list) -> dict[str, Any]:
    """The values the file sets for the options ``params`` of ``command`` (Click's
    parameters), as Click's ``default_map`` takes them: beneath the command line, above the
    built-in defaults. A repeatable option (bench's ``--samples``) gets a list of one."""
    defaults = load()
    skip = NOT_FROM_FILE.get(command, ())
    found = {param.name: param for param in params}
    return {key: [value] if found[key].multiple else value
            for key, value in sorted(defaults.values.items())
            if key in defaults.from_file and key in found and key not in skip}
