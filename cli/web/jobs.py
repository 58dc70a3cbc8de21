"""What each API endpoint does, as a plain function of its checked fields.

A job takes the fields ``read_fields`` gave (``cli.web.api`` holds each endpoint's table)
and returns the JSON object the matching CLI command prints with ``--json``, built by the
same record functions, so the page and the terminal cannot disagree. Jobs run in the
server's worker processes (``cli.web.workers``); bad input raises an ``InputError``, whose
message is the CLI's one line.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from fantasyland.cli.defaults import load
from fantasyland.cli.web.fields import Field, FieldError
from fantasyland.evaluator import InputError, Rules, find_preset, preset_names, rules_from_text
from fantasyland.evaluator.cards import card_name
from fantasyland.optimizer.solver import ObjectiveName

#: A rules file as text is read once per worker, however many requests send it.
_RULES_CACHE = 32


@lru_cache(maxsize=_RULES_CACHE)
def _uploaded(text: str) -> Rules:
    return rules_from_text(text, source="rules")  # it refuses text nested too deeply, in one line


@cache
def defaults() -> dict[str, Any]:
    """What a request that leaves a setting out gets: the CLI's defaults, the player's
    config file over the built-in ones (``cli.defaults``), read once a process. ``serve``
    read the same file before it started, so a bad one never gets this far."""
    return load().values


#: The fields a config file gives a default (``chosen``); its variant is ``variants``'s.
CHOSEN = ("objective", "opponents", "fl_value", "samples")


def chosen(fields: dict[str, Any], name: str) -> Any:
    """The request's ``name`` (objective, opponents, fl_value, samples), else its default."""
    value = fields.get(name)
    return defaults()[name] if value is None else value


def rules_of(fields: dict[str, Any]) -> Rules:
    """The request's rules: its ``rules`` text when given, else the preset ``variant``
    (never a path: the browser does not name files), else the default variant (which the
    config file may make a rules file of the player's)."""
    if fields.get("rules"):
        if fields.get("variant"):
            raise FieldError("both variant and rules given: rules is a whole rules file "
                             "(base = \"pineapple\" starts it from a preset); give one")
        return _uploaded(fields["rules"])
    if fields.get("variant"):
        return find_preset(fields["variant"])
    from fantasyland.evaluator import find_rules

    return find_rules(defaults()["variant"])


def seated(opponents: int | None, rules: Rules) -> int | None:
    """``opponents`` checked against the seats of ``rules``, as ``--opponents`` is; None,
    the default's."""
    if opponents is None:
        opponents = defaults()["opponents"]
    if opponents is not None and opponents > rules.seats - 1:
        raise FieldError(f"bad opponents {opponents}: expected 1 to {rules.seats - 1} (a deck "
                         f"of {len(rules.deck.cards)} cards seats {rules.seats} players under "
                         "these rules)")
    return opponents


def _table(fields: dict[str, Any], rules: Rules):
    from fantasyland.optimizer import TableSpec

    return TableSpec(seated(fields["opponents"], rules), tuple(fields["against"]),
                     tuple(fields["opponent_fantasyland"]), fields["dead"] or ())


def _offered(rules: Rules) -> dict:
    """What the page needs to offer ``rules``: its Fantasyland, streets, deck and table."""
    from fantasyland.optimizer.solver import OBJECTIVES, default_samples

    return {"name": rules.name, "description": rules.description,
            "fantasyland_sizes": list(rules.dealt_counts) if rules.entry else [],
            "fantasyland": bool(rules.entry), "ordinary": not rules.dealing.closed,
            "jokers": rules.deck.jokers, "copies": rules.deck.decks, "seats": rules.seats,
            "players": rules.players, "samples": default_samples(rules),
            "objectives": [o for o in OBJECTIVES if o == ObjectiveName.EV or rules.entry]}


def variants() -> dict:
    """Every preset, with what the page needs to offer it, and the variant every view
    starts from and the objective a request that names none is played by (the CLI's
    defaults: ``cli.defaults``)."""
    from fantasyland.evaluator import ROW_SIZE, ROWS, find_rules

    name = find_rules(defaults()["variant"]).name
    views = ("solve", "check", "train", "advise", "review", "score")  # one default for all
    return {"default": name, "defaults": dict.fromkeys(views, name),
            "objective": defaults()["objective"],
            "rows": [{"name": row, "cards": ROW_SIZE[row]} for row in ROWS],
            "variants": [_offered(find_preset(name)) for name in preset_names()]}


