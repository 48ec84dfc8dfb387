"""Size limits on any chunker: a ``max_chars`` ceiling, ``chunk_size`` units, ``overlap``.

Boundary first, size second.  :class:`Bounded` keeps every unit of an inner
chunker that fits under ``max_chars`` as it is; a unit that does not fit is cut
at the next smaller boundary, down a *fallback chain* that ends in a hard cut::

    structure -> paragraph -> line -> sentence -> word -> (whitespace) -> hard cut

The chain starts below the inner chunker's own level (a paragraph chunker falls
back to lines, a sentence chunker to lines and then words; a chunker of unknown
level to sentences).  Inside an over-long unit the cut is made at the *last* boundary of
the first level that has one within reach, so the pieces are as long as the
ceiling allows and nothing is cut below the level it needs: no word is cut
unless a single word is longer than ``max_chars``.  A fenced code block that
fits is never cut into (:mod:`.fences`): the cut comes before or after it.

Other measures and filling.  ``limit(..., max_tokens=, tokenizer=)``,
``limit(..., max_chars=, length=)`` and ``limit(..., fill=True)`` return a
:class:`~.fill.Sized` chunker, which measures with any tokenizer or length
function and packs chunks to the limit (see :mod:`.fill`).

:class:`Grouped` puts ``chunk_size`` consecutive units in one chunk (fewer when
``max_chars`` would be exceeded) and, for whole documents only, repeats
``overlap`` units at the start of the next chunk.  :func:`limit` builds either
from an alias or a strategy.

What ``max_chars`` bounds.  Segments of these chunkers end where their chunk
ends: whatever lies between two chunks (whitespace, the inner chunker's
separator) travels at the head of the *next* segment.  ``max_chars`` bounds the
whole segment, lead included, so it bounds every chunk, every segment (the
closing one too) and the text a stream holds back: after every ``feed`` at most
``max_chars`` characters are pending.  A run of whitespace that cannot travel
with the chunk after it within the ceiling becomes a segment of its own, whose
chunk is that whitespace (chunks are never empty); this only happens when the
whitespace and the word after it do not fit together, or when a run of
whitespace is itself longer than ``max_chars``.

Whole documents.  ``locate``/``split_text``/``split_spans`` replay the
streaming decisions over the inner chunker's cuts from one pass over the text
(word, line and ``\n`` paragraph units from one ``split``), instead of feeding
it slice by slice, when the offset at which a stream would report each cut is
known; the result is the streaming layout, property-tested.

Streaming.  Both combinators are scanners: the inner scanner is fed in slices
that end at *checkpoints* (``max_chars + 1`` characters after the start of the
pending text), and every decision depends only on the text seen up to a
checkpoint, never on how the stream was sliced (delta invariance).  A unit
counts as fitting when the inner chunker has completed it by the checkpoint; a
unit whose end can only be decided further on (a sentence whose end depends on
the next word) is cut by the fallback chain instead.  Cost: amortised
O(len(delta)); the fallback chain re-runs its chunkers over at most
``max_chars + 1`` pending characters per cut it decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict, Unpack, overload

from .base import (
    ChunkingStrategy,
    Cut,
    Layout,
    Scanner,
    SplitFlush,
    StreamText,
    check_text,
    scanned,
)
from .fallback import content_from, fallback_cut, levels_below, resolve_levels
from .fences import FenceReader
from .fill import Sized
from .line import LineChunker
from .params import check_int
from .registry import ChunkerSpec, resolve_chunker
from .replay import bounded_line_chunks, bounded_replay, bounded_spans, grouped_replay
from .sizing import measure_for
from .stream import scanner_for

__all__ = ["Bounded", "Grouped", "Sized", "fallback_chain", "limit", "split_spans"]

Strategy = ChunkingStrategy | SplitFlush
Span = tuple[int, int]
_NO_CUTS: list[Cut] = []
#: Characters a bounded stream keeps before the pending text, unread for code
#: fences, at most (read in one go, not at every chunk).
_UNREAD = 8192


def _check_max_chars(value: object) -> int | None:
    return None if value is None else check_int("max_chars", value, 1)


def fallback_chain(chunker: ChunkerSpec) -> tuple[Strategy, ...]:
    """The default fallback levels below ``chunker``, largest first (hard cut implied)."""
    strategy = resolve_chunker(chunker)
    while isinstance(strategy, (Bounded, Grouped)):
        strategy = strategy.inner
    return levels_below(strategy)


def split_spans(chunker: ChunkerSpec, text: str) -> list[Span]:
    """``(start, end)`` offsets into ``text`` of every chunk ``split_text`` returns.

    For RAG pipelines that keep offsets: ``[text[a:b] for a, b in spans]`` are
    the chunks.  Uses the chunker's own ``split_spans`` when it has one (so a
    :class:`Grouped` chunker with ``overlap`` gives overlapping spans).
    """
    strategy = resolve_chunker(chunker)
    own = getattr(strategy, "split_spans", None)
    if callable(own):
        spans: list[Span] = own(text)
        return spans
    return _layout(strategy, text).spans()


def _layout(strategy: Strategy, text: str) -> Layout:
    if isinstance(strategy, ChunkingStrategy):
        return strategy.locate(text)
    check_text(text)
    return scanned(scanner_for(strategy), text)


class _Paced(Scanner):
    """Feeds an inner scanner in slices that end at checkpoints.

    ``_p`` is where the pending text (and the next segment) starts; with a
    ceiling, the checkpoint is ``_p + max_chars + 1``: reaching it means the
    pending text is one character over the ceiling and a cut must be decided
    (``_at_checkpoint``).  Cuts of the inner scanner go to ``_take``.
    """

    def __init__(self, inner: Scanner, max_chars: int | None) -> None:
        self._inner = inner
        self._max = max_chars
        self._p = 0
        self._fed = 0

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        out: list[Cut] = []
        n = len(delta)
        i = 0
        limit = self._max
        while i < n:
            if limit is None:
                piece = delta[i:] if i else delta
            else:
                room = self._p + limit + 1 - self._fed
                piece = delta[i : i + room] if (i or room < n) else delta
            i += len(piece)
            self._fed += len(piece)
            self._received(piece)
            for cut in self._inner.feed(piece):
                self._take(cut, out)
            if limit is not None and self._fed - self._p > limit:
                self._at_checkpoint(out)
        return out

    def _received(self, piece: str) -> None:
        """Hook: ``piece`` was appended to the stream."""

    def settled(self) -> bool:
        # Segments end where their chunk ends (the whitespace after a chunk
        # leads the next segment): a cut is final as soon as it is reported.
        return True

    def close(self) -> tuple[list[Cut], Span | None]:
        cuts, span = self._inner.close()
        out: list[Cut] = []
        for cut in cuts:
            self._take(cut, out)
        return out, self._final(span)

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        raise NotImplementedError

    def _at_checkpoint(self, out: list[Cut]) -> None:
        raise NotImplementedError

    def _final(self, span: Span | None) -> Span | None:
        """The final fragment, given the inner scanner's."""
        raise NotImplementedError


