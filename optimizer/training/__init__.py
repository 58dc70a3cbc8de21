"""Training and measurement: grading a player's set, training sessions, the worth of Fantasyland.

Owns grading a set against the optimum (``grading``, ``percentile``), the trainer's session
(``session``) and the simulation behind ``value`` (``worth``). Imports ``evaluator`` and
``optimizer.solver``; never ``optimizer.batch`` or the command line.
"""
