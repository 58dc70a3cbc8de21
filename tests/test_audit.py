"""The audit of one decision of the bot (``optimizer.opponents.audit``): the choice it audits
is the one the bot plays, the placements share their futures, the headroom estimate finds a
lead that is there and none that is not, and the command's input is checked."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from fantasyland.evaluator import find_rules
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer.opponents.audit import DecisionAudit, audit_decision, headroom
from fantasyland.optimizer.opponents.bot import THREE_KEEP_TWO
from fantasyland.optimizer.opponents.head_to_head import play_seats
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS
from fantasyland.optimizer.opponents.pools import STRONG_PARAMS
from tests.lab import run

PINEAPPLE = find_rules("pineapple")
#: The stronger bot at small samples: the audit is under test, not the bot's skill.
QUICK = dataclasses.replace(STRONG_PARAMS[THREE_KEEP_TWO.name], samples=8, refine=3,
                            refine_samples=16, search_deals=2, search_samples=4)


@pytest.mark.parametrize("decision", [1, 2, 4])
def test_the_choice_audited_is_the_one_the_bot_plays_in_its_game(decision):
    audit = audit_decision(PINEAPPLE, THREE_KEEP_TWO, QUICK, decision, deals=3, seed=5,
                           placements=3, continuations=4)
    boards = play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 5, 0, 3)[:, 0]  # seat A's
    placed = 5 + 2 * (decision - 1)
    for hand, board in enumerate(boards):
        chosen = audit.placed[hand, audit.choice[hand]]
        assert (chosen != EMPTY).sum() == placed
        for row in ROWS:  # the finished board's rows hold what the choice put there
            slots = ROW_SLOTS[row]
            kept = chosen[slots.start:slots.stop]
            assert set(kept[kept != EMPTY].tolist()) <= set(board[slots.start:slots.stop].tolist())
    # the placements compared are distinct layouts of the decision, each as full as it
    for layouts in audit.placed:
        assert len({tuple(layout) for layout in layouts.tolist()}) == len(layouts)
        assert ((layouts != EMPTY).sum(axis=1) == placed).all()


def test_the_placements_share_their_futures_and_the_seed_fixes_all():
    audit = audit_decision(PINEAPPLE, THREE_KEEP_TWO, QUICK, 4, deals=4, seed=8,
                           placements=3, continuations=6)
    again = audit_decision(PINEAPPLE, THREE_KEEP_TWO, QUICK, 4, deals=4, seed=8,
                           placements=3, continuations=6)
    for name in ("placed", "worth", "fouled", "entered", "royalty", "choice"):
        assert np.array_equal(getattr(audit, name), getattr(again, name)), name
    # one round from the end a placement is played on by the exact last street alone, and
    # the futures are shared: two placements that differ in the last slots they leave get
    # the same three cards, so their fouls differ only where their layouts do
    assert audit.worth.shape == (4, 3, 6)
    assert not np.array_equal(audit.worth[:, 0], audit.worth[:, 1])
    # a fouled board is worth the foul, and its royalties count as 0
    assert (audit.royalty[audit.fouled] == 0).all()
    assert np.allclose(audit.worth[audit.fouled], -QUICK.foul_penalty)
    assert not (audit.entered & audit.fouled).any()


def _planted(lead: float, share: float, hands: int = 400, seed: int = 0) -> tuple:
    """A synthetic audit: the bot's choice (placement 0) is worth 0, the others -2 each, and
    in ``share`` of the hands placement 1 is worth ``lead`` instead; each continuation adds
    luck shared by the placements and noise of their own."""
    rng = np.random.default_rng(seed)
    placements, continuations = 5, 16
    true = np.full((hands, placements), -2.0)
    true[:, 0] = 0.0
    planted = rng.random(hands) < share
    true[planted, 1] = lead
    luck = rng.normal(0, 8, (hands, 1, continuations))
    noise = rng.normal(0, 3, (hands, placements, continuations))
    worth = true[:, :, None] + luck + noise
    shape = worth.shape
    audit = DecisionAudit(1, np.zeros((hands, placements, 13), dtype=np.int64), worth,
                          np.zeros(shape, bool), np.zeros(shape, bool), np.zeros(shape),
                          np.zeros(hands, dtype=np.int64), 0)
    return audit, true


def test_headroom_finds_a_lead_that_is_there():
    audit, true = _planted(lead=4.0, share=0.3)
    found = headroom(audit)
    gain, se = found.held_out["points"]
    assert gain > 3 * se > 0  # choosing by the continuations pays, held out
    assert gain < true.max(axis=1).mean()  # and no more than a perfect choice would
    assert 0.15 < found.changed < 0.5  # the planted hands, and few others
    assert 0.5 < found.lead < 2.0  # 0.3 of a lead of 4, shrunk
    assert found.raw_lead > found.lead  # the raw means' best overrates it
    assert abs(found.mean_difference - (-2 + 0.25 * (6 * 0.3))) < 0.5


def test_headroom_finds_no_lead_where_there_is_none():
    audit, _ = _planted(lead=-2.0, share=0.0)
    found = headroom(audit)
    gain, se = found.held_out["points"]
    assert gain <= 0 + 2 * se  # nothing to gain, held out
    assert found.spread < 0.6  # the true differences are all -2: no spread beyond noise
    assert found.lead < 0.3
    assert abs(found.noise - 3 * np.sqrt(2) / 4) < 0.15  # two placements' noise, over 16
    assert found.raw_lead > 0  # the best of noisy means always looks ahead


def test_the_audit_tool_prints_its_figures_as_json(capsys):
    code, out, _ = run(capsys, "audit", "4", "--hands", "2", "--seed", "3", "--bot", "shipped",
                       "--bot-knob", "samples=6", "--bot-knob", "refine=0", "--placements",
                       "3", "--continuations", "4", "--json")
    assert code == 0, out
    figures = json.loads(out)
    assert figures["decision"] == 4 and figures["hands"] + figures["skipped"] == 2
    assert figures["knobs"] == "samples=6, refine=0" and figures["bot"] == "shipped"
    assert set(figures) == {"variant", "decision", "seed", "first_deal", "deals", "bot",
                            "knobs", "placements", "continuations", "hands", "skipped",
                            "mean_difference", "spread", "noise", "changed", "lead",
                            "raw_lead", "held_out"}
    assert 0 <= figures["changed"] <= 1 and figures["spread"] >= 0 and figures["noise"] >= 0
    assert set(figures["held_out"]) == {"points", "fouls", "entries", "royalties"}
    assert all(set(f) == {"mean", "se"} for f in figures["held_out"].values())


def test_the_audit_tool_prints_its_table(capsys):
    code, out, _ = run(capsys, "audit", "4", "--hands", "2", "--seed", "3", "--bot-knob",
                       "samples=6", "--placements", "3", "--continuations", "4")
    assert code == 0, out
    assert out.startswith("pineapple: decision 4 of the strong bot (samples=6), seat A of "
                          "deals 0..1, seed 3")
    assert "held out: points" in out and "hands audited" in out


@pytest.mark.parametrize("args,message", [
    (["audit", "5"], "audit 5: expected 1 to 4 (pineapple deals 5 decisions a hand, the "
                     "last exact)"),
    (["audit", "0"], "argument decision: '0': expected at least 1"),
    (["audit", "2", "--continuations", "2"],
     "argument --continuations: '2': expected at least 4"),
    (["audit", "2", "--placements", "1"], "argument --placements: '1': expected at least 2"),
    (["audit", "2", "--bot-knob", "samples=none"], "bot knob samples='none': expected a "
                                                   "whole number"),
])
def test_the_audit_tool_refuses_bad_input_in_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert message in err