class _BoundedScanner(_Paced):
    def __init__(self, inner: Scanner, max_chars: int, levels: tuple[Strategy, ...]) -> None:
        super().__init__(inner, max_chars)
        self._limit = max_chars
        self._levels = levels
        self._stream = StreamText()
        # The text before _read, read for the code fence open at _p (a
        # fallback window that starts inside a code block must know it);
        # read up to _p at a fallback cut, or when that text grows long.
        self._fences = FenceReader(None)
        self._read = 0

    def _received(self, piece: str) -> None:
        self._stream.parts.append(piece)

    def _emit(self, out: list[Cut], start: int, end: int) -> None:
        out.append(Cut(start, end, end))
        self._p = end
        if end - self._read > _UNREAD:
            self._read_to(end)
        self._stream.drop_before(self._read)  # nothing before is read again

    def _read_to(self, end: int) -> None:
        """Read the text up to ``end`` for code fences (amortised O(1) per character)."""
        self._fences.feed(self._stream(self._read, end))
        self._read = end

    def _content_from(self, start: int, end: int) -> int:
        """First non-whitespace offset in ``[start, end)``, or ``end``."""
        return content_from(self._stream(start, self._fed), 0, end - start) + start

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        start, end = cut.start, cut.end
        while end > self._p:
            if start < self._p:
                # The rest of a unit the fallback chain has already cut into.
                start = self._content_from(self._p, end)
                if start == end:
                    return  # only whitespace left: it leads the next segment
            if end - self._p <= self._limit:
                self._emit(out, start, end)
                return
            self._at_checkpoint(out)  # a unit that ends one character too late

    def _at_checkpoint(self, out: list[Cut]) -> None:
        p = self._p
        self._read_to(p)
        window = self._stream(p, p + self._limit + 1)
        start, end = fallback_cut(
            self._levels,
            self._limit,
            window,
            after_chunk=p > 0,
            fence=self._fences.open_fence(),
        )
        self._emit(out, p + start, p + end)

    def _final(self, span: Span | None) -> Span | None:
        if span is None or span[1] <= self._p:
            return None
        start, end = span
        if start < self._p:
            start = self._content_from(self._p, end)
            if start == end:
                return None
        return start, end


