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
    ``window[a:b]``, whatever whitespace leads it: that lead can be a segment
    of its own) is closed to cuts; so is a block that is still open at the end
    of the window and does not start it (it may fit in the next chunk).  A
    block that starts the window and is not known to fit is open to cuts: it
    cannot be kept whole.
    """
    closed: list[Span] = []
    for a, b, done, _ in _blocks(window, state):
        # A block after a lead of whitespace may fit once the lead is gone (the
        # lead is then a segment of its own): it is closed as any other.
        if done:
            if size(a, b) <= limit:
                closed.append((a, b))
        elif a > 0 and size(a, b) <= limit:
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


_INDENT = re.compile(r"[ \t]*+")
_RUNS = {"`": re.compile(r"`*+"), "~": re.compile(r"~*+")}


def _after_line(fence: Fence | None, line: re.Match[str]) -> Fence | None:
    """The fence open after the fence line ``line``, ``fence`` open before it."""
    if fence is None:
        return opened_fence(line)
    return None if closes_fence(fence, line) else fence


def _columns(start: int, indent: str) -> int:
    """The column after ``indent`` (spaces and tabs) from column ``start``
    (a tab counts to the next multiple of four, as ``str.expandtabs(4)``)."""
    if "\t" not in indent:
        return start + len(indent)
    *tabbed, last = indent.split("\t")
    for part in tabbed:
        start += len(part)
        start += 4 - start % 4
    return start + len(last)


class FenceReader:
    """The fence open at the end of a text read as it grows, its start read as
    the start of a line and a last line cut off at the end read as complete:
    what :func:`fence_at` tells of the whole text at its end.

    Each character is read once: complete lines by :data:`FENCE_LINE`, the
    last, unfinished line as it comes, kept as what decides whether it is a
    fence line (its indentation in columns, its run of backticks or tildes,
    whether the rest holds a backtick or is blank), never as text, so a line
    that never ends (a run of spaces or backticks) costs O(its length) in
    all.  Amortised O(len(text)).
    """

    def __init__(self, state: Fence | None) -> None:
        self._state = state  # the fence open where the unfinished line starts
        self._new_line()

    def _new_line(self) -> None:
        self._plain = False  # the unfinished line can be no fence line
        self._cols = 0  # its indentation so far, in columns
        self._mark = ""  # the character of its fence run, once one began
        self._run = 0  # the length of that run so far
        self._run_done = False  # a character after the run has come
        self._tick = False  # the rest of the line holds a backtick
        self._blank = True  # the rest of the line is blank

    def _extend(self, part: str) -> None:
        """Read ``part``, which holds no line break, into the unfinished line."""
        if self._plain or not part:
            return
        i = 0
        if not self._mark:
            indent = _INDENT.match(part)
            i = indent.end() if indent else 0
            self._cols = _columns(self._cols, part[:i])
            if i == len(part):
                return
            if part[i] not in "`~":
                self._plain = True
                return
            self._mark = part[i]
        if not self._run_done:
            run = _RUNS[self._mark].match(part, i)
            end = run.end() if run else i
            self._run += end - i
            i = end
            if i == len(part):
                return
            self._run_done = True
            if self._run < 3:
                self._plain = True
                return
        if not self._tick and "`" in part[i:]:
            self._tick = True
        if self._blank and part[i:].strip():
            self._blank = False

    def _line_end(self) -> Fence | None:
        """The fence open after the unfinished line, read as complete."""
        state = self._state
        if self._plain or self._run < 3:
            return state
        if state is None:
            return None if self._mark == "`" and self._tick else (self._mark, self._run, self._cols)
        closes = (
            self._mark == state[0]
            and self._run >= state[1]
            and self._blank
            and self._cols <= state[2] + 3
        )
        return None if closes else state

    def feed(self, text: str) -> None:
        """Read ``text``, the next part of the text."""
        first = text.find("\n")
        if first < 0:
            self._extend(text)
            return
        self._extend(text[:first])
        state = self._line_end()
        last = text.rfind("\n")
        for line in FENCE_LINE.finditer(text, first + 1, last + 1):
            state = _after_line(state, line)
        self._state = state
        self._new_line()
        self._extend(text[last + 1 :])

    def open_fence(self) -> Fence | None:
        """The fence open at the end of the text read."""
        return self._line_end()
