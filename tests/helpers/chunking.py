"""Driving chunkers in tests and checking their streaming contract.

:func:`stream` feeds deltas through ``ChunkStream`` checking prefix stability;
:func:`check_stream` checks every streaming property at once; :func:`sliced` draws
a text and a random slicing of it; :func:`feed_work` and :func:`linear` measure
work (characters examined, see :mod:`helpers.cost`) for the linear-work tests;
:func:`bad` is ``pytest.raises`` with required message parts.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy, ChunkStream, Piece, SplitFlush

from .cost import Work


class SplitFlushOnly:
    """A foreign object over a built-in: ``split``/``flush`` and nothing else
    (no offset-level core), so every path treats it as mellea's strategies."""

    def __init__(self, inner: ChunkingStrategy) -> None:
        self._inner = inner

    def split(self, accumulated_text: str) -> list[str]:
        return self._inner.split(accumulated_text)

    def flush(self, accumulated_text: str) -> list[str]:
        return self._inner.flush(accumulated_text)

    def __repr__(self) -> str:
        return f"SplitFlushOnly({self._inner!r})"


def stream(
    chunker: ChunkingStrategy | SplitFlush, deltas: list[str], bound: int | None = None
) -> list[Piece]:
    """All pieces of one stream, checking after every delta that the chunks
    released so far are ``split`` of the text so far (a stream never takes a
    chunk back, and never holds one ``split`` would release) and, given a
    ``bound``, that the pending text is never longer."""
    cs = ChunkStream(chunker)
    pieces: list[Piece] = []
    text = ""
    for delta in deltas:
        pieces += cs.feed(delta)
        text += delta
        if bound is not None:
            assert len(cs.pending) <= bound, (text, cs.pending)
        assert [p.chunk for p in pieces] == chunker.split(text)
    pieces += cs.close()
    return pieces


def last_delta_completes(chunker: ChunkingStrategy | SplitFlush | str, deltas: list[str]) -> bool:
    """Whether the last delta completes a chunk when the deltas are streamed."""
    stream = ChunkStream(chunker)
    for delta in deltas[:-1]:
        stream.feed(delta)
    return bool(stream.feed(deltas[-1]))


# -- checks shared by the chunker suites ---------------------------------------


def check_stream(chunker: ChunkingStrategy, text: str, deltas: list[str]) -> list[str]:
    """Every streaming property at once; returns the chunks."""
    pieces = stream(chunker, deltas)
    chunks = [p.chunk for p in pieces if p.chunk is not None]
    # Delta invariance, and the whole-document call agrees with the driver.
    assert chunks == chunker.split(text) + chunker.flush(text) == chunker.split_text(text)
    # Lossless, and each chunk lies inside its segment where it says.
    assert "".join(p.segment for p in pieces) == text
    assert "".join(chunker.segments(text)) == text
    for p in pieces:
        assert text[p.start : p.stop] == p.segment
        if p.chunk is not None:
            assert p.chunk and text[p.chunk_start : p.chunk_end] == p.chunk
            assert p.start <= p.chunk_start < p.chunk_end <= p.stop
    # The flush contract.
    rest = chunker.flush(text)
    layout = chunker.locate(text)
    assert len(rest) <= 1
    if rest:
        assert layout.fragment is not None
        assert text[layout.fragment[0] : layout.fragment[1]] == rest[0]
        assert layout.fragment[0] >= layout.tail
    assert chunker.split(text) == chunker.split(text)  # stateless
    return chunks


@st.composite
def sliced(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> tuple[str, list[str]]:
    text = draw(texts)
    if draw(st.integers(0, 3)) == 0:
        return text, list(text)
    cuts = draw(st.lists(st.integers(0, len(text)), max_size=min(len(text), 12)))
    bounds = [0, *sorted(cuts), len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds)]


def feed_work(chunker: ChunkingStrategy, text: str, size: int, work: Work) -> None:
    """Stream ``text`` in ``size``-character deltas, closing each delta in ``work``."""
    stream = ChunkStream(chunker)
    for i in range(0, len(text), size):
        stream.feed(text[i : i + size])
        work.end_delta()
    stream.close()
    work.end_delta()


def linear(measure: Any, n: int) -> tuple[Work, Work]:
    """Work for a text of ``n`` and of ``2n`` characters; assert it is linear."""
    one, two = measure(n), measure(2 * n)
    assert one.calls > 0, "no pattern was counted"
    assert two.total <= 2.3 * one.total + 1000, (one, two)
    assert two.total <= 40 * 2 * n, two
    return one, two


def bad(exc: type[Exception], *needles: str) -> Any:
    """``pytest.raises`` whose message must contain every needle."""
    return pytest.raises(exc, match=".*".join(re.escape(n) for n in needles))
