"""Chunk boundaries moved off a phrase that runs across them (``BannedPhrases``).

A sentence chunker ends a sentence at a line break after a short line
(``FREE\\nMONEY`` is two sentences), a paragraph chunker at a blank line, a
word chunker after every word, a fixed-size one inside a word: a phrase
written across such a boundary would be split, each half passing.
:class:`PhraseJoins` wraps any chunker (a size limit's inner chunker, see
:func:`phrase_joined`) and checks each of its cuts: when the text up to
the chunk's end ends with the beginning of a phrase
(:meth:`~._phrases.PhraseMatcher.open_at`), the chunk is cut before that
beginning instead, at the last position that no phrase found there spans (an
end of a word preferred), and the beginning goes on into the next chunk;
with no such position the chunks are joined.  A chunk
ending with no open beginning is released as the inner chunker cut it; when
it ends chunks held joined, the chunks up to the end of the phrase that was
open go out on their own and the rest after them (so a banned phrase filtered
does not take the words after it along).  At the end of the stream the same
holds for the chunks held and the last fragment, unless a phrase runs from
one into the other (:meth:`~chunkers.base.Scanner.close` returns the chunks
held before the fragment, so ``flush`` may return two chunks).

A chunker that cuts inside a word (a fixed-size one) would also begin a chunk
inside a word, and a phrase that ends the word would match there as a whole
word (``care|free money``): a chunk that ends with a character of a word,
with nothing after it yet or the word going on, is held until the next chunk
ends, and then goes out on its own only up to the last position that splits no
word (``_``, combining marks and characters that fold to nothing count as part
of a word), else joined with the next.

What is withheld: the inner chunker's own fragment, plus any chunk that ends
with the beginning of a phrase or may end inside a word, until the next chunk ends.  Nothing is
stripped; chunks keep the inner chunker's lead and separators.  Decisions are
made at the inner chunker's cuts from the text up to each chunk's end (not
its separator's, which may depend on the slicing), so they do not depend on
how the stream was sliced.

Cost per inner cut: one search for an open beginning in the last words of
the text held (as many words as the longest phrase has, not counting runs
that fold to nothing), and, when there is one or a chunk was held, one
phrase search over that text, O(text x longest phrase).  Text held whole is
read again at every cut while it is short (:data:`EAGER`), then only once it
has doubled, so a beginning padded with characters that fold to nothing and
cut into by a fixed-size chunker costs linear time.  Matches that overlap all
through a chunk (phrases ``a b`` and ``b a`` on ``a b a b ...``), or text in
which no cut is allowed (letters of a script written without spaces), leave
no position to cut at; once more than :data:`HOLD` characters (or 4 times
the longest phrase) are held so, the chunk is cut before the beginning that
runs to its end.
"""

from __future__ import annotations

import re

from guardrails_ai.chunkwise.adapters.chunked import OwnJoins
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    SpecError,
    SplitFlush,
)
from guardrails_ai.chunkwise.chunkers.base import Cut, Scanner
from guardrails_ai.chunkwise.chunkers.stream import scanner_for

from ._normalize import SPACELESS_LETTERS, fold, is_ignorable_or_mark
from ._phrase_cuts import splits_nothing
from ._phrases import PhraseMatcher
from ._windows import JoinScanner, last_cut, wrap_units

__all__ = ["HOLD", "PhraseJoins", "most_words", "open_in_last_words", "phrase_joined"]

_SPACELESS = re.compile(f"[{SPACELESS_LETTERS}]")
#: Characters (at least) held before a chunk with no position to cut at is cut
#: before the phrase beginning it ends with.
HOLD = 256
#: Held text up to this long (or twice the longest phrase) is read again at
#: every cut of the inner chunker; longer, once it has doubled.
EAGER = 64


def phrase_joined(
    strategy: ChunkingStrategy | SplitFlush, matcher: PhraseMatcher
) -> ChunkingStrategy:
    """``strategy`` with no chunk boundary inside a phrase of ``matcher``
    (:func:`~._windows.wrap_units`: a size limit's inner chunker joined, its
    ceiling and fallback chain kept; that chain is phrase-safe once
    :func:`~._phrase_cuts.phrase_safe` has replaced it)."""
    return wrap_units(strategy, lambda inner: PhraseJoins(inner, matcher))


