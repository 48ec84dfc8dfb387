"""Whole-document helpers for :mod:`.limits`: unit spans without a scanner, report offsets.

Splitting a whole document with a limited chunker replays the streaming
decisions over the inner chunker's cuts.  Two facts make that fast and exact:

* :func:`unit_spans`: for the word, line and ``\\n``-only paragraph chunkers,
  their chunk spans come from one ``split`` of the text, with no Python step per
  chunk (the same spans their scanners give: property-tested in
  ``tests/test_limits.py``);
* :func:`reporter`: for scanners whose look-ahead is known, the offset at which
  a stream reports each cut, which is what the streaming decisions depend on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate

from .base import ChunkingStrategy, Scanner, SplitFlush
from .line import LineChunker
from .paragraph import ParagraphChunker
from .scanning import RegexScanner
from .word import WordChunker

__all__ = ["reporter", "unit_spans"]

Span = tuple[int, int]


_WHITESPACE_RUNS = re.compile(r"(\s+)")
_BLANK_LINE_RUNS = re.compile(r"(\n\n+)")


def unit_spans(
    strategy: ChunkingStrategy | SplitFlush, text: str
) -> tuple[list[int], list[int], Span | None] | None:
    """Chunk starts and ends and the fragment of ``strategy`` over ``text``, computed
    with one ``split`` for the word, line and (``\\n``-only) paragraph chunkers,
    whose rules are simple enough; ``None`` for every other chunker.

    The same spans their scanners give (property-tested), without a Python step
    per chunk: what makes whole-document splitting at those levels fast.
    """
    kind = type(strategy)
    if kind is LineChunker and isinstance(strategy, LineChunker):
        return _line_spans(text, strategy.crlf)
    if kind is WordChunker:
        start, runs = 0, _WHITESPACE_RUNS
    elif kind is ParagraphChunker and not getattr(strategy, "crlf", True):
        # Two or more line breaks at the very start open no paragraph; one is content.
        lead = len(text) - len(text.lstrip("\n"))
        start, runs = (lead if lead >= 2 else 0), _BLANK_LINE_RUNS
        if lead == len(text):
            return [], [], ((0, lead) if lead == 1 else None)
    else:
        return None
    parts = runs.split(text[start:] if start else text)
    bounds = list(accumulate(map(len, parts), initial=start))
    # parts alternate chunk, separator, chunk, ...: chunk i spans bounds[2i]..bounds[2i+1].
    starts = bounds[0:-1:2]
    ends = bounds[1::2]
    if starts and starts[0] == ends[0]:  # leading whitespace (words only)
        del starts[0], ends[0]
    fragment: Span | None = None
    if len(bounds) % 2 == 0:  # ends with a chunk, not a separator
        last = (bounds[-2], bounds[-1])
        del starts[-1:], ends[-1:]
        if last[1] > last[0]:
            fragment = last
    return starts, ends, fragment


def _line_spans(text: str, crlf: bool) -> tuple[list[int], list[int], Span | None]:
    lines = text.split("\n")
    bounds = list(accumulate((len(line) + 1 for line in lines), initial=0))
    last = lines.pop()
    pairs = zip(bounds, lines, strict=False)
    kept = [(a, line) for a, line in pairs if line and not line.isspace()]
    starts = [a for a, _ in kept]
    if crlf:
        ends = [a + len(line) - (line[-1] == "\r") for a, line in kept]
    else:
        ends = [a + len(line) for a, line in kept]
    fragment = (bounds[-2], len(text)) if last and not last.isspace() else None
    return starts, ends, fragment


def reporter(scanner: Scanner) -> tuple[Callable[[str, int], int], int] | None:
    """For scanners whose look-ahead is known: ``(reported, lag)``, where
    ``reported(text, end)`` is the offset at which a stream reports the cut that
    ends at ``end``, at most ``end + lag``; ``None`` for any other scanner.

    A :class:`RegexScanner` (its own ``feed``, a boundary with no lookaround)
    reports a cut as soon as the boundary match is complete; the line scanner at
    the ``\\n`` that ends the line.
    """
    kind = type(scanner)
    if kind.feed is RegexScanner.feed and isinstance(scanner, RegexScanner):
        boundary = scanner.boundary
        if "(?" in boundary.pattern:
            return None
        ahead = scanner.boundary_lookahead
        if ahead >= 0:
            return (lambda text, end: end + ahead), ahead

        def match_end(text: str, end: int) -> int:
            m = boundary.match(text, end)
            assert m is not None  # the boundary that ended the chunk
            return m.end()

        return match_end, scanner.boundary_span
    if kind.__name__ == "_LineScanner" and kind.__module__.endswith(".line"):
        return (lambda text, end: end + 1 if text.startswith("\n", end) else end + 2), 2
    return None
