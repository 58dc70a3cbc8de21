"""The JSON Schemas of the machine-readable output (``cli/schemas``): each is a valid
draft 2020-12 schema shipped as package data, the real output of every command (and every
answer of ``serve``'s own, from a real app) validates against its own, a mutated output does
not, and no schema goes untested.

Outputs are parsed strictly (``NaN`` and ``Infinity`` are not JSON), since a schema's
``number`` would let them through.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match
from referencing import Registry, Resource
from starlette.testclient import TestClient
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.cli.solve import solution_dict
from fantasyland.cli.web.app import Settings as ServeSettings
from fantasyland.cli.web.app import create_app
from fantasyland.evaluator import preset_names
from fantasyland.evaluator.cards import format_cards
from fantasyland.evaluator.strength import (CLASS_NAMES, DESCRIPTORS, LOW_DESCRIPTORS, hand_name,
                                lowball_name)
from fantasyland.optimizer.batch.engines import Engine, Settings
from fantasyland.optimizer.batch.run import run_batch
from fantasyland.optimizer.solver.solve import solve
from fantasyland.optimizer.training.session import Session

runner = CliRunner()

#: Schemas that hold shared definitions for the others, and describe no output themselves.
SHARED = {"common.schema.json"}

HAND = "As Ah Qs Jd Jc Ts 8s 8h 5s 5h 3s 3d 3c 2s"
#: The README's check example: the optimum stays (trips on top), the set shown does not.
STAYER = "Ad Ac Kc Jd Jc Tc 8s 8h 8c 6d 3s 3h 3c 2c"
STAYER_SET = "Ad Ac Jd / Kc Jc Tc 3c 2c / 8s 8h 8c 3s 3h"
STAYER_OPTIMUM = "3s 3h 3c / Ad Jd 8s 8h 8c / Ac Kc Jc Tc 2c"
STAYER_FOULED = "Ad Ac Jd / 8s 8h 8c 3s 3h / Kc Jc Tc 3c 2c"  # the full house sits over the flush
#: Under deuce no middle of these cards is a 10-high 2-7 low: every set fouls.
ALL_FOUL = "As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc Js"
ALL_FOUL_SET = "Ks Kh Js / Kd Qs Qh Qd Qc / As Ah Ad Ac Kc"
PRESETS = ("standard", "pineapple", "progressive", "ultimate", "deuce")
HOUSE = Path(__file__).resolve().parent.parent / "fixtures" / "house"


# --- loading -------------------------------------------------------------------------------

def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def strict_json(text: str) -> Any:
    return json.loads(text, parse_constant=_refuse_constant)


def schema_names() -> list[str]:
    return sorted(p.name for p in files("fantasyland.cli.schemas").iterdir()
                  if p.name.endswith(".schema.json"))


@cache
def schemas() -> dict[str, dict]:
    folder = files("fantasyland.cli.schemas")
    return {name: json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
            for name in schema_names()}


@cache
def registry() -> Registry:
    """Every schema by its ``$id``, so that relative ``$ref``s resolve offline."""
    return Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas().values())


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schemas()[name], registry=registry())


def rejections(name: str, document: Any) -> list[tuple[str, str, str]]:
    """What is wrong with ``document`` under a schema: (where, keyword, message) for each
    failure, ``where`` being a path in the document (``(root)`` for the top); for a ``oneOf``
    that no branch matches, the likeliest branch's failure."""
    found = []
    for error in validator(name).iter_errors(document):
        if error.context:
            error = best_match(error.context)
        where = "/".join(map(str, error.absolute_path)) or "(root)"
        found.append((where, str(error.validator), error.message[:300]))
    return found


def problems(name: str, document: Any) -> list[str]:
    return [f"{where}: [{keyword}] {message}"
            for where, keyword, message in rejections(name, document)]


# --- producing real output -----------------------------------------------------------------

def invoke(*args: str, stdin: str | None = None, code: int = 0) -> str:
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exit_code == code, result.output
    return result.stdout


def command_json(*args: str) -> list[Any]:
    return [strict_json(invoke(*args, "--json"))]


def jsonl(path: Path) -> list[Any]:
    return [strict_json(line) for line in path.read_text(encoding="utf-8").splitlines()]


#: A batch input with text and JSON lines, ids and none, per-line variants (one whose
#: every set fouls), and bad lines of several kinds.
BATCH_INPUT = "\n".join([
    f"h1 {HAND}",
    "As Kd Qh",  # too few cards
    json.dumps({"id": 7, "cards": STAYER.split(), "variant": "ultimate"}),
    json.dumps({"id": "d", "cards": ALL_FOUL, "variant": "deuce"}),
    "# a comment",
    "",
    json.dumps({"id": "x", "cards": 5}),
    "{bad json",
    json.dumps({"id": "v", "cards": HAND, "variant": "no-such-variant"}),
    f"h1 {STAYER}",  # duplicate id
    f"{STAYER} 9d 7d 4s",
]) + "\n"


class Batches:
    """Batch runs, each made once: the output, settings and errors files of each."""

    def __init__(self, base: Path):
        self.base, self.runs = base, {}
        base.mkdir()
        (base / "in.txt").write_text(BATCH_INPUT, encoding="utf-8")

    def run(self, name: str, *options: str) -> Path:
        if name not in self.runs:
            out = self.base / f"{name}.jsonl"
            invoke("batch", str(self.base / "in.txt"), "-o", str(out), "--workers", "1",
                   "--no-progress", *options, code=1)  # 1: the input has bad lines
            self.runs[name] = out
        return self.runs[name]

    def failing(self) -> Path:
        """A batch whose solver fails on one hand: its errors file gives the traceback."""
        if "failing" not in self.runs:
            out = self.base / "failing.jsonl"
            run_batch([HAND, STAYER], out, Settings(_fails_on_a_stay), Engine())
            self.runs["failing"] = out
        return self.runs["failing"]


def _fails_on_a_stay(solution):
    if solution.stays:
        raise ZeroDivisionError("a failure that is a bug, not bad input")
    return solution_dict(solution)


BATCHES = {"royalties": ("--objective", "royalties"),
           "ev-three-handed": ("--objective", "ev", "--samples", "10", "--opponents", "2"),
           "fl-value-given": ("--fl-value", "9.6", "--variant", "progressive", "--objective",
                              "royalties"),
           "proved-by-cp-sat": ("--objective", "royalties", "--proof", "cpsat")}


def _sets_of(variant: str, seed: int, rounds: int) -> list[str]:
    """Sets for the hands ``train --variant --seed`` deals: the best-royalty set, then the 13
    highest cards row after row from the top (which all but always fouls), alternately."""
    dealer = Session(variant, seed=seed)
    sets = []
    for n in range(rounds):
        cards = dealer.deal().cards
        if n % 2 == 0:
            report = solve(cards, variant=variant).report
            rows = [report.row(row).cards for row in ("top", "middle", "bottom")]
        else:
            rows = [cards[:3], cards[3:8], cards[8:13]]
        sets.append(" / ".join(format_cards(row, ascii=True) for row in rows))
    return sets


def train_log(base: Path, name: str, *options: str, rounds: int | None = None,
              typed: list[str] = ()) -> list[Any]:
    log = base / "train" / f"{name}.jsonl"
    extra = () if rounds is None else ("--hands", str(rounds))
    invoke("train", *options, *extra, "--log", str(log),
           stdin="".join(line + "\n" for line in [*typed, "q"]))
    return jsonl(log)


