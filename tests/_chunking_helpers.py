"""Helpers shared by the chunker test modules."""

from __future__ import annotations

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy, ChunkStream, Piece, SplitFlush


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
