"""``fantasyland opponents --audit DECISION``: how much a better choice at one decision of
the bot would gain, by rollouts of its own play, and the table (or JSON) of it."""

from __future__ import annotations

import json
from dataclasses import dataclass

import typer
from rich.progress import Progress
from rich.table import Table

from fantasyland.cli.head_to_head import Bot
from fantasyland.cli.render import console, err_console, measured
from fantasyland.optimizer.opponents import (BOTS, Headroom, OpponentModelError, audit_decision,
                                            dealing_for, decisions, headroom, knobs_text,
                                            with_knobs)

#: Deals --audit takes when --hands is not given.
DEFAULT_AUDIT_DEALS = 100
#: The placements and continuations of each decision --audit compares by default.
DEFAULT_PLACEMENTS = 6
DEFAULT_CONTINUATIONS = 16


@dataclass(frozen=True, kw_only=True)
class Audit:
    """What ``--audit`` asks: ``decision`` of ``bot`` (with ``knobs``) in seat A of the
    ``deals`` from ``first``, its best ``placements`` each played on ``continuations`` times."""

    decision: int
    deals: int
    seed: int
    first: int
    bot: Bot
    knobs: list[str]
    placements: int
    continuations: int


def run_audit(rules, asked: Audit, json_output: bool) -> None:
    """Audit the decision ``asked`` and print the result."""
    decision, deals, seed, first = asked.decision, asked.deals, asked.seed, asked.first
    bot, knobs, placements, continuations = (asked.bot, asked.knobs, asked.placements,
                                             asked.continuations)
    dealing = dealing_for(rules)
    if decision > decisions(dealing):
        raise OpponentModelError(
            f"--audit {decision}: expected 1 to {decisions(dealing)} ({rules.name} deals "
            f"{dealing.rounds + 1} decisions a hand, the last exact)")
    base = BOTS[bot.value][dealing.name]
    params = with_knobs(base, knobs)
    with Progress(console=err_console, transient=True,
                  disable=json_output or not err_console.is_terminal) as bar:
        task = bar.add_task(f"auditing decision {decision}", total=deals)
        audit = audit_decision(rules, dealing, params, decision, deals, seed, first=first,
                               placements=placements, continuations=continuations,
                               progress=lambda n: bar.advance(task, n))
    if audit.hands == 0:
        raise OpponentModelError(f"--audit {decision}: no deal of {first}..{first + deals - 1} "
                                 f"has {placements} placements there; lower --placements")
    found = headroom(audit)
    tuned = knobs_text(base, params)
    if json_output:
        typer.echo(json.dumps(measured(_audit_dict(rules.name, audit.decision, asked, tuned,
                                                   audit.skipped, found)),
                              indent=2, sort_keys=True))
        return
    who = f"the {bot.value} bot" + (f" ({tuned})" if tuned else "")
    console.print(f"{rules.name}: decision {decision} of {who}, seat A of deals {first}.."
                  f"{first + deals - 1}, seed {seed}: its first look's best {placements} "
                  f"placements each played on {continuations} times by the bot itself",
                  soft_wrap=True)
    console.print(_audit_table(found, audit.skipped))
    console.print("A difference is the other placement's points less the bot's choice's, the "
                  "same futures for both; the held-out choice is made on half the "
                  "continuations and valued on the other half (docs/ev-and-opponents.md, "
                  "\"How much a better choice would gain\").", soft_wrap=True)


def _audit_dict(variant: str, decision: int, asked: Audit, tuned: str, skipped: int,
                found: Headroom) -> dict:
    return {"variant": variant, "decision": decision, "seed": asked.seed,
            "first_deal": asked.first, "deals": asked.deals, "bot": asked.bot.value,
            "knobs": tuned, "placements": asked.placements,
            "continuations": asked.continuations, "hands": found.hands, "skipped": skipped,
            "mean_difference": found.mean_difference, "spread": found.spread,
            "noise": found.noise, "changed": found.changed, "lead": found.lead,
            "raw_lead": found.raw_lead,
            "held_out": {name: {"mean": mean, "se": se}
                         for name, (mean, se) in found.held_out.items()}}


def _audit_table(found: Headroom, skipped: int) -> Table:
    table = Table(title="what a choice by the bot's own continuations would gain")
    table.add_column("Figure")
    table.add_column("Value", justify="right")
    table.add_row("hands audited", f"{found.hands}" + (f" ({skipped} skipped: too few "
                                                       "placements)" if skipped else ""))
    table.add_row("other placements less the choice", f"{found.mean_difference:+.3f}")
    table.add_row("spread of their true differences", f"{found.spread:.3f}")
    table.add_row("noise of one difference", f"{found.noise:.3f}")
    table.add_row("hands whose best is not the choice", f"{found.changed:.0%}")
    table.add_row("the best's estimated lead", f"{found.lead:+.3f}")
    table.add_row("the best raw mean's lead (noise in it)", f"{found.raw_lead:+.3f}")
    for key, scale, fmt in (("points", 1, "{:+.3f} ± {:.3f}"),
                            ("fouls", 100, "{:+.1f} ± {:.1f} pp"),
                            ("entries", 100, "{:+.1f} ± {:.1f} pp"),
                            ("royalties", 1, "{:+.2f} ± {:.2f}")):
        mean, se = found.held_out[key]
        table.add_row(f"held out: {key}", fmt.format(scale * mean, scale * se))
    return table