class _GroupScanner(_Paced):
    def __init__(self, inner: Scanner, size: int, max_chars: int | None) -> None:
        super().__init__(inner, max_chars)
        self._size = size
        self._count = 0
        self._first = 0  # start of the group's first unit
        self._last = 0  # end of its last unit

    def _close(self, out: list[Cut]) -> None:
        out.append(Cut(self._first, self._last, self._last))
        self._p = self._last
        self._count = 0

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        if self._count and self._max is not None and cut.end - self._p > self._max:
            self._close(out)
        if not self._count:
            self._first = cut.start
        self._count += 1
        self._last = cut.end
        if self._count == self._size:
            self._close(out)

    def _at_checkpoint(self, out: list[Cut]) -> None:
        # The inner scanner, bounded by the same max_chars from the same offset
        # when no unit is held, always completes a unit by this point.
        if not self._count:
            raise AssertionError("a bounded inner scanner completed no unit by the checkpoint")
        self._close(out)

    def _final(self, span: Span | None) -> Span | None:
        if not self._count:
            return span
        return self._first, span[1] if span else self._last


class Bounded(ChunkingStrategy):
    """``inner``'s chunks, none longer than ``max_chars`` (see the module docstring).

    ``fallback`` lists the levels to cut an over-long unit at, largest first
    (aliases or strategies); the default is :func:`fallback_chain` of ``inner``.
    A hard cut at ``max_chars`` always comes last.
    """

    def __init__(
        self,
        inner: ChunkerSpec,
        max_chars: int,
        *,
        fallback: Sequence[ChunkerSpec] | None = None,
    ) -> None:
        self.inner = resolve_chunker(inner, param="inner")
        self.max_chars: int = check_int("max_chars", max_chars, 1)
        self.fallback = fallback_chain(self.inner) if fallback is None else resolve_levels(fallback)

    def scanner(self) -> Scanner:
        return _BoundedScanner(scanner_for(self.inner), self.max_chars, self.fallback)

    def locate(self, text: str) -> Layout:
        """As :meth:`ChunkingStrategy.locate`; a faster path for whole documents.

        When it is known at which offset the inner scanner reports each cut
        (word, simple sentence, paragraph and line chunkers), the streaming
        decisions are replayed over the inner chunker's cuts of the whole text
        (:func:`~.replay.bounded_replay`) instead of feeding the scanner slice
        by slice.  Both paths give the same layout (property-tested).
        """
        check_text(text)
        fast = bounded_replay(self.inner, self.max_chars, self.fallback, text)
        if fast is None:
            return super().locate(text)
        starts, ends, _, fragment, _, _ = fast
        cuts = tuple(map(Cut, starts, ends, ends))
        return Layout(cuts, ends[-1] if ends else 0, fragment)

    def split_text(self, text: str) -> list[str]:
        if isinstance(self.inner, LineChunker) and type(self.inner) is LineChunker:
            check_text(text)
            return bounded_line_chunks(self.inner, self.max_chars, self.fallback, text)
        return [text[a:b] for a, b in self.split_spans(text)]

    def split_spans(self, text: str) -> list[Span]:
        """Offsets of the chunks ``split_text(text)`` returns."""
        check_text(text)
        spans = bounded_spans(self.inner, self.max_chars, self.fallback, text)
        return self.locate(text).spans() if spans is None else spans

    def with_fallback(
        self, fallback: Sequence[ChunkerSpec] | None, *, inner: ChunkerSpec | None = None
    ) -> Bounded:
        """The same chunker with another fallback chain (``None``: the default
        one) and, if given, another ``inner`` chunker."""
        return Bounded(self.inner if inner is None else inner, self.max_chars, fallback=fallback)

    def _params(self) -> dict[str, object]:
        return {"inner": self.inner, "max_chars": self.max_chars, "fallback": self.fallback}