#: Every output, by its schema: named cases, each making its documents (one for a command's
#: JSON, every line for a JSONL file) given a scratch directory.
Producer = Callable[[Path, Batches], list[Any]]
CASES: dict[str, dict[str, Producer]] = {
    "solve.schema.json": {
        **{f"royalties-{preset}": (lambda _b, _r, p=preset: command_json(
            "solve", HAND, "--variant", p, "--objective", "royalties")) for preset in PRESETS},
        **{f"ev-{preset}": (lambda _b, _r, p=preset: command_json(
            "solve", HAND, "--variant", p, "--objective", "ev", "--samples", "20"))
           for preset in PRESETS},
        "royalties-alternatives": lambda _b, _r: command_json(
            "solve", HAND, "--objective", "royalties", "--alternatives", "3"),
        "ev-alternatives-three-handed-16-cards": lambda _b, _r: command_json(
            "solve", HAND, "7c", "6d", "--variant", "progressive", "--samples", "20",
            "--opponents", "2", "--alternatives", "2"),
        "royalties-stays": lambda _b, _r: command_json(
            "solve", STAYER, "--objective", "royalties"),
        "ev-stays-given-fl-value": lambda _b, _r: command_json(
            "solve", STAYER, "--samples", "20", "--fl-value", "0"),
        "royalties-ultimate-17-cards-stays": lambda _b, _r: command_json(
            "solve", STAYER, "9d", "7d", "4s", "--variant", "ultimate", "--objective",
            "royalties"),
        "royalties-every-set-fouls": lambda _b, _r: command_json(
            "solve", ALL_FOUL, "--variant", "deuce", "--objective", "royalties",
            "--alternatives", "2"),
        "ev-every-set-fouls-three-handed": lambda _b, _r: command_json(
            "solve", ALL_FOUL, "--variant", "deuce", "--samples", "20", "--opponents", "2"),
        "royalties-proved-by-cp-sat": lambda _b, _r: command_json(
            "solve", STAYER, "--objective", "royalties", "--proof", "cpsat"),
        "ev-every-set-fouls-proved-by-cp-sat": lambda _b, _r: command_json(
            "solve", ALL_FOUL, "--variant", "deuce", "--samples", "20", "--proof", "cpsat"),
    },
    "check.schema.json": {
        "royalties-optimal": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_OPTIMUM),
        "royalties-suboptimal": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_SET, "--fl-value", "9.6"),
        "royalties-fouled": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_FOULED),
        "royalties-proved-by-cp-sat": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_SET, "--proof", "cpsat"),
        "royalties-17-cards-estimated-percentile": lambda _b, _r: command_json(
            "check", STAYER, "9d", "7d", "4s", "--set", STAYER_SET),
        "ev-optimal-three-handed": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_OPTIMUM, "--objective", "ev", "--samples", "20",
            "--opponents", "2"),
        "ev-suboptimal": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_SET, "--objective", "ev", "--samples", "20"),
        "ev-fouled": lambda _b, _r: command_json(
            "check", STAYER, "--set", STAYER_FOULED, "--objective", "ev", "--samples", "20"),
        "deuce-every-set-fouls": lambda _b, _r: command_json(
            "check", ALL_FOUL, "--set", ALL_FOUL_SET, "--variant", "deuce"),
        "deuce-every-set-fouls-ev": lambda _b, _r: command_json(
            "check", ALL_FOUL, "--set", ALL_FOUL_SET, "--variant", "deuce", "--objective",
            "ev", "--samples", "20"),
    },
    "score.schema.json": {
        **{f"legal-{preset}": (lambda _b, _r, p=preset: command_json(
            "score", "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d", "--variant", p))
           for preset in PRESETS if preset != "deuce"},
        "fouled-on-kickers": lambda _b, _r: command_json(
            "score", "Qs Qd 7h / Qc Qh 6s 5d 4c / Ah Kh Jh 9h 8h", "--variant", "pineapple"),
        "enters-and-stays": lambda _b, _r: command_json(
            "score", "Qs Qd Qh / 9c 8d 7h 6s 5c / Ah Kh Jh 4h 2h", "--variant", "progressive"),
        "ultimate-stays-but-fouls": lambda _b, _r: command_json(
            "score", "Qs Qd Qh / 7s 5d 4c 3h 2s / As Ad Ah Ac Ks", "--variant", "ultimate"),
        "deuce-lowball-middle-enters": lambda _b, _r: command_json(
            "score", "Kh Kd 2c / 7s 5d 4c 3h 2s / As Ad Ah Kc Ks", "--variant", "deuce"),
        "deuce-middle-misses-its-qualifier": lambda _b, _r: command_json(
            "score", "Kh Kd 2c / Qs Jd 4c 3h 2s / As Ad Ah Kc Ks", "--variant", "deuce"),
        "thirteen-cards-without-slashes": lambda _b, _r: command_json(
            "score", "6s6c4hTdTs9cQs8c3h3d3s2h2d"),
        "a-joker-played-down": lambda _b, _r: command_json(
            "score", "Qs Qh Jk / Kc Kd 5s 4h 3c / As Ad Ac Kh Ks", "--variant",
            "pineapple-joker"),
        "two-jokers-in-one-row": lambda _b, _r: command_json(
            "score", "Qd Qh 2c / Kc Kd 5s 4h 3c / Jk Jk As Ks Qs", "--variant", "joker"),
        "double-deck-five-aces": lambda _b, _r: command_json(
            "score", "Qs Qh 2c / Kc Kd Kh 3c 3d / As As Ad Ad Ac", "--variant", "double-deck"),
        "house-five-of-a-kind": lambda _b, _r: command_json(
            "score", "2s 3h 4d / 6c 7c 8c 9c Tc / As Ad Ac Ah Jk", "--variant",
            str(HOUSE / "jokers_five_of_a_kind.toml")),
    },
    "score-table.schema.json": {
        "chinese-four-players": lambda _b, _r: command_json(
            "score", "6h 6s 4h / 8h 8s Jh 5h 3h / 2c 2d 2h Ks Qh", "--variant", "chinese",
            "--against", "As Kd 4s / 3c 3d Qd Ts 5s / Jc Jd 7c 7d 9h",
            "--against", "8c 8d 3s / 9c 9d Kh 7h 2s / Tc Td 5c 5d Qs",
            "--against", "Kc Qc 7s / 6c 6d Js Th 9s / Ac Ad Ah 4c 4d"),
        "chinese-natural-and-surrender": lambda _b, _r: command_json(
            "score", "Ah Qs 4d / 8h 8s Jh 5h 3h / Ac Ad Ts Ks Qh", "--variant",
            str(HOUSE / "chinese_typical.toml"),
            "--against", "natural 2c 2d 3c 3d 4c 4h 5c 5d 6c 6d 7c 7d 9s",
            "--against", "surrender"),
        "pineapple-heads-up-fouled": lambda _b, _r: command_json(
            "score", "Qs Qd 7h / Qc Qh 6s 5d 4c / Ah Kh Jh 9h 8h", "--variant", "pineapple",
            "--against", "As Ad 2c / 3c 4d 5h 7s 8c / Kc Kd 9c 9d 2d"),
    },
    "advise.schema.json": {
        "ev-last-street-exact": lambda _b, _r: command_json(
            "advise", "--board", "Qh Qd 2c / 7c 8c 9c Tc / 2s 2d 3s 4s", "--cards", "Kd Js 3h",
            "--samples", "20"),
        "royalties-a-round-raced": lambda _b, _r: command_json(
            "advise", "--board", "Kh 5d / 7c 8c 9d / 2s 2d Ts Js", "--cards", "Kd Qs 3h",
            "--objective", "royalties", "--budget", "32"),
        "ev-a-known-board-and-dead-cards": lambda _b, _r: command_json(
            "advise", "--board", "Qh Qd / 7c 8c 9c Tc / 2s 4s 6s 8s Ts", "--cards", "Ks Jd 3h",
            "--against", "Ah Kh Jh / 9h 9d 5h 5d 4c / Kc Kd 8h 8d 7s",
            "--dead", "6c 6d"),
        "ev-learned-model-and-rollouts": lambda _b, _r: command_json(
            "advise", "--variant", "pineapple", "--board", "Kd / 7c 8c / 2h 2d", "--cards",
            "Qs 9c 4s", "--budget", "32", "--samples", "200"),
        "royalties-heuristic-first-street-screened": lambda _b, _r: command_json(
            "advise", "--variant", "pineapple", "--board", " / / ", "--cards", "Kd 7c 8c 2h 2d",
            "--objective", "royalties", "--budget", "32", "--rollout-bot", "heuristic",
            "--workers", "1"),
    },
    "value.schema.json": {
        "royalties-pineapple": lambda _b, _r: command_json(
            "value", "--variant", "pineapple", "--hands", "2"),
        "royalties-progressive-four-sizes": lambda _b, _r: command_json(
            "value", "--variant", "progressive", "--hands", "2"),
        "royalties-deuce-two-part-entry": lambda _b, _r: command_json(
            "value", "--variant", "deuce", "--hands", "2"),
        "ev-three-handed": lambda _b, _r: command_json(
            "value", "--variant", "pineapple", "--hands", "2", "--objective", "ev",
            "--opponents", "2"),
    },
    "opponents-stats.schema.json": {
        "pool-calibrated": lambda _b, _r: command_json(  # weighted by its rules file
            "opponents", "--stats", "--hands", "200", "--variant", "double-deck"),
        "pool-learned": lambda _b, _r: command_json(
            "opponents", "--stats", "--hands", "200"),
        "pool-uncalibrated-standard": lambda _b, _r: command_json(
            "opponents", "--stats", "--hands", "200", "--variant", "standard"),
        "pool-uncalibrated-deuce": lambda _b, _r: command_json(
            "opponents", "--stats", "--hands", "200", "--variant", "deuce"),
        "live": lambda _b, _r: command_json(
            "opponents", "--stats", "--live", "--hands", "3"),
    },
    "opponents-check.schema.json": {
        "pineapple": lambda _b, _r: command_json(
            "opponents", "--check", HAND, "--hands", "4"),
    },
    "bench.schema.json": {
        "royalties": lambda _b, _r: command_json(
            "bench", "--cards", "13,14", "--hands", "1"),
        "ev-alias": lambda _b, _r: command_json(
            "bench", "--cards", "14", "--hands", "1", "--objective", "ev", "--variant",
            "prog"),
        # This checkout against itself: every group and the keys of the side by side.
        "adversarial-against": lambda _b, _r: command_json(
            "bench", "--cards", "13", "--hands", "2", "--suite", "all", "--against",
            str(Path(__file__).resolve().parents[1])),
        "ev-samples": lambda _b, _r: command_json(
            "bench", "--cards", "13", "--hands", "1", "--objective", "ev", "--samples", "20",
            "--samples", "40"),
        # CP-SAT on every hand against the fastest proof: the groups, and what settled each.
        "proof-cpsat": lambda _b, _r: command_json(
            "bench", "--cards", "13", "--hands", "2", "--suite", "all", "--proof", "cpsat"),
    },
    "batch-record.schema.json": {
        name: (lambda _b, runs, n=name, o=options: jsonl(runs.run(n, *o)))
        for name, options in BATCHES.items()
    },
    "batch-settings.schema.json": {
        name: (lambda _b, runs, n=name, o=options: [strict_json(
            Path(str(runs.run(n, *o)) + ".settings").read_text(encoding="utf-8"))])
        for name, options in BATCHES.items()
    },
    "batch-error.schema.json": {
        "bad-lines": lambda _b, runs: jsonl(Path(str(runs.run("royalties")) + ".errors")),
        "solver-failure": lambda _b, runs: jsonl(Path(str(runs.failing()) + ".errors")),
    },
    "train-log.schema.json": {
        "royalties-two-hands": lambda base, _r: train_log(
            base, "royalties", "--variant", "pineapple", "--objective", "royalties", "--seed",
            "4", rounds=2,
            typed=_sets_of("pineapple", 4, 2)),
        "ev-three-handed-mixed-sizes": lambda base, _r: train_log(
            base, "ev", "--variant", "progressive", "--seed", "5", "--objective", "ev",
            "--samples", "10", "--opponents", "2", rounds=1,
            typed=_sets_of("progressive", 5, 1)),
        "quit-before-any-hand": lambda base, _r: train_log(
            base, "none", "--variant", "ultimate", "--seed", "1", "--cards", "15-16"),
    },
}


