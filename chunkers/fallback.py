"""The fallback chain: the levels an over-long unit is cut at, and the cut itself.

A size limit keeps every unit of its inner chunker that fits; a unit that does
not fit is cut at the next smaller boundary, down a chain that ends in a hard
cut::

    structure -> paragraph -> line -> sentence -> word -> (whitespace) -> hard cut

:func:`levels_below` gives the chain below a chunker (a chunker of unknown
level falls back to sentences), :func:`resolve_levels` checks a user's
``fallback=`` list, and :func:`fallback_cut` makes one cut inside a window of
``limit + 1`` characters (a hard cut never inside a grapheme cluster that
starts after the window's start: :func:`~.clusters.cluster_start`).  Used by
:class:`~.limits.Bounded` (streaming), by its whole-document replay
(:mod:`.replay`) and by :class:`~.fill.Sized`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import ChunkingStrategy, SplitFlush
from .clusters import cluster_start
from .fences import Fence, closed_to_cuts, inside
from .registry import resolve_chunker
from .stream import scanner_for

__all__ = ["after_gap", "content_from", "fallback_cut", "levels_below", "resolve_levels"]

Strategy = ChunkingStrategy | SplitFlush
Span = tuple[int, int]

#: The levels below each built-in chunker, by alias, largest first (hard cut implied).
_BELOW: dict[str, tuple[str, ...]] = {
    "structure": ("paragraph", "line", "sentence", "word"),
    "paragraph": ("line", "sentence", "word"),
    "line": ("sentence", "word"),
    "sentence": ("line", "word"),
    "fixed": ("word",),
    "word": (),
}
_DEFAULT_BELOW = ("sentence", "word")


def levels_below(strategy: Strategy) -> tuple[Strategy, ...]:
    """The fallback levels below ``strategy``, largest first (hard cut implied)."""
    alias = getattr(strategy, "alias", "") if isinstance(strategy, ChunkingStrategy) else ""
    return tuple(resolve_chunker(name) for name in _BELOW.get(alias, _DEFAULT_BELOW))


def resolve_levels(fallback: object) -> tuple[Strategy, ...]:
    """The strategies of a ``fallback=`` list (largest first); ``TypeError`` naming it."""
    if isinstance(fallback, (str, bytes)) or not isinstance(fallback, Sequence):
        raise TypeError(
            f"fallback must be a list of chunkers (largest first) or None, "
            f"got {type(fallback).__name__}: {fallback!r:.80}"
        )
    return tuple(resolve_chunker(level, param=f"fallback[{i}]") for i, level in enumerate(fallback))


def fallback_cut(
    levels: tuple[Strategy, ...],
    limit: int,
    window: str,
    *,
    after_chunk: bool = False,
    fence: Fence | None = None,
) -> Span:
    """Chunk span, relative to ``window`` (``limit + 1`` characters), of the next segment.

    The last boundary within ``limit`` of the first level that has one (never
    inside a fenced code block that closes in the window); else a whitespace
    lead on its own (so that the word after it is not cut); else a hard cut at
    ``limit``.  ``after_chunk``: the window starts right after a chunk, so
    the whitespace up to its last line break is the gap after that chunk, not
    a line's indentation, and leads the segment (the line level keeps
    indentation in its chunks; the paragraph level keeps a single line break
    before a paragraph).  ``fence``: the code fence open at the window's start
    (the window starts inside that block), as the text before it reads.
    """
    closed = (
        closed_to_cuts(window, fence, _span_length, limit) if "`" in window or "~" in window else []
    )
    for level in levels:
        cuts = scanner_for(level).feed(window)
        last = None
        for cut in cuts:
            if cut.end > limit:
                break
            if not closed or not inside(cut.end, closed):
                last = cut
        if last is not None:
            start = cuts[0].start
            if after_chunk and start == 0:
                start = after_gap(window, last.end)
            # A line keeps its trailing blanks; a piece cut from a larger unit does not.
            return start, start + (len(window[start : last.end].rstrip()) or last.end - start)
    lead = len(window) - len(window.lstrip())
    if 0 < lead < len(window):
        return 0, lead  # whitespace that cannot travel with the word after it
    return 0, cluster_start(window, limit)  # hard cut


def after_gap(window: str, end: int) -> int:
    """Where a chunk ending at ``end`` starts in a window that starts right
    after a chunk: after the window's leading whitespace up to its last line
    break (the gap after that chunk, which leads the next segment; a line's
    indentation stays), or at 0 when that leaves nothing before ``end``."""
    gap = window[: len(window) - len(window.lstrip())]
    start = len(gap) if "\n" not in gap else gap.rfind("\n") + 1
    return start if start < end else 0


def _span_length(a: int, b: int) -> int:
    return b - a


def content_from(text: str, start: int, end: int) -> int:
    """First non-whitespace offset in ``text[start:end]``, or ``end``."""
    part = text[start:end]
    return end - len(part.lstrip())
