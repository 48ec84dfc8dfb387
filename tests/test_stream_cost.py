"""Streaming cost, counted in characters examined (never in seconds).

Every regular expression a scanner uses (class attributes along its MRO and
patterns at the top level of the modules that define it) is replaced by a
counting proxy for the duration of a test.  Per call the proxy adds
``endpos - pos`` (the most characters that call can look at) to
``examined``; per delta the longest string handed to any call (the window
the scanner kept and had to rebuild) is added to ``window``.  The sum is the
work of the stream.  Work done with ``str`` methods (``find``, ``rstrip``) is
not seen: scanners use them on the delta or on text they are about to cut.

Each built-in chunker streams 2 MB of prose and 2 MB with no boundary at all
(no terminator, no whitespace) in 4-character deltas through
:class:`ChunkStream`; the work is read at 1 MB and at 2 MB (the 1 MB text is
a prefix of the 2 MB one).  Linear growth means doubling the stream at most
about doubles the work, and a few characters of work per character streamed.
The same measure on the rescanning path (a foreign ``split``/``flush``
object) grows with the square of the length, which shows it can fail.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _chunking_helpers import SplitFlushOnly

import guardrails_ai.chunkwise.chunkers
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    ChunkStream,
    FixedSizeChunker,
    ParagraphChunker,
    RescanScanner,
    SentenceChunker,
    aliases,
    limit,
    resolve_chunker,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from _text import boundary_free, deltas, prose

MB = 1_000_000
#: Doubling the stream may cost at most this factor more.
MAX_DOUBLING = 2.3
#: Work per character streamed, at most: a bounded number of passes, whatever
#: the length.  (The accurate sentence scanner keeps 72 characters of
#: look-behind, rebuilt with each 4-character delta: about 20 per character.)
MAX_WORK_PER_CHAR = 32


class Work:
    """Work counted so far: see the module docstring."""

    __slots__ = ("calls", "examined", "longest", "max_window", "window")

    def __init__(self, examined: int = 0, window: int = 0, calls: int = 0) -> None:
        self.examined = examined
        self.window = window
        self.calls = calls
        self.longest = 0  # longest string seen during the current delta
        self.max_window = 0

    def end_delta(self) -> None:
        self.window += self.longest
        if self.longest > self.max_window:
            self.max_window = self.longest
        self.longest = 0

    @property
    def total(self) -> int:
        return self.examined + self.window

    def __repr__(self) -> str:
        return (
            f"Work(examined={self.examined}, window={self.window}, calls={self.calls}, "
            f"max_window={self.max_window})"
        )


def _counting(work: Work, method: Any) -> Any:
    def call(string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        n = len(string)
        work.calls += 1
        work.examined += (endpos if endpos < n else n) - pos
        if n > work.longest:
            work.longest = n
        return method(string, pos, endpos)

    return call


class CountingPattern:
    """Stands in for a compiled pattern; reports each call to ``work``."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self._pattern = pattern
        for name in ("search", "match", "fullmatch", "finditer", "findall"):
            setattr(self, name, _counting(work, getattr(pattern, name)))

    def __getattr__(self, name: str) -> Any:
        if name in ("split", "sub", "subn"):
            raise AssertionError(f"uncounted pattern method {name}: add it to CountingPattern")
        return getattr(self._pattern, name)


def count_work(monkeypatch: pytest.MonkeyPatch, scanner: Any) -> Work:
    """Route every pattern ``scanner`` (a scanner type, or a scanner) can reach
    through one :class:`Work`: those of its class and modules, and those a
    scanner holds itself (compiled per scanner, alone, in tuples, or as their
    bound ``search``/``match`` methods)."""
    work = Work()
    scanner_type = scanner if isinstance(scanner, type) else type(scanner)
    owners: list[Any] = list(scanner_type.__mro__)
    owners += [sys.modules[c.__module__] for c in scanner_type.__mro__]
    for owner in owners:
        for name, value in list(vars(owner).items()):
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(owner, name, CountingPattern(value, work))
    if scanner is scanner_type:
        return work
    slots = [n for c in scanner_type.__mro__ for n in getattr(c, "__slots__", ())]
    for name in [*slots, *getattr(scanner, "__dict__", {})]:
        value = getattr(scanner, name, None)
        if isinstance(value, re.Pattern):
            setattr(scanner, name, CountingPattern(value, work))
        elif isinstance(value, tuple) and value and all(isinstance(v, re.Pattern) for v in value):
            setattr(scanner, name, tuple(CountingPattern(v, work) for v in value))
        elif isinstance(getattr(value, "__self__", None), re.Pattern):
            method = getattr(CountingPattern(value.__self__, work), value.__name__)
            setattr(scanner, name, method)
    return work