@pytest.fixture(scope="module")
def produced(tmp_path_factory) -> Iterator[Callable[[str, str], list[Any]]]:
    """The documents of a case, made once for the module (and the serve cases' app stopped
    at its end)."""
    base = tmp_path_factory.mktemp("schemas")
    runs = Batches(base / "batch")
    (base / "train").mkdir()
    made: dict[tuple[str, str], list[Any]] = {}

    def get(schema: str, case: str) -> list[Any]:
        if (schema, case) not in made:
            made[schema, case] = CASES[schema][case](base, runs)
            assert made[schema, case], f"{schema} {case}: no output"
        return made[schema, case]

    yield get
    SERVED.stop()


def cases(schema: str) -> list:
    return [pytest.param(schema, case, id=case) for case in CASES[schema]]


def assert_valid(produced, schema: str, case: str) -> None:
    for number, document in enumerate(produced(schema, case), 1):
        found = problems(schema, document)
        assert not found, f"{case}, document {number}:\n" + "\n".join(found)


# --- the schemas themselves ----------------------------------------------------------------

@pytest.mark.parametrize("name", schema_names())
def test_each_schema_file_is_a_valid_draft_2020_12_schema(name):
    try:
        Draft202012Validator.check_schema(schemas()[name])
    except SchemaError as error:
        pytest.fail(f"{name}: {error.message}")


@pytest.mark.parametrize("name", schema_names())
def test_each_schema_declares_its_draft_id_title_and_description(name):
    schema = schemas()[name]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://fantasyland.invalid/schemas/{name}"
    assert schema["title"].strip() and schema["description"].strip()


def _property_maps(node: Any, where: str = "") -> Iterator[tuple[str, dict]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                yield where, value
            yield from _property_maps(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _property_maps(value, f"{where}/{i}")


def _in_a_condition(where: str) -> bool:
    """Whether a ``properties`` sits in an ``if``/``then``/``else`` or ``not``: a constraint on
    keys described where they are defined."""
    return bool({"if", "then", "else", "not"} & set(where.split("/")))


@pytest.mark.parametrize("name", schema_names())
def test_every_property_a_schema_defines_has_a_description(name):
    missing = [f"{where}/{key}" for where, props in _property_maps(schemas()[name])
               if not _in_a_condition(where) for key, sub in props.items()
               if not (isinstance(sub, dict) and sub.get("description", "").strip())]
    assert not missing, f"{name}: properties without a description: {missing}"


def shared_definition(name: str) -> Draft202012Validator:
    return Draft202012Validator(
        {"$ref": f"https://fantasyland.invalid/schemas/common.schema.json#/$defs/{name}"},
        registry=registry())


def test_the_hand_name_pattern_accepts_every_name_the_evaluator_gives():
    names = ({hand_name(s) for s in range(len(DESCRIPTORS))}
             | {lowball_name(g) for g in range(len(LOW_DESCRIPTORS))})
    check = shared_definition("hand_name")
    assert not [name for name in names if not check.is_valid(name)]
    assert not check.is_valid("Pair of Sixs") and not check.is_valid("Ace-high")


def test_the_hand_classes_are_the_evaluator_s():
    assert schemas()["common.schema.json"]["$defs"]["hand_class"]["enum"] == list(CLASS_NAMES)


def test_the_schemas_are_package_data_of_cli_schemas():
    root = files("fantasyland.cli.schemas")
    assert root.joinpath("solve.schema.json").is_file()
    assert set(schema_names()) >= SHARED | {"solve.schema.json", "batch-record.schema.json"}


def test_every_schema_file_is_an_output_this_module_validates_or_a_shared_one():
    """A new schema without a test fails here, and so does a test of a schema that is gone."""
    assert set(schema_names()) == set(CASES) | SHARED
    assert all(CASES[name] for name in CASES)
    text = {name: json.dumps(schema) for name, schema in schemas().items()}
    for shared in SHARED:  # a shared file is one the others use
        assert any(shared in body for name, body in text.items() if name not in SHARED), shared


# --- real outputs validate -----------------------------------------------------------------

@pytest.mark.parametrize("schema, case", cases("solve.schema.json"))
def test_solve_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("check.schema.json"))
def test_check_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("score.schema.json"))
def test_score_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("score-table.schema.json"))
def test_score_table_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("advise.schema.json"))
def test_advise_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("value.schema.json"))
def test_value_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("opponents-stats.schema.json"))
def test_opponents_stats_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("opponents-check.schema.json"))
def test_opponents_check_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("bench.schema.json"))
def test_bench_json_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("batch-record.schema.json"))
def test_every_batch_output_line_validates_against_the_record_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("batch-settings.schema.json"))
def test_the_batch_settings_file_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("batch-error.schema.json"))
def test_every_batch_errors_file_line_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


