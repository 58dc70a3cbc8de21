"""The ``fantasyland`` command line: parse the arguments, call the library, render the result.

Only this package imports typer or rich. Each command lives in a module of its own that
defines ``command``; ``cli.main`` registers it under the module's name.
"""
