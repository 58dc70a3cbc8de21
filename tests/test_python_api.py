"""The Python API as a user meets it: one import name, and results that print short.

A ``Solution`` printed at a prompt used to run to some 10,000 characters (every table of its
rules, twice), with its cards as ints. Each public result now prints its set as text that
``parse_board`` reads back, and what it is worth.
"""

from __future__ import annotations

import doctest
import re

import pytest

import fantasyland
from fantasyland import (Sample, evaluate_board, find_rules, format_cards, parse_board, solve,
                         value_of_set)

HAND = "Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s"
SET_IN_THE_MIDDLE = "Kd Qd Qh / Ts 5s 4s 3s 2s / Ac Ah As 7c 7h"
#: A repr of one line, about a line of a terminal.
SHORT = 160


def _set_in(text: str) -> str:
    """The set a repr shows: ``TOP / MIDDLE / BOTTOM`` after the class name."""
    found = re.search(r"<\w+ ([^:]+?)(?:,| \(|:|>)", text)
    assert found, text
    return found.group(1)


def test_the_face_doctest_runs():
    assert doctest.testmod(fantasyland).failed == 0


@pytest.mark.parametrize("objective", ["royalties", "ev"])
def test_a_solution_prints_its_set_value_and_status_in_one_short_line(objective):
    solution = solve(HAND, objective=objective, alternatives=1, sample=Sample(samples=100))
    text = repr(solution)
    assert len(text) <= SHORT and "\n" not in text, text
    assert parse_board(_set_in(text)) == solution.board
    assert f"worth {solution.value:g} ({objective})" in text
    assert text.endswith(", stays, optimal>")
    for part in (solution.best_staying, solution.best_not_staying, solution.report,
                 solution.report.top, solution.rules, *solution.alternatives):
        assert len(repr(part)) <= SHORT, repr(part)
    assert parse_board(_set_in(repr(solution.best_not_staying))) == solution.best_not_staying.board
    assert repr(solution.rules) == "<Rules 'pineapple'>"


def test_a_valued_set_and_a_scored_board_print_what_they_score():
    valued = value_of_set(HAND, SET_IN_THE_MIDDLE)
    assert repr(valued) == f"<SetValue {SET_IN_THE_MIDDLE}: 21, does not stay>"
    fouled = evaluate_board("As Ac 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d",
                            rules=find_rules("pineapple"))
    assert repr(fouled) == ("<BoardReport As Ac 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d: fouls "
                            "(pineapple)>")


def test_a_joker_prints_with_the_face_it_plays():
    report = evaluate_board("Jk 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d", rules="pineapple-joker")
    assert repr(report.top) == "<RowReport top Jk 6c 4h as 6d 6c 4h: Pair of Sixes, royalty 1>"
    assert repr(report.board).endswith("(jokers as 6d)>")


def test_cards_print_as_the_commands_print_them():
    solution = solve(HAND, objective="royalties")
    assert format_cards(solution.top) == "A♥ A♣ T♠"
    assert format_cards(solution.top, ascii=True) == "Ah Ac Ts"


def test_a_solution_s_stats_are_named_fields_that_cannot_change():
    """``stats`` was a string-keyed dict: a misspelt key read as missing, and any caller could
    write to it. Now each figure is a field, and the record is frozen like the solution."""
    import dataclasses

    solution = solve(HAND, objective="ev", sample=Sample(samples=100))
    stats = solution.stats
    assert stats.candidates == {"top": 364, "middle": 2002, "bottom": 2002}
    assert stats.stay.candidates == sum(stats.candidates.values())
    assert stats.stay.proof == "every set valued" and stats.stay.cp_sat_status is None
    assert 0 < stats.solve_ms <= stats.total_ms
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.solve_ms = 0.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.stay.kept = 0
