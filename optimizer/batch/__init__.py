"""Many hands: solving a file of hands resumably, on worker processes or Dask, and the benchmark.

Owns the batch run (``run``), its input and output files (``files``), where hands are solved
(``engines``) and the timings of ``bench`` (``benchmark``). Imports ``evaluator`` and
``optimizer.solver`` (the opponent model only for its name); never ``optimizer.training``
or the command line.

Its face is ``__all__``: what the command line and the browser app use, which import it from
here and never from a module below (tests/test_architecture.py). Each name loads its module
on first use, so that importing the package costs nothing.
"""

from __future__ import annotations

from fantasyland.evaluator.faces import lazy_face

#: Each name of the face and the module that defines it (``module:name`` where the face
#: renames it: a module named as its function would hide the function once imported).
_FACE = {
    # a batch run and its files
    "BadLine": "files", "BatchError": "files", "WorkerError": "files",
    "count_hand_lines": "files", "open_input": "files", "Settings": "engines",
    "open_engine": "engines", "BenchRow": "run", "Events": "run", "Summary": "run",
    "check_output": "run", "check_settings": "run", "run_batch": "run",
    "benchmark_batches": "run:benchmark",
    # the benchmark, and against an older checkout
    "Timings": "benchmark", "machine": "benchmark", "time_ranking": "benchmark",
    "CheckoutError": "against", "Comparison": "against", "SuiteError": "against",
    "checkout": "against", "compare": "against", "groups": "against",
    "identical_results": "against", "identity_jobs": "against",
    # the two proofs of the optimum on the same hands
    "ProofComparison": "proofs", "compare_proofs": "proofs",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
