"""What the learned bot's decisions on one street lose against a deep lookahead, with and
without a lookahead of its own.

A developer's tool (docs/notes-learned.md): the bot plays itself heads-up over ``--tables``
tables (seed 4242) without a lookahead, and each of its decisions ``--street`` streets
before the end is kept. Each decision's plays are valued by a reference, the bot's lookahead
over ``--reference`` deals drawn apart from the ones of the bots compared; each bot compared
(the plain one, and one with a lookahead over each of ``--deals``) loses the reference's best
value less the reference's value of the play it chooses. Two streets from the end the
reference values the next street exactly (the model screening three plays a deal); earlier
it values it by the next street's model, so it is only as good as that model.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--street", type=int, default=2,
                        help="the decisions with this many streets to come after them")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--reference", type=int, default=64, metavar="DEALS")
    parser.add_argument("--deals", type=int, nargs="*", default=[8, 16],
                        help="the lookaheads compared with the plain bot")
    args = parser.parse_args()

    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.opponents.layout import placements
    from fantasyland.optimizer.opponents.learned.bot import LearnedBot
    from fantasyland.optimizer.opponents.learned.positions import play_tables
    from fantasyland.optimizer.opponents.learned.shipped import shipped_models
    from fantasyland.optimizer.opponents.learned.worth import Worth
    from fantasyland.optimizer.opponents.pools import dealing_for

    rules = find_rules("pineapple")
    dealing, models, worth = dealing_for(rules), shipped_models(rules), Worth(rules)
    assert models is not None
    plain = LearnedBot(dealing, models, worth)
    decisions = []

    def recorded(layout, new, keep, unseen, rounds_left, rng):
        if rounds_left == args.street:
            decisions.append((layout.copy(), list(new), keep, unseen.copy()))
        return plain(layout, new, keep, unseen, rounds_left, rng)

    play_tables(rules, dealing, [recorded, recorded], range(args.tables), seed=4242,
                explore=0.0)
    reference = LearnedBot(dealing, models, worth, lookahead_deals=args.reference)
    bots = {"plain": plain} | {f"D={d}": LearnedBot(dealing, models, worth, lookahead_deals=d)
                               for d in args.deals}
    lost: dict[str, list[float]] = {name: [] for name in bots}
    started = time.process_time()
    for layout, new, keep, unseen in decisions:
        options = placements(layout, new, keep)
        # the unseen cards reversed: the same cards, another seed, so other deals
        truth = reference.values(options, unseen[::-1].copy(), args.street)
        for name, bot in bots.items():
            chosen = int(np.argmax(bot.values(options, unseen, args.street)))
            lost[name].append(truth.max() - truth[chosen])
    print(f"{args.street} streets to come: {len(decisions)} decisions, reference "
          f"{args.reference} deals ({time.process_time() - started:.0f} s CPU)")
    for name, values in lost.items():
        loss = np.array(values)
        se = loss.std(ddof=1) / np.sqrt(len(loss))
        print(f"  {name:7} mean loss {loss.mean():.3f} ± {se:.3f} points, the reference's "
              f"best {np.mean(loss < 1e-9):.0%}, "
              f"more than 0.25 lost {np.mean(loss > 0.25):.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
