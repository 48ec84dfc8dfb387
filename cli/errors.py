"""The error types the command reports without a traceback, and writing to stdout.

The commands write their output to standard output through :func:`write_out`
and :func:`flush_out` (bytes) or inside :func:`stdout_errors` (text, rich), so
that a failed write is an :class:`OutputError`, not an ``OSError``: reported
as a write error, never blamed on a validator, never a traceback.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

__all__ = [
    "CommandError",
    "OutputError",
    "closed_stdout",
    "flush_out",
    "stdout_errors",
    "write_out",
]


class CommandError(Exception):
    """A problem the user can fix; ``str(error)`` is one line for stderr.

    ``code`` is the exit status: 2 for bad usage or input (the default), 1 for
    text that failed validation or output that could not be written.
    """

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(" ".join(message.split()))
        self.code = code


class OutputError(CommandError):
    """Standard output could not be written (``error``: the ``OSError`` of the write).

    Exit status 1.  ``str(error)`` names the system's reason, e.g. ``cannot
    write to stdout: No space left on device``; the command prints it.  When
    the reader has gone (``broken_pipe``: a closed pipe, as in ``chunkwise
    demo | head -c 10``) the command prints nothing and exits with status 1,
    as Unix tools do when their reader stops early.
    """

    def __init__(self, error: OSError) -> None:
        reason = error.strerror or type(error).__name__
        super().__init__(f"cannot write to stdout: {reason}", code=1)
        self.broken_pipe = isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE


def closed_stdout() -> OutputError:
    """The error for a standard output closed before the command started (``>&-``).

    Python then has no ``sys.stdout`` (``None``): reported as the failed write
    it would be, ``cannot write to stdout: Bad file descriptor``, status 1.
    """
    return OutputError(OSError(errno.EBADF, os.strerror(errno.EBADF)))


@contextmanager
def stdout_errors() -> Iterator[None]:
    """Raise an ``OSError`` of the block as :class:`OutputError`.

    For blocks that only write to standard output (a ``print`` of rich, a
    text stream's ``write`` and ``flush``): any ``OSError`` there is the write's.
    """
    try:
        yield
    except OSError as error:
        raise OutputError(error) from None


def write_out(out: BinaryIO, data: bytes, *, flush: bool = False) -> None:
    """``out.write(data)`` until all of ``data`` is written, then ``out.flush()``
    with ``flush``; a failure is :class:`OutputError`.

    A write may take less than it was given (a pipe whose reader leaves during
    the write returns the count the pipe took, with no error): the rest is
    written again, so that nothing is dropped and a gone reader is an error.
    """
    view = memoryview(data)
    with stdout_errors():
        while view:
            view = view[out.write(view) :]
        if flush:
            out.flush()


def flush_out(out: BinaryIO) -> None:
    """``out.flush()``; a failure is :class:`OutputError`."""
    with stdout_errors():
        out.flush()
