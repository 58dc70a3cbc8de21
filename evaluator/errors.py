"""The one base class of every refusal of a user's input, in the lowest layer.

Each layer's own errors derive from it (``CardError``, ``RulesError``, the solver's
``ObjectiveError``, the batch's ``BatchError``, a web request's ``FieldError``, ...), so
that the command line and the browser app each catch input they cannot use in one place,
by this class alone: one line, exit code 2 or status 400. Any other ``ValueError`` is a
bug and keeps its traceback.

    >>> from fantasyland.evaluator import CardError, parse_cards
    >>> issubclass(CardError, InputError)
    True
    >>> try:
    ...     parse_cards("As Kx")
    ... except InputError as error:
    ...     print(error)
    bad card 'Kx': expected a rank (2-9, T or 10, J, Q, K, A) followed by a suit ...
"""


class InputError(ValueError):
    """Input the library refuses: the message is one line that quotes the bad token and
    says what was expected."""
