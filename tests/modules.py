"""Every module of the installed package, by dotted name: what the doctest and error-class
tests walk."""

import importlib
import pkgutil


def every_module() -> list[str]:
    """``fantasyland`` and every module of its three layers, sorted."""
    names = ["fantasyland"]
    for layer in ("evaluator", "optimizer", "cli"):
        package = importlib.import_module(f"fantasyland.{layer}")
        names.append(package.__name__)
        names += [info.name for info in pkgutil.walk_packages(package.__path__,
                                                              prefix=package.__name__ + ".")]
    return sorted(names)
