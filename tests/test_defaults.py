"""One story for defaults: every command plays pineapple and values a set by ev, a player's
config file changes that for all of them, and an option on the command line wins over both
(cli/defaults.py, docs/options.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from fantasyland.cli.defaults import BUILT_IN, CONFIG_VARIABLE
from fantasyland.cli.main import app

runner = CliRunner()
GROUP = typer.main.get_command(app)
COMMANDS = {name: GROUP.get_command(typer.Context(GROUP), name)
            for name in sorted(GROUP.list_commands(typer.Context(GROUP)))}
#: The README's hand, and the set that solve finds for it.
HAND = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
OPTIMAL = "Ah Ac Ts / Kd Qh Qd 7h 7c / As 5s 4s 3s 2s"
REVIEW = str(Path(__file__).resolve().parents[1] / "fixtures" / "review"
             / "progressive-hand.jsonl")


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A function that writes ``text`` as the config file FANTASYLAND_CONFIG names."""
    path = tmp_path / "config.toml"

    def write(text: str) -> Path:
        path.write_text(text, encoding="utf-8")
        monkeypatch.setenv(CONFIG_VARIABLE, str(path))
        return path

    yield write
    # The web's jobs read the defaults once a process: the file's must not outlive the test.
    from fantasyland.cli.web import jobs

    jobs.defaults.cache_clear()


def _option(command, name: str):
    return next((p for p in command.params if name in getattr(p, "opts", ())), None)


