"""The game's words are types: the dealing style, declared once and asked what it deals, the
objective, the solve status, the rows; and no code compares with these words' bare strings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fantasyland.evaluator.rules import ROWS, DealingStyle, Row
from fantasyland.evaluator.rules_files import RulesError, rules_from_text
from fantasyland.optimizer.opponents.params import DEALINGS, Dealing
from fantasyland.optimizer.solver.objective import OBJECTIVES, ObjectiveName
from fantasyland.optimizer.solver.solve import SolveStatus

ROOT = Path(__file__).resolve().parent.parent

#: Words that have a type: code compares with the type's members, never with these strings.
WORDS = {word.value for words in (DealingStyle, ObjectiveName, SolveStatus, Row)
         for word in words}


def bare_comparisons(root: Path) -> list[str]:
    """Every ``==``, ``!=``, ``in`` or ``not in`` under ``root``'s layers with one of
    ``WORDS`` written as a string (alone, or in a tuple, list or set), as ``path:line``."""
    def words(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and node.value in WORDS
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(words(element) for element in node.elts)
        return False

    found = []
    for layer in ("evaluator", "optimizer", "cli"):
        for path in sorted((root / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Compare) and all(
                        isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn))
                        for op in node.ops) and any(map(words, [node.left, *node.comparators])):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_code_compares_with_a_word_s_bare_string():
    assert bare_comparisons(ROOT) == []


def test_the_check_finds_a_planted_comparison(tmp_path):
    (tmp_path / "evaluator").mkdir()
    (tmp_path / "optimizer").mkdir()
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "x.py").write_text(
        'if rules.dealing == "closed":\n    pass\nok = name == "pineapple"\n'
        'if style not in ("three-keep-two", "x"):\n    pass\n')
    assert bare_comparisons(tmp_path) == ["cli/x.py:1", "cli/x.py:4"]


@pytest.mark.parametrize("style", list(DealingStyle))
def test_every_dealing_style_places_13_cards(style):
    assert sum(kept for _, kept in style.streets) == 13
    assert all(0 < kept <= dealt for dealt, kept in style.streets)


def test_a_player_sees_13_cards_dealt_one_at_a_time_or_closed_and_17_in_pineapple():
    assert [style.seen for style in DealingStyle] == [13, 17, 13]
    assert [style.closed for style in DealingStyle] == [False, False, True]


@pytest.mark.parametrize("style", [s for s in DealingStyle if not s.closed])
def test_the_bot_deals_each_open_style_as_the_rules_give_it(style):
    assert DEALINGS[style] == Dealing.of(style)
    assert DEALINGS[style].streets == style.streets and DEALINGS[style].seen == style.seen


def test_a_rules_file_s_dealing_is_read_as_a_style():
    rules = rules_from_text('base = "standard"\ndealing = "closed"')
    assert rules.dealing is DealingStyle.CLOSED and rules.dealing.closed


def test_an_unknown_dealing_names_every_style():
    with pytest.raises(RulesError, match="dealing: unknown style 'open'; expected "
                                         "'one-at-a-time' or 'three-keep-two' or 'closed'"):
        rules_from_text('base = "standard"\ndealing = "open"')


def test_the_output_lists_the_objectives_ev_first_and_the_help_royalties_first():
    assert OBJECTIVES == ("ev", "royalties")
    assert [name.value for name in ObjectiveName] == ["royalties", "ev"]


def test_a_solve_is_proved_unless_the_time_limit_hit_first():
    assert [status.proved for status in SolveStatus] == [True, False, True]


def test_the_rows_run_top_to_bottom_and_are_their_names():
    assert ROWS == ("top", "middle", "bottom") and all(isinstance(row, Row) for row in ROWS)
    assert rules_from_text('base = "standard"').order == (Row.BOTTOM, Row.MIDDLE, Row.TOP)
