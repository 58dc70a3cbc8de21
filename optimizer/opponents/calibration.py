"""Calibrating the opponent model: weighting the bot's boards to where decent players sit.

The heuristic bot's Pineapple boards foul and enter Fantasyland about as often as decent
players' do, but they score fewer royalties (docs/ev-and-opponents.md, "Calibration"). Where
a rules file asks for it, the opponent model therefore weights each board ``b`` by
``exp(theta . f(b))``, with ``f(b)`` its royalties (0 when it fouls), whether it enters
Fantasyland and whether it fouls, and ``theta`` the one vector that makes the weighted means
of the pool's boards hit the target royalties while the foul and entry rates stay the bot's
own. Of all the ways to reweight the boards to those three figures, this one moves least
from the bot's play (it is the distribution of least relative entropy to the bot's, an
exponential tilt), so it adds no structure of its own: among boards with equal figures the
bot's frequencies stand.

The target is the rules file's ``opponents.mean_royalties``, in the rules' own points: off
unless set. Pineapple's pool, the learned bot's, needs none; ``double-deck``'s, the
heuristic bot's, is weighted to 4.5. The weights are a function of a board's figures under
those rules, fitted once on the pool, so every draw for a dealt hand (card removal included)
and every live board can be weighted the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fantasyland.evaluator.board_arrays import BoardArrays, evaluate_boards
from fantasyland.evaluator.rules import Rules
from fantasyland.optimizer.opponents.errors import CalibrationError


def board_features(rules: Rules, boards: np.ndarray) -> np.ndarray:
    """``(n, 3)``: each board's royalties (0 when it fouls), Fantasyland entry and foul."""
    return features_of(evaluate_boards(np.asarray(boards).reshape(-1, 13), rules))


def features_of(out: BoardArrays) -> np.ndarray:
    """``board_features`` of boards already evaluated."""
    return np.stack([out.royalty_total, out.entry_cards > 0, out.fouled], axis=1).astype(float)


@dataclass(frozen=True)
class Calibration:
    """Board weights ``exp(theta . f)``, fitted so that the pool meets ``target_royalties``."""

    rules: Rules  # the rules the features are scored under
    target_royalties: float
    theta: np.ndarray  # (3,) for royalties, entry, foul
    effective_share: float  # Kish's effective sample size of the fitted pool, over its size

    def weights(self, boards: np.ndarray) -> np.ndarray:
        """``(n,)`` positive weights of ``boards`` (a constant factor is immaterial)."""
        return self.weights_of(board_features(self.rules, boards))

    def weights_of(self, features: np.ndarray) -> np.ndarray:
        z = features @ self.theta
        return np.exp(z - z.max()) if len(z) else z


def _tilted(x: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, float]:
    """Normalized weights ``exp(x . theta)`` and the log of their normalizer."""
    z = x @ theta
    top = z.max()
    w = np.exp(z - top)
    total = w.sum()
    return w / total, float(top + np.log(total))


def fit(rules: Rules, boards: np.ndarray, target_royalties: float) -> Calibration:
    """The exponential tilt of ``boards`` whose weighted mean royalties are
    ``target_royalties`` with the foul and entry rates unchanged (``fit_features``)."""
    return fit_features(rules, board_features(rules, boards), target_royalties)


def fit_features(rules: Rules, features: np.ndarray, target_royalties: float) -> Calibration:
    """``fit`` of boards given by their ``board_features`` (scored under ``rules``), for a
    caller that needs the features again: a large pool is evaluated once, not per use.

    ``theta`` minimizes the convex dual ``log mean exp(x . theta) - goal . theta``, by
    Newton's method with a backtracking line search (a full step can overshoot far from the
    start); on the shipped pool it converges in a handful of steps. Raises
    ``CalibrationError`` for a target the boards cannot reach.
    """
    lowest, highest = features[:, 0].min(), features[:, 0].max()
    if not lowest < target_royalties < highest:
        raise CalibrationError(f"target royalties {target_royalties} outside what the boards "
                               f"score ({lowest:g} to {highest:g})",
                               f"the boards score {lowest:g} to {highest:g} royalties each")
    target = np.array([target_royalties, features[:, 1].mean(), features[:, 2].mean()])
    # Features every board shares (no board enters, say) are held by any weights: drop them.
    free = features.std(axis=0) > 0
    x, goal = features[:, free], target[free]
    theta = np.zeros(x.shape[1])
    w, log_total = _tilted(x, theta)
    dual = log_total - goal @ theta
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(200):
            mean = w @ x
            gradient = mean - goal
            if np.abs(gradient).max() < 1e-10:
                break
            centred = x - mean
            try:
                step = -np.linalg.solve(centred.T @ (centred * w[:, None]), gradient)
            except np.linalg.LinAlgError:
                break
            size, slope = 1.0, gradient @ step  # slope < 0: the step goes downhill
            while size > 1e-12:
                trial = theta + size * step
                trial_w, trial_log = _tilted(x, trial)
                trial_dual = trial_log - goal @ trial
                if np.isfinite(trial_dual) and trial_dual <= dual + 1e-4 * size * slope:
                    break  # enough decrease (Armijo)
                size /= 2
            else:
                break
            theta, w, dual = trial, trial_w, trial_dual
    if not (np.all(np.isfinite(theta)) and np.abs(w @ x - goal).max() < 1e-8):
        raise CalibrationError(f"target royalties {target_royalties} not reached: too far from "
                               "what these boards score at their foul and entry rates",
                               "no weighting of the boards that holds their foul and entry "
                               f"rates averages that (as played they average "
                               f"{features[:, 0].mean():.2f})")
    full = np.zeros(3)
    full[free] = theta
    return Calibration(rules, target_royalties, full, float(1 / (w ** 2).sum() / len(w)))
