r"""The incremental scanner behind ``SentenceChunker(mode="accurate")``: it
finds candidates, scans their runs as text arrives and asks the rules
(:class:`~.rules.SentenceRules`) to decide each one.

Streaming
---------
Every decision is a function of the text around the candidate: at most
:data:`LOOKBEHIND` characters before it (the word, a bullet, the chunk's first
characters, the line before a line break: read as soon as the break is
scanned), and the candidate's own runs plus at most 22 characters after
them (opening punctuation, the next word; 36 after an elided word: ``'s
Avonds``).  Until that text has arrived the
scanner withholds the candidate; at the end of the stream an undecided
candidate is simply part of the final fragment.  So the cuts never depend on
how the stream was sliced.

Cost: the common cases are settled by the regex search that finds the
candidate (see :func:`.fast_path.searches`; ``tests/chunkers/test_sentence_fast_paths.py``
checks them against the rules), including a terminator or line break near the end of the
window that the text so far cannot decide (a "wait" group: it is left to the
next delta); the others are decided by the rules (:meth:`.rules.SentenceRules._ends`).  A delta
with nothing to decide costs one search and a few assignments.  A candidate
still undecided within ``DEFER`` characters of the end of the window is
decided again by the next delta; one further from it becomes *pending*, and
its runs are scanned on from where the last delta stopped.  Ruled-out text is
dropped, so ``feed`` is amortised O(len(delta)) and the window it keeps is
bounded by :data:`LOOKBEHIND` plus a small slack plus the undecided text that
is not a run.  A delta longer than 4096 characters goes in pieces of 2**20
characters: a piece holding no character a candidate begins with costs a few
``str`` scans in C and a copy instead of a search; the others are searched, with
the narrow searches when the text is of Latin-1.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from ..base import Cut, Scanner
from .abbreviations import SENTENCE_STARTERS
from .fast_path import (
    BLANK,
    CUT,
    DEFER,
    LEADS,
    MARK,
    SKIP,
    WAIT,
    WRAP,
    group_proofs,
    latin1,
    nothing,
    searches,
)
from .languages import ORDINAL_MONTHS, SCRIPT_TYPED
from .marks import (
    CJK_CLOSERS,
    CJK_TERMINATORS,
    CJK_TYPED,
    CLOSER_CLASS,
    CLOSER_SPACES,
    CLOSERS,
    INVERTED_OPENERS,
    PICTOGRAPHS,
    SPACED_CLOSERS,
    TERMINATORS,
    UNSPACED_LETTERS,
    UNSPACED_SCRIPT_TERMINATORS,
)
from .rules import (
    CJK,
    FOOTNOTE_BEFORE,
    FOOTNOTE_BEGUN,
    FOOTNOTE_MARK,
    FOOTNOTE_NUMBERS,
    FOOTNOTE_OPENERS,
    ITEM,
    LINE_BREAK,
    LOOKBEHIND,
    SOFT_WRAP,
    TERMINATOR,
    WRAP_MIN,
    NeedMore,
    SentenceRules,
    line_breaks,
    opens_heading,
)

if TYPE_CHECKING:
    from .quotes import QuotationLayer

__all__ = ["KEEP_ALL", "KEEP_MAX", "LOOKBEHIND", "ScannerSetup", "SentenceScanner", "scanner_setup"]

_PIECE = 1 << 20  # longest text scanned in one step (bounds the window)
_LONG = 4096  # a longer delta may be searched with the narrow searches
_SLACK = 64  # the window is trimmed once this much of it can go
_UNTRIMMED = LOOKBEHIND + _SLACK  # (the longest window with nothing to trim)

_TERMINATORS = frozenset(TERMINATORS)
_CJK_TERMINATORS = frozenset(CJK_TERMINATORS)
_UNSPACED = frozenset(UNSPACED_SCRIPT_TERMINATORS)
_INVERTED = frozenset(INVERTED_OPENERS)
# A kana or ideograph: an ASCII "!" or "?" right after one is a CJK run.
_UNSPACED_LETTER = re.compile(f"[{UNSPACED_LETTERS}]")
_ESCAPED_TERMINATORS = re.escape(TERMINATORS)
_CONTENT = re.compile(r"\S")
_TERM_RUN = re.compile(f"[{_ESCAPED_TERMINATORS}]*")
_CJK_RUN = re.compile(f"[{re.escape(CJK_TERMINATORS)}!?]*")
# Closers: footnote numbers glued to the period (``word.12 13``), or quotes,
# brackets, footnote marks (``[12]``, ``[^12]``) and spaced closers before whitespace
# (``. » Puis``).
_SPACED_CLOSER = f"[{CLOSER_SPACES}][{SPACED_CLOSERS}](?=\\s)"
_CLOSERS = (
    f"(?:{FOOTNOTE_BEFORE}{FOOTNOTE_NUMBERS}"
    f"|(?:[{CLOSER_CLASS}]|{FOOTNOTE_MARK}|{_SPACED_CLOSER})*)"
)
_CLOSER_RUN = re.compile(_CLOSERS)
_PARTIAL_FOOTNOTE = re.compile(f"{FOOTNOTE_BEGUN}\\Z")
# A spaced closer whose whitespace has not arrived (or the space before it).
_PARTIAL_SPACED = re.compile(f"[{CLOSER_SPACES}][{SPACED_CLOSERS}]?\\Z")
_SPACED_CLOSING = frozenset(SPACED_CLOSERS)
# What an unfinished closer after a terminator run may be, by its first character.
_PARTIAL = dict.fromkeys(FOOTNOTE_OPENERS, _PARTIAL_FOOTNOTE)
_CJK_CLOSER_RUN = re.compile(f"[{re.escape(CJK_CLOSERS)}{PICTOGRAPHS}]*")
_WS_RUN = re.compile(r"\s*")
_NEWLINE = re.compile("\n")  # (a pattern, not str.find: the cost tests count its reads)
# The three runs after a terminator in one match (the usual case).
_TAIL = re.compile(f"([{_ESCAPED_TERMINATORS}]*)({_CLOSERS})(\\s*)")
# A single line break that is a soft wrap (see the rules).
_LINE_GOES_ON = re.compile(f"(?:\n|\r(?!\n))(?={SOFT_WRAP})")
_NO_CUTS: list[Cut] = []
#: ``keep_from`` when no one else reads the window.
KEEP_ALL = 1 << 62
#: The most text kept for ``keep_from`` before ``layer_due`` is set.  (Long
#: enough for most quiet quotations of prose to arrive whole before their
#: opening mark must be read: 128 read about 60 per 150 KB before their
#: closing mark, as open quotations.  Fed deltas of 64 characters or fewer,
#: the window holds 320 at most on the tests' attacks.)
KEEP_MAX = 256
# ``_new(Cut, (start, end, stop))`` builds a cut without the Python-level
# ``__new__`` of a named tuple (about 140 ns against 320, measured).
_new = tuple.__new__

# The phases of a pending candidate: scanning its terminators, its closers,
# its whitespace, then deciding.
_RUN, _CLOSE, _SPACE, _DECIDE = range(4)


#: Per script of :data:`SCRIPT_TYPED`: its mark after a letter of the script
#: and up to two closers (the mark first, so that a search skips to each mark
#: at C speed and only then looks behind it), and the terminator it stands for.
_TYPED = tuple(
    (
        re.compile(
            re.escape(mark)
            + "(?:"
            + "|".join(
                f"(?<=[{letters}]{f'[{re.escape(CLOSERS)}]' * n}{re.escape(mark)})"
                for n in range(3)
            )
            + ")"
        ),
        term,
    )
    for letters, mark, term in SCRIPT_TYPED
)
# (Named one by one: two ``in`` tests cost half a loop on the per-delta path;
# a script with another mark is to be added here too, or this fails at import.)
_TYPED_COLON, _TYPED_SEMICOLON = sorted({mark for _, mark, _ in SCRIPT_TYPED})
#: What of the text before a mark the patterns read: a letter and two closers.
_TYPED_LOOKBACK = 3


def typed_terminators(before: str, delta: str) -> str:
    """``delta`` with each mark of :data:`SCRIPT_TYPED` that follows a letter
    of its script, and up to two closers, replaced by the terminator it
    stands for (``Ես եկա: Դու``, ``Πού πας; Πάω``); ``before``: at least the
    last three characters before ``delta`` (all of them when fewer).  The
    length stays that of ``delta``; each mark is decided by the three
    characters before it, whatever the deltas.  O(len(delta)): a delta and
    the three characters before it of Latin-1 only cost one encoding, others
    one search per script."""
    tail = before[-_TYPED_LOOKBACK:]
    if latin1(delta) and latin1(tail):
        return delta  # (the letters of every script here are above U+00FF)
    text = tail + delta
    chars: list[str] | None = None
    for pattern, term in _TYPED:
        for m in pattern.finditer(text, len(tail)):
            if chars is None:
                chars = list(delta)
            chars[m.start() - len(tail)] = term
    return delta if chars is None else "".join(chars)


class ScannerSetup(NamedTuple):
    """What a :class:`SentenceScanner` reads of its configuration, built once
    by :func:`scanner_setup` and shared by every scanner of that
    configuration (``SentenceChunker`` caches it by language, quotes and
    added abbreviations): a scanner then costs some assignments, not a pass
    over the abbreviation table and a lookup of its searches (about 100
    microseconds, more than splitting a short answer)."""

    abbreviations: Mapping[str, int]
    starters: frozenset[str]
    ordinals: int
    #: The forms a continuation is written in before a sentence would start.
    continuations: frozenset[str]
    compounds: frozenset[str]
    typed: bool
    plain_words: bool
    #: Words that are no plain word though missing from ``abbreviations``
    #: (``Language.foreign``).
    foreign: frozenset[str]
    #: The searches (``find``, ``find_all``), and those for Latin-1 text.
    wide: tuple[re.Pattern[str], re.Pattern[str]]
    narrow: tuple[re.Pattern[str], re.Pattern[str]]
    #: What each group of the searches proves (the same groups in all four).
    proofs: tuple[int, ...]
    #: The characters a candidate or a quotation mark begins with.
    leads: str
    quote_marks: frozenset[str]
    #: A quotation mark of ``quote_leads`` in its context, at an offset.
    mark_at: re.Pattern[str]


def scanner_setup(
    abbreviations: Mapping[str, int],
    starters: frozenset[str] = SENTENCE_STARTERS,
    ordinals: int = ORDINAL_MONTHS,
    continuations: frozenset[str] = frozenset(),
    quote_leads: tuple[tuple[str, str], ...] = (),
    typed: bool = False,
    compounds: frozenset[str] = frozenset(),
    plain_words: bool = True,
    foreign: frozenset[str] = frozenset(),
) -> ScannerSetup:
    """The setup of scanners for a configuration (see :class:`SentenceScanner`).
    O(size of the tables), and the searches compiled on a configuration's
    first use in the process (:func:`.fast_path.searches` caches them)."""
    forms = frozenset(form for word in continuations for form in (word.capitalize(), word.upper()))
    built = searches(
        frozenset(abbreviations),
        any(a[-1] in ")]" or a[-1].isdigit() for a in abbreviations),
        starters,
        forms,
        quote_leads,
        compounds,
    )
    return ScannerSetup(
        abbreviations,
        starters,
        ordinals,
        forms,
        compounds,
        typed,
        plain_words,
        foreign,
        built[:2],
        built[2:],
        group_proofs(built[0]),
        LEADS + "".join(c for c, _ in quote_leads),
        frozenset(c for c, _ in quote_leads),
        re.compile("|".join(re.escape(c) + where for c, where in quote_leads)),
    )


class SentenceScanner(SentenceRules, Scanner):
    """Accurate sentence boundaries for one stream (rules in the module
    docstring), configured by ``setup`` (:func:`scanner_setup`, whose
    arguments are these).

    ``abbreviations`` maps canonical abbreviations to their kind (see
    :func:`~.abbreviations.abbreviation_table`); ``starters``, ``ordinals``
    and ``continuations`` are those of the language (see :mod:`.languages`);
    ``compounds``: abbreviations that also end compound words
    (``Language.compounds``); ``typed``: each mark of
    :data:`.languages.SCRIPT_TYPED` right after a
    letter of its script is read as the terminator it stands for (see
    :func:`typed_terminators`).
    ``quote_leads`` (see :data:`.quotes.QUOTE_LEADS`): quotation marks, each
    with the context after it, that the search also finds, as it finds
    candidates, and lists in ``marks`` (one inside a closers run that a
    search passes whole is left to the rules, which list it too; with a
    layer attached, the last one found waits ``undecided``: see
    :meth:`settle`); they decide nothing here.  ``finish`` returns the text after the last cut with
    surrounding whitespace stripped, or ``None``.
    """

    __slots__ = (
        "_abbreviations", "_bang", "_base", "_buf", "_closers_end", "_compounds", "_content_end",
        "_continuations", "_dots", "_ellipsis", "_find", "_find_all", "_foreign", "_heading",
        "_item", "_last", "_leads", "_long", "_mark_at", "_marks_to", "_narrow", "_newlines",
        "_next_search",
        "_no_newline", "_ordinals", "_pending", "_pending_kind", "_phase", "_plain_words", "_pos",
        "_proofs", "_quote_marks", "_resume", "_run_end", "_search", "_space_end", "_start",
        "_starters", "_typed", "_wide",
        "_word_offset", "_word_read", "_wrap_offset", "_wrap_read", "keep_from", "layer",
        "layer_cuts", "layer_due", "layer_on_mark", "marks", "undecided",
    )  # fmt: skip

    # The pending candidate's kind, phase, where its scan resumes, the ends
    # of its terminator, closer and whitespace runs, and what the runs held
    # (read only while ``_pending >= 0``, set from ``_open`` on).
    _pending_kind: int
    _phase: int
    _resume: int
    _run_end: int
    _closers_end: int
    _space_end: int
    _newlines: int
    _dots: int
    _bang: bool
    _ellipsis: bool

    def __init__(self, setup: ScannerSetup) -> None:
        # (One unpacking: reading each field of the named tuple by name costs
        # a generic attribute lookup, a tenth of a scanner's construction.)
        (
            self._abbreviations,
            self._starters,
            self._ordinals,
            self._continuations,
            self._compounds,
            self._typed,
            self._plain_words,
            self._foreign,
            self._wide,
            self._narrow,
            self._proofs,
            self._leads,
            self._quote_marks,
            self._mark_at,
        ) = setup
        # The offsets of the quotation marks found (``quote_leads``), in
        # order, each once: those before ``marks_known_to()`` (see there).
        self.marks: list[int] = []
        self._marks_to = 0  # offset after the last mark found
        # What _newline_after found: no "\n" from the first offset up to the
        # second (the window's end then), or up to a "\n" at ~second (< 0).
        self._no_newline = (KEEP_ALL, 0)
        # With a layer: the offset of the last mark found, not yet listed
        # (see settle), or -1.
        self.undecided = -1
        # The window is kept from this offset on, at least (for the
        # quotation layer, which reads it: see window()).
        self.keep_from = KEEP_ALL
        # The quotation layer (see attach), or None; whether it takes every
        # delta (also set here when the window kept from keep_from has grown
        # more than KEEP_MAX characters past it), and every cut.
        self.layer: QuotationLayer | None = None
        self.layer_due = self.layer_cuts = False
        # What builds the layer when the first mark is found, if none is
        # attached by then (see attach_on_mark), or None.
        self.layer_on_mark: Callable[[SentenceScanner], QuotationLayer] | None = None
        # The searches (``_wide``, and ``_narrow`` for Latin-1 text), and what
        # each group of them proves (the same groups in all four): ``_proofs``.
        self._find, self._find_all = self._wide
        self._long = False  # feeding the pieces of a long delta
        self._buf = ""  # the stream from absolute offset self._base on
        self._base = 0
        self._pos = 0  # absolute offset where the search resumes
        self._start: int | None = None  # absolute start of the chunk content
        self._content_end = 0  # absolute end of the content before self._pos
        self._last = 0  # absolute end of the last non-whitespace character
        self._heading: bool | None = None  # does the chunk open with "# "?
        # The search that starts the next delta while nothing is pending, the
        # chunk has begun and does not open with a heading marker; else None.
        self._search = self._find.search
        self._next_search: Callable[[str, int], re.Match[str] | None] | None = None
        # The pending candidate (decided across deltas): offset or -1.  What
        # else describes it (the slots annotated on the class) is set by
        # _open, or by the phase that scans it, before it is read: left
        # unset here (a scanner is built per text: each store is a share of
        # splitting a short answer).
        self._pending = -1
        # The word before the candidate at offset self._word_offset, once read.
        self._word_offset = -1
        self._word_read: tuple[str, bool, bool, tuple[int, int] | None] = ("", False, False, None)
        # Whether the first line break after the candidate at self._wrap_offset
        # may be a soft wrap, once read.
        self._wrap_offset = -1
        self._wrap_read = 0
        # An inline list item to cut before (the rules' "item": chunk end, next start).
        self._item: tuple[int, int] | None = None

    # -- driving -----------------------------------------------------------

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        if (
            self._typed
            and (_TYPED_COLON in delta or _TYPED_SEMICOLON in delta)
            and not (delta.isascii() and self._buf.isascii())
        ):
            # (The window always holds the last LOOKBEHIND characters fed.
            # ASCII text, whose flag ``isascii`` reads in O(1), holds no
            # letter of the scripts, so typed_terminators would return
            # ``delta``: its calls are saved.)
            delta = typed_terminators(self._buf[-_TYPED_LOOKBACK:], delta)
        buf = self._buf + delta
        n = len(buf)
        if n > _LONG and not self._long and len(delta) > _LONG:
            return self._feed_long(delta)
        self._buf = buf
        base = self._base
        total = base + n
        if not delta[-1].isspace():
            self._last = total
        elif stripped := len(delta.rstrip()):
            self._last = total - len(delta) + stripped
        # The usual delta: the chunk's search, then nothing to decide, or a run
        # of decisions the search proves; anything else goes to _decide_all.
        quiet = self._next_search
        if quiet is not None:
            # Nothing is pending; the chunk has begun (see _first_search).
            m = quiet(buf, self._pos - base)
            if m is None:
                # Nothing to decide in this delta (the usual case).
                self._content_end = self._last
                self._pos = total
                if n <= _UNTRIMMED:  # (nothing to trim yet)
                    if self.layer_due:
                        return self.layer.take_cuts(_NO_CUTS)  # type: ignore[union-attr]
                    return _NO_CUTS
                found: list[Cut] = _NO_CUTS
            else:
                g = m.lastindex
                if g is None:
                    return self._decide_all(buf, n, base, total, m, True, [])
                proof = self._proofs[g]
                if proof == WAIT:
                    # Left to the next delta (and the window trimmed: a stream
                    # whose every delta ends on a candidate, ``a.a.a.``, comes
                    # back to this path each time).
                    self._wait(buf, m.start())
                    found = _NO_CUTS
                else:
                    found = []
                    step = self._run(found, buf, base, total, m, g, proof)
                    if step is not True:
                        if step is False:
                            return self._decide_all(buf, n, base, total, None, False, found)
                        return self._decide_all(buf, n, base, total, step, True, found)
            # (_kept, inline on the usual path.)
            keep = self._pos - LOOKBEHIND
            if keep > self.keep_from:
                keep = self.keep_from
                if total - keep > KEEP_MAX:
                    self.layer_due = True
            if keep - base > _SLACK:
                self._buf = buf[keep - base :]
                self._base = keep
            if self.layer_due or (found and self.layer_cuts):
                return self.layer.take_cuts(found)  # type: ignore[union-attr]
            return found
        if self._pending < 0 and self._start is not None:
            m = self._finder(buf, base).search(buf, self._pos - base)
            return self._decide_all(buf, n, base, total, m, True, [])
        return self._decide_all(buf, n, base, total, None, False, [])

    def _wait(self, buf: str, i: int) -> None:
        """Leave the candidate at ``buf[i]`` to the next delta: a "wait" group
        of the searches found that the text so far cannot decide it (as the
        rules would find), within ``DEFER`` characters of the window's end;
        the search resumes at it next time."""
        if buf[i] in "\r\n":
            self._advance_content(self._base + i)
        self._pos = self._base + i

    def _decide_all(
        self,
        buf: str,
        n: int,
        base: int,
        total: int,
        m: re.Match[str] | None,
        ready: bool,
        found: list[Cut],
    ) -> list[Cut]:
        """The rest of ``feed`` after its first search, kept apart so that the
        usual delta runs in a small frame (a frame's cost grows with its
        locals): ``m`` is the match of a search already done when ``ready``;
        ``found`` holds the cuts already made."""
        while True:
            if ready:
                ready = False
                pos = self._pos
            else:
                if self._pending >= 0:
                    try:
                        verdict = self._decide()
                    except NeedMore:
                        break
                    self._pending = -1
                    if self._item is not None:
                        self._emit_item(found)
                    if verdict is not None:
                        self._emit(found, *verdict)
                    continue
                pos = self._pos
                if self._start is None:
                    m = _CONTENT.search(buf, pos - base)
                    if m is None:
                        self._pos = total
                        break
                    pos = self._start = self._pos = self._content_end = base + m.start()
                    self._heading = None
                finder = self._find if self._heading is False else self._finder(buf, base)
                m = finder.search(buf, pos - base)
            if m is None:
                if self._last > pos:  # some content in [pos, total)
                    self._content_end = self._last
                self._pos = total
                break
            g = m.lastindex or 0
            proof = self._proofs[g]
            if proof == WAIT:
                self._wait(buf, m.start())
                break
            if proof == MARK:
                self._mark(base + m.start())
                self._pos = self._content_end = base + m.end()
                continue
            if proof == SKIP and self._heading is not False:
                # Not a boundary, in a chunk that may end at a line break.
                self._pos = base + m.end()
                self._content_end = base + m.start(g)
                continue
            if proof:
                step = self._run(found, buf, base, total, m, g, proof)
                if step is True:
                    keep = self._kept(self._pos - LOOKBEHIND, total)
                    if keep - base > _SLACK:
                        self._buf = buf[keep - base :]
                        self._base = keep
                    return self._deliver(found)
                if step is not False:
                    m = step
                    ready = True
                continue
            i = m.start()
            char = buf[i]
            if char in CJK_TYPED and i > 0 and _UNSPACED_LETTER.match(buf, i - 1):
                self._open(base + i, char, cjk=True)  # ("すごい!次": a CJK run)
                continue
            if char in _TERMINATORS:
                if i >= n - 2:
                    # What may follow (whitespace, a terminator, a closer or
                    # "[") is still open: the rules below would defer too.
                    self._pos = base + i
                    break
            elif char == ")":
                # The ")" of a list marker ("b)"): what follows it decides.
                if i + 1 == n:
                    self._pos = base + i
                    break
                self._ends(ITEM, base + i, base + i, base + i, base + i, 0, False, False)
                if self._item is not None:
                    self._emit_item(found)
                self._pos = self._content_end = base + i + 1
                continue
            else:
                if char in "\r\n":
                    # (Searched with _AFTER, such a line break is never found.)
                    if (
                        self._heading is None
                        and _LINE_GOES_ON.match(buf, i)
                        and not self._is_heading()
                    ):
                        self._pos = base + i + 1
                        continue
                    # A line break, when the next line is in sight.
                    self._advance_content(base + i)
                    e = _WS_RUN.match(buf, i).end()  # type: ignore[union-attr]
                    content_end = self._content_end
                    try:
                        if e == n:
                            raise NeedMore
                        ends = self._ends(
                            LINE_BREAK,
                            base + i,
                            content_end,
                            content_end,
                            base + e,
                            line_breaks(buf, i, e),
                            False,
                            False,
                        )
                    except NeedMore:
                        if n - i <= DEFER:
                            self._pos = base + i
                            break
                        self._open(base + i, char)
                        continue
                    if not ends:
                        self._pos = base + e
                        continue
                    self._emit(found, content_end, base + e)
                    continue
                self._open(base + i, char)
                continue
            after = buf[i + 1 : i + 2]
            if after.isspace() and buf[i + 2 : i + 3] not in _SPACED_CLOSING:
                # A one-character run with no closers (the usual case).
                a = b = i + 1
                if after == " " and i + 2 < n and not buf[i + 2].isspace():
                    e = i + 2
                    newlines = 0
                else:
                    e = _WS_RUN.match(buf, b).end()  # type: ignore[union-attr]
                    if e == n:
                        if n - i <= DEFER:
                            self._pos = base + i
                            break
                        self._open(base + i, char)
                        continue
                    newlines = line_breaks(buf, b, e)
                bang = char != "." and char != "\u2026"
                ellipsis = char == "\u2026"
                dots = 1 if char == "." else 0
            else:
                t = _TAIL.match(buf, i)
                assert t is not None
                e = t.end()
                b = t.end(2)
                if self._quote_marks and b - t.end(1) > 1:
                    self._closing_marks(buf, base, t.end(1), b)
                if (
                    e == n
                    or (buf[b] in FOOTNOTE_OPENERS and _PARTIAL_FOOTNOTE.match(buf, b))
                    or (e == n - 1 and _PARTIAL_SPACED.match(buf, b))
                ):
                    if n - i <= DEFER and (e >= n - 1 or buf[b] in FOOTNOTE_OPENERS):
                        self._pos = base + i
                        break
                    self._open(base + i, char)
                    continue
                if (
                    e == b
                    and not (b == i + 1 and (char == "." or char in _UNSPACED))
                    and buf[b] not in _INVERTED
                ):
                    # (A lone "." or unspaced script terminator may be glued,
                    # and an inverted mark opens a sentence: the rules decide.)
                    self._pos = base + b
                    continue
                run = t.group(1)
                bang = run != "." and bool(run.strip(".\u2026"))
                dots = 1 if run == "." else run.count(".")
                ellipsis = dots > 1 or "\u2026" in run
                newlines = line_breaks(buf, b, e)
                a = t.end(1)
            try:
                ends = self._ends(
                    TERMINATOR, base + i, base + a, base + b, base + e, newlines, bang, ellipsis
                )
            except NeedMore:
                if n - i <= DEFER:
                    self._pos = base + i
                    break
                self._open(base + i, char)
                self._phase = _DECIDE
                self._run_end, self._closers_end, self._space_end = base + a, base + b, base + e
                self._resume = self._space_end
                self._bang, self._dots, self._ellipsis = bang, dots, ellipsis
                self._newlines = newlines
                break
            if self._item is not None:
                self._emit_item(found)
            if not ends:
                self._pos = base + e
                self._content_end = base + b
                continue
            verdict = (base + b, base + e)
            self._emit(found, *verdict)
        start = self._resume if self._pending >= 0 else self._pos
        keep = self._kept(start - LOOKBEHIND, total)
        if keep - base > _SLACK:
            self._trim(keep)
        # Only this loop changes what the next delta's first search depends on.
        self._next_search = self._first_search()
        return self._deliver(found)

    def _kept(self, keep: int, total: int) -> int:
        """Where the window may be trimmed to, given ``keep``: no further
        than ``keep_from``, for the quotation layer, which is due to read once
        that holds more than ``KEEP_MAX`` characters of the ``total`` so far."""
        if keep > self.keep_from:
            keep = self.keep_from
            if total - keep > KEEP_MAX:
                self.layer_due = True
        return keep

    def _deliver(self, found: list[Cut]) -> list[Cut]:
        """``found`` (the cuts of this delta), through the quotation layer
        when it takes them (it has read this scanner's marks so far)."""
        if self.layer_due or (found and self.layer_cuts):
            return self.layer.take_cuts(found)  # type: ignore[union-attr]
        return found or _NO_CUTS

    def attach(self, layer: QuotationLayer) -> None:
        """Hand this scanner's cuts to ``layer`` before they are returned,
        when it takes them (``layer_cuts``: set by the layer, and as a mark
        is found), and every delta while ``layer_due`` (set by the layer, and
        when the text kept for it grows long); ``finish`` through it too.
        Without a layer, the marks are listed all the same (and never
        dropped), and no text is kept for them."""
        self.layer = layer

    def attach_on_mark(self, build: Callable[[SentenceScanner], QuotationLayer]) -> None:
        """Attach the layer ``build(self)`` builds (it attaches itself) when
        the first quotation mark is found, not now: until then a layer has
        nothing to read, is never called and holds its initial state, so
        the cuts are the same, and a text without a mark (most short
        answers) builds none (about half the cost of a scanner)."""
        self.layer_on_mark = build

    def _first_search(self) -> Callable[[str, int], re.Match[str] | None] | None:
        """The search that starts the next delta: the chunk's own search once
        the chunk has begun, nothing is pending and whether it opens with a
        heading marker is known; else ``None`` (the loop decides)."""
        if self._pending >= 0 or self._start is None or self._heading is None:
            return None
        return self._search if self._heading is False else self._find_all.search

    def _run(
        self,
        found: list[Cut],
        buf: str,
        base: int,
        total: int,
        m: re.Match[str],
        g: int,
        proof: int,
    ) -> re.Match[str] | bool:
        """Apply what the searches proved (see :func:`.fast_path.searches`), from ``m`` (its
        group ``g`` proving ``proof``) on, in a row, each chunk searched with
        its own search (``_finder``): "cut" cuts (the next chunk opens with an
        opener, a capital or a digit), "skip" skips, "blank" and "line" cut.
        The chunk of ``m`` opens with a heading marker or not
        (``self._heading``), unless ``m`` ends it.

        Returns ``True`` when nothing is left to decide in this delta, or only
        a candidate that what has not arrived decides (``_wait``; the next
        delta's first search is set, the caller trims the window); ``False`` when
        the window ends too early to tell whether the next chunk opens with a
        heading marker (to be searched from ``self._pos`` with ``_finder``);
        else the next match, which the rules decide.
        """
        start: int = self._start  # type: ignore[assignment]
        cend = self._content_end
        append = found.append
        plain = self._search
        heading = self._heading
        search = plain if heading is False else self._find_all.search
        proofs = self._proofs
        while True:
            end = m.end()
            if proof == CUT:
                stop = base + end
                append(_new(Cut, (start, base + m.start(g), stop)))
                start = cend = stop
                if heading is not False:
                    heading = False  # (a chunk cut so opens with no "#")
                    search = plain
            elif proof == SKIP:
                cend = base + m.start(g)
            elif proof == MARK:
                cend = base + end
                self._mark(base + m.start())
            elif proof == WRAP and base + m.start() - start >= WRAP_MIN:
                cend = base + m.start()  # a soft wrap (the rules' _wraps_before)
            else:
                stop = base + end
                if proof == BLANK:
                    at = m.start(g)
                else:
                    at = m.start()
                    if buf[at - 1] == "\r":
                        at -= 1  # (a "\r\n": the chunk ends before it)
                append(_new(Cut, (start, base + at, stop)))
                start = cend = stop
                heading = False
                search = plain
                if buf[end] == "#":
                    heading = opens_heading(buf, end)
                    if heading is None:
                        self._start = start
                        self._content_end = cend
                        self._heading = None
                        self._pos = stop
                        return False
                    if heading:
                        search = self._find_all.search
            following = search(buf, end)
            if following is None:
                # Nothing left to decide in this delta (the usual end).
                if self._last > base + end:
                    cend = self._last
                self._start = start
                self._content_end = cend
                self._heading = heading
                self._pos = total
                break
            m = following
            g = m.lastindex or 0
            proof = proofs[g]
            if not proof or proof == WAIT:
                self._start = start
                self._content_end = cend
                self._heading = heading
                self._pos = base + end
                if not proof:
                    return m
                self._wait(buf, m.start())
                break
        self._next_search = search
        return True

    def _feed_long(self, delta: str) -> list[Cut]:
        """Feed a long delta: in pieces of ``_PIECE`` characters (bounding the
        window).  A piece holding no character a candidate begins with is fed
        without a search (:meth:`_feed_plain`) once the chunk has begun and
        nothing is pending or left to it (its first ``_LONG`` characters go
        first when not); the others are searched, with the narrow searches
        when neither the delta nor the window holds a character above
        U+00FF."""
        self._long = True
        narrow = None
        cuts: list[Cut] = []
        try:
            for k in range(0, len(delta), _PIECE):
                piece = delta[k : k + _PIECE]
                if not any(c in piece for c in self._leads):
                    if self._next_search is None:
                        cuts += self.feed(piece[:_LONG])
                        piece = piece[_LONG:]
                    if self._next_search is not None and self._pos == self._base + len(self._buf):
                        cuts += self._feed_plain(piece)
                        continue
                if narrow is None:
                    narrow = latin1(delta) and latin1(self._buf)
                    if narrow:
                        self._use(self._narrow)
                cuts += self.feed(piece)
        finally:
            self._long = False
            if narrow:
                self._use(self._wide)
        return cuts

    def _feed_plain(self, piece: str) -> list[Cut]:
        """Feed ``piece``, which holds no character a candidate begins with,
        while the search would begin at its start: ``feed`` with a search
        known to find nothing (so ``piece`` costs a copy, not a scan)."""
        quiet = self._next_search
        self._next_search = nothing
        try:
            return self.feed(piece)
        finally:
            self._next_search = quiet

    def _use(self, searches: tuple[re.Pattern[str], re.Pattern[str]]) -> None:
        """Search with ``searches`` (``find``, ``find_all``) from now on."""
        self._find, self._find_all = searches
        self._search = self._find.search
        if self._next_search is not None:
            self._next_search = self._first_search()

    def _emit(self, found: list[Cut], end: int, stop: int) -> None:
        """Add the cut of the current chunk ending at ``end``; the next starts at ``stop``."""
        found.append(Cut(self._start, end, stop))  # type: ignore[arg-type]
        self._start = self._pos = self._content_end = stop
        self._heading = None

    def _emit_item(self, found: list[Cut]) -> None:
        """Add the cut of the chunk before an inline list item (``self._item``);
        the next chunk starts at the item's marker."""
        end, stop = self._item  # type: ignore[misc]
        self._item = None
        found.append(Cut(self._start, end, stop))  # type: ignore[arg-type]
        self._start = stop
        self._heading = None

    def window(self) -> tuple[str, int]:
        """The text the scanner keeps, to the end of the stream so far, and
        its offset: at least ``LOOKBEHIND`` characters before where the
        search resumes, and everything from ``keep_from`` on."""
        return self._buf, self._base

    def marks_known_to(self) -> int:
        """The offset before which every quotation mark of the stream that
        ``quote_leads`` describes is in ``marks``, or was (the caller takes
        them from the list), or is ``undecided`` (see :meth:`settle`)."""
        return self._resume if self._pending >= 0 else self._pos

    def _mark(self, at: int) -> None:
        """Note the quotation mark at offset ``at`` (once): listed in
        ``marks`` without a layer, or when a line break follows it (the
        search then read its quotation to the end: none spans a line);
        else left ``undecided`` until the layer needs it or the next mark
        is found (see :meth:`settle`).  A mark within ``DEFER``
        characters of the window's end is left so unlooked: in a stream,
        where that is almost every mark, a line break rarely follows yet,
        and looking for one costs more than the second look of settling."""
        if at >= self._marks_to:
            self._marks_to = at + 1
            layer = self.layer
            if layer is None:
                if self.layer_on_mark is None:
                    self.marks.append(at)
                    return
                layer = self.layer_on_mark(self)  # (attaches itself: see attach_on_mark)
            self.layer_cuts = True  # (the layer reads the marks a cut needs)
            if self.undecided >= 0:
                self.settle()
                layer.keep()  # (the mark settled may have held the window back)
            if self._base + len(self._buf) - at > DEFER and self._newline_after(at):
                self.marks.append(at)
            else:
                self.undecided = at
            if at - 1 < self.keep_from:
                self.keep_from = at - 1  # (what precedes a mark tells whether it opens)

    def _newline_after(self, at: int) -> bool:
        """Whether the window holds a line break at or after offset ``at``.

        Marks come in order, so a search goes on where the last one stopped
        (a run of marks with no line break after them would otherwise read the
        rest of the window once each: quadratic): O(1) amortised per mark,
        plus the characters not searched before."""
        since, until = self._no_newline
        if since <= at and until < 0 and at <= ~until:
            return True
        if since <= at < until:
            start = until  # (no "\n" in [since, until))
        else:
            since = start = at
        m = _NEWLINE.search(self._buf, start - self._base)
        if m is not None:
            self._no_newline = (since, ~(self._base + m.start()))
            return True
        self._no_newline = (since, self._base + len(self._buf))
        return False

    def settle(self) -> None:
        """List the ``undecided`` mark in ``marks`` unless the text now
        proves it opens a quiet quotation (its lead's context fails to
        match: see :data:`.quotes.QUOTE_LEADS`), which changes nothing.

        A search lists a mark whose quiet quotation has not arrived whole
        yet (its context reaches the end of the window); in a stream that is
        most of them.  Matching the context again once a cut needs the mark,
        with the text that has arrived since, drops most of those before the
        layer reads them.  Listing a quiet one is harmless (the layer reads
        it as quiet), and a proof of quietness holds for any longer text (it
        reads nothing past the character after the closing mark), so the
        test may come at any time: chunks do not depend on when.
        O(the quotation's length), in C."""
        at = self.undecided
        self.undecided = -1
        if self._mark_at.match(self._buf, at - self._base) is not None:
            self.marks.append(at)

    def _closing_marks(self, buf: str, base: int, lo: int, hi: int) -> None:
        """Note the quotation marks of ``buf[lo:hi]``, closers of a run that
        the search passes whole (so it finds none of them), where their
        context allows (only a mark after another closer may open: callers
        skip a run of one closer)."""
        for k in range(max(lo, self._marks_to - base), hi):
            if buf[k] in self._quote_marks and self._mark_at.match(buf, k):
                self._mark(base + k)

    def finish(self) -> tuple[int, int] | None:
        start = self._start
        span = None if start is None or self._last <= start else (start, self._last)
        return span if self.layer is None else self.layer.finish(span)

    def _finder(self, buf: str, base: int) -> re.Pattern[str]:
        """The candidate search for the current chunk (see ``_AFTER``)."""
        heading = self._heading
        if heading is None:
            heading = self._heading = opens_heading(buf, self._start - base)  # type: ignore[operator]
        return self._find if heading is False else self._find_all

    def _open(self, at: int, char: str, cjk: bool = False) -> None:
        """Make the candidate at absolute offset ``at`` pending (a CJK run
        when ``char`` is a CJK terminator or ``cjk``)."""
        self._pending = self._resume = at
        self._phase = _RUN
        self._newlines = self._dots = 0
        self._bang = self._ellipsis = False
        if char in "\r\n":
            self._pending_kind = LINE_BREAK
            self._advance_content(at)
            self._run_end = self._closers_end = self._content_end
            self._phase = _SPACE
        else:
            self._pending_kind = CJK if cjk or char in _CJK_TERMINATORS else TERMINATOR

    def _advance_content(self, upto: int) -> None:
        """Record where the content before absolute offset ``upto`` ends."""
        lo = self._pos - self._base
        stripped = len(self._buf[lo : upto - self._base].rstrip())
        if stripped:
            self._content_end = self._pos + stripped

    def _trim(self, keep: int) -> None:
        """Drop the text before absolute offset ``keep``."""
        if self._heading is None and self._start is not None and self._start < keep:
            self._is_heading()
        if self._pending >= 0 and self._pending_kind == TERMINATOR:
            self._word_before(self._pending)
        self._buf = self._buf[keep - self._base :]
        self._base = keep

    # -- deciding ----------------------------------------------------------

    def _decide(self) -> tuple[int, int] | None:
        """Decide the pending candidate: ``(chunk_end, stop)``, or ``None``.

        Scans the candidate's runs from where the last delta left off and
        advances ``self._pos`` past a ruled-out candidate; raises
        ``NeedMore`` when the text that decides it has not arrived.
        """
        buf, base = self._buf, self._base
        n = len(buf)
        if self._phase == _RUN:
            lo = self._resume - base
            if self._pending_kind == CJK:
                j = _CJK_RUN.match(buf, lo).end()  # type: ignore[union-attr]
            else:
                j = _TERM_RUN.match(buf, lo).end()  # type: ignore[union-attr]
                part = buf[lo:j]
                self._dots += part.count(".")
                if part.strip(".\u2026"):  # "!", "?", "‽" or another script's
                    self._bang = True
                if "\u2026" in part:
                    self._ellipsis = True
            self._resume = base + j
            if j == n:
                raise NeedMore
            self._run_end = self._resume
            self._phase = _CLOSE
        if self._phase == _CLOSE:
            lo = self._resume - base
            closers = _CJK_CLOSER_RUN if self._pending_kind == CJK else _CLOSER_RUN
            j = closers.match(buf, lo).end()  # type: ignore[union-attr]
            if self._quote_marks and j > lo:
                self._closing_marks(buf, base, lo, j)
            self._resume = base + j
            if j == n or (
                self._pending_kind == TERMINATOR
                and _PARTIAL.get(buf[j], _PARTIAL_SPACED).match(buf, j)
            ):
                raise NeedMore
            self._closers_end = self._resume
            self._phase = _SPACE
        if self._phase == _SPACE:
            lo = self._resume - base
            j = _WS_RUN.match(buf, lo).end()  # type: ignore[union-attr]
            held = j == n and j > lo and buf[j - 1] == "\r"
            if held:
                j -= 1  # (a "\n" may follow it: scanned with it)
            if j > lo:
                breaks = line_breaks(buf, lo, j)
                if breaks and not self._newlines:
                    # Read now: the text before the break may be dropped.
                    self._wraps_before(self._pending, base + lo)
                self._newlines += breaks
            self._resume = base + j
            if j == n or held:
                raise NeedMore
            self._space_end = self._resume
            self._phase = _DECIDE
        kind = self._pending_kind
        closers_end, space_end = self._closers_end, self._space_end
        if self._ends(
            kind,
            self._pending,
            self._run_end,
            closers_end,
            space_end,
            self._newlines,
            self._bang,
            self._ellipsis or self._dots > 1,
        ):
            return (closers_end, space_end)
        self._pos = space_end
        if kind != LINE_BREAK and space_end > closers_end:
            self._content_end = closers_end
        return None
