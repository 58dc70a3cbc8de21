"""How much of the rollouts' spread the learned model takes out: the adviser's figures for the
notes (docs/notes-learned.md, "The adviser on the model").

For seeded positions of a street (``optimizer.ordinary.deal``), the two plays the model likes
best are rolled out on the same deals: by the learned bot with its control variate (for each
count of other deals given), by the learned bot as played (no control variate), and by the
heuristic bot. Printed: the standard deviation, over the rollouts, of the difference of the
two plays (what the paired standard error of their gap is made of: it shrinks as its square
root over the rollouts), each position and their root mean square. Spreads, not times.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend

import argparse  # noqa: E402

import numpy as np  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="pineapple")
    parser.add_argument("--street", type=int, default=1)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rollouts", type=int, default=64)
    parser.add_argument("--objective", default="royalties")
    parser.add_argument("--other-deals", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from fantasyland.evaluator import find_rules
    from fantasyland.optimizer.ordinary.advise import (entry_values, read_advice_position,
                                                       valuation_for)
    from fantasyland.optimizer.ordinary.deal import seeded_positions
    from fantasyland.optimizer.ordinary.learned_rollouts import roll_out_learned
    from fantasyland.optimizer.ordinary.model_advice import model_values
    from fantasyland.optimizer.ordinary.plays import legal_plays
    from fantasyland.optimizer.ordinary.rollouts import roll_out

    rules = find_rules(args.variant)
    entries = entry_values(rules, args.objective)
    indices = np.arange(args.rollouts)
    names = ([f"learned, {k} other deals" for k in args.other_deals]
             + ["learned, as played", "heuristic bot"])
    spreads: list[list[float]] = []
    for dealt in seeded_positions(rules, args.street, args.seed, args.positions):
        position, table = read_advice_position(rules, dealt.board, dealt.cards,
                                               discards=dealt.discards)
        valuation, _ = valuation_for(position, args.objective, table, 2000, args.seed,
                                     entries)
        plays = legal_plays(position)
        two = np.argsort(-model_values(position, plays), kind="stable")[:2]
        layouts = np.stack([plays[i].layout for i in two])
        row = []
        for k in args.other_deals:
            rolled = roll_out_learned(position, valuation, layouts, indices, args.seed,
                                      other_deals=k)
            row.append(float(np.std(rolled.value[0] - rolled.value[1], ddof=1)))
        assert rolled.plain is not None
        row.append(float(np.std(rolled.plain[0] - rolled.plain[1], ddof=1)))
        heuristic = roll_out(position, valuation, layouts, indices, args.seed)
        row.append(float(np.std(heuristic.value[0] - heuristic.value[1], ddof=1)))
        spreads.append(row)
        print(f"{dealt.board} + {dealt.cards}: " + ", ".join(f"{x:.2f}" for x in row),
              flush=True)
    rms = np.sqrt(np.mean(np.square(spreads), axis=0))
    print(f"{args.variant}, street {args.street}, {args.objective}, {len(spreads)} positions, "
          f"{args.rollouts} rollouts each: the spread of the two best plays' difference")
    for name, figure in zip(names, rms):
        print(f"  {name}: {figure:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
