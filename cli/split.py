"""``chunkwise split``: chunk a whole document, streaming it through the driver.

The document is read in blocks and fed to a
:class:`~guardrails_ai.chunkwise.chunkers.ChunkStream`, so the chunks are
exactly ``split_text(document)`` (delta invariance) and are written as soon as
they are complete; with ``--overlap`` (whole documents only) the document is
read first and cut with ``split_spans``.  A size (``--max-chars``,
``--max-tokens``) fills chunks up to it, as LangChain's ``chunk_size`` does
(``limit(..., fill=True)``); ``--no-fill`` only caps the chunker's own chunks.
Offsets are character (code point) offsets into the decoded input, so
``input[start:end] == text`` in Python; a byte order mark opening the input is
in no chunk (it still counts in the offsets).
This module never imports Guardrails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from guardrails_ai.chunkwise.chunkers import (
    ChunkerSpec,
    ChunkStream,
    Grouped,
    Sized,
    limit,
    split_spans,
)

from .errors import CommandError, flush_out, write_out
from .inputs import display_name, input_size, iter_text, opened

__all__ = ["FORMATS", "PROGRESS_MIN_BYTES", "Sizes", "limited", "split_document"]

FORMATS = ("text", "jsonl")
#: Files smaller than this get no progress bar.
PROGRESS_MIN_BYTES = 1 << 20
#: Line separators JSON leaves raw in a string (it escapes those below U+0020),
#: written as escapes so that a JSONL row is one line for every line splitter
#: (Python's ``str.splitlines()`` breaks at these three too).
_RAW_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def split_document(
    path: str, chunker: ChunkerSpec, fmt: str, out: BinaryIO, *, progress: bool
) -> int:
    """Write the chunks of the document at ``path``; return how many.

    ``fmt="jsonl"`` writes one ``{"index", "start", "end", "text"}`` object a
    line; ``fmt="text"`` writes each chunk followed by a newline; a chunk of
    whitespace only is not written (chunks that
    hold line breaks keep them: use JSONL to tell such chunks apart).  A progress
    bar goes to stderr when ``progress`` is true and the input is a regular
    file of at least :data:`PROGRESS_MIN_BYTES`.  A failed write to ``out`` is
    :class:`~.errors.OutputError`.
    """
    with opened(path) as fd:
        size = input_size(fd)
        blocks = iter_text(fd, path, block=1 << 18)
        if progress and size is not None and size >= PROGRESS_MIN_BYTES:
            blocks = _with_progress(blocks, size, display_name(path))
        signature = _Signature()
        texts = signature.strip(block for block, _ in blocks)
        if isinstance(chunker, (Grouped, Sized)) and chunker.overlap:
            # Overlapping chunks exist for whole documents only.
            text = "".join(texts)
            count = 0
            for start, end in split_spans(chunker, text):
                count = _write(out, fmt, count, text[start:end], signature.shift + start)
            flush_out(out)
            return count
        stream = ChunkStream(chunker)
        count = 0
        for block in texts:
            for piece in stream.feed(block):
                count = _write(out, fmt, count, piece.chunk, signature.shift + piece.chunk_start)
        for piece in stream.close():
            count = _write(out, fmt, count, piece.chunk, signature.shift + piece.chunk_start)
    flush_out(out)
    return count


class _Signature:
    """A byte order mark opening the input (a UTF-8 signature, as Windows tools
    write one) is no text: :meth:`strip` leaves it out of what is chunked, and
    ``shift`` (1 once it was found) keeps the offsets those of the decoded input."""

    shift = 0

    def strip(self, texts: Iterator[str]) -> Iterator[str]:
        for text in texts:
            if text:
                if text[0] == "\ufeff":
                    self.shift, text = 1, text[1:]
                yield text
                break
        yield from texts


def _write(out: BinaryIO, fmt: str, index: int, chunk: str | None, start: int) -> int:
    if chunk is None or chunk.isspace():
        # (A size limit makes whitespace it cannot attach to a word a chunk of
        # its own, for streaming; a document's chunks are content.)
        return index
    if fmt == "jsonl":
        row = {"index": index, "start": start, "end": start + len(chunk), "text": chunk}
        line = json.dumps(row, ensure_ascii=False).translate(_RAW_LINE_BREAKS) + "\n"
    else:
        line = chunk + "\n"
    write_out(out, line.encode("utf-8", "surrogatepass"))
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


@dataclass(frozen=True)
class Sizes:
    """The size options of ``chunkwise split`` (``None``: not given)."""

    max_chars: int | None = None
    max_tokens: int | None = None
    tokenizer: str | None = None
    fill: bool | None = None
    chunk_size: int | None = None
    overlap: int | None = None


def limited(strategy: ChunkerSpec, sizes: Sizes) -> ChunkerSpec:
    """``strategy`` with the size options: a size fills unless ``--no-fill`` or
    ``--chunk-size`` says otherwise.  Errors name the options."""
    sized = sizes.max_chars is not None or sizes.max_tokens is not None
    fill = sizes.fill
    if fill is None:
        fill = sized and sizes.chunk_size is None
    if fill and sizes.chunk_size is not None:
        raise CommandError("--chunk-size counts units: use it with --no-fill")
    if sizes.chunk_size is not None and sizes.max_tokens is not None:
        raise CommandError(
            "--chunk-size counts units under --max-chars only; with --max-tokens, chunks are "
            "filled up to the size (leave out --chunk-size)"
        )
    try:
        tokenizer = _tokenizer(sizes.tokenizer) if sizes.tokenizer is not None else None
        return limit(
            strategy,
            max_chars=sizes.max_chars,
            max_tokens=sizes.max_tokens,
            tokenizer=tokenizer,
            fill=fill,
            chunk_size=sizes.chunk_size,
            overlap=sizes.overlap,
        )
    except (TypeError, ValueError, ImportError) as exc:
        message = (
            str(exc)
            .replace("fill=True", "fill")
            .replace("(or pass a tokenizer object)", "(or give --tokenizer a tokenizer.json file)")
        )
        for name in ("max_chars", "max_tokens", "tokenizer", "chunk_size", "overlap", "fill"):
            # The library's parameter names, as words only (not inside another name).
            message = re.sub(rf"(?<![\w-]){name}\b", "--" + name.replace("_", "-"), message)
        raise CommandError(message) from None


def _tokenizer(spec: str) -> object:
    """An encoding name as it is, or the tokenizer in a ``tokenizer.json`` file."""
    if not spec.endswith(".json"):
        return spec
    try:
        from tokenizers import Tokenizer
    except ImportError as error:
        raise ImportError(
            f"tokenizer={spec!r}: a tokenizer.json file needs the tokenizers package"
        ) from error
    try:
        return Tokenizer.from_file(spec)
    except Exception as error:  # the library's own error types
        raise ValueError(f"tokenizer={spec!r} could not be read: {error}") from None
