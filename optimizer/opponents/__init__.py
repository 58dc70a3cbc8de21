"""The opponent model: the bot that plays ordinary hands, its pools of boards, and the draw.

Owns the bot (``bot``, ``estimate``, ``layout``, ``params``), the shipped pools of its boards
(``pools``, ``data/``), their calibration (``calibration``) and the seeded draw with card
removal (``draw``, ``compatible``, ``removal``). Imports only ``evaluator``: the solver asks
it for boards, never the other way round.
"""
