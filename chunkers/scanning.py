"""A generic incremental scanner for chunkers whose boundaries are local.

A :class:`RegexScanner` looks for the next boundary with one compiled pattern
and keeps only a short *window* of text: the part where a boundary could still
begin.  Text it has ruled out is dropped, never searched again, so a stream of
N characters costs O(N) in total however it is sliced, including a stream that
never reaches a boundary.

A subclass sets three patterns:

* ``boundary``: a match ends the current chunk, ``boundary_lookahead``
  characters before the match ends (the characters that had to be seen to
  decide, such as the whitespace after a full stop; ``-1``: the whole match
  is lookahead and the chunk ends where it starts).  ``boundary_span`` bounds
  the length of a match, so that a search that fails can resume
  ``boundary_span - 1`` characters before the end of the window.
* ``separator``: matched where the chunk ends; the separator travels with the
  chunk's segment.  A separator cut short by the end of a delta continues as
  *lead* of the next segment, which ``lead`` skips, so the chunks do not depend
  on where the deltas were cut.
* ``content``: searched from a segment's start; its match start is where the
  chunk's content begins (everything before it is lead, not content).
"""

from __future__ import annotations

import re
from typing import ClassVar

from .base import Cut, Scanner

__all__ = ["RegexScanner"]

_NO_CUTS: list[Cut] = []


class RegexScanner(Scanner):
    """Incremental boundary search over a sliding window (see module docstring).

    Cost: every character is searched a bounded number of times (at most
    ``boundary_span`` times by ``boundary``, once by ``content``), so ``feed``
    is amortised O(len(delta)).
    """

    boundary: ClassVar[re.Pattern[str]]
    boundary_span: ClassVar[int] = 1
    boundary_lookahead: ClassVar[int] = 0
    separator: ClassVar[re.Pattern[str]]
    content: ClassVar[re.Pattern[str]] = re.compile(r"\S")

    __slots__ = ("_base", "_content_end", "_pos", "_start", "_win")

    def __init__(self) -> None:
        self._win = ""  # text from offset self._base to the end of the input
        self._base = 0
        self._pos = 0  # window index where the boundary search resumes
        self._start: int | None = None  # absolute start of the chunk content
        # Absolute end of the last non-space character; -1: the end of the input.
        self._content_end = 0

    @property
    def _total(self) -> int:
        """Number of characters fed so far."""
        return self._base + len(self._win)

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        if delta[-1].isspace():
            stripped = len(delta.rstrip())
            if stripped or self._content_end < 0:
                self._content_end = self._base + len(self._win) + stripped
        else:
            self._content_end = -1  # the end of the input, wherever it gets
        win = self._win + delta
        pos = self._pos
        if self._start is not None and self.boundary.search(win, pos) is None:
            # The common case, inside a chunk with no boundary yet: only keep
            # the characters where a boundary could still begin.  (The same
            # trim closes _scan; inlined here because a method call is a
            # measurable share of this, the hottest path: see stream_cost.py.)
            resume = len(win) - self.boundary_span + 1
            if resume < pos:
                resume = pos
            if resume > 0:
                self._base += resume
                self._win = win[resume:]
                self._pos = 0
            else:
                self._win = win
            return _NO_CUTS
        return self._scan(win, pos)

    def _scan(self, win: str, pos: int) -> list[Cut]:
        """Cut ``win`` (the window with the new delta) from ``pos`` on."""
        cuts: list[Cut] | None = None
        while True:
            if self._start is None:
                begin = self._content_start(win, pos)
                if begin < 0:
                    # Only lead so far: none of it needs to be seen again.
                    keep = -begin - 1
                    self._base += keep
                    self._win = win[keep:]
                    self._pos = 0
                    return cuts or _NO_CUTS
                self._start = self._base + begin
                if begin > pos:
                    pos = begin
            m = self.boundary.search(win, pos)
            if m is None:
                break
            lookahead = self.boundary_lookahead
            end = m.start() if lookahead < 0 else m.end() - lookahead
            sep = self.separator.match(win, end)  # can match empty text
            stop = sep.end() if sep else end
            base = self._base
            if cuts is None:
                cuts = []
            cuts.append(Cut(self._start, base + end, base + stop))
            self._start = None
            pos = stop
        # A boundary can only begin in the last boundary_span - 1 characters.
        resume = len(win) - self.boundary_span + 1
        if resume < pos:
            resume = pos
        if resume > 0:
            self._base += resume
            self._win = win[resume:]
        else:
            self._win = win
        self._pos = 0 if resume > 0 else pos
        return cuts or _NO_CUTS

    def settled(self) -> bool:
        # The separator ends where the next chunk's content has begun.
        return self._start is not None

    def _content_start(self, win: str, pos: int) -> int:
        """Window index where the chunk content begins, searching from ``pos``.

        Returns ``-(k + 1)`` when the window holds only lead from ``pos`` on and
        the first ``k`` characters of the window need not be kept.
        """
        m = self.content.search(win, pos)
        if m is None:
            return -len(win) - 1
        return m.start()

    def finish(self) -> tuple[int, int] | None:
        if self._start is None:
            return None
        end = self._total if self._content_end < 0 else self._content_end
        if end <= self._start:
            return None
        return (self._start, end)
