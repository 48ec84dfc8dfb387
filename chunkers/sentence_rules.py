r"""The incremental scanner behind ``SentenceChunker(mode="accurate")``.

Candidates and the rules that decide them
-----------------------------------------
A *candidate* is a run of terminators (``.``, ``!``, ``?``, ``…``, ``‽`` in any
mix), a run of CJK terminators (``。`` and the full-width and half-width
forms of ``!``, ``?``, ``.``), or a line break.  After a
terminator run come optional closers (quotes, ``)``, ``]``, footnote marks such
as ``[12]``) and then whitespace; the chunk ends after the closers and the
whitespace travels with it (``Cut.stop``).

* A CJK terminator run always ends a sentence; no whitespace is needed.
* Any other terminator run needs whitespace after it (``3.14``, ``v1.2.3``,
  ``example.com``, ``a.b@c.org``, ``https://x.y/z.html`` and ``Y!J`` never split).
* A blank line always ends a sentence.  A single line break does when the next
  line starts with a list marker: a bullet (``-``, ``*``, ``+``, ``•``...),
  ``12.``, ``12)``, ``b.``, ``b)``, ``(iv)``, or a Markdown heading ``#``; and
  it ends a chunk that opens with a Markdown heading marker (``## Usage``).
* Otherwise the next token decides (opening quotes, brackets and dashes before
  it are skipped).  A next token starting with ``.`` continues a spaced
  ellipsis (``. . .``); one starting with a lower-case letter never starts a
  sentence (``Yahoo! and``, ``e.g. a hat``, ``-- voila! -- you``).
* A run holding ``!``, ``?`` or ``‽`` (``?!``, ``!!!``), or any run followed by
  a closer (``"Stop." Then``, ``(See above.) Next``), ends the sentence.
* An ellipsis (``..``, ``...``, ``....``, ``…``, the last dot of ``. . .``)
  ends the sentence only before a capitalised or uncased word.
* A single ``.`` looks at the word before it:

  - a list marker opening its chunk (``1.``, ``b.``, ``iv.``, after an optional
    bullet) does not end it;
  - a known abbreviation (see :mod:`.abbreviations`) ends it by its kind:
    ``PREFIX`` never, ``FINAL`` before a capitalised word, ``MEDIAL`` before a
    capitalised sentence starter (``The``, ``It``...) that is not itself an
    initial (``I.``);
  - dotted forms (``U.S.A``, ``Ph.D``, any letters of one or two between
    periods) and single letters (initials such as ``J. R. R. Tolkien``) are
    ``MEDIAL`` abbreviations;
  - any other word (``600``, ``3.14``, ``example.com``) ends the sentence.

Streaming
---------
Every decision is a function of the text around the candidate: at most
:data:`LOOKBEHIND` characters before it, and the candidate's own runs plus a
bounded peek (a few characters) after it.  Until that text has arrived the
scanner withholds the candidate; at the end of the stream an undecided
candidate is simply part of the final fragment.  So the cuts never depend on
how the stream was sliced.  Each run is scanned once, resuming where the last
delta stopped, and ruled-out text is dropped: ``feed`` is amortised
O(len(delta)) and the window it keeps is bounded by :data:`LOOKBEHIND` plus
the undecided text that is not a run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .abbreviations import FINAL, MEDIAL, PREFIX, SENTENCE_STARTERS
from .base import Cut, Scanner

__all__ = ["LOOKBEHIND", "SentenceScanner"]

#: Characters kept before the scan position (the longest word inspected, plus
#: a bullet before a list marker).
LOOKBEHIND = 72
_WORD_MAX = 64  # a longer word before a period is a plain word
_SKIP_MAX = 8  # opening punctuation skipped before the next token
_STARTER_MAX = 12  # longer than the longest sentence starter

_FINDER = re.compile("[.!?\u2026\u203d\u3002\uff01\uff1f\uff0e\uff61\n]")
_CONTENT = re.compile(r"\S")
_TERM_RUN = re.compile("[.!?\u2026\u203d]*")
_CJK_TERMS = "\u3002\uff01\uff1f\uff0e\uff61"
_CJK_RUN = re.compile("[\u3002\uff01\uff1f\uff0e\uff61!?]*")
_CLOSER_RUN = re.compile("(?:[\"'\u201d\u2019\u00bb)\\]]|\\[\\d{1,4}\\])*")
_PARTIAL_FOOTNOTE = re.compile(r"\[\d{0,4}\Z")
_CJK_CLOSER_RUN = re.compile("[\u300d\u300f\u201d\u2019\uff09\u3011\u300b\u3009\"')\\]]*")
_WS_RUN = re.compile(r"\s*")
_OPENERS = frozenset("\"'\u201c\u2018\u00ab([{\u00bf\u00a1*_-\u2013\u2014 \t")
_BULLETS = frozenset("-*+\u2022\u2023\u25e6\u25aa\u25cf\u2013\u2014")
_DOTTED = re.compile(r"[A-Za-z]{1,2}(?:\.[A-Za-z]{1,2})+")
_LIST_MARK = re.compile(r"\d{1,3}|[A-Za-z]|[ivx]{1,5}|[IVX]{1,5}")
_HEADING = re.compile(r"#{1,6}[ \t]")
_BULLET_LEAD = re.compile("[-*+\u2022\u2023\u25e6\u25aa\u25cf\u2013\u2014]\\s+")
_NO_CUTS: list[Cut] = []

# Next-token categories.
_LOWER, _UPPER, _DIGIT, _OTHER, _MARKER = range(5)
# Candidate kinds and phases.
_TERM, _CJK, _LINE = range(3)
_RUN, _CLOSE, _SPACE, _DECIDE = range(4)


class _NeedMore(Exception):
    """The decision needs text that has not arrived yet."""


class SentenceScanner(Scanner):
    """Accurate sentence boundaries for one stream (rules in the module docstring).

    ``abbreviations`` maps canonical abbreviations to their kind (see
    :func:`~.abbreviations.abbreviation_table`).  ``finish`` returns the text
    after the last cut with surrounding whitespace stripped, or ``None``.
    """

    __slots__ = (
        "_a", "_abbr", "_b", "_bang", "_base", "_buf", "_cend", "_ci", "_dots", "_e",
        "_ellipsis", "_heading", "_kind", "_last", "_newlines", "_phase", "_pos", "_scan",
        "_spaced", "_start", "_total", "_word", "_word_at_start",
    )  # fmt: skip

    def __init__(self, abbreviations: Mapping[str, int]) -> None:
        self._abbr = abbreviations
        self._buf = ""  # the stream from absolute offset self._base on
        self._base = 0
        self._pos = 0  # absolute offset where the search resumes
        self._start: int | None = None  # absolute start of the chunk content
        self._cend = 0  # absolute end of the content before self._pos
        self._total = 0
        self._last = 0  # absolute end of the last non-whitespace character
        self._ci = -1  # absolute offset of the pending candidate, or -1
        self._kind = _TERM
        self._phase = _RUN
        self._scan = 0
        self._a = self._b = self._e = 0
        self._newlines = 0
        self._bang = self._ellipsis = self._spaced = self._word_at_start = False
        self._dots = 0
        self._word: str | None = None
        self._heading: bool | None = None  # does the chunk open with "# "?

    # -- driving -----------------------------------------------------------

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        end = self._total
        self._total = end + len(delta)
        stripped = len(delta.rstrip())
        if stripped:
            self._last = end + stripped
        buf = self._buf = self._buf + delta
        base = self._base
        cuts: list[Cut] | None = None
        while True:
            if self._start is None:
                m = _CONTENT.search(buf, self._pos - base)
                if m is None:
                    self._pos = self._total
                    break
                self._start = self._pos = self._cend = base + m.start()
                self._heading = None
            if self._ci < 0:
                m = _FINDER.search(buf, self._pos - base)
                if m is None:
                    self._advance_content(self._total)
                    self._pos = self._total
                    break
                self._open(m.start() + base, m.group())
            try:
                verdict = self._decide()
            except _NeedMore:
                break
            self._ci = -1
            if verdict is None:
                continue
            chunk_end, stop = verdict
            if cuts is None:
                cuts = []
            cuts.append(Cut(self._start, chunk_end, stop))
            self._start = self._pos = self._cend = stop
            self._heading = None
        self._trim()
        return cuts or _NO_CUTS

    def finish(self) -> tuple[int, int] | None:
        if self._start is None or self._last <= self._start:
            return None
        return (self._start, self._last)

    def _open(self, at: int, char: str) -> None:
        """Make the candidate at absolute offset ``at`` pending."""
        self._ci = self._scan = at
        self._phase = _RUN
        self._newlines = self._dots = 0
        self._bang = self._ellipsis = self._spaced = False
        self._word = None
        if char == "\n":
            self._kind = _LINE
            self._advance_content(at)
            self._a = self._b = self._cend
            self._phase = _SPACE
        else:
            self._kind = _CJK if char in _CJK_TERMS else _TERM

    def _advance_content(self, upto: int) -> None:
        """Record where the content before absolute offset ``upto`` ends."""
        lo = self._pos - self._base
        stripped = len(self._buf[lo : upto - self._base].rstrip())
        if stripped:
            self._cend = self._pos + stripped

    def _trim(self) -> None:
        keep = (self._scan if self._ci >= 0 else self._pos) - LOOKBEHIND
        if keep <= self._base:
            return
        if self._heading is None and self._start is not None and self._start < keep:
            self._is_heading()
        if self._ci >= 0 and self._kind == _TERM and self._word is None:
            self._read_word()
        self._buf = self._buf[keep - self._base :]
        self._base = keep

    # -- deciding ----------------------------------------------------------

    def _decide(self) -> tuple[int, int] | None:
        """Decide the pending candidate: ``(chunk_end, stop)``, or ``None``.

        Advances ``self._pos`` past a ruled-out candidate; raises
        ``_NeedMore`` when the text that decides it has not arrived.
        """
        buf, base = self._buf, self._base
        n = len(buf)
        if self._phase == _RUN:
            lo = self._scan - base
            if self._kind == _CJK:
                j = _CJK_RUN.match(buf, lo).end()  # type: ignore[union-attr]
            else:
                j = _TERM_RUN.match(buf, lo).end()  # type: ignore[union-attr]
                part = buf[lo:j]
                self._dots += part.count(".")
                if not self._bang and ("!" in part or "?" in part or "\u203d" in part):
                    self._bang = True
                if not self._ellipsis and "\u2026" in part:
                    self._ellipsis = True
            self._scan = base + j
            if j == n:
                raise _NeedMore
            self._a = self._scan
            self._phase = _CLOSE
        if self._phase == _CLOSE:
            lo = self._scan - base
            closers = _CJK_CLOSER_RUN if self._kind == _CJK else _CLOSER_RUN
            j = closers.match(buf, lo).end()  # type: ignore[union-attr]
            self._scan = base + j
            if j == n or (
                self._kind == _TERM and buf[j] == "[" and _PARTIAL_FOOTNOTE.match(buf, j)
            ):
                raise _NeedMore
            self._b = self._scan
            self._phase = _SPACE
        if self._phase == _SPACE:
            lo = self._scan - base
            j = _WS_RUN.match(buf, lo).end()  # type: ignore[union-attr]
            if j > lo:
                self._newlines += buf.count("\n", lo, j)
            self._scan = base + j
            if j == n:
                raise _NeedMore
            self._e = self._scan
            self._phase = _DECIDE
        b, e = self._b, self._e
        if self._kind == _CJK:
            return (b, e)
        if self._kind == _LINE:
            if self._newlines >= 2 or self._is_heading() or self._list_marker(e):
                return (b, e)
            self._pos = e
            return None
        self._pos = e
        if e == b:
            return None
        if self._newlines >= 2 or self._sentence_ends(e):
            return (b, e)
        if self._newlines and self._list_marker(e):
            return (b, e)
        self._cend = b
        return None

    def _char(self, at: int) -> str:
        i = at - self._base
        if i >= len(self._buf):
            raise _NeedMore
        return self._buf[i]

    def _sentence_ends(self, e: int) -> bool:
        """The rules for a terminator run followed by whitespace (see module doc)."""
        char = self._char
        j = e
        while char(j) in _OPENERS and j - e < _SKIP_MAX:
            j += 1
        c = char(j)
        if c == "." and j == e:
            return False  # a spaced ellipsis goes on
        if c.isalpha():
            cat = _LOWER if c.islower() else _UPPER
        else:
            cat = _DIGIT if c.isdigit() else _OTHER
        if cat == _LOWER:
            if not self._list_marker(e):
                return False
            cat = _MARKER
        if self._word is None:
            self._read_word()
        word = self._word
        ellipsis = self._ellipsis or self._dots > 1 or self._spaced
        if (
            word
            and self._word_at_start
            and not (self._bang or ellipsis)
            and _LIST_MARK.fullmatch(word)
        ):
            return False  # "1." or "b.)" opening a list item
        if self._bang or self._b > self._a:
            return True
        if ellipsis:
            return cat == _UPPER or cat == _MARKER
        if not word:
            return True
        kind = self._abbr.get(word.lower())
        if kind is None:
            if (len(word) == 1 and word.isalpha()) or _DOTTED.fullmatch(word):
                kind = MEDIAL
            else:
                return True
        if kind == PREFIX or cat == _DIGIT or cat == _OTHER:
            return False
        if kind == FINAL:
            return True
        if cat == _MARKER:
            return False
        # MEDIAL: only before a sentence starter that is not an initial.
        k = j
        while char(k).isalpha():
            k += 1
            if k - j > _STARTER_MAX:
                return False
        following = self._buf[j - self._base : k - self._base]
        if k - j == 1 and char(k) == ".":
            return False
        return following.lower() in SENTENCE_STARTERS and (
            len(following) == 1 or following[1:].islower()
        )

    def _read_word(self) -> None:
        """Record the word before the pending terminator run (openers stripped)."""
        i = self._ci
        lo = max(0, i - _WORD_MAX)
        seg = self._buf[lo - self._base : i - self._base]
        parts = seg.rsplit(None, 1)
        if not seg or seg[-1].isspace():
            word = ""
            self._spaced = seg.endswith(". ")
            start = i
        elif len(parts) == 1 and lo > 0 and not seg[0].isspace():
            word = "\0"  # longer than any abbreviation: a plain word
            start = -1
        else:
            word = parts[-1]
            start = i - len(word)
        core = word.lstrip("\"'\u201c\u2018\u00ab([{\u00bf\u00a1*_")
        self._word = core
        chunk = self._start if self._start is not None else -1
        self._word_at_start = start == chunk or (
            0 <= start - chunk <= 4
            and _BULLET_LEAD.fullmatch(self._buf, chunk - self._base, start - self._base)
            is not None
        )

    def _is_heading(self) -> bool:
        """Whether the current chunk opens with a Markdown heading marker."""
        if self._heading is None:
            start = self._start
            assert start is not None
            self._heading = (
                _HEADING.match(self._buf, start - self._base) is not None
            )
        return self._heading

    def _list_marker(self, at: int) -> bool:
        """Whether a list item or heading marker starts at ``at``."""
        char = self._char
        c = char(at)
        if c in _BULLETS:
            return char(at + 1).isspace()
        if c == "#":
            j = at
            while char(j) == "#" and j - at < 6:
                j += 1
            return char(j).isspace()
        if c == "(":
            j = at + 1
            while char(j).isalnum() and j - at <= 4:
                j += 1
            return j > at + 1 and char(j) == ")" and char(j + 1).isspace()
        if c.isdigit():
            j = at
            while char(j).isdigit() and j - at < 3:
                j += 1
            return char(j) in ".)" and char(j + 1).isspace()
        if c in "ivxIVX":
            j = at
            while char(j) in "ivxIVX" and j - at < 5:
                j += 1
            return char(j) in ".)" and char(j + 1).isspace()
        if c.isascii() and c.isalpha():
            return char(at + 1) in ".)" and char(at + 2).isspace()
        return False
