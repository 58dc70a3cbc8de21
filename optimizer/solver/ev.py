"""The expected-value objective: points won against a sample of opponent boards.

EV(set) = sum over opponents of the mean points won from that opponent, over the sample,
under the rules' scoring (1-6 by default), + fl_value x [the set stays]. Against one opponent
board the points are the row points (+1 / -1 a row, ties 0), the scoop bonus either way, any
majority bonus (2-4 scoring), plus our royalties minus theirs; a fouled opponent pays the foul
penalty plus our royalties instead.

Everything but the scoop and majority terms depends on one row at a time, so it becomes each
candidate's integer weight (summed over the sample, so ``units`` is the sample size). The
shared terms get one literal per class of opponent boards in the CP-SAT model (boards that
our candidates beat, or lose to, in the same rows alike), tied to each row's value by
threshold literals, which keeps the optimum exact for the sample.

The standard error of a set's EV counts two errors: the spread of the sampled deals, and the
pool's own (the boards are drawn from a finite pool of boards the bot played, itself a
sample of its play). The second is the linearized variance of the ratio estimate the draw
makes over the pool boards it chose from (``PoolBoards``; docs/ev-and-opponents.md, "How
sure the EV is").
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from fantasyland.evaluator.board_arrays import evaluate_boards
from fantasyland.evaluator.naturals import best_natural
from fantasyland.evaluator.rules import ROWS, Row, Rules, Scoring
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.candidates import Candidates
from fantasyland.optimizer.solver.objective import ObjectiveName, row_weight

if TYPE_CHECKING:  # CP-SAT loads where a model is built or solved (cpsat.py)
    from ortools.sat.python import cp_model

    from fantasyland.optimizer.opponents.draw import PoolShare
    from fantasyland.optimizer.solver.table import Table


@dataclass(frozen=True)
class OpponentField:
    """The opponents' boards of a sample: ``samples`` deals of ``opponents`` boards each."""

    samples: int
    opponents: int
    fouled: np.ndarray  # (samples * opponents,)
    values: dict[str, np.ndarray]  # each row's value on its own scale
    royalties: dict[str, np.ndarray]
    # Where samples share boards made once for the hand (``optimizer.solver.table``): the
    # deal each sample is built on, so that the standard error counts each deal once.
    groups: np.ndarray | None = None
    exact: bool = False  # every opponent's board is known: nothing was sampled
    # What the sample's mean leans on in the pool it was drawn from, for the pool's own
    # error (None: boards given by the caller, or none from a pool), and the rules to score
    # those boards under.
    share: PoolShare | None = dataclasses.field(default=None, compare=False)
    rules: Rules | None = dataclasses.field(default=None, compare=False)
    # Classic Chinese Poker: what each opponent who declares a natural takes from every set
    # (0 where it sets its cards), and the boards, whose 13 cards are its hand.
    declared: np.ndarray | None = dataclasses.field(default=None, compare=False)
    boards: np.ndarray | None = dataclasses.field(default=None, compare=False)

    @classmethod
    def from_boards(cls, boards: np.ndarray, rules: Rules, *, groups: np.ndarray | None = None,
                    exact: bool = False, share: PoolShare | None = None) -> OpponentField:
        """From an ``(samples, opponents, 13)`` array of boards (top, middle, bottom), and
        the ``PoolShare`` of the draw that made them, if any. Under rules with naturals
        (``Rules.showdown``) an opponent whose 13 cards hold one declares it, as the
        opponent model's players do."""
        samples, opponents, _ = boards.shape
        flat = boards.reshape(-1, 13)
        result = evaluate_boards(flat, rules)
        declared = None
        if rules.showdown.naturals.hands:
            declared = np.array([0 if held is None else held.natural.value for held in (
                best_natural(board.tolist(), rules.showdown.naturals) for board in flat)])
        return cls(samples, opponents, result.fouled, result.values, result.royalties,
                   groups, exact, None if exact else share, rules, declared, boards)

    @cached_property
    def pool(self) -> PoolBoards | None:
        """The pool boards the sample was drawn from, evaluated only when an error is asked
        for (a solve needs none)."""
        if self.share is None or self.rules is None:
            return None
        return PoolBoards.from_share(self.share, self.rules)

    @cached_property
    def declaring(self) -> np.ndarray:
        """Whether each board's player declares a natural (then it is not compared)."""
        return np.zeros(len(self.fouled), bool) if self.declared is None else self.declared > 0

    @cached_property
    def standing(self) -> np.ndarray:
        """Indices of the boards that did not foul and are not a declared natural."""
        return np.flatnonzero(~self.fouled & ~self.declaring)

    @cached_property
    def triples(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The distinct row values of the standing boards, as one array per row over the
        distinct (top, middle, bottom) triples, and how many boards have each: the shared
        terms depend on nothing else."""
        rows = {r: self.values[r][self.standing] for r in ROWS}
        split, (counts,) = distinct_triples(rows, np.ones(len(self.standing), np.int64))
        return split, counts

    @cached_property
    def sweep(self) -> Sweep | None:
        """Who can sweep the table, deal by deal, where the rules pay a sweep (classic Chinese
        Poker, three or more players); None where they pay none."""
        bonus = 0 if self.rules is None else self.rules.showdown.sweep_bonus
        if bonus == 0 or self.opponents < 2:
            return None
        return Sweep.of(self, bonus)


#: Sets from which ``shared`` compares them with classes of boards rather than the boards:
#: below it finding the classes costs more than it saves (measured on the random hands of
#: ``bench --objective ev``).
CLASSES_FROM = 64


def distinct_triples(rows: dict[str, np.ndarray], *weights: np.ndarray
                     ) -> tuple[dict[str, np.ndarray], tuple[np.ndarray, ...]]:
    """The distinct (top, middle, bottom) triples of the row values ``rows`` (one entry per
    board; a value may be -1), with each of ``weights`` summed over the boards of each."""
    if len(rows[Row.TOP]) == 0:
        return ({r: np.zeros(0, dtype=np.int64) for r in ROWS},
                tuple(np.zeros(0, dtype=np.int64) for _ in weights))
    shifted = [rows[r].astype(np.int64) + 1 for r in ROWS]  # 0 and up
    base = [int(v.max()) + 1 for v in shifted]
    key = (shifted[0] * base[1] + shifted[1]) * base[2] + shifted[2]  # one integer a triple
    unique, inverse = np.unique(key, return_inverse=True)
    split: dict[str, np.ndarray] = {Row.TOP: unique // (base[1] * base[2]) - 1,
                                    Row.MIDDLE: unique // base[2] % base[1] - 1,
                                    Row.BOTTOM: unique % base[2] - 1}
    sums = tuple(np.bincount(inverse.ravel(), weights=w, minlength=len(unique)).astype(np.int64)
                 for w in weights)
    return split, sums


@dataclass(frozen=True)
class Sweep:
    """The sweep of classic Chinese Poker in a sample: a player who scoops every other
    player at a table of three or more, all of them setting their cards, is paid ``bonus``
    more by each (``evaluator.scoring.settle_table``).

    We sweep a deal exactly when each of our rows beats that row of every standing opponent
    (a fouled set loses every row), so a deal's sweep is a scoop of one board made of the
    best of their rows (``best``, -1 in a row where every opponent fouled). An opponent
    sweeps when it scoops us and every other opponent; the second does not depend on our
    set (``sweeping``)."""

    bonus: int
    open: np.ndarray  # (samples,): every opponent of the deal sets its cards
    best: dict[str, np.ndarray]  # (open deals,) the best standing row of each open deal
    sweeping: np.ndarray  # (samples * opponents,): scoops every other opponent of its deal

    @classmethod
    def of(cls, field: OpponentField, bonus: int) -> Sweep:
        samples, k = field.samples, field.opponents
        fouled = field.fouled.reshape(samples, k)
        open_deal = ~np.asarray(field.declaring.reshape(samples, k).any(axis=1))
        values = {r: np.where(fouled, -1, field.values[r].reshape(samples, k).astype(np.int64))
                  for r in ROWS}
        beats = np.ones((samples, k, k), dtype=bool)  # [d, i, j]: i wins every row from j
        for row in ROWS:
            beats &= values[row][:, :, None] > values[row][:, None, :]
        beats |= fouled[:, None, :]
        beats[:, np.arange(k), np.arange(k)] = True
        sweeping = beats.all(axis=2) & ~fouled & open_deal[:, None]
        best = {r: values[r][open_deal].max(axis=1) for r in ROWS}
        return cls(bonus, open_deal, best, sweeping.ravel())

    def won(self, values: Mapping[str, np.ndarray | int]) -> np.ndarray:
        """Whether sets with these row values sweep each open deal: ``(sets, open deals)``."""
        won = np.asarray(True)
        for row in ROWS:
            won = won & (np.asarray(values[row])[..., None] > self.best[row])
        return np.asarray(won)


@dataclass(frozen=True)
class PoolBoards:
    """The pool boards a sample was drawn from, evaluated, with their shares of its mean."""

    field: OpponentField  # one board a deal, one opponent
    share: PoolShare

    @classmethod
    def from_share(cls, share: PoolShare, rules: Rules) -> PoolBoards:
        return cls(OpponentField.from_boards(share.boards[:, None, :], rules), share)

    def error(self, points: np.ndarray) -> float:
        """The pool's standard error of a deal's mean points, from ``points``, what a set
        wins against each pool board.

        The pool's boards are independent draws of the bot's play, and the draw's mean is,
        tier by tier, a ratio estimate over them (the shares); its linearized variance is
        the sum over boards of each one's influence squared, ``sum_t mix_t share_t (x -
        mean_t)``. Every seat drawn from the pool leans on it alike, so the error of a
        deal's total is ``seats`` times that of one board.
        """
        share = self.share
        means = points @ share.shares  # each tier's mean
        influence = (share.shares * (points[:, None] - means[None, :])) @ share.mix
        return float(share.seats * np.sqrt((influence ** 2).sum()))


@dataclass(frozen=True)
class ExpectedValue:
    """Mean points won against the sample, plus ``fl_value`` for staying."""

    field: OpponentField
    scoring: Scoring
    fl_value: float
    name: str = ObjectiveName.EV
    separable: bool = False
    compares_rows: bool = True
    table: Table | None = None  # the table sampled, when not plain

    @property
    def units(self) -> int:
        return self.field.samples

    @cached_property
    def constant(self) -> int:
        """What the sample pays whatever we set: fouled boards' penalties, minus the standing
        boards' royalties (paid by difference) unless royalties go to row winners only."""
        field = self.field
        paid = int(field.fouled.sum()) * self.scoring.foul_penalty
        if not self.scoring.royalties_to_row_winner_only:
            paid -= int(sum(field.royalties[r][field.standing].sum() for r in ROWS))
        if field.declared is not None:  # a declared natural takes its value from any set
            paid -= int(field.declared.sum())
        return paid

    def _row_terms(self, row: str, values: np.ndarray, royalty: np.ndarray) -> tuple:
        """Wins, losses and (row-winner-only) the royalties lost, for each candidate value."""
        field = self.field
        theirs = field.values[row][field.standing]
        order = np.argsort(theirs, kind="stable")
        sorted_values = theirs[order]
        wins = np.searchsorted(sorted_values, values, side="left")
        above = np.searchsorted(sorted_values, values, side="right")
        losses = len(sorted_values) - above
        their_royalty = field.royalties[row][field.standing][order]
        lost_royalty = np.concatenate(([0], np.cumsum(their_royalty[::-1])))[losses]
        return wins, losses, lost_royalty

    def weigh(self, cands: Candidates) -> Candidates:
        field, scoring = self.field, self.scoring
        boards = field.samples * field.opponents - int(field.declaring.sum())
        fouled = int(field.fouled.sum())
        rows = {}
        for row in ROWS:
            rc = cands.row(row)
            wins, losses, lost_royalty = self._row_terms(row, rc.value, rc.royalty)
            if scoring.royalties_to_row_winner_only:
                weight = wins - losses + rc.royalty * (wins + fouled) - lost_royalty
            else:
                weight = wins - losses + rc.royalty * boards
            # A scoop (or sweep) needs this row to win, so what the bottom's wins could
            # collect caps the scoops; a majority needs two wins, so half of each row's wins
            # caps the majorities.
            extra = -(-scoring.majority_bonus * wins // 2)
            if row == Row.BOTTOM:
                extra = extra + self._scoops_within(rc.value)
            rows[row] = rc.with_weight(weight, bound=weight + extra)
        return cands.replace(**rows)

    def _scoops_within(self, bottom: np.ndarray) -> np.ndarray:
        """The most each bottom value could collect in scoops and sweeps: what the boards
        whose bottom it beats pay for all three rows."""
        total = np.zeros(len(bottom), dtype=np.int64)
        for need, theirs, won, _ in self.scoop_terms:
            if need == 3:
                order = np.argsort(theirs[Row.BOTTOM], kind="stable")
                paid = np.concatenate(([0], np.cumsum(won[order])))
                total += paid[np.searchsorted(theirs[Row.BOTTOM][order], bottom, side="left")]
        return total

    @cached_property
    def scoop_terms(self) -> list[tuple[int, dict[str, np.ndarray], np.ndarray, np.ndarray]]:
        """The points that depend on more than one row: for each, the rows it needs won (or
        lost), and over distinct triples of their row values what winning them pays us and
        what losing them costs. The scoop (3 rows) counts the sweep, whose boards are the
        deals' best rows (``Sweep``); the majority (2-4 scoring) needs 2."""
        field, scoring = self.field, self.scoring
        terms = []
        if scoring.majority_bonus:
            theirs, counts = field.triples
            terms.append((2, theirs, scoring.majority_bonus * counts,
                          scoring.majority_bonus * counts))
        sweep = field.sweep
        if scoring.scoop_bonus or sweep is not None:
            standing = field.standing
            rows = {r: field.values[r][standing] for r in ROWS}
            won = np.full(len(standing), scoring.scoop_bonus, dtype=np.int64)
            lost = won.copy()
            if sweep is not None:
                lost += sweep.bonus * sweep.sweeping[standing]
                rows = {r: np.concatenate((rows[r], sweep.best[r])) for r in ROWS}
                swept = np.full(len(sweep.best[Row.TOP]), sweep.bonus * field.opponents)
                won = np.concatenate((won, swept))
                lost = np.concatenate((lost, np.zeros_like(swept)))
            theirs, (won, lost) = distinct_triples(rows, won, lost)
            keep = (won != 0) | (lost != 0)
            terms.append((3, {r: theirs[r][keep] for r in ROWS}, won[keep], lost[keep]))
        return terms

    def shared(self, values: dict[str, np.ndarray]) -> np.ndarray:
        """The scoop, sweep and majority points of many sets, from their rows' values.

        Many sets are compared with classes of boards, not with the boards: against the
        sets' own distinct values, boards whose rows fall between the same two of them win
        and lose alike (``_board_classes``), and there are several times fewer classes. A
        few sets (the value of one set, say) are compared with the boards themselves, as
        the classes would cost more to find than they save."""
        count = len(values[Row.TOP])
        total = np.zeros(count, dtype=np.int64)
        if not self.scoop_terms or count == 0:
            return total
        if count < CLASSES_FROM:
            for need, theirs, won_pays, lost_costs in self.scoop_terms:
                won = sum((np.asarray(values[row])[:, None] > theirs[row][None, :]).astype(
                    np.int8) for row in ROWS)
                lost = sum((np.asarray(values[row])[:, None] < theirs[row][None, :]).astype(
                    np.int8) for row in ROWS)
                total += (won >= need) @ won_pays - (lost >= need) @ lost_costs
            return total
        distinct, at = {}, {}
        for row in ROWS:
            distinct[row], inverse = np.unique(np.asarray(values[row]), return_inverse=True)
            at[row] = inverse.ravel()
        for need, theirs, won_pays, lost_costs in self.scoop_terms:
            wins, win_pays, losses, loss_costs = _board_classes(distinct, theirs, won_pays,
                                                                lost_costs)
            # In chunks, so that sets x classes stays small.
            for start in range(0, count, 4096):
                part = slice(start, start + 4096)
                won = sum((at[row][part, None] >= wins[None, :, i]).astype(np.int8)
                          for i, row in enumerate(ROWS))
                lost = sum((at[row][part, None] < losses[None, :, i]).astype(np.int8)
                           for i, row in enumerate(ROWS))
                total[part] += (won >= need) @ win_pays - (lost >= need) @ loss_costs
        return total

    def exact(self, cands: Candidates, ranks: dict[str, int]) -> int:
        values = {row: cands.row(row).value[[cands.row(row).index_of(ranks[row])]]
                  for row in ROWS}
        return row_weight(cands, ranks) + int(self.shared(values)[0])

    def extend(self, model: cp_model.CpModel, row_values: dict[str, cp_model.IntVar],
               cands: Candidates) -> cp_model.LinearExprT:
        """One scoop (majority) literal and one scooped literal per class of opponent boards
        that could go either way, each tied to threshold literals on the rows' values.

        Only the candidates' own values matter: against the sorted values ``V`` a row can
        take, our row beats a board's row exactly when its value is at least ``V[k]``, ``k``
        the number of values that do not beat it; it holds (does not lose) exactly when
        its value is at least ``V[j]``, ``j`` the number that lose. Boards with the same
        ``k`` in every row win and lose their rows together, so they share one literal
        (weighted by what they pay), as boards with the same ``j`` do for the losing side.
        """
        if not self.scoop_terms:
            return 0
        values = {r: np.unique(cands.row(r).value) for r in ROWS}
        sizes = np.array([len(values[r]) for r in ROWS])
        at_least: dict[tuple[str, int], cp_model.IntVar] = {}  # row value >= V[k]

        def reaches(row: str, k: int):
            if (row, k) not in at_least:
                literal = model.new_bool_var(f"{row}_at_least_{k}")
                model.add(row_values[row] >= int(values[row][k])).only_enforce_if(literal)
                at_least[row, k] = literal
            return at_least[row, k]

        terms, constant = [], 0
        for need, theirs, won_pays, lost_costs in self.scoop_terms:
            wins, win_pays, losses, loss_costs = _board_classes(values, theirs, won_pays,
                                                                lost_costs)
            must_win, can_win = (wins == 0).sum(axis=1), (wins < sizes).sum(axis=1)
            must_lose, can_lose = (losses == sizes).sum(axis=1), (losses > 0).sum(axis=1)
            # Winning: a literal that may be true only if ``need`` rows beat theirs.
            constant += int(win_pays[must_win >= need].sum())
            for g in np.flatnonzero((must_win < need) & (can_win >= need)).tolist():
                win = model.new_bool_var("win")
                open_rows = [reaches(r, int(wins[g, i])) for i, r in enumerate(ROWS)
                             if 0 < wins[g, i] < sizes[i]]
                model.add(sum(open_rows) >= need - int(must_win[g])).only_enforce_if(win)
                terms.append((win, int(win_pays[g])))
            # Losing: a literal forced true unless enough rows hold theirs.
            constant -= int(loss_costs[must_lose >= need].sum())
            spare = 4 - need  # rows that may hold while the loss still stands
            for g in np.flatnonzero((must_lose < need) & (can_lose >= need)).tolist():
                loss = model.new_bool_var("loss")
                open_rows = [reaches(r, int(losses[g, i])) for i, r in enumerate(ROWS)
                             if 0 < losses[g, i] < sizes[i]]
                holding = int((losses[g] == 0).sum())
                model.add(sum(open_rows) + holding >= spare).only_enforce_if(loss.Not())
                terms.append((loss, -int(loss_costs[g])))
        if not terms:
            return constant
        cp_model = cpsat.cp_model()
        literals, coefficients = zip(*terms)
        return cp_model.LinearExpr.weighted_sum(list(literals), list(coefficients)) + constant

    def points(self, weight: int, stays: bool) -> float:
        return (weight + self.constant) / self.units + (self.fl_value if stays else 0.0)

    def fouled_points(self) -> float:
        """The EV of a fouled set: every standing opponent collects the penalty and their
        royalties (a fouled opponent and we exchange nothing)."""
        field = self.field
        paid = self.scoring.foul_penalty * len(field.standing) + sum(
            int(field.royalties[r][field.standing].sum()) for r in ROWS)
        if field.declared is not None:
            paid += int(field.declared.sum())
        if field.sweep is not None:  # whoever scoops the other opponents sweeps
            paid += field.sweep.bonus * int(field.sweep.sweeping.sum())
        return -paid / field.samples


def _board_classes(values: dict[str, np.ndarray], theirs: dict[str, np.ndarray],
                   won_pays: np.ndarray, lost_costs: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The boards of one shared term in classes, against ``values``, the sorted distinct
    values our rows can take: per board and row, how many of them do not beat theirs (a
    value at that index or above wins the row) and how many lose to it (a value below that
    index loses the row). Boards alike in every row are one class, weighted by what they pay
    (``_classes``). Returns the winning classes and their pays, then the losing classes and
    their costs, each class a row of three indices."""
    sizes = np.array([len(values[r]) for r in ROWS])
    beat_from = np.stack([np.searchsorted(values[r], theirs[r], side="right") for r in ROWS],
                         axis=1)
    hold_from = np.stack([np.searchsorted(values[r], theirs[r], side="left") for r in ROWS],
                         axis=1)
    wins, win_pays = _classes(beat_from[won_pays != 0], won_pays[won_pays != 0], sizes)
    losses, loss_costs = _classes(hold_from[lost_costs != 0], lost_costs[lost_costs != 0],
                                  sizes)
    return wins, win_pays, losses, loss_costs


def _classes(index: np.ndarray, counts: np.ndarray, sizes: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``index`` (one per board triple, each entry 0..size), with the
    boards of each summed from ``counts``."""
    if len(index) == 0:
        return index.reshape(0, 3), np.zeros(0, dtype=np.int64)
    base = sizes + 1
    key = (index[:, 0] * base[1] + index[:, 1]) * base[2] + index[:, 2]
    unique, inverse = np.unique(key, return_inverse=True)
    total = np.bincount(inverse.ravel(), weights=counts, minlength=len(unique))
    rows = np.stack([unique // (base[1] * base[2]), unique // base[2] % base[1],
                     unique % base[2]], axis=1)
    return rows, np.rint(total).astype(np.int64)


@dataclass(frozen=True)
class Breakdown:
    """Where a set's EV comes from, in points per hand (summed over opponents)."""

    royalties: float  # ours received minus theirs paid
    row_points: float
    scoops: float  # scoop and majority bonuses, won minus lost
    opponent_fouls: float  # penalties fouled opponents pay us
    stay_value: float
    total: float
    standard_error: float  # of the total: the sampled deals' spread and the pool's error
    samples: int
    opponents: int
    exact: bool = False  # against known boards only: no sampling, no error
    deals: int | None = None  # independent deals behind the samples, where fewer
    pool_error: float = 0.0  # the pool's part of ``standard_error``
    pool_boards: float | None = None  # effective independent pool boards behind the mean
    naturals: float = 0.0  # what opponents who declare a natural take (classic Chinese Poker)
    sweeps: float = 0.0  # sweeps won minus paid (classic Chinese Poker, 3 or more players)

    @property
    def sample_error(self) -> float:
        """The part of ``standard_error`` from the spread of the sampled deals alone."""
        return float(np.sqrt(max(self.standard_error ** 2 - self.pool_error ** 2, 0.0)))


def standard_error(total: np.ndarray, *, groups: np.ndarray | None = None) -> float:
    """The standard error of the mean of ``total``: from its spread, or where samples share
    a deal (``groups``), from the spread of the deals' sums (a cluster-robust error, which
    counts that the samples of one deal are not independent)."""
    n = len(total)
    if n < 2:
        return 0.0
    if groups is None:
        return float(total.std(ddof=1) / np.sqrt(n))
    sums = np.bincount(groups, weights=total - total.mean())
    count = len(sums)
    if count < 2:
        return 0.0
    return float(np.sqrt((sums ** 2).sum() * count / (count - 1)) / n)


def points_per_deal(field: OpponentField, scoring: Scoring, values: dict[str, int],
                    royalties: dict[str, int]) -> dict[str, np.ndarray]:
    """Points a legal set with these row values and royalties wins in each sampled deal,
    split by source; every array has one entry per deal (opponents summed)."""
    k = field.opponents
    fouled = field.fouled
    declaring = field.declaring
    won = np.zeros(len(fouled), dtype=np.int64)
    lost = np.zeros(len(fouled), dtype=np.int64)
    ours = np.zeros(len(fouled), dtype=np.int64)
    theirs = np.zeros(len(fouled), dtype=np.int64)
    for row in ROWS:
        win = values[row] > field.values[row]
        loss = values[row] < field.values[row]
        won += win
        lost += loss
        if scoring.royalties_to_row_winner_only:
            ours += np.where(win | fouled, royalties[row], 0)
            theirs += np.where(loss & ~fouled, field.royalties[row], 0)
        else:
            ours += royalties[row]
            theirs += np.where(fouled, 0, field.royalties[row])
    rows = np.where(fouled, 0, won - lost)
    bonus = scoring.scoop_bonus * ((won == 3).astype(np.int64) - (lost == 3))
    bonus += scoring.majority_bonus * ((won >= 2).astype(np.int64) - (lost >= 2))
    bonus = np.where(fouled, 0, bonus)
    penalty = np.where(fouled, scoring.foul_penalty, 0)
    # a declared natural is not compared: it takes its value, and nothing else is paid
    rows, bonus, ours, theirs = (np.where(declaring, 0, a) for a in (rows, bonus, ours, theirs))
    naturals = -field.declared if field.declared is not None else np.zeros(len(fouled))

    def per_deal(array: np.ndarray) -> np.ndarray:
        return array.reshape(field.samples, k).sum(axis=1).astype(float)
    sweeps = np.zeros(field.samples)
    if field.sweep is not None:
        sweep = field.sweep
        sweeps[sweep.open] = sweep.bonus * k * sweep.won(values)
        sweeps -= per_deal(sweep.bonus * ((lost == 3) & sweep.sweeping))
    return {"royalties": per_deal(ours - theirs), "row_points": per_deal(rows),
            "scoops": per_deal(bonus), "opponent_fouls": per_deal(penalty),
            "naturals": per_deal(naturals), "sweeps": sweeps}


def set_points(field: OpponentField, scoring: Scoring, report) -> dict[str, np.ndarray]:
    """``points_per_deal`` of a finished board (a ``BoardReport``), fouled or not."""
    if report.fouled:  # it loses every row to each opponent who stands, and is scooped
        standing = ~field.fouled & ~field.declaring
        theirs = np.where(standing, sum(field.royalties[r] for r in ROWS), 0)
        stand = standing.reshape(field.samples, -1).sum(axis=1).astype(float)
        taken = np.zeros(len(standing)) if field.declared is None else field.declared
        return {"royalties": -theirs.reshape(field.samples, -1).sum(axis=1).astype(float),
                "row_points": -len(ROWS) * stand,
                "scoops": -(scoring.scoop_bonus + scoring.majority_bonus) * stand,
                "opponent_fouls": np.zeros(field.samples),
                "naturals": -taken.reshape(field.samples, -1).sum(axis=1).astype(float),
                "sweeps": np.zeros(field.samples) if field.sweep is None else -(
                    field.sweep.bonus * field.sweep.sweeping).reshape(
                    field.samples, -1).sum(axis=1).astype(float)}
    return points_per_deal(field, scoring, {r: report.row(r).value for r in ROWS},
                           {r: report.row(r).royalty for r in ROWS})


def _summed(parts: dict[str, np.ndarray]) -> np.ndarray:
    """The parts added up, deal by deal."""
    return functools.reduce(operator.add, parts.values())


def breakdown(objective: ExpectedValue, report) -> Breakdown:
    """The EV breakdown of a finished board (a ``BoardReport``) against the sample."""
    field, scoring = objective.field, objective.scoring
    parts = set_points(field, scoring, report)
    total = _summed(parts)
    stay = objective.fl_value if report.stays else 0.0
    error = pool_error = 0.0
    pool_boards = None
    if not field.exact:
        error = standard_error(total, groups=field.groups)
        if field.pool is not None:
            against = _summed(set_points(field.pool.field, scoring, report))
            pool_error = field.pool.error(against)
            pool_boards = field.pool.share.effective_boards
            error = float(np.hypot(error, pool_error))  # independent: variances add
    deals = None if field.groups is None else int(field.groups.max()) + 1
    return Breakdown(float(parts["royalties"].mean()), float(parts["row_points"].mean()),
                     float(parts["scoops"].mean()), float(parts["opponent_fouls"].mean()),
                     stay, float(total.mean()) + stay, error, field.samples, field.opponents,
                     field.exact, deals, pool_error, pool_boards,
                     float(parts["naturals"].mean()), float(parts["sweeps"].mean()))