class Grouped(ChunkingStrategy):
    """Up to ``chunk_size`` consecutive units of ``inner`` per chunk.

    A chunk spans from its first unit's start to its last unit's end (the text
    between units included).  With ``max_chars``, units are first bounded
    (:class:`Bounded`, with ``fallback``) and a chunk takes fewer units when
    the next would not fit, or when it is not complete by the checkpoint (see
    the module docstring); every chunk and segment stays within ``max_chars``.

    ``overlap`` applies to whole documents only (:meth:`split_text`,
    :meth:`split_spans`): each chunk after the first starts with up to
    ``overlap`` units that end the chunk before it, as many as fit under
    ``max_chars`` together with the next new unit (possibly none); a chunk
    always has at least one unit the previous chunk did not.  There the units
    are the chunks of the same chunker with ``chunk_size=1`` and chunks take
    units greedily (up to ``chunk_size``, while they fit).  Streaming
    (``split``/``flush``, :class:`ChunkStream`) never overlaps.
    """

    def __init__(
        self,
        inner: ChunkerSpec,
        chunk_size: int,
        *,
        max_chars: int | None = None,
        overlap: int = 0,
        fallback: Sequence[ChunkerSpec] | None = None,
    ) -> None:
        self.inner = resolve_chunker(inner, param="inner")
        self.chunk_size: int = check_int("chunk_size", chunk_size, 1)
        self.max_chars = _check_max_chars(max_chars)
        self.overlap: int = check_int("overlap", overlap, 0)
        if self.overlap >= self.chunk_size:
            raise ValueError(
                f"overlap must be < chunk_size={self.chunk_size}, got {self.overlap!r}"
            )
        if self.max_chars is None:
            if fallback is not None:
                raise ValueError(
                    f"fallback={fallback!r:.80} needs max_chars: it only cuts units "
                    "longer than max_chars"
                )
            self.units: Strategy = self.inner
        else:
            self.units = Bounded(self.inner, self.max_chars, fallback=fallback)

    def scanner(self) -> Scanner:
        return _GroupScanner(scanner_for(self.units), self.chunk_size, self.max_chars)

    def locate(self, text: str) -> Layout:
        """As :meth:`ChunkingStrategy.locate`, with :class:`Bounded`'s whole-document path."""
        spans = self._replay(text)
        if spans is None:
            return super().locate(text)
        cuts, fragment = spans
        return Layout(tuple(Cut(a, b, b) for a, b in cuts), cuts[-1][1] if cuts else 0, fragment)

    def _replay(self, text: str) -> tuple[list[Span], Span | None] | None:
        """The groups and fragment by :func:`~.replay.grouped_replay`, or ``None``."""
        if not isinstance(self.units, Bounded) or self.max_chars is None:
            return None
        check_text(text)
        units = self.units
        return grouped_replay(units.inner, self.chunk_size, self.max_chars, units.fallback, text)

    def split_spans(self, text: str) -> list[Span]:
        """Offsets of the chunks :meth:`split_text` returns (overlapping if ``overlap``)."""
        if not self.overlap:
            fast = self._replay(text)
            if fast is None:
                return self.locate(text).spans()
            groups, fragment = fast
            return [*groups, fragment] if fragment else groups
        units = _layout(self.units, text).spans()
        size, limit = self.chunk_size, self.max_chars
        spans: list[Span] = []
        i, n = 0, len(units)
        while i < n:
            start = units[i][0]
            j = i + 1
            while j < n and j - i < size and (limit is None or units[j][1] - start <= limit):
                j += 1
            spans.append((start, units[j - 1][1]))
            if j == n:
                break
            back = min(self.overlap, j - i - 1)
            while back and limit is not None and units[j][1] - units[j - back][0] > limit:
                back -= 1
            i = j - back
        return spans

    def with_fallback(
        self, fallback: Sequence[ChunkerSpec] | None, *, inner: ChunkerSpec | None = None
    ) -> Grouped:
        """The same chunker with another fallback chain (``None``: the default
        one; itself without ``max_chars``) and, if given, another ``inner``."""
        if self.max_chars is None:
            return self
        return Grouped(
            self.inner if inner is None else inner,
            self.chunk_size,
            max_chars=self.max_chars,
            overlap=self.overlap,
            fallback=fallback,
        )

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {"inner": self.inner, "chunk_size": self.chunk_size}
        if self.max_chars is not None:
            params["max_chars"] = self.max_chars
            assert isinstance(self.units, Bounded)
            params["fallback"] = self.units.fallback
        if self.overlap:
            params["overlap"] = self.overlap
        return params


class LimitOptions(TypedDict, total=False):
    """The keyword arguments of :func:`limit` (for its typed overloads)."""

    max_chars: int | None
    max_tokens: int | None
    tokenizer: object
    length: object
    fill: bool
    chunk_size: int | None
    overlap: int | None
    fallback: Sequence[ChunkerSpec] | None


@overload
def limit(
    chunker: str | Mapping[str, object] | ChunkingStrategy, **options: Unpack[LimitOptions]
) -> ChunkingStrategy: ...


@overload
def limit(chunker: ChunkerSpec, **options: Unpack[LimitOptions]) -> Strategy: ...


