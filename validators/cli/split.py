"""``chunkwise split``: chunk a whole document, streaming it through the driver.

The document is read in blocks and fed to a
:class:`~guardrails_ai.chunkwise.chunkers.ChunkStream`, so the chunks are
exactly ``split_text(document)`` (delta invariance) and are written as soon as
they are complete; with ``--overlap`` (whole documents only) the document is
read first and cut with ``split_spans``.  Offsets are character (code point) offsets into the
decoded input, so ``input[start:end] == text`` in Python.
This module never imports Guardrails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import BinaryIO

from ..chunkers import ChunkerSpec, ChunkStream, Grouped, limit, split_spans
from .errors import CommandError
from .inputs import display_name, input_size, iter_text, opened

__all__ = ["FORMATS", "PROGRESS_MIN_BYTES", "split_document"]

FORMATS = ("text", "jsonl")
#: Files smaller than this get no progress bar.
PROGRESS_MIN_BYTES = 1 << 20


def split_document(
    path: str, chunker: ChunkerSpec, fmt: str, out: BinaryIO, *, progress: bool
) -> int:
    """Write the chunks of the document at ``path``; return how many.

    ``fmt="jsonl"`` writes one ``{"index", "start", "end", "text"}`` object a
    line; ``fmt="text"`` writes each chunk followed by a newline (chunks that
    hold line breaks keep them: use JSONL to tell such chunks apart).  A progress
    bar goes to stderr when ``progress`` is true and the input is a regular
    file of at least :data:`PROGRESS_MIN_BYTES`.
    """
    with opened(path) as fd:
        size = input_size(fd)
        blocks = iter_text(fd, path, block=1 << 18)
        if progress and size is not None and size >= PROGRESS_MIN_BYTES:
            blocks = _with_progress(blocks, size, display_name(path))
        if isinstance(chunker, Grouped) and chunker.overlap:
            # Overlapping chunks exist for whole documents only.
            text = "".join(block for block, _ in blocks)
            spans = split_spans(chunker, text)
            for index, (start, end) in enumerate(spans):
                _write(out, fmt, index, text[start:end], start)
            out.flush()
            return len(spans)
        stream = ChunkStream(chunker)
        count = 0
        for block, _ in blocks:
            for piece in stream.feed(block):
                count = _write(out, fmt, count, piece.chunk, piece.chunk_start)
        for piece in stream.close():
            count = _write(out, fmt, count, piece.chunk, piece.chunk_start)
    out.flush()
    return count


def _write(out: BinaryIO, fmt: str, index: int, chunk: str | None, start: int) -> int:
    if chunk is None:
        return index
    if fmt == "jsonl":
        row = {"index": index, "start": start, "end": start + len(chunk), "text": chunk}
        line = json.dumps(row, ensure_ascii=False) + "\n"
    else:
        line = chunk + "\n"
    out.write(line.encode("utf-8", "surrogatepass"))
    return index + 1


def _with_progress(
    blocks: Iterator[tuple[str, int]], size: int, name: str
) -> Iterator[tuple[str, int]]:
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    columns = (TextColumn("{task.description}"), BarColumn(), DownloadColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"splitting {name}", total=size)
        for text, done in blocks:
            bar.update(task, completed=done)
            yield text, done


def limited(
    strategy: ChunkerSpec,
    max_chars: int | None,
    chunk_size: int | None,
    overlap: int | None,
) -> ChunkerSpec:
    """``strategy`` with the ``--max-chars``/``--chunk-size``/``--overlap`` limits."""
    try:
        return limit(strategy, max_chars=max_chars, chunk_size=chunk_size, overlap=overlap)
    except (TypeError, ValueError) as exc:
        message = str(exc)
        for name in ("max_chars", "chunk_size", "overlap"):
            message = message.replace(name, "--" + name.replace("_", "-"))
        raise CommandError(message) from None
