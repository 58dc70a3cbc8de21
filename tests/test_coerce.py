"""The options' own coercion (``cli.coerce``): every parameter of every command has it, and it
reads what Typer's pydantic coercion reads, refusing what that refuses."""

import math
from enum import Enum
from pathlib import Path

import pytest
import typer
from typer._coercion import build_runtime_param
from typer.core import TyperCommand

from fantasyland.cli.coerce import PlainRuntimeParam, plain_coercion
from fantasyland.cli.main import OneLineErrors, _command_info, app, command_summaries


def every_parameter():
    group = typer.main.get_command(app)
    assert isinstance(group, OneLineErrors)
    yield "fantasyland", group, group.get_help_option(group.context_class(group))
    for param in group.params:
        yield "fantasyland", group, param
    for name in command_summaries():
        _command_info(name)
        command = group.get_command(None, name)
        yield name, command, command.get_help_option(command.context_class(command))
        yield from ((name, command, param) for param in command.params)


def test_every_parameter_of_every_command_is_read_without_pydantic():
    seen = set()
    for name, _, param in every_parameter():
        assert isinstance(param._runtime_param, PlainRuntimeParam), (name, param.name)
        seen.add((name, param.name))
    assert {name for name, _ in seen} == {"fantasyland", *command_summaries()}
    assert ("solve", "fl_value") in seen and ("batch", "cluster") in seen


class Colour(str, Enum):
    RED = "red"
    BLUE = "blue"


def parameter(annotation, **info):
    """A Typer command with one option ``--x`` of ``annotation``, its parameter given the
    plain coercion, and the same parameter's own Typer (pydantic) coercion."""
    def callback(x: annotation = typer.Option(None, "--x", **info)):  # type: ignore[valid-type]
        pass
    command = typer.main.get_command_from_info(
        typer.models.CommandInfo(name="c", callback=callback, cls=TyperCommand),
        pretty_exceptions_short=True, rich_markup_mode=None)
    (param,) = command.params
    theirs = build_runtime_param(param.type_descriptor)
    plain_coercion([param])
    assert isinstance(param._runtime_param, PlainRuntimeParam)
    return param, param._runtime_param, theirs


def outcome(runtime, param, value):
    try:
        return "ok", runtime.coerce(value, param=param, ctx=None)
    except typer.BadParameter:
        return "refused", None


CASES = [
    (int, {}, ["0", "7", "-3", " 12 ", "+4", "1_000", "", "1.5", "abc", "1e3", "0x10"]),
    (int, {"min": 1, "max": 2}, ["0", "1", "2", "3", "-1"]),
    (int, {"min": 0}, ["-1", "0", "99999999999"]),
    (float, {}, ["0", "1.5", "-2", "1e3", " 2.5 ", "inf", "nan", "abc", ""]),
    (float, {"min": 0, "max": 1000}, ["-5", "0", "1000", "1000.01", "nan", "inf", "12.5"]),
    (str, {}, ["", "As Kd", " x "]),
    (Colour, {}, ["red", "RED", "blue", "green", ""]),
    (Colour, {"case_sensitive": False}, ["RED", "Blue", "green"]),
    (bool, {}, ["true", "False", "yes", "0", "1", "on", "maybe"]),
]


@pytest.mark.parametrize("annotation, info, values", CASES,
                         ids=[f"{a.__name__}-{i}" for a, i, _ in CASES])
def test_a_value_is_read_as_typer_reads_it(annotation, info, values):
    param, ours, theirs = parameter(annotation, **info)
    for value in values:
        got, expected = outcome(ours, param, value), outcome(theirs, param, value)
        if expected[0] == "ok" and isinstance(expected[1], float) and math.isnan(expected[1]):
            assert got[0] == "ok" and math.isnan(got[1]), value
        else:
            assert got == expected, value


def test_a_list_is_read_item_by_item_and_refused_at_its_first_bad_item():
    param, ours, theirs = parameter(list[int], min=1)
    assert outcome(ours, param, ("1", "2")) == outcome(theirs, param, ("1", "2")) == \
        ("ok", [1, 2])
    assert outcome(ours, param, ("1", "0"))[0] == outcome(theirs, param, ("1", "0"))[0] == \
        "refused"


def test_a_path_keeps_typers_checks(tmp_path):
    param, ours, theirs = parameter(Path, dir_okay=False)
    file = tmp_path / "hands.txt"
    file.write_text("")
    for value in (str(file), str(tmp_path / "missing.txt")):
        assert outcome(ours, param, value) == outcome(theirs, param, value) == \
            ("ok", Path(value))
    assert outcome(ours, param, str(tmp_path)) == outcome(theirs, param, str(tmp_path)) == \
        ("refused", None)


@pytest.mark.parametrize("value, message", [
    ("-5", "'-5' is out of range: expected 0 to 1000"),
    ("nan", "'nan' is out of range: expected 0 to 1000"),
    ("lots", "'lots' is not a number"),
])
def test_a_bad_value_is_named_as_it_was_typed(value, message):
    param, ours, _ = parameter(float, min=0, max=1000)
    with pytest.raises(typer.BadParameter) as refused:
        ours.coerce(value, param=param, ctx=None)
    assert str(refused.value.message) == message


def test_a_parameter_with_a_parser_keeps_typers_coercion():
    def callback(x: int = typer.Option(0, "--x", parser=int)):
        pass
    command = typer.main.get_command_from_info(
        typer.models.CommandInfo(name="c", callback=callback, cls=TyperCommand),
        pretty_exceptions_short=True, rich_markup_mode=None)
    plain_coercion(command.params)
    assert command.params[0]._runtime_param is None  # Typer builds its own, when asked
