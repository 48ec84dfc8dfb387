# ruff: noqa: RUF002
# (The docstring shows the quotation marks of several languages.)
"""Quotations: a sentence end inside a quotation ends no chunk.

``"Dear me! How late it is!" she said.`` is one sentence to a reader, and
``'Well?' he asked. 'Shall we?'`` two.  :class:`QuotationLayer` takes the
cuts of the sentence scanner (:mod:`.scanner`), whose rules see one candidate
at a time, and joins each cut that falls inside a quotation to the chunk after
it.

The rule, as data (:data:`~.marks.QUOTE_PAIRS` and the context sets of
:mod:`.marks`):

* an *opening* mark opens a quotation when what precedes it may begin one
  (the start of the text, whitespace, an opening bracket, a dash, another
  quotation mark, ``*`` or ``_``: :data:`~.marks.QUOTE_OPEN_AFTER`) and
  something other than whitespace follows (``"Stop`` and ``'Well``, not the
  ``"`` of ``6 3/4" pipe`` nor the apostrophe of ``don't``), and for a single
  mark no digit nor an elided word (the apostrophes of ``the '90s``,
  ``'til dawn`` and Dutch ``'s avonds``: ``ELIDED_WORDS``); a guillemet may
  be followed by a space (``« Bonjour »``); CJK brackets (``「`` ``『``) open
  anywhere;
* a *closing* mark of the open quotation (``"`` for ``"``, ``”`` for ``“``,
  ``“`` or ``”`` for ``„``, ``»`` for ``«``, ``«`` for ``»``, ``'`` for
  ``'``, ``’`` for ``‘``...) closes it when it follows something other than
  whitespace (a guillemet may follow a space) and no letter or digit follows
  it (so ``they'll`` and ``l’homme`` close nothing) but a kana, an ideograph
  or a Hangul syllable (``“来。”然后``, Korean ``"좋아"라고``:
  :data:`~.marks.QUOTE_CLOSED_BEFORE`); CJK brackets close anywhere.  A
  mark that closes an open quotation opens none;
* a cut whose chunk ends after an opening mark (at ``o``) and at or before its
  closing mark (at ``c``, ``c - o <= QUOTE_MAX``) is *inside* the quotation:
  it is joined to the next chunk.  The latest opening mark of each kind counts;
* a quotation never spans a line break (a line break closes every open one
  without a closing mark, and a cut it makes is never joined), nor more than
  :data:`QUOTE_MAX` characters (a mark further from its closer, such as a
  stray ``'tis``, is no quotation).

Streaming: a cut after an opening mark of a quotation still open is withheld
until its closing mark, a line break, or ``QUOTE_MAX`` characters after the
mark arrive (the release of such sentences waits that long at most).  At the
end of the text, the cuts still withheld are part of the final fragment (the
contract's ``flush`` returns one fragment).  The marks are read as a cut
needs them (or once the scanner, which keeps the text not read, finds more
than ``KEEP_MAX`` characters of it and sets ``layer_due``), and kept as
*episodes* (one quotation: its opening marks, where it ended and whether a
closing mark ended it) back to the end of the first cut not yet released, so
that a cut is judged by the quotations open where it ends whenever the inner
scanner reports it.  All of this is a function of the text alone, so chunks
still do not depend on how the stream was sliced.

Cost: while no quotation is open, only a mark that may open one can change
anything, and only where it does not open a quiet one (:func:`_quiet`).  The
sentence scanner's own search finds exactly those (:data:`QUOTE_LEADS`,
in the same pass as its candidates, so the text costs no second scan) and
lists their offsets, the last one only once a cut needs it or the next is
found (:meth:`~.scanner.SentenceScanner.settle`: in a stream, most are found
before their quiet quotation's closing mark arrives, and are dropped then);
this layer reads from each of them, and while a
quotation is open it searches the text for its closing mark and line breaks.
A delta without such a mark costs O(1) here; reading costs O(the
characters of the quotations read) in C plus O(1) a mark, and a cut
O(the episodes since the previous cut): amortised O(len(delta)).  The text is the
scanner's own window, which it keeps from the first mark not read (about
``KEEP_MAX`` characters back at most while no cut waits) or from the first
character not read while a quotation is open or a cut is withheld.  Memory: that text,
and the episodes since the first cut not yet released, each holding the
opening marks of its last ``QUOTE_MAX`` characters.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable
from operator import itemgetter
from typing import cast
from weakref import ref

from ..base import Cut
from .abbreviations import ELIDED_WORDS
from .fast_path import PERIOD_PASSED, any_but, one_of
from .marks import (
    BRACKET_QUOTES,
    CJK_CLOSERS,
    CJK_TERMINATORS,
    CLOSERS,
    EMPHASIS,
    QUOTE_CLOSED_BEFORE,
    QUOTE_OPEN_AFTER,
    QUOTE_PAIRS,
    SPACED_CLOSERS,
    SPACED_QUOTES,
    TERMINATORS,
)
from .scanner import KEEP_ALL, SentenceScanner

__all__ = ["QUOTE_LEADS", "QUOTE_MAX", "QuotationLayer"]

#: The longest quotation, in characters from its opening mark to its closing
#: mark, whose sentences are kept together (also the longest a cut is withheld
#: waiting for a closing mark).
QUOTE_MAX = 600

_CLOSES = {opener: frozenset(closers) for opener, closers in QUOTE_PAIRS.items()}
# Each closing mark -> the opening marks it closes (in the table's order).
_CLOSED_BY = {
    closer: tuple(o for o, closers in QUOTE_PAIRS.items() if closer in closers)
    for closer in "".join(QUOTE_PAIRS.values())
}
_ALL_MARKS = "".join(sorted(set(_CLOSES) | set(_CLOSED_BY)))
_SPACED = re.escape(SPACED_QUOTES)
_BRACKETS = re.escape(BRACKET_QUOTES)
_PLAIN = re.escape("".join(c for c in _ALL_MARKS if c not in SPACED_QUOTES + BRACKET_QUOTES))
# A single quotation mark before a digit or an elided word opens nothing: it
# is an apostrophe (``the '90s``, ``class of '23``, ``'til dawn``).  The word
# must end before the text does (what the layer reads: see _decided_to).
_APOSTROPHE = f"(?!(?<=['\u2018])(?:\\d|{one_of(ELIDED_WORDS)}(?=\\W)))"
# How far after a mark its context reads: an elided word and the character after it.
_AHEAD = max(map(len, ELIDED_WORDS)) + 1
# What may follow a single mark at the end of the text read so far while an
# elided word may still come: each beginning of one (each word whole, too).
_ELIDED_SO_FAR = frozenset(word[:k] for word in ELIDED_WORDS for k in range(1, len(word) + 1))
# A mark after a character that lets none open: neither whitespace nor one of
# QUOTE_OPEN_AFTER (read in a lookbehind; a negative one lets the start of the
# text count as whitespace).
_SHUT = f"[^\\s{re.escape(QUOTE_OPEN_AFTER)}]."
# What precedes a mark that may open, and what follows it.
_MAY_OPEN = f"(?<!{_SHUT}){_APOSTROPHE}"
_OPENS_NOT = f"(?<={_SHUT})"  # (the converse)
# A mark that what precedes it lets open (the start of the window counts: what
# precedes the window is not kept).
_MAY_OPEN_AT = re.compile(f".(?<!{_SHUT})")
_MAY_CLOSE = "(?<!\\s.)"  # (a spaced guillemet may follow whitespace)
# A spaced closer (``»``) before whitespace closes (``« Viens. » Puis``: the
# sentence scanner reads it as a closer of the run) and opens nothing.
_NOT_SPACED_CLOSER = f"(?!(?<=[{re.escape(SPACED_CLOSERS)}])\\s)"
# No letter or digit follows (not the ' of "don't"), but one of a script
# written without spaces (``“来。”然后``) or a Korean particle (``"좋아"라고``) may.
_ENDS_WORD = f"(?![^\\W{QUOTE_CLOSED_BEFORE}])"
# What a match means, by its last group: a quiet quotation (below), or a mark
# that may open, close, or both; a line break (no group).
_LINE, _OPENS, _CLOSES_ONE, _BOTH, _QUIET = range(5)
_KINDS = (_LINE, _QUIET, _BOTH, _OPENS, _CLOSES_ONE, _BOTH, _OPENS, _CLOSES_ONE, _BOTH)
# The content of a quiet quotation (below): characters that are no mark, no
# terminator, no line break and no ")" (none of them begins a candidate),
# apostrophes between letters, and periods that end nothing.
_STOPS = _ALL_MARKS + TERMINATORS + CJK_TERMINATORS + "\n\r)"
_BARE = f"[^{re.escape(_STOPS)}]"
_BARE_LATIN1 = any_but(_STOPS)  # (the same below U+0100, tested faster)
_INNER_APOSTROPHE = "['\u2019](?<=\\w.)(?=\\w)"
# What may precede the opening mark of a quiet quotation, besides whitespace
# and the start of the text: what may precede a mark that opens, but for
# marks, terminators and closers other than emphasis (``**"Yes"**``,
# ``("Yes")``; a mark in the closers of a terminator is never searched: the
# terminator's candidate is decided first, and the search goes on after them).
_QUIET_AFTER = "".join(
    c for c in QUOTE_OPEN_AFTER if c not in _ALL_MARKS + TERMINATORS + CLOSERS or c in EMPHASIS
)


def _quiet(opener: str, closers: str) -> str:
    """After the opening mark ``opener`` (where it may open): a *quiet*
    quotation, which no chunk can end inside: characters holding no mark (an
    apostrophe between letters aside), no line break, no ``)`` (an inline
    list item) and no terminator but periods that end nothing (``3.14``,
    ``No. change``: :data:`.fast_path.PERIOD_PASSED`) and those right before
    its closing mark, then that mark where it may close; its opening mark
    follows whitespace or one of ``_QUIET_AFTER``, or starts the text.  Read
    while no quotation is open, and no longer than ``QUOTE_MAX`` (checked by
    the reader), it changes nothing, so it is skipped whole.  (Each character
    is read by at most one attempt: the content stops at the next mark.)"""
    # Terminators only right before a closing mark that the rules read as one
    # of their closers (so the chunk ends after it): Latin terminators before
    # a Latin closer, CJK ones before a CJK closer.
    if opener in BRACKET_QUOTES:
        stops, joined = CJK_TERMINATORS, CJK_CLOSERS
    else:
        stops, joined = TERMINATORS, CLOSERS
    ends = f"[{re.escape(stops)}]*+" if set(closers) <= set(joined) else ""
    # (The content, possessive; then those terminators and the closing mark.)
    # (Runs of Latin-1 first, in a faster class: see any_but.  Then the
    # alternatives that begin with a character test, which the regex engine
    # skips at once where that character is not: each ends the run.)
    content = (
        f"{_BARE_LATIN1}*+(?:(?:{PERIOD_PASSED}|{_INNER_APOSTROPHE}|{_BARE}++)"
        f"{_BARE_LATIN1}*+)*+{ends}"
    )
    # (Not after a terminator or a closer: a mark right after one may end the
    # chunk before it, as a closer of its run; but after emphasis, which
    # follows no terminator where this is searched: see _QUIET_AFTER.)
    start = f"(?<={re.escape(opener)})(?<![^\\s{re.escape(_QUIET_AFTER)}].){_APOSTROPHE}"
    if opener in BRACKET_QUOTES:
        return f"{start}{content}[{closers}]"
    if opener in SPACED_QUOTES:
        return f"{start}{_NOT_SPACED_CLOSER}{content}[{re.escape(closers)}]{_ENDS_WORD}"
    return f"{start}(?=\\S){content}[{re.escape(closers)}]{_MAY_CLOSE}{_ENDS_WORD}"


def _searched(extra: str, quiet: bool) -> re.Pattern[str]:
    """The marks that may open or close where they stand (the rule of the
    module docstring, tested in C: an apostrophe between two letters is not
    even found), and the characters of ``extra`` (found whatever surrounds
    them); with ``quiet``, a quiet quotation (:func:`_quiet`) first.  One
    leading character class, then a branch chosen by what it matched: the
    regex engine skips ordinary text in C."""
    plain = (
        f"(?<=[{_PLAIN}])(?:(){_MAY_OPEN}(?=\\S){_MAY_CLOSE}{_ENDS_WORD}"
        f"|(){_MAY_OPEN}(?=\\S)|(){_MAY_CLOSE}{_ENDS_WORD})"
    )
    opens = _MAY_OPEN + _NOT_SPACED_CLOSER
    spaced = f"(?<=[{_SPACED}])(?:(){opens}{_ENDS_WORD}|(){opens}|(){_ENDS_WORD})"
    quiets = "|".join(_quiet(o, c) for o, c in QUOTE_PAIRS.items()) if quiet else "(?!)"
    others = f"|(?<=[{extra}])" if extra else ""
    return re.compile(
        f"[{_PLAIN}{_SPACED}{_BRACKETS}{extra}]"
        f"(?:(?:{quiets})()|{plain}|{spaced}|(?<=[{_BRACKETS}])(){others})"
    )


#: The marks that may open a quotation, each with the context it needs
#: (a regex after the mark), for the scanner's searches: the character before
#: as in ``_MAY_OPEN``, and for a mark other than a guillemet or a CJK
#: bracket something other than whitespace after, or the end of the window.
#: A quiet quotation (see :func:`_quiet`) is no lead: read while none is
#: open, it changes nothing, so the search passes it.  (Its closing mark,
#: which must be followed by some character, must not be one that may open
#: a quotation itself, after whitespace or one of ``QUOTE_OPEN_AFTER``: then
#: it too would be a lead.)
QUOTE_LEADS = tuple(
    (
        c,
        (
            ""
            if c in BRACKET_QUOTES
            else _MAY_OPEN + (_NOT_SPACED_CLOSER if c in SPACED_QUOTES else "(?!\\s)")
        )
        + f"(?!{_quiet(c, closers)}{_OPENS_NOT}(?=[\\s\\S]))",
    )
    for c, closers in sorted(QUOTE_PAIRS.items())
)

_WINDOW, _WINDOW_MAX = 64, 2 * QUOTE_MAX + 8  # (see _search)

#: What is searched while no quotation is open, and while one is (a line
#: break then closes every open one).
_IDLE = _searched("", quiet=True)
_OPEN = _searched("\\n\\r", quiet=False)
_MARK = _searched("", quiet=False)  # (a mark, without the quiet quotation)


def _search(pattern: re.Pattern[str], text: str, pos: int) -> re.Match[str] | None:
    """``pattern.search(text, pos)``, reading windows of 64 characters and
    more, doubling up to ``2 * QUOTE_MAX + 8`` (so that a search costs
    O(the distance to its match), and reading n marks O(n), not
    O(n * len(text))).

    A match whose last lookahead would reach the window's end is searched again
    from its start in a larger window, so no mark is judged without the
    character after it; one at the start of the largest window is a quiet
    quotation longer than ``QUOTE_MAX``, which the reader takes for its
    opening mark alone.  (A smaller window cuts a quiet quotation short: its
    opening mark is then found alone, and read as such, to the same effect.)
    """
    n = len(text)
    size = _WINDOW
    while True:
        end = pos + size
        if end >= n:
            return pattern.search(text, pos)
        m = pattern.search(text, pos, end)
        if m is None:
            pos = end - 1  # (the last character may be a mark: what follows decides)
        elif m.end() + _AHEAD < end or (m.start() == pos and size == _WINDOW_MAX):
            return m
        else:
            pos = m.start()
        size = min(2 * size, _WINDOW_MAX)


def _decided_to(text: str) -> int:
    """How far the marks of ``text`` (the text so far) can be read: to its
    last character, which what follows decides, or to a single mark near its
    end that an elided word may still follow (``'ti``: ``_APOSTROPHE``), read
    once the word has ended or turned out to be none.  O(``_AHEAD``)."""
    last = len(text) - 1
    lo = max(last - _AHEAD, 0)
    at = max(text.rfind("'", lo), text.rfind("\u2018", lo))
    if 0 <= at < last and text[at + 1 :] in _ELIDED_SO_FAR and _MAY_OPEN_AT.match(text, at):
        return at
    return last


class _Episode:
    """One quotation: the offsets of its opening marks (older ones than
    ``QUOTE_MAX`` before the text read are dropped while it is open), where
    it ended (``-1``: open) and whether a closing mark ended it there."""

    __slots__ = ("closed", "end", "first", "lo", "marks")

    def __init__(self, at: int) -> None:
        self.first = at  # its first opening mark (kept when the mark is dropped)
        self.marks = [at]  # in order; those before index ``lo`` are dropped
        self.lo = 0
        self.end = -1
        self.closed = False

    def latest_before(self, at: int) -> int:
        """The offset of its last opening mark before ``at``, or ``-1``
        (O(log marks))."""
        k = bisect_left(self.marks, at, self.lo)
        return self.marks[k - 1] if k > self.lo else -1

    def drop_before(self, at: int) -> bool:
        """Drop the marks before offset ``at``; whether any is left."""
        marks, lo = self.marks, self.lo
        while lo < len(marks) and marks[lo] < at:
            lo += 1
        if lo > 64 and 2 * lo > len(marks):
            del marks[:lo]  # (amortised O(1) a mark)
            lo = 0
        self.lo = lo
        return lo < len(marks)


_INSIDE, _OUTSIDE, _WAIT = range(3)
_COMPACT = 32  # fewest episodes kept before ended ones are dropped in one pass
_NEVER = 1 << 62
_END = itemgetter(1)  # a cut's end
_MARK_OR_BREAK = re.compile(f"[{re.escape(_ALL_MARKS)}\\n\\r]")


class QuotationLayer:
    """The cuts of ``source``, a sentence scanner, with those inside a
    quotation joined to the next (the rule of the module docstring): the
    layer attaches itself (:meth:`SentenceScanner.attach`), so the scanner
    returns its cuts through :meth:`take_cuts`, and its final fragment through
    :meth:`finish`, extended back over the cuts still withheld.  A delta that
    neither cuts nor needs a reading costs the layer nothing (not even a call).

    ``source`` is built to find the marks that may open a quotation
    (``quote_leads=QUOTE_LEADS``): its search finds them as it finds
    candidates, so they cost no pass of their own.  Its ``marks`` are read
    up to ``marks_known_to()``, in its ``window()``, which it keeps from
    ``keep_from`` on (set here); while a cut is withheld, the text after
    that (the scanner's lookahead) is searched here, so that a cut is judged
    as soon as the text decides it."""

    __slots__ = (
        "_carry", "_checked_to", "_compact_at", "_episodes", "_expired_to", "_expiry", "_held",
        "_last_stop", "_marks", "_open", "_read_to", "_scanner", "_waits_on",
    )  # fmt: skip

    def __init__(self, source: SentenceScanner) -> None:
        # A weak reference: the scanner holds this layer, and a reference
        # cycle would leave both to the garbage collector after each stream
        # (a short text split left one each).  It is alive whenever the
        # scanner calls the layer.
        self._scanner = cast("Callable[[], SentenceScanner]", ref(source))
        self._marks = source.marks  # (the scanner appends, this layer takes)
        # The offset of the first character not read (its text is the
        # scanner's window, kept from the character before it while a
        # quotation is open or a cut is held, and from the character before
        # the first mark listed otherwise; see keep).
        self._read_to = 0
        self._checked_to = 0  # (no mark nor line break before this, from _read_to)
        # How far the open quotations have expired: past _read_to while a mark
        # is left unread (see _expire_past_unread).
        self._expired_to = 0
        self._open: dict[str, _Episode] = {}  # opening mark -> its open episode
        self._expiry = _NEVER  # no open episode drops a mark before this offset
        self._episodes: deque[_Episode] = deque()  # in order of their first mark
        self._compact_at = _COMPACT
        self._held: list[Cut] = []  # the inner cuts not yet released
        # The open episode and mark the first held cut waits for, once judged.
        self._waits_on: tuple[_Episode, int] | None = None
        self._carry = -1  # start of the chunk joined to the next cut, or -1
        self._last_stop = 0  # stop of the last inner cut
        source.attach(self)

    def take_cuts(self, cuts: list[Cut]) -> list[Cut]:
        """The cuts to return for the scanner's ``cuts`` of one delta (see
        the class docstring); the scanner calls this only when the layer
        takes them (a cut held, a quotation being judged, or a mark found
        since the last reading) or the text not read grows long (the marks
        are read when a cut needs them, or then)."""
        source = self._scanner()
        if cuts and not self._held and not self._episodes and self._carry < 0:
            # The usual cut: no quotation to judge it by unless a mark was
            # found since the last reading.
            self._last_stop = cuts[-1].stop
            end = cuts[-1].end
            marks = self._marks
            if not marks:
                if not 0 <= source.undecided < end:
                    source.layer_due = False
                    source.layer_cuts = source.undecided >= 0
                    return cuts
                source.settle()
                if not marks:
                    # A quiet quotation: nothing to read, nor to keep for.
                    source.keep_from = KEEP_ALL
                    source.layer_due = source.layer_cuts = False
                    return cuts
            out = self._read_for(cuts, end)
        else:
            out = self._take_cuts(cuts)
        source.layer_due = bool(self._held)
        source.layer_cuts = (
            bool(self._held or self._episodes or self._marks)
            or self._carry >= 0
            or source.undecided >= 0
        )
        return out

    def _read_for(self, cuts: list[Cut], end: int) -> list[Cut]:
        """``cuts``, the last ending at ``end``, with no cut held nor
        quotation pending before them: read the marks they need."""
        self._read(end)
        if not self._episodes and self._read_to >= end:
            self.keep()
            return cuts  # (only quiet quotations: no cut is inside one)
        self._held.extend(cuts)
        return self._release_all()

    def _take_cuts(self, cuts: list[Cut]) -> list[Cut]:
        if cuts:
            self._held.extend(cuts)
            self._last_stop = cuts[-1].stop
        waits = self._waits_on
        if waits is not None and waits[0].end < 0 and self._unchanged(waits[1]):
            # The first cut held waits for a quotation to end: with no mark
            # and no line break since, nothing can end it yet.
            return []
        self._read(self._held[-1].end if self._held else _NEVER)
        if not self._held:
            self.keep()
            return cuts
        return self._release_all()

    def _unchanged(self, mark: int) -> bool:
        """Whether the text not read holds no mark and no line break (what
        could end a quotation) and ends no more than ``QUOTE_MAX``
        characters after the opening mark at ``mark``: O(the text not
        checked before)."""
        source = self._scanner()
        text, base = source.window()
        total = base + len(text)
        if total - mark > QUOTE_MAX:
            return False
        if _MARK_OR_BREAK.search(text, max(self._checked_to, self._read_to) - base) is not None:
            return False
        self._checked_to = total
        # (The text checked holds nothing to read: the scanner may drop it,
        # but for its last character, which what follows may need.)
        source.keep_from = total - 1
        return True

    def finish(self, span: tuple[int, int] | None) -> tuple[int, int] | None:
        """The scanner's final fragment ``span``, extended back over the cuts
        still withheld."""
        if not self._held and self._carry < 0:
            return span
        start = self._carry if self._carry >= 0 else self._held[0].start
        end = span[1] if span else self._held[-1].end
        return (start, end)

    # -- reading the marks -------------------------------------------------

    def keep(self) -> None:
        """Tell the scanner which of its text the next reading needs: from the
        character before the first one not read while a quotation is open or
        a cut is held, else from the one before the first mark listed; and
        from the one before its ``undecided`` mark (the scanner lowers this as
        it finds marks).  Called after the last reading of a delta, and by
        the scanner when it settles a mark."""
        source = self._scanner()
        if self._open or self._held:
            keep = self._read_to - 1
        elif self._marks:
            keep = self._marks[0] - 1
        else:
            keep = KEEP_ALL
        if 0 <= source.undecided <= keep:
            keep = source.undecided - 1
        source.keep_from = keep

    def _read(self, upto: int) -> None:
        """Read the marks before ``upto``, before ``marks_known_to()`` of
        the scanner and before the last character: while no quotation is
        open, only where the scanner found a mark that may open one (nothing
        else can change what is open); O(1) a cut when there is none.
        (Reading no further than a cut needs lets a quotation that opens
        after it be read whole, once its closing mark has arrived.)"""
        source = self._scanner()
        if 0 <= source.undecided < upto:
            source.settle()
        text, base = source.window()
        last = min(source.marks_known_to(), base + len(text) - 1, upto)
        limit = min(last, base + _decided_to(text))
        read_to = self._read_to
        marks = self._marks
        if marks and marks[0] < read_to:
            del marks[: bisect_left(marks, read_to)]  # (read by _read_ahead)
        if limit > read_to:
            if (marks and marks[0] < limit) or self._open:
                k = bisect_left(marks, limit)
                # (Text before the window held no mark to read: see keep.)
                self._read_from(text, base, max(read_to, base) - base, limit - base, marks[:k])
                del marks[:k]
            elif limit > self._expiry:
                self._expire(limit)
            self._read_to = limit
        if last > limit:
            self._expire_past_unread(last)

    def _read_ahead(self) -> None:
        """Read on to the last character, past what the scanner has searched
        (a candidate there waits for more text), so that a withheld cut is
        judged as soon as the text decides it."""
        text, base = self._scanner().window()
        limit = _decided_to(text)
        start = self._read_to - base
        if start < 1 and base > 0:
            # (The text before the window, and its first character, whose
            # context is gone, held no mark the scanner had not listed.)
            start = 1
        if limit > start:
            self._read_from(text, base, start, limit, None)
            self._read_to = base + limit
        if len(text) - 1 > limit:
            self._expire_past_unread(base + len(text) - 1)

    def _expire_past_unread(self, last: int) -> None:
        """Expire the open quotations up to ``last``, past a mark left unread
        before it (see ``_decided_to``): a letter follows that mark, so it
        closes nothing, and the rest of the text up to ``last`` holds no mark."""
        self._expired_to = last
        if last > self._expiry:
            self._expire(last)

    def _read_from(
        self, text: str, base: int, pos: int, limit: int, leads: list[int] | None
    ) -> None:
        """Read the marks of ``text`` (at offset ``base`` of the stream) from
        ``pos`` to ``limit``.  While no quotation is open, the next mark that
        may open one is the next offset of ``leads`` (the scanner's), or, when
        ``leads`` is None, the next one searched."""
        opened = self._open
        i = 0
        while True:
            if opened:
                m = _search(_OPEN, text, pos)
            elif leads is None:
                m = _search(_IDLE, text, pos)
            else:
                while i < len(leads) and leads[i] - base < pos:
                    i += 1
                if i == len(leads):
                    break
                at = leads[i] - base
                i += 1
                # (Read no further than the next lead, which a quiet
                # quotation's closing mark comes before: a window cut short
                # makes the opening mark read alone, to the same effect.)
                following = leads[i] - base if i < len(leads) else limit
                m = _IDLE.match(
                    text, at, max(at + 2 + _AHEAD, min(following + 2, at + _WINDOW_MAX))
                )
                if m is None:
                    continue  # (no mark that opens after all)
            if m is None:
                break
            at = m.start()
            if at >= limit:
                break
            pos = at + 1
            offset = base + at
            if offset > self._expiry:
                self._expire(offset)
            kind = _KINDS[m.lastindex or 0]
            if kind == _QUIET:
                end = m.end()
                if end <= limit and end - at <= QUOTE_MAX + 1:
                    pos = end
                    continue
                # (Its closing mark is the last character, which what follows
                # decides, or it is too far: read the opening mark alone.)
                m = _MARK.match(text, at)
                assert m is not None
                kind = _KINDS[m.lastindex or 0]
            if kind == _LINE:
                self._line_break(offset)
            else:
                self._take(kind, text[at], offset)
        if limit > 0 and base + limit > self._expiry:
            self._expire(base + limit)

    def _line_break(self, offset: int) -> None:
        """A line break at ``offset`` ends every open quotation."""
        for episode in self._open.values():
            episode.end = offset
        self._open.clear()

    def _take(self, kind: int, mark: str, offset: int) -> None:
        """Take the mark ``mark`` at ``offset``, which may open, close or do
        both (``kind``): it closes the open quotation it closes, if any,
        else it opens one (or adds an opening mark to the open one of its
        kind)."""
        opened = self._open
        if kind != _OPENS and opened:
            for opener in _CLOSED_BY.get(mark, ()):
                ended = opened.pop(opener, None)
                if ended is not None:
                    ended.end = offset
                    ended.closed = True
                    return  # (a mark that closes one opens none)
        if kind != _CLOSES_ONE and mark in _CLOSES:
            current = opened.get(mark)
            if current is not None:
                current.marks.append(offset)
            else:
                opened[mark] = current = _Episode(offset)
                self._episodes.append(current)
                if offset + QUOTE_MAX < self._expiry:
                    self._expiry = offset + QUOTE_MAX

    def _expire(self, at: int) -> None:
        """Drop the opening marks that a closing mark at ``at`` or later would
        be too far from; an episode left with none ends there."""
        expiry = _NEVER
        for opener, episode in list(self._open.items()):
            if not episode.drop_before(at - QUOTE_MAX):
                episode.end = at
                del self._open[opener]
            elif episode.marks[episode.lo] + QUOTE_MAX < expiry:
                expiry = episode.marks[episode.lo] + QUOTE_MAX
        self._expiry = expiry

    # -- releasing ---------------------------------------------------------

    def _judge(self, end: int) -> int:
        """Whether a cut whose chunk ends at ``end`` is inside a quotation,
        outside every one, or must wait (noting what it waits for)."""
        read_to = self._read_to
        if end > read_to:
            return _WAIT
        # (How far the text has been seen: read, or expired past a mark left unread.)
        seen = max(read_to, self._expired_to)
        waits = self._waits_on
        if waits is not None and waits[0].end < 0 and seen - waits[1] <= QUOTE_MAX:
            return _WAIT
        self._waits_on = None
        for episode in self._episodes:
            if episode.first >= end:
                break  # (this one and the later ones open after the chunk ends)
            if 0 <= episode.end < end:
                continue
            mark = episode.latest_before(end)
            if mark < 0:
                continue
            if episode.end < 0:
                if seen - mark <= QUOTE_MAX:
                    self._waits_on = (episode, mark)
            elif episode.closed and episode.end - mark <= QUOTE_MAX:
                self._waits_on = None
                return _INSIDE
        return _OUTSIDE if self._waits_on is None else _WAIT

    def _release_all(self) -> list[Cut]:
        """``_release``; then, while a cut is still withheld, the same after
        reading on past what the scanner has searched (when that reads
        anything: nothing else changes what ``_release`` decides)."""
        out = self._release()
        if self._held:
            # (A reading may advance what is read, or only expire quotations:
            # either changes the expiry or what is read.)
            before = (self._read_to, self._expiry)
            self._read(_NEVER)
            if (self._read_to, self._expiry) != before:
                out += self._release()
            if self._held:
                before = (self._read_to, self._expiry)
                self._read_ahead()
                if (self._read_to, self._expiry) != before:
                    out += self._release()
        self.keep()
        return out

    def _release(self) -> list[Cut]:
        """The held cuts decided so far, in order, those inside a quotation
        joined to the next; then forget the episodes no cut can be in.  The
        cuts that end before the next episode's first mark go out in one
        slice."""
        held = self._held
        episodes = self._episodes
        read_to = self._read_to
        out: list[Cut] = []
        i, n = 0, len(held)
        while i < n:
            cut = held[i]
            end = cut.end
            while episodes and 0 <= episodes[0].end < end:
                episodes.popleft()  # (ended before any chunk left can end)
            bound = read_to if not episodes or episodes[0].first > read_to else episodes[0].first
            if end <= bound:
                # No quotation opens before these cuts end: they stand.
                j = bisect_right(held, bound, i + 1, n, key=_END)
                if self._carry >= 0:
                    out.append(Cut(self._carry, end, cut.stop))
                    self._carry = -1
                    i += 1
                out += held[i:j]
                i = j
                continue
            verdict = self._judge(end)
            if verdict == _WAIT:
                break
            i += 1
            self._waits_on = None
            if verdict == _INSIDE:
                if self._carry < 0:
                    self._carry = cut.start
                continue
            if self._carry >= 0:
                cut = Cut(self._carry, end, cut.stop)
                self._carry = -1
            out.append(cut)
        del held[:i]
        frontier = held[0].end if held else self._last_stop
        while episodes and 0 <= episodes[0].end < frontier:
            episodes.popleft()
        if len(episodes) > self._compact_at:
            # Ended episodes behind one still open: dropped in one pass when
            # they have doubled in number (amortised O(1) each).
            self._episodes = episodes = deque(e for e in episodes if not 0 <= e.end < frontier)
            self._compact_at = max(_COMPACT, 2 * len(episodes))
        return out
