"""The options every command shares: one name per concept, one meaning per name
(docs/options.md), the old spellings, and the bad input every command refuses alike."""

from __future__ import annotations

import re
import sys
import typing
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from fantasyland.cli.command import RENAMED
from fantasyland.cli.main import app
from fantasyland.cli.options import PER_COMMAND, WORKERS_DEFAULT
from fantasyland.evaluator.rules_files import MAX_POINTS

runner = CliRunner()
GROUP = typer.main.get_command(app)
# Every command, loaded (the group imports a command's module only when it is asked for).
COMMANDS = {name: GROUP.get_command(typer.Context(GROUP), name)
            for name in sorted(GROUP.list_commands(typer.Context(GROUP)))}
HAND_14 = "As Kd Qh Jc Ts 9s 8h 7d 6c 5s 4h 3d 2c 2s"
#: What each command needs on its command line besides the option under test.
NEEDS = {"solve": [HAND_14], "check": [HAND_14, "--set", "As Kd Qh / Jc Ts 9s 8h 7d / "
                                                  "6c 5s 4h 3d 2c"],
         "score": ["As Kd Qh / Jc Ts 9s 8h 7d / 6c 5s 4h 3d 2c"],
         "advise": ["--board", "Qh / 7c 8c / 2s 2d", "--cards", "Kd Qs 3h"],
         "review": [str(Path(__file__).resolve().parents[1] / "fixtures" / "review"
                        / "progressive-hand.jsonl")]}


def options(command, hidden: bool = False) -> list:
    return [p for p in command.params
            if p.param_type_name == "option" and bool(p.hidden) == hidden]


def _value_type(param) -> str:
    """The type of one value of an option: ``int`` for ``--samples 200`` and for a repeatable
    ``--samples 200 --samples 2000`` alike (whether it repeats is a fact of its own)."""
    annotation = param.type_descriptor.annotation
    if typing.get_origin(annotation) is list:
        annotation = typing.get_args(annotation)[0]
    kinds = [a for a in typing.get_args(annotation) if a is not type(None)] or [annotation]
    return " | ".join(getattr(kind, "__name__", repr(kind)) for kind in kinds)


def facts(command, param) -> dict[str, object]:
    """What an option is, as the help and the parser see it."""
    ctx = command.make_context(command.name, [], resilient_parsing=True)
    shown = param.show_default if isinstance(param.show_default, str) else None
    return {
        "type": (_value_type(param), param.is_flag),
        "repeatable": param.multiple,  # bench's --samples takes several counts, one each
        "range": (param.min, param.max),
        # what a value must be besides its type and range (Typer wraps each callback anew)
        "check": getattr(param.callback, "__wrapped__", param.callback),
        "default": (param.default, shown),
        "help": param.help,
        "help line": param.get_help_record(ctx),  # what --help prints for it, default included
    }


def by_name() -> dict[str, dict[str, dict[object, list[str]]]]:
    """option name -> fact -> value -> the commands where the option has that value."""
    seen: dict = {}
    for name, command in COMMANDS.items():
        for param in options(command):
            for fact, value in facts(command, param).items():
                seen.setdefault(param.opts[0], {}).setdefault(fact, {}).setdefault(
                    repr(value), []).append(name)
    return seen


def test_each_option_name_means_one_thing_in_every_command():
    differ = []
    for option, known in by_name().items():
        allowed = PER_COMMAND.get(option, ())
        for fact, values in known.items():
            # the help line shows the default and the range: allowed where they are
            may = fact in allowed or (fact == "help line" and allowed)
            if len(values) > 1 and not may:
                differ.append(f"{option} {fact}: {values}")
    assert differ == []


def test_the_options_allowed_to_differ_by_command_do_differ():
    # PER_COMMAND lists only what is needed: an allowance that no command uses is stale.
    seen = by_name()
    for option, allowed in PER_COMMAND.items():
        assert option in seen, option
        for fact in allowed:
            assert len(seen[option][fact]) > 1, (option, fact)
        assert len(seen[option]["type"]) == 1, option  # never the type


