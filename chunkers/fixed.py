"""Fixed-size chunking that prefers to cut at whitespace."""

from __future__ import annotations

import re

from .base import ChunkingStrategy, Cut, Scanner
from .params import check_choice, check_int

__all__ = ["FixedSizeChunker"]

_NO_CUTS: list[Cut] = []

# Module globals so that tests can count the work done by the regex engine.
#: The first non-space character.
NONSPACE = re.compile(r"\S")
#: The first whitespace character.
SPACE = re.compile(r"\s")
#: The last whitespace character before ``endpos``.
LAST_SPACE = re.compile(r"\s(?=\S*\Z)")


def _next_nonspace(buf: str, pos: int) -> int:
    """Index of the first non-space character of ``buf`` at or after ``pos``, or -1.

    Searched in windows of doubling length: the text handed to the regex
    engine stays proportional to the whitespace skipped, not to the rest of
    ``buf`` (which may hold a whole long delta).
    """
    step = 8
    while pos < len(buf):
        m = NONSPACE.search(buf, pos, pos + step)
        if m:
            return m.start()
        pos += step
        step += step
    return -1


class _FixedScanner(Scanner):
    """Incremental form of :class:`FixedSizeChunker`'s rule.

    Keeps the text from the current chunk's start on (at most ``size +
    tolerance + 1`` characters once a delta has been consumed), joins it only
    when a decision is due, and searches each position for whitespace at most
    twice: a backward search over ``[size - tolerance, size]`` once the
    character at ``size`` is known, a forward search over each new delta
    after that (up to ``flimit``, which the preference sets from the backward
    search's result; ``_scan`` repeats it up to the whitespace it found), and
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
        "_pref",
        "_settle_any",
        "_settle_space",
        "_size",
        "_solid",
        "_start",
        "_tol",
        "_total",
    )

    def __init__(self, size: int, tolerance: int, preference: str) -> None:
        self._size = size
        self._tol = tolerance
        self._pref = preference
        # With exactly ``size`` characters known, the chunk is settled when
        # every cut the rule may still pick gives it the same end: always with
        # tolerance 0 (the cut is at ``size``), and when the last of them is
        # whitespace unless a later whitespace may win (forward).
        self._settle_any = tolerance == 0
        self._settle_space = preference != "forward"
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
        self._total = total = self._total + len(delta)
        if self._start is None:
            m = NONSPACE.search(delta)
            if m is None:
                return _NO_CUTS  # lead only: nothing to keep
            self._start = total - len(delta) + m.start()
            self._base = self._start
            self._buf = delta[m.start() :]
        else:
            self._parts.append(delta)
            mid = self._start + self._size
            if total < mid:
                return _NO_CUTS
            if total == mid and not (
                self._settle_any or (self._settle_space and delta[-1].isspace())
            ):
                return _NO_CUTS
            if self._fwd >= 0:
                begin = total - len(delta)
                lo = max(self._fwd, begin) - begin
                hi = min(self._flimit, total) - begin
                if (hi <= lo or SPACE.search(delta, lo, hi) is None) and total < self._flimit:
                    self._fwd = total
                    return _NO_CUTS
        return self._scan()

    def _scan(self) -> list[Cut]:
        if self._parts:
            self._buf += "".join(self._parts)
            self._parts = []
        buf, base, total = self._buf, self._base, self._total
        size, tol, pref = self._size, self._tol, self._pref
        settle_any, settle_space = self._settle_any, self._settle_space
        start, fwd, back = self._start, self._fwd, self._back
        flimit, solid = self._flimit, self._solid
        last_space, space = LAST_SPACE.search, SPACE.search
        cuts: list[Cut] = []
        while start is not None:
            mid = start + size
            if total <= mid:
                if total < mid or not (
                    settle_any or (settle_space and buf[mid - 1 - base].isspace())
                ):
                    break
                cut = mid  # as good as any cut the rule may still pick
            else:
                if fwd < 0:
                    # Last whitespace in [start + size - tol, start + size].
                    lo = mid - tol if mid - tol > solid else solid
                    m = last_space(buf, lo - base, mid + 1 - base) if lo <= mid else None
                    back = base + m.start() if m else -1
                    fwd = mid + 1 if mid + 1 > solid else solid
                    if back < 0 or (pref == "forward" and back < mid):
                        flimit = mid + tol + 1  # any whitespace after mid wins
                    elif pref == "nearest":
                        flimit = mid + (mid - back)  # wins only if strictly nearer
                    else:
                        flimit = mid  # decided: no whitespace after mid can win
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
            i = _next_nonspace(buf, cut - base)
            nxt = base + i if i >= 0 else total
            cuts.append(Cut(start, end, nxt))
            start = nxt if i >= 0 else None
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

    A chunk starts at a non-space character.  A whitespace character lying
    ``k`` characters after the start (at offset ``start + k``) would end the
    chunk after at most ``k`` characters; the one *at* ``size`` is the one
    right after the first ``size`` characters (``k == size``).  The cut is
    chosen among the whitespace with ``size - tolerance <= k <= size +
    tolerance`` by ``boundary_preference``:

    * ``"nearest"`` (default): the one nearest to ``size``; on a tie, the one
      before ``size`` (the shorter chunk);
    * ``"forward"``: the first at or after ``size``; if there is none, the
      last before ``size``;
    * ``"backward"``: the last at or before ``size``; if there is none, the
      first after ``size``.

    A whitespace at ``size`` wins under every preference.  When there is no
    whitespace in the window, the chunk is cut hard after exactly ``size``
    characters, even inside a word.  The chunk then ends at its last non-space
    character: whitespace is never part of a chunk, it travels as separator
    with the chunk before it.  No chunk is longer than ``size + tolerance``.
    The end of the text counts as whitespace: ``split_text`` gives the chunks
    the rule gives the text followed by a space.

    What is withheld: a chunk is released as soon as no continuation of the
    text can change it, which is once the text shows which cut the rule picks
    and never later than ``size + tolerance + 1`` characters after its start.
    With exactly ``size`` characters known, it is released when
    ``tolerance`` is 0 (the cut is at ``size``), or when the last of them is
    whitespace and the preference is not ``"forward"`` (cutting there or at
    ``size`` gives the same chunk).  Otherwise the character at ``size`` is
    needed, and then:

    * ``"backward"`` decides at once (``size + 1`` characters) if a whitespace
      lies within ``tolerance`` at or before ``size``; else it waits for the
      first whitespace after ``size``, up to ``size + tolerance``;
    * ``"forward"`` waits for the first whitespace at or after ``size``, up to
      ``size + tolerance``;
    * ``"nearest"`` waits until every offset nearer to ``size`` than the
      best whitespace found so far (ties excluded) is known.

    The unfinished rest is withheld; ``flush`` returns it with trailing
    whitespace stripped (at most ``size + tolerance`` characters), or ``[]``
    when only whitespace is left.

    Streaming keeps at most ``size + tolerance + 1`` characters and costs
    amortised O(len(delta)) per ``feed``: each character is searched for
    whitespace at most twice, whatever the preference.
    """

    alias = "fixed"
    #: The accepted ``boundary_preference`` values.
    preferences = ("nearest", "forward", "backward")

    def __init__(
        self, size: int, tolerance: int = 0, *, boundary_preference: str = "nearest"
    ) -> None:
        self.size = check_int("size", size, 1)
        self.tolerance = check_int("tolerance", tolerance, 0)
        if tolerance >= size:
            raise ValueError(
                f"tolerance must be < size, got tolerance={tolerance} with size={size} (the "
                "'fixed' alias and spec kind have size=200 and a default tolerance=20: with a "
                "smaller size, pass a smaller tolerance)"
            )
        self.boundary_preference = check_choice(
            "boundary_preference", boundary_preference, self.preferences
        )

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {"size": self.size, "tolerance": self.tolerance}
        if self.boundary_preference != "nearest":
            params["boundary_preference"] = self.boundary_preference
        return params

    def scanner(self) -> Scanner:
        return _FixedScanner(self.size, self.tolerance, self.boundary_preference)
