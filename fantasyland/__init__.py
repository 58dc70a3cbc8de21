"""Exact Fantasyland sets for Open-Face Chinese Poker and its Pineapple variants.

The one name this project installs. Its three layers are its subpackages, lowest first:
``fantasyland.evaluator`` (the rules: cards, hands, boards, royalties, scoring),
``fantasyland.optimizer`` (the solver and the work built on it) and ``fantasyland.cli`` (the
``fantasyland`` command and the browser app). docs/architecture.md draws them.

This root is the face of the Python API (docs/python-api.md)::

    >>> from fantasyland import solve, format_cards
    >>> solution = solve("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s", objective="royalties")
    >>> solution  # doctest: +NORMALIZE_WHITESPACE
    <Solution Ah Ac Ts / Kd Qh Qd 7h 7c / As 5s 4s 3s 2s, discards 6d: worth 37.7 (royalties),
    stays, optimal>
    >>> format_cards(solution.top), solution.royalties.total
    ('A♥ A♣ T♠', 24)

Its names load on first use, so that ``import fantasyland`` (and so the command line) costs
nothing until one is asked for.

In the repository the layers sit at the root, beside this folder (``evaluator/``,
``optimizer/``, ``cli/``), and ``pyproject.toml`` maps them into this package when it is
installed. Run from a checkout (the tests from its root, or ``PYTHONPATH=CHECKOUT``), the
same mapping is made here: the root joins this package's search path.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
if not (_HERE / "evaluator").is_dir() and (_HERE.parent / "evaluator" / "__init__.py").is_file():
    __path__.append(str(_HERE.parent))  # noqa: F821 (a package's own search path)

#: Each public name and the module that defines it.
_FACE = {
    # solving and valuing sets
    "solve": "optimizer.solver.solve", "value_of_set": "optimizer.solver.solve",
    "make_objective": "optimizer.solver.solve", "Solution": "optimizer.solver.solve",
    "SetValue": "optimizer.solver.solve", "ModeResult": "optimizer.solver.mode",
    "ObjectiveError": "optimizer.solver.objective", "TableSpec": "optimizer.solver.table",
    "Sample": "optimizer.solver.table",
    # cards, boards and rules
    "Card": "evaluator.cards", "CardError": "evaluator.cards", "parse_card": "evaluator.cards",
    "parse_cards": "evaluator.cards", "format_cards": "evaluator.cards",
    "Board": "evaluator.board", "BoardError": "evaluator.board", "BoardReport": "evaluator.board",
    "parse_board": "evaluator.board", "evaluate_board": "evaluator.board",
    "Rules": "evaluator.rules", "RulesError": "evaluator.rules",
    "find_rules": "evaluator.rules_files", "load_rules": "evaluator.rules_files",
    "preset_names": "evaluator.rules_files", "rules_from_text": "evaluator.rules_files",
    "score_table": "evaluator.scoring", "settle": "evaluator.scoring",
    "TableResult": "evaluator.scoring", "hand_name": "evaluator.strength",
    # the base of every error for input the library refuses
    "InputError": "evaluator.errors",
}

__all__ = sorted(_FACE)


def __getattr__(name: str) -> Any:
    if name not in _FACE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_FACE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