@pytest.mark.parametrize("schema, case", cases("train-log.schema.json"))
def test_every_train_log_line_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


def test_the_cases_reach_the_variations_the_schemas_describe(produced):
    """The conditional parts of the schemas are exercised, not just allowed."""
    def all_of(schema: str) -> list[Any]:
        return [doc for case in CASES[schema] for doc in produced(schema, case)]

    solved = all_of("solve.schema.json") + all_of("batch-record.schema.json")
    assert {s["status"] for s in solved} >= {"optimal", "fouled"}
    assert {s["objective"] for s in solved} == {"royalties", "ev"}
    assert {s["ev"]["opponents"] for s in solved if s["ev"]} == {1, 2}
    assert {s["stays"] for s in solved} == {True, False}
    assert any(s["alternatives"] for s in solved) and any(s["best_staying"] for s in solved)
    assert {s["variant"] for s in all_of("solve.schema.json")} == set(PRESETS)
    graded = all_of("check.schema.json")
    assert {(g["fouled"], g["is_optimal"]) for g in graded} == {
        (False, True), (False, False), (True, False), (True, True)}
    assert {g["percentile"]["exact"] for g in graded} == {True, False}
    scored = all_of("score.schema.json")
    assert {s["fouled"] for s in scored} == {True, False} and any(s["stays"] for s in scored)
    assert {s["variant"] for s in scored} == set(PRESETS) | {
        "pineapple-joker", "double-deck", "jokers_five_of_a_kind"}
    faces = [s["rows"][row]["jokers"] for s in scored for row in ("top", "middle", "bottom")]
    assert {len(f) for f in faces} == {0, 1, 2}
    assert {s["rows"]["bottom"]["class"] for s in scored} >= {"five of a kind", "quads"}
    stats = all_of("opponents-stats.schema.json")
    assert {s["source"] for s in stats} == {"pool", "live"}
    assert {s["calibration"] is None for s in stats} == {True, False}
    errors = all_of("batch-error.schema.json")
    assert any("traceback" in e for e in errors) and any("traceback" not in e for e in errors)
    lines = all_of("train-log.schema.json")
    assert {next(iter({"session", "summary"} & set(line)), "hand") for line in lines} == {
        "session", "hand", "summary"}
    assert any("ev_seed" in line for line in lines)


# --- review (issue 17): its --json and the history lines it reads -----------------------------

REVIEW = Path(__file__).resolve().parent.parent / "fixtures" / "review"
CASES["review.schema.json"] = {
    "scripted-hand": lambda _b, _r: [strict_json(invoke(
        "review", str(REVIEW / "progressive-hand.jsonl"), "--budget", "32", "--json"))],
    "bad-lines-royalties": lambda _b, _r: [strict_json(invoke(
        "review", str(REVIEW / "bad-lines.jsonl"), "--budget", "32", "--objective",
        "royalties", "--json", code=1))],
}
CASES["history.schema.json"] = {
    "scripted-hand": lambda _b, _r: jsonl(REVIEW / "progressive-hand.jsonl"),
    "play-log": lambda _b, _r: [line for kind, line in _play_log() if kind == "street"],
}


@cache
def _play_log() -> tuple[tuple[str, Any], ...]:
    """The lines of a play log, (kind, JSON) in order: two hands on the adviser's picks, the
    first a Fantasyland set, the second a foul of the bot (pineapple, seed 3)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "session.jsonl"
        invoke("play", "--variant", "pineapple", "--objective", "royalties", "--hands", "2",
               "--seed", "3", "--fantasyland", "14", "--log", str(log), "--history",
               str(Path(folder) / "h.sqlite3"), stdin="=\n" * 6)
        lines = log.read_text(encoding="utf-8").splitlines()
    return tuple((line[2:line.index(" ", 2)], strict_json(line[line.index("{"):]))
                 if line.startswith("# ") else ("street", strict_json(line)) for line in lines)


CASES["play-log.schema.json"] = {
    "two-hands-one-in-fantasyland": lambda _b, _r: [line for kind, line in _play_log()
                                                    if kind != "street"],
}


@pytest.mark.parametrize("schema, case",
                         cases("review.schema.json") + cases("history.schema.json")
                         + cases("play-log.schema.json"))
def test_review_json_and_history_lines_validate_against_their_schemas(produced, schema, case):
    assert_valid(produced, schema, case)


# --- serve: the web API's own answers (its others are the commands' --json objects) ---------

#: The seed of every training hand the serve cases deal and grade.
TRAIN_SEED = 3
#: The training hands the serve cases grade, in the order they are graded: (session, hand
#: number). The fouled ones set the deal's 13 highest cards row after row from the top (both
#: hands then foul); "optimal" sets the optimum the first grade names, in a session of its own.
GRADED = {"fouled": ("s1", 1), "optimal": ("s2", 1), "fouled-second-hand": ("s1", 2)}
HOUSE_RULES = 'base = "pineapple"\nname = "house"'
WIDE_RULES = ('base = "progressive"\nname = "wide"\ndescription = "Progressive from two '
              'decks"\n\n[deck]\ndecks = 2\n\n[table]\nplayers = 3\n')


def set_text(rows: dict[str, list[str]]) -> str:
    return " / ".join(" ".join(rows[row]) for row in ("top", "middle", "bottom"))


class Served:
    """The one app of every serve case, so that its worker loads the solver once: started on
    first use with its history in the module's scratch directory (``fresh_history`` is that
    history's answer before any hand), stopped by ``produced``."""

    def __init__(self) -> None:
        self.stack: ExitStack | None = None
        self.client: TestClient | None = None
        self.fresh_history: Any = None
        self.grades: dict[str, Any] = {}

    def start(self, base: Path) -> Served:
        if self.client is None:
            self.stack = ExitStack()
            self.client = self.stack.enter_context(TestClient(create_app(
                ServeSettings(history=base / "serve.sqlite3", workers=1))))
            self.fresh_history = self.answer("GET", "/api/train/history")
        return self

    def stop(self) -> None:
        if self.stack is not None:
            self.stack.close()
        self.stack = self.client = self.fresh_history = None
        self.grades = {}

    def answer(self, method: str, path: str, status: int = 200, **request: Any) -> Any:
        """The JSON answer to a request, which must come with HTTP ``status``."""
        assert self.client is not None
        response = self.client.request(method, path, **request)
        assert response.status_code == status, \
            f"{method} {path}: {response.status_code} {response.text}"
        return strict_json(response.text)

    def grade(self, case: str) -> Any:
        """The answer to grading the hand ``GRADED[case]``, graded once for the module."""
        if case not in self.grades:
            for earlier in GRADED:  # first, so that the sessions and ids come as listed
                if earlier == case:
                    break
                self.grade(earlier)
            session, number = GRADED[case]
            if case == "optimal":
                rows = self.grade("fouled")["grade"]["optimal"]
            else:
                cards = self.answer("POST", "/api/train/deal",
                                    json={"seed": TRAIN_SEED, "number": number})["cards"]
                rows = {"top": cards[:3], "middle": cards[3:8], "bottom": cards[8:13]}
            self.grades[case] = self.answer("POST", "/api/train/grade", json={
                "session": session, "seed": TRAIN_SEED, "number": number,
                "set": set_text(rows)})
        return self.grades[case]

    def history(self, query: str = "") -> Any:
        """The training history once every hand of ``GRADED`` is graded."""
        for case in GRADED:
            self.grade(case)
        return self.answer("GET", "/api/train/history" + query)


SERVED = Served()


def served(method: str, path: str, status: int = 200, **request: Any) -> Producer:
    """A case of one request to the module's app: its answer is the one document."""
    return lambda base, _r: [SERVED.start(base).answer(method, path, status, **request)]


