"""Many hands: solving a file of hands resumably, on worker processes or Dask, and the benchmark.

Owns the batch run (``run``), its input and output files (``files``), where hands are solved
(``engines``) and the timings of ``bench`` (``benchmark``). Imports ``evaluator`` and
``optimizer.solver`` (the opponent model only for its name); never ``optimizer.training``
or the command line.
"""
