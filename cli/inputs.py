"""Input for the command: files or standard input, decoded as strict UTF-8.

Text is read from the raw file descriptor with ``os.read``, so a pipe is
consumed as it arrives, and decoded incrementally: a character whose bytes
arrive in two reads is decoded once both are in.  Invalid UTF-8 is a
:class:`CommandError` that names the byte offset of the first bad byte,
raised once the text before that byte has been yielded (in whichever read
the bad byte arrives).
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import CommandError

__all__ = ["STDIN", "display_name", "input_size", "iter_text", "opened"]

#: The path that means standard input.
STDIN = "-"


def display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


@contextmanager
def opened(path: str) -> Iterator[int]:
    """A readable file descriptor for ``path`` (``-``: standard input).

    A file that cannot be opened, or a closed standard input, is
    :class:`CommandError` (status 2).
    """
    if path == STDIN:
        if sys.stdin is None:  # (standard input closed: ``<&-``)
            raise CommandError("cannot read <stdin>: standard input is closed")
        yield sys.stdin.fileno()
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        yield fd
    finally:
        os.close(fd)


def input_size(fd: int) -> int | None:
    """Size in bytes of a regular file, ``None`` for pipes and terminals."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def iter_text(fd: int, path: str, *, block: int = 1 << 16) -> Iterator[tuple[str, int]]:
    """Yield ``(text, bytes_read_so_far)`` as data arrives on ``fd``.

    Each ``os.read`` returns what is available (at most ``block`` bytes), so
    text from a slow producer is yielded as soon as it is written; ``text``
    may be empty when a read ends inside a multi-byte character.
    """
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    offset = 0  # bytes read before this block
    while True:
        try:
            data = os.read(fd, block)
        except OSError as exc:
            raise CommandError(f"cannot read {display_name(path)}: {exc.strerror or exc}") from None
        pending = len(decoder.getstate()[0])
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            # exc.start counts from the bytes the decoder was holding back.
            at = offset - pending + exc.start
            # The text before the bad byte comes first, whichever read it
            # arrived in (those bytes decode: the first bad one is at exc.start).
            valid = exc.object[: exc.start].decode("utf-8")
            if valid:
                yield valid, at
            raise CommandError(
                f"{display_name(path)}: invalid UTF-8 at byte offset {at} ({exc.reason})"
            ) from None
        offset += len(data)
        if text or data:
            yield text, offset
        if not data:
            return
