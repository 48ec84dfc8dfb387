"""No chunk begins with a code fence's marks in the middle of a line (``NoRepetition``).

``NoRepetition`` follows fenced code blocks from chunk to chunk: a chunk
whose line opens with three backticks or tildes opens a block, and what
follows is code, never compared.  It sees the chunk, not the line it stands
in, so a sentence that begins with such marks partway along a line (``Type
it. ``` opens a block.``) would open a block that CommonMark never opens (a
fence begins its line), and every repeat after it would pass as code.

:class:`FenceJoins` wraps any chunker (a size limit's inner chunker, see
:func:`~._windows.wrap_units`): a chunk followed, on the same line, by one
that begins with ```` ``` ```` or ``~~~`` is joined with it, so the marks
stand inside the line they belong to.  Decided from the text after the
chunk's end up to the third character of the next word (never its
separator's reported end, which may depend on the slicing): the same chunks
streamed in any slicing as at once.

A size limit's ceiling still cuts a joined unit longer than its window
(its fallback chain), and a chunk may then begin with the marks.

What is withheld: each chunk of the inner chunker until the first
non-whitespace character after it has arrived, and the two after that when
it is a backtick or a tilde (or until the stream ends).  Cost: amortised
O(len(delta)); the whitespace after a chunk is read once.
"""

from __future__ import annotations

from collections import deque

from guardrails_ai.chunkwise.adapters.chunked import OwnJoins
from guardrails_ai.chunkwise.chunkers.base import Cut, Scanner
from guardrails_ai.chunkwise.chunkers.stream import scanner_for

from ._windows import JoinScanner

__all__ = ["FENCE_MARKS", "FenceJoins"]

#: What a code fence begins with (CommonMark: three backticks or three tildes).
FENCE_MARKS = ("```", "~~~")
_LINE_BREAKS = "\n\r"  # (CommonMark's line endings: a fence begins after one of these only)


class FenceJoins(OwnJoins):
    """``inner``'s chunks, a chunk joined with the next when that one begins
    with a fence's marks on the same line (see the module docstring)."""

    def scanner(self) -> Scanner:
        return _FenceJoinScanner(scanner_for(self.inner))


class _FenceJoinScanner(JoinScanner):
    def __init__(self, inner: Scanner) -> None:
        super().__init__(inner)
        self._queue: deque[Cut] = deque()  # the inner chunker's cuts not yet decided
        self._start: int | None = None  # start of the chunks joined so far, if any
        self._read = 0  # whitespace after the first cut queued is read up to here
        self._fed = 0
        self._line = False  # a line break seen in that whitespace
        self._end = 0  # where the last chunk joined ends

    def feed(self, delta: str) -> list[Cut]:
        self._fed += len(delta)
        out = super().feed(delta)
        self._decide(out, closing=False)
        return out

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        if not self._queue:
            self._read, self._line = cut.end, False
        self._queue.append(cut)

    def _next_word(self) -> str | None:
        """The first three characters after the whitespace that follows the
        first cut queued (only the first when it is no backtick or tilde), or
        ``None`` while they have not all arrived; notes a line break in that
        whitespace.  Reads each character of the whitespace once."""
        size = 4  # (mostly one space and the word: then 64 at a time)
        while True:
            text = self._text(self._read, min(self._fed, self._read + size))
            size = 64
            rest = text.lstrip()
            blank = len(text) - len(rest)
            self._line = self._line or any(c in _LINE_BREAKS for c in text[:blank])
            self._read += blank
            self._text.drop_before(self._read)
            if rest and rest[0] not in "`~":
                return rest[0]  # (no fence: decided by its first character)
            if rest or self._read >= self._fed:
                word = self._text(self._read, min(self._fed, self._read + 3))
                return word if len(word) == 3 else None

    def _decide(self, out: list[Cut], closing: bool) -> None:
        """Give out or join the queued cuts whose next word is known."""
        while self._queue:
            word = self._next_word()
            if word is None and not closing:
                return
            cut = self._queue.popleft()
            start = cut.start if self._start is None else self._start
            if not self._line and word is not None and word.startswith(FENCE_MARKS):
                self._start, self._end = start, cut.end  # joined with the next chunk
            else:
                out.append(Cut(start, cut.end, cut.stop))
                self._start = None
            if self._queue:
                self._read, self._line = self._queue[0].end, False

    def settled(self) -> bool:
        # A cut queued follows the last cut given out: that cut's separator is over.
        return bool(self._queue) or self._start is not None or self._inner.settled()

    def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
        out, span = self._closed()
        self._decide(out, closing=True)
        if self._start is None:
            return out, span
        return out, (self._start, self._end if span is None else span[1])
