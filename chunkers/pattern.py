"""Chunking at the matches of a user-supplied regular expression."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ._regex_cost import atom_regex, check_cost, parse
from .base import ChunkingStrategy, Cut, Scanner
from .params import check_int

__all__ = ["RegexChunker"]

_NO_CUTS: list[Cut] = []

#: Widths above this count as unbounded (the parser reports a huge number).
_UNBOUNDED = 100_000

#: A pattern whose characters include all of these has no stopper worth the name.
_PROBES = "\n \t\r.,;:!?-#*_=`~()[]aZ0\x00\u00e9\u4e00\U0001f600"


@dataclass
class _Shape:
    """What the streaming rule needs to know about a pattern.

    ``width``: longest match; ``ahead``: total width of lookaheads (``None``:
    unbounded); ``behind``: total width of lookbehinds; ``anchor``: ``$`` is
    used, which also looks one character past a final ``\\n``; ``atoms``: a
    regex for every single character the pattern can consume; ``flags``: the
    flags those need (a superset of the pattern's scoped flags).
    """

    width: int | None
    ahead: int | None = 0
    behind: int = 0
    anchor: bool = False
    looks_back: bool = False
    atoms: set[str] = field(default_factory=set)
    flags: int = 0


def _hi(sub: Any) -> int | None:
    hi = int(sub.getwidth()[1])
    return None if hi > _UNBOUNDED else hi


def _walk(items: Any, shape: _Shape) -> None:
    for op, av in items:
        name = str(op)
        atom = atom_regex(op, av)
        if atom is not None:
            shape.atoms.add(atom)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            _walk(av[2], shape)
        elif name == "BRANCH":
            for alt in av[1]:
                _walk(alt, shape)
        elif name == "GROUPREF_EXISTS":
            for alt in av[1:]:
                if alt is not None:
                    _walk(alt, shape)
        elif name in ("ASSERT", "ASSERT_NOT"):
            direction, body = av
            width = _hi(body)
            if direction < 0:
                # Fixed-width in ``re``; it reads only text before the point
                # reached, so its characters stop nothing.
                shape.behind += width or 0
                shape.looks_back = True
                continue
            if width is None or shape.ahead is None:
                shape.ahead = None
            else:
                shape.ahead += width
            _walk(body, shape)
        elif name == "SUBPATTERN":
            shape.flags |= av[1]
            _walk(av[-1], shape)
        elif name == "ATOMIC_GROUP":
            _walk(av, shape)
        elif name == "AT":
            shape.anchor = shape.anchor or str(av) == "AT_END"
            shape.looks_back = shape.looks_back or "BEGINNING" in str(av) or "BOUNDARY" in str(av)


def _shape(pattern: re.Pattern[str]) -> _Shape:
    tree = parse(pattern)
    if int(tree.getwidth()[0]) == 0 or pattern.search("") is not None:
        raise ValueError(
            f"pattern={pattern.pattern!r} can match the empty string; a separator "
            "must consume at least one character"
        )
    shape = _Shape(_hi(tree))
    shape.flags = pattern.flags
    _walk(tree, shape)
    # Only flags that widen what a character class matches (Unicode classes are
    # supersets of ASCII ones, so re.ASCII is dropped).
    shape.flags &= re.IGNORECASE | re.DOTALL
    if pattern.flags & re.MULTILINE:
        shape.anchor = False  # "$" is then end-of-line: the character there decides it
    return shape


class _RegexScanner(Scanner):
    """Incremental search for separators (see :class:`RegexChunker`).

    ``reach``: an attempt starting at ``p`` reads nothing at or after
    ``p + reach`` (``None``: no such bound).  ``stopper``: finds a character no
    part of the pattern can consume; no attempt reads past one.  ``last``:
    finds the last stopper.  ``anchor``: ``$`` may read one character further.
    ``behind``: characters kept before the search start for lookbehind,
    ``\\b`` and ``^``.  ``guarded``: the pattern behind its run guard (see
    :mod:`._regex_cost`), or ``None``.
    """

    __slots__ = (
        "_anchor",
        "_base",
        "_behind",
        "_buf",
        "_guarded",
        "_last",
        "_looks_back",
        "_parts",
        "_pat",
        "_pos",
        "_reach",
        "_run_char",
        "_start",
        "_stopper",
        "_total",
    )

    def __init__(self, chunker: RegexChunker) -> None:
        self._pat = chunker.pattern
        self._guarded = chunker._guarded
        self._run_char = chunker._run_char
        self._reach = chunker._reach
        self._stopper = chunker._stopper
        self._last = chunker._last_stopper
        self._anchor = chunker._anchor
        self._behind = chunker._behind
        self._looks_back = chunker._looks_back
        self._buf = ""  # text from offset self._base on, then self._parts
        self._parts: list[str] = []  # deltas not joined to self._buf yet
        self._base = 0
        self._total = 0
        self._start = 0  # start of the current chunk (end of the last separator)
        self._pos = 0  # where the next search starts: attempts before it are settled

    def _search(self, buf: str, i: int) -> re.Match[str] | None:
        """``pattern.search(buf, i)``, skipping the attempts the run guard
        proves to fail (linear where the plain search is quadratic)."""
        if self._guarded is None:
            return self._pat.search(buf, i)
        return self._pat.match(buf, i) or self._guarded.search(buf, i + 1)

    def _matches(self, buf: str, i: int) -> Iterator[re.Match[str]]:
        """``pattern.finditer(buf, i)``, with the run guard: one guarded
        ``finditer`` until a match ends inside a run (the attempt right after
        it was never made by a guarded search, so it is made on its own)."""
        guarded, run_char = self._guarded, self._run_char
        if guarded is None or run_char is None:
            yield from self._pat.finditer(buf, i)
            return
        run = run_char.match
        while True:
            if i > 0 and run(buf, i - 1, i):
                m = self._pat.match(buf, i)
                if m is not None:
                    yield m
                    i = m.end()
                    continue
                i += 1
            for m in guarded.finditer(buf, i):
                yield m
                i = m.end()
                if run(buf, i - 1, i):
                    break
            else:
                return

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        old = self._total
        total = self._total = old + len(delta)
        base, pos, start = self._base, self._pos, self._start
        reach = self._reach
        limit = total - self._anchor  # a stopper settles things only before this
        stopper = self._stopper.search
        if reach is None:
            # Invariant: no stopper lies in [pos, the previous limit).  Without
            # a reach, only a stopper accepts a match or settles an attempt, so
            # a delta that brings none changes nothing: skip the search, and
            # keep the delta aside unjoined (else a long run of separator
            # characters is copied and searched again per delta).
            anchor = self._anchor
            hit = False
            if anchor and old > pos:  # the previous last character now counts
                prev = self._parts[-1] if self._parts else self._buf
                hit = stopper(prev, len(prev) - 1) is not None
            if not hit and stopper(delta, 0, len(delta) - anchor) is None:
                self._parts.append(delta)
                return _NO_CUTS
        buf = self._buf + "".join(self._parts) + delta if self._parts else self._buf + delta
        self._parts = []
        cuts: list[Cut] | None = None
        stop = -1  # a stopper at or after every match end seen so far (-1: unknown)
        while True:
            m = self._search(buf, pos - base)
            if m is None:
                break
            ms, me = base + m.start(), base + m.end()
            if reach is None or ms + reach > total:
                if stop < me:
                    s = stopper(buf, me - base)
                    stop = total if s is None else base + s.start()
                if stop >= limit:
                    break
            if ms > start:
                if cuts is None:
                    cuts = []
                cuts.append(Cut(start, ms, me))
            start = pos = me
        # Attempts that can no longer change need not be made again: those
        # that began reach characters before the end, or before a stopper.
        settled = pos if reach is None else total - reach
        s = self._last.match(buf, pos - base, limit - base) if limit > pos else None
        if s is not None and base + s.start(1) + 1 > settled:
            settled = base + s.start(1) + 1
        if m is not None and base + m.start() < settled:
            # A pending match is tried again, unless it is longer than promised
            # (a broken max_match promise: the cost stays bounded anyway).
            settled = base + m.start() if reach is None else max(base + m.start(), settled - reach)
        if settled > pos:
            pos = settled
        self._start, self._pos = start, pos
        keep = max(0, pos - self._behind - base)
        self._buf = buf[keep:] if keep else buf
        self._base = base + keep
        return cuts or _NO_CUTS

    def settled(self) -> bool:
        # An accepted separator is over; the text after it chunks the same on
        # its own unless the pattern looks back (lookbehind, \b, ^).
        return not self._looks_back

    def finish(self) -> tuple[int, int] | None:
        # The text is complete: every match left is real.  Those that were not
        # confirmed yet fall inside the one fragment flush may return.
        buf = self._buf + "".join(self._parts)
        base, total = self._base, self._total
        first = last = -1
        begin = self._start
        for m in self._matches(buf, self._pos - base):
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


_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def _guarded(pattern: re.Pattern[str], atom: str) -> re.Pattern[str]:
    """``pattern`` tried only where no character of ``atom`` precedes."""
    source = pattern.pattern
    while m := _GLOBAL_FLAGS.match(source):  # passed as flags below
        source = source[m.end() :]
    end = "\n)" if pattern.flags & re.VERBOSE else ")"
    return re.compile(f"(?<!{atom})(?:{source}{end}", pattern.flags)


class RegexChunker(ChunkingStrategy):
    r"""Chunks separated by the matches of a regular expression.

    ``pattern`` (a ``str`` or a compiled ``str`` pattern) matches the separator:
    a chunk is the text between two matches, verbatim (nothing stripped; put
    ``\s*`` in the pattern to drop surrounding whitespace), and the separator
    travels with the chunk before it.  The text between two adjacent matches
    is empty and is not a chunk.  To keep a terminator in the chunk, match
    after it with a lookbehind: ``(?<=[.!?])\s+``; to keep a marker that
    opens a chunk, match the line break before it with a lookahead:
    ``\n+(?=#)`` chunks Markdown at its headings (``(?m)^#`` would take each
    ``#`` as the separator, out of the chunks).  Matches are those of
    ``re.finditer`` over the whole text.  A pattern that can match the empty
    string is rejected (``ValueError``), as is anything that is not a ``str``
    pattern (``TypeError``).

    Streaming rule.  A match is accepted only once no more text can change
    it, or any match before it: once a *stopper* follows it (a character that
    no part of the pattern can consume, such as a letter for ``\n\s*\n``, so
    the regex engine cannot read past it), or once the text reaches the
    pattern's *reach* from the match's start (its longest match plus its
    lookaheads, plus one; ``;`` needs one character after it).  Both are
    derived from the pattern, so the chunks never depend on how the text was
    sliced into deltas.  A pattern of unbounded length whose characters cover
    everything (``[^;]+;``) has neither, and is rejected unless ``max_match=N``
    promises that no match, with the text its lookaheads examine, is longer
    than ``N`` characters (a broken promise can make the chunks depend on the
    deltas).  ``split`` withholds the text after the last accepted separator;
    ``flush`` returns it without trailing separators, or ``[]`` when it holds
    no chunk.  If the text ends before separators near its end were accepted,
    the final fragment spans them (``a(?:bc)?`` on ``1abc2ab``: ``["1", "2ab"]``,
    since that ``a`` could still have become ``abc``): ``split`` sees a text, not
    the end of a stream, and ``flush`` returns what ``split`` withheld as one
    fragment (the contract), so only a separator that can still grow when the
    text stops is affected; ``re.split`` semantics at the very end would make
    ``split_text`` disagree with streaming.

    Cost.  ``feed`` is amortised O(len(delta)) for every accepted pattern.
    Attempts settled by a stopper or by the reach are never made again; a
    delta that brings no stopper to a pattern without a reach is set aside
    unsearched (nothing can be accepted before one arrives), so a long run of
    separator characters (80 000 spaces for ``\s+``) costs one search.  Patterns
    whose search is not linear in Python's backtracking engine are refused
    with a ``ValueError`` naming ``pattern`` (nested repeats such as ``(a+)+b``,
    backreferences, two repeats of the same characters in a row, a repeat a
    match can enter from inside a run of its own characters; see
    :mod:`._regex_cost`); a pattern that starts with an unbounded repeat
    (``\s*;\s*``) is searched with a run guard that skips the attempts inside
    a run (each would read the rest of it).  ``max_match`` bounds the text a
    match settles on; it does not make a refused pattern acceptable.
    """

    def __init__(self, pattern: str | re.Pattern[str], *, max_match: int | None = None) -> None:
        if isinstance(pattern, str):
            try:
                compiled = re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"pattern={pattern!r:.80} is not a valid regex: {exc}") from None
        elif isinstance(pattern, re.Pattern) and isinstance(pattern.pattern, str):
            compiled = pattern
        else:
            raise TypeError(
                "pattern must be a str or a compiled str regex, got "
                f"{type(pattern).__name__}: {pattern!r:.80}"
            )
        shape = _shape(compiled)
        guard = check_cost(compiled)
        if max_match is not None:
            check_int("max_match", max_match, 1)
            if shape.width is not None and max_match < shape.width:
                raise ValueError(
                    f"max_match={max_match} is shorter than the longest match of "
                    f"pattern={compiled.pattern!r} ({shape.width} characters)"
                )
            shape.width, shape.ahead = max_match, 0
        alphabet = "|".join(sorted(shape.atoms))
        consumes = re.compile(alphabet, shape.flags)
        no_stopper = all(consumes.match(c) for c in _PROBES)
        if (shape.width is None or shape.ahead is None) and no_stopper:
            raise ValueError(
                f"pattern={compiled.pattern!r} has no length bound and can consume any "
                "character, so no amount of following text settles a match; pass "
                "max_match=N (the longest a match can be)"
            )
        self.pattern = compiled
        self.max_match = max_match
        self._guarded = None if guard is None else _guarded(compiled, guard)
        self._run_char = None if guard is None else re.compile(guard, compiled.flags)
        self._anchor = 1 if shape.anchor else 0
        self._reach = (
            None
            if shape.width is None or shape.ahead is None
            else shape.width + shape.ahead + self._anchor + 1
        )
        self._behind = shape.behind + 1
        self._looks_back = shape.looks_back
        stop = f"(?!{alphabet})[\\s\\S]"
        self._stopper = re.compile(stop, shape.flags)
        self._last_stopper = re.compile(f"[\\s\\S]*({stop})", shape.flags)

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {"pattern": self.pattern}
        if self.max_match is not None:
            params["max_match"] = self.max_match
        return params

    def scanner(self) -> Scanner:
        return _RegexScanner(self)
