"""Where a PII validator's chunker may cut a run with no boundary: never inside an entity.

``RedactPII`` chunks by sentence under a ceiling (:class:`Bounded`).  A
sentence boundary never falls inside an entity (no entity holds a terminator
followed by whitespace), nor does the gap between a word and a lower-case word
(no entity holds whitespace before a lower-case letter, but an IBAN
written in lower case, whose groups the gap skips).  When neither occurs
within the ceiling (minified JSON, a Markdown table row, CSV, a long run of
characters), :class:`EntityCuts` is the last fallback level: it runs the
detectors over the window Bounded offers (``max_chars + 1`` pending characters)
and cuts at the last position no entity found there spans, nor the label that
made a number an entity (``Phone: 4155550123``), at most
``len(window) - LONGEST_ENTITY - 2`` characters in, preferring the end of a
word.  Why that bound makes the cut safe: an entity of the whole text that
spans position ``p`` starts at or after ``p - LONGEST_ENTITY`` and ends, with
the two characters its pattern looks at after it, by ``p + LONGEST_ENTITY + 2``
(a phone number's candidate may run on past the entity, by the one-digit
groups it is read without, but the whole candidate, about 120 characters at
most, stays within ``LONGEST_ENTITY`` of its start);
the window starts at the previous cut, itself never inside an entity, so the
entity and the context its detector reads lie inside the window and the
detectors find it there (property-tested over entities at every offset around
every cut, streamed in random slicings and at once).  When every position up
to that bound lies inside entities (one longer than a small window's bound: an
85-character address in a 330-character window), the cut falls at the first
position after them.  A hard cut remains only
for a window whose every position lies inside entities that
overlap one another (a chain of merged entities longer than ``max_chars -
LONGEST_ENTITY - 2`` characters): with the default ceiling of ``4 x
LONGEST_ENTITY`` that is over 760 characters of overlapping entities, and an
entity padded with invisible characters (which :func:`._pii.find_entities`
reads past) to over ``LONGEST_ENTITY`` characters in all, which that bound does
not cover.

Bound: a chunk is at most ``max_chars`` characters, the stream holds back at
most ``max_chars`` characters, and a fallback cut falls at least
``max_chars - LONGEST_ENTITY - 2`` characters in unless entities cover the
window up to there.  Cost per fallback cut: one detector pass over
``max_chars + 1`` characters, and each such cut moves on by about
``max_chars - LONGEST_ENTITY`` characters: linear overall.

This strategy is a fallback level only: it chunks one window per scanner and
is not delta-invariant by itself (Bounded feeds it whole windows).

Entities across a full stop with no whitespace after.  The accurate sentence
chunker ends a sentence at an ideographic or full-width full stop, ``!`` or
``?`` with no whitespace after it, where the detectors read a dot (or the
``!``, ``?`` of a local part) that an entity may go on after
(``+44 20\u30027946 0958``, ``jo@b\u00fccher\u3002de``,
``taro\u3002yamada...@example.jp``).  :class:`LabelJoins` holds such a chunk too
(:func:`._pii.entity_open`: the stop right after a letter, digit or mark an
entity holds, but a letter of a script written without spaces, unless the
stop is inside a domain), so the entity is validated whole.  After such a
letter the detectors read the stop as the sentence end the chunker cuts at
(``\u7528\u6237\u3002\u540d@example.cn`` holds ``\u540d@example.cn``, at once as
streamed), but inside a domain (``\u7528\u6237@\u4f8b\u5b50\u3002\u5e7f\u544a``),
read back :data:`~._pii.READ_BACK` characters whatever the chunk's length.

Labels kept with their number.  A number that only its label makes an entity
(``Cell. 612 345 678``, ``Call me. 2147483647``) is found only in a chunk
that holds the label too: a sentence chunker cuts after ``Cell.`` (no
abbreviation it knows), a word-gap cut may fall between ``Phone`` and
``number: ...``.  :class:`LabelJoins` wraps any chunker (a size limit's inner
chunker, see :func:`label_joined`): a chunk whose last words read as such a
label (:func:`._pii.label_open`) is held and joined with the next chunk, so
no cut falls between a label and what follows it; the word-gap level of the
fallback, :class:`WordGaps`, skips a gap that a label ends before.  Cost per
inner cut: one reading of the last word before it, and of the last
``CONTEXT`` characters when that word is a label or a filler.

Windows of any size limit.  :func:`entity_safe` gives a user's size limit
(``limit(..., max_chars=)``, ``limit(..., max_tokens=, tokenizer=)``, any
``Bounded``/``Grouped``/``Sized`` with its default fallback chain) the same
last levels: its inner chunker and measure are kept, its fallback chain
becomes the word gap, then :class:`EntityCuts`.  Bound: the window must hold
:data:`MIN_WINDOW` characters (``max_chars >= MIN_WINDOW``; with another
measure, :data:`MIN_WINDOW` characters of each of a few runs dense in tokens
must measure within the limit); a smaller window is refused with a
``ValueError``, because a fallback cut needs an entity and its look-ahead
inside the window.  Left open: with a
measure, text denser than those runs (over about one token per character: a
run of emoji with no whitespace) gives a window of fewer characters, and a run
of it with no sentence end, word gap or safe position is hard-cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from guardrails_ai.chunkwise.adapters.chunked import OwnJoins
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    SplitFlush,
)
from guardrails_ai.chunkwise.chunkers.base import Cut, Scanner
from guardrails_ai.chunkwise.chunkers.stream import scanner_for

from ._pii import (
    CONTEXT,
    ENTITIES,
    LONGEST_ENTITY,
    READ_BACK,
    entity_open,
    find_entities,
    label_open,
    label_start,
)
from ._windows import JoinScanner, OneCut, size_limit, window_cut, wrap_units

__all__ = [
    "GAP_BETWEEN_WORDS",
    "MARGIN",
    "MIN_WINDOW",
    "EntityCuts",
    "LabelJoins",
    "WordGaps",
    "entity_safe",
    "label_joined",
    "safe_cut",
]

#: How far from the window's end a cut must stay: an entity plus its look-ahead.
MARGIN = LONGEST_ENTITY + 2
#: Whitespace no entity contains: after a letter or ``,;:``, before a lower-case
#: letter, and not after two groups of four letters or digits (the groups of an
#: IBAN written in lower case: ``mt84 malt 0110 0001 2345 mtlc ast0 01s``).
GAP_BETWEEN_WORDS = (
    r"(?<=[A-Za-z,;:])(?<![0-9a-z]{4} [0-9a-z]{4})(?<![0-9a-z]{4}  [0-9a-z]{4})\s+(?=[a-z])"
)
#: The fewest characters a size limit's window must hold (see :func:`entity_safe`):
#: an entity with its look-ahead, and room for a fallback cut to move on.
MIN_WINDOW = MARGIN + 64
#: Runs with no sentence end or word gap, dense in tokens: a window of a size
#: limit must hold :data:`MIN_WINDOW` characters of each (e-mail addresses
#: joined by commas; Japanese, whose letters an address may hold).
_DENSE_RUNS = (",jo@example.com" * 40, "日本語の文字列" * 80)


def safe_cut(window: str, entities: Iterable[str] = ENTITIES) -> int | None:
    """The last offset in ``window`` (``1 <= p <= len - MARGIN``) no entity spans.

    An end of a word (whitespace follows, none precedes) is preferred to any
    other offset.  When every offset up to the bound is inside an entity or
    its label, the first offset after the entities that cover it, if it is
    in the window and outside a fenced code block; ``None`` then, or when
    the window is too short.
    """
    hi = len(window) - MARGIN
    if hi < 1:
        return None
    # (A label that made a number an entity is blocked with it.)
    spans = [(label_start(window, e.start), e.end) for e in find_entities(window, entities)]
    p = window_cut(window, hi, spans)
    if p is not None:
        return p
    # Entities cover every offset up to the bound (one longer than a small
    # window's bound, ``limit(..., max_chars=330)`` and an 85-character
    # address): the first offset after them, where no entity found spans,
    # rather than a hard cut at the limit, which split the next entity.
    end = hi
    for start, stop in sorted(spans):
        if start < end:
            end = max(end, stop)
    return end if end < len(window) and window_cut(window, end, spans) == end else None


_GAPS = re.compile(GAP_BETWEEN_WORDS)


class WordGaps(OneCut):
    """The word-gap level of a fallback chain: one cut at the last gap between
    words (:data:`GAP_BETWEEN_WORDS`) in the window fed that no label of
    personal data ends before (:func:`._pii.label_open`: ``Phone | number:
    612 345 678``).  Cost: one search of the window, and a label reading of
    the gaps tried from the end (the last one, mostly)."""

    def cut_at(self, window: str) -> int | None:
        hi = len(window) - 1
        if window.isspace():
            return None  # (a gap follows a word)
        gaps = [m.start() for m in _GAPS.finditer(window)]
        if "`" in window or "~" in window:  # (never inside a fenced code block)
            at = set(gaps)
            return window_cut(window, hi, (), lambda w, p: p in at and _no_label_before(w, p))
        return next((p for p in reversed(gaps) if p <= hi and _no_label_before(window, p)), None)


def _no_label_before(text: str, p: int) -> bool:
    return not label_open(text[max(0, p - 4 * CONTEXT) : p])


class EntityCuts(OneCut):
    """One cut at :func:`safe_cut` of the text fed (a fallback level, see module docstring)."""

    def __init__(self, entities: Iterable[str] = ENTITIES) -> None:
        self.entities = tuple(entities)

    def cut_at(self, window: str) -> int | None:
        return safe_cut(window, self.entities)

    def _params(self) -> dict[str, object]:
        return {} if self.entities == ENTITIES else {"entities": self.entities}


def entity_safe(
    strategy: ChunkingStrategy | SplitFlush, entities: Iterable[str] = ENTITIES
) -> ChunkingStrategy | SplitFlush:
    """``strategy`` with a fallback chain that never cuts an entity, if it is a size limit.

    A ``Bounded``, ``Grouped`` (with ``max_chars``) or ``Sized`` chunker with
    its default fallback chain (what ``limit()`` gives) keeps its inner
    chunker and measure; its fallback chain becomes the word gap
    (:data:`GAP_BETWEEN_WORDS`), then :class:`EntityCuts`.  Any other
    strategy, a ``fallback=`` chosen by the caller included, comes back as it
    is (``RedactPII`` then checks it on probe texts).  ``ValueError`` (naming the parameter and
    the value) when the limit's window holds fewer than :data:`MIN_WINDOW`
    characters (see the module docstring).
    """
    window = size_limit(strategy)
    if window is None or not window.default_fallback:
        return strategy
    measure = window.measure
    if measure is None:
        fits = window.limit >= MIN_WINDOW
    else:
        fits = all(measure(run[:MIN_WINDOW]) <= window.limit for run in _DENSE_RUNS)
    _check_window(window.param, window.limit, fits)
    return window.strategy.with_fallback((WordGaps(), EntityCuts(entities)))


def _check_window(param: str, value: int, fits: bool) -> None:
    if not fits:
        raise ValueError(
            f"{param}={value} is too small a window for RedactPII: a cut with no sentence "
            f"end or word gap must see a whole entity and what follows it, so a window "
            f"must hold {MIN_WINDOW} characters (of text dense in tokens too)"
        )


def label_joined(strategy: ChunkingStrategy | SplitFlush) -> ChunkingStrategy:
    """``strategy`` with no cut between a label and what follows it
    (:class:`LabelJoins`; :func:`~._windows.wrap_units`: a size limit's inner
    chunker joined, its ceiling and fallback chain kept, see
    :func:`entity_safe`)."""
    return wrap_units(strategy, LabelJoins)


class LabelJoins(OwnJoins):
    """``inner``'s chunks, a chunk that ends with a label joined with the next one.

    A chunk whose last words read as a label of personal data
    (:func:`._pii.label_open`: ``Cell.``, ``Call me.``, ``Phone``), or that
    ends where an entity may go on with no whitespace between
    (:func:`._pii.entity_open`: ``+44 20\u3002``), is held
    until the next chunk ends and given out joined with it (again held if
    that one ends so too), so a number that its label makes an
    entity is validated with the label, and an entity is validated whole.
    Decided from the text up to each chunk's end (never its separator, which
    may depend on the slicing): the same chunks streamed in any slicing as at
    once.  At the end of the stream
    the chunk held is joined with the fragment, or is the fragment.
    """

    def scanner(self) -> Scanner:
        return _LabelJoinScanner(scanner_for(self.inner))


class _LabelJoinScanner(JoinScanner):
    def __init__(self, inner: Scanner) -> None:
        super().__init__(inner)
        self._start: int | None = None  # start of the chunk held, if any
        self._end = 0  # where the chunk held ends
        # Where a label (CONTEXT characters) and a domain before a full stop
        # (entity_open: READ_BACK) are read from, before the chunk.
        self._from = 0

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        start = cut.start if self._start is None else self._start
        text = self._text(self._from, cut.end)
        if label_open(text) or entity_open(text):
            self._start, self._end = start, cut.end  # held: joined with the next chunk
        else:
            out.append(Cut(start, cut.end, cut.stop))
            self._start = None
        self._from = max(0, cut.end - READ_BACK)
        self._text.drop_before(self._from)

    def settled(self) -> bool:
        # A chunk held follows the last cut given out: that cut's separator is over.
        return self._start is not None or self._inner.settled()

    def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
        out, span = self._closed()
        if self._start is None:
            return out, span
        return out, (self._start, self._end if span is None else span[1])