def stream_work(
    monkeypatch: pytest.MonkeyPatch,
    chunker: ChunkingStrategy | Any,
    text: str,
    marks: tuple[int, ...],
) -> list[Work]:
    """Stream ``text`` in 4-character deltas; the work done at each mark (chars)."""
    stream = ChunkStream(chunker)
    work = count_work(monkeypatch, _inner_scanner(stream))
    readings = []
    pending = sorted(marks)
    position = 0
    for delta in deltas(text, 4):
        stream.feed(delta)
        work.end_delta()
        position += len(delta)
        if pending and position >= pending[0]:
            reading = Work(work.examined, work.window, work.calls)
            reading.max_window = work.max_window
            readings.append(reading)
            pending.pop(0)
    stream.close()
    return readings


def _inner_scanner(stream: ChunkStream) -> Any:
    """The scanner whose patterns do the work (a foreign object's own, if rescanned)."""
    scanner = stream._scanner
    if isinstance(scanner, RescanScanner):
        inner = scanner._strategy._inner  # the SplitFlushOnly wrapper below
        return inner.scanner()
    return scanner


def built_in_chunkers() -> dict[str, ChunkingStrategy]:
    """Every registered chunker defined in the chunkers package, and the variants."""
    found: dict[str, ChunkingStrategy] = {}
    package = guardrails_ai.chunkwise.chunkers.__name__
    for alias in aliases():
        strategy = resolve_chunker(alias)
        if isinstance(strategy, ChunkingStrategy) and type(strategy).__module__.startswith(
            package
        ):
            found.setdefault(repr(strategy), strategy)
    fixed = [FixedSizeChunker(200, 20, boundary_preference=p) for p in ("forward", "backward")]
    for extra in (SentenceChunker(mode="simple"), ParagraphChunker(crlf=True), *fixed):
        found.setdefault(repr(extra), extra)
    return found


@pytest.fixture(scope="module")
def texts() -> Iterator[dict[str, str]]:
    yield {"prose": prose(2 * MB, seed=1), "boundary-free": boundary_free(2 * MB, seed=1)}


CHUNKERS = built_in_chunkers()


@pytest.mark.parametrize("kind", ["prose", "boundary-free"])
@pytest.mark.parametrize("chunker", list(CHUNKERS.values()), ids=list(CHUNKERS))
def test_streaming_work_grows_linearly(
    monkeypatch: pytest.MonkeyPatch,
    texts: dict[str, str],
    chunker: ChunkingStrategy,
    kind: str,
) -> None:
    one, two = stream_work(monkeypatch, chunker, texts[kind], (MB, 2 * MB))
    assert one.calls > 0, "no pattern was counted: the proxies are not in use"
    ratio = two.total / one.total
    assert ratio <= MAX_DOUBLING, (one, two)
    assert two.total <= MAX_WORK_PER_CHAR * 2 * MB, two


@pytest.mark.parametrize("make", [prose, boundary_free], ids=["prose", "boundary-free"])
def test_the_rescanning_path_grows_quadratically(
    monkeypatch: pytest.MonkeyPatch, make: Any
) -> None:
    # The same measure on the path that rescans: doubling the stream about
    # quadruples the work, so the linear test above has something to catch.
    foreign = SplitFlushOnly(SentenceChunker(mode="simple"))
    size = 4000
    one, two = stream_work(monkeypatch, foreign, make(2 * size, seed=1), (size, 2 * size))
    assert two.total / one.total > 3.5, (one, two)
    assert two.total > MAX_WORK_PER_CHAR * 2 * size


class CountingLength:
    """A length function (about 4 characters a unit, like tokens) that counts
    the characters it is handed: the measuring work of a stream."""

    def __init__(self) -> None:
        self.measured = 0

    def __call__(self, text: str) -> int:
        self.measured += len(text)
        return (len(text) + 3) // 4


@pytest.mark.parametrize("fill", [False, True], ids=["capped", "filled"])
@pytest.mark.parametrize("kind", ["prose", "boundary-free"])
def test_measuring_work_grows_linearly(kind: str, fill: bool) -> None:
    """A stream sized by a length function measures each piece once and each
    chunk once more: the held-back text is never measured again per delta, so
    the characters measured grow linearly, a few per character streamed."""
    size = 100_000
    make = prose if kind == "prose" else boundary_free
    text = make(2 * size, seed=4)
    measured = []
    for n in (size, 2 * size):
        length = CountingLength()
        stream = ChunkStream(limit("sentence", max_chars=64, length=length, fill=fill))
        for delta in deltas(text[:n]):
            stream.feed(delta)
        stream.close()
        measured.append(length.measured)
    assert measured[1] / measured[0] < MAX_DOUBLING, measured
    assert measured[1] < 8 * 2 * size, measured  # measured: 1.3 to 6 a character
