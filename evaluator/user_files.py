"""The files and streams a user names: read with a bound, written where they can be.

Every file a command opens by the user's word (a rules file, a batch input, a review
history) is read here: a regular file only, never more than a cap, so that a FIFO does not
block and a link to ``/dev/zero`` does not eat memory. Standard input is read with a cap
too, and refused when it is a device other than a terminal or ``/dev/null``. Every output
that takes a path is checked here before the work that fills it starts, and ``-`` names
standard output. Each failure is a ``FileError`` whose message is one line naming the path.

It sits in the lowest layer because the rules files, which the evaluator reads, are among
those files; of the project it imports only its error's base (``evaluator.errors``).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, cast

from fantasyland.evaluator.errors import InputError

#: The most a file read whole may hold: far above any rules file or history a player
#: writes, far below what would strain a machine.
MAX_FILE_BYTES = 16 * 1024 * 1024

#: The most a line of a file read line by line may hold (a batch input): a hand takes a few
#: hundred bytes; a longer line is read past, its length counted, and reported bad.
MAX_LINE_BYTES = 64 * 1024

#: What a record keeps of a bad line: the start of it, and its length beside it.
EXCERPT_CHARS = 1000

STDIN = "-"


class FileError(InputError):
    """A file or stream the user named that cannot be read or written as asked."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:g} MB" if count >= 1024 * 1024 else f"{count:,} bytes"


