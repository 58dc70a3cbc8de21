"""``--bot-knob NAME=VALUE`` (``optimizer.opponents.params.with_knobs``): a candidate bot
from the command line, each knob read as its kind, and its name given back as it was set."""

from __future__ import annotations

import dataclasses

import pytest

from fantasyland.evaluator import find_rules
from fantasyland.optimizer.opponents.bot import THREE_KEEP_TWO, BotParams
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.params import knobs_text, with_knobs
from fantasyland.optimizer.opponents.players import build_pool
from fantasyland.optimizer.opponents.pools import STRONG_PARAMS

STRONG = STRONG_PARAMS[THREE_KEEP_TWO.name]


def test_each_knob_is_read_as_its_kind():
    tuned = with_knobs(STRONG, ["estimate_foul_penalty=10", "refine=8", "table_points=false",
                                "card_worth=4.5", " table_refine = none "])
    assert tuned == dataclasses.replace(STRONG, estimate_foul_penalty=10.0, refine=8,
                                        table_points=False, card_worth=4.5, table_refine=None)
    assert isinstance(tuned.refine, int) and isinstance(tuned.estimate_foul_penalty, float)
    assert with_knobs(STRONG, []) == STRONG


def test_the_last_of_a_knob_given_twice_counts():
    assert with_knobs(STRONG, ["samples=8", "samples=16"]).samples == 16


def test_the_knobs_set_are_named_as_they_are_given_and_read_back():
    tuned = with_knobs(STRONG, ["search_deals=24", "estimate_foul_penalty=14"])
    text = knobs_text(STRONG, tuned)
    assert text == "search_deals=24, estimate_foul_penalty=14.0"
    assert with_knobs(STRONG, text.split(", ")) == tuned
    assert knobs_text(STRONG, STRONG) == ""


@pytest.mark.parametrize("knob,message", [
    ("refine", "expected NAME=VALUE"),
    ("=3", "expected NAME=VALUE"),
    ("refine=", "expected NAME=VALUE"),
    ("refinement=3", "bot knob 'refinement': expected one of fl_bonus, foul_penalty"),
    ("samples=lots", "bot knob samples='lots': expected a whole number"),
    ("samples=none", "bot knob samples='none': expected a whole number"),
    ("foul_penalty=six", "bot knob foul_penalty='six': expected a number"),
    ("table_points=1", "bot knob table_points='1': expected true or false"),
    ("search_samples=0", "bot knob search_samples='0': expected at least 1"),
    ("foul_penalty=-6", "bot knob foul_penalty='-6': expected at least 0"),
])
def test_a_bad_knob_is_refused_naming_it(knob, message):
    with pytest.raises(OpponentModelError, match=message.replace("(", r"\(")):
        with_knobs(STRONG, [knob])


def test_a_pool_built_with_knobs_records_them():
    pool = build_pool(find_rules("pineapple"), hands=1, seed=3, bot="shipped",
                      knobs=["samples=4", "refine=0", "fl_bonus=30"])
    assert pool.meta["params"]["samples"] == 4 and pool.meta["params"]["fl_bonus"] == 30.0
    assert BotParams().fl_bonus != 30.0


def test_the_learned_bot_takes_no_knobs():
    # Pineapple's pool is the learned bot's, which has no knobs to set
    for bot in (None, "learned"):
        with pytest.raises(OpponentModelError, match="bot knob 'samples=4': the learned bot "
                                                     "has no knobs"):
            build_pool(find_rules("pineapple"), hands=1, bot=bot, knobs=["samples=4"])
