"""Fixed-size chunking that prefers to cut at whitespace."""

from __future__ import annotations

import re

from .base import ChunkingStrategy, Cut, Scanner
from .params import check_int

__all__ = ["FixedSizeChunker"]

_NO_CUTS: list[Cut] = []

# Module globals so that tests can count the work done by the regex engine.
#: The first non-space character.
NONSPACE = re.compile(r"\S")
#: The first whitespace character.
SPACE = re.compile(r"\s")
#: The last whitespace character before ``endpos``.
LAST_SPACE = re.compile(r"\s(?=\S*\Z)")


class _FixedScanner(Scanner):
    """Incremental form of :class:`FixedSizeChunker`'s rule.

    Keeps the text from the current chunk's start on (at most ``size +
    tolerance + 1`` characters once a delta has been consumed), joins it only
    when a decision is due, and searches each position for whitespace at most
    once: a backward search over ``[size - tolerance, size]`` once ``size``
    characters are known, a forward search over the new text after that, and
    the stretch already known to hold no whitespace is skipped.  ``feed`` is
    amortised O(len(delta)).
    """

    __slots__ = (
        "_back",
        "_base",
        "_buf",
        "_flimit",
        "_fwd",
        "_parts",
        "_size",
        "_solid",
        "_start",
        "_tol",
        "_total",
    )

    def __init__(self, size: int, tolerance: int) -> None:
        self._size = size
        self._tol = tolerance
        self._buf = ""  # text from self._base; more in self._parts
        self._parts: list[str] = []
        self._base = 0
        self._total = 0
        self._start: int | None = None  # absolute start of the current chunk
        self._fwd = -1  # forward search resumes here; -1: backward search not done
        self._back = -1  # last whitespace in [size - tolerance, size], if any
        self._flimit = 0  # forward search stops before this offset
        self._solid = 0  # [start, solid) is known to hold no whitespace

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        self._total += len(delta)
        if self._start is None:
            m = NONSPACE.search(delta)
            if m is None:
                return _NO_CUTS  # lead only: nothing to keep
            self._start = self._total - len(delta) + m.start()
            self._base = self._start
            self._buf = delta[m.start() :]
        else:
            self._parts.append(delta)
            if self._total <= self._start + self._size:
                return _NO_CUTS
            if self._fwd >= 0:
                begin = self._total - len(delta)
                lo = max(self._fwd, begin) - begin
                hi = min(self._flimit, self._total) - begin
                if (hi <= lo or SPACE.search(delta, lo, hi) is None) and (
                    self._total < self._flimit
                ):
                    self._fwd = self._total
                    return _NO_CUTS
        return self._scan()

    def _scan(self) -> list[Cut]:
        if self._parts:
            self._buf += "".join(self._parts)
            self._parts = []
        buf, base, total = self._buf, self._base, self._total
        size, tol = self._size, self._tol
        start, fwd, back = self._start, self._fwd, self._back
        flimit, solid = self._flimit, self._solid
        last_space, space, nonspace = LAST_SPACE.search, SPACE.search, NONSPACE.search
        cuts: list[Cut] = []
        while start is not None:
            mid = start + size
            if total <= mid:
                break
            if fwd < 0:
                # Last whitespace in [start + size - tol, start + size].
                lo = mid - tol if mid - tol > solid else solid
                m = last_space(buf, lo - base, mid + 1 - base) if lo <= mid else None
                back = base + m.start() if m else -1
                fwd = mid + 1 if mid + 1 > solid else solid
                # A whitespace after mid wins only if strictly nearer.
                flimit = mid + (mid - back if m else tol + 1)
            cut = -1
            end_fwd = flimit if flimit < total else total
            if fwd < end_fwd:
                m = space(buf, fwd - base, end_fwd - base)
                if m:
                    cut = base + m.start()
            if cut < 0:
                if total < flimit:
                    fwd = total
                    break
                solid = flimit
                cut = back if back >= 0 else mid
            else:
                solid = 0
            # The chunk ends at the last non-space before the cut.
            end = start + len(buf[start - base : cut - base].rstrip())
            m = nonspace(buf, cut - base)
            nxt = base + m.start() if m else total
            cuts.append(Cut(start, end, nxt))
            start = nxt if m else None
            fwd = -1
        self._start, self._fwd, self._back, self._flimit, self._solid = (
            start,
            fwd,
            back,
            flimit,
            solid,
        )
        keep = (start if start is not None else total) - base
        if keep:
            self._buf = buf[keep:]
            self._base = base + keep
        return cuts or _NO_CUTS

    def settled(self) -> bool:
        # The separator ends where the next chunk has begun.
        return self._start is not None

    def finish(self) -> tuple[int, int] | None:
        if self._start is None:
            return None
        text = self._buf + "".join(self._parts)
        return (self._start, self._base + len(text.rstrip()))


class FixedSizeChunker(ChunkingStrategy):
    """Chunks of about ``size`` characters, cut at whitespace where possible.

    A chunk starts at a non-space character.  Its end is chosen among the
    whitespace characters that lie ``size - tolerance`` to ``size + tolerance``
    characters after its start: the one nearest to ``size``; on a tie, the one
    before ``size`` (the shorter chunk).  When there is none, the chunk is cut
    hard after exactly ``size`` characters, even inside a word.  The chunk then
    ends at its last non-space character: whitespace is never part of a chunk,
    it travels as separator with the chunk before it.  No chunk is longer than
    ``size + tolerance``.

    A chunk is complete once the text shows which cut the rule picks (at most
    ``size + tolerance + 1`` characters after its start).  The unfinished rest
    is withheld; ``flush`` returns it with trailing whitespace stripped (at
    most ``size + tolerance`` characters, since the end of the text is as good
    a cut as whitespace), or ``[]`` when only whitespace is left.

    Streaming keeps at most ``size + tolerance + 1`` characters and costs
    amortised O(len(delta)) per ``feed``: no character is searched twice.
    """

    alias = "fixed"

    def __init__(self, size: int, tolerance: int = 0) -> None:
        self.size = check_int("size", size, 1)
        self.tolerance = check_int("tolerance", tolerance, 0)
        if tolerance >= size:
            raise ValueError(
                f"tolerance must be < size, got tolerance={tolerance} with size={size}"
            )

    def _params(self) -> dict[str, object]:
        return {"size": self.size, "tolerance": self.tolerance}

    def scanner(self) -> Scanner:
        return _FixedScanner(self.size, self.tolerance)