def _open_regular(path: str | Path, what: str) -> BinaryIO:
    """``path`` opened for reading, once it is known to be a regular file. The open does
    not block on a FIFO (O_NONBLOCK), and the check is made on what was opened (fstat), so
    a symlink is judged by what it points to."""
    shown = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise FileError(f"cannot read {what} {shown!r}: {error.strerror or error}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileError(f"cannot read {what} {shown!r}: it is {_kind(mode)}; expected a "
                            "regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_file(path: str | Path, what: str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``what`` it is (``"rules
    file"``) names it in the error."""
    with _open_regular(path, what) as data:
        try:
            content = data.read(limit + 1)
        except OSError as error:
            raise FileError(f"cannot read {what} {str(path)!r}: "
                            f"{error.strerror or error}") from None
    if len(content) > limit:
        raise FileError(f"cannot read {what} {str(path)!r}: it is larger than {_size(limit)}, "
                        f"the most a {what} may hold")
    return content


def _check_stdin(what: str) -> BinaryIO:
    stream = sys.stdin
    if stream is None or stream.closed:
        raise FileError(f"standard input is closed: expected {what} there")
    # a stream without a byte buffer (a test's text stream) is read as it is: ``read_stdin``
    # encodes the text it gives
    binary = cast(BinaryIO, getattr(stream, "buffer", stream))
    try:
        fd = stream.fileno()
        mode = os.fstat(fd)
    except (OSError, ValueError, AttributeError):  # not a real stream (a test's), or gone
        return binary
    if stat.S_ISCHR(mode.st_mode) and not os.isatty(fd) and not _is_devnull(mode):
        raise FileError(f"standard input is a device: expected {what} from a file or a pipe")
    if stat.S_ISDIR(mode.st_mode):
        raise FileError(f"standard input is a directory: expected {what} from a file or a pipe")
    return binary


def _is_devnull(mode: os.stat_result) -> bool:
    try:
        return os.stat(os.devnull).st_rdev == mode.st_rdev
    except OSError:
        return False


def read_stdin(what: str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """All of standard input, at most ``limit`` bytes: ``what`` it should hold names it in
    the error. A device (``< /dev/zero``) is refused before it is read."""
    stream = _check_stdin(what)
    try:
        content = stream.read(limit + 1)
    except OSError as error:
        raise FileError(f"cannot read standard input: {error.strerror or error}") from None
    if isinstance(content, str):
        content = content.encode("utf-8")
    if len(content) > limit:
        raise FileError(f"standard input holds more than {_size(limit)}, the most {what} "
                        "may take")
    return content


@dataclass(frozen=True)
class Line:
    """A line of a file read line by line, without its line ending: its text (UTF-8, a bad
    byte as ``Lines`` decodes it), or only its start when it is longer than the cap
    (``cut``); ``length`` is its length in bytes either way."""

    text: str
    length: int
    cut: bool = False


def _lines(data: BinaryIO, limit: int, errors: str) -> Iterator[Line]:
    first = True
    while raw := data.readline(limit + 1):
        length, cut = len(raw), False
        if length > limit and not raw.endswith(b"\n"):
            cut, raw = True, raw[:EXCERPT_CHARS * 4]
            while more := data.readline(limit):  # read past the rest, holding none of it
                length += len(more)
                if more.endswith(b"\n"):
                    break
            length -= 1 if more.endswith(b"\n") else 0
        if first and raw.startswith(b"\xef\xbb\xbf"):
            raw, length = raw[3:], length - 3
        first = False
        if not cut:
            raw = raw.removesuffix(b"\n")
            length = len(raw)
            raw = raw.removesuffix(b"\r")
        text = raw.decode("utf-8", errors=errors)
        yield Line(text[:EXCERPT_CHARS] if cut else text, length, cut)


class Lines:
    """The lines of a regular file, or of standard input for ``-``, each of at most
    ``MAX_LINE_BYTES`` (a longer one comes as its start and its length): a stream read as
    long as it lasts, in bounded memory. Bytes that are not UTF-8 are decoded as ``errors``
    says: replaced, or kept as lone surrogates (``"surrogateescape"``) for a reader that
    refuses them. Use it as a context manager."""

    def __init__(self, name: str | Path, what: str, limit: int = MAX_LINE_BYTES,
                 errors: str = "replace"):
        self.name, self.what, self.limit, self.errors = str(name), what, limit, errors
        self._data: BinaryIO | None = None
        self._own = self.name != STDIN

    def __enter__(self) -> Iterator[Line]:
        self._data = (_check_stdin(self.what) if not self._own
                      else _open_regular(self.name, self.what))
        return self._read()

    def _read(self) -> Iterator[Line]:
        assert self._data is not None
        try:
            yield from _lines(self._data, self.limit, self.errors)
        except OSError as error:
            where = "standard input" if not self._own else repr(self.name)
            raise FileError(f"cannot read {self.what} {where}: "
                            f"{error.strerror or error}") from None

    def __exit__(self, *exc: object) -> None:
        if self._own and self._data is not None:
            self._data.close()


def excerpt(text: str, *, length: int | None = None) -> dict[str, str | int]:
    """What a record keeps of a line: all of a short one; the start of a long one, and its
    length in bytes."""
    size = len(text.encode("utf-8", "surrogateescape")) if length is None else length
    if size <= EXCERPT_CHARS and len(text) <= EXCERPT_CHARS:
        return {"text": text}
    return {"text": text[:EXCERPT_CHARS], "length": size}


# --- outputs ---------------------------------------------------------------------------------

def is_stdout(path: str | Path | None) -> bool:
    """Whether an output path names standard output: ``-``."""
    return path is not None and str(path) == STDIN


def check_output(path: str | Path, what: str, *, streams: bool = False) -> None:
    """Refuse, before the work that fills it, an output that cannot be written: a missing
    or unwritable directory, a directory in its place, and unless ``streams`` (the command
    writes a stream, not a file it reopens or replaces) a device or a FIFO."""
    if is_stdout(path):
        return
    shown = str(path)
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise FileError(f"cannot write {what} {shown!r}: {error.strerror or error}") from None
    if mode is not None:
        if stat.S_ISREG(mode):
            if not os.access(path, os.W_OK):
                raise FileError(f"cannot write {what} {shown!r}: permission denied")
            return
        if streams and not stat.S_ISDIR(mode):
            return
        raise FileError(f"cannot write {what} {shown!r}: it is {_kind(mode)}; expected a "
                        "regular file")
    parent = path.parent
    try:
        parent_mode = os.stat(parent).st_mode
    except OSError as error:
        raise FileError(f"cannot write {what} {shown!r}: its directory {str(parent)!r}: "
                        f"{error.strerror or error}") from None
    if not stat.S_ISDIR(parent_mode):
        raise FileError(f"cannot write {what} {shown!r}: {str(parent)!r} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise FileError(f"cannot write {what} {shown!r}: its directory {str(parent)!r}: "
                        "permission denied")


def check_directory(path: str | Path, what: str) -> None:
    """Refuse, before the work that fills it, a directory that is a file or cannot be made
    (its parent missing or unwritable); one that does not exist yet is left to be made."""
    shown = str(path)
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise FileError(f"cannot write {what} in {shown!r}: it is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise FileError(f"cannot write {what} in {shown!r}: permission denied")
        return
    check_output(path, what)
