"""The exact solver: a dealt Fantasyland hand in, the best set out, proved optimal.

Owns the enumerator (``candidates``), its bounds (``bounds``, ``search``), the CP-SAT model
(``model``, ``mode``, ``alternatives``), the objectives (``objective``, ``ev``), dealing
hands (``dealing``) and a solution as plain data (``record``). Imports ``evaluator`` and, for
the ev objective's boards, ``optimizer.opponents``; nothing above it.
"""
