"""Writes into the README and docs/ what their transcripts print today (a developer's tool).

``python3 tests/rewrite_transcripts.py [PAGE ...]`` runs every ```console and ```text
transcript of the pages (all of them when none is named) exactly as tests/test_docs.py runs
it, and puts each command's output in place of the one the page shows; a ```text block keeps
the times it shows where only they differ. It prints the pages it changed. It decides
nothing: read ``git diff`` of each page before committing it, as the page's prose may say
something the new output no longer does.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

# The checkout's own code (its root), and the tests' reading of the pages (tests/).
sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

import test_docs as docs  # noqa: E402 (the tests' own reading of the pages)


def rewritten(body: str, untimed_only: bool = False) -> str:
    """A transcript block's body with each command's output as it prints now."""
    prompts = [line if line.endswith("\n") else line + "\n"
               for line in body.splitlines(keepends=True) if line.startswith("$ ")]
    out = []
    for prompt, (arguments, stdin, shown) in zip(prompts, docs.transcript(body)):
        printed = docs.run(arguments, stdin)
        out.append(prompt + (shown if untimed_only and docs.untimed(printed) ==
                             docs.untimed(shown) else printed))
    return "".join(out)


def rewrite(page: Path) -> bool:
    text = page.read_text(encoding="utf-8")

    def replace(match) -> str:
        indent, lang, body = match.group(1), match.group(2), match.group(3)
        plain = docs.re.sub(rf"^{indent}", "", body, flags=docs.re.MULTILINE)
        if not (lang == "console" or (lang == "text" and plain.startswith("$ "))):
            return match.group(0)
        new = rewritten(plain, untimed_only=lang == "text")
        new = "".join(indent + line if line.strip() else line
                      for line in new.splitlines(keepends=True))
        head = match.group(0).split("\n", 1)[0]
        return f"{head}\n{new}{indent}```"

    new_text = docs.FENCE.sub(replace, text)
    if new_text != text:
        page.write_text(new_text, encoding="utf-8")
    return new_text != text


def main(argv: list[str]) -> int:
    pages = [Path(arg).resolve() for arg in argv] or docs.PAGES
    from fantasyland.optimizer.opponents.closed import CACHE_VARIABLE

    with tempfile.TemporaryDirectory() as folder:
        os.environ.setdefault(CACHE_VARIABLE, str(Path(folder) / "models"))
        for name, body in docs.rules_files().items():
            (Path(folder) / name).write_text(body, encoding="utf-8")
        here = os.getcwd()
        os.chdir(folder)
        try:
            for page in pages:
                if rewrite(page):
                    print(docs.page_id(page))
        finally:
            os.chdir(here)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
