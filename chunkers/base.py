"""The chunking contract: stateless ``split``/``flush`` over an offset-level core.

Every built-in strategy is defined by a :class:`Scanner`, an incremental state
machine that reports *offsets* only.  The stateless face of a strategy
(:meth:`ChunkingStrategy.locate`, ``split``, ``flush``, ``split_text``) runs a
fresh scanner over the whole text, and the streaming driver
(:class:`~guardrails_ai.chunkwise.chunkers.stream.ChunkStream`) feeds the same
scanner one delta at a time.  Because both paths share one mechanism, a text
chunked at once and the same text streamed in any slicing give the same chunks.

Vocabulary used throughout the package:

* a *chunk* is the unit handed to a validator (for example a sentence without
  its trailing whitespace);
* a *segment* is a chunk together with the text around it that the chunker does
  not treat as content (leading whitespace at the start of a stream, the
  separator that follows it).  Segments partition the input: joined, they give
  the input back byte for byte;
* the *tail* is the offset where the withheld fragment begins.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import NamedTuple, Protocol, runtime_checkable

__all__ = [
    "ChunkingStrategy",
    "Cut",
    "Layout",
    "Scanner",
    "SplitFlush",
    "StreamText",
    "check_text",
    "scanned",
]


class Cut(NamedTuple):
    """One complete chunk, as offsets into the stream.

    ``text[start:end]`` is the chunk; ``stop`` is where its segment ends (the
    separator ``text[end:stop]`` travels with it).  ``start == end`` never
    happens for a chunk: chunks are never empty.  A named tuple: immutable,
    and several times cheaper to build than a frozen dataclass (scanners build
    one per chunk).
    """

    start: int
    end: int
    stop: int


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the chunks of a whole text lie.

    ``cuts`` are the complete chunks ``split`` returns; ``tail`` is the offset
    where the withheld fragment begins (``0`` when nothing is complete);
    ``fragment`` is the span of the last chunk ``flush`` returns, or ``None``
    when ``flush`` returns ``[]``; ``closing`` are the chunks ``flush``
    returns before it (only a scanner that cuts when the stream ends has any,
    see :meth:`Scanner.close`).  ``text[tail:]`` always holds them all.
    """

    cuts: tuple[Cut, ...]
    tail: int
    fragment: tuple[int, int] | None
    closing: tuple[Cut, ...] = ()

    def spans(self) -> list[tuple[int, int]]:
        """``(start, end)`` of every chunk ``split_text`` returns: the cuts, then
        what ``flush`` returns."""
        return [(c.start, c.end) for c in self.cuts] + self.flushed()

    def flushed(self) -> list[tuple[int, int]]:
        """``(start, end)`` of the chunks ``flush`` returns."""
        spans = [(c.start, c.end) for c in self.closing]
        if self.fragment:
            spans.append(self.fragment)
        return spans


class Scanner(ABC):
    """Incremental offset-level core for one stream.

    ``feed`` takes the next delta and returns the cuts it completes, with
    offsets counted from the start of the stream.  ``close`` ends the stream
    and returns the cuts only its end completes (almost always none), then
    the span of the withheld fragment as ``flush`` presents it (or ``None``).
    A scanner overrides :meth:`finish` (nothing is cut at the end, the usual
    case) or :meth:`close`.  A scanner is single-use and not thread-safe;
    create one per stream with :meth:`ChunkingStrategy.scanner`.
    """

    @abstractmethod
    def feed(self, delta: str) -> list[Cut]:
        """Consume ``delta``; return the chunks it completes, in order."""

    def finish(self) -> tuple[int, int] | None:
        """End the stream; return the span of all that is left as one fragment, if any.

        Callers that can take several chunks at the end call :meth:`close`;
        by default this joins what it returns into one span."""
        if type(self).close is Scanner.close:
            raise TypeError(f"{type(self).__name__} must override finish() or close()")
        cuts, span = self.close()
        if not cuts:
            return span
        return cuts[0].start, span[1] if span else cuts[-1].end

    def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
        """End the stream; return the cuts only its end completes, in order, and
        the final fragment's span, if any.  By default: no cuts, and :meth:`finish`."""
        return [], self.finish()

    def settled(self) -> bool:
        """Whether the last cut's segment is final (its separator has ended):
        no text fed later moves its ``stop``.

        The default, ``False``, is always safe: callers that need settled
        segments (see ``adapters.chunking_function``) then wait for the next cut.
        """
        return False


