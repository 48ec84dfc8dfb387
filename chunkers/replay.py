"""Whole-document replay: the chunks a limited stream would cut, from one pass over the text.

Splitting a whole document with :class:`~.limits.Bounded` or
:class:`~.limits.Grouped` could feed the streaming scanner the text in slices
that end at checkpoints (see :mod:`.limits`).  This module gives the same
chunks faster (3-23x on whole documents) by *replaying* the streaming
decisions over the inner chunker's cuts, computed once for the whole text.

Contract: every function here returns exactly what the streaming scanner
returns for the same text, fed in any slicing (or ``None`` when it does not
apply and the caller feeds the scanner).  That is property-tested with random
texts against the streaming driver: ``tests/chunkers/test_limits.py`` (Bounded and
Grouped layouts, whole == streamed, :func:`unit_spans` == the scanners'
spans) and ``tests/chunkers/test_wholetext.py`` (:func:`unit_groups` and
:func:`line_chunks` against the general path).

Two facts make the replay fast and exact:

* :func:`unit_spans`: for the word, line and ``\\n``-only paragraph chunkers,
  their chunk spans come from one ``split`` of the text, with no Python step per
  chunk;
* :func:`reporter`: for scanners whose look-ahead is known, the offset at which
  a stream reports each cut, which is what the streaming decisions depend on.

Built on them: :func:`unit_groups` (groups of such units under a ceiling, one
regular-expression match per group), :func:`line_chunks` (the lines under a
ceiling no line comes near, as strings), and the replays :func:`bounded_replay`,
:func:`bounded_spans`, :func:`bounded_line_chunks` and :func:`grouped_replay`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from copy import copy
from functools import lru_cache
from itertools import accumulate, compress
from operator import sub

from .base import ChunkingStrategy, Scanner, SplitFlush
from .fallback import content_from, fallback_cut
from .fences import FenceReader
from .line import LineChunker
from .paragraph import ParagraphChunker
from .scanning import RegexScanner
from .stream import scanner_for
from .word import WordChunker

__all__ = [
    "BoundedReplay",
    "bounded_line_chunks",
    "bounded_replay",
    "bounded_spans",
    "grouped_replay",
    "line_chunks",
    "reporter",
    "unit_groups",
    "unit_spans",
]

Strategy = ChunkingStrategy | SplitFlush
Levels = tuple[Strategy, ...]
Span = tuple[int, int]
#: The whole-document replay of a Bounded chunker: chunk starts and ends, the
#: offset at which a stream reports each fallback cut (by index), the fragment,
#: and the inner chunker's report function and look-ahead bound.
BoundedReplay = tuple[
    list[int], list[int], dict[int, int], Span | None, Callable[[str, int], int], int
]
#: Groups and the fragment of a Grouped chunker.
GroupedReplay = tuple[list[Span], Span | None]
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


def fences_before(text: str) -> Callable[[int], FenceReader]:
    """``before(offset)``: a :class:`~.fences.FenceReader` that has read
    ``text[:offset]`` (where a slice of ``text`` starts, for the code fence
    open there, as a stream of ``text`` reads it); amortised O(len(text)) for
    increasing offsets."""
    reader, read = FenceReader(None), 0

    def before(offset: int) -> FenceReader:
        nonlocal reader, read
        if offset < read:
            reader, read = FenceReader(None), 0
        reader.feed(text[read:offset])
        read = offset
        return copy(reader)

    return before


def bounded_replay(
    inner: Strategy, limit: int, levels: Levels, text: str, fences: FenceReader | None = None
) -> BoundedReplay | None:
    """What the stream of ``Bounded(inner, limit, fallback=levels)`` cuts in
    ``text``, or ``None`` when the inner scanner's report offsets are unknown.

    When it is known at which offset the inner scanner reports each cut
    (word, simple sentence, paragraph and line chunkers), the inner chunker
    runs once over the whole text and the checkpoints are replayed over its
    cuts, instead of feeding it slice by slice.  ``fences``: a reader that
    has read the text before ``text``, when ``text`` is a slice of a longer
    one (it reads on).
    """
    inner_scanner = scanner_for(inner)
    known = reporter(inner_scanner)
    if known is None:
        return None
    reported, lag = known
    known_units = unit_spans(inner, text)
    if known_units is None:
        units = inner_scanner.feed(text)
        fragment = inner_scanner.finish()
        unit_starts = [u.start for u in units]
        unit_ends = [u.end for u in units]
    else:
        unit_starts, unit_ends, fragment = known_units
    n = len(text)
    # Units that may not be taken whole at once: every other unit is, as long
    # as the one before it was (reported before the checkpoint, and fitting).
    room = limit + 1 - max(lag, 1)
    gaps = map(sub, unit_ends, [0, *unit_ends])
    careful = list(compress(range(len(unit_ends)), map(room.__lt__, gaps)))
    careful.append(len(unit_ends))
    starts: list[int] = []
    ends: list[int] = []
    forced: dict[int, int] = {}  # index of a fallback cut -> offset it is reported at
    p = k = 0
    reader, read = fences or FenceReader(None), 0

    def force() -> None:
        nonlocal p, read
        c = p + limit + 1
        reader.feed(text[read:p])
        read = p
        window = text[p:c]
        a, b = fallback_cut(levels, limit, window, after_chunk=p > 0, fence=reader.open_fence())
        forced[len(ends)] = c
        starts.append(p + a)
        p += b
        ends.append(p)

    count, ci = len(unit_ends), 0  # careful[ci]: the next careful unit from k on
    while k < count:
        if p == (unit_ends[k - 1] if k else 0):
            while careful[ci] < k:
                ci += 1
            if careful[ci] > k:  # taken whole up to the next careful unit
                starts += unit_starts[k : careful[ci]]
                ends += unit_ends[k : careful[ci]]
                k = careful[ci]
                p = unit_ends[k - 1]
                continue
        # A careful unit, or any unit after a fallback cut until p is a unit end again.
        start, end = unit_starts[k], unit_ends[k]
        k += 1
        d = reported(text, end)
        while d > p + limit + 1:  # no cut reported by the checkpoint: a fallback cut
            force()
        if end <= p:
            continue
        if start < p:
            start = content_from(text, p, end)
            if start == end:
                continue
        if end - p > limit:
            force()  # reported at the checkpoint itself, one character too long
            if start < p:
                start = content_from(text, p, end)
                if start == end:
                    continue
        starts.append(start)
        ends.append(end)
        p = end
    while p + limit < n:
        force()
    if fragment is not None and fragment[1] > p:
        if fragment[0] < p:
            fragment = (content_from(text, p, fragment[1]), fragment[1])
        if fragment[0] == fragment[1]:
            fragment = None
    else:
        fragment = None
    return starts, ends, forced, fragment, reported, lag


def bounded_spans(
    inner: Strategy, limit: int, levels: Levels, text: str, fences: FenceReader | None = None
) -> list[Span] | None:
    """Chunk spans (fragment last) of :func:`bounded_replay`, or ``None`` when it does not apply."""
    fast = bounded_replay(inner, limit, levels, text, fences)
    if fast is None:
        return None
    starts, ends, _, fragment, _, _ = fast
    spans = list(zip(starts, ends, strict=True))
    if fragment:
        spans.append(fragment)
    return spans


def bounded_line_chunks(inner: LineChunker, limit: int, levels: Levels, text: str) -> list[str]:
    """``split_text`` of ``Bounded(inner, limit, fallback=levels)`` for the line chunker.

    :func:`line_chunks` where no line needs a fallback cut, the general path
    (:func:`bounded_spans`) over a slice around each line that does, from the
    end of the line before it up to the first line after it that is taken
    whole (a fresh start again).
    """

    before = fences_before(text)

    def general(start: int, part: str) -> list[Span]:
        spans = bounded_spans(inner, limit, levels, part, before(start))
        assert spans is not None  # the line scanner's report offsets are known
        return spans

    def general_chunks(start: int) -> list[str]:
        part = text[start:] if start else text
        return [part[a:b] for a, b in general(start, part)]

    fast = line_chunks(text, limit, inner.crlf)
    if fast is None:
        return general_chunks(0)
    lines, fallbacks = fast
    margin = 2 * limit + 8  # as in grouped_replay
    chunks: list[str] = []
    pos = done = 0  # a fresh start, and how many of ``lines`` end by it
    for a, b, count in fallbacks:
        if b <= pos:
            continue  # inside the slice already taken by the general path
        if a < pos:
            return chunks + general_chunks(pos)
        chunks += lines[done:count]
        q = b + 2 * margin
        if q >= len(text):
            return chunks + general_chunks(a)
        part = text[a:q]
        spans = general(a, part)
        units = unit_spans(inner, part)
        assert units is not None
        index = {span: u for u, span in enumerate(zip(units[0], units[1], strict=True))}
        k = next((k for k, span in enumerate(spans) if span[1] >= b - a and span in index), -1)
        if k < 0 or spans[k][1] > len(part) - margin:
            return chunks + general_chunks(a)
        chunks += [part[s:e] for s, e in spans[: k + 1]]
        pos, done = a + spans[k][1], count + index[spans[k]] + 1
    return chunks + lines[done:]


def grouped_replay(
    inner: Strategy, size: int, limit: int, levels: Levels, text: str
) -> GroupedReplay | None:
    """The groups the stream of ``Grouped(inner, size, max_chars=limit,
    fallback=levels)`` cuts in ``text``, and its fragment; ``None`` when the
    inner scanner's report offsets are unknown.

    By :func:`unit_groups` where it applies, the general path
    (:func:`_grouped_general`) over slices around fallback cuts.
    """
    n = len(text)
    packed = unit_groups(inner, text, size, limit)
    if packed is None:
        return _grouped_general(inner, size, limit, levels, text)
    before = fences_before(text)
    groups, fragment, stop = packed
    # Groups that end this far before the end of a slice are decided by text
    # inside it (checkpoints, what reports a unit, fallback windows).
    margin = 2 * limit + 8
    while stop is not None:
        q = stop + 4 * margin
        part = text[stop:q]
        general = _grouped_general(inner, size, limit, levels, part, before(stop))
        assert general is not None
        resume = taken = 0
        if q < n:
            spans = unit_spans(inner, part)
            assert spans is not None
            unit_ends = set(spans[1])
            for i, (_, b) in enumerate(general[0]):
                if b > len(part) - margin:
                    break
                if b in unit_ends:  # a group that ends where a unit ends: a fresh start
                    resume, taken = b, i + 1
        if not resume:
            if q < n:
                part = text[stop:]
                general = _grouped_general(inner, size, limit, levels, part, before(stop))
                assert general is not None
            groups += _shift(general[0], stop)
            tail = general[1]
            return groups, (stop + tail[0], stop + tail[1]) if tail else None
        groups += _shift(general[0][:taken], stop)
        more = unit_groups(inner, text, size, limit, stop + resume)
        assert more is not None
        groups += more[0]
        fragment, stop = more[1], more[2]
    return groups, fragment


def _grouped_general(
    inner: Strategy,
    size: int,
    limit: int,
    levels: Levels,
    text: str,
    fences: FenceReader | None = None,
) -> GroupedReplay | None:
    """:func:`grouped_replay` over :func:`bounded_replay`, for any inner chunker
    (``fences``: as there)."""
    fast = bounded_replay(inner, limit, levels, text, fences)
    if fast is None:
        return None
    starts, ends, forced, fragment, reported, lag = fast
    n = len(text)
    if not forced:
        return _group_units(text, starts, ends, fragment, size, limit, reported, lag)
    groups: list[Span] = []
    p = count = first = last = 0
    pending_forced = sorted(forced, reverse=True)  # popped in increasing order
    i, m = 0, len(ends)
    while i < m:
        while pending_forced and pending_forced[-1] < i:
            pending_forced.pop()
        if count:
            # Units surely taken as they come: reported before the checkpoint,
            # fitting, not a fallback cut, and the group not yet full.
            c = p + limit + 1
            sure = p + (min(limit, limit + 1 - lag) if c <= n else limit)
            stop = min(i + size - count, pending_forced[-1] if pending_forced else m)
            j = bisect_right(ends, sure, i, max(i, stop))
            if j > i:
                count += j - i
                last = ends[j - 1]
                i = j
                if count == size:
                    groups.append((first, last))
                    p, count = last, 0
                continue
        a, b = starts[i], ends[i]
        c = p + limit + 1
        if count and c <= n and (i in forced or b + lag > c):
            at = forced.get(i)
            if (reported(text, b) if at is None else at) > c:
                groups.append((first, last))  # the checkpoint closes the group
                p, count = last, 0
        if count and b - p > limit:
            groups.append((first, last))
            p, count = last, 0
        if not count:
            first = a
        count += 1
        last = b
        i += 1
        if count == size:
            groups.append((first, last))
            p, count = last, 0
    if count and p + limit < n:
        groups.append((first, last))
        p, count = last, 0
    if count:
        fragment = (first, fragment[1] if fragment else last)
    return groups, fragment


def _shift(spans: list[Span], offset: int) -> list[Span]:
    return [(a + offset, b + offset) for a, b in spans]


def _group_units(
    text: str,
    starts: list[int],
    ends: list[int],
    fragment: Span | None,
    size: int,
    limit: int,
    reported: Callable[[str, int], int],
    lag: int,
) -> GroupedReplay:
    """:func:`_grouped_general` when every unit is an inner chunker's unit (no
    fallback cut): a group takes its first unit, then every unit surely reported
    before the checkpoint and fitting (found by bisection), then checks the
    next few exactly."""
    groups: list[Span] = []
    sure_room = min(limit, limit + 1 - lag)
    p = i = 0
    m, n = len(ends), len(text)
    while i < m:
        c = p + limit + 1
        checked = c <= n  # a checkpoint falls inside the text
        hi = min(i + size, m)
        j = i + 1
        if j < hi:
            j = bisect_right(ends, p + (sure_room if checked else limit), j, hi)
        while j < hi:
            b = ends[j]
            if b - p > limit or (checked and reported(text, b) > c):
                break
            j += 1
        last = ends[j - 1]
        if j == m and j - i < size and not checked:
            return groups, (starts[i], fragment[1] if fragment else last)  # held to the end
        groups.append((starts[i], last))
        p, i = last, j
    return groups, fragment
