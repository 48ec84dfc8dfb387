"""Chunking at the matches of a user-supplied regular expression."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

from .base import ChunkingStrategy, Cut, Scanner
from .fixed import check_int

__all__ = ["RegexChunker"]

_NO_CUTS: list[Cut] = []

#: Widths above this count as unbounded (the parser reports a huge number).
_UNBOUNDED = 100_000

_parser: Any
try:  # Python >= 3.11
    _parser = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - Python 3.10
    _parser = importlib.import_module("sre_parse")


@dataclass
class _Shape:
    """What the streaming rule needs to know about a pattern.

    ``width``: longest match (``None``: unbounded).  ``ahead``/``behind``: total
    width of lookahead/lookbehind assertions (``None``: unbounded).  ``tail``:
    widest optional or alternative part, i.e. how far past a match's end the
    engine may read to try a longer match (``None``: unbounded).  ``anchors``:
    the pattern has ``$``, which also looks at the character after a ``\\n``.
    """

    width: int | None
    ahead: int | None = 0
    behind: int = 0
    tail: int | None = 0
    anchors: bool = False


def _hi(sub: Any) -> int | None:
    hi = int(sub.getwidth()[1])
    return None if hi > _UNBOUNDED else hi


def _widest(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)


def _walk(items: Any, shape: _Shape) -> None:
    for op, av in items:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, body = av
            if low != high:
                shape.tail = _widest(shape.tail, _hi(body))
            _walk(body, shape)
        elif name in ("BRANCH", "GROUPREF_EXISTS"):
            alts = av[1] if name == "BRANCH" else [a for a in av[1:] if a is not None]
            _alternatives(alts, shape)
            for alt in alts:
                _walk(alt, shape)
        elif name in ("ASSERT", "ASSERT_NOT"):
            direction, body = av
            width = _hi(body)
            if direction < 0:
                shape.behind += width or 0  # lookbehind is fixed-width in ``re``
            else:
                shape.ahead = (
                    None if width is None or shape.ahead is None else (shape.ahead + width)
                )
            _walk(body, shape)
        elif name == "SUBPATTERN":
            _walk(av[-1], shape)
        elif name == "ATOMIC_GROUP":
            _walk(av, shape)
        elif name == "AT" and str(av) == "AT_END":
            shape.anchors = True  # "$" also looks for a "\n" before the end


def _alternatives(alts: Any, shape: _Shape) -> None:
    """An alternative tried and dropped may have read past the one chosen."""
    highs = [_hi(alt) for alt in alts]
    if any(h is None for h in highs):
        shape.tail = None
    elif len(alts) > 1 or not alts:
        low = min((int(alt.getwidth()[0]) for alt in alts), default=0)
        shape.tail = _widest(shape.tail, max((h or 0 for h in highs), default=0) - low)
    else:
        # A conditional group with no "no" branch: the group is optional.
        shape.tail = _widest(shape.tail, highs[0])


def _shape(pattern: re.Pattern[str]) -> _Shape:
    tree = _parser.parse(pattern.pattern, pattern.flags)
    low = int(tree.getwidth()[0])
    if low == 0 or pattern.search("") is not None:
        raise ValueError(
            f"pattern={pattern.pattern!r} can match the empty string; a separator "
            "must consume at least one character"
        )
    shape = _Shape(_hi(tree))
    _walk(tree, shape)
    if pattern.flags & re.MULTILINE:
        shape.anchors = False  # "$" is then end-of-line: one character decides it
    return shape


class _RegexScanner(Scanner):
    """Incremental search for separators (see :class:`RegexChunker`).

    ``confirm``: characters that must follow a match before it is accepted.
    ``reach``: how far an attempt starting at ``p`` may read past ``p``
    (``None``: unbounded, so the pending chunk is searched again on every
    feed).  ``behind``: characters kept before the search start for
    lookbehind, ``\\b`` and ``^``.
    """

    __slots__ = (
        "_base",
        "_behind",
        "_buf",
        "_confirm",
        "_pat",
        "_pos",
        "_reach",
        "_start",
        "_total",
    )

    def __init__(
        self, pattern: re.Pattern[str], confirm: int, reach: int | None, behind: int
    ) -> None:
        self._pat = pattern
        self._confirm = confirm
        self._reach = reach
        self._behind = behind
        self._buf = ""  # text from offset self._base on
        self._base = 0
        self._total = 0
        self._start = 0  # start of the current chunk (end of the last separator)
        self._pos = 0  # where the next search starts

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        self._total += len(delta)
        buf = self._buf + delta
        base, total, pos, start = self._base, self._total, self._pos, self._start
        search = self._pat.search
        confirm = self._confirm
        cuts: list[Cut] | None = None
        while True:
            m = search(buf, pos - base)
            if m is None or base + m.end() + confirm > total:
                break
            if base + m.start() > start:
                if cuts is None:
                    cuts = []
                cuts.append(Cut(start, base + m.start(), base + m.end()))
            start = pos = base + m.end()
        if self._reach is not None:
            # An attempt that began reach characters before the end has read
            # only settled text: it need not be made again.
            settled = total - self._reach
            if m is not None and base + m.start() < settled:
                # A pending match: search from it again, unless it is longer
                # than the promised bound (then the promise is broken anyway).
                settled = max(base + m.start(), settled - self._reach)
            pos = max(pos, settled)
        self._start, self._pos = start, pos
        keep = max(0, pos - self._behind - base)
        self._buf = buf[keep:] if keep else buf
        self._base = base + keep
        return cuts or _NO_CUTS

    def finish(self) -> tuple[int, int] | None:
        # The text is complete: every match left is real.  Those that were not
        # confirmed yet fall inside the one fragment flush may return.
        base, total = self._base, self._total
        first = last = -1
        begin = self._start
        for m in self._pat.finditer(self._buf, self._pos - base):
            if base + m.start() > begin:
                if first < 0:
                    first = begin
                last = base + m.start()
            begin = base + m.end()
        if begin < total:
            if first < 0:
                first = begin
            last = total
        return (first, last) if first >= 0 else None


class RegexChunker(ChunkingStrategy):
    r"""Chunks separated by the matches of a regular expression.

    ``pattern`` (a ``str`` or a compiled ``str`` pattern) matches the separator:
    a chunk is the text between two matches, verbatim (nothing stripped; put
    ``\s*`` in the pattern to drop surrounding whitespace), and the separator
    travels with the chunk before it.  The text between two adjacent matches
    is empty and is not a chunk.  To keep a terminator in the chunk, match
    after it with a lookbehind: ``(?<=[.!?])\s+``.  Matches are found as by
    ``re.finditer`` over the whole text.  A pattern that can match the empty
    string is rejected (``ValueError``), as is anything that is not a ``str``
    pattern (``TypeError``).

    Streaming rule.  A match is accepted only once ``k`` characters after it
    have been seen, where ``k`` covers what more text could still change:
    ``1`` for a plain pattern, more for repeated or optional parts wider than
    one character (``\n(?:\r?\n)+`` needs 2), lookaheads and anchors.  ``k``
    is derived from the pattern, so the chunks never depend on how the text
    was sliced into deltas.  A pattern whose alternatives or optional parts
    are unbounded (``ab*c|a``) has no such ``k`` and needs ``max_match``.
    ``split`` withholds the text after the last accepted separator; ``flush``
    returns it without trailing separators, or ``[]`` when it holds no
    chunk.  If the text ends before separators near its end were confirmed
    (only with ``k >= 2``), the final fragment spans them.

    Cost.  When the longest match is bounded (derived from the pattern, or
    promised with ``max_match=N``: no match, with the text its lookaheads
    examine, spans more than ``N`` characters), a failed search resumes a
    bounded distance before the end of the text, so ``feed`` is amortised
    O(len(delta)).  For unbounded patterns (``\n+``, ``;\s*``) without
    ``max_match``, correctness comes first: the pending chunk is searched again
    on every ``feed``, O(len(pending chunk)) per delta.  A broken
    ``max_match`` promise can make the chunks depend on the deltas.
    """

    def __init__(self, pattern: str | re.Pattern[str], *, max_match: int | None = None) -> None:
        if isinstance(pattern, str):
            try:
                compiled = re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"pattern={pattern!r} is not a valid regex: {exc}") from None
        elif isinstance(pattern, re.Pattern) and isinstance(pattern.pattern, str):
            compiled = pattern
        else:
            raise TypeError(
                "pattern must be a str or a compiled str regex, got "
                f"{type(pattern).__name__}: {pattern!r:.80}"
            )
        shape = _shape(compiled)
        if max_match is not None:
            check_int("max_match", max_match, 1)
            if shape.width is not None and max_match < shape.width:
                raise ValueError(
                    f"max_match={max_match} is shorter than the longest match of "
                    f"pattern={compiled.pattern!r} ({shape.width} characters)"
                )
            shape.width = max_match
            shape.ahead = 0
            shape.tail = max_match if shape.tail is None else min(shape.tail, max_match)
        if shape.ahead is None or shape.tail is None:
            raise ValueError(
                f"pattern={compiled.pattern!r} has an unbounded lookahead, optional part "
                "or alternative, so no amount of following text settles a match; pass "
                "max_match=N (the longest a match can be)"
            )
        anchor = 1 if shape.anchors else 0
        self.pattern = compiled
        self.max_match = max_match
        self._confirm = max(shape.tail + shape.ahead, 1) + anchor
        self._reach = None if shape.width is None else shape.width + shape.ahead + anchor + 1
        self._behind = shape.behind + 1

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {"pattern": self.pattern}
        if self.max_match is not None:
            params["max_match"] = self.max_match
        return params

    def scanner(self) -> Scanner:
        return _RegexScanner(self.pattern, self._confirm, self._reach, self._behind)
