"""Fenced code blocks inside a window of text: where a size limit may not cut.

A cut inside a fenced code block (as :mod:`.markdown` reads one, for every
chunker) is allowed only when the block cannot
be kept whole: when it is larger than the limit.  :func:`closed_to_cuts`
returns the stretches of a window that no boundary may end in; it looks at the
window only (the state at its start is passed in), so every decision it feeds
depends only on the text, never on how a stream was sliced.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

from .markdown import FENCE_LINE, Fence, closes_fence, opened_fence

__all__ = ["Fence", "FenceReader", "closed_to_cuts", "fence_at", "inside"]

Span = tuple[int, int]


def _blocks(window: str, state: Fence | None) -> list[tuple[int, int, bool, Fence]]:
    """``(start, end, closed, fence)`` of each fenced block in ``window``; a block
    open at the window's start (``state``) starts at 0; an unclosed one ends at
    the end of the window.  Only complete lines are read."""
    blocks = []
    open_at = 0 if state is not None else -1
    fence = state
    for m in FENCE_LINE.finditer(window):
        if fence is None:
            fence = opened_fence(m)
            open_at = m.start()
        elif closes_fence(fence, m):
            # (Ends after the fence, before blanks or the CR of a CR LF.)
            blocks.append((open_at, m.start() + len(m.group().rstrip()), True, fence))
            fence = None
    if fence is not None:
        blocks.append((open_at, len(window), False, fence))
    return blocks


def closed_to_cuts(
    window: str, state: Fence | None, size: Callable[[int, int], int], limit: int
) -> list[Span]:
    """Open intervals ``(a, b)`` of ``window`` in which no chunk may end.

    A block that fits (``size(a, b) <= limit``, ``size`` measuring
    ``window[a:b]``) is closed to cuts; so is a block that is still open at the
    end of the window and does not start it (it may fit in the next chunk).  A
    block that starts the window (only whitespace before it) and is not known to
    fit is open to cuts: it cannot be kept whole.
    """
    closed: list[Span] = []
    for a, b, done, _ in _blocks(window, state):
        leading = a == 0 or not window[:a].strip()
        if done:
            if size(0 if leading else a, b) <= limit:
                closed.append((a, b))
        elif not leading and size(a, b) <= limit:
            closed.append((a, b + 1))  # an end at the window's end is inside, too
    return closed


def inside(end: int, closed: list[Span]) -> bool:
    """Whether a chunk ending at ``end`` would end inside one of ``closed``.

    ``closed`` is as :func:`closed_to_cuts` returns it: disjoint intervals in
    order, so only the last one that opens before ``end`` can hold it.
    O(log len(closed)): a window of many small blocks is asked once per
    boundary in it, and a scan of every block per boundary made a size
    limit's cut cost the square of its window.
    """
    i = bisect_left(closed, (end,))
    return i > 0 and end < closed[i - 1][1]


def fence_at(window: str, state: Fence | None, end: int) -> Fence | None:
    """The fence open at offset ``end`` of ``window`` (after a cut there), if any."""
    for a, b, done, fence in _blocks(window[:end] + "\n", state):
        if a < end and (not done or end < b):
            return fence
    return None


# The start of a line that can be no fence line, however it goes on.
_NO_FENCE = re.compile(r"[ \t]*+(?:[^ \t`~]|`{1,2}+[^`]|~{1,2}+[^~])")


def _after_line(fence: Fence | None, line: re.Match[str]) -> Fence | None:
    """The fence open after the fence line ``line``, ``fence`` open before it."""
    if fence is None:
        return opened_fence(line)
    return None if closes_fence(fence, line) else fence


class FenceReader:
    """The fence open at the end of a text read as it grows, its start read as
    the start of a line and a last line cut off at the end read as complete:
    what :func:`fence_at` tells of the whole text at its end.

    Each complete line is read once; the last, unfinished line is read again
    at each :meth:`open_fence` only while it may still be a fence line (it
    opens with a run of backticks or tildes).  Amortised O(len(text)) but for
    that line.
    """

    def __init__(self, state: Fence | None) -> None:
        self._state = state  # the fence open where the unfinished line starts
        self._line = ""  # the unfinished line, unless it can be no fence line
        self._plain = False  # the unfinished line can be no fence line

    def feed(self, text: str) -> None:
        """Read ``text``, the next part of the text."""
        last = text.rfind("\n")
        if last < 0:
            if not self._plain:
                self._line += text
                self._check_plain()
            return
        if self._plain:
            lines = text[text.find("\n") + 1 : last + 1]
        else:
            lines = self._line + text[: last + 1]
        for line in FENCE_LINE.finditer(lines):
            self._state = _after_line(self._state, line)
        self._line, self._plain = text[last + 1 :], False
        self._check_plain()

    def _check_plain(self) -> None:
        if _NO_FENCE.match(self._line):
            self._line, self._plain = "", True

    def open_fence(self) -> Fence | None:
        """The fence open at the end of the text read."""
        line = None if self._plain or not self._line else FENCE_LINE.match(self._line + "\n")
        return self._state if line is None else _after_line(self._state, line)