def test_batch_shows_for_the_options_it_shares_with_solve_what_solve_shows():
    batch, solve = COMMANDS["batch"], COMMANDS["solve"]
    shared = {p.opts[0] for p in options(batch)} & {p.opts[0] for p in options(solve)}
    assert {"--objective", "--samples", "--opponents", "--seed", "--fl-value",
            "--time-limit", "--variant"} <= shared
    for option in shared - set(PER_COMMAND):
        ours = next(p for p in options(batch) if p.opts[0] == option)
        theirs = next(p for p in options(solve) if p.opts[0] == option)
        assert facts(batch, ours) == facts(solve, theirs), option
    batch_help = runner.invoke(app, ["batch", "--help"], env={"COLUMNS": "200"}).output
    assert "<royalties|ev>" in batch_help and "[1<=x<=100000]" in batch_help


def test_a_count_of_hands_is_hands_in_every_command_and_parallelism_is_workers():
    visible = {name: {p.opts[0] for p in options(command)} for name, command in COMMANDS.items()}
    for name in ("deal", "bench", "batch", "value", "train", "opponents", "play"):
        assert "--hands" in visible[name], name
    for name in ("batch", "opponents", "value"):
        assert "--workers" in visible[name], name
    for old in RENAMED:  # no old spelling is shown, but --samples where it is opponent deals
        shown_in = {name for name, names in visible.items() if old in names}
        assert shown_in == ({"solve", "check", "train", "batch", "bench", "opponents", "advise",
                             "play"}
                            if old == "--samples" else set())
    workers = [p for command in COMMANDS.values() for p in options(command)
               if p.opts[0] == "--workers"]
    assert {(p.default, p.show_default) for p in workers} == {(None, WORKERS_DEFAULT)}


def test_every_old_spelling_is_hidden_and_parses_as_its_new_name_does():
    found = set()
    for name, command in COMMANDS.items():
        for old in options(command, hidden=True):
            new_name = RENAMED[old.opts[0]]
            new = next(p for p in options(command) if p.opts[0] == new_name)
            assert (old.min, old.max, old.callback) == (new.min, new.max, new.callback), name
            found.add((name, old.opts[0]))
    assert found == {("value", "--samples"), ("value", "--jobs"), ("deal", "--count"),
                     ("train", "--rounds"), ("batch", "--bench-hands"),
                     ("opponents", "--boards")}


@pytest.mark.parametrize("old, new, stdin", [
    (["deal", "--count", "3", "--seed", "7"], ["deal", "--hands", "3", "--seed", "7"], None),
    (["train", "--variant", "pineapple", "--seed", "4", "--rounds", "1"],
     ["train", "--variant", "pineapple", "--seed", "4", "--hands", "1"], "q\n"),
    (["opponents", "--variant", "standard", "--boards", "300", "--json"],
     ["opponents", "--variant", "standard", "--hands", "300", "--json"], None),
    (["value", "--variant", "standard", "--samples", "2", "--jobs", "1", "--json"],
     ["value", "--variant", "standard", "--hands", "2", "--workers", "1", "--json"], None),
], ids=["deal", "train", "opponents", "value"])
def test_an_old_spelling_still_works_and_notes_the_new_name(old, new, stdin):
    then, now = runner.invoke(app, old, input=stdin), runner.invoke(app, new, input=stdin)
    assert then.exit_code == now.exit_code == 0, then.output
    assert then.stdout == now.stdout
    notes = [f"note: {option} is now {RENAMED[option]}" for option in old if option in RENAMED]
    assert notes and then.stderr.splitlines()[:len(notes)] == notes
    assert "note:" not in now.stderr


