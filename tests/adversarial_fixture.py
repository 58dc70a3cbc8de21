"""Writes ``fixtures/adversarial_hands.jsonl``: the adversarial suite of ``fantasyland bench``
solved by a given checkout of the project (the expected values of ``test_adversarial.py``).

    python tests/adversarial_fixture.py CHECKOUT > fixtures/adversarial_hands.jsonl

``CHECKOUT`` is a folder holding the version whose answers are recorded (the file in the
repository was made with commit a2e46e2, the solver before the exact-completion rewrite).
It runs in its own process through ``from optimizer import solve`` only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fantasyland.evaluator.cards import format_cards
from fantasyland.optimizer.batch.against import Worker
from fantasyland.optimizer.batch.benchmark import KINDS, adversarial_hands

VARIANTS = ("pineapple", "standard", "deuce")


def rows_text(rows: list[list[int]]) -> str:
    """``top / middle / bottom`` as ``parse_board`` reads it, each row from its highest card."""
    return " / ".join(format_cards(sorted(row, reverse=True), ascii=True) for row in rows)


def main(checkout: str) -> None:
    with Worker(Path(checkout)) as worker:
        for kind in KINDS:
            for index, hand in enumerate(adversarial_hands(kind)):
                for variant in VARIANTS:
                    _, record = worker.solve({"cards": hand, "variant": variant,
                                              "objective": "royalties", "fl_value": None})
                    fouled = record["status"] == "fouled"
                    print(json.dumps({
                        "kind": kind, "index": index, "variant": variant,
                        "cards": format_cards(sorted(hand), ascii=True),
                        "expected_value": record["value"],
                        "expected_set": None if fouled else rows_text(record["rows"]),
                        "best_staying": record["best_staying"] and record["best_staying"]["value"],
                        "best_not_staying": record["best_not_staying"]
                        and record["best_not_staying"]["value"],
                    }))


if __name__ == "__main__":
    main(sys.argv[1])
