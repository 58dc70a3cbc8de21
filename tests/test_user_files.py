"""The files a user gives and gets back: what a record keeps of a line it echoes."""

from __future__ import annotations

from fantasyland.evaluator.user_files import EXCERPT_CHARS, excerpt


def test_a_line_up_to_the_limit_is_kept_whole_and_one_past_it_is_cut_with_its_length():
    # Found by the mutation run (docs/notes-mutation.md): with `size >= EXCERPT_CHARS` for
    # `<=`, every short line gained a length, and no test noticed.
    assert excerpt("As Kd") == {"text": "As Kd"}
    at_limit = "x" * EXCERPT_CHARS
    assert excerpt(at_limit) == {"text": at_limit}
    assert excerpt(at_limit + "y") == {"text": at_limit, "length": EXCERPT_CHARS + 1}


def test_the_length_of_a_line_is_counted_in_bytes():
    text = "é" * EXCERPT_CHARS  # as many characters as the limit, twice as many bytes
    assert excerpt(text) == {"text": text, "length": 2 * EXCERPT_CHARS}
    assert excerpt("As", length=EXCERPT_CHARS + 1) == {"text": "As", "length": EXCERPT_CHARS + 1}
