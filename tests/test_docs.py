"""The README and the manual in docs/ are real: their examples run and print what they show,
and their links lead somewhere.

Each test runs once per page (README.md and every docs/*.md), so a failure names the page.
What a fenced block does depends on its language:

- ```toml: a rules file whose first line is ``# NAME.toml``; it must load, under its name,
  as rules that differ from its base, and an example that runs must use it. The rules files
  of every page are written where all examples run, so one page may use a file another
  page defines (which is why two pages must not define one name differently).
- ```console: one or more commands, each ``$ fantasyland ARGS`` or
  ``$ printf 'TEXT' | fantasyland ARGS`` (TEXT, with ``\\n`` for a newline, is what the
  command reads), each followed by exactly what it prints. A notes page may show the bots'
  laboratory the same way, ``$ python tools/bots.py ARGS``, and it runs too.
- ```text starting with ``$ fantasyland``: the same, except that times (``in 12 ms``) may
  differ. A ```text block without a command is output shown on its own and is not run.
- ```python: a session, ``>>> `` before each statement and what it prints after it, run by
  doctest in order, in one namespace per page, each printing what the page shows.
- ```sh: commands shown but not run, because what they print cannot be reproduced: timings
  (``batch`` and ``batch --bench``), setting up a Dask cluster, rebuilding the opponent pools
  (half an hour each). Keep these few; an example that can run belongs in ```console.

A ``fantasyland`` command in any other block (```, ```bash, ...) fails the tests, so no
example goes unrun without saying so. Relative links must lead to a file, and to a heading
of it when they name one; and README.md stays a landing page of at most 260 lines.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules, load_rules

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 260

# A fenced block, indented (in a list item) or not: its indent, language and body.
FENCE = re.compile(r"^([ \t]*)```(\S*)[^\n]*\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)
NOT_RUN = "sh"  # the one block type that shows commands without running them
# A line that runs the command, with or without a prompt, at the end of a pipe or not.
COMMAND_LINE = re.compile(r"^\s*(?:\$\s+)?(?:[^#\n]*\|\s*)?fantasyland(?:\s|$)", re.MULTILINE)
PROMPT = re.compile(r"^\$ (?:printf ('(?:[^'\\]|\\.)*') \| )?fantasyland (.*)$")
#: The bots' laboratory, which a notes page's transcript may run: its arguments keep this
#: prefix, so that ``run`` knows them.
TOOL = "python tools/bots.py "
RULES_FILE = re.compile(r"# (\S+\.toml)")

runner = CliRunner()


def page_id(page: Path) -> str:
    return page.relative_to(REPO).as_posix()


def fenced(page: Path) -> list[tuple[str, str]]:
    """The page's fenced blocks as ``(language, body)``, the body without the fence's indent."""
    return [(lang, re.sub(rf"^{indent}", "", body, flags=re.MULTILINE))
            for indent, lang, body in FENCE.findall(page.read_text(encoding="utf-8"))]


def blocks(page: Path, *languages: str) -> list[str]:
    return [body for lang, body in fenced(page) if lang in languages]


def rules_files() -> dict[str, str]:
    """Every rules file the pages define, by file name."""
    files: dict[str, str] = {}
    for page in PAGES:
        for body in blocks(page, "toml"):
            match = RULES_FILE.match(body)
            assert match, f"{page_id(page)}: a toml block must start with '# NAME.toml'"
            files[match.group(1)] = body
    return files


@pytest.fixture
def example_dir(tmp_path, monkeypatch) -> Path:
    """An empty directory holding the pages' rules files, where the examples run."""
    for name, body in rules_files().items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def printf_text(argument: str) -> str:
    """What ``printf ARGUMENT`` prints, for the escapes the examples use."""
    text = shlex.split(argument)[0]
    assert "%" not in text, "printf formats are not supported here"
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}[m.group(1)], text)


def transcript(body: str) -> list[tuple[str, str | None, str]]:
    """A block as ``(arguments, stdin, expected output)`` per ``$`` command."""
    commands: list[tuple[str, str | None, str]] = []
    lines = body.splitlines(keepends=True)
    assert lines and lines[0].startswith("$ "), f"a transcript starts with '$ ':\n{body}"
    for line in lines:
        if line.startswith("$ "):
            if line.startswith("$ " + TOOL):
                commands.append((line[2:].rstrip("\n"), None, ""))
                continue
            prompt = PROMPT.match(line.rstrip("\n"))
            assert prompt, f"not a command the tests can run: {line!r}"
            stdin = printf_text(prompt.group(1)) if prompt.group(1) else None
            commands.append((prompt.group(2), stdin, ""))
        else:
            arguments, stdin, output = commands[-1]
            commands[-1] = (arguments, stdin, output + line)
    return commands


def run(arguments: str, stdin: str | None) -> str:
    if arguments.startswith(TOOL):
        from tests.lab import bots

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert bots.main(shlex.split(arguments.removeprefix(TOOL))) == 0, arguments
        return out.getvalue()
    result = runner.invoke(app, shlex.split(arguments), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"fantasyland {arguments} raised {result.exception!r}")
    return result.output


def untimed(text: str) -> str:
    return re.sub(r"in \d+ ms", "in N ms", text)


