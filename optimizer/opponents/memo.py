"""A cache keyed by the identity of its arguments, for the bot's hot path.

``functools.cache`` hashes its arguments on every call, and a ``Rules`` hashes field by field
(its tables and entry rungs): on the bot's hot path, called hundreds of times a hand, that
was a twentieth of its time. The same objects come back call after call, so this cache
looks them up by identity and keeps them alive beside their result (an id is not reused
while its object lives). Equal but distinct arguments compute the result again, which is
the same.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

T = TypeVar("T")


def by_identity(function: Callable[..., T]) -> Callable[..., T]:
    """``function`` cached on the identity of its positional arguments."""
    results: dict[tuple[int, ...], tuple[tuple, T]] = {}

    @wraps(function)
    def cached(*args):
        key = tuple(map(id, args))
        hit = results.get(key)
        if hit is None:
            hit = results[key] = (args, function(*args))
        return hit[1]

    cached.cache_clear = results.clear  # type: ignore[attr-defined]
    return cached
