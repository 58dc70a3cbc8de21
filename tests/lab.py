"""The bots' laboratory, tools/bots.py, loaded for the tests that drive it (tools/ is no
package): ``run(capsys, ARGS...)`` runs it as its command line would and gives back its exit
status, its output and its errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PATH = Path(__file__).resolve().parents[1] / "tools" / "bots.py"


def _load():
    spec = importlib.util.spec_from_file_location("bots_tool", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bots = _load()


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = bots.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
