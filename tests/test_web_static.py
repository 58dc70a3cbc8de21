"""The page's scripts keep no copy of what the server serves: the rows of a set and their
sizes (``/api/variants``), the bounds and choices of a field (``/api/fields``). A copy is
what drifts (the Samples hint said 2000 where Chinese plays 40), so each kind of copy is
looked for in the code of ``cli/web/static`` (comments left out, where prose may name a
row), by patterns made from what the server serves.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from fantasyland.cli.web.jobs import fields, variants

STATIC = Path(__file__).resolve().parents[1] / "cli" / "web" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))


def _code(path: Path) -> list[tuple[int, str]]:
    """The lines of a script without its comments: ``//`` lines, the lines of a ``/** */``
    block, and a ``//`` after code."""
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "/*", "*")):
            continue
        lines.append((number, re.sub(r"\s//\s.*$", "", line)))
    return lines


def _found(pattern: str, paths: list[Path] | None = None) -> list[str]:
    return [f"{path.name}:{number}: {line.strip()}" for path in paths or SCRIPTS
            for number, line in _code(path) if re.search(pattern, line)]


def _rows() -> list[dict]:
    return variants()["rows"]


def test_the_scripts_name_no_row_and_size_none():
    names = "|".join(row["name"] for row in _rows())
    sizes = r"\s*,\s*".join(str(row["cards"]) for row in _rows())
    assert _found(rf"([\"'`])({names})\1") == [], "a row named in a script: read layout.js"
    keyed = "|".join(rf"{row['name']}\s*:\s*{row['cards']}" for row in _rows())
    assert _found(rf"\b({keyed})\b") == [], "a row's size in a script: read layout.js"
    assert _found(rf"\[\s*{sizes}\s*\]") == [], "the rows' sizes in a script: read layout.js"


def test_the_page_bounds_no_field_and_lists_no_choice():
    assert _found(r"\b(min|max|minimum|maximum)\s*:\s*-?\d") == [], \
        "a field's bound in a script: read the field's schema (settings.js)"
    assert _found(r"\b(hint|placeholder)\s*:\s*[\"'`]\d") == [], \
        "a figure as a field's hint: the server's default is the field's schema's"
    assert _found(r"\b(min|max)=[\"']?-?\d", [STATIC / "index.html"]) == [], \
        "a field's bound in index.html"
    choices = {value for endpoint in fields().values() for schema in endpoint.values()
               for value in schema.get("enum", ())}
    assert choices  # the objective, at least
    listed = "|".join(map(re.escape, sorted(choices)))
    assert _found(rf"\[\s*([\"'`])({listed})\1") == [], \
        "a field's choices listed in a script: read the field's schema's enum (settings.js)"


@pytest.mark.parametrize("copy", [
    'const ROWS = ["top", "middle", "bottom"];', "export const SIZES = { top: 3 };",
    "const sizes = [3, 5, 5];", '  samples: { label: "Samples", kind: "int", min: 1 },',
    '  seed: { label: "Seed", hint: "0" },',
    '  objective: { options: [["", "the default"], ["ev", "ev (points won)"]] },'])
def test_each_copy_the_page_once_had_is_found(copy, tmp_path, monkeypatch):
    script = tmp_path / "copy.js"
    script.write_text(f"// {copy}\n/** {copy} */\n{copy}  // a copy\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "SCRIPTS", [script])
    with pytest.raises(AssertionError) as failed:
        test_the_scripts_name_no_row_and_size_none()
        test_the_page_bounds_no_field_and_lists_no_choice()
    assert "copy.js:3:" in str(failed.value)  # the code line, not the comments
