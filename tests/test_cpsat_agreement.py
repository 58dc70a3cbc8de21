"""CP-SAT's model against the fastest proof: the same optimum, value and tie-break alike.

``solve(proof="cpsat")`` puts the candidates that survive the bounds into the model and lets
CP-SAT prove the optimum and then find the set the tie-break prefers; by default the solver
proves by exact completion, by the bounds or by valuing every set. Two methods of the
project then check each other, on top of the independent exhaustive search of
``tests/reference.py``. Hands are seeded: under every preset and both objectives, half
from the whole deck and half from a few ranks (where equal values, and so the tie-break,
are common), of every count the preset deals.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasyland.evaluator import find_rules, preset_names
from fantasyland.evaluator.cards import JOKER
from fantasyland.evaluator.rules import ROWS
from fantasyland.optimizer import solve
from fantasyland.optimizer.solver import ObjectiveError, Proof, ProofMethod, Sample, SolveStatus

HANDS = 4  # per preset and objective
#: Opponent deals under ev: few, as agreement is on the sample, whatever its size; classic
#: Chinese Poker's opponents set 13 closed cards each deal, at a millisecond or more each.
SAMPLES, CLOSED_SAMPLES = 30, 6


def deal(variant: str, index: int) -> list[int]:
    """Hand ``index`` of ``variant``: a count it deals, even ones from the whole deck, odd
    ones from few ranks (the jokers kept in, under rules that deal them)."""
    rules = find_rules(variant)
    rng = random.Random(f"cpsat-agreement:{variant}:{index}")
    counts = sorted(rules.dealt_counts) or [13]
    cards = counts[index % len(counts)]
    deck = list(rules.deck.cards)
    if index % 2:
        ranks = set(rng.sample(range(13), 8))
        deck = [card for card in deck if card == JOKER or card // 4 in ranks]
    return rng.sample(deck, cards)


def shown(solution) -> tuple:
    """What must agree: the set row by row, its discards, value, status and both modes'
    best sets (the Decision line), the tie-break's choice among equal values included."""
    def mode(result):
        if result is None:
            return None
        return (round(result.points, 9), tuple(result.board.row(row) for row in ROWS))

    return (tuple(solution.board.row(row) for row in ROWS), solution.discards,
            round(solution.value, 9), solution.status, solution.stays,
            mode(solution.best_staying), mode(solution.best_not_staying))


def cases() -> list:
    """Every preset under both objectives, but classic Chinese Poker under royalties: there
    nearly every set is worth nothing (a bonus is paid only for a row won), so every set
    ties, and the model's proof and its tie-break over all 2,860 candidates take seconds a
    hand (docs/solving.md, "Which proof settles a hand")."""
    return [pytest.param(variant, objective, index, id=f"{variant}-{objective}-{index}")
            for variant in preset_names() for objective in ("royalties", "ev")
            if objective == "ev" or find_rules(variant).entry
            for index in range(HANDS)]


@pytest.mark.parametrize("variant, objective, index", cases())
def test_cp_sat_s_optimum_is_the_fastest_proof_s(variant, objective, index):
    hand = deal(variant, index)
    closed = find_rules(variant).dealing.closed
    sample = Sample(samples=CLOSED_SAMPLES if closed else SAMPLES, seed=index)
    fastest = solve(hand, variant=variant, objective=objective, sample=sample, time_limit=60)
    model = solve(hand, variant=variant, objective=objective, sample=sample, time_limit=60,
                  proof="cpsat")
    assert model.proof is Proof.CPSAT
    assert fastest.status.proved and model.status.proved
    assert shown(model) == shown(fastest)


@settings(max_examples=12, deadline=None)
@given(hand=st.lists(st.integers(0, 51), min_size=13, max_size=17, unique=True),
       objective=st.sampled_from(("royalties", "ev")))
def test_any_pineapple_hand_has_one_optimum_whichever_proves_it(hand, objective):
    sample = Sample(samples=SAMPLES)
    fastest = solve(hand, objective=objective, sample=sample, time_limit=60)
    model = solve(hand, objective=objective, sample=sample, time_limit=60,
                  proof=ProofMethod.CPSAT)
    assert shown(model) == shown(fastest)


def test_the_default_proof_under_royalties_is_the_exact_completion():
    solution = solve("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s", objective="royalties")
    assert solution.proof is Proof.COMPLETION and solution.status is SolveStatus.OPTIMAL
    assert solution.stats.stay.cp_sat_status is None


def test_asked_for_the_model_each_mode_is_proved_by_cp_sat():
    solution = solve("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s 2s", objective="royalties",
                     proof="cpsat")
    for mode in (solution.stats.stay, solution.stats.no_stay):
        # INFEASIBLE: no set beats the incumbent, which is then the optimum
        assert mode.proof is Proof.CPSAT and mode.cp_sat_status in ("OPTIMAL", "INFEASIBLE")
        assert mode.literals >= 3 and mode.tiebreak_ms is not None


def test_an_unknown_proof_is_refused_by_name():
    with pytest.raises(ObjectiveError, match="bad proof 'sat': expected fastest or cpsat"):
        solve("Ac Ah As Kd Qd Qh Ts 7c 7h 6d 5s 4s 3s", proof="sat")
