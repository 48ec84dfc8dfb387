"""Fenced code blocks inside a window of text: where a size limit may not cut.

A cut inside a fenced code block (as :mod:`.markdown` reads one, for every
chunker) is allowed only when the block cannot
be kept whole: when it is larger than the limit.  :func:`closed_to_cuts`
returns the stretches of a window that no boundary may end in; it looks at the
window only (the state at its start is passed in), so every decision it feeds
depends only on the text, never on how a stream was sliced.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from .markdown import FENCE_LINE, Fence, closes_fence, opened_fence

__all__ = ["Fence", "closed_to_cuts", "fence_at", "inside"]

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
            blocks.append((open_at, m.end() - 1, True, fence))
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
