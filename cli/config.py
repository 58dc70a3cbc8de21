"""``fantasyland config``: the defaults every command starts from, and where each came from."""

from __future__ import annotations

from rich.text import Text

from fantasyland.cli.defaults import CONFIG_VARIABLE, KEYS, VARIANTS_OWN, config_path, load
from fantasyland.cli.render import console


def _shown(key: str, value: object) -> str:
    if value is None:
        return VARIANTS_OWN[key]
    return f"{value:g}" if isinstance(value, float) else str(value)


def command() -> None:
    """Print the defaults every command and serve start from, and where each came from.

    Built in, every command plays pineapple and values a set by ev. A TOML file sets other
    defaults for every command (an option on the command line wins over it):
    $XDG_CONFIG_HOME/fantasyland/config.toml (~/.config/fantasyland/config.toml), or the
    file FANTASYLAND_CONFIG names. Its keys: variant, objective, opponents, fl_value and
    samples (docs/options.md). A bad file is one line naming it, exit code 2.
    """
    defaults = load()  # a bad file was reported before the command ran (cli.command)
    path, named_by = config_path()
    where = f"named by {CONFIG_VARIABLE}" if named_by == CONFIG_VARIABLE else \
        f"from {named_by}"
    found = "" if defaults.path is not None else ", which does not exist: the built-in " \
                                                 "defaults hold"
    console.print(Text.assemble(("Config file:", "bold"), f" {path} ({where}){found}"),
                  soft_wrap=True)
    shown = {key: _shown(key, defaults.values[key]) for key in KEYS}
    key_width, value_width = max(map(len, KEYS)) + 2, max(map(len, shown.values())) + 2
    for key in KEYS:
        console.print(Text.assemble((key.ljust(key_width), "bold"),
                                    shown[key].ljust(value_width), defaults.source(key)),
                      soft_wrap=True)