class PhraseJoins(OwnJoins):
    """``inner``'s chunks, with no boundary inside a phrase (see the module docstring).

    Its ``repr`` counts the phrases and never shows them (they may be
    confidential)."""

    def __init__(self, inner: ChunkingStrategy | SplitFlush, matcher: PhraseMatcher) -> None:
        self.inner = inner
        self.matcher = matcher
        # (Once per chunker, not per stream: a list may hold thousands of phrases.)
        self._words = most_words(matcher)
        longest = max(map(len, matcher.folded))
        self._most = max(HOLD, 4 * longest)
        self._eager = max(EAGER, 2 * longest)

    def scanner(self) -> Scanner:
        return _JoinScanner(
            scanner_for(self.inner), self.matcher, self._words, self._most, self._eager
        )

    def __repr__(self) -> str:
        return f"PhraseJoins({self.inner!r}, <{len(self.matcher.folded)} phrases>)"

    def spec(self) -> dict[str, object]:
        """Always ``SpecError``: the joins belong to a ``BannedPhrases`` and its
        phrases, which a spec must not hold; write ``inner.spec()`` instead
        (``BannedPhrases`` given that chunker joins its own phrases again)."""
        raise SpecError(
            f"chunker={self!r} is BannedPhrases' join of its phrases and has no spec of "
            "its own; write its inner chunker (chunker.inner.spec()): BannedPhrases "
            "joins its phrases again"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PhraseJoins)
            and other.matcher.folded == self.matcher.folded
            and other.inner == self.inner
        )

    def __hash__(self) -> int:
        return hash((tuple(self.matcher.folded), repr(self.inner)))


def _in_word(char: str) -> bool:
    """Whether ``char`` may be part of a word with the character after it: a
    letter (not of a script written without spaces, where any edge is a
    boundary), a digit, ``_``, a combining mark or one that folding drops."""
    if char == "_" or is_ignorable_or_mark(char):
        return True
    return char.isalnum() and _SPACELESS.match(char) is None


def _glued(text: str, p: int) -> bool:
    """Whether a cut before ``text[p]`` falls inside a word (``care|free``,
    ``money_|x``; see :func:`~._phrase_cuts.splits_nothing`): a chunk begun
    there would match a phrase that ends the word, as if it were a whole word."""
    before, after = text[p - 1], text[p]
    if not splits_nothing(text, p) or (_in_word(before) and _in_word(after)):
        return True
    # ("_" joins a word to a letter of any script: "free_免" is one word.)
    return (before == "_" and after.isalnum()) or (after == "_" and before.isalnum())


def _apart(text: str, p: int) -> bool:
    """A cut before ``text[p]`` that splits no word (see :func:`_glued`)."""
    return not _glued(text, p)


def open_in_last_words(matcher: PhraseMatcher, held: str, words: int) -> int | None:
    """:meth:`~._phrases.PhraseMatcher.open_at` of ``held``, read in its last
    words only: a beginning of a phrase of ``words`` words spans at most
    that many runs of non-whitespace that fold to something (a phrase
    starts after a boundary, and whitespace always is one)."""
    k = words
    while True:
        parts = held.rsplit(None, k)
        if len(parts) <= k:
            start = 0
            break
        if sum(1 for part in parts[1:] if fold(part).text.strip()) >= words:
            start = len(parts[0])
            break
        k *= 2
    opened = matcher.open_at(held[start:])
    return None if opened is None else start + opened


def most_words(matcher: PhraseMatcher) -> int:
    """The most words a phrase of ``matcher`` has."""
    return max(len(phrase.split(" ")) for phrase in matcher.folded)


