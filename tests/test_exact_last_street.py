"""The street before the last, valued exactly over every last deal (optimizer/opponents/exact.py),
against the plain way: every deal's finishes valued one by one, as a rollout finishes a hand."""

from itertools import combinations

import numpy as np
import pytest

from fantasyland.evaluator import find_rules
from fantasyland.optimizer.ordinary.advise import (advise, entry_values, read_advice_position,
                                                   valuation_for)
from fantasyland.optimizer.opponents.exact import exact_worth
from fantasyland.optimizer.ordinary.plays import legal_plays
from fantasyland.optimizer.ordinary.rollouts import finish, unseen_cards
from fantasyland.optimizer.solver.table import PLAIN, Sample, TableSpec


def _deal_by_deal(valuation, layout, unseen, keep, per_round):
    """The mean, foul share and entry sizes of the best finish of ``layout``, deal by deal."""
    values, fouls, entries = [], [], []
    for deal in combinations(range(len(unseen)), per_round):
        out = finish(valuation, layout[None], unseen[list(deal)], keep)
        values.append(out.value[0])
        fouls.append(out.fouled[0])
        entries.append(out.entry_cards[0])
    return np.mean(values), np.mean(fouls), np.array(entries)


# Dead cards (or an opponent's board, known) keep the deals few enough to value one by one:
# C(19, 3) = 969.
AGAINST = {"ev": TableSpec(opponents=1, against=("Jd Qd Ad / 6s 3h 4d 5d 6d / 7d 8d 9h Td Th",))}
CASES = [
    ("progressive", "royalties", "Qc 4c / Ac 2c 7h / 8s 3d 8c Kh", "Qs Qh 2d",
     "Ks Ts 4h 5h 6h 7c 9c Tc Jc 2s 3s 4s 5s 6s 7s 9s Js Th 9h Jh"),
    ("pineapple", "ev", "Kd 5s / Ac 2c 7h / 8s 3d 8c Kh", "Qs 2h 2d", "Ks Ts 4c 5h 6h 7c 9c"),
    # a middle of clubs that may flush with one card to come or two: the suit of a card
    # there matters, elsewhere only its rank (exact.py values alike fills once)
    ("pineapple", "royalties", "Kd 5s / Ac 2c 7c / 8s 3d 8c Kh", "Qs 2h 4c",
     "Ks Ts 4h 5h 6h 9c Tc Jd 2s 3s 4s 5c 6s 7s 9s Js Th 9h Jh Qd"),
    ("ultimate", "royalties", "Kd Kh / Ac Ad 7h / 8s 3d 8c 9d", "Qs 2h 2d",
     "Ks Ts 4c 5h 6h 7c 9c Tc Jc 2s 3s 4s 5c 6s 7s 9s Js Th 9h Jh"),
]


@pytest.mark.parametrize("variant, objective, board, cards, dead", CASES)
def test_every_play_is_worth_its_finishes_deal_by_deal(variant, objective, board, cards, dead):
    rules = find_rules(variant)
    position, table = read_advice_position(rules, board, cards,
                                           spec=AGAINST.get(objective, PLAIN), discards=dead)
    assert position.rounds_left == 1
    valuation, _ = valuation_for(position, objective, table, 300, 5,
                                 entry_values(rules, objective))
    plays = legal_plays(position)
    layouts = np.stack([p.layout for p in plays])
    unseen = unseen_cards(position)
    dealing = position.dealing
    exact = exact_worth(valuation, layouts, unseen, dealing)
    assert exact.deals == len(list(combinations(range(len(unseen)), dealing.per_round)))
    for i in range(0, len(plays), 2):
        value, foul, entries = _deal_by_deal(valuation, layouts[i], unseen, dealing.keep,
                                             dealing.per_round)
        assert exact.value[i] == pytest.approx(value, abs=1e-9)
        assert exact.foul_chance[i] == pytest.approx(foul)
        for cards, chances in exact.entry_chances.items():
            assert chances[i] == pytest.approx((entries == cards).mean())
        assert set(entries.tolist()) - {0} <= set(exact.entry_chances)


def test_one_card_a_street_finishes_in_the_last_slot():
    rules = find_rules("standard")
    position, table = read_advice_position(rules, "Kd Kh / Ac Ad 7h 7c / 8s 3d 8c 8d 2h",
                                           "Qs", discards="Ks Ts 4c")
    assert position.rounds_left == 1 and position.dealing.keep == 1
    valuation, _ = valuation_for(position, "royalties", table, 1, 0,
                                 entry_values(rules, "royalties"))
    plays = legal_plays(position)
    layouts = np.stack([p.layout for p in plays])
    unseen = unseen_cards(position)
    exact = exact_worth(valuation, layouts, unseen, position.dealing)
    for i in range(len(plays)):
        value, foul, _ = _deal_by_deal(valuation, layouts[i], unseen, 1, 1)
        assert exact.value[i] == pytest.approx(value) and exact.foul_chance[i] == foul


# The audit that opened the issue on the learned ordinary hand: 32 to 96 rollouts here never
# saw the 4.48% foul of the play they ranked first, and showed it at 0.000 +- 0.000.
def test_advise_values_the_street_before_the_last_over_every_deal():
    advice = advise(find_rules("progressive"), "6c 4c / Ac 2c / 8s 3d 8c Kh 9c", "Qs 2h 2d",
                    objective="royalties", discards="Ks Ts", sample=Sample(seed=1))
    assert advice.exact and advice.deals == 8436 and advice.rollouts == 0
    by_play = {p.play.describe(): p for p in advice.plays}
    once = by_play["2h middle, 2d top, discard Qs"]
    assert once.value == pytest.approx(-0.2688, abs=1e-4)
    assert once.foul_chance == pytest.approx(0.0448, abs=1e-4)
    assert once.standard_error == 0 and not once.close
    assert advice.best.play.describe() in ("Qs middle, 2d middle, discard 2h",
                                          "Qs middle, 2h middle, discard 2d")
    assert advice.best.value == pytest.approx(-0.0391, abs=1e-4)


def test_the_exact_street_depends_on_no_seed():
    rules = find_rules("pineapple")
    spec = TableSpec(opponents=1)
    first, second = (advise(rules, "Kd 5s / Ac 2c 7h / 8s 3d 8c Kh", "Qs 2h 2d",
                            objective="royalties",
                            sample=Sample(table=spec, seed=seed)) for seed in (0, 9))
    assert [(p.play.key, p.value) for p in first.plays] == \
        [(p.play.key, p.value) for p in second.plays]