CASES["serve-error.schema.json"] = {
    "bad-card-in-a-worker": served("POST", "/api/solve", 400, json={
        "cards": "As Kx Qh Jd Tc 9s 8h 7d 6c 5s 4h 3d 2c"}),
    "unknown-field": served("POST", "/api/solve", 400, json={"cards": HAND, "sed": 1}),
    "missing-field": served("POST", "/api/check", 400, json={"cards": STAYER}),
    "body-not-json": served("POST", "/api/score", 400, content=b"{bad",
                            headers={"Content-Type": "application/json"}),
    "body-not-an-object": served("POST", "/api/score", 400, json=[HAND]),
    "training-set-of-two-rows": served("POST", "/api/train/grade", 400, json={
        "session": "s0", "seed": TRAIN_SEED, "number": 1, "set": "As Ac / Kd"}),
    "rules-not-toml": served("POST", "/api/rules", 400, json={"rules": "base = \n"}),
    "history-limit-0": served("GET", "/api/train/history?limit=0", 400),
    "no-such-endpoint-404": served("GET", "/api/nope", 404),
    "get-on-a-post-endpoint-405": served("GET", "/api/solve", 405),
    "post-on-a-get-endpoint-405": served("POST", "/api/status", 405, json={}),
}
CASES["serve-variants.schema.json"] = {"presets": served("GET", "/api/variants")}
CASES["serve-fields.schema.json"] = {"every-endpoint": served("GET", "/api/fields")}
CASES["serve-train-deal.schema.json"] = {
    "seeded": served("POST", "/api/train/deal", json={"seed": TRAIN_SEED}),
    "seed-drawn-by-the-server": served("POST", "/api/train/deal", json={}),
    "alias-third-hand-16-cards": served("POST", "/api/train/deal", json={
        "seed": TRAIN_SEED, "number": 3, "variant": "prog", "sizes": [16]}),
    "rules-text": served("POST", "/api/train/deal", json={"seed": 0, "rules": HOUSE_RULES}),
}
CASES["serve-train-grade.schema.json"] = {
    case: (lambda base, _r, c=case: [SERVED.start(base).grade(c)]) for case in GRADED}


def _graded_on_a_full_disk(base: Path, _r: Any) -> list:
    """A grade whose hand the history could not store: SQLite's error on a full disk."""
    from unittest import mock

    from fantasyland.cli.web.history import History

    served = SERVED.start(base)
    cards = served.answer("POST", "/api/train/deal", json={"seed": TRAIN_SEED})["cards"]
    full = sqlite3.OperationalError("database or disk is full")
    with mock.patch.object(History, "_add", side_effect=full):
        return [served.answer("POST", "/api/train/grade", json={
            "session": "full", "seed": TRAIN_SEED, "number": 1,
            "set": set_text({"top": cards[:3], "middle": cards[3:8],
                             "bottom": cards[8:13]})})]


CASES["serve-train-grade.schema.json"]["unsaved-on-a-full-disk"] = _graded_on_a_full_disk
CASES["serve-train-history.schema.json"] = {
    "before-any-hand": lambda base, _r: [SERVED.start(base).fresh_history],
    "two-sessions": lambda base, _r: [SERVED.start(base).history()],
    "two-sessions-limit-1": lambda base, _r: [SERVED.start(base).history("?limit=1")],
}
CASES["serve-status.schema.json"] = {"one-worker": served("GET", "/api/status")}
CASES["serve-rules.schema.json"] = {
    "house-from-pineapple": served("POST", "/api/rules", json={"rules": HOUSE_RULES}),
    "two-decks-three-players": served("POST", "/api/rules", json={"rules": WIDE_RULES}),
}



def _played(start: dict, moves: int | None = None, then_next: bool = False,
            hint: bool = False) -> Producer:
    """A game of the Play view started with ``start`` (royalties, pineapple unless given):
    its answer after ``moves`` of the adviser's picks (None: to the showdown), the next hand
    dealt after it, or the hint at that point."""

    def produce(base: Path, _r: Any) -> list:
        served = SERVED.start(base)
        answer = served.answer("POST", "/api/play/start", json={
            "variant": "pineapple", "objective": "royalties"} | start)
        game = answer["game"]
        done = 0
        while (moves is None and answer["view"]["showdown"] is None) or \
                (moves is not None and done < moves):
            answer = served.answer("POST", "/api/play/move", json={"game": game, "move": "="})
            done += 1
        if then_next:
            answer = served.answer("POST", "/api/play/next", json={"game": game})
        if hint:
            answer = served.answer("POST", "/api/play/hint", json={"game": game})
        return [answer]

    return produce


CASES["serve-play.schema.json"] = {
    "started": _played({"seed": 1}, moves=0),
    "a-street-played": _played({"seed": 1}, moves=2),
    "showdown-with-the-history": _played({"seed": 2}, moves=None),
    "next-hand": _played({"seed": 2}, moves=None, then_next=True),
    "two-bots-ev-duplicate": _played({"seed": 3, "opponents": 2, "objective": "ev",
                                      "samples": 50, "duplicate": True}, moves=None),
    "fantasyland-set": _played({"seed": 4, "fantasyland": 15, "variant": "progressive"},
                               moves=None),
}
CASES["serve-play-hint.schema.json"] = {
    "first-street": _played({"seed": 5}, moves=0, hint=True),
    "street-before-the-last-exact": _played({"seed": 5}, moves=3, hint=True),
    "fantasyland": _played({"seed": 6, "fantasyland": 14}, moves=0, hint=True),
}

SERVE_SCHEMAS = sorted(name for name in CASES if name.startswith("serve-"))


@pytest.mark.parametrize("schema, case", [
    pytest.param(schema, case, id=f"{schema.removesuffix('.schema.json')}: {case}")
    for schema in SERVE_SCHEMAS for case in CASES[schema]])
def test_every_serve_answer_validates_against_its_schema(produced, schema, case):
    assert_valid(produced, schema, case)


def test_the_serve_cases_reach_the_variations_the_schemas_describe(produced):
    def only(schema: str, case: str) -> Any:
        [document] = produced(schema, case)
        return document

    listed = only("serve-variants.schema.json", "presets")
    assert {v["name"] for v in listed["variants"]} == set(preset_names())
    assert listed["default"] in preset_names()
    assert {v["fantasyland"] for v in listed["variants"]} == {True, False}
    assert {v["copies"] for v in listed["variants"]} == {1, 2}
    assert only("serve-error.schema.json", "bad-card-in-a-worker")["error"].startswith(
        "bad card 'Kx'")
    deals = {case: only("serve-train-deal.schema.json", case)
             for case in CASES["serve-train-deal.schema.json"]}
    assert deals["seeded"]["seed"] == TRAIN_SEED
    assert 0 <= deals["seed-drawn-by-the-server"]["seed"] < 10**9
    assert deals["alias-third-hand-16-cards"]["variant"] == "progressive"
    assert len(deals["alias-third-hand-16-cards"]["cards"]) == 16
    assert deals["rules-text"]["variant"] == "house"
    assert only("serve-status.schema.json", "one-worker")["workers"] == 1
    rules = [only("serve-rules.schema.json", case) for case in CASES["serve-rules.schema.json"]]
    assert [(r["name"], r["seats"], r["players"]) for r in rules] == [
        ("house", 3, 2), ("wide", 6, 3)]
    assert only("serve-train-history.schema.json", "before-any-hand") == {
        "hands": [], "sessions": []}
    grades = {case: produced("serve-train-grade.schema.json", case)[0] for case in GRADED}
    assert {(a["grade"]["fouled"], a["grade"]["is_optimal"]) for a in grades.values()} == {
        (True, False), (False, True)}
    assert grades["fouled-second-hand"]["score"]["hands"] == 2
    assert grades["fouled-second-hand"]["score"]["fouls"] == 2
    [history] = produced("serve-train-history.schema.json", "two-sessions")
    assert [s["session"] for s in history["sessions"]] == ["s1", "s2"]
    assert [h["id"] for h in history["hands"]] == sorted(
        (a["hand_id"] for a in grades.values()), reverse=True)
    [cut] = produced("serve-train-history.schema.json", "two-sessions-limit-1")
    assert len(cut["hands"]) == 1 and cut["sessions"] == history["sessions"]


