"""Advice as plain data: what ``advise --json`` prints (cli/schemas/advise.schema.json)."""

from __future__ import annotations

from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.ordinary.advise import Advice
from fantasyland.optimizer.ordinary.plays import board_text
from fantasyland.optimizer.solver.objective import ObjectiveName


def entry_names(rules: Rules) -> dict[int, str]:
    """Each entry size's requirement in words: ``{14: "QQ+ top", 15: "KK+ top", ...}``."""
    names: dict[int, list[str]] = {}
    for rung in rules.entry:
        names.setdefault(rung.cards, []).append(" and ".join(f"{req.spec}+ {req.row}"
                                                             for req in rung.requires))
    return {cards: " or ".join(found) for cards, found in names.items()}


def advice_record(advice: Advice) -> dict:
    """``advise --json`` (docs/json.md, cli/schemas/advise.schema.json)."""
    names = entry_names(advice.position.rules)
    scale = advice.table.opponents if advice.objective == ObjectiveName.EV else 1
    return {
        "variant": advice.position.rules.name, "objective": advice.objective,
        "position": advice.position.record(), "table": advice.table.record(),
        "exact": advice.exact, "deals": advice.deals, "samples": advice.samples,
        "seed": advice.seed,
        "budget": advice.budget, "rollouts": advice.rollouts, "settled": advice.settled,
        "rollout_bot": advice.bot,
        "entry_values": [{"cards": e.cards, "entry": names.get(e.cards, ""),
                          "value": e.value, "at_table": e.value * scale, "source": e.source}
                         for e in advice.entries],
        "plays": [dict(p.play.record(), value=p.value, standard_error=p.standard_error,
                       foul_chance=p.foul_chance,
                       entry_chances=None if p.entry_chances is None else {
                           str(k): v for k, v in p.entry_chances.items()},
                       rollouts=p.rollouts, behind=p.behind, behind_error=p.behind_error,
                       close=p.close, screened=p.screened, screen=p.screen,
                       source=p.source, model=p.model,
                       board=board_text(p.play.layout))
                  for p in advice.plays],
    }