def strip_code(text: str) -> str:
    """The page without fenced blocks and inline code, where links and headings are not."""
    return re.sub(r"`[^`]+`", "", FENCE.sub("", text))  # a code span may wrap a line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#* *$", text, re.MULTILINE):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)",
                      strip_code(page.read_text(encoding="utf-8")))


pages = pytest.mark.parametrize("page", PAGES, ids=page_id)


# --- the pages -----------------------------------------------------------------------------

def test_readme_is_a_short_landing_page():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the manual is docs/"


def test_readme_quick_start_solves_checks_and_trains():
    commands = [arguments.split()[0] for body in blocks(README, "console", "text")
                for arguments, _, _ in transcript(body)]
    assert {"solve", "check", "train"} <= set(commands)


@pages
def test_page_starts_with_a_title(page):
    assert re.match(r"# \S", page.read_text(encoding="utf-8")), "a page starts with '# Title'"


def test_the_manual_index_and_the_readme_link_every_page():
    index = {target.partition("#")[0] for target in links(DOCS / "README.md")}
    from_readme = {target.partition("#")[0] for target in links(README)}
    for page in DOCS.glob("*.md"):
        if page.name != "README.md":
            assert page.name in index, f"docs/README.md does not list {page.name}"
            assert f"docs/{page.name}" in from_readme, f"README.md does not link {page.name}"


# --- the examples --------------------------------------------------------------------------

@pages
def test_rules_file_examples_load_under_their_name_and_change_their_base(page, tmp_path):
    for body in blocks(page, "toml"):
        path = tmp_path / RULES_FILE.match(body).group(1)
        path.write_text(body, encoding="utf-8")
        rules, written = load_rules(path), tomllib.loads(body)
        assert rules.name == written.get("name", path.stem), path.name
        assert rules.description == written.get("description", ""), path.name
        base = find_rules(written["base"])
        # A file whose keys were all dropped on loading would be its base under a new name.
        assert replace(rules, name=base.name, description=base.description,
                       aliases=base.aliases) != base, f"{path.name} changes nothing of its base"


def test_every_rules_file_is_used_by_an_example_that_runs():
    # What a file changes is shown, and checked, by the output of a command that uses it.
    used = {word for page in PAGES for body in blocks(page, "console", "text")
            if body.startswith("$ ") for arguments, _, _ in transcript(body)
            for word in shlex.split(arguments)}
    unused = sorted(set(rules_files()) - used)
    assert not unused, f"no example that runs uses {', '.join(unused)}"


def test_no_two_pages_define_one_rules_file_differently():
    seen: dict[str, tuple[str, str]] = {}
    for page in PAGES:
        for body in blocks(page, "toml"):
            name = RULES_FILE.match(body).group(1)
            if name in seen:
                assert seen[name][1] == body, f"{name}: {seen[name][0]} and {page_id(page)}"
            seen[name] = (page_id(page), body)


@pages
def test_console_examples_print_what_the_page_shows(page, example_dir):
    for body in blocks(page, "console"):
        for arguments, stdin, expected in transcript(body):
            assert run(arguments, stdin) == expected, f"$ {arguments}"


@pages
def test_text_examples_print_what_the_page_shows_but_the_time(page, example_dir):
    for body in blocks(page, "text"):
        if body.startswith("$ "):
            for arguments, stdin, expected in transcript(body):
                assert untimed(run(arguments, stdin)) == untimed(expected), (
                    f"$ fantasyland {arguments}")


@pages
def test_python_examples_print_what_the_page_shows(page, example_dir):
    namespace: dict = {}
    parser, runner_ = doctest.DocTestParser(), doctest.DocTestRunner()
    for number, body in enumerate(blocks(page, "python"), 1):
        example = parser.get_doctest(body, namespace, f"{page_id(page)}, python block {number}",
                                     page_id(page), 0)
        assert any(step.want for step in example.examples), (
            f"python block {number} shows no result: write it as a session, '>>> ' before "
            "each statement and what it prints after it, so that the test compares them")
        report: list[str] = []
        result = runner_.run(example, out=report.append, clear_globs=False)
        assert result.failed == 0, "".join(report)
        namespace = example.globs  # the page's next block goes on from this one


@pages
def test_no_command_example_goes_unrun(page):
    problems = []
    for lang, body in fenced(page):
        runs = lang == "console" or (lang == "text" and body.startswith("$ "))
        command = COMMAND_LINE.search(body)
        if not runs and lang != NOT_RUN and command:
            problems.append(f"a ```{lang} block holds {command.group(0).strip()!r}, which no "
                            "test runs: show it in ```console or, if its output cannot be "
                            "reproduced, in ```sh")
    assert not problems, "\n".join(problems)


# --- the links -----------------------------------------------------------------------------

@pages
def test_relative_links_lead_to_a_file_and_heading_that_exist(page):
    problems = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(REPO):
            problems.append(f"{target}: leads out of the repository")
        elif not file.exists():
            problems.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{target}: no heading {anchor!r} in {page_id(file)}")
    assert not problems, "\n".join(problems)


def test_every_json_schema_is_listed_in_the_json_page():
    linked = set(re.findall(r"\(\.\./cli/schemas/([\w.-]+\.schema\.json)\)",
                            (DOCS / "json.md").read_text(encoding="utf-8")))
    shipped = {path.name for path in (REPO / "cli" / "schemas").glob("*.schema.json")}
    assert shipped and linked == shipped
