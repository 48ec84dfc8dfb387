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

``validate_stream`` (``StreamRuns``) is counted in Python steps instead:
function calls entered and lines executed under ``sys.settrace`` while it
runs (finding the stream, chunking, validating, merging), per delta, at N and
2N deltas, called directly and by Guardrails' sync runner.  Called directly
from one loop, the call stack is walked once per stream.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from _text import boundary_free, deltas, prose
from helpers.chunking import SplitFlushOnly
from helpers.cost import MAX_DOUBLING, MAX_WORK_PER_CHAR, stream_work
from helpers.guardrails import Record, guard_with, run

import guardrails_ai.chunkwise.chunkers
from guardrails_ai.chunkwise.adapters import streams
from guardrails_ai.chunkwise.adapters.streams import StreamRuns
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    ChunkStream,
    FixedSizeChunker,
    ParagraphChunker,
    SentenceChunker,
    aliases,
    limit,
    resolve_chunker,
)

MB = 1_000_000


def built_in_chunkers() -> dict[str, ChunkingStrategy]:
    """Every registered chunker defined in the chunkers package, and the variants."""
    found: dict[str, ChunkingStrategy] = {}
    package = guardrails_ai.chunkwise.chunkers.__name__
    for alias in aliases():
        strategy = resolve_chunker(alias)
        if isinstance(strategy, ChunkingStrategy) and type(strategy).__module__.startswith(package):
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


# -- validate_stream: finding the stream costs the same at every delta -------------


class Steps:
    """Python work done inside ``StreamRuns.validate_stream``: function calls
    entered and lines executed (the stack walk, the chunker, the validator)."""

    __slots__ = ("active", "calls", "lines")

    def __init__(self) -> None:
        self.active = 0
        self.calls = 0
        self.lines = 0

    @property
    def total(self) -> int:
        return self.calls + self.lines

    def __repr__(self) -> str:
        return f"Steps(calls={self.calls}, lines={self.lines})"


def count_steps(drive: Any) -> Steps:
    """Run ``drive()`` under ``sys.settrace``; count what ``validate_stream`` does."""
    target = StreamRuns.validate_stream.__code__
    steps = Steps()

    def inside(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            steps.lines += 1
        elif event == "return" and frame.f_code is target:
            steps.active -= 1
        return inside

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code is target:
            steps.active += 1
        elif not steps.active:
            return None
        steps.calls += 1
        return inside

    sys.settrace(tracer)
    try:
        drive()
    finally:
        sys.settrace(None)
    return steps


#: validate_stream's work per delta at 2N deltas, at most this factor of that at N.
MAX_STEP_GROWTH = 1.15


def _non_space(texts: list[str]) -> str:
    return "".join("".join(texts).split())


def _stream_directly(validator: Any, parts: list[str]) -> None:
    for delta in parts:
        validator.validate_stream(delta, {})
    validator.validate_stream("", {}, remainder=True)


def test_validate_stream_work_per_delta_is_flat_called_directly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks = []
    walk = streams._calling_iteration
    monkeypatch.setattr(
        streams, "_calling_iteration", lambda frame: walks.append(frame) or walk(frame)
    )
    text = prose(40_000, seed=2)
    per_delta = []
    for part in (text[:20_000], text):
        parts = deltas(part, 4)
        validator = Record()
        walks.clear()
        steps = count_steps(lambda: _stream_directly(validator, parts))  # noqa: B023
        assert _non_space(validator.seen) == _non_space([part])  # every chunk, once
        # One stack walk per stream: the caller's later deltas are recognised.
        assert len(walks) == 1, len(walks)
        per_delta.append(steps.total / len(parts))
    assert per_delta[1] <= MAX_STEP_GROWTH * per_delta[0], per_delta


def test_validate_stream_work_per_delta_is_flat_under_a_guard() -> None:
    # Guardrails' sync runner calls validate_stream once per delta; the stream
    # is found by a walk of a bounded number of frames, whatever its length.
    text = prose(40_000, seed=2)
    per_delta = []
    for part in (text[:20_000], text):
        parts = deltas(part, 4)
        validator = Record(on_fail="fix")
        guard = guard_with(validator)
        steps = count_steps(lambda: run(guard, parts, guarded=False))  # noqa: B023
        assert _non_space(validator.seen) == _non_space([part])
        per_delta.append(steps.total / len(parts))
    assert per_delta[1] <= MAX_STEP_GROWTH * per_delta[0], per_delta


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


def test_measuring_work_in_a_code_block_does_not_grow_with_the_ceiling() -> None:
    """Units held inside a fenced code block (it may still fit) were measured
    with the block so far, and the block read for fences, at each unit:
    O(ceiling) per unit (145 characters measured per character streamed at
    250 units, 2,500 at 4,000).  Now the characters measured per character
    do not grow with the ceiling (20 and 17): what is left is the exact
    measures of the held-back text where the estimate crosses the limit (at
    most 12 a chunk for a code block, this length's estimate being twice
    its measure)."""
    text = "```\n" + ("a b c d\n" * 8000)[:64_000]
    per_char = []
    for ceiling in (250, 4000):
        length = CountingLength()
        stream = ChunkStream(limit("word", max_chars=ceiling, length=length))
        for delta in deltas(text, 7):
            stream.feed(delta)
        stream.close()
        per_char.append(length.measured / len(text))
    assert per_char[1] < 1.5 * per_char[0], per_char
    assert per_char[1] < 32, per_char


def test_measuring_work_on_heading_lines_does_not_grow_with_the_ceiling() -> None:
    """Where a heading line may end a chunk rather than a word be cut, each
    heading of the window was measured with the text before it: O(ceiling)
    per character on a run of headings (63 characters measured per
    character at 250, 877 at 4,000).  The last heading that fits is found
    from the end: one exact measure, mostly (0.06 and 1.0 now)."""
    text = "# h\n" * 16_000
    per_char = []
    for ceiling in (250, 4000):
        length = CountingLength()
        stream = ChunkStream(limit("structure", max_chars=ceiling, length=length, fill=True))
        for delta in deltas(text, 7):
            stream.feed(delta)
        stream.close()
        per_char.append(length.measured / len(text))
    assert max(per_char) < 4, per_char