# --- mutated outputs are rejected ----------------------------------------------------------

def _drop(*path: Any) -> Callable[[Any], None]:
    def mutate(doc: Any) -> None:
        del _at(doc, path[:-1])[path[-1]]
    return mutate


def _set(*path: Any, value: Any) -> Callable[[Any], None]:
    def mutate(doc: Any) -> None:
        _at(doc, path[:-1])[path[-1]] = copy.deepcopy(value)
    return mutate


def _at(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


#: (schema, case, which document of it, what the mutation does, the mutation, and where the
#: schema must object: the path in the document and the keyword that fails there).
MUTATIONS = [
    ("solve.schema.json", "royalties-alternatives", 0, "a required key dropped",
     _drop("value"), "", "required"),
    ("solve.schema.json", "royalties-alternatives", 0, "a number given as a string",
     _set("value", value="23"), "value", "type"),
    ("solve.schema.json", "royalties-alternatives", 0, "an unknown top-level key",
     _set("comment", value="hi"), "", "unevaluatedProperties"),
    ("solve.schema.json", "royalties-alternatives", 0, "an unknown key in an alternative",
     _set("alternatives", 0, "rank", value=2), "alternatives/0", "additionalProperties"),
    ("solve.schema.json", "royalties-alternatives", 0, "a card written with 10 and a symbol",
     _set("top", 0, value="10\u2665"), "top/0", "pattern"),
    ("solve.schema.json", "royalties-alternatives", 0, "four cards on top",
     _set("top", value=["As", "Ah", "8h", "5h"]), "top", "maxItems"),
    ("solve.schema.json", "royalties-alternatives", 0, "a status outside the vocabulary",
     _set("status", value="proved"), "status", "enum"),
    ("solve.schema.json", "royalties-alternatives", 0, "an EV breakdown under royalties",
     _set("ev", value={"royalties": 1}), "ev", "type"),
    ("solve.schema.json", "royalties-stays", 0, "a stay without its rows",
     _set("stay_rows", value=[]), "stay_rows", "minItems"),
    ("solve.schema.json", "royalties-every-set-fouls", 0, "every set fouls, yet optimal",
     _set("status", value="optimal"), "status", "const"),
    ("check.schema.json", "royalties-suboptimal", 0, "a required key dropped",
     _drop("percentile"), "", "required"),
    ("check.schema.json", "royalties-suboptimal", 0, "a boolean given as a string",
     _set("percentile", "exact", value="yes"), "percentile/exact", "type"),
    ("check.schema.json", "royalties-suboptimal", 0, "an unknown key in the optimum",
     _set("optimal", "ev", value=None), "optimal", "additionalProperties"),
    ("check.schema.json", "royalties-suboptimal", 0, "an optimal set that lost EV",
     _set("is_optimal", value=True), "ev_lost", "const"),
    ("check.schema.json", "royalties-suboptimal", 0, "a negative EV lost",
     _set("ev_lost", value=-1.0), "ev_lost", "minimum"),
    ("check.schema.json", "royalties-fouled", 0, "a fouled set that scores royalties",
     _set("royalties", "total", value=5), "royalties/total", "const"),
    ("score-table.schema.json", "chinese-four-players", 0, "a fifth player",
     lambda doc: doc["players"].append(copy.deepcopy(doc["players"][0])), "players",
     "maxItems"),
    ("score-table.schema.json", "chinese-four-players", 0, "a net that is not a whole number",
     _set("players", 0, "net", value=1.5), "players/0/net", "type"),
    ("score-table.schema.json", "chinese-natural-and-surrender", 0, "a natural without cards",
     _drop("players", 1, "natural", "cards"), "players/1/natural", "type"),
    ("score-table.schema.json", "pineapple-heads-up-fouled", 0, "a set without its rows",
     _drop("players", 0, "set", "rows"), "players/0/set", "type"),
    ("score.schema.json", "fouled-on-kickers", 0, "a required key dropped",
     _drop("rows"), "", "required"),
    ("score.schema.json", "fouled-on-kickers", 0, "a hand class outside the vocabulary",
     _set("rows", "top", "class", value="royal flush"), "rows/top/class", "enum"),
    ("score.schema.json", "fouled-on-kickers", 0, "an unknown key in the royalties",
     _set("royalties", "bonus", value=0), "royalties", "additionalProperties"),
    ("score.schema.json", "fouled-on-kickers", 0, "a foul without its reasons",
     _set("foul_reasons", value=[]), "foul_reasons", "minItems"),
    ("score.schema.json", "legal-standard", 0, "a row name outside the vocabulary",
     _set("stay_rows", value=["front"]), "stay_rows/0", "enum"),
    ("score.schema.json", "legal-standard", 0, "a royalty that is not a whole number",
     _set("rows", "top", "royalty", value=1.5), "rows/top/royalty", "type"),
    ("score.schema.json", "two-jokers-in-one-row", 0, "a joker standing for a joker",
     _set("rows", "bottom", "jokers", value=["Jk", "Js"]), "rows/bottom/jokers/0", "pattern"),
    ("score.schema.json", "a-joker-played-down", 0, "a row without its jokers' faces",
     _drop("rows", "top", "jokers"), "rows/top", "required"),
    ("score.schema.json", "legal-standard", 0, "a hand name that is no hand",
     _set("rows", "top", "hand", value="Pair of Sixs"), "rows/top/hand", "pattern"),
    ("value.schema.json", "royalties-progressive-four-sizes", 0, "a required key dropped",
     _drop("sizes", 0, "worth"), "sizes/0", "required"),
    ("value.schema.json", "royalties-progressive-four-sizes", 0, "a stay rate above 1",
     _set("sizes", 0, "stay_rate", value=1.5), "sizes/0/stay_rate", "maximum"),
    ("value.schema.json", "royalties-progressive-four-sizes", 0, "an unknown objective",
     _set("objective", value="points"), "objective", "enum"),
    ("value.schema.json", "royalties-progressive-four-sizes", 0, "an unknown key in an entry",
     _set("entries", 0, "worth_se", value=1.0), "entries/0", "additionalProperties"),
    ("advise.schema.json", "royalties-a-round-raced", 0, "a play without its value",
     _drop("plays", 0, "value"), "plays/0", "required"),
    ("advise.schema.json", "royalties-a-round-raced", 0, "a row that is not one",
     _set("plays", 0, "rows", "Kd", value="side"), "plays/0/rows/Kd", "enum"),
    ("advise.schema.json", "ev-last-street-exact", 0, "a foul chance above 1",
     _set("plays", 0, "foul_chance", value=1.5), "plays/0/foul_chance", "maximum"),
    ("advise.schema.json", "ev-last-street-exact", 0, "an unknown entry source",
     _set("entry_values", 0, "source", value="guess"), "entry_values/0/source", "enum"),
    ("review.schema.json", "scripted-hand", 0, "a required key dropped",
     _drop("summary"), "", "required"),
    ("review.schema.json", "scripted-hand", 0, "an EV lost given as a string",
     _set("decisions", 0, "ev_lost", value="1.5"), "decisions/0/ev_lost", "type"),
    ("review.schema.json", "scripted-hand", 0, "an unknown key in a decision",
     _set("decisions", 0, "comment", value="hi"), "decisions/0", "additionalProperties"),
    ("history.schema.json", "scripted-hand", 0, "a line without its play",
     _drop("play"), "", "required"),
    ("history.schema.json", "scripted-hand", 0, "cards given as a number",
     _set("cards", value=5), "cards", "type"),
    ("history.schema.json", "scripted-hand", 0, "an unknown key",
     _set("comment", value="hi"), "", "additionalProperties"),
    ("play-log.schema.json", "two-hands-one-in-fantasyland", 0, "a budget below advise's least",
     _set("settings", "budget", value=8), "settings/budget", "minimum"),
    ("play-log.schema.json", "two-hands-one-in-fantasyland", 1, "a set's EV lost below 0",
     _set("set", "ev_lost", value=-0.5), "set/ev_lost", "minimum"),
    ("play-log.schema.json", "two-hands-one-in-fantasyland", 2, "a seat without its points",
     _drop("showdown", "seats", 1, "points"), "showdown/seats/1", "required"),
    ("play-log.schema.json", "two-hands-one-in-fantasyland", 2, "a Fantasyland of 12 cards",
     _set("next_fantasyland", "1", value=12), "next_fantasyland/1", "minimum"),
    ("value.schema.json", "ev-three-handed", 0, "the royalties rules key under ev",
     _set("rules_key", value="repeat_value"), "rules_key", "const"),
    ("opponents-stats.schema.json", "pool-calibrated", 0, "a required key dropped",
     _drop("bot_play"), "", "required"),
    ("opponents-stats.schema.json", "pool-calibrated", 0, "a rate given as a string",
     _set("foul_rate", value="27%"), "foul_rate", "type"),
    ("opponents-stats.schema.json", "pool-calibrated", 0, "an unknown key in bot_play",
     _set("bot_play", "effective_boards", value=200.0), "bot_play", "unevaluatedProperties"),
    ("opponents-stats.schema.json", "pool-calibrated", 0, "weighted boards without a target",
     _set("calibration", value=None), "", "not"),
    ("opponents-stats.schema.json", "live", 0, "live boards that name a pool",
     _set("pool_size", value=24000), "", "not"),
    ("opponents-check.schema.json", "pineapple", 0, "a required key dropped",
     _drop("live"), "", "required"),
    ("opponents-check.schema.json", "pineapple", 0, "the set as a list of rows",
     _set("set", value=[["As"]]), "set", "type"),
    ("opponents-check.schema.json", "pineapple", 0, "a distance above 1",
     _set("exact", "class_tvd", "top", value=2.0), "exact/class_tvd/top", "maximum"),
    ("opponents-check.schema.json", "pineapple", 0, "class distances for live play itself",
     _set("live", "class_tvd", value={"top": 0.0, "middle": 0.0, "bottom": 0.0}), "live",
     "unevaluatedProperties"),
    ("bench.schema.json", "royalties", 0, "a required key dropped",
     _drop("ranking"), "", "required"),
    ("bench.schema.json", "royalties", 0, "a card count no variant deals",
     _set("solving", "12", value={"median_ms": 1.0, "p95_ms": 1.0, "max_ms": 1.0}),
     "solving", "pattern"),
    ("bench.schema.json", "royalties", 0, "a negative time",
     _set("ranking", "max_ms", value=-1.0), "ranking/max_ms", "minimum"),
    ("bench.schema.json", "royalties", 0, "an unknown key in a timing",
     _set("ranking", "mean_ms", value=1.0), "ranking", "additionalProperties"),
    ("batch-record.schema.json", "royalties", 0, "the id dropped",
     _drop("id"), "", "required"),
    ("batch-record.schema.json", "royalties", 0, "an id that is a number",
     _set("id", value=1), "id", "type"),
    ("batch-record.schema.json", "royalties", 0, "a solve key dropped",
     _drop("cards"), "", "required"),
    ("batch-record.schema.json", "royalties", 0, "an unknown key",
     _set("line", value=1), "", "unevaluatedProperties"),
    ("batch-settings.schema.json", "royalties", 0, "the rules digest dropped",
     _drop("rules"), "", "required"),
    ("batch-settings.schema.json", "royalties", 0, "a rules digest that is not one",
     _set("rules", value="pineapple"), "rules", "pattern"),
    ("batch-settings.schema.json", "royalties", 0, "a sampling option under royalties",
     _set("samples", value=200), "", "not"),
    ("batch-settings.schema.json", "ev-three-handed", 0, "ev without its opponent model",
     _drop("opponent_model"), "", "required"),
    ("batch-settings.schema.json", "ev-three-handed", 0, "an unknown key",
     _set("time_limit", value=10.0), "", "additionalProperties"),
    ("batch-error.schema.json", "bad-lines", 0, "the message dropped",
     _drop("message"), "", "required"),
    ("batch-error.schema.json", "bad-lines", 0, "a line number 0",
     _set("line", value=0), "line", "minimum"),
    ("batch-error.schema.json", "bad-lines", 0, "an id that is a number",
     _set("id", value=2), "id", "type"),
    ("batch-error.schema.json", "bad-lines", 0, "an unknown key",
     _set("cards", value=[]), "", "additionalProperties"),
    ("train-log.schema.json", "royalties-two-hands", 0, "an unknown key in the session",
     _set("session", "rounds", value=2), "session", "additionalProperties"),
    ("train-log.schema.json", "royalties-two-hands", 0, "a size that is not a card count",
     _set("session", "sizes", "12", value=0.5), "session/sizes", "pattern"),
    ("train-log.schema.json", "royalties-two-hands", 1, "a hand without its running score",
     _drop("score"), "", "required"),
    ("train-log.schema.json", "royalties-two-hands", 1, "an ev seed under royalties",
     _set("ev_seed", value=4000001), "", "not"),
    ("train-log.schema.json", "ev-three-handed-mixed-sizes", 1, "an ev hand without its seed",
     _drop("ev_seed"), "", "required"),
    ("train-log.schema.json", "royalties-two-hands", 1, "a set with 4 cards on top",
     _set("set", "top", value=["As", "Ks", "Kh", "Qd"]), "set/top", "maxItems"),
    ("train-log.schema.json", "royalties-two-hands", -1, "a count given as a string",
     _set("summary", "hands", value="2"), "summary/hands", "type"),
    ("train-log.schema.json", "royalties-two-hands", -1, "a summary and a session in one line",
     _set("session", value={}), "", "additionalProperties"),
    ("serve-error.schema.json", "unknown-field", 0, "the message dropped",
     _drop("error"), "", "required"),
    ("serve-error.schema.json", "unknown-field", 0, "a message that is a list",
     _set("error", value=["unknown field"]), "error", "type"),
    ("serve-error.schema.json", "unknown-field", 0, "a message of two lines",
     _set("error", value="internal error\nTraceback (most recent call last):"), "error",
     "pattern"),
    ("serve-error.schema.json", "unknown-field", 0, "the status in the body",
     _set("status", value=400), "", "additionalProperties"),
    ("serve-variants.schema.json", "presets", 0, "the default dropped",
     _drop("default"), "", "required"),
    ("serve-variants.schema.json", "presets", 0, "a command without its default",
     _drop("defaults", "advise"), "defaults", "required"),
    ("serve-variants.schema.json", "presets", 0, "a default for a command there is not",
     _set("defaults", "value", value="pineapple"), "defaults", "additionalProperties"),
    ("serve-variants.schema.json", "presets", 0, "a deck of three copies",
     _set("variants", 1, "copies", value=3), "variants/1/copies", "maximum"),
    ("serve-variants.schema.json", "presets", 0, "an unknown key in a variant",
     _set("variants", 1, "aliases", value=["x"]), "variants/1", "additionalProperties"),
    ("serve-variants.schema.json", "presets", 0, "royalties without a Fantasyland",
     _set("variants", 1, "fantasyland", value=False), "variants/1/objectives", "const"),
    ("serve-variants.schema.json", "presets", 0, "a Fantasyland size of 12",
     _set("variants", 1, "fantasyland_sizes", 0, value=12), "variants/1/fantasyland_sizes/0",
     "minimum"),
    ("serve-fields.schema.json", "every-endpoint", 0, "an endpoint left out",
     _drop("review"), "", "required"),
    ("serve-fields.schema.json", "every-endpoint", 0, "a field that does not say its default",
     _drop("solve", "cards", "default"), "solve/cards", "required"),
    ("serve-fields.schema.json", "every-endpoint", 0, "a field of an unknown type",
     _set("solve", "cards", "type", value="text"), "solve/cards/type", "enum"),
    ("serve-play.schema.json", "started", 0, "the view dropped",
     _drop("view"), "", "required"),
    ("serve-play.schema.json", "started", 0, "a game id that is not 24 hex digits",
     _set("game", value="../games"), "game", "pattern"),
    ("serve-play.schema.json", "started", 0, "hand 0",
     _set("view", "hand", value=0), "view/hand", "minimum"),
    ("serve-play.schema.json", "started", 0, "an unknown key in the view",
     _set("view", "state", value="..."), "view", "additionalProperties"),
    ("serve-play.schema.json", "showdown-with-the-history", 0, "a row of the history unnumbered",
     _drop("history", 0, "number"), "history/0", "required"),
    ("serve-play-hint.schema.json", "first-street", 0, "the hint dropped",
     _drop("hint"), "", "required"),
    ("serve-play-hint.schema.json", "first-street", 0, "a kind outside the vocabulary",
     _set("hint", "kind", value="advice"), "hint/kind", "enum"),
    ("serve-play-hint.schema.json", "first-street", 0, "a ranked play with an unknown key",
     _set("hint", "ranked", 0, "rank", value=1), "hint/ranked/0", "additionalProperties"),
    ("serve-play-hint.schema.json", "first-street", 0, "a foul chance over 1",
     _set("hint", "ranked", 0, "foul_chance", value=1.5), "hint/ranked/0/foul_chance",
     "maximum"),
    ("serve-train-deal.schema.json", "seeded", 0, "the cards dropped",
     _drop("cards"), "", "required"),
    ("serve-train-deal.schema.json", "seeded", 0, "twelve cards dealt",
     lambda doc: doc.update(cards=doc["cards"][:12]), "cards", "minItems"),
    ("serve-train-deal.schema.json", "seeded", 0, "a card written with 10",
     _set("cards", 0, value="10h"), "cards/0", "pattern"),
    ("serve-train-deal.schema.json", "seeded", 0, "a hand number 0",
     _set("number", value=0), "number", "minimum"),
    ("serve-train-deal.schema.json", "seeded", 0, "an unknown key",
     _set("objective", value="royalties"), "", "additionalProperties"),
    ("serve-train-grade.schema.json", "fouled", 0, "the hand id dropped",
     _drop("hand_id"), "", "required"),
    ("serve-train-grade.schema.json", "fouled", 0, "an unknown key in the grade",
     _set("grade", "session", value="s1"), "grade", "unevaluatedProperties"),
    ("serve-train-grade.schema.json", "fouled", 0, "a fouled hand not among the fouls",
     _set("score", "fouls", value=0), "score/fouls", "minimum"),
    ("serve-train-grade.schema.json", "optimal", 0, "a score before any hand",
     _set("score", "hands", value=0), "score/hands", "minimum"),
    ("serve-train-grade.schema.json", "optimal", 0, "a hand id given as a string",
     _set("hand_id", value="2"), "hand_id", "type"),
    ("serve-train-history.schema.json", "before-any-hand", 0, "the sessions dropped",
     _drop("sessions"), "", "required"),
    ("serve-train-history.schema.json", "before-any-hand", 0, "hands as an object",
     _set("hands", value={}), "hands", "type"),
    ("serve-train-history.schema.json", "before-any-hand", 0, "an unknown key",
     _set("limit", value=100), "", "additionalProperties"),
    ("serve-train-history.schema.json", "two-sessions", 0, "a time without its zone",
     _set("hands", 0, "played_at", value="2025-03-01T18:04:59"), "hands/0/played_at",
     "pattern"),
    ("serve-train-history.schema.json", "two-sessions", 0, "a session without its objective",
     _drop("sessions", 0, "objective"), "sessions/0", "required"),
    ("serve-train-history.schema.json", "two-sessions", 0, "a set without its three rows",
     _set("hands", 0, "set", value="A\u2660"), "hands/0/set", "pattern"),
    ("serve-train-history.schema.json", "two-sessions", 0, "a session name with a space",
     _set("sessions", 0, "session", value="my session"), "sessions/0/session", "pattern"),
    ("serve-train-history.schema.json", "two-sessions", 0, "optimal given as 1",
     _set("hands", 0, "optimal", value=1), "hands/0/optimal", "type"),
    ("serve-train-history.schema.json", "two-sessions", 0, "an optimal hand that lost EV",
     _set("hands", 2, "optimal", value=True), "hands/2/ev_lost", "const"),
    ("serve-train-history.schema.json", "two-sessions", 0, "a session without hands",
     _set("sessions", 0, "hands", value=0), "sessions/0/hands", "minimum"),
    ("serve-status.schema.json", "one-worker", 0, "the idle count dropped",
     _drop("idle"), "", "required"),
    ("serve-status.schema.json", "one-worker", 0, "the limit given as a string",
     _set("limit", value="60 s"), "limit", "type"),
    ("serve-status.schema.json", "one-worker", 0, "no worker at all",
     _set("workers", value=0), "workers", "minimum"),
    ("serve-status.schema.json", "one-worker", 0, "an unknown key",
     _set("busy", value=0), "", "additionalProperties"),
    ("serve-rules.schema.json", "house-from-pineapple", 0, "the deck's copies dropped",
     _drop("copies"), "", "required"),
    ("serve-rules.schema.json", "house-from-pineapple", 0, "three decks",
     _set("copies", value=3), "copies", "maximum"),
    ("serve-rules.schema.json", "house-from-pineapple", 0, "the fingerprint dropped",
     _drop("fingerprint"), "", "required"),
    ("serve-rules.schema.json", "house-from-pineapple", 0, "a fingerprint that is not one",
     _set("fingerprint", value="pineapple"), "fingerprint", "pattern"),
    ("serve-rules.schema.json", "house-from-pineapple", 0, "a deck that seats two",
     _set("seats", value=2), "seats", "minimum"),
    ("serve-rules.schema.json", "house-from-pineapple", 0, "a Fantasyland of 18 cards",
     _set("dealt_counts", value=[18]), "dealt_counts/0", "maximum"),
]


@pytest.mark.parametrize(
    "schema, case, index, mutate, where, keyword",
    [pytest.param(schema, case, index, mutate, where, keyword,
                  id=f"{schema.removesuffix('.schema.json')}: {what}")
     for schema, case, index, what, mutate, where, keyword in MUTATIONS])
def test_a_mutated_output_is_rejected_by_its_schema(produced, schema, case, index, mutate,
                                                    where, keyword):
    original = produced(schema, case)[index]
    assert not problems(schema, original), "the unmutated output must validate"
    mutated = copy.deepcopy(original)
    mutate(mutated)
    assert mutated != original
    where = where or "(root)"
    found = rejections(schema, mutated)
    assert (where, keyword) in {(at, by) for at, by, _ in found}, \
        f"expected [{keyword}] at {where}, got:\n" + "\n".join(problems(schema, mutated))


def test_every_output_schema_has_mutations_it_rejects():
    counts = {name: sum(m[0] == name for m in MUTATIONS) for name in CASES}
    assert all(count >= 3 for count in counts.values()), counts


def test_outputs_are_read_strictly_so_nan_and_infinity_fail():
    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(ValueError, match="not JSON"):
            strict_json(f'{{"value": {constant}}}')


def test_the_play_cases_reach_the_variations_the_schemas_describe(produced):
    def view(case: str) -> Any:
        [document] = produced("serve-play.schema.json", case)
        return document

    assert view("started")["view"]["turn"]["street"] == 1
    assert view("a-street-played")["view"]["turn"]["street"] == 3
    ended = view("showdown-with-the-history")
    assert ended["view"]["showdown"]["streets"] and ended["history"][0]["number"] == 1
    assert view("next-hand")["view"]["hand"] == 2
    wide = view("two-bots-ev-duplicate")["view"]
    assert len(wide["seats"]) == 3 and "duplicate" in wide["figures"]
    assert view("fantasyland-set")["view"]["showdown"]["set"] is not None
    hints = {case: produced("serve-play-hint.schema.json", case)[0]["hint"]
             for case in CASES["serve-play-hint.schema.json"]}
    assert (hints["first-street"]["kind"], hints["first-street"]["exact"]) == ("plays", False)
    assert hints["street-before-the-last-exact"]["exact"] is True
    assert hints["fantasyland"]["kind"] == "set"
