"""Opponent pools: boards the heuristic bot played, built by ``fantasyland opponents --regenerate``."""
