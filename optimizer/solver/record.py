"""A solved hand as plain data: the record ``solve --json`` prints and ``batch`` writes.

It lives here, not in ``cli/``, so that batch workers build records without importing the
command line; ``cli/`` only turns it into text.
"""

from __future__ import annotations

from fantasyland.evaluator.board import BoardReport
from fantasyland.evaluator.cards import ascii_names, sort_cards
from fantasyland.evaluator.rules import ROWS, Row
from fantasyland.optimizer.solver.ev import breakdown
from fantasyland.optimizer.solver.mode import ModeResult
from fantasyland.optimizer.solver.solve import Solution


def _points(value: float | None) -> float | None:
    """Points as JSON shows them: a sum like 18 + 13.8 is 31.8, not 31.799999999999997."""
    return None if value is None else round(float(value), 9)


def _rows_dict(report: BoardReport) -> dict:
    """Each row's cards as dealt (jokers as ``Jk``), and the faces its jokers stand for."""
    return {**{row: ascii_names(report.row(row).cards) for row in ROWS},
            "jokers": {row: ascii_names(report.board.faces(row)) for row in ROWS}}


def _royalties_dict(report: BoardReport) -> dict:
    r = report.royalties
    return {Row.TOP: r.top, Row.MIDDLE: r.middle, Row.BOTTOM: r.bottom, "total": r.total}


def _mode_dict(mode: ModeResult | None) -> dict | None:
    if mode is None:
        return None
    report = mode.board_report
    return {"value": _points(mode.points), **_rows_dict(report),
            "royalties": _royalties_dict(report),
            "stays": report.stays}


def solution_record(solution: Solution) -> dict:
    """A solved hand as plain data: ``solve --json`` (docs/json.md)."""
    report = solution.report
    return {
        "cards": ascii_names(sort_cards(solution.cards)),
        "variant": solution.rules.name,
        "objective": solution.objective,
        "fl_value": _points(solution.fl_value),
        **_rows_dict(report),
        "hands": {row: report.row(row).name for row in ROWS},
        "discards": ascii_names(solution.discards),
        "royalties": _royalties_dict(report),
        "value": _points(solution.value),
        "stays": solution.stays,
        "stay_rows": list(solution.stay_rows),
        "fantasyland_cards_next": solution.fantasyland_cards_next,
        "fouled": solution.fouled,
        "status": solution.status,
        "bound": _points(solution.bound),
        "proof": solution.proof,
        "usual_count": solution.usual_count,
        "solve_ms": round(float(solution.stats.solve_ms), 3),
        "best_staying": _mode_dict(solution.best_staying),
        "best_not_staying": _mode_dict(solution.best_not_staying),
        "break_even_fl_value": _points(solution.break_even_fl_value),
        "alternatives": [{"value": _points(alt.value), **_rows_dict(alt.report),
                          "royalties": _royalties_dict(alt.report), "stays": alt.report.stays}
                         for alt in solution.alternatives],
        "ev": _ev_dict(solution),
        "showdown": _showdown_dict(solution),
    }


def _showdown_dict(solution: Solution) -> dict | None:
    choice = solution.showdown
    if choice is None:
        return None
    held = choice.natural
    return {"choice": choice.choice, "set_value": _points(choice.set_value),
            "natural": None if held is None else {"hand": held.natural.name,
                                                   "value": held.natural.value},
            "declare_value": _points(choice.declare_value),
            "surrender_value": _points(choice.surrender_value)}


def _ev_dict(solution: Solution) -> dict | None:
    if solution.ev is None:
        return None
    parts = breakdown(solution.ev, solution.report)
    return {"royalties": _points(parts.royalties), "row_points": _points(parts.row_points),
            "scoops": _points(parts.scoops), "opponent_fouls": _points(parts.opponent_fouls),
            "naturals": _points(parts.naturals), "sweeps": _points(parts.sweeps),
            "stay_value": _points(parts.stay_value), "total": _points(parts.total),
            "standard_error": _points(parts.standard_error), "samples": parts.samples,
            "opponents": parts.opponents, "exact": parts.exact, "deals": parts.deals,
            "pool_error": _points(parts.pool_error), "pool_boards": _points(parts.pool_boards),
            "table": None if solution.ev.table is None else solution.ev.table.record()}