def limit(
    chunker: ChunkerSpec,
    *,
    max_chars: int | None = None,
    max_tokens: int | None = None,
    tokenizer: object = None,
    length: object = None,
    fill: bool = False,
    chunk_size: int | None = None,
    overlap: int | None = None,
    fallback: Sequence[ChunkerSpec] | None = None,
) -> Strategy:
    """``chunker`` with a size ceiling and/or ``chunk_size`` units per chunk.

    ``limit("paragraph", max_chars=1000)`` is a :class:`Bounded` chunker,
    ``limit("sentence", chunk_size=3, overlap=1, max_chars=500)`` a
    :class:`Grouped` one; with no limit at all, the resolved ``chunker``
    itself.  Typed accordingly: given an alias, a spec or a strategy, the
    result is a :class:`ChunkingStrategy` (``split_text``, ``split_spans``
    through :func:`split_spans`, ``locate``...); only a foreign
    ``split``/``flush`` object given no limit comes back as it is.

    Other measures, and filling (a :class:`~.fill.Sized` chunker):

    * ``max_tokens=512, tokenizer="cl100k_base"``: tokens of a named OpenAI
      encoding (offline, through the ``tokens`` extra; the default) or of a
      tokenizer object (tiktoken/bpe-openai ``Encoding``,
      ``tokenizers.Tokenizer``, a transformers tokenizer);
    * ``max_chars=N, length=f``: any other measure, ``f(text) -> int``
      (a tokenizer object works here too);
    * ``fill=True``: chunks packed as full as the ceiling allows with whole
      units of the highest level that fits (sections, paragraphs, lines,
      sentences, words); ``overlap`` is then measured like the ceiling
      (LangChain's ``chunk_overlap``) and applies to whole documents.

    Every argument is checked here (``TypeError``/``ValueError`` naming it).
    """
    strategy = resolve_chunker(chunker)
    if not isinstance(fill, bool):
        raise TypeError(f"fill must be a bool, got {type(fill).__name__}: {fill!r:.80}")
    if max_tokens is not None or tokenizer is not None or length is not None or fill:
        return _sized(
            strategy, max_chars, max_tokens, tokenizer, length, fill, chunk_size, overlap, fallback
        )
    max_chars = _check_max_chars(max_chars)
    size = 1 if chunk_size is None else check_int("chunk_size", chunk_size, 1)
    if overlap is not None:
        check_int("overlap", overlap, 0)
        if chunk_size is None and overlap:
            raise ValueError(
                f"overlap={overlap!r} needs chunk_size (units per chunk) greater than it; "
                "chunk_size was not given (it defaults to 1)"
            )
    if size > 1 or overlap:
        return Grouped(strategy, size, max_chars=max_chars, overlap=overlap or 0, fallback=fallback)
    if max_chars is not None:
        return Bounded(strategy, max_chars, fallback=fallback)
    if fallback is not None:
        raise ValueError(f"fallback={fallback!r:.80} needs max_chars")
    return strategy


def _sized(
    strategy: Strategy,
    max_chars: int | None,
    max_tokens: int | None,
    tokenizer: object,
    length: object,
    fill: bool,
    chunk_size: int | None,
    overlap: int | None,
    fallback: Sequence[ChunkerSpec] | None,
) -> Sized:
    """:func:`limit` with another measure than characters, or ``fill``."""
    if chunk_size is not None:
        raise ValueError(
            f"chunk_size={chunk_size!r:.80} counts units under a max_chars ceiling only; "
            "with max_tokens, length or fill=True use fill=True to pack units"
        )
    if max_tokens is not None:
        if max_chars is not None:
            raise ValueError(
                f"pass max_chars={max_chars!r:.80} or max_tokens={max_tokens!r:.80}, not both"
            )
        if length is not None:
            raise ValueError(
                f"length={length!r:.80} goes with max_chars; with max_tokens pass tokenizer="
            )
        check_int("max_tokens", max_tokens, 1)
        return Sized(
            strategy,
            max_tokens,
            length=measure_for(
                "cl100k_base" if tokenizer is None else tokenizer, param="tokenizer"
            ),
            fill=fill,
            overlap=overlap or 0,
            fallback=fallback,
            param="max_tokens",
        )
    if tokenizer is not None:
        raise ValueError(f"tokenizer={tokenizer!r:.80} needs max_tokens")
    if max_chars is None:
        raise ValueError(
            "a size is needed: pass max_chars (with length=) or max_tokens (with tokenizer=)"
            if length is not None
            else "fill=True needs max_chars or max_tokens"
        )
    return Sized(
        strategy,
        max_chars,
        length=measure_for(length, param="length"),
        fill=fill,
        overlap=overlap or 0,
        fallback=fallback,
        param="max_chars",
    )
