"""A package's face: its public names, each loaded from its module on first use.

A package lists its face as a table, name to module (``module:name`` where the face renames
what the module defines: a module named as its function would hide the function once
imported), and takes its module ``__getattr__`` and ``__dir__`` from ``lazy_face``. Importing
the package then costs nothing; a name's module loads when the name is first asked for, and
the name is kept in the package, so it loads once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_face(package: str, face: Mapping[str, str], namespace: dict[str, Any]
              ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (its ``__name__``), whose
    ``namespace`` (its ``globals()``) takes each name of ``face`` as it is first asked for."""

    def getattr_(name: str) -> Any:
        if name not in face:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, defined = face[name].partition(":")
        value = getattr(importlib.import_module(f"{package}.{module}"), defined or name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(face))

    return getattr_, dir_
