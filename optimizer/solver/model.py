"""The CP-SAT model: one literal per surviving candidate row, pick one per row.

``build_model`` is a pure function: it returns the model with its variables, and the caller
solves it. Values are integers in the objective's units.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fantasyland.evaluator.rules import ROW_SIZE, ROWS
from fantasyland.optimizer.solver import cpsat
from fantasyland.optimizer.solver.candidates import Candidates
from fantasyland.optimizer.solver.objective import Objective

if TYPE_CHECKING:  # CP-SAT loads where a model is built or solved (cpsat.py)
    from ortools.sat.python import cp_model


@dataclass
class SetModel:
    model: cp_model.CpModel
    picks: dict[str, list[cp_model.IntVar]]  # one literal per candidate, per row
    value: cp_model.LinearExpr  # the objective
    strength: dict[str, cp_model.IntVar]  # each row's strength on the high scale

    def exclude_strengths(self, strengths: dict[str, int]) -> None:
        """Forbid every set whose three rows have exactly these strengths."""
        differs = []
        for row in ROWS:
            literal = self.model.new_bool_var(f"{row}_differs")
            self.model.add(self.strength[row] != strengths[row]).only_enforce_if(literal)
            differs.append(literal)
        self.model.add_bool_or(differs)


def build_model(cands: Candidates, need_stay: bool, objective: Objective,
                *, floor: int | None = None) -> SetModel:
    """A model whose solutions are exactly the legal sets of ``cands`` (staying if asked),
    maximizing the objective's integer value."""
    cp_model = cpsat.cp_model()
    model = cp_model.CpModel()
    picks = {row: [model.new_bool_var(f"{row}{i}") for i in range(len(cands.row(row)))]
             for row in ROWS}

    # Each row holds exactly one candidate.
    for row in ROWS:
        model.add_exactly_one(picks[row])

    # Each dealt card goes to at most one row; the unused ones are the discards. Of 13 cards
    # none is discarded: each goes to exactly one row, which the model then knows at once.
    whole = len(cands.cards) == sum(ROW_SIZE.values())
    for position in range(len(cands.cards)):
        holders = [picks[row][i] for row in ROWS
                   for i in np.flatnonzero(cands.row(row).masks >> position & 1).tolist()]
        if whole:
            model.add_exactly_one(holders)
        elif len(holders) > 1:
            model.add_at_most_one(holders)

    # The foul order: the stronger row's strength is at least that of each candidate chosen
    # for the weaker row. A strength variable per row keeps these constraints short.
    strength = {}
    for row in ROWS:
        s = cands.row(row).strength
        var = model.new_int_var(int(s.min(initial=0)), int(s.max(initial=0)), f"{row}_strength")
        model.add(var == cp_model.LinearExpr.weighted_sum(picks[row], s.tolist()))
        strength[row] = var
    for stronger, weaker in cands.rules.order_pairs:
        floor_by_weaker = cands.row(weaker).strength
        for literal, s in zip(picks[weaker], floor_by_weaker.tolist()):
            model.add(strength[stronger] >= s).only_enforce_if(literal)

    # Staying in Fantasyland: at least one chosen row meets a stay condition.
    if need_stay:
        staying = [picks[row][i] for row in ROWS
                   for i in np.flatnonzero(cands.row(row).stays).tolist()]
        model.add_bool_or(staying)

    # Each row's value on its own scale (the 2-7 middle differs from its strength), for the
    # objective's shared terms.
    row_values = {}
    for row in ROWS:
        rc = cands.row(row)
        if np.array_equal(rc.value, rc.strength):
            row_values[row] = strength[row]
        else:
            var = model.new_int_var(int(rc.value.min()), int(rc.value.max()), f"{row}_value")
            model.add(var == cp_model.LinearExpr.weighted_sum(picks[row], rc.value.tolist()))
            row_values[row] = var

    # The objective: the rows' weights plus whatever terms the rows share.
    value = sum(cp_model.LinearExpr.weighted_sum(picks[row], cands.row(row).weight.tolist())
                for row in ROWS) + objective.extend(model, row_values, cands)
    if floor is not None:
        model.add(value >= floor)
    model.maximize(value)
    return SetModel(model, picks, value, strength)
