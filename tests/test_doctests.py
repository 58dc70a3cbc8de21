"""Every module's examples run: the doctests of the whole package, one test a module.

Five modules' doctests once never ran (only some test files called ``doctest.testmod``), and
three of them had gone stale with the names of their errors. Here every module of the
installed package's three layers, and its root, is collected and run.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import fantasyland


def _modules() -> list[str]:
    names = ["fantasyland"]
    for layer in ("evaluator", "optimizer", "cli"):
        package = importlib.import_module(f"fantasyland.{layer}")
        names.append(package.__name__)
        names += [info.name for info in pkgutil.walk_packages(package.__path__,
                                                              prefix=package.__name__ + ".")]
    return sorted(names)


MODULES = _modules()


def test_every_layer_s_modules_are_collected():
    assert {"fantasyland.evaluator.cards", "fantasyland.optimizer.solver.dealing",
            "fantasyland.cli.web.fields", "fantasyland.cli.render"} <= set(MODULES)
    assert fantasyland.__name__ in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_the_module_s_examples_print_what_they_show(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
