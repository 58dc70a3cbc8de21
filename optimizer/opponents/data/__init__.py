"""Opponent pools: boards the heuristic bot played (``fantasyland opponents --regenerate``)."""