class StreamText:
    """A stream's text from offset ``base`` on, for a scanner that reads back:
    deltas appended to ``parts`` are joined only when a slice is asked for
    (``text(a, b)``: the stream's ``[a:b]``, both at or after ``base``), and
    :meth:`drop_before` forgets text no longer needed, amortised O(1) per
    character."""

    __slots__ = ("base", "parts", "text")

    def __init__(self) -> None:
        self.text = ""
        self.parts: list[str] = []
        self.base = 0

    def __call__(self, a: int, b: int) -> str:
        if self.parts:
            self.text = "".join([self.text, *self.parts])
            self.parts = []
        return self.text[a - self.base : b - self.base]

    def drop_before(self, offset: int) -> None:
        if offset - self.base > max(4096, len(self.text) // 2):  # amortised
            self.text = self(offset, self.base + len(self.text) + sum(map(len, self.parts)))
            self.base = offset


@runtime_checkable
class SplitFlush(Protocol):
    """Anything with ``split``/``flush`` (a mellea strategy, for one)."""

    def split(self, accumulated_text: str) -> list[str]: ...

    def flush(self, accumulated_text: str) -> list[str]: ...


class ChunkingStrategy(ABC):
    """A stateless chunking strategy (mellea's ``ChunkingStrategy`` contract).

    ``split(text)`` returns the complete chunks of ``text`` and withholds the
    trailing fragment; ``flush(text)`` returns that fragment as ``[fragment]``
    or ``[]`` (a wrapper that cuts only when the stream ends, as
    ``BannedPhrases``' phrase joins, may return chunks before it).  Both are
    pure functions of ``text`` and cost O(len(text)).  Subclasses define
    :meth:`scanner`; everything else derives from it.
    """

    #: Alias under which the strategy is registered, if any (the kind its
    #: :meth:`spec` names).
    alias: str = ""

    @abstractmethod
    def scanner(self) -> Scanner:
        """Return a fresh incremental scanner for one stream."""

    def locate(self, text: str) -> Layout:
        """Return the offsets of every chunk of ``text`` and of its fragment."""
        check_text(text)
        scanner = self.scanner()
        return scanned(scanner, text)

    def split(self, accumulated_text: str) -> list[str]:
        """Return the complete chunks of ``accumulated_text``; withhold the rest."""
        layout = self.locate(accumulated_text)
        return [accumulated_text[c.start : c.end] for c in layout.cuts]

    def flush(self, accumulated_text: str) -> list[str]:
        """Return the fragment ``split`` withheld, as ``[fragment]`` or ``[]``
        (a chunker that cuts when the stream ends may return chunks before it)."""
        return [accumulated_text[a:b] for a, b in self.locate(accumulated_text).flushed()]

    def split_text(self, text: str) -> list[str]:
        """Chunk a whole document: ``split(text) + flush(text)`` in one pass."""
        return [text[a:b] for a, b in self.split_spans(text)]

    def split_spans(self, text: str) -> list[tuple[int, int]]:
        """``(start, end)`` offsets of the chunks :meth:`split_text` returns, in order."""
        return self.locate(text).spans()

    def segments(self, text: str) -> list[str]:
        """Return the lossless segments of ``text``: ``"".join(...) == text``."""
        layout = self.locate(text)
        bounds = [c.stop for c in layout.cuts + layout.closing]
        if layout.tail < len(text) or not bounds:
            bounds.append(len(text))
        starts = [0, *bounds[:-1]]
        return [text[a:b] for a, b in zip(starts, bounds, strict=True) if b > a]

    def __repr__(self) -> str:
        """Names the class and the parameters that differ from the defaults;
        equality and hashing read it (a compiled pattern is shown whole:
        ``re.Pattern``'s own repr cuts one off after 200 characters)."""
        params = ", ".join(f"{k}={_shown(v)}" for k, v in self._params().items())
        return f"{type(self).__name__}({params})"

    def _params(self) -> dict[str, object]:
        """Constructor arguments that differ from the defaults (for ``repr`` and :meth:`spec`)."""
        return {}

    def spec(self) -> dict[str, object]:
        """This chunker as JSON data: ``{"chunker": alias, **parameters}``.

        ``resolve_chunker(spec)`` (or any ``chunker=`` parameter given the
        spec) rebuilds an equal chunker, also after a JSON round trip.  Raises
        ``SpecError`` (a ``ValueError``) naming what cannot be written: a
        parameter that is a function or a foreign object, or a subclass
        without an alias of its own.  See :mod:`.specs`.
        """
        from .specs import spec_of  # specs imports the registry, which imports us

        return spec_of(self)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))


def _shown(value: object) -> str:
    """``repr(value)``, but a compiled pattern in full."""
    if not isinstance(value, re.Pattern):
        return repr(value)
    flags = value.flags & ~re.UNICODE if isinstance(value.pattern, str) else value.flags
    shown = f"re.compile({value.pattern!r}"
    return shown + (f", {re.RegexFlag(flags)!r})" if flags else ")")


def scanned(scanner: Scanner, text: str) -> Layout:
    """The layout of ``text``, fed whole to a fresh ``scanner``."""
    cuts = tuple(scanner.feed(text))
    closing, fragment = scanner.close()
    return Layout(cuts, cuts[-1].stop if cuts else 0, fragment, tuple(closing))


def check_text(text: object) -> None:
    """``TypeError`` unless ``text`` is a ``str`` (naming its type, never its value)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