def fields() -> dict:
    """Every endpoint's fields as the page offers them: each one's JSON Schema (its bounds),
    whether a request must give it, and the default a request that leaves it out gets: the
    endpoint's own, else the config file's (``cli.defaults``), else the command's; None
    where that is the variant's own (its table, its worth of a repeat, its samples: each
    variant of ``variants`` says its figure)."""
    from fantasyland.cli.web.api import ENDPOINTS
    from fantasyland.optimizer.ordinary import DEFAULT_BUDGET, DEFAULT_SAMPLES
    from fantasyland.optimizer.play import DEFAULT_SAMPLES as PLAY_SAMPLES

    # What advise and review play when neither the request nor the file sets a field.
    commands = {"advise": {"samples": DEFAULT_SAMPLES, "budget": DEFAULT_BUDGET},
                "review": {"budget": DEFAULT_BUDGET}, "play/start": {"samples": PLAY_SAMPLES}}

    def default(endpoint: str, name: str, field: Field) -> Any:
        if field.default is not None:
            return list(field.default) if isinstance(field.default, tuple) else field.default
        if name in CHOSEN and defaults()[name] is not None:
            return defaults()[name]
        return commands.get(endpoint, {}).get(name)

    return {endpoint.path: {name: dict(field.read.schema) | {
        "required": field.required, "default": default(endpoint.path, name, field)}
        for name, field in endpoint.fields.items()} for endpoint in ENDPOINTS}


def rules_summary(fields: dict[str, Any]) -> dict:
    """A rules file's text, read as the CLI reads a file: what a preset's entry in
    ``variants`` says, its fingerprint, and every size it deals."""
    rules = rules_of(fields)
    return _offered(rules) | {"fingerprint": rules.fingerprint,
                              "dealt_counts": list(rules.dealt_counts)}


def solve(fields: dict[str, Any]) -> dict:
    from fantasyland.optimizer import solve as solve_hand
    from fantasyland.optimizer.solver import Sample, solution_record

    rules = rules_of(fields)
    cards = _dealt(fields["cards"], rules)
    solution = solve_hand(cards, variant=rules, objective=chosen(fields, "objective"),
                          fl_value=chosen(fields, "fl_value"), time_limit=fields["time_limit"],
                          alternatives=fields["alternatives"],
                          sample=Sample(table=_table(fields, rules),
                                        samples=chosen(fields, "samples"), seed=fields["seed"]))
    return solution_record(solution)


def _dealt(text: str, rules: Rules):
    from fantasyland.evaluator import parse_cards

    return parse_cards(text, deck=rules.deck)


def check(fields: dict[str, Any]) -> dict:
    from fantasyland.optimizer.solver import Sample
    from fantasyland.optimizer.training import grade, grade_record

    rules = rules_of(fields)
    g = grade(fields["cards"], fields["set"], variant=rules, objective=chosen(fields, "objective"),
              fl_value=chosen(fields, "fl_value"), time_limit=fields["time_limit"],
              sample=Sample(table=_table(fields, rules), samples=chosen(fields, "samples"),
                            seed=fields["seed"]))
    return grade_record(g)


def _session(fields: dict[str, Any], rules: Rules):
    """The CLI trainer's session for this seed, dealt up to hand ``number``: the page's hand
    ``n`` of seed ``s`` is ``fantasyland train --seed s``'s hand ``n``."""
    from fantasyland.optimizer import TableSpec
    from fantasyland.optimizer.training import Session

    session = Session(rules, chosen(fields, "objective"), chosen(fields, "fl_value"),
                      sizes=fields.get("sizes") or None, seed=fields["seed"],
                      table=TableSpec(seated(fields.get("opponents"), rules)),
                      samples=chosen(fields, "samples"))
    for _ in range(fields["number"]):
        session.deal()
    return session


def train_deal(fields: dict[str, Any]) -> dict:
    rules = rules_of(fields)
    session = _session(fields, rules)
    assert session.current is not None
    return {"seed": fields["seed"], "number": fields["number"], "variant": rules.name,
            "cards": [card_name(card, ascii=True) for card in session.current.cards]}


def train_grade(fields: dict[str, Any]) -> dict:
    """The grade of a training hand, as ``train`` grades it (the same ev seed)."""
    from fantasyland.optimizer.training import grade_record

    rules = rules_of(fields)
    session = _session(fields, rules)
    g = session.play(fields["set"])
    assert session.current is not None
    return {"grade": grade_record(g), "variant": rules.name, "objective": session.objective,
            "cards": [card_name(card, ascii=True) for card in session.current.cards]}


