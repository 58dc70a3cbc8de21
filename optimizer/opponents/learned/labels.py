"""Labels of the learned value, backwards from the end of the hand.

A board one street from the end is labelled exactly: the mean, over every deal of the last
street, of its best finish (``optimizer.opponents.exact``). A board ``r`` streets from the
end is labelled through the model of the next street: over ``deals`` sampled deals of the
next street, each played the way the model likes best (every placement of the dealt cards
valued by the model of ``r - 1`` streets), the mean of those best values. That is the value
of the board under the model's own play of the next street, which is what the bot will do.

What a finished board is worth is ``learned.worth.Worth``: its royalties, plus the worth of
the Fantasyland it enters by the cards it deals (``Rules.entry_value``), or less the rules'
foul penalty when it fouls: ``advise``'s royalties objective, which values boards by it.
"""

from __future__ import annotations

import numpy as np

from fantasyland.optimizer.opponents.bot import remaining
from fantasyland.optimizer.opponents.exact import exact_worth
from fantasyland.optimizer.opponents.layout import EMPTY, ROW_SLOTS, row_moves
from fantasyland.optimizer.opponents.learned.features import features
from fantasyland.optimizer.opponents.learned.network import Network
from fantasyland.optimizer.opponents.learned.positions import Positions
from fantasyland.optimizer.opponents.learned.worth import Worth
from fantasyland.optimizer.opponents.params import Dealing

#: Boards whose next-street deals are valued in one batch of features.
BATCH = 64


def exact_labels(worth: Worth, dealing: Dealing, positions: Positions) -> np.ndarray:
    """The exact value of each board one street from the end."""
    out = np.empty(len(positions))
    for i, (layout, left) in enumerate(zip(positions.layouts, positions.left)):
        out[i] = exact_worth(worth, layout[None], remaining(left.astype(np.int64)),
                             dealing).value[0]
    return out


def _free(layout: np.ndarray) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(s for s in ROW_SLOTS[row] if layout[s] == EMPTY) for row in ROW_SLOTS)


def model_labels(model: Network, dealing: Dealing, positions: Positions, *, deals: int,
                 seed: int, exact: Worth | None = None, exact_top: int = 3) -> np.ndarray:
    """The value of each board through the next street's ``model``, over ``deals`` sampled
    deals of the next street (module docstring). Board ``i``'s deals come from
    ``(seed, i)``. With ``exact`` (boards two streets from the end), the ``exact_top``
    plays of each deal that the model likes best are valued exactly instead, over every last
    deal, and the best of those is the deal's value: the model only screens."""
    out = np.empty(len(positions))
    count, keep = dealing.per_round, dealing.keep
    for start in range(0, len(positions), BATCH):
        boards, lefts, owners = [], [], []
        for i in range(start, min(start + BATCH, len(positions))):
            layout = positions.layouts[i]
            left = positions.left[i].astype(np.int64)
            unseen = remaining(left)
            rng = np.random.default_rng([seed, i])
            dealt = np.stack([rng.choice(unseen, count, replace=False) for _ in range(deals)])
            picks, slots = row_moves(_free(layout), count, keep)
            moves = len(picks)
            played = np.broadcast_to(layout, (deals, moves, 13)).copy()
            rows = np.arange(moves)[:, None]
            for d in range(deals):
                played[d][rows, slots] = dealt[d][picks]
            after = np.broadcast_to(left, (deals, len(left))).copy()
            for d in range(deals):
                np.subtract.at(after[d], dealt[d], 1)
            boards.append(played.reshape(-1, 13))
            lefts.append(np.repeat(after, moves, axis=0))
            owners.append((i, moves))
        every = np.concatenate(boards)
        left_of = np.concatenate(lefts)
        values = model.predict(features(every, left_of))
        at = 0
        for i, moves in owners:
            part = values[at:at + deals * moves].reshape(deals, moves)
            if exact is None:
                out[i] = part.max(axis=1).mean()
            else:
                best = []
                for d in range(deals):
                    top = np.argsort(-part[d], kind="stable")[:exact_top]
                    rows = at + d * moves + top
                    unseen = remaining(left_of[rows[0]])
                    best.append(exact_worth(exact, every[rows], unseen, dealing).value.max())
                out[i] = float(np.mean(best))
            at += deals * moves
    return out