def run(*args: str, stdin: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def run_json(*args: str) -> dict:
    return json.loads(run(*args, "--json"))


def test_every_command_defaults_to_the_same_variant():
    having = {name: _option(command, "--variant").default for name, command in COMMANDS.items()
              if _option(command, "--variant") is not None}
    assert len(having) == 13
    assert set(having.values()) == {BUILT_IN["variant"]} == {"pineapple"}


def test_every_command_defaults_to_ev_but_bench_which_times_its_own_objective():
    having = {name: _option(command, "--objective").default
              for name, command in COMMANDS.items() if _option(command, "--objective")}
    assert set(having) == {"advise", "batch", "bench", "check", "play", "review", "solve",
                           "train", "value"}
    assert {having.pop("bench")} == {None}  # royalties, or ev without Fantasyland
    assert {value.value for value in having.values()} == {BUILT_IN["objective"]} == {"ev"}


def test_the_config_file_wins_over_the_built_in_defaults_and_the_command_line_over_it(config):
    assert (run_json("solve", HAND)["variant"], run_json("solve", HAND)["objective"]) == \
        ("pineapple", "ev")
    config('variant = "progressive"\nobjective = "royalties"\nfl_value = 10\n')
    solved = run_json("solve", HAND)
    assert (solved["variant"], solved["objective"], solved["fl_value"]) == \
        ("progressive", "royalties", 10)
    assert solved["value"] == 24 + 10
    given = run_json("solve", HAND, "--variant", "standard", "--objective", "ev",
                     "--fl-value", "5")
    assert (given["variant"], given["objective"], given["fl_value"]) == ("standard", "ev", 5)


def test_a_rules_file_in_the_config_is_found_beside_it(config, tmp_path):
    (tmp_path / "house.toml").write_text('name = "house"\nbase = "pineapple"\n',
                                         encoding="utf-8")
    config('variant = "house.toml"\n')
    assert run_json("score", OPTIMAL)["variant"] == "house"


def test_config_prints_each_default_and_where_it_came_from(config, no_player_config):
    usual = no_player_config / "fantasyland" / "config.toml"
    assert run("config") == (
        f"Config file: {usual} (from XDG_CONFIG_HOME), which does not exist: the built-in "
        "defaults hold\n"
        "variant    pineapple                      built-in default\n"
        "objective  ev                             built-in default\n"
        "opponents  the variant's table            built-in default\n"
        "fl_value   the variant's                  built-in default\n"
        "samples    solve's (2000; 40 in chinese)  built-in default\n")
    path = config('variant = "prog"\nsamples = 500\nfl_value = 12.5\n')
    assert run("config") == (
        f"Config file: {path} (named by FANTASYLAND_CONFIG)\n"
        f"variant    prog                 config file {path}\n"
        "objective  ev                   built-in default\n"
        "opponents  the variant's table  built-in default\n"
        f"fl_value   12.5                 config file {path}\n"
        f"samples    500                  config file {path}\n")


def test_the_usual_place_is_under_xdg_config_home(no_player_config):
    usual = no_player_config / "fantasyland" / "config.toml"
    usual.parent.mkdir()
    usual.write_text('objective = "royalties"\n', encoding="utf-8")
    try:
        assert re.search(rf"^objective +royalties +config file {re.escape(str(usual))}$",
                         run("config"), re.MULTILINE)
        assert run_json("solve", HAND)["objective"] == "royalties"
    finally:
        usual.unlink()


@pytest.mark.parametrize("text, message", [
    ('variant = "pineapple', "not a TOML file: "),
    ('varient = "pineapple"\n', "unknown key 'varient': expected variant, objective, "
                                "opponents, fl_value, samples"),
    ('variant = "holdem"\n', 'bad variant "holdem": expected a preset ('),
    ('variant = "missing.toml"\n', 'bad variant "missing.toml": expected a preset ('),
    ('objective = "money"\n', 'bad objective "money": expected "ev" or "royalties"'),
    ("opponents = 0\n", "bad opponents 0: expected a whole number from 1 to 5"),
    ("opponents = 1.5\n", "bad opponents 1.5: expected a whole number from 1 to 5"),
    ("fl_value = -1\n", "bad fl_value -1: expected points from 0 to 1000"),
    ("fl_value = nan\n", "bad fl_value NaN: expected points from 0 to 1000"),
    ("samples = true\n", "bad samples true: expected a whole number from 1 to 100000"),
], ids=["toml", "unknown-key", "variant", "variant-file", "objective", "opponents",
        "opponents-float", "fl_value", "fl_value-nan", "samples"])
@pytest.mark.parametrize("args", [["solve", HAND], ["score", OPTIMAL], ["config"]],
                         ids=lambda args: args[0])
def test_a_bad_config_file_is_one_line_naming_the_file_and_the_key(config, text, message,
                                                                   args):
    path = config(text)
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.startswith(f"error: {path}: {message}")
    assert result.stderr.count("\n") == 1


def test_a_config_file_that_fantasyland_config_names_must_exist(monkeypatch, tmp_path):
    monkeypatch.setenv(CONFIG_VARIABLE, str(tmp_path / "gone.toml"))
    result = runner.invoke(app, ["config"])
    assert result.exit_code == 2 and result.stderr == (
        f"error: {tmp_path / 'gone.toml'}: no such file (named by FANTASYLAND_CONFIG); "
        "expected a TOML file of defaults, or unset it\n")


def test_train_ordinary_leaves_the_config_file_s_worth_of_staying_to_fantasyland(config):
    config("fl_value = 10\n")
    out = run("train", "--ordinary", "--seed", "1", "--hands", "1", stdin="q\n")
    assert out.startswith("Training")
    refused = runner.invoke(app, ["train", "--ordinary", "--fl-value", "10"], input="q\n")
    assert refused.exit_code == 2 and "'--fl-value'" in refused.stderr


def test_bench_keeps_its_own_objective_and_takes_the_file_s_samples(config):
    config('objective = "ev"\nsamples = 30\n')
    timed = run_json("bench", "--cards", "14", "--hands", "1")
    assert timed["objective"] == "royalties"  # bench times what it always timed
    timed = run_json("bench", "--cards", "14", "--hands", "1", "--objective", "ev")
    assert timed["objective"] == "ev" and timed["groups"][0]["samples"] == 30


def test_batch_keeps_the_config_file_s_settings_with_its_output(config, tmp_path):
    hands, out = tmp_path / "hands.txt", tmp_path / "out.jsonl"
    hands.write_text(HAND + "\n", encoding="utf-8")
    config("samples = 20\n")
    assert runner.invoke(app, ["batch", str(hands), "-o", str(out), "--workers", "1",
                               "--no-progress"]).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["ev"]["samples"] == 20
    config("samples = 21\n")  # another file's samples would solve the rest otherwise
    result = runner.invoke(app, ["batch", str(hands), "-o", str(out), "--workers", "1"])
    assert result.exit_code == 2 and "was written with --samples 20, not 21" in result.stderr


# --- every command, one story -----------------------------------------------------------------

def _web(job: str, body: dict) -> dict:
    """What the browser's API answers (its job, run here), as a fresh server would."""
    from fantasyland.cli.web import jobs
    from fantasyland.cli.web.api import ENDPOINTS
    from fantasyland.cli.web.fields import read_fields

    jobs.defaults.cache_clear()  # read once a process: this process has changed its file
    [endpoint] = [e for e in ENDPOINTS if e.job == job]
    return jobs.JOBS[job](read_fields(body, endpoint.fields))


def _story() -> dict[str, tuple]:
    """(variant, objective, value) of the README hand as each command tells it; the value
    is that of solve's set, where a command values one."""
    solved = run_json("solve", HAND)
    checked = run_json("check", HAND, "--set", OPTIMAL)
    assert checked["is_optimal"]
    web_solved = _web("solve", {"cards": HAND})
    web_checked = _web("check", {"cards": HAND, "set": OPTIMAL})
    trained = run("train", "--seed", "1", "--hands", "1", stdin="q\n")
    variant, objective = re.match(r"Training: ([^,]+), (\w+) objective", trained).groups()
    told = {
        "solve": (solved["variant"], solved["objective"], solved["value"]),
        "check": (checked["variant"], checked["objective"], checked["value"]),
        "web solve": (web_solved["variant"], web_solved["objective"], web_solved["value"]),
        "web check": (web_checked["variant"], web_checked["objective"],
                      web_checked["value"]),
        "train": (variant, objective, solved["value"]),
    }
    valued = run_json("value", "--hands", "2", "--workers", "1")
    told["value"] = (valued["variant"], valued["objective"], solved["value"])
    advised = run_json("advise", "--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs 3h")
    told["advise"] = (advised["variant"], advised["objective"], solved["value"])
    reviewed = run_json("review", REVIEW)
    told["review"] = (reviewed["decisions"][0]["variant"], reviewed["objective"],
                      solved["value"])
    scored = run_json("score", OPTIMAL)
    told["score"] = (scored["variant"], solved["objective"], solved["value"])
    return told


def _agree(told: dict[str, tuple]) -> tuple:
    assert len(set(told.values())) == 1, told
    return next(iter(told.values()))


def test_every_command_tells_the_readme_hand_alike_under_the_built_in_defaults():
    variant, objective, value = _agree(_story())
    assert (variant, objective, round(value, 2)) == ("pineapple", "ev", 37.6)


def test_every_command_tells_the_readme_hand_alike_under_a_config_file(config):
    config('variant = "progressive"\nobjective = "royalties"\nfl_value = 10\n')
    variant, objective, value = _agree(_story())
    assert (variant, objective, value) == ("progressive", "royalties", 24 + 10)
    config('variant = "prog"\nopponents = 2\nsamples = 500\n')
    variant, objective, value = _agree(_story())
    assert (variant, objective) == ("progressive", "ev")
    assert run_json("solve", HAND, "--opponents", "2", "--samples", "500",
                    "--variant", "progressive")["value"] == value


def test_the_group_s_help_names_every_preset_and_the_one_story():
    """``fantasyland --help`` named five of the nine presets, in a docstring Typer never
    showed (the group's own help text won over it)."""
    from fantasyland.evaluator import preset_names

    result = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    words = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 0
    for name in preset_names():
        assert re.search(rf"[ (]{re.escape(name)}[,)]", words), name
    assert "Every command plays pineapple and values a set by ev unless told otherwise" in words
