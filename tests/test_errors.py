"""One base for bad input: every refusal derives from ``InputError``, and the command line
and the browser app each catch it in one place, by that name alone.

Bad input was once decided by hand-kept lists of classes (the CLI's, the web app's, one per
command), and an error left off a list was a traceback instead of one line. Here every
exception class the package defines is found by importing every module, and the ``except``
clauses of ``cli/`` are read from the source.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import fantasyland
from fantasyland.evaluator import InputError
from tests.modules import every_module

REPO = Path(__file__).resolve().parents[1]

#: The exceptions the package defines that are not refused input, and why (their source
#: says so too).
NOT_INPUT = {
    "fantasyland.optimizer.batch.files.WorkerError": "a worker or the cluster failed",
    "fantasyland.cli.web.history.StoreError": "the browser's history store failed",
    "fantasyland.cli.web.app.SlowBody": "the body never came: 408, not 400",
    "fantasyland.cli.web.app.Answered": "a request answered early (time, load, a fault): "
                                        "it carries its answer",
    "fantasyland.cli.web.games.GameBusy": "the game's last step still runs: 409, not 400",
    "fantasyland.cli.web.workers.TimeLimit": "the job ran out of time: 504",
    "fantasyland.cli.web.workers.Gone": "the client went away: 499",
    "fantasyland.cli.web.workers.WorkerDied": "the worker died: 500",
    "fantasyland.cli.web.workers.Full": "the queue is full: 503",
}

#: ``except`` clauses of ``cli/`` that name a refusal other than the base: each turns the
#: library's error into another error of the same input, not into output.
TRANSLATED = {
    ("cli/deal.py", "SizeError"),  # Click's usage error, naming --cards
    ("cli/options.py", "SizeError"),  # the same, in --cards' callback
    ("cli/defaults.py", "FileError"),  # a ConfigError naming the config file
    ("cli/defaults.py", "RulesError"),  # a ConfigError naming the key
}

#: Where the base itself is caught: the command line's one place, and the worker's side of
#: the web app's (a refusal crosses the worker's pipe as ``("bad", message)``).
CATCHES_THE_BASE = {"cli/errors.py", "cli/web/jobs.py"}



def _exceptions() -> dict[str, type[BaseException]]:
    """Every exception class the package defines, by its dotted name."""
    found = {}
    for name in every_module():
        for value in vars(importlib.import_module(name)).values():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == name):
                found[f"{name}.{value.__qualname__}"] = value
    return found


EXCEPTIONS = _exceptions()


def _except_clauses(path: Path) -> list[tuple[int, str]]:
    """Each class an ``except`` clause of ``path`` names, with its line."""
    named = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            named += [(node.lineno, kind.id if isinstance(kind, ast.Name) else
                       kind.attr if isinstance(kind, ast.Attribute) else ast.unparse(kind))
                      for kind in kinds]
    return named


def test_the_walk_finds_the_errors_of_every_layer():
    assert {"fantasyland.evaluator.cards.CardError", "fantasyland.optimizer.solver.objective"
            ".ObjectiveError", "fantasyland.cli.web.fields.FieldError",
            "fantasyland.cli.defaults.ConfigError"} <= set(EXCEPTIONS)
    assert set(NOT_INPUT) <= set(EXCEPTIONS), "a class NOT_INPUT names is gone: drop it there"


@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_every_exception_is_refused_input_or_says_why_not(name):
    kind = EXCEPTIONS[name]
    if name in NOT_INPUT:
        assert not issubclass(kind, ValueError), name
    else:
        assert issubclass(kind, InputError), (
            f"{name} is not an InputError: derive it from fantasyland.evaluator.InputError, "
            "or list it in NOT_INPUT with the reason it is not bad input")


def test_the_base_is_a_value_error_on_the_face_and_every_error_there_derives_from_it():
    assert issubclass(InputError, ValueError)
    assert fantasyland.InputError is InputError
    errors = [name for name in fantasyland.__all__ if name.endswith("Error")]
    assert len(errors) >= 5
    assert all(issubclass(getattr(fantasyland, name), InputError) for name in errors), errors


def test_the_cli_and_the_web_app_catch_bad_input_by_the_base_alone():
    refusals = {kind.__name__ for kind in EXCEPTIONS.values() if issubclass(kind, InputError)}
    wrong, base = [], set()
    for path in sorted((REPO / "cli").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        for line, name in _except_clauses(path):
            if name == "InputError":
                base.add(relative)
            elif name in refusals and (relative, name) not in TRANSLATED:
                wrong.append(f"{relative}:{line} catches {name}")
    assert wrong == [], "catch InputError in one place (cli.errors.reports_bad_input)"
    assert base == CATCHES_THE_BASE


def test_the_web_app_answers_every_refusal_with_400_from_one_handler(tmp_path):
    from fantasyland.cli.web.app import BadRequest, Settings, create_app

    app = create_app(Settings(history=tmp_path / "history.sqlite"))
    handlers = [kind for kind in app.exception_handlers if isinstance(kind, type)
                and issubclass(kind, InputError)]
    assert handlers == [InputError]
    assert issubclass(BadRequest, InputError)
