"""The rules of Open-Face Chinese Poker: cards, hand strength, boards, royalties, scoring.

This package knows nothing of the optimizer or the command line.
"""

from fantasyland.evaluator.board import (Board, BoardError, BoardReport, Royalties, RowReport,
                             evaluate_board, parse_board)
from fantasyland.evaluator.cards import Card, CardError, format_cards, parse_card, parse_cards
from fantasyland.evaluator.errors import InputError
from fantasyland.evaluator.handspec import HandSpec, HandSpecError, Scale, parse_spec
from fantasyland.evaluator.rules import (ROW_SIZE, ROWS, DealingStyle, EntryRung, Requirement,
                                         Row, Rules, RulesError, Scoring)
from fantasyland.evaluator.rules_files import (find_preset, find_rules, load_rules, preset_names,
                                   rules_from_text)
from fantasyland.evaluator.scoring import TableResult, score_table, settle
from fantasyland.evaluator.strength import (CLASS_NAMES, class_name, hand_name, lowball_of,
                                            rank3_array, rank5_array, strength_of)

__all__ = [
    "Board", "BoardError", "BoardReport", "CLASS_NAMES", "Card", "CardError", "DealingStyle",
    "EntryRung", "HandSpec", "HandSpecError", "InputError", "ROWS", "ROW_SIZE", "Requirement",
    "Row", "RowReport", "Royalties", "Rules", "RulesError", "Scale", "Scoring", "TableResult",
    "class_name", "evaluate_board", "find_preset", "find_rules", "format_cards", "hand_name",
    "load_rules", "lowball_of", "parse_board", "parse_card", "parse_cards", "parse_spec",
    "preset_names", "rank3_array", "rank5_array", "rules_from_text", "score_table", "settle",
    "strength_of",
]
