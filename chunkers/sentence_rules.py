r"""The incremental scanner behind ``SentenceChunker(mode="accurate")``.

Candidates and the rules that decide them
-----------------------------------------
A *candidate* is a run of terminators (``.``, ``!``, ``?``, ``…``, ``‽`` and
the terminators of other scripts, ``SCRIPT_TERMINATORS`` of
:mod:`.sentence_languages`, in any mix), a run of CJK terminators (``。`` and
the full-width and half-width forms of ``!``, ``?``, ``.``), or a line break.
After a terminator run come optional closers (quotes, the German and Danish
closing quotes ``“`` and ``«`` included, ``)``, ``]``, footnote marks such
as ``[12]``) and then whitespace; the chunk ends after the closers and the
whitespace travels with it (``Cut.stop``).  The language
(:mod:`.sentence_languages`) supplies the abbreviations, the sentence
starters and the ordinal rule below.

* A CJK terminator run ends a sentence, no whitespace needed, unless it is a
  full-width ``.`` between digits (a decimal point), a title mark closes it
  (``《...》``), or a quotation mark closes it right before a kana
  (``「...。」と``).
* Any other terminator run needs whitespace after it (``3.14``, ``v1.2.3``,
  ``example.com``, ``a.b@c.org``, ``https://x.y/z.html`` and ``Y!J`` never split).
* A blank line always ends a sentence.  A single line break does when the next
  line starts with a list marker: a bullet (``-``, ``*``, ``+``, ``•``...),
  ``12.``, ``12)``, ``b.``, ``b)``, ``(iv)``, or a Markdown heading ``#``; and
  it ends a chunk that opens with a Markdown heading marker (``## Usage``).
* Otherwise the next token decides (opening quotes, brackets and dashes before
  it are skipped).  A next token starting with ``.`` continues a spaced
  ellipsis (``. . .``); one starting with a lower-case letter never starts a
  sentence (``Yahoo! and``, ``e.g. a hat``, ``-- voila! -- you``) unless it is
  a list marker (``world. (b) Next``, ``done. a. more``), which counts as a
  capitalised word that is not a sentence starter, and is not a dash
  (``Stop! - he said``).  A ``...`` or ``…`` inside brackets (``[...]``) is
  an elision and never ends it.
* A ``.`` that ends the marker of an inline list item (``2.`` or ``b.)``
  after a space, an optional bullet before it) in a chunk that opens with the
  previous marker of the same form (``1. One 2. Two``) ends the chunk before
  that marker.
* A run holding ``!``, ``?``, ``‽`` or another script's terminator (``?!``,
  ``!!!``, ``।``), or any run followed by
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
  - a word of one to three letters before a number is a label
    (``Rs. 500``, ``Gr. 5``, ``N°. 5``) and does not end it;
  - a number of one or two digits before a capitalised word is an ordinal
    that does not end it, always in languages that write ordinals so
    (``language="de"``: ``der 3. Platz``) and before a month name in every
    language (``am 12. Juni``);
  - any other word (``600``, ``3.14``, ``example.com``) ends the sentence
    unless a lower-case word follows.

Known limits (by design, measured in ``benchmarks/sentence_accuracy.py``):
sentences inside quoted dialogue are split at their own terminators; inline
list items without a period (``a) one b) two``) are not split, nor a
sentence glued to the next (``world.Today``); a lower-case word never starts a
sentence (``Use npm. npm is great.`` stays whole, so that ``e.g. a hat``
does); a name after
a ``MEDIAL`` abbreviation that ends its sentence stays joined (``Acme Inc. Bob
left``); a capitalised word after ``a.m.``/``p.m.`` always starts a sentence.

Streaming
---------
Every decision is a function of the text around the candidate: at most
:data:`LOOKBEHIND` characters before it (the word, a bullet, the chunk's first
characters), and the candidate's own runs plus at most 22 characters after
them (opening punctuation, the next word).  Until that text has arrived the
scanner withholds the candidate; at the end of the stream an undecided
candidate is simply part of the final fragment.  So the cuts never depend on
how the stream was sliced.

Cost: the common cases are settled by the regex search that finds the
candidate (see ``_searches``; ``tests/chunkers/test_sentence_fast_paths.py`` checks them
against the rules), including a terminator or line break near the end of the
window that the text so far cannot decide (a "wait" group: it is left to the
next delta); the others are decided by the rules above in Python.  A delta
with nothing to decide costs one search and a few assignments.  A candidate
still undecided within ``_DEFER`` characters of the end of the window is
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

import itertools
import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from .abbreviations import FINAL, MEDIAL, PREFIX, SENTENCE_STARTERS
from .base import Cut, Scanner
from .sentence_languages import MONTHS, ORDINAL_ALWAYS, ORDINAL_MONTHS, SCRIPT_TERMINATORS

__all__ = ["LOOKBEHIND", "SentenceScanner"]

#: Characters kept before the scan position (the longest word inspected, plus
#: a bullet before a list marker).
LOOKBEHIND = 40
_WORD_MAX = 32  # a longer word before a period is a plain word
_SKIP_MAX = 8  # opening punctuation skipped before the next token
_STARTER_MAX = 12  # longer than the longest sentence starter
_PIECE = 1 << 20  # longest text scanned in one step (bounds the window)
_LONG = 4096  # a longer delta may be searched with the narrow searches
_SLACK = 64  # the window is trimmed once this much of it can go
# A candidate undecided within this many characters of the end of the window
# is decided again from scratch by the next delta (cheaper than resuming; at
# least 2, see _decide_all).
_DEFER = 32

# Terminators of other scripts end a sentence as "!" does (see .sentence_languages).
_SCRIPT = SCRIPT_TERMINATORS
_ASCII_TERMS = frozenset(".!?\u2026\u203d" + _SCRIPT)
_CJK_TERMS = frozenset("\u3002\uff01\uff1f\uff0e\uff61")
# What may follow a single line break that cannot open a list marker.
_GOES_ON = "[A-HJ-UWYZa-hj-uwyz][^.)]|[ivxIVX][^.)ivxIVX]|[`\"'<>=/\\\\|@$%&~^:;,!?.{}\\[\\])_]"
# A candidate (the searches are built by ``_searches``): a terminator not
# followed by a character that rules it out (``3.14``, ``U.S``), a CJK
# terminator, or a line break.  One leading character class keeps the search
# on the regex engine's fast path.
# (The usual ones first: ``c in text`` is one scan in C, and none at all for a
# character wider than every one of ``text``.)
_LEADS = ".\n!?\u2026\u203d\u3002\uff01\uff1f\uff0e\uff61" + _SCRIPT
_LEAD = f"[{re.escape(_LEADS)}]"
# After a terminator other than a CJK one: what may follow a candidate.
_NEXT = f"(?![^\\s.!?\u2026\u203d{_SCRIPT}\"'\u201d\u2019\u00bb\u201c\u2018\u00ab)\\]\\[])"
_AFTER_ALL = f"(?:(?<=[\u3002\uff01\uff1f\uff0e\uff61\n])|{_NEXT})"
# The same without the line breaks that are ruled out before a line that goes
# on (usable while the chunk does not open with a Markdown heading).
_AFTER = (
    "(?:(?<=[\u3002\uff01\uff1f\uff0e\uff61])"
    f"|(?<=\n)(?!{_GOES_ON})"
    f"|(?<=[.!?\u2026\u203d{_SCRIPT}]){_NEXT})"
)
# Lower- and upper-case letters of ASCII and Latin-1 (none of them opens a
# list marker, except ASCII ones).
_LOWER_SET = "a-z\u00df-\u00f6\u00f8-\u00ff"
_UPPER_SET = "A-Z\u00c0-\u00d6\u00d8-\u00de"
_CONTENT = re.compile(r"\S")
_TERM_RUN = re.compile(f"[.!?\u2026\u203d{_SCRIPT}]*")
_CJK_RUN = re.compile("[\u3002\uff01\uff1f\uff0e\uff61!?]*")
_CLOSER_RUN = re.compile("(?:[\"'\u201d\u2019\u00bb\u201c\u2018\u00ab)\\]]|\\[\\d{1,4}\\])*")
_PARTIAL_FOOTNOTE = re.compile(r"\[\d{0,4}\Z")
_CJK_CLOSER_RUN = re.compile("[\u300d\u300f\u201d\u2019\uff09\u3011\u300b\u3009\"')\\]]*")
_WS_RUN = re.compile(r"\s*")
# The three runs after a terminator in one match (the usual case).
_TAIL = re.compile(
    f"([.!?\u2026\u203d{_SCRIPT}]*)"
    "((?:[\"'\u201d\u2019\u00bb\u201c\u2018\u00ab)\\]]|\\[\\d{1,4}\\])*)(\\s*)"
)
_DASHES = frozenset("-\u2013\u2014")
_BULLETS = frozenset("-*+\u2022\u2023\u25e6\u25aa\u25cf\u2013\u2014")
_OPENERS = frozenset("\"'\u201c\u2018\u00ab([{\u00bf\u00a1*_-\u2013\u2014 \t")
# What may follow a terminator run and its closers when the rules cannot
# decide it yet: a partial footnote mark, whitespace running to the end, or
# whitespace with at most one line break and then at most _SKIP_MAX openers
# (the rules skip them, then need the next token) or one ASCII lower-case
# letter (a list marker such as "b." or "iv)" is not ruled out yet).  Used at
# the end of the window only (the "wait" groups of ``_searches``).
_UNDECIDED_TAIL = (
    "(?:\\[\\d{0,4}|\\s*|(?=\\s)[^\\S\\n]*\n?[^\\S\\n]*"
    f"(?:[{''.join(re.escape(c) for c in sorted(_OPENERS))}]{{1,{_SKIP_MAX}}}|[a-z]))"
)
# The same after a line break (in a chunk that does not open with a heading
# marker): one character that may begin a list marker or heading.
_LINE_MARKER_START = f"[{re.escape(''.join(sorted(_BULLETS)))}#(0-9A-Za-z]"
_WORD_END = re.compile(r"(?<!\S)\S+\Z")
_WORD_OPENERS = "\"'\u201c\u2018\u00ab([{\u00bf\u00a1*_"
_DOTTED = re.compile(r"[A-Za-z]{1,2}(?:\.[A-Za-z]{1,2})+")
_LIST_MARK = re.compile(r"\d{1,3}|[A-Za-z]|[ivx]{1,5}|[IVX]{1,5}")
_HEADING = re.compile(r"#{1,6}[ \t]")
# A single line break before a character that cannot open a list marker.
_LINE_GOES_ON = re.compile(f"\n(?={_GOES_ON})")
_BULLET_LEAD = re.compile(f"[{re.escape(''.join(sorted(_BULLETS)))}]\\s+")
_NO_CUTS: list[Cut] = []
# ``_new(Cut, (start, end, stop))`` builds a cut without the Python-level
# ``__new__`` of a named tuple (about 140 ns against 320, measured).
_new = tuple.__new__

# Next-token categories.
_LOWER, _UPPER, _DIGIT, _OTHER, _MARKER = range(5)
# Candidate kinds and the phases of a pending candidate.
_TERM, _CJK, _LINE = range(3)
_RUN, _CLOSE, _SPACE, _DECIDE = range(4)


def _opens_heading(buf: str, k: int) -> bool | None:
    """Whether a chunk starting at ``buf[k]`` opens with a Markdown heading
    marker (``#`` to ``######`` and a space or tab); ``None`` while ``buf``
    ends too early to tell."""
    if buf[k] != "#":
        return False
    if _HEADING.match(buf, k):
        return True
    if len(buf) - k >= 7 or buf[k : k + 7].strip("#"):
        return False
    return None


def _nothing(text: str, pos: int) -> None:
    """The search of text known to hold no candidate."""


def _latin1(text: str) -> bool:
    """Whether ``text`` holds no character above U+00FF (fast; O(len(text)))."""
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


class _NeedMore(Exception):
    """The decision needs text that has not arrived yet."""


_GLUED_BULLETS = "\u2022\u2023\u2043\u25e6"  # may touch the marker: "\u20439."
_ITEM_BULLETS = frozenset("-*+\u2022\u2023\u2043\u25e6\u25aa\u25cf")
_ITEM_OPENING = re.compile(
    f"(?:[{re.escape(''.join(sorted(_ITEM_BULLETS)))}] ?)?(\\d{{1,3}}|[A-Za-z])(\\.\\)?)\\s"
)


def _inline_item(buf: str, base: int, at: int, chunk: int) -> tuple[int, int] | None:
    """The inline list item numbered by the marker that the period at
    absolute offset ``at`` ends (``2.`` or ``b.)`` after a space, an optional
    bullet before it: ``1. One 2. Two``, ``a.) One b.) Two``), when the chunk
    starting at ``chunk`` opens with the previous marker of the same form:
    ``(end of the chunk before it, start of its marker)``; else ``None``.
    A letter counts only before ``)`` (a bare ``b.`` is an initial).
    Reads ``buf`` from ``chunk`` to two characters after ``at``."""
    k = at - base
    i = k
    while i > 0 and k - i < 3 and "0" <= buf[i - 1] <= "9":
        i -= 1
    after = buf[k + 1 : k + 2]
    if i == k:
        if k == 0 or not (buf[k - 1].isascii() and buf[k - 1].isalpha()) or after != ")":
            return None
        i = k - 1
    mark = i
    if mark > 0 and buf[mark - 1] in _ITEM_BULLETS:
        mark -= 1
    elif mark > 1 and buf[mark - 1] == " " and buf[mark - 2] in _ITEM_BULLETS:
        mark -= 2
    if mark == 0 or not buf[mark - 1].isspace() or chunk - base < 0 or chunk - base >= mark:
        return None
    m = _ITEM_OPENING.match(buf, chunk - base, mark)
    if m is None or m.group(2) != "." + (")" if after == ")" else ""):
        return None
    previous, number = m.group(1), buf[i:k]
    if number.isdigit() != previous.isdigit():
        return None
    if number.isdigit():
        follows = int(number) == int(previous) + 1
    else:
        follows = ord(number) == ord(previous) + 1
    if not follows:
        return None
    return (base + len(buf[:mark].rstrip()), base + mark)


def _word_at(buf: str, j: int) -> str:
    """The letters from ``buf[j]`` on, or ``""`` when there are more than
    ``_STARTER_MAX`` (no sentence starter or month is so long).  Raises
    ``IndexError`` when ``buf`` ends before the word does."""
    k = j
    while buf[k].isalpha():
        k += 1
        if k - j > _STARTER_MAX:
            return ""
    return buf[j:k]


def _list_marker(peek: str, j: int) -> bool:
    """Whether a list item or heading marker starts at ``peek[j]``.

    Raises ``IndexError`` when ``peek`` ends before that is decided.
    """
    c = peek[j]
    if c in _BULLETS:
        return peek[j + 1].isspace()
    if c == "#":
        k = j
        while peek[k] == "#" and k - j < 6:
            k += 1
        return peek[k].isspace()
    if c == "(":
        k = j + 1
        while peek[k].isalnum() and k - j <= 4:
            k += 1
        return k > j + 1 and peek[k] == ")" and peek[k + 1].isspace()
    if c.isdigit():
        k = j
        while peek[k].isdigit() and k - j < 3:
            k += 1
        return peek[k] in ".)" and peek[k + 1].isspace()
    if c in "ivxIVX":
        k = j
        while peek[k] in "ivxIVX" and k - j < 5:
            k += 1
        return peek[k] in ".)" and peek[k + 1].isspace()
    if c.isascii() and c.isalpha():
        return peek[j + 1] in ".)" and peek[j + 2].isspace()
    return False


@lru_cache(maxsize=32)
def _searches(
    abbreviations: frozenset[str],
    odd_ends: bool,
    sentence_starters: frozenset[str] = SENTENCE_STARTERS,
) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The candidate searches (``_LEAD`` then ``_AFTER`` or ``_AFTER_ALL``)
    that also prove, in the same match, what the rules decide in the common
    cases; then the same two for text without characters above U+00FF, whose
    smaller set of leading characters the regex engine tests faster (about 4%
    of a scan through text without candidates, measured).

    ``abbreviations``: the abbreviations (their lower-case keys);
    ``sentence_starters``: the language's sentence starters.  A
    search finds the same candidates as ``_LEAD + _AFTER`` (``_AFTER_ALL``);
    then the kind of the named group that matched (:func:`_group_kinds`; the
    group spans the whitespace after the run) says what is proven, no group
    proving nothing (the full rules decide):

    * ``cut``: ``!``/``?`` runs, or a ``.`` followed by closers after two
      lower-case letters that are not a roman numeral (so the word is no list
      marker), or a bare ``.`` after four lower-case letters that are neither
      a roman numeral nor the last four letters of a long abbreviation
      (shorter ones cannot be the word, and no dotted form ends so), or
      (unless ``odd_ends``: some abbreviation ends with ``)``, ``]`` or a
      digit) a bare ``.`` after ``)``, ``]`` or four digits; then whitespace
      and an upper-case letter or a digit, after the opening punctuation the
      rules skip; or a bare ``.`` after whitespace and a word of two or three
      lower-case letters that is neither a roman numeral nor an abbreviation
      (``it.``, ``the.``), then whitespace and an upper-case letter after that
      punctuation (before a digit the word may be a label: ``no. 5``); or a
      bare ``.`` after a one-letter word (an initial) that a space and a
      letter precede, before a whole capitalised sentence starter;
    * ``blank``: any terminator run and closers, then whitespace holding a
      blank line;
    * ``skip`` (not a boundary): any terminator run and closers, then spaces
      or tabs and a lower-case letter that cannot open a list marker (not
      ASCII, or not ``i``, ``v`` or ``x`` and followed by something other than
      ``.`` or ``)``); or such an initial before spaces or tabs and another
      whole capitalised word of at most ``_STARTER_MAX`` letters;
    * ``line``: a line break right after content, then whitespace holding a
      blank line (the chunk ends at the line break, also when the search began
      there: the content before the search position then ends there too);
    * ``wait`` (left to the next delta): within ``_DEFER`` characters of the
      window's end, a terminator run and closers before what
      ``_UNDECIDED_TAIL`` allows, or a line break before whitespace or (in a
      chunk that does not open with a heading marker) before one character
      that may open a list marker, and nothing after: the rules would need
      text that has not arrived.

    Letters here are those of ASCII and Latin-1, whose case the regex classes
    spell out.

    Speed: the search is one alternation whose branches each begin with one
    literal terminator, so the regex engine skips ordinary text by the set of
    those literals and enters only the branch of the character it found; a
    terminator that no whitespace, terminator or closer follows (``3.14``)
    fails at once.
    """
    lower4 = re.compile(f"[{_LOWER_SET}]{{4}}")
    suffixes = sorted({w[-4:] for w in abbreviations if lower4.fullmatch(w[-4:])})
    short = [
        sorted(w for w in abbreviations if re.fullmatch(f"[{_LOWER_SET}]{{{size}}}", w))
        for size in (2, 3)
    ]
    closer = "[\"'\u201d\u2019\u00bb\u201c\u2018\u00ab)\\]]"
    # The run after its first character.
    rest = f"[.!?\u2026\u203d{_SCRIPT}]*(?:{closer}|\\[\\d{{1,4}}\\])*"
    openers = "".join(re.escape(c) for c in sorted(_OPENERS))
    numbers = itertools.count(1)

    def group(kind: str, body: str) -> str:
        return f"(?P<{kind}{next(numbers)}>{body})"

    capital = f"(?=[{openers}]{{0,{_SKIP_MAX}}}[{_UPPER_SET}0-9])"
    upper = f"(?=[{openers}]{{0,{_SKIP_MAX}}}[{_UPPER_SET}])"
    lower = f"(?=[a-hj-uwyz][^.)]|[ivx][^.)ivxIVX]|[{_LOWER_SET[3:]}])"
    marker = "(?:(?<=\n\\d\\.)|(?<=\n\\d\\d\\.)|(?<=\n\\d\\d\\d\\.)|(?<=\n[A-Za-z]\\.))"
    glued = r"(?=[^\s\[])"
    spaces, blank, space = r"[^\S\n]+", r"[^\S\n]*\n\s*\n\s*", r"\s+"
    # Within _DEFER characters of the window's end (the lead counts as one).
    near = _DEFER - 1
    near_end = f"(?=[\\s\\S]{{0,{near}}}+\\Z)"
    white_end = f"\\s{{0,{near}}}+"

    def branch(
        lead: str, ends: list[str], letter_ends: tuple[str, ...] = (), initials: bool = False
    ) -> str:
        """The alternatives after the terminator ``lead``, the last one empty;
        ``ends`` and ``letter_ends`` end the sentence before a capital or a
        digit, and before a capital only; ``initials``: the initial rules."""
        cuts = []
        if ends:
            cuts.append(f"(?:{'|'.join(ends)}){group('cut', space)}{capital}")
        if letter_ends:
            cuts.append(f"(?:{'|'.join(letter_ends)}){group('cut', space)}{upper}")
        if initials:
            cuts.append(f"{initial}{group('cut', space)}{starter}")
            cuts.append(f"{initial}{group('skip', spaces)}{no_starter}")
        # After the whole run and closers (``rest``, read once): a blank line,
        # spaces before a lower-case word, or neither whitespace nor a footnote
        # mark (``.)**``): no end.
        after_run = [
            f"{group('blank', blank)}(?=\\S)",
            f"{group('skip', spaces)}{lower}",
            f"{group('skip', '')}{glued}",
        ]
        # A run the text so far cannot decide: plain whitespace to the end
        # first (the usual case at the end of a delta), any other form last.
        others = [
            f"{group('wait', white_end)}\\Z",
            f"(?>{rest})(?:{'|'.join(after_run)})",
            f"{near_end}{rest}{group('wait', _UNDECIDED_TAIL)}\\Z",
            "",  # (a candidate the rules decide)
        ]
        # A lone terminator before spaces and a lower-case word that opens no
        # list marker is no boundary: not even a candidate, so the search goes
        # on past it (the rules' "skip", without a round trip to Python).
        # Nor is the "." of a list marker at the start of a line, before spaces
        # and content: that line break began the chunk (it always ends one
        # before a list marker), so the "." ends a marker opening its chunk.
        # (No cut above matches there, so that test comes after them.)
        mark = f"(?!{marker}[^\\S\\n]++\\S)" if lead == "." else ""
        body = "|".join([*cuts, f"{mark}(?:{'|'.join(others)})"])
        return f"{re.escape(lead)}{_NEXT}(?!{spaces}{lower})(?:{body})"

    period = [
        # A word of four lower-case letters or more, not a long abbreviation
        # (whitespace tested first: it fails at once before a closer).
        f"(?=\\s)(?<=[{_LOWER_SET}]{{4}}\\.)(?<!(?:{'|'.join(['[ivx]{4}', *suffixes])})\\.)",
        f"(?<=[{_LOWER_SET}]{{2}}\\.)(?<![ivx]{{2}}\\.){closer}+",
    ]
    if not odd_ends:
        period += ["(?<=[)\\]]\\.)", "(?<=\\d{4}\\.)"]
    # A word of two or three lower-case letters after whitespace, not an
    # abbreviation (the rules' word is then exactly these letters).
    period_short = tuple(
        f"(?=\\s)(?<=\\s[{_LOWER_SET}]{{{size}}}\\.)(?<![ivx]{{{size}}}\\.)"
        + (f"(?<!\\s(?:{'|'.join(words)})\\.)" if words else "")
        for size, words in zip((2, 3), short, strict=True)
    )
    # A one-letter word after a space and a letter, not an abbreviation: an
    # initial (MEDIAL) that does not open its chunk (no cut ends at such a
    # space).  It ends the sentence before a whole capitalised sentence
    # starter of two letters or more, and not before another capitalised
    # word of two to _STARTER_MAX letters (spaces or tabs between).
    letters = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in abbreviations)
    initial = f"(?<=[{_LOWER_SET}{_UPPER_SET}] [{letters}{letters.upper()}]\\.)"
    starters = sorted(
        (re.escape(w.capitalize()) for w in sentence_starters), key=lambda w: (-len(w), w)
    )
    word_end = "(?=[\\W\\d_])"  # a character that ends the word (no letter)
    skipped = f"[{openers}]{{0,{_SKIP_MAX}}}"
    starter = f"(?={skipped}(?:{'|'.join(w for w in starters if len(w) > 1)}){word_end})"
    # (Tried after ``starter``, so a word of two letters or more that it takes
    # here is no sentence starter; a one-letter word is left to the rules.)
    no_starter = f"(?={skipped}[{_UPPER_SET}][^\\W\\d_]{{1,{_STARTER_MAX - 1}}}+{word_end})"
    bang = [f"[!?]*{closer}*"]
    line_gap = r"[^\S\n]*\n\s*"
    line = f"(?<=\\S\n){group('line', line_gap)}(?=\\S)"
    # A line break the text so far cannot decide: whitespace to the end, or (in
    # a chunk that does not open with a heading marker, where a line break
    # ends the chunk anyway) one character that may open a list marker.
    wait = next(numbers)
    marker_end = f"[^\\S\\n]{{0,{near - 1}}}+{_LINE_MARKER_START}"
    line_wait = f"(?P<wait{wait}>{white_end}|{marker_end})\\Z"
    blank_wait = f"(?P<wait{wait}>{white_end})\\Z"
    line_breaks = f"\n(?!{_GOES_ON})(?:{line}|{line_wait}|)"
    all_line_breaks = f"\n(?:{line}|{blank_wait}|)"
    # The branches of Latin-1 characters first, so that the narrow searches
    # (for text without any other character) number their groups alike.
    narrow = [branch(".", period, period_short, True), branch("!", bang), branch("?", bang)]
    wide = [
        branch("\u2026", []),
        branch("\u203d", []),
        # (Other scripts' terminators are candidates the rules decide: a branch
        # each with the proofs above costs about 9% more per character of
        # English prose, measured with cachegrind.)
        *(f"{c}{_NEXT}" for c in _SCRIPT),
        *sorted(_CJK_TERMS),
    ]
    # (A line that goes on starts with no whitespace, so it rules out the blank
    # line after it too: that test comes first, where most line breaks fail.)
    return (
        re.compile("|".join([*narrow, line_breaks, *wide])),
        re.compile("|".join([*narrow, all_line_breaks, *wide])),
        re.compile("|".join([*narrow, line_breaks])),
        re.compile("|".join([*narrow, all_line_breaks])),
    )


