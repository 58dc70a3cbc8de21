"""One run at a time on a batch output: an OS lock on ``OUTPUT.lock`` while a run writes it.

Two runs appending to one output would each write every hand: the second is refused. The
lock is the kernel's (``flock``), so it ends with the process that holds it however that
ends, SIGKILL included: a killed run never leaves an output locked. The lock file stays
(removing it could let a third run lock a file the second no longer sees); it holds the
process id of the run that last locked it, for the refusal to name.
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fantasyland.optimizer.batch.files import BatchError


def lock_path(output: Path) -> Path:
    """Where an output's lock is kept: ``OUTPUT.lock``."""
    return output.with_name(output.name + ".lock")


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        pid = ""
    return f" (process {pid})" if pid.isdigit() else ""


@contextmanager
def locked(output: str | Path) -> Iterator[None]:
    """Hold ``output``'s lock for the ``with`` block; raise ``BatchError`` at once when another
    run holds it. An output that exists and is not a regular file (a device, a pipe) is not
    locked: nothing resumes into it."""
    output = Path(output)
    try:
        regular = stat.S_ISREG(os.stat(output).st_mode)
    except FileNotFoundError:
        regular = True  # a new output
    except OSError as error:
        raise BatchError(f"cannot write {str(output)!r}: {error.strerror}") from None
    if not regular:
        yield
        return
    path = lock_path(output)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise BatchError(f"cannot lock {str(output)!r}: {str(path)!r}: {error.strerror}") \
            from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BatchError(f"another batch is writing {str(output)!r}{_holder(fd)}: let it "
                             "finish (or stop it and run again to go on), or use another "
                             "output file") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the lock
