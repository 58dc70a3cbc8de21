"""What the bounds are made of: the most some rows can add, with any rows or a staying one.

Kept apart from ``bounds`` so that the chain bound with jokers (``joker_bounds``), which
``bounds`` calls, can build the same parts without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Beyond every value a set can have: ``-INF`` marks "no completion".
INF = np.int64(1) << 60


@dataclass(frozen=True)
class Part:
    """The best value some group of rows can add: with any rows, and with a staying row."""

    any: np.ndarray
    stay: np.ndarray
