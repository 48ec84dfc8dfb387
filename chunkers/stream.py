"""The streaming driver: feed deltas, get chunks and lossless segments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import ChunkingStrategy, Cut, Scanner, SplitFlush
from .params import described
from .registry import ChunkerSpec, resolve_chunker

__all__ = ["ChunkStream", "Piece", "RescanScanner", "scanner_for"]


@dataclass(frozen=True, slots=True)
class Piece:
    """One segment of the stream and the chunk inside it.

    ``segment`` is ``text[start:stop]``; ``chunk`` is ``text[chunk_start:chunk_end]``,
    the unit a validator sees, or ``None`` for a closing segment that holds only
    separator text (the whitespace after the last sentence, say).  ``final`` is
    true for the last piece that ``close`` returns.  Joined in order, the segments
    of a stream give its text back exactly.
    """

    segment: str
    chunk: str | None
    start: int
    stop: int
    chunk_start: int
    chunk_end: int
    final: bool = False

    @property
    def before(self) -> str:
        """Segment text before the chunk (lead)."""
        return self.segment[: self.chunk_start - self.start]

    @property
    def after(self) -> str:
        """Segment text after the chunk (separator)."""
        return self.segment[self.chunk_end - self.start :]


def _fast_init() -> Callable[..., None]:
    """An ``__init__`` for :class:`Piece` that stores each field through its
    slot directly: a frozen dataclass's own ``__init__`` goes through
    ``object.__setattr__`` once per field, about 800 ns a piece against 480
    (measured), paid for every chunk streamed.  The instance stays frozen
    (assignment still raises ``FrozenInstanceError``); its parameters are the
    fields, in their order (a test compares them)."""
    set_segment, set_chunk, set_start, set_stop, set_chunk_start, set_chunk_end, set_final = (
        getattr(Piece, name).__set__
        for name in ("segment", "chunk", "start", "stop", "chunk_start", "chunk_end", "final")
    )

    def __init__(
        self: Piece,
        segment: str,
        chunk: str | None,
        start: int,
        stop: int,
        chunk_start: int,
        chunk_end: int,
        final: bool = False,
    ) -> None:
        set_segment(self, segment)
        set_chunk(self, chunk)
        set_start(self, start)
        set_stop(self, stop)
        set_chunk_start(self, chunk_start)
        set_chunk_end(self, chunk_end)
        set_final(self, final)

    __init__.__qualname__ = "Piece.__init__"
    return __init__


Piece.__init__ = _fast_init()  # type: ignore[method-assign]


class RescanScanner(Scanner):
    """Scanner for any object with ``split``/``flush`` and no offset-level core.

    Correct but not incremental: each ``feed`` calls ``split`` on the whole text
    so far (O(len(text)) per delta, as mellea's own orchestrator does) and
    locates the chunks it has not reported yet.  A chunk that is not found in
    the text after the previous one raises ``ValueError``: nothing is ever cut
    by guesswork.  Separator text between chunks travels as lead of the next
    segment; the last segment counts as settled once non-whitespace follows it.
    """

    def __init__(self, strategy: SplitFlush) -> None:
        self._strategy = strategy
        self._text = ""
        self._reported = 0
        self._end = 0
        self._settled = True

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return []
        self._text += delta
        chunks = self._strategy.split(self._text)
        _check_chunks(self._strategy, "split", chunks)
        cuts = []
        text = self._text
        for chunk in chunks[self._reported :]:
            start = self._locate(chunk, "split")
            end = self._end = start + len(chunk)
            cuts.append(Cut(start, end, end))
        self._settled = bool(text[self._end :].strip())
        self._reported = max(self._reported, len(chunks))
        return cuts

    def settled(self) -> bool:
        return self._settled

    def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
        rest = self._strategy.flush(self._text)
        _check_chunks(self._strategy, "flush", rest)
        spans = []
        for chunk in rest:
            start = self._locate(chunk, "flush")
            self._end = start + len(chunk)
            spans.append((start, self._end))
        if not spans:
            return [], None
        return [Cut(a, b, b) for a, b in spans[:-1]], spans[-1]

    def _locate(self, chunk: str, method: str) -> int:
        start = self._text.find(chunk, self._end)
        if start < 0 or not chunk:
            raise ValueError(
                f"{self._strategy!r}.{method} returned a chunk ({described(chunk)}) that is "
                f"not in the text after offset {self._end}"
            )
        return start


def _check_chunks(strategy: object, method: str, chunks: object) -> None:
    if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
        raise TypeError(f"{strategy!r}.{method} must return a list of str, got {described(chunks)}")


def scanner_for(strategy: ChunkingStrategy | SplitFlush) -> Scanner:
    """A fresh scanner: the strategy's own, or a rescanning one."""
    if isinstance(strategy, ChunkingStrategy):
        return strategy.scanner()
    return RescanScanner(strategy)


class ChunkStream:
    """Chunk one stream, one delta at a time.

    ``feed(delta)`` returns the pieces the delta completes; ``close()`` returns
    the final pieces (the fragment ``flush`` would return, and any trailing
    separator text; before it, any chunk only the end completes) and ends the
    stream.  For every text and every way of
    slicing it into deltas, the chunks are exactly ``split(text) + flush(text)``
    and the segments join to ``text``.

    Cost: amortised O(len(delta)) per ``feed`` for strategies with an
    incremental scanner (every built-in); text is joined only when a piece is
    cut from it.  Objects that only offer ``split``/``flush`` are accepted and
    rescanned (see :class:`RescanScanner`).  Not thread-safe: one per stream.
    """

    __slots__ = ("_base", "_closed", "_feed", "_parts", "_scanner", "strategy")

    def __init__(self, chunker: ChunkerSpec = "sentence") -> None:
        self.strategy = resolve_chunker(chunker)
        self._scanner = scanner_for(self.strategy)
        # The scanner's feed, bound once for the hot path; once closed (or
        # broken by a failed feed), a function that raises.
        self._feed: Callable[[str], list[Cut]] = self._scanner.feed
        self._parts: list[str] = []  # text from offset self._base on
        self._base = 0
        self._closed = False

    @property
    def pending(self) -> str:
        """Text received but not yet released in a piece."""
        return "".join(self._parts)

    @property
    def position(self) -> int:
        """Number of characters fed so far."""
        return self._base + sum(map(len, self._parts))

    def feed(self, delta: str) -> list[Piece]:
        """Add ``delta``; return the pieces it completes (often none).

        When the strategy raises (a foreign ``split``, a ``length`` function),
        the exception propagates and the stream is broken: the strategy may
        have taken part of ``delta``, so every later ``feed`` and ``close``
        raises ``ValueError`` rather than cut pieces at the wrong offsets.
        """
        if type(delta) is not str:
            delta = _plain_str(delta)
        if not delta:
            if self._closed:
                self._feed(delta)  # (raises)
            return []
        try:
            cuts = self._feed(delta)  # raises once the stream is closed
        except BaseException:
            if not self._closed:
                self._closed = True
                self._feed = _fed_after_failure
            raise
        self._parts.append(delta)
        if not cuts:
            return []
        return self._cut(cuts)

    def _cut(self, cuts: list[Cut]) -> list[Piece]:
        """The pieces of ``cuts``, cut from the pending text."""
        text = "".join(self._parts)
        base = self._base
        pieces = []
        start = base
        for cut in cuts:
            pieces.append(
                Piece(
                    text[start - base : cut.stop - base],
                    text[cut.start - base : cut.end - base],
                    start,
                    cut.stop,
                    cut.start,
                    cut.end,
                )
            )
            start = cut.stop
        self._parts = [text[start - base :]] if start - base < len(text) else []
        self._base = start
        return pieces

    def close(self) -> list[Piece]:
        """End the stream; return the final pieces, if any text is left.

        When the strategy raises here (a foreign ``flush``, a ``length``
        function), the exception propagates and the stream is broken, as after
        a failed ``feed``: the text left stays ``pending``, never released, so
        a later ``close`` raises ``ValueError`` rather than return no pieces
        as if nothing were left.
        """
        if self._closed:
            if self._feed is _fed_after_failure:
                _fed_after_failure("")
            return []
        self._closed = True
        self._feed = _fed_after_close
        try:
            cuts, span = self._scanner.close()
        except BaseException:
            self._feed = _fed_after_failure
            raise
        pieces = self._cut(cuts) if cuts else []
        text = "".join(self._parts)
        self._parts = []
        if not text:
            return pieces
        base = self._base
        total = self._base = base + len(text)
        if span is None:
            pieces.append(Piece(text, None, base, total, total, total, True))
        else:
            chunk = text[span[0] - base : span[1] - base]
            pieces.append(Piece(text, chunk, base, total, span[0], span[1], True))
        return pieces


def _fed_after_close(delta: str) -> list[Cut]:
    raise ValueError("feed() called on a closed ChunkStream")


def _fed_after_failure(delta: str) -> list[Cut]:
    raise ValueError(
        "ChunkStream is broken: an earlier feed() or close() raised; start a new stream"
    )


def _plain_str(delta: object) -> str:
    """A ``str`` subclass's value as a plain ``str``; anything else is a ``TypeError``."""
    if isinstance(delta, str):
        return str.__str__(delta)
    hint = " (decode bytes first)" if isinstance(delta, (bytes, bytearray)) else ""
    raise TypeError(f"delta must be str, got {type(delta).__name__}{hint}")
