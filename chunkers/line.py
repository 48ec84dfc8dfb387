"""Line chunking."""

from __future__ import annotations

import re

from .base import ChunkingStrategy, Cut, Scanner

__all__ = ["LineChunker"]

_NO_CUTS: list[Cut] = []

NEWLINE = re.compile("\n")
NONSPACE = re.compile(r"\S")


class _LineScanner(Scanner):
    """One chunk per ``\\n``-terminated line that holds a non-space character.

    Keeps no text: only the current line's start, whether it has content yet,
    and whether the character before a ``\\n`` was a ``\\r``.  Each character
    of a delta is searched at most twice (for ``\\n``, and for a non-space
    until the line has one), so ``feed`` is O(len(delta)).
    """

    __slots__ = ("_content", "_crlf", "_line", "_prev_cr", "_total")

    def __init__(self, crlf: bool) -> None:
        self._crlf = crlf
        self._line = 0  # absolute start of the current line
        self._content = False  # the current line has a non-space character
        self._prev_cr = False  # the last character fed was "\r"
        self._total = 0

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        base = self._total
        self._total = base + len(delta)
        cuts: list[Cut] | None = None
        i = 0
        while True:
            m = NEWLINE.search(delta, i)
            j = m.start() if m else len(delta)
            if not self._content and j > i and NONSPACE.search(delta, i, j):
                self._content = True
            if m is None:
                self._prev_cr = delta[-1] == "\r"
                return cuts or _NO_CUTS
            if self._content:
                cr = delta[j - 1] == "\r" if j > 0 else self._prev_cr
                end = base + j - (1 if cr and self._crlf else 0)
                if cuts is None:
                    cuts = []
                cuts.append(Cut(self._line, end, base + j + 1))
                self._content = False
            self._line = base + j + 1
            i = j + 1

    def settled(self) -> bool:
        # A line's separator is its line ending: over once a cut is reported.
        return True

    def finish(self) -> tuple[int, int] | None:
        if not self._content:
            return None
        return (self._line, self._total)


class LineChunker(ChunkingStrategy):
    r"""One chunk per line.

    A line ends at ``\n``; the chunk is the line as written, indentation and
    trailing spaces included, without its line ending.  With ``crlf=True``
    (the default) a ``\r\n`` line ending is not part of the chunk either; with
    ``crlf=False`` only ``\n`` is a line ending and a ``\r`` before it stays in
    the chunk (byte-exact lines).  A lone ``\r`` never ends a line.

    A blank or whitespace-only line is not a chunk: it travels, with its line
    ending, as lead of the next line's segment.  A line is complete as soon as
    its ``\n`` arrives; the unterminated last line is withheld, and ``flush``
    returns it byte for byte (nothing stripped; a trailing ``\r`` with no ``\n``
    after it is kept), or ``[]`` when it is empty or whitespace-only.

    The scanner keeps no text, so a stream costs O(len(delta)) per ``feed``.
    """

    alias = "line"

    def __init__(self, *, crlf: bool = True) -> None:
        if not isinstance(crlf, bool):
            raise TypeError(f"crlf must be a bool, got {type(crlf).__name__}: {crlf!r:.80}")
        self.crlf = crlf

    def _params(self) -> dict[str, object]:
        return {} if self.crlf else {"crlf": False}

    def scanner(self) -> Scanner:
        return _LineScanner(self.crlf)
