"""Whole-document helpers for :mod:`.limits`: unit spans without a scanner, report offsets.

Splitting a whole document with a limited chunker replays the streaming
decisions over the inner chunker's cuts.  Two facts make that fast and exact:

* :func:`unit_spans`: for the word, line and ``\\n``-only paragraph chunkers,
  their chunk spans come from one ``split`` of the text, with no Python step per
  chunk (the same spans their scanners give: property-tested in
  ``tests/chunkers/test_limits.py``);
* :func:`reporter`: for scanners whose look-ahead is known, the offset at which
  a stream reports each cut, which is what the streaming decisions depend on;
* :func:`unit_groups`: groups of such units under a ceiling straight from the
  text, one regular-expression match per group, no offset per unit at all;
* :func:`line_chunks`: the lines under a ceiling no line comes near, as strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import accumulate, compress

from .base import ChunkingStrategy, Scanner, SplitFlush
from .line import LineChunker
from .paragraph import ParagraphChunker
from .scanning import RegexScanner
from .word import WordChunker

__all__ = ["line_chunks", "reporter", "unit_groups", "unit_spans"]

Span = tuple[int, int]
#: A line that needs a fallback cut: see :func:`line_chunks`.
Fallback = tuple[int, int, int]


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


#: Per unit kind: what leads the first unit (the rest of the previous unit's
#: separator), one unit, the separator between two units, what must follow the
#: last unit of a group for it to be complete.  A line unit takes its ``\n``.
_RUNS = {
    "word": (r"\s*+", r"\S++", r"\s++", r"(?=\s)"),
    "line": (r"(?:[^\S\n]*+\n)*+", r"[^\S\n]*+\S[^\n]*+\n", r"(?:[^\S\n]*+\n)*+", ""),
    "paragraph": (r"\n*+", r"[^\n]++(?:\n[^\n]++)*+", r"\n\n++", r"(?=\n\n)"),
}


@lru_cache(maxsize=16)
def _group_run(kind: str, extra: int) -> re.Pattern[str]:
    # Lead, then 1 + ``extra`` units at most (group 1), the last one complete.
    lead, unit, sep, after = _RUNS[kind]
    return re.compile(rf"{lead}({unit}(?:{sep}{unit}){{0,{extra}}}){after}")


def unit_groups(
    strategy: ChunkingStrategy | SplitFlush, text: str, size: int, limit: int, start: int = 0
) -> tuple[list[Span], Span | None, int | None] | None:
    """Chunk spans and fragment of ``Grouped(strategy, size, max_chars=limit)`` over
    ``text[start:]`` for the word, line and (``\\n``-only) paragraph chunkers, as
    ``(groups, fragment, None)``; ``None`` for every other chunker.  ``start`` is
    ``0`` or the end of a group that ends where a unit ends (where the stream's
    state is that of a fresh start).  When a unit needs a fallback cut, returns
    ``(groups, None, p)``: the groups before ``p``, the offset from which the
    caller goes on by the general path.

    What the streaming decisions come to at these levels (a unit is reported as
    soon as the whitespace, line ending or blank line after it is complete):
    while a checkpoint lies inside the text, a group is the longest run of at
    most ``size`` units from the first one after ``p`` (the end of the previous
    group) whose ends, with what reports them, lie inside ``text[p : p + limit
    + 1]``: one anchored match there.  The short rest goes by the per-unit
    spans of :func:`unit_spans`.  When the first unit is not complete inside
    the window, a fallback cut is due.  O(len(text)) in the regular-expression
    engine and O(1) Python steps per group (property-tested against the
    streaming driver).
    """
    kind = type(strategy)
    line = kind is LineChunker
    if kind is WordChunker:
        name = "word"
    elif line:
        name = "line"
    elif kind is ParagraphChunker and not getattr(strategy, "crlf", True):
        if not start and text.startswith("\n") and not text.startswith("\n\n"):
            return [], None, 0  # a single leading line break is content, not a lead
        name = "paragraph"
    else:
        return None
    crlf = line and getattr(strategy, "crlf", True)
    # A window of limit + 1 characters holds fewer than limit + 1 complete units.
    match = _group_run(name, min(size, limit + 1) - 1).match
    groups: list[Span] = []
    p, n = start, len(text)
    while p + limit < n:
        m = match(text, p, p + limit + 1)
        if m is None:
            return groups, None, p
        first, p = m.span(1)
        if line:
            p -= 2 if crlf and text[p - 2] == "\r" else 1
        groups.append((first, p))
    rest = unit_spans(strategy, text[p:])
    assert rest is not None
    starts, ends, fragment = rest
    i, count = 0, len(ends)
    while i < count:
        j = i + size
        if j >= count:
            if j > count:  # fewer than size units left: held with the fragment
                last = fragment[1] if fragment else ends[-1]
                return groups, (p + starts[i], p + last), None
            j = count
        groups.append((p + starts[i], p + ends[j - 1]))
        i = j
    return groups, ((p + fragment[0], p + fragment[1]) if fragment else None), None


#: Three whitespace-only lines in a row, or one longer than 64 characters,
#: after a line break: what :func:`line_chunks` leaves to the general path.
_LONG_BLANKS = re.compile(r"\n(?:[^\S\n]*+\n){3}|\n[^\S\n]{65}")
#: Room for the line ending and blank lines (two of up to 64 characters)
#: before a line.
_BLANKS_ROOM = 2 + 2 * 65


def line_chunks(text: str, limit: int, crlf: bool) -> tuple[list[str], list[Fallback]] | None:
    """The lines of ``text`` as chunks, and where ``Bounded(LineChunker(crlf=crlf),
    limit)`` departs from them; ``None`` when the blank lines rule this path out.

    ``(chunks, [])``: every line is taken whole, ``chunks`` is ``split_text``.
    Else one ``(a, b, c)`` per line that needs a fallback cut, in order: ``a`` is
    where the line before it ends (``0``: none), ``b`` the offset just after
    it, ``c`` the number of chunks that end by ``a``.  Chunks up to the first
    ``a`` are exact, and from any fresh start (the end of a line taken whole)
    up to the next ``a``.

    A line is taken whole when it is reported before its checkpoint: its ``\\n``
    at most ``limit`` characters after the end of the line before (the end of
    the text at most ``limit`` after the last line).  Sure when there are at most
    two blank lines in a row, none over 64 characters, and no line longer than
    ``limit - 132``; the few longer lines are checked one by one.  A few passes
    over ``text`` in C, Python steps only per long line (and per line when
    ``crlf`` and the text has a ``\\r``).
    """
    widest = limit - _BLANKS_ROOM
    if widest < 1 or _LONG_BLANKS.search(text) or _LONG_BLANKS.match("\n" + text[: 4 * 66]):
        return None
    lines = text.split("\n")
    lens = list(map(len, lines))
    fallbacks: list[Fallback] = []
    if max(lens) > widest:
        starts = list(accumulate(lens, initial=0))  # line i starts at starts[i] + i
        last = len(lines) - 1
        counted = count = 0  # count: chunks among lines[:counted]
        for i in compress(range(len(lens)), map(widest.__lt__, lens)):
            previous = 0  # where the line before ends (0: none before)
            for j in range(i - 1, max(i - 4, -1), -1):  # at most two blank lines between
                if lines[j].strip():
                    previous = starts[j] + j + lens[j] - (crlf and lines[j].endswith("\r"))
                    break
            # Reported at its "\n" + 1; the last line must fit before the end.
            if starts[i] + i + lens[i] + (i < last) - previous > limit + (i < last):
                count += sum(1 for _ in filter(str.strip, lines[counted:i]))
                counted = i
                fallbacks.append((previous, starts[i] + i + lens[i] + 1, count))
    fragment = lines.pop()
    chunks = list(filter(str.strip, lines))  # lines that are not blank
    if crlf and "\r" in text:
        chunks = [c[:-1] if c[-1] == "\r" else c for c in chunks]
    if fragment.strip():
        chunks.append(fragment)
    return chunks, fallbacks
