"""The project stands alone: no file of it names a file or folder outside the repository.

The rules are stated by the project itself (docs/rules.md, the presets), so no page,
docstring, comment, fixture or test may send a reader to notes that are not in the
repository: the rule notes the project was first written from (a rules file at the top of a
shared folder, and its numbered seed pages), a path that climbs out of the checkout to a
shared folder, or the machine's own work folders. The patterns are precise enough not to
fire on ordinary words: a random seed (``seed 31``, ``--seed 0``) is not a seed page.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: What names a place outside the repository, each with what it means.
OUTSIDE = {
    "the rule notes' rules file": re.compile(r"\bRULES\.md\b"),
    "a numbered page of those notes": re.compile(r"\bseeds? 0\d\d\b", re.IGNORECASE),
    "the folder of those pages": re.compile(r"\bseeds/\w"),
    "a path out of the checkout to a shared folder": re.compile(r"(?:\.\./)+shared\b"),
    "the machine's work folder": re.compile(r"(?<![\w.~-])/wor[k]/"),
}
#: Folders a checkout may hold that are not the project's (a build, caches, environments).
NOT_OURS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache",
            ".ruff_cache", "build", "dist", ".venv", "venv", "node_modules"}


def project_files() -> list[Path]:
    """The files of the project: git's tracked files in a checkout; in an export (CI runs
    one, without .git) every file but those of ``NOT_OURS`` and ``*.egg-info``."""
    if (REPO / ".git").exists():
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                                check=True).stdout.decode()
        return [REPO / name for name in listed.split("\0") if name]
    return [path for path in REPO.rglob("*") if path.is_file()
            and not any(part in NOT_OURS or part.endswith(".egg-info")
                        for part in path.relative_to(REPO).parts)]


def text_of(path: Path) -> str | None:
    """The file as text, or None for binary data (package tables, images)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:  # listed by git but deleted in the working tree
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_the_patterns_find_what_they_mean_and_not_ordinary_words():
    found = {name for name, pattern in OUTSIDE.items()
             for text in ("as RULES" ".md says", "seed 0" "01 lines 3-9", "seeds 0" "02 and 003",
                          "seeds/" "001_rules.txt", "../" "shared/notes", "/wo" "rk/briefs")
             if pattern.search(text)}
    assert found == set(OUTSIDE)
    for ordinary in ("--seed 0", "seed 31, deals 0 to 1,999", "a seed's trailing zeros",
                     "the rules files", "docs/rules.md", "shared memory", "our work/notes"):
        assert not any(pattern.search(ordinary) for pattern in OUTSIDE.values()), ordinary


def test_no_file_names_a_place_outside_the_repository():
    problems = []
    for path in project_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for name, pattern in OUTSIDE.items():
                if pattern.search(line):
                    problems.append(f"{path.relative_to(REPO)}:{number}: {name}: "
                                    f"{line.strip()[:100]}")
    assert not problems, (
        "these lines name a place outside the repository; state the rule here instead "
        "(docs/rules.md):\n" + "\n".join(problems))
