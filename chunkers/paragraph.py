"""Paragraph chunking."""

from __future__ import annotations

import re

from .base import ChunkingStrategy, Scanner
from .scanning import RegexScanner

__all__ = ["ParagraphChunker"]


class _BlankLineScanner(RegexScanner):
    """Paragraphs separated by two or more ``\\n``."""

    boundary = re.compile(r"\n\n")
    boundary_span = 2
    boundary_lookahead = -1
    separator = re.compile(r"\n*")
    crlf = False

    def _content_start(self, win: str, pos: int) -> int:
        n = len(win)
        sep = self.separator.match(win, pos)  # can match empty text
        e = sep.end() if sep else pos
        if self._base + pos == 0 and win.count("\n", 0, e) < 2:
            # At the very start one line break is content, two or more are a
            # separator that opens no paragraph: wait until that is decided.
            if e == n or (self.crlf and e == n - 1 and win[e] == "\r"):
                return -1
            return 0
        if e == n:
            return -n - 1
        if self.crlf and e == n - 1 and win[e] == "\r":
            return -e - 1  # a "\r" that may start a "\r\n": keep it
        return e

    def finish(self) -> tuple[int, int] | None:
        if self._start is None:
            # Undecided line-break characters left over are content.
            return (self._base, self._total) if self._win else None
        return (self._start, self._total)


class _CrlfBlankLineScanner(_BlankLineScanner):
    """Paragraphs separated by two or more ``\\n`` or ``\\r\\n`` line breaks."""

    boundary = re.compile(r"\r?\n\r?\n")
    boundary_span = 4
    separator = re.compile(r"(?:\r?\n)*")
    crlf = True


class ParagraphChunker(ChunkingStrategy):
    r"""Split on blank lines (mellea's ``ParagraphChunker`` semantics).

    Two or more consecutive newlines separate paragraphs; the separator is not
    part of any chunk and travels with the segment of the paragraph before it.
    The trailing paragraph is withheld until a separator follows it, and
    ``flush`` returns it byte for byte (a trailing single ``\n`` included), or
    ``[]`` when the text ends with a separator.  A paragraph of spaces is still
    a paragraph; a single line break at the very start belongs to the first
    paragraph, two or more open none.

    By default, as documented for mellea, only ``\n\n`` separates paragraphs:
    ``\r\n\r\n`` does not.  ``crlf=True`` also accepts ``\r\n`` line breaks in
    separators (``\r\n\r\n``, ``\n\r\n``, ...), whose ``\r`` then belongs to
    the separator, not to the paragraph.
    """

    alias = "paragraph"

    def __init__(self, *, crlf: bool = False) -> None:
        if not isinstance(crlf, bool):
            raise TypeError(f"crlf must be a bool, got {type(crlf).__name__}: {crlf!r:.80}")
        self.crlf = crlf

    def _params(self) -> dict[str, object]:
        return {"crlf": True} if self.crlf else {}

    def scanner(self) -> Scanner:
        return _CrlfBlankLineScanner() if self.crlf else _BlankLineScanner()
