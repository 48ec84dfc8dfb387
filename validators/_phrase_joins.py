"""Chunk boundaries moved off a phrase that runs across them (``BannedPhrases``).

A sentence chunker ends a sentence at a line break after a short line
(``FREE\\nMONEY`` is two sentences), a paragraph chunker at a blank line, a
word chunker after every word, a fixed-size one inside a word: a phrase
written across such a boundary would be split, each half passing.
:class:`PhraseJoins` wraps any chunker (a size limit's inner chunker, see
:func:`phrase_joined`) and checks each of its cuts: when the text up to
the cut (its separator included) ends with the beginning of a phrase
(:meth:`~._phrases.PhraseMatcher.open_at`), the chunk is cut before that
beginning instead, at the last position that no phrase found there spans (an
end of a word preferred), and the beginning goes on into the next chunk;
with no such position the chunks are joined.  A chunk
ending with no open beginning is released as the inner chunker cut it.

What is withheld: the inner chunker's own fragment, plus any chunk that ends
with the beginning of a phrase, until the next chunk ends.  Nothing is
stripped; chunks keep the inner chunker's lead and separators.  Decisions are
made at the inner chunker's cuts from the text up to each cut, so they do not
depend on how the stream was sliced.

Cost per inner cut: one search for an open beginning in the last words of
the text held (as many words as the longest phrase has), and, when there is
one, one phrase search over that text, O(text x longest phrase).  Text is
held only while a phrase may run through it: a beginning grows by a word per
inner cut or ends.  Matches that overlap all through a chunk (phrases ``a b``
and ``b a`` on ``a b a b ...``) leave no position to cut at; once more than
:data:`HOLD` characters (or 4 times the longest phrase) are held so, the text
is released as the inner chunker cut it.
"""

from __future__ import annotations

from guardrails_ai.chunkwise.chunkers import Bounded, ChunkingStrategy, Grouped, Sized, SplitFlush
from guardrails_ai.chunkwise.chunkers.base import Cut, Scanner
from guardrails_ai.chunkwise.chunkers.stream import scanner_for

from ._phrase_cuts import splits_nothing
from ._phrases import PhraseMatcher
from ._windows import last_cut, size_limit

__all__ = ["HOLD", "PhraseJoins", "phrase_joined"]

#: Characters (at least) held before a chunk ending with a phrase beginning is
#: released as the inner chunker cut it when matches run through all of it.
HOLD = 256


def phrase_joined(
    strategy: ChunkingStrategy | SplitFlush, matcher: PhraseMatcher
) -> ChunkingStrategy:
    """``strategy`` with no chunk boundary inside a phrase of ``matcher``.

    A size limit keeps its ceiling and its fallback chain: its units are its
    inner chunker's chunks joined by :class:`PhraseJoins`, and a joined unit
    longer than the window is cut by that chain (phrase-safe once
    :func:`~._phrase_cuts.phrase_safe` has replaced it).
    """
    limited = size_limit(strategy)
    if limited is None:
        return PhraseJoins(strategy, matcher)
    s = limited.strategy
    if isinstance(s, Bounded):
        return Bounded(PhraseJoins(s.inner, matcher), s.max_chars, fallback=s.fallback)
    if isinstance(s, Grouped):
        assert isinstance(s.units, Bounded) and s.max_chars is not None  # (size_limit)
        return Grouped(
            PhraseJoins(s.inner, matcher),
            s.chunk_size,
            max_chars=s.max_chars,
            overlap=s.overlap,
            fallback=s.units.fallback,
        )
    assert isinstance(s, Sized)
    return Sized(
        PhraseJoins(s.inner, matcher),
        s.limit,
        length=s.measure,
        fill=s.fill,
        overlap=s.overlap,
        fallback=s.fallback,
        param=s._param,
    )


class PhraseJoins(ChunkingStrategy):
    """``inner``'s chunks, with no boundary inside a phrase (see the module docstring).

    Its ``repr`` counts the phrases and never shows them (they may be
    confidential)."""

    def __init__(self, inner: ChunkingStrategy | SplitFlush, matcher: PhraseMatcher) -> None:
        self.inner = inner
        self.matcher = matcher

    def scanner(self) -> Scanner:
        return _JoinScanner(scanner_for(self.inner), self.matcher)

    def __repr__(self) -> str:
        return f"PhraseJoins({self.inner!r}, <{len(self.matcher.folded)} phrases>)"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PhraseJoins)
            and other.matcher.folded == self.matcher.folded
            and other.inner == self.inner
        )

    def __hash__(self) -> int:
        return hash((tuple(self.matcher.folded), repr(self.inner)))


class _JoinScanner(Scanner):
    def __init__(self, inner: Scanner, matcher: PhraseMatcher) -> None:
        self._inner = inner
        self._matcher = matcher
        self._parts: list[str] = []
        self._text = ""  # the stream from offset _kept on
        self._kept = 0
        self._base = 0  # where the text not yet released starts
        self._start: int | None = None  # content start of the chunk being held
        self._end = 0  # where the last inner chunk held ends
        self._words = max(len(phrase.split(" ")) for phrase in matcher.folded)
        self._most = max(HOLD, 4 * max(map(len, matcher.folded)))

    def _since(self, a: int, b: int) -> str:
        if self._parts:
            self._text = "".join([self._text, *self._parts])
            self._parts = []
        return self._text[a - self._kept : b - self._kept]

    def feed(self, delta: str) -> list[Cut]:
        self._parts.append(delta)
        out: list[Cut] = []
        for cut in self._inner.feed(delta):
            self._take(cut, out)
        return out

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        start = cut.start if self._start is None else self._start
        held = self._since(self._base, cut.stop)
        opened = self._open_at(held)
        if opened is None:
            out.append(Cut(start, cut.end, cut.stop))
            self._release(cut.stop, None)
            return
        spans = ((m.start, m.end) for m in self._matcher.find(held))
        at = last_cut(held, opened, spans, splits_nothing)
        if at is None or self._base + len(held[:at].rstrip()) <= start:
            if self._base + opened > start and len(held) > self._most:
                # Overlapping matches run through all the text held: release it
                # as the inner chunker cut it rather than hold it unbounded.
                out.append(Cut(start, cut.end, cut.stop))
                self._release(cut.stop, None)
                return
            self._start, self._end = start, cut.end  # held whole: joined with the next
            return
        after = held[at:]
        going_on = self._base + at + len(after) - len(after.lstrip())
        out.append(Cut(start, self._base + len(held[:at].rstrip()), going_on))
        self._release(going_on, going_on)
        self._end = cut.end

    def _open_at(self, held: str) -> int | None:
        """:meth:`~._phrases.PhraseMatcher.open_at` of ``held``, read in its last
        words only: a beginning of a phrase of ``_words`` words spans at most
        that many runs of non-whitespace (a phrase starts after a boundary,
        and whitespace always is one)."""
        parts = held.rsplit(None, self._words)
        start = len(parts[0]) if len(parts) > self._words else 0
        opened = self._matcher.open_at(held[start:])
        return None if opened is None else start + opened

    def _release(self, stop: int, going_on: int | None) -> None:
        """Text before ``stop`` is released; the chunk held starts at ``going_on``."""
        self._base = stop
        if 2 * (stop - self._kept) > len(self._text) + 4096:  # drop released text, amortised
            self._since(stop, stop)  # (joins the parts)
            self._text = self._text[stop - self._kept :]
            self._kept = stop
        self._start = going_on

    def finish(self) -> tuple[int, int] | None:
        span = self._inner.finish()
        if self._start is None:
            return span
        return (self._start, span[1] if span else self._end)
