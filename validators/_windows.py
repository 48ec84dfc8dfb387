"""Size limits whose fallback chain a validator replaces, and a level that cuts once.

A size limit (``limit(..., max_chars=/max_tokens=)``: :class:`Bounded`,
:class:`Grouped` with ``max_chars``, :class:`Sized`) cuts a unit longer than
its window down a fallback chain (words, then a hard cut).  A validator that
must see something whole (an entity, a banned phrase) replaces that chain with
levels of its own: :func:`size_limit` tells whether a strategy is such a limit
and whether its chain is still the default one; :class:`OneCut` is a fallback
level that makes one cut at a position its subclass chooses in the window it
is fed (a window of ``limit + 1`` characters, see
:func:`~guardrails_ai.chunkwise.chunkers.fallback.fallback_cut`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from guardrails_ai.chunkwise.adapters.chunked import OwnCuts, OwnJoins, without_own_joins
from guardrails_ai.chunkwise.chunkers import Bounded, ChunkingStrategy, Grouped, Sized, SplitFlush
from guardrails_ai.chunkwise.chunkers.base import Cut, Scanner, StreamText
from guardrails_ai.chunkwise.chunkers.fallback import levels_below
from guardrails_ai.chunkwise.chunkers.fences import closed_to_cuts
from guardrails_ai.chunkwise.chunkers.limits import fallback_chain

__all__ = [
    "JoinScanner",
    "OneCut",
    "SizeLimit",
    "last_cut",
    "size_limit",
    "window_cut",
    "wrap_units",
]


@dataclass(frozen=True)
class SizeLimit:
    """A size limit's window: the limit itself, the parameter that set it
    (``max_chars`` or ``max_tokens``), its value, the measure (``None``:
    characters), its fallback chain and whether that is the default one (not
    a ``fallback=`` of the caller's)."""

    strategy: Bounded | Grouped | Sized
    param: str
    limit: int
    measure: Callable[[str], int] | None
    fallback: tuple[object, ...]
    default_fallback: bool


def size_limit(strategy: ChunkingStrategy | SplitFlush) -> SizeLimit | None:
    """The window of ``strategy`` if it is a size limit, else ``None``."""
    if isinstance(strategy, Grouped):
        units = strategy.units
        if not isinstance(units, Bounded):
            return None  # (units per chunk, no window)
        chain = units.fallback
        default = chain == fallback_chain(strategy.inner)
        return SizeLimit(strategy, "max_chars", units.max_chars, None, chain, default)
    if isinstance(strategy, Bounded):
        chain = strategy.fallback
        default = chain == fallback_chain(strategy.inner)
        return SizeLimit(strategy, "max_chars", strategy.max_chars, None, chain, default)
    if isinstance(strategy, Sized):
        name = "max_tokens" if strategy.measure.unit == "tokens" else "max_chars"
        chain = strategy.fallback
        default = chain == levels_below(strategy.inner)
        return SizeLimit(strategy, name, strategy.limit, strategy.measure, chain, default)
    return None


def wrap_units(
    strategy: ChunkingStrategy | SplitFlush,
    wrap: Callable[[ChunkingStrategy | SplitFlush], OwnJoins],
) -> ChunkingStrategy:
    """``strategy`` with ``wrap`` (a validator's joins) around its units.

    A size limit keeps its ceiling and its fallback chain: ``wrap`` goes
    around its inner chunker, and a joined unit longer than the window is cut
    by that chain.  Joins already there (a chunker taken from another
    validator, or given back to the same one) are taken off first."""
    limited = size_limit(strategy)
    if limited is None:
        return wrap(without_own_joins(strategy))
    s = limited.strategy
    if isinstance(s, Bounded):
        return Bounded(wrap(without_own_joins(s.inner)), s.max_chars, fallback=s.fallback)
    if isinstance(s, Grouped):
        assert isinstance(s.units, Bounded) and s.max_chars is not None  # (size_limit)
        return Grouped(
            wrap(without_own_joins(s.inner)),
            s.chunk_size,
            max_chars=s.max_chars,
            overlap=s.overlap,
            fallback=s.units.fallback,
        )
    return Sized(
        wrap(without_own_joins(s.inner)),
        s.limit,
        length=s.measure,
        fill=s.fill,
        overlap=s.overlap,
        fallback=s.fallback,
        param=s._param,
    )


class JoinScanner(Scanner):
    """The scanner of a validator's joins (:class:`OwnJoins`): it reads the
    inner scanner's cuts one by one (:meth:`_take`) and keeps the text they
    are read from (``_text``; a subclass drops what it no longer reads)."""

    def __init__(self, inner: Scanner) -> None:
        self._inner = inner
        self._text = StreamText()

    def feed(self, delta: str) -> list[Cut]:
        self._text.parts.append(delta)
        out: list[Cut] = []
        for cut in self._inner.feed(delta):
            self._take(cut, out)
        return out

    def _closed(self) -> tuple[list[Cut], tuple[int, int] | None]:
        """The inner scanner closed: its last cuts taken, and its fragment."""
        cuts, span = self._inner.close()
        out: list[Cut] = []
        for cut in cuts:
            self._take(cut, out)
        return out, span

    @abstractmethod
    def _take(self, cut: Cut, out: list[Cut]) -> None:
        """Read the inner chunker's next ``cut``; append the cuts it decides to ``out``."""


def last_cut(
    window: str,
    hi: int,
    spans: Iterable[tuple[int, int]],
    allowed: Callable[[str, int], bool] | None = None,
) -> int | None:
    """The last offset ``1 <= p <= hi`` of ``window`` strictly inside none of
    ``spans`` (``start < p < end``) and ``allowed`` (if given), an end of a
    word (whitespace after it, none before) preferred to any other; ``None``
    when there is none.  O(hi + the spans' lengths)."""
    if hi < 1:
        return None
    blocked = bytearray(hi + 1)
    for start, end in spans:
        for i in range(max(start + 1, 1), min(end, hi + 1)):
            blocked[i] = 1
    fallback = None
    for p in range(hi, 0, -1):
        if blocked[p] or (allowed is not None and not allowed(window, p)):
            continue
        if window[p].isspace() and not window[p - 1].isspace():
            return p
        if fallback is None:
            fallback = p
    return fallback


def window_cut(
    window: str,
    hi: int,
    spans: Iterable[tuple[int, int]],
    allowed: Callable[[str, int], bool] | None = None,
) -> int | None:
    """:func:`last_cut` for a fallback level fed a size limit's window
    (``limit + 1`` characters): also outside every fenced code block the
    limit keeps whole there, which refuses a cut inside it
    (:func:`~guardrails_ai.chunkwise.chunkers.fallback.fallback_cut`; a cut it
    refused left only a hard cut at the limit, inside a word or an entity)."""
    if "`" in window or "~" in window:
        spans = [*spans, *closed_to_cuts(window, None, _chars, len(window) - 1)]
    return last_cut(window, hi, spans, allowed)


def _chars(a: int, b: int) -> int:
    return b - a


class OneCut(OwnCuts):
    """A fallback level: one cut, at :meth:`cut_at` of the text fed (its
    leading whitespace skipped), or none.  Not delta-invariant by itself: a
    size limit feeds it whole windows."""

    @abstractmethod
    def cut_at(self, window: str) -> int | None:
        """Where to cut ``window`` (``1 <= p < len(window)``), or ``None``."""

    def scanner(self) -> Scanner:
        return _OneCutScanner(self.cut_at)


class _OneCutScanner(Scanner):
    def __init__(self, cut_at: Callable[[str], int | None]) -> None:
        self._cut_at = cut_at
        self._text = ""
        self._done = 0

    def feed(self, delta: str) -> list[Cut]:
        self._text += delta
        rest = self._text[self._done :]
        start = len(rest) - len(rest.lstrip())
        p = self._cut_at(rest)
        if p is None or p <= start:
            return []
        cut = Cut(self._done + start, self._done + p, self._done + p)
        self._done += p
        return [cut]

    def finish(self) -> tuple[int, int] | None:
        rest = self._text[self._done :]
        start = len(rest) - len(rest.lstrip())
        end = len(rest.rstrip())
        return (self._done + start, self._done + end) if end > start else None
