"""The exact solver: a dealt Fantasyland hand in, the best set out, proved optimal.

Owns the enumerator (``candidates``), its bounds (``bounds``, ``search``), the CP-SAT model
(``model``, ``mode``, ``alternatives``), the objectives (``objective``, ``ev``), dealing
hands (``dealing``) and a solution as plain data (``record``). Imports ``evaluator`` and, for
the ev objective's boards, ``optimizer.opponents``; nothing above it.

Its face is ``__all__``: what the command line and the browser app use, which import it from
here and never from a module below (tests/test_architecture.py). Each name loads its module
on first use, so that importing the package costs nothing.
"""

from __future__ import annotations

from fantasyland.evaluator.faces import lazy_face

#: Each name of the face and the module that defines it (``module:name`` where the face
#: renames it: a module named as its function would hide the function once imported).
_FACE = {
    # a solution and its record
    "Solution": "solve", "SolveStats": "solve", "SolveStatus": "solve", "ModeResult": "mode",
    "ModeStats": "mode", "Proof": "proof", "ProofMethod": "proof",
    "solution_record": "record", "breakdown": "ev", "default_samples": "solve",
    # objectives and the table
    "OBJECTIVES": "objective", "ObjectiveError": "objective", "ObjectiveName": "objective",
    "check_objective": "objective", "TableSpec": "table", "Sample": "table", "describe": "table",
    "read_table": "table",
    # dealt hands
    "SizeError": "dealing", "deal_hands": "dealing", "hand_line": "dealing",
    "parse_size_weights": "dealing", "parse_sizes": "dealing",
    # the check of the ev's standard error
    "CHECK_CARDS": "error_check", "CHECK_HANDS": "error_check",
    "check_ev_error": "error_check:error_check",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
