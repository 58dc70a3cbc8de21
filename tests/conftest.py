"""Shared test settings: deterministic hypothesis runs, a model cache and an empty config
of the session's own, the browser of the modules that drive the page, and the C(52, 5) hand
array."""

from __future__ import annotations

import os
from itertools import chain, combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

# Randomness takes an explicit seed (STYLE.md): property tests replay the same examples
# on every run and machine, and keep no example database in the work tree.
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.load_profile("deterministic")

NUM_FIVE_CARD_HANDS = 2_598_960


def pytest_configure(config):
    # eval7 (test-only) builds its range grammar with pyparsing names deprecated since 3.0.
    config.addinivalue_line("filterwarnings", "ignore::DeprecationWarning:eval7.rangestring")


@pytest.fixture(scope="session", autouse=True)
def model_cache(tmp_path_factory) -> Path:
    """Models built for rules files (classic Chinese Poker's opponents) are kept in a cache
    of the session's own, shared by the commands the tests run, not in the user's."""
    from fantasyland.optimizer.opponents.closed import CACHE_VARIABLE

    path = tmp_path_factory.mktemp("model-cache")
    os.environ[CACHE_VARIABLE] = str(path)
    return path


@pytest.fixture(scope="session", autouse=True)
def no_player_config(tmp_path_factory) -> Path:
    """The commands the tests run read no player's config file (cli.defaults): the usual
    place is an empty folder of the session's own, and FANTASYLAND_CONFIG names nothing.
    A test that wants a config file names it (monkeypatch.setenv)."""
    from fantasyland.cli.defaults import CONFIG_VARIABLE

    path = tmp_path_factory.mktemp("config-home")
    os.environ["XDG_CONFIG_HOME"] = str(path)
    os.environ.pop(CONFIG_VARIABLE, None)
    return path


@pytest.fixture(scope="session", autouse=True)
def no_player_history(tmp_path_factory) -> Path:
    """The hands the commands the tests run keep (``play``, the browser trainer) go to a
    history of the session's own unless a test names one (--history), never the player's."""
    path = tmp_path_factory.mktemp("data-home")
    os.environ["XDG_DATA_HOME"] = str(path)
    return path


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for a module that drives the page (``tests.browsing``)."""
    from tests.browsing import launched

    with launched() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where a module that drives the page saves its screenshots: ``FANTASYLAND_SCREENSHOTS``
    if set (docs/images/serve remakes the manual's), else a scratch folder."""
    folder = os.environ.get("FANTASYLAND_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def all_five_card_hands() -> np.ndarray:
    """Every five-card hand as a read-only ``(2598960, 5)`` int8 array, in
    ``itertools.combinations(range(52), 5)`` order."""
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8,
                       count=NUM_FIVE_CARD_HANDS * 5)
    hands = flat.reshape(-1, 5)
    hands.flags.writeable = False
    return hands


def _assert_same_order(reference: np.ndarray, values: np.ndarray) -> None:
    """Assert that ``values`` orders the items exactly as ``reference`` does.

    Both are integer keys, higher is better. The map reference -> value must be a bijection
    between their distinct keys and strictly increasing, so ties are kept and never made.
    """
    pairs = np.unique(np.stack([np.asarray(reference, np.int64),
                                np.asarray(values, np.int64)], axis=1), axis=0)
    distinct_reference = len(np.unique(reference))
    distinct_values = len(np.unique(values))
    assert len(pairs) == distinct_reference, "one reference class got several values"
    assert len(pairs) == distinct_values, "several reference classes share a value"
    # pairs are sorted by reference key, so the values must climb with them
    assert (np.diff(pairs[:, 1]) > 0).all(), "values do not rise with the reference"


@pytest.fixture
def assert_same_order():
    """The order check above, for tests that compare a scale against a reference."""
    return _assert_same_order
