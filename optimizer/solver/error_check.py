"""The check of the EV's standard error: the EV a solve reports, against the EV of its set on
an independent pool (``fantasyland opponents --check-error POOL``; docs/ev-and-opponents.md,
"How sure the EV is").

Each random hand is solved against the pool that serves the rules; its set is then valued,
the same way and with as many samples, against boards drawn from ``fresh``, a pool the bot
played with another seed. If each side's ± is its true error, the difference over the two
combined is a z-score of standard deviation 1. The check gives the z-scores both with the
full ± and with the sampled deals' part alone, which leaves the pool's own error out (the ±
before it was counted).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fantasyland.evaluator.cards import format_cards
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.draw import (dealt_array, draw_boards, pool_weights,
                                                  serving_pool)
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.pools import Pool, foul_signature
from fantasyland.optimizer.solver.ev import Breakdown, ExpectedValue, OpponentField, breakdown
from fantasyland.optimizer.solver.objective import ObjectiveName
from fantasyland.optimizer.solver.solve import default_samples, solve
from fantasyland.optimizer.solver.table import Sample

#: Card counts of the check's hands, in turn: hand ``k`` is dealt ``CHECK_CARDS[k % 5]``.
CHECK_CARDS = (13, 14, 15, 16, 17)
#: Hands the check deals when not told: 8 of each count.
CHECK_HANDS = 40


def fresh_breakdown(rules: Rules, fresh: Pool, dealt: Sequence[int], report, fl_value: float,
                    samples: int, seed: int) -> Breakdown:
    """The EV breakdown of the set ``report`` of ``dealt`` heads-up against ``samples``
    boards drawn from ``fresh`` (card removal and weighting as a solve draws), its ± counting
    that pool's error."""
    draw = draw_boards(fresh, dealt_array(dealt, deck=rules.deck), samples, seed,
                       weights=pool_weights(fresh, rules))
    field = OpponentField.from_boards(draw.boards.reshape(samples, 1, 13), rules,
                                      share=draw.share)
    return breakdown(ExpectedValue(field, rules.scoring, fl_value), report)


def error_check(rules: Rules, fresh: Pool, *, hands: int = CHECK_HANDS,
                samples: int | None = None, seed: int = 0) -> dict:
    """The z-scores of ``hands`` random hands, heads-up, each solved with ``samples`` deals
    (the module docstring); seeded by ``seed`` (the hands, and both sides' draws)."""
    if fresh.meta.get("foul_signature") != foul_signature(rules) \
            or fresh.meta.get("dealing") != rules.dealing or fresh.deck != rules.deck:
        raise OpponentModelError(f"the pool to check against was played under "
                                 f"{fresh.meta.get('rules')!r}, which does not serve the rules "
                                 f"{rules.name!r}: build one for them with `fantasyland "
                                 f"opponents --regenerate --variant {rules.name} --pool-seed N "
                                 f"--output FILE`")
    if np.array_equal(serving_pool(rules).boards, fresh.boards):
        raise OpponentModelError("the pool to check against is the one solves draw from: "
                                 "give another (and unset FANTASYLAND_POOL if it names it)")
    if hands < 2:
        raise OpponentModelError(f"need hands >= 2 for a spread of z-scores, got {hands}")
    samples = default_samples(rules) if samples is None else samples
    rng = np.random.default_rng([seed, 16])
    rows = []
    for k in range(hands):
        cards = CHECK_CARDS[k % len(CHECK_CARDS)]
        dealt = rng.choice(52, cards, replace=False).tolist()
        solution = solve(dealt, variant=rules, objective=ObjectiveName.EV,
                         sample=Sample(samples=samples, seed=seed + k))
        ev = solution.ev
        assert ev is not None  # solved for ev
        ours = breakdown(ev, solution.report)
        theirs = fresh_breakdown(rules, fresh, dealt, solution.report, ev.fl_value,
                                 samples, seed + k + 1_000_003)
        difference = ours.total - theirs.total
        rows.append({
            "cards": cards, "dealt": format_cards(dealt, ascii=True),
            "set": solution.report.board.format(ascii=True),
            "ev": ours.total, "standard_error": ours.standard_error,
            "pool_error": ours.pool_error, "fresh_ev": theirs.total,
            "fresh_standard_error": theirs.standard_error,
            "fresh_pool_error": theirs.pool_error,
            "z": difference / np.hypot(ours.standard_error, theirs.standard_error),
            "z_without_pool": difference / np.hypot(ours.sample_error, theirs.sample_error),
        })
    z = np.array([r["z"] for r in rows])
    old = np.array([r["z_without_pool"] for r in rows])
    counts = sorted({r["cards"] for r in rows})
    return {
        "hands": hands, "samples": samples, "seed": seed, "rules": rules.name,
        "fresh_pool": {"rules": fresh.meta.get("rules"), "seed": fresh.meta.get("seed"),
                       "boards": len(fresh)},
        "z_sd": float(z.std(ddof=1)), "z_mean": float(z.mean()),
        "z_sd_without_pool": float(old.std(ddof=1)),
        "z_mean_without_pool": float(old.mean()),
        "by_cards": {str(n): {
            "hands": int(sum(r["cards"] == n for r in rows)),
            "z_rms": float(np.sqrt(np.mean([r["z"] ** 2 for r in rows if r["cards"] == n]))),
            "z_rms_without_pool": float(np.sqrt(np.mean(
                [r["z_without_pool"] ** 2 for r in rows if r["cards"] == n]))),
            "mean_standard_error": float(np.mean(
                [r["standard_error"] for r in rows if r["cards"] == n])),
            "mean_pool_error": float(np.mean([r["pool_error"] for r in rows
                                              if r["cards"] == n]))} for n in counts},
        "rows": rows,
    }