#: What the named groups of the searches prove (see ``_searches``).
_PROOFS = {"cut": 1, "blank": 2, "skip": 3, "line": 4, "wait": 5}
_WAIT = _PROOFS["wait"]


@lru_cache(maxsize=64)
def _group_kinds(pattern: re.Pattern[str]) -> tuple[int, ...]:
    """For each group number of ``pattern``, what it proves (``_PROOFS``); 0
    for group 0, and for every group of a search that proves nothing."""
    kinds = [0] * (pattern.groups + 1)
    for name, number in pattern.groupindex.items():
        kinds[number] = _PROOFS[name.rstrip("0123456789")]
    return tuple(kinds)


class SentenceScanner(Scanner):
    """Accurate sentence boundaries for one stream (rules in the module docstring).

    ``abbreviations`` maps canonical abbreviations to their kind (see
    :func:`~.abbreviations.abbreviation_table`); ``starters`` and
    ``ordinals`` are those of the language (see :mod:`.sentence_languages`).
    ``finish`` returns the text after the last cut with surrounding
    whitespace stripped, or ``None``.
    """

    __slots__ = (
        "_a", "_abbr", "_b", "_bang", "_base", "_buf", "_cend", "_ci", "_dots", "_e",
        "_ellipsis", "_find", "_find_all", "_heading", "_item", "_kind", "_kinds", "_last",
        "_long", "_narrow", "_newlines", "_ordinals", "_phase", "_pos", "_quiet", "_scan",
        "_search", "_start", "_starters", "_wat", "_wide", "_word",
    )  # fmt: skip

    def __init__(
        self,
        abbreviations: Mapping[str, int],
        starters: frozenset[str] = SENTENCE_STARTERS,
        ordinals: int = ORDINAL_MONTHS,
    ) -> None:
        self._abbr = abbreviations
        self._starters = starters
        self._ordinals = ordinals
        searches = _searches(
            frozenset(abbreviations),
            any(a[-1] in ")]" or a[-1].isdigit() for a in abbreviations),
            starters,
        )
        self._find, self._find_all = self._wide = searches[:2]
        self._narrow = searches[2:]
        self._long = False  # feeding the pieces of a long delta
        # What each group of the searches proves (the same groups in all four).
        self._kinds = _group_kinds(self._find)
        self._buf = ""  # the stream from absolute offset self._base on
        self._base = 0
        self._pos = 0  # absolute offset where the search resumes
        self._start: int | None = None  # absolute start of the chunk content
        self._cend = 0  # absolute end of the content before self._pos
        self._last = 0  # absolute end of the last non-whitespace character
        self._heading: bool | None = None  # does the chunk open with "# "?
        # The pending candidate (decided across deltas): offset or -1, kind,
        # phase, where its scan resumes, the ends of its terminator, closer and
        # whitespace runs, and what the runs held.
        # The search that starts the next delta while nothing is pending, the
        # chunk has begun and does not open with a heading marker; else None.
        self._search = self._find.search
        self._quiet: Callable[[str, int], re.Match[str] | None] | None = None
        self._ci = -1
        self._kind = _TERM
        self._phase = _RUN
        self._scan = self._a = self._b = self._e = 0
        self._newlines = self._dots = 0
        self._bang = self._ellipsis = False
        # The word before the candidate at offset self._wat, once read.
        self._wat = -1
        self._word: tuple[str, bool, bool, tuple[int, int] | None] = ("", False, False, None)
        # An inline list item to cut before (the rules' "item": chunk end, next start).
        self._item: tuple[int, int] | None = None

    # -- driving -----------------------------------------------------------

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
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
        quiet = self._quiet
        if quiet is not None:
            # Nothing is pending; the chunk has begun (see _first_search).
            m = quiet(buf, self._pos - base)
            if m is None:
                # Nothing to decide in this delta (the usual case).
                self._cend = self._last
                self._pos = total
                if n > LOOKBEHIND + _SLACK:
                    keep = total - LOOKBEHIND
                    self._buf = buf[keep - base :]
                    self._base = keep
                return _NO_CUTS
            g = m.lastindex
            if g is None:
                return self._decide_all(buf, n, base, total, m, True, [])
            kind = self._kinds[g]
            if kind == _WAIT:
                self._wait(buf, m.start())
                # Trimmed here too: a stream whose every delta ends on a
                # candidate (``a.a.a.``) comes back to this path each time.
                keep = self._pos - LOOKBEHIND
                if keep - base > _SLACK:
                    self._buf = buf[keep - base :]
                    self._base = keep
                return _NO_CUTS
            found: list[Cut] = []
            step = self._run(found, buf, base, total, m, g, kind)
            if step is True:
                return found
            if step is False:
                return self._decide_all(buf, n, base, total, None, False, found)
            return self._decide_all(buf, n, base, total, step, True, found)
        if self._ci < 0 and self._start is not None:
            m = self._finder(buf, base).search(buf, self._pos - base)
            return self._decide_all(buf, n, base, total, m, True, [])
        return self._decide_all(buf, n, base, total, None, False, [])

    def _wait(self, buf: str, i: int) -> None:
        """Leave the candidate at ``buf[i]`` to the next delta: a "wait" group
        of the searches found that the text so far cannot decide it (as the
        rules would find), within ``_DEFER`` characters of the window's end;
        the search resumes at it next time."""
        if buf[i] == "\n":
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
                if self._ci >= 0:
                    try:
                        verdict = self._decide()
                    except _NeedMore:
                        break
                    self._ci = -1
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
                    pos = self._start = self._pos = self._cend = base + m.start()
                    self._heading = None
                finder = self._find if self._heading is False else self._finder(buf, base)
                m = finder.search(buf, pos - base)
            if m is None:
                if self._last > pos:  # some content in [pos, total)
                    self._cend = self._last
                self._pos = total
                break
            g = m.lastindex or 0
            kind = self._kinds[g]
            if kind == _WAIT:
                self._wait(buf, m.start())
                break
            if kind == 3 and self._heading is not False:
                # Not a boundary, in a chunk that may end at a line break.
                self._pos = base + m.end()
                self._cend = base + m.start(g)
                continue
            if kind:
                step = self._run(found, buf, base, total, m, g, kind)
                if step is True:
                    return found
                if step is not False:
                    m = step
                    ready = True
                continue
            i = m.start()
            char = buf[i]
            if char in _ASCII_TERMS:
                if i >= n - 2:
                    # What may follow (whitespace, a terminator, a closer or
                    # "[") is still open: the rules below would defer too.
                    self._pos = base + i
                    break
            else:
                if char == "\n":
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
                    try:
                        if e == n:
                            raise IndexError
                        if buf.count("\n", i, e) >= 2 or self._is_heading() or _list_marker(buf, e):
                            cut = (self._cend, base + e)
                        else:
                            self._pos = base + e
                            continue
                    except IndexError:
                        if n - i <= _DEFER:
                            self._pos = base + i
                            break
                        self._open(base + i, char)
                        continue
                    self._emit(found, *cut)
                    continue
                self._open(base + i, char)
                continue
            after = buf[i + 1 : i + 2]
            if after.isspace():
                # A one-character run with no closers (the usual case).
                a = b = i + 1
                if after == " " and i + 2 < n and not buf[i + 2].isspace():
                    e = i + 2
                    newlines = 0
                else:
                    e = _WS_RUN.match(buf, b).end()  # type: ignore[union-attr]
                    if e == n:
                        if n - i <= _DEFER:
                            self._pos = base + i
                            break
                        self._open(base + i, char)
                        continue
                    newlines = buf.count("\n", b, e)
                bang = char != "." and char != "\u2026"
                ellipsis = char == "\u2026"
                dots = 1 if char == "." else 0
            else:
                t = _TAIL.match(buf, i)
                assert t is not None
                e = t.end()
                b = t.end(2)
                if e == n or buf[b] == "[":
                    if n - i <= _DEFER and (e == n or _PARTIAL_FOOTNOTE.match(buf, b)):
                        self._pos = base + i
                        break
                    self._open(base + i, char)
                    continue
                if e == b:
                    self._pos = base + b
                    continue
                run = t.group(1)
                bang = run != "." and bool(run.strip(".\u2026"))
                dots = 1 if run == "." else run.count(".")
                ellipsis = dots > 1 or "\u2026" in run
                newlines = buf.count("\n", b, e)
                a = t.end(1)
            try:
                ends = newlines >= 2 or (
                    self._next_starts(buf, e, base + i, b > a, bang, ellipsis)
                    or (newlines > 0 and _list_marker(buf, e))
                )
            except IndexError:
                if n - i <= _DEFER:
                    self._pos = base + i
                    break
                self._open(base + i, char)
                self._phase = _DECIDE
                self._a, self._b, self._e = base + a, base + b, base + e
                self._scan = self._e
                self._bang, self._dots, self._ellipsis = bang, dots, ellipsis
                self._newlines = newlines
                break
            if self._item is not None:
                self._emit_item(found)
            if not ends:
                self._pos = base + e
                self._cend = base + b
                continue
            verdict = (base + b, base + e)
            self._emit(found, *verdict)
        if self._ci >= 0:
            keep = self._scan - LOOKBEHIND
            if keep - base > _SLACK:
                self._trim(keep)
        else:
            keep = self._pos - LOOKBEHIND
            if keep - base > _SLACK:
                if self._heading is None:
                    self._trim(keep)
                else:
                    self._buf = buf[keep - base :]
                    self._base = keep
        # Only this loop changes what the next delta's first search depends on.
        self._quiet = self._first_search()
        return found or _NO_CUTS

    def _first_search(self) -> Callable[[str, int], re.Match[str] | None] | None:
        """The search that starts the next delta: the chunk's own search once
        the chunk has begun, nothing is pending and whether it opens with a
        heading marker is known; else ``None`` (the loop decides)."""
        if self._ci >= 0 or self._start is None or self._heading is None:
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
        kind: int,
    ) -> re.Match[str] | bool:
        """Apply what the searches proved (see ``_searches``), from ``m`` (its
        group ``g`` proving ``kind``) on, in a row, each chunk searched with
        its own search (``_finder``): "cut" cuts (the next chunk opens with an
        opener, a capital or a digit), "skip" skips, "blank" and "line" cut.
        The chunk of ``m`` opens with a heading marker or not
        (``self._heading``), unless ``m`` ends it.

        Returns ``True`` when nothing is left to decide in this delta, or only
        a candidate that what has not arrived decides (``_wait``; the
        window is trimmed, the next delta's first search set); ``False`` when
        the window ends too early to tell whether the next chunk opens with a
        heading marker (to be searched from ``self._pos`` with ``_finder``);
        else the next match, which the rules decide.
        """
        start: int = self._start  # type: ignore[assignment]
        cend = self._cend
        append = found.append
        plain = self._search
        heading = self._heading
        search = plain if heading is False else self._find_all.search
        kinds = self._kinds
        while True:
            end = m.end()
            if kind == 1:
                stop = base + end
                append(_new(Cut, (start, base + m.start(g), stop)))
                start = cend = stop
                if heading is not False:
                    heading = False  # (a chunk cut so opens with no "#")
                    search = plain
            elif kind == 3:
                cend = base + m.start(g)
            else:
                stop = base + end
                append(_new(Cut, (start, base + (m.start(g) if kind == 2 else m.start()), stop)))
                start = cend = stop
                heading = False
                search = plain
                if buf[end] == "#":
                    heading = _opens_heading(buf, end)
                    if heading is None:
                        self._start = start
                        self._cend = cend
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
                self._cend = cend
                self._heading = heading
                self._pos = total
                break
            m = following
            g = m.lastindex or 0
            kind = kinds[g]
            if not kind or kind == _WAIT:
                self._start = start
                self._cend = cend
                self._heading = heading
                self._pos = base + end
                if not kind:
                    return m
                self._wait(buf, m.start())
                break
        keep = self._pos - LOOKBEHIND
        if keep - base > _SLACK:
            self._buf = buf[keep - base :]
            self._base = keep
        self._quiet = search
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
                if not any(c in piece for c in _LEADS):
                    if self._quiet is None:
                        cuts += self.feed(piece[:_LONG])
                        piece = piece[_LONG:]
                    if self._quiet is not None and self._pos == self._base + len(self._buf):
                        cuts += self._feed_plain(piece)
                        continue
                if narrow is None:
                    narrow = _latin1(delta) and _latin1(self._buf)
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
        quiet = self._quiet
        self._quiet = _nothing
        try:
            return self.feed(piece)
        finally:
            self._quiet = quiet

    def _use(self, searches: tuple[re.Pattern[str], re.Pattern[str]]) -> None:
        """Search with ``searches`` (``find``, ``find_all``) from now on."""
        self._find, self._find_all = searches
        self._search = self._find.search
        if self._quiet is not None:
            self._quiet = self._first_search()

    def _emit(self, found: list[Cut], end: int, stop: int) -> None:
        """Add the cut of the current chunk ending at ``end``; the next starts at ``stop``."""
        found.append(Cut(self._start, end, stop))  # type: ignore[arg-type]
        self._start = self._pos = self._cend = stop
        self._heading = None

    def _emit_item(self, found: list[Cut]) -> None:
        """Add the cut of the chunk before an inline list item (``self._item``);
        the next chunk starts at the item's marker."""
        end, stop = self._item  # type: ignore[misc]
        self._item = None
        found.append(Cut(self._start, end, stop))  # type: ignore[arg-type]
        self._start = stop
        self._heading = None

    def finish(self) -> tuple[int, int] | None:
        if self._start is None or self._last <= self._start:
            return None
        return (self._start, self._last)

    def _finder(self, buf: str, base: int) -> re.Pattern[str]:
        """The candidate search for the current chunk (see ``_AFTER``)."""
        heading = self._heading
        if heading is None:
            heading = self._heading = _opens_heading(buf, self._start - base)  # type: ignore[operator]
        return self._find if heading is False else self._find_all

    def _open(self, at: int, char: str) -> None:
        """Make the candidate at absolute offset ``at`` pending."""
        self._ci = self._scan = at
        self._phase = _RUN
        self._newlines = self._dots = 0
        self._bang = self._ellipsis = False
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

    def _trim(self, keep: int) -> None:
        """Drop the text before absolute offset ``keep``."""
        if self._heading is None and self._start is not None and self._start < keep:
            self._is_heading()
        if self._ci >= 0 and self._kind == _TERM:
            self._word_before(self._ci)
        self._buf = self._buf[keep - self._base :]
        self._base = keep

    # -- deciding ----------------------------------------------------------

    def _decide(self) -> tuple[int, int] | None:
        """Decide the pending candidate: ``(chunk_end, stop)``, or ``None``.

        Scans the candidate's runs from where the last delta left off and
        advances ``self._pos`` past a ruled-out candidate; raises
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
                if part.strip(".\u2026"):  # "!", "?", "‽" or another script's
                    self._bang = True
                if "\u2026" in part:
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
            if self._cjk_goes_on(b, e):
                self._pos = e
                if e > b:
                    self._cend = b
                return None
            return (b, e)
        if self._kind == _LINE:
            if self._newlines >= 2 or self._is_heading():
                return (b, e)
            try:
                if _list_marker(self._buf, e - self._base):
                    return (b, e)
            except IndexError:
                raise _NeedMore from None
            self._pos = e
            return None
        if e > b and self._term_ends(
            self._ci,
            b > self._a,
            self._bang,
            self._ellipsis or self._dots > 1,
            e,
            self._newlines,
        ):
            return (b, e)
        self._pos = e
        if e > b:
            self._cend = b
        return None

    def _cjk_goes_on(self, b: int, e: int) -> bool:
        """Whether the CJK run at ``self._ci`` (closers up to ``b``, whitespace
        up to ``e``, the character at ``e`` in the window) ends no sentence: a
        full-width or half-width ideographic full stop (U+FF0E, U+FF61) between
        digits (a decimal point), a run closed by a title mark (U+300B, U+3009:
        ``《...》``), or a quotation closed by U+300D or U+300F before a kana
        (a particle such as U+3068)."""
        buf, base = self._buf, self._base
        i, a = self._ci - base, self._a - base
        b -= base
        if a - i == 1 and b == a == e - base and buf[i] in "\uff0e\uff61":
            return i > 0 and buf[i - 1].isdigit() and buf[a].isdigit()
        if b > a:
            if buf[a] in "\u300b\u3009":
                return True
            return buf[a] in "\u300d\u300f" and e - base == b and "\u3041" <= buf[b] <= "\u309f"
        return False

    def _term_ends(
        self, at: int, closed: bool, bang: bool, ellipsis: bool, e: int, newlines: int
    ) -> bool:
        """Whether the terminator run at ``at``, whitespace up to ``e``, ends a sentence."""
        if newlines >= 2:
            return True
        buf = self._buf
        k = e - self._base
        try:
            return self._next_starts(buf, k, at, closed, bang, ellipsis) or (
                newlines > 0 and _list_marker(buf, k)
            )
        except IndexError:
            raise _NeedMore from None

    def _next_starts(
        self, buf: str, e: int, at: int, closed: bool, bang: bool, ellipsis: bool
    ) -> bool:
        """The rules of the module docstring for the text from ``buf[e]`` on.

        ``at`` is the absolute offset of the terminator run.  Raises
        ``IndexError`` when ``buf`` ends before the rules decide (they read at
        most ``_SKIP_MAX + _STARTER_MAX + 2`` characters).
        """
        k = at - self._base
        if k > 0 and buf[k - 1] == "[" and buf.startswith(("...]", "\u2026]"), k):
            return False  # "[...]": an elision goes on
        j = e
        while buf[j] in _OPENERS and j - e < _SKIP_MAX:
            j += 1
        c = buf[j]
        if c == "." and j == e:
            return False  # a spaced ellipsis goes on
        if c.isalpha():
            cat = _LOWER if c.islower() else _UPPER
        else:
            cat = _DIGIT if c.isdigit() else _OTHER
        if cat == _LOWER:
            if buf[e] in _DASHES or not _list_marker(buf, e):
                return False  # ("Stop! - he said": a dash before a lower-case word goes on)
            cat = _MARKER
        word, at_start, spaced, item = self._word_before(at)
        ellipsis = ellipsis or spaced
        if (
            word
            and at_start
            and not (bang or ellipsis)
            and _LIST_MARK.fullmatch(word.lstrip(_GLUED_BULLETS))
        ):
            return False  # "1." or "b.)" opening a list item
        if item is not None and not (bang or ellipsis):
            self._item = item  # "1. One 2. Two": the chunk ends before "2."
            return False
        if bang or closed:
            return True
        if ellipsis:
            return cat == _UPPER or cat == _MARKER
        if not word:
            return True
        kind = self._abbr.get(word.lower())
        if kind is None and ("'" in word or "\u2019" in word):
            kind = self._abbr.get(re.split("['\u2019]", word)[-1].lower())  # "l'Avv."
        if kind is None:
            if len(word) == 1 and word.isalpha():
                kind = MEDIAL  # an initial
            elif "." in word and _DOTTED.fullmatch(word):
                kind = MEDIAL
            elif cat == _DIGIT and len(word) <= 3 and word.rstrip("\u00b0\u00ba").isalpha():
                return False  # "Rs. 500", "N°. 5": a unit or label before a number
            elif cat == _UPPER and len(word) <= 2 and word.isdigit() and self._ordinal(buf, j):
                return False  # "am 12. Juni": an ordinal
            else:
                return True
        if kind == PREFIX or cat == _DIGIT or cat == _OTHER:
            return False
        if kind == FINAL:
            return True
        if cat == _MARKER:
            return False
        # MEDIAL: only before a sentence starter that is not an initial.
        following = _word_at(buf, j)
        if not following or (len(following) == 1 and buf[j + 1] == "."):
            return False
        return following.lower() in self._starters and (
            len(following) == 1 or following[1:].islower()
        )

    def _ordinal(self, buf: str, j: int) -> bool:
        """Whether a number of one or two digits and a period before the
        capitalised word at ``buf[j]`` is an ordinal (see ``Language.ordinals``).
        Raises ``IndexError`` when ``buf`` ends before the word does."""
        if self._ordinals == ORDINAL_ALWAYS:
            return True
        if self._ordinals != ORDINAL_MONTHS:
            return False
        return _word_at(buf, j).lower() in MONTHS

    def _word_before(self, at: int) -> tuple[str, bool, bool, tuple[int, int] | None]:
        """The word before offset ``at`` (openers stripped), whether it opens
        the chunk (after an optional bullet), whether ``at`` is the last
        dot of a spaced ellipsis, and the inline list item it numbers
        (:func:`_inline_item`)."""
        if self._wat == at:
            return self._word
        buf = self._buf
        base = self._base
        k = at - base
        spaced = False
        if k == 0 or buf[k - 1].isspace():
            word = ""
            spaced = buf.startswith(". ", k - 2) if k >= 2 else False
            start = at
        else:
            lo = at - _WORD_MAX
            space = buf.rfind(" ", max(0, lo - base), k)
            word = buf[space + 1 : k]
            if (space < 0 and lo > 0) or not word.isprintable():
                # Another kind of whitespace, or a word longer than _WORD_MAX.
                m = _WORD_END.search(buf, max(0, lo - base), k)
                word = m.group() if m else "\0"  # "\0": a long, plain word
            start = at - len(word) if word != "\0" else -1
        chunk = self._start if self._start is not None else -1
        at_start = start == chunk or (
            0 < start - chunk <= 4
            and _BULLET_LEAD.fullmatch(buf, chunk - base, start - base) is not None
        )
        self._wat = at
        if word and word[0] in _WORD_OPENERS:
            word = word.lstrip(_WORD_OPENERS)
        item = None
        if not at_start and word and len(word) <= 5 and chunk >= at - LOOKBEHIND:
            item = _inline_item(buf, base, at, chunk)
        self._word = (word, at_start, spaced, item)
        return self._word

    def _is_heading(self) -> bool:
        """Whether the current chunk opens with a Markdown heading marker."""
        if self._heading is None:
            start = self._start
            assert start is not None
            self._heading = _HEADING.match(self._buf, start - self._base) is not None
        return self._heading
