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

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _chunking_helpers import SplitFlushOnly
from _cost_helpers import stream_work

import guardrails_ai.chunkwise.chunkers
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    FixedSizeChunker,
    ParagraphChunker,
    SentenceChunker,
    aliases,
    resolve_chunker,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from _text import boundary_free, prose

MB = 1_000_000
#: Doubling the stream may cost at most this factor more.
MAX_DOUBLING = 2.3
#: Work per character streamed, at most: a bounded number of passes, whatever
#: the length.  (The accurate sentence scanner keeps 72 characters of
#: look-behind, rebuilt with each 4-character delta: about 20 per character.)
MAX_WORK_PER_CHAR = 32


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