def advise(fields: dict[str, Any]) -> dict:
    from fantasyland.optimizer.ordinary import (DEFAULT_BUDGET, DEFAULT_SAMPLES, Effort,
                                                advice_record, advise_plays)
    from fantasyland.optimizer.solver import Sample

    rules = rules_of(fields)
    advice = advise_plays(rules, fields["board"], fields["cards"],
                          objective=chosen(fields, "objective"),
                          sample=Sample(table=_table(fields, rules),
                                        samples=chosen(fields, "samples") or DEFAULT_SAMPLES,
                                        seed=fields["seed"]),
                          discards=fields["discards"] or (),
                          entry_overrides=fields["entry_value"],
                          effort=Effort(budget=fields["budget"] or DEFAULT_BUDGET, workers=1))
    return advice_record(advice)


def score(fields: dict[str, Any]) -> dict:
    from fantasyland.cli.render import report_dict
    from fantasyland.cli.score import settled, table_dict
    from fantasyland.evaluator import evaluate_board

    rules = rules_of(fields)
    if not fields["against"]:
        return report_dict(evaluate_board(fields["board"], rules=rules))
    seats, result = settled([fields["board"], *fields["against"]], rules,
                            others="boards in against")
    return table_dict(seats, result, rules)


def review(fields: dict[str, Any]) -> dict:
    from fantasyland.cli.render import measured
    from fantasyland.optimizer.ordinary import DEFAULT_BUDGET, review_lines
    from fantasyland.optimizer.solver import Sample, TableSpec

    rules = rules_of(fields)
    result = review_lines(fields["history"].splitlines(), variant=rules,
                          objective=chosen(fields, "objective"),
                          sample=Sample(table=TableSpec(opponents=seated(fields["opponents"],
                                                                         rules)),
                                        seed=fields["seed"]),
                          budget=fields["budget"] or DEFAULT_BUDGET,
                          entry_overrides=fields["entry_value"])
    if not result.decisions:
        first = result.bad_lines[0] if result.bad_lines else None
        raise FieldError(f"line {first.line}: {first.message}" if first else
                         "the history holds no street to grade: expected one JSON object a "
                         "line with board, cards and play")
    return measured(result.record())


def _play_settings(fields: dict[str, Any]) -> dict[str, Any]:
    """A game's settings with every default filled in as ``fantasyland play``'s: the preset
    named (the browser names no file), else the default variant; its table's bots; the
    default objective and samples."""
    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.play import DEFAULT_SAMPLES as PLAY_SAMPLES

    variant = fields["variant"] or defaults()["variant"]
    rules = find_preset(variant) if fields["variant"] else find_rules(variant)
    opponents = seated(fields["opponents"], rules)
    return fields | {"variant": variant,
                     "opponents": rules.players - 1 if opponents is None else opponents,
                     "objective": chosen(fields, "objective"),
                     "samples": chosen(fields, "samples") or PLAY_SAMPLES}


def _play(step: str) -> Callable[[dict[str, Any]], dict]:
    """A step of the Play view's game (``cli.web.play_jobs``), loaded on first use; a start
    gets its settings' defaults filled in first."""

    def run(fields: dict[str, Any]) -> dict:
        from fantasyland.cli.web import play_jobs

        if step == "play_start":
            fields = _play_settings(fields)
        return getattr(play_jobs, step)(fields)

    return run


#: Every job by name: what the workers may be asked to run.
JOBS: dict[str, Callable[[dict[str, Any]], dict]] = {
    "solve": solve, "check": check, "train_deal": train_deal, "train_grade": train_grade,
    "advise": advise, "score": score, "review": review, "rules": rules_summary,
    **{step: _play(step) for step in ("play_start", "play_move", "play_hint", "play_next")}}


def answer(job: str, fields: dict[str, Any]) -> tuple[str, Any]:
    """Run ``job``: ``("ok", record)``, or ``("bad", message)`` for input it refused (an
    ``InputError``, carried so across the worker's pipe). Any other exception is a fault,
    and the caller's to report."""
    try:
        return "ok", JOBS[job](fields)
    except InputError as error:
        return "bad", str(error)
    except RecursionError:  # input nested past what a reader can follow: not a fault
        return "bad", "the request is nested too deeply to read: expected plain values"


def warm() -> None:
    """Load what the first solve would: the solver and CP-SAT, the tables, the presets."""
    from fantasyland.cli.web.api import ENDPOINTS
    from fantasyland.cli.web.fields import read_fields

    [endpoint] = [e for e in ENDPOINTS if e.job == "solve"]
    solve(read_fields({"cards": "As Ks Qs Js Ts 9h 9d 9c 8h 8d 7c 7d 2s",
                       "objective": "royalties"}, endpoint.fields))
