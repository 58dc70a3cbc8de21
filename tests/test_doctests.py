"""Every module's examples run: the doctests of the whole package, one test a module.

Five modules' doctests once never ran (only some test files called ``doctest.testmod``), and
three of them had gone stale with the names of their errors. Here every module of the
installed package's three layers, and its root, is collected and run.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

import fantasyland
from tests.modules import every_module

MODULES = every_module()


def test_every_layer_s_modules_are_collected():
    assert {"fantasyland.evaluator.cards", "fantasyland.optimizer.solver.dealing",
            "fantasyland.cli.web.fields", "fantasyland.cli.render"} <= set(MODULES)
    assert fantasyland.__name__ in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_the_module_s_examples_print_what_they_show(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