class _JoinScanner(JoinScanner):
    def __init__(
        self, inner: Scanner, matcher: PhraseMatcher, words: int, most: int, eager: int
    ) -> None:
        super().__init__(inner)
        self._matcher = matcher
        # Where reading starts: the end of the last chunk given out, or the
        # beginning carried on (never a separator's end: it may depend on the slicing).
        self._base = 0
        self._start: int | None = None  # content start of the chunk being held
        self._end = 0  # where the last inner chunk held ends
        self._words = words  # the most words of a phrase
        self._checked = 0  # how much held text was read when it was last held whole
        self._most = most  # held whole with no cut allowed: at most this, then cut
        self._eager = eager  # held text up to this long is read again at every cut

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        # Read up to the chunk's end only: where its separator ends may
        # depend on the slicing, the chunk does not.
        start = cut.start if self._start is None else self._start
        held_for = cut.end - self._base
        if self._start is not None and self._eager < held_for < 2 * self._checked:
            self._end = cut.end  # long and held whole: read again once it has doubled
            return
        held = self._text(self._base, cut.end)
        opened = self._open_at(held)
        last = self._end - self._base
        if (
            self._start is not None
            and start < self._end < cut.end
            and (opened is None or opened >= last)
        ):
            # The chunks held may go out on their own (the phrase that was open
            # ended with them, or they did not end inside a word): give them
            # out, cut back before the word they end inside if they do, and
            # this chunk after them.
            at = self._apart_before(held, last)
            if at is not None and self._base + len(held[:at].rstrip()) > start:
                self._give_out(held, at, start, out)
                self._end, self._checked = self._base, 0
                self._take(cut, out)
                return
        if opened is None:
            if len(held) <= self._most and self._may_go_on(held, cut):
                # Held until the next chunk ends, which tells whether this one
                # ends inside a word (a fixed-size cut): a chunk begun inside
                # a word would match a phrase that ends the word ("care|free").
                self._start, self._end, self._checked = start, cut.end, len(held)
                return
            out.append(Cut(start, cut.end, cut.stop))
            self._release(cut.end, None)
            return
        spans = ((m.start, m.end) for m in self._matcher.find(held))
        at = last_cut(held, opened, spans, _apart)
        if at is None or self._base + len(held[:at].rstrip()) <= start:
            if self._base + opened <= start or len(held) <= self._most:
                # Held whole, joined with the next chunk.
                self._start, self._end, self._checked = start, cut.end, len(held)
                return
            # Matches overlap all through it (or no cut is allowed in it): cut
            # before the beginning that runs to its end rather than hold on.
            at = opened
        self._give_out(held, at, start, out)
        self._end, self._checked = cut.end, 0

    def _may_go_on(self, held: str, cut: Cut) -> bool:
        """Whether the chunk ``cut`` (``held`` ends with it) may end inside a
        word: it ends with a character of one and what follows is not known
        yet, or continues the word.  (Whether the character after it has
        arrived depends on the slicing; the answer does not.)"""
        if not _in_word(held[-1]):
            return False
        return cut.stop == cut.end or _glued(held + self._text(cut.end, cut.end + 1), len(held))

    def _apart_before(self, held: str, last: int) -> int | None:
        """Where the chunks held up to ``held[:last]`` may go out on their own:
        ``last`` if no phrase found in ``held`` spans it and it splits no word,
        else the last position before it that splits no word (no phrase
        spanning ``last``); ``None`` when no phrase may end there or no such
        position is left."""
        spans = [(m.start, m.end) for m in self._matcher.find(held)]
        if any(a < last < b for a, b in spans):
            return None
        return last if not _glued(held, last) else last_cut(held, last, spans, _apart)

    def _give_out(self, held: str, at: int, start: int, out: list[Cut]) -> None:
        """Give out :meth:`_cut_before` ``at``; the chunk held goes on from its stop."""
        cut = self._cut_before(held, at, start)
        out.append(cut)
        self._release(cut.stop, cut.stop)

    def _cut_before(self, held: str, at: int, start: int) -> Cut:
        """The chunk from ``start`` to ``held[:at]`` (whitespace aside); its
        stop is where the rest of ``held`` goes on, at its first non-whitespace."""
        after = held[at:]
        going_on = self._base + at + len(after) - len(after.lstrip())
        return Cut(start, self._base + len(held[:at].rstrip()), going_on)

    def _open_at(self, held: str) -> int | None:
        return open_in_last_words(self._matcher, held, self._words)

    def _release(self, end: int, going_on: int | None) -> None:
        """Chunks up to ``end`` are given out; the chunk held starts at ``going_on``."""
        self._base = end
        self._text.drop_before(end)
        self._start = going_on

    def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
        out, span = self._closed()
        start = self._start
        if start is None:
            return out, span
        if span is None:
            return out, (start, self._end)
        # No phrase goes on past the end: the chunks held go out on their own
        # unless a phrase runs from them into the fragment.
        held = self._text(self._base, span[1])
        last = self._end - self._base
        at = self._apart_before(held, last)
        if start < self._end and at == last:
            out.append(Cut(start, self._base + len(held[:last].rstrip()), span[0]))
            return out, span
        if start < self._end and at is not None and self._base + len(held[:at].rstrip()) > start:
            cut = self._cut_before(held, at, start)
            out.append(cut)
            return out, (cut.stop, span[1])
        return out, (start, span[1])