def test_batch_bench_hands_is_now_hands():
    result = runner.invoke(app, ["batch", "--bench", "--bench-hands", "1", "--workers", "1",
                                 "--objective", "royalties"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("note: --bench-hands is now --hands\n")
    assert "1 seeded random hands per row" in result.stdout


def test_an_old_spelling_and_its_new_name_together_are_refused():
    result = runner.invoke(app, ["deal", "--count", "2", "--hands", "3"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("error: --count and --hands given together: --count is the old "
                             "spelling of --hands; give --hands only (see `fantasyland deal "
                             "--help`)\n")


def test_every_seed_defaults_to_0_but_train_s_which_is_fresh_and_printed():
    seeds = {name: p for name, command in COMMANDS.items() for p in options(command)
             if p.opts[0] == "--seed"}
    assert set(seeds) == {"advise", "batch", "bench", "check", "deal", "opponents", "play",
                          "review", "solve", "train", "value"}
    assert {name: p.default for name, p in seeds.items() if name != "train"} == \
        dict.fromkeys(set(seeds) - {"train"}, 0)
    assert seeds["train"].default is None
    # train says the seed it drew, and that seed replays the session
    first = runner.invoke(app, ["train", "--variant", "pineapple", "--hands", "1"], input="q\n")
    seed = re.search(r"seed (\d+);", first.stdout).group(1)
    again = runner.invoke(app, ["train", "--variant", "pineapple", "--hands", "1", "--seed",
                                seed], input="q\n")
    hand = re.compile(r"Hand 1 .*")
    assert hand.search(first.stdout).group() == hand.search(again.stdout).group()


def test_deal_bench_and_opponents_default_to_seed_0():
    assert runner.invoke(app, ["deal", "--hands", "3"]).stdout == \
        runner.invoke(app, ["deal", "--hands", "3", "--seed", "0"]).stdout
    stats = runner.invoke(app, ["opponents", "--variant", "standard", "--hands", "200",
                                "--json"]).stdout
    assert stats == runner.invoke(app, ["opponents", "--variant", "standard", "--hands", "200",
                                        "--json", "--seed", "0"]).stdout
    assert stats != runner.invoke(app, ["opponents", "--variant", "standard", "--hands", "200",
                                        "--json", "--seed", "1"]).stdout


def test_no_help_shows_a_value_for_a_flag():
    for args in [[], *[[name] for name in COMMANDS]]:
        result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0
        assert "<bool>" not in result.output, args
        assert re.search(r"--help +Show this message", result.output), args
    solve = runner.invoke(app, ["solve", "--help"], env={"COLUMNS": "200"}).output
    assert re.search(r"--json +Print JSON", solve)


def _error(command: str, *args: str, batch: Path | None = None) -> str:
    """The one line a command prints for ``args``; ``batch`` is where it may write."""
    needs = NEEDS.get(command, [])
    if command == "batch" and batch is not None:
        needs = ["-", "-o", str(batch / "out.jsonl")]
    result = runner.invoke(app, [command, *needs, *args], input="")
    assert result.exit_code == 2 and result.stdout == "", (command, result.output)
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.replace(f"`fantasyland {command} --help`", "`... --help`")


@pytest.mark.parametrize("args", [
    ["--samples", "0"], ["--seed", "-1"], ["--opponents", "3"], ["--objective", "money"],
    ["--fl-value", "-1"], ["--workers", "0"], ["--time-limit", "0"], ["--variant", "holdem"],
], ids=lambda args: args[0])
def test_a_bad_value_gets_the_same_error_from_every_command(args, tmp_path):
    having = [name for name, command in COMMANDS.items()
              if any(p.opts[0] == args[0] for p in options(command))]
    assert len(having) >= 2
    errors = {name: _error(name, *args, batch=tmp_path) for name in having}
    assert len(set(errors.values())) == 1, errors


def test_fl_value_beyond_the_rules_files_bound_is_refused_by_every_command():
    from fantasyland.optimizer import ObjectiveError, solve
    from fantasyland.optimizer.solver.objective import check_fl_value

    having = [name for name, command in COMMANDS.items()
              if any(p.opts[0] == "--fl-value" for p in options(command))]
    assert set(having) == {"batch", "bench", "check", "solve", "train"}
    for value in ("1e308", str(MAX_POINTS + 0.5), "inf", "nan"):
        errors = {_error(name, "--fl-value", value) for name in having}
        assert len(errors) == 1 and "'--fl-value'" in errors.pop(), value
    top = runner.invoke(app, ["solve", HAND_14, "--objective", "royalties", "--fl-value",
                              str(MAX_POINTS)])
    assert top.exit_code == 0, top.output
    with pytest.raises(ObjectiveError, match=f"expected points from 0 to {MAX_POINTS}"):
        check_fl_value(1e308)
    with pytest.raises(ObjectiveError, match="bad fl_value"):
        solve(HAND_14, variant="pineapple", objective="royalties", fl_value=MAX_POINTS + 1)


def test_a_rules_file_with_no_base_and_no_tables_is_refused_in_every_command(tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x.toml").write_text('name = "x"\n', encoding="utf-8")
    Path("hands.txt").write_text(HAND_14 + "\n", encoding="utf-8")
    expected = ('error: x.toml: it has no base and no tables; expected base = "<preset>" (one '
                "of chinese, deuce, double-deck, pineapple, pineapple-joker, progressive, "
                "progressive-joker, standard, ultimate) or tables of its own "
                "([royalties], [fantasyland], ...)\n")
    extra = {"batch": ["hands.txt", "-o", "out.jsonl", "--workers", "1"]}
    having = [name for name, command in COMMANDS.items()
              if any(p.opts[0] == "--variant" for p in options(command))]
    assert len(having) == 12
    for name in having:
        result = runner.invoke(app, [name, *NEEDS.get(name, []), *extra.get(name, []),
                                     "--variant", "x.toml"], input="")
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected), name
    assert not Path("out.jsonl").exists()


def test_a_closed_stdin_is_one_line_for_train():
    result = _closed_stdin("train", "--seed", "1")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("error: standard input is closed: train reads each set from it; "
                             "give it a terminal, or a file or pipe of sets a line each "
                             "(fantasyland train < sets.txt)\n")


def test_a_closed_stdin_is_one_line_for_batch(tmp_path):
    out = tmp_path / "out.jsonl"
    result = _closed_stdin("batch", "-", "-o", str(out))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: standard input is closed: batch - reads the hands "
                                    "from it;") and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the settings


@pytest.mark.parametrize("command", ["solve", "check", "score"])
def test_a_closed_stdin_is_one_line_for_a_hand_read_from_it(command):
    extra = {"check": ["--set", "x"]}.get(command, [])
    result = _closed_stdin(command, "-", *extra)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: standard input is closed: {command} - reads ")
    assert result.stderr.count("\n") == 1


def _closed_stdin(*args: str):
    """The command run as a user's shell runs it with ``<&-``: file descriptor 0 closed
    (``stdin=DEVNULL`` would be an empty input, not a closed one)."""
    import subprocess

    program = "import sys; sys.argv[0] = 'fantasyland'; from cli.main import app; app()"
    script = 'exec "$0" -c "$1" "${@:2}" <&-'
    result = subprocess.run(["bash", "-c", script, sys.executable, program, *args],
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr
    return result


DOCS = Path(__file__).resolve().parents[1] / "docs" / "options.md"


def _table_rows(heading: str) -> list[list[str]]:
    """The cells of the first table under ``heading`` in docs/options.md."""
    text = DOCS.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1]
    rows = [line for line in text.split("\n## ", 1)[0].splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]
            if not set(row) <= set("|- ")]


def test_the_options_page_lists_each_shared_option_in_the_commands_that_take_it():
    documented = {re.sub(r"[`]", "", row[0]): set(row[-1].split(", "))
                  for row in _table_rows("The shared options")}
    taken = {}
    for name, command in COMMANDS.items():
        for param in options(command):
            taken.setdefault(param.opts[0], set()).add(name)
    assert documented == {option: taken[option] for option in documented}
    shared = {option for option, names in taken.items() if len(names) > 1}
    assert shared - set(documented) == {"--cards", "--output"}  # by command, said below


def test_the_options_page_lists_every_old_spelling():
    documented = {(row[0].split()[0].strip("`"), row[1].strip("`"), row[2])
                  for row in _table_rows("Old spellings")}
    hidden = {(old.opts[0], RENAMED[old.opts[0]], name) for name, command in COMMANDS.items()
              for old in options(command, hidden=True)}
    assert documented == hidden
