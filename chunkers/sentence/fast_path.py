"""The candidate searches, generated from the tables the rules read.

The scanner (:mod:`.scanner`) finds candidates with one regex search per
chunk.  The searches built here also *prove*, inside the same match, what the
rules (:mod:`.rules`) decide in the common cases, so that most candidates are
settled without Python code: each named group of a search says what its match
proves (:data:`CUT`, :data:`BLANK`, :data:`SKIP`, :data:`LINE_END`,
:data:`WAIT`; no group: the rules decide).

One source per rule: :func:`searches` is built from the same tables as the
rules (the abbreviations and their kinds, the sentence starters, the
continuations, the marks of :mod:`.marks`), and a proof that a table could
contradict is left out for the entries it covers, so that a word added to a
table takes effect in every path.  ``tests/chunkers/test_sentence_fast_paths.py``
checks every search against the rules alone (a search that proves nothing)
over a grid of every combination of prefix, word, terminator, gap and next
token, in every language, and over random text.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from operator import itemgetter

from .abbreviations import ANSWER_LEADS, ANSWER_LETTERS, LETTER_NOUNS, SENTENCE_STARTERS
from .marks import (
    BRACKET_QUOTES,
    CJK_TERMINATORS,
    CJK_TYPED,
    CLOSER_CLASS,
    CLOSERS,
    CODE_MARK,
    DANDAS,
    INVERTED_OPENERS,
    LATIN1_LOWER,
    LATIN1_UPPER,
    OPENERS,
    QUOTE_OPEN_AFTER,
    QUOTES,
    SCRIPT_TERMINATORS,
    TERMINATORS,
    UNSPACED_LETTERS,
    UNSPACED_SCRIPT_TERMINATORS,
)
from .rules import (
    FOOTNOTE,
    FOOTNOTE_BEGUN,
    FOOTNOTE_MARK,
    FOOTNOTE_OPENERS,
    ITEM_PAREN,
    SKIP_MAX,
    SOFT_WRAP,
    STARTER_MAX,
    WRAP_AFTER,
    WRAP_BEFORE,
    WRAP_MIN,
    WRAP_PUNCTUATION,
)

__all__ = [
    "AFTER",
    "AFTER_ALL",
    "BLANK",
    "CUT",
    "DEFER",
    "GLUED",
    "LEAD",
    "LEADS",
    "LINE_END",
    "LINE_OPENERS",
    "MARK",
    "PERIOD_PASSED",
    "SKIP",
    "WAIT",
    "WRAP",
    "group_proofs",
    "latin1",
    "mark_branches",
    "searches",
]

#: What the named groups of the searches prove: a cut after the group (the
#: group spans the whitespace after the run), a cut at a blank line, no
#: boundary (skip to the group's end), a cut at a line break before a blank
#: line, a candidate to leave to the next delta, a soft wrap, and a
#: quotation mark (see ``quote_leads``).
CUT, BLANK, SKIP, LINE_END, WAIT, WRAP, MARK = 1, 2, 3, 4, 5, 6, 7
_PROOFS = {
    "cut": CUT, "blank": BLANK, "skip": SKIP, "line": LINE_END, "wait": WAIT, "wrap": WRAP,
    "mark": MARK,
}  # fmt: skip

#: A candidate undecided within this many characters of the end of the window
#: is decided again from scratch by the next delta (cheaper than resuming; at
#: least 2, see ``SentenceScanner._decide_all``).
DEFER = 32

_ESCAPED_TERMINATORS = re.escape(TERMINATORS)
#: ASCII punctuation that may begin a line and ends the line before it (not
#: ``WRAP_PUNCTUATION``, nor ``(``, which may open a soft wrap).
LINE_OPENERS = "".join(c for c in "`\"'<>=/\\|@$%&~^{[_#*+-" if c not in WRAP_PUNCTUATION)
_ESCAPED_CJK = re.escape(CJK_TERMINATORS)
_CLOSER = f"[{CLOSER_CLASS}]"
#: The characters a candidate begins with (the usual ones first: ``c in text``
#: is one scan in C, and none at all for a character wider than every one of
#: ``text``).
LEADS = ".\n!?\u2026\u203d" + CJK_TERMINATORS + SCRIPT_TERMINATORS + ")\r"
#: A candidate: a terminator not followed by a character that rules it out
#: (``3.14``, ``U.S``), a period before footnote numbers (``word.12``), a CJK
#: terminator, a line break (``\n``, a lone ``\r``), or the ``)`` of an
#: inline list marker (`` b)``).  One leading character class keeps the
#: search on the regex engine's fast path.
LEAD = f"[{re.escape(LEADS)}]"
# After a terminator other than a CJK one: what may follow a candidate.
# A period glued to the next word may end a sentence (the rules' glued
# rule: ``world.Today is``, ``1,000.That``, Kazakh ``...ы.XVIII``): after
# three ASCII lower-case letters or digits before an ASCII capital and an
# ASCII lower-case letter (a title or a capitalised word: not ``os.PATH``; or
# the end of the text so far, the letter may still come), or
# after three letters above U+00FF before an ASCII capital or a letter above
# U+00FF.  A terminator of UNSPACED_SCRIPT_TERMINATORS between two characters
# above U+00FF that are no whitespace (nor, before it, a terminator) ends one
# too (``ነው።ደህና``; the rules' ``_unspaced_script_ends``).
# (What follows is tested first: most periods that no whitespace follows are
# followed by something else, and fail there.)
_UNSPACED_GLUED = (
    f"(?=[^\\s\\x00-\\xff])"
    f"(?<=[^\\s\\x00-\\xff{_ESCAPED_TERMINATORS}][{UNSPACED_SCRIPT_TERMINATORS}])"
    f"(?!(?<=[{DANDAS}])\\d)"
)
GLUED = (
    "(?=[A-Z](?:[a-z]|\\Z))(?:(?<=[a-z]{3}\\.)|(?<=[0-9]{3}\\.))"
    "|(?=[A-Z]|[^\\W\\d_\\x00-\\xff])(?<=[^\\W\\d_\\x00-\\xff]{3}\\.)"
)
_FOOTNOTE_OPENERS = re.escape(FOOTNOTE_OPENERS)
# What touches a terminator: anything but whitespace, a terminator, a closer,
# the beginning of a footnote mark or an inverted mark that opens the next
# sentence (``tarde.¿Por``: INVERTED_OPENERS, which the rules decide as if
# whitespace stood before it).
_INVERTED = re.escape(INVERTED_OPENERS)
_TOUCHING = f"[^\\s{_ESCAPED_TERMINATORS}{CLOSER_CLASS}{_FOOTNOTE_OPENERS}{_INVERTED}]"
_SPACED = f"(?!{_TOUCHING})"
# (Nothing that touches the terminator, or else glued; written without an
# alternation, which costs the regex engine more at every period.)
_NEXT = f"(?!(?={_TOUCHING})(?!{GLUED}))"
# (The same after a terminator of UNSPACED_SCRIPT_TERMINATORS, and after any
# terminator; the period's searches test no more than they must.)
_SPACED_OR_GLUED = f"(?!(?={_TOUCHING})(?!{_UNSPACED_GLUED}))"
_NEXT_ANY = f"(?!(?={_TOUCHING})(?!{GLUED}|{_UNSPACED_GLUED}))"
# An ASCII "!" or "?" right after a kana or ideograph: a CJK run (the rules
# decide it as one: ``すごい!次``).
_CJK_TYPED = f"(?<=[{UNSPACED_LETTERS}][{re.escape(CJK_TYPED)}])"
#: What follows a candidate's lead: ``LEAD + AFTER_ALL`` finds every candidate.
_LONE_CR = "(?<=\r)(?!\n)"
AFTER_ALL = (
    f"(?:(?<=[{_ESCAPED_CJK}\n])|{_CJK_TYPED}|{_LONE_CR}|(?<=[{_ESCAPED_TERMINATORS}]){_NEXT_ANY}"
    f"|{FOOTNOTE}|(?<=\\)){ITEM_PAREN})"
)
#: The same without the line breaks that are ruled out before a line that
#: goes on (usable while the chunk does not open with a Markdown heading).
AFTER = (
    f"(?:(?<=[{_ESCAPED_CJK}])|{_CJK_TYPED}|(?:(?<=\n)|{_LONE_CR})(?!{SOFT_WRAP})"
    f"|(?<=[{_ESCAPED_TERMINATORS}]){_NEXT_ANY}|{FOOTNOTE}|(?<=\\)){ITEM_PAREN})"
)
# What may follow a terminator run and its closers when the rules cannot
# decide it yet: a partial footnote mark, whitespace running to the end,
# spaces or tabs and then at most SKIP_MAX openers (the rules skip them, then
# need the next token) or one ASCII lower-case letter (a list marker such as
# "b." or "iv)" is not ruled out yet), or that letter after a line break that
# may be a soft wrap (``WRAP_BEFORE``).  Used at the end of the window only
# (the "wait" groups of ``searches``).
_UNDECIDED_TAIL = (
    f"(?:{FOOTNOTE_BEGUN}|\\s*|(?=\\s)[^\\S\\r\\n]*"
    f"(?:[{''.join(re.escape(c) for c in sorted(OPENERS))}]{{1,{SKIP_MAX}}}|[a-z])"
    f"|(?=\\s)[^\\S\\r\\n]*[\\r\\n]{WRAP_BEFORE}[^\\S\\r\\n]*[a-z])"
)


# After a period: not after a lone lower-case letter (``b.``) or a digit,
# which may number an inline list item before a lower-case word (``a. one
# b. two``, ``1. one 2. two``);
# not after two ASCII lower-case letters, which may end a plain word, nor
# after inline code (the rules' ``_plain_word``: ``Use npm. npm is``, ``Run
# `make`. make``); then spaces or tabs and a lower-case letter that opens no
# list marker (``searches``: "skip").
_LETTER_ITEM = "(?<!\\s[a-z]\\.)(?<![0-9]\\.)"
_PLAIN_WORD = f"(?<![a-z]{{2}}\\.)(?<!{re.escape(CODE_MARK)}\\.)"
_SPACES = r"[^\S\r\n]++"
_LOWER = f"(?=[a-hj-uwyz][^.)]|[ivx][^.)ivxIVX]|[{LATIN1_LOWER[3:]}])"
_NEITHER_ENDS_NOR_GLUES = "".join(
    c
    for c in map(chr, range(0x21, 0x7F))
    if c not in TERMINATORS + CLOSERS + "[" and not c.isupper() and not c.isdigit()
)
#: A period at which no search finds a candidate, in any language (so that
#: no chunk can end there; the quotation layer's quiet quotations may hold
#: one): before an ASCII character that neither ends the sentence nor may
#: glue the period to the next word (a lower-case letter, ``,``, ``/``:
#: ``e.g``, ``node.js``); between digits (``3.14``: after two lower-case
#: letters, digits may be a footnote mark); between ASCII capitals (``U.S``:
#: a capital glues it only after lower-case letters, digits or letters of
#: other scripts); or before spaces or tabs and a lower-case word that opens
#: no list marker, ending no plain lower-case word and after no lone
#: lower-case letter or digit (``No. change``, ``Dr. and``: a "skip" of
#: :func:`searches`).  ``tests/chunkers/test_sentence_quotes.py`` checks it against
#: the searches of every language.
PERIOD_PASSED = (
    f"\\.(?:(?=[{re.escape(_NEITHER_ENDS_NOR_GLUES)}])|(?<=[0-9]\\.)(?=[0-9])"
    f"|(?<=[A-Z]\\.)(?=[A-Z])|{_LETTER_ITEM}{_PLAIN_WORD}(?={_SPACES}{_LOWER}))"
)


def any_but(chars: str, below: int = 0x100) -> str:
    """A regex character class for the characters below ``below`` (by
    default those of Latin-1) but those of ``chars``, spelled as the ranges
    between them rather than negated: the regex engine tests a character with
    one bitmap lookup, about twice as fast as ``[^...]`` (measured on a run
    of ASCII in a wider string, where a negated class takes two steps).
    (Beyond Latin-1 the class is a larger table, which the regex compiler
    builds one character at a time: about 20 ms for the whole Basic
    Multilingual Plane, at each use in a pattern.)"""
    out = []
    low = 0
    for code in sorted({ord(c) for c in chars if ord(c) < below}):
        if code > low:
            out.append((low, code - 1))
        low = code + 1
    out.append((low, below - 1))
    spelled = "".join(_spell(a) if a == b else f"{_spell(a)}-{_spell(b)}" for a, b in out if a <= b)
    return f"[{spelled}]" if spelled else "(?!)"


def _spell(code: int) -> str:
    """The character ``code`` in a regex character class: itself, escaped,
    when printable, else its escape (``\\x0b``)."""
    char = chr(code)
    if char.isprintable():
        return re.escape(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\U{code:08x}"


def _by_length(words: Iterable[str]) -> list[list[str]]:
    """``words`` in groups of one length, shortest first (a lookbehind
    needs one width)."""
    return [list(g) for _, g in itertools.groupby(sorted(words, key=len), key=len)]


def one_of(words: Iterable[str]) -> str:
    """A regex matching exactly one of ``words`` (at least one, none
    empty), factored by common prefixes (``(?:a(?:bs|dj)|col)`` for ``abs``,
    ``adj``, ``col``): the regex engine compares the next character with each
    branch of a fork, not with every word, so a list of 70 words costs a few
    comparisons instead of 70.  For lookarounds, where which word matches does
    not matter (the alternatives are not tried longest first); words of one
    length keep a fixed width, as a lookbehind needs."""
    return _fork(sorted(set(words)))


def _fork(words: list[str]) -> str:
    # ``words``: sorted, unique, "" only if a word ends here (then first).
    ends_here = words[0] == ""
    branches, last = [], []
    for first, group in itertools.groupby(words[1:] if ends_here else words, key=itemgetter(0)):
        tails = [w[1:] for w in group]
        if tails == [""]:
            last.append(re.escape(first))  # (words ending here: one class)
        else:
            branches.append(re.escape(first) + _fork(tails))
    if last:
        branches.append(last[0] if len(last) == 1 else f"[{''.join(last)}]")
    if ends_here:
        return f"(?:{'|'.join(branches)}|)"  # (not "?", which the engine repeats)
    return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"


def nothing(text: str, pos: int) -> None:
    """The search of text known to hold no candidate."""


def latin1(text: str) -> bool:
    """Whether ``text`` holds no character above U+00FF (fast; O(len(text)))."""
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


@lru_cache(maxsize=32)
def searches(
    abbreviations: frozenset[str],
    odd_ends: bool,
    sentence_starters: frozenset[str] = SENTENCE_STARTERS,
    continuations: frozenset[str] = frozenset(),
    quote_leads: tuple[tuple[str, str], ...] = (),
    compounds: frozenset[str] = frozenset(),
) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The candidate searches (``LEAD`` then ``AFTER`` or ``AFTER_ALL``)
    that also prove, in the same match, what the rules decide in the common
    cases; then the same two for text without characters above U+00FF, whose
    smaller set of leading characters the regex engine tests faster (about 4%
    of a scan through text without candidates, measured).

    ``abbreviations``: the abbreviations (their lower-case keys);
    ``sentence_starters``: the language's sentence starters;
    ``compounds``: abbreviations that also end compound words (no cut is
    proven after a word ending in one); ``continuations``: the forms of the
    words that never open a sentence (no
    cut is proven before one, nor before a word the window may end in).  A
    search finds the same candidates as ``LEAD + AFTER`` (``AFTER_ALL``);
    then the kind of the named group that matched (:func:`group_proofs`; the
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
      ``.`` or ``)``), where the run is more than a lone ``.`` after two ASCII
      lower-case letters or inline code (which may end a plain word: ``Use
      npm. npm``, ``Run `make`. make``) or that
      ``.`` ends an abbreviation of the tables written in ASCII lower case
      (``etc. and``; then no candidate is found at all); or such an initial
      before spaces or tabs and another whole capitalised word of at most
      ``STARTER_MAX`` letters; or neither whitespace nor a footnote mark after
      the run, unless a lone ``.`` is ``GLUED`` to the next word (the rules
      decide: ``world.Today``);
    * ``line``: a line break right after content, then whitespace holding a
      blank line, or a single line break that is no soft wrap (after a line
      shorter than ``WRAP_MIN``, or before spaces or tabs and an upper-case
      letter, a digit or ``LINE_OPENERS``): the chunk ends at the line break,
      also when the search began there (the content before the search
      position then ends there too);
    * ``wrap`` (in a chunk that does not open with a heading marker): a line
      break right after ``WRAP_MIN`` characters without one, before
      ``WRAP_AFTER`` of the rules: a soft wrap when the chunk began at least
      ``WRAP_MIN`` characters before the break, else the chunk ends at it
      (the scanner compares, the search cannot see the chunk's start);
    * ``mark`` (no candidate): a quotation mark of ``quote_leads`` (each a
      mark and a regex for the context it needs), for the quotation layer
      (:mod:`.quotes`); a closer of a run that is such a mark proves nothing
      (the rules decide the candidate, and find the mark);
    * ``wait`` (left to the next delta): within ``DEFER`` characters of the
      window's end, a terminator run and closers before what
      ``_UNDECIDED_TAIL`` allows, or a line break before whitespace or (in a
      chunk that does not open with a heading marker, after a break that may
      be a soft wrap) before one ASCII lower-case letter that may open a list
      marker, and nothing after: the rules would need text that has not
      arrived.

    Not even a candidate: a line break that is a soft wrap (``SOFT_WRAP`` of
    the rules) in a chunk that does not open with a heading marker.  A period
    before footnote numbers (``FOOTNOTE``), a lone ``\\r`` and the ``)`` of an
    inline list marker (``ITEM_PAREN``) are candidates the rules decide.

    Letters here are those of ASCII and Latin-1, whose case the regex classes
    spell out.

    Speed: the search is one alternation whose branches each begin with one
    literal terminator, so the regex engine skips ordinary text by the set of
    those literals and enters only the branch of the character it found; a
    terminator that no whitespace, terminator or closer follows (``3.14``)
    fails at once.
    """
    lower4 = re.compile(f"[{LATIN1_LOWER}]{{4}}")
    suffixes = sorted({w[-4:] for w in abbreviations if lower4.fullmatch(w[-4:])})
    # A compound ending: its last four characters, a letter before a shorter one.
    compound_ends = sorted(
        (re.escape(w[-4:]) if len(w) >= 4 else f"[{LATIN1_LOWER}]{{{4 - len(w)}}}{re.escape(w)}")
        for w in compounds
    )
    short = [
        sorted(w for w in abbreviations if re.fullmatch(f"[{LATIN1_LOWER}]{{{size}}}", w))
        for size in (2, 3)
    ]
    # A closer that is a quotation mark that may open a quotation (after
    # another closer: ``."“Yes``) is left to the rules, which note it; no
    # proof passes it.  (Told by the character before it alone, which is all
    # a lead needs but for what follows: a CJK bracket may open anywhere, any
    # other mark after whitespace or one of QUOTE_OPEN_AFTER.  Testing each
    # lead's whole context here made the searches five times as long, and
    # their compilation ten times as slow.  The closer is tested first, then
    # the mark it may be, looking behind: a run's loop over its closers fails
    # at once on the usual whitespace after it.)
    opening = _may_lead("".join(sorted(lead for lead, _ in quote_leads)))
    closer = f"(?:{_CLOSER}(?<!{opening}))" if quote_leads else _CLOSER
    not_opening = f"(?!{opening})" if quote_leads else ""
    # The run after its first character.
    rest = f"[{_ESCAPED_TERMINATORS}]*(?:{closer}|{FOOTNOTE_MARK})*"
    openers = "".join(re.escape(c) for c in sorted(OPENERS))
    numbers = itertools.count(1)

    def group(kind: str, body: str) -> str:
        return f"(?P<{kind}{next(numbers)}>{body})"

    skipped = f"[{openers}]{{0,{SKIP_MAX}}}"
    # Before every cut: a continuation (``Language.continuations``) is no
    # sentence start, so none may follow; nor may the window end inside the
    # word, which may turn out to be one (the rules wait for it).
    guard = ""
    if continuations:
        forms = one_of(continuations)
        letter = "[^\\W\\d_]"  # the rules' LETTERS
        guard = (
            f"(?!{skipped}{forms}(?!{letter}))"
            f"(?={skipped}(?:[0-9]|[{LATIN1_UPPER}]"
            f"(?:{letter}{{{STARTER_MAX}}}|{letter}{{0,{STARTER_MAX - 1}}}+(?=[\\W\\d_]))))"
        )
    # Not after a lone lower-case letter (``b.``) or a digit, which may number
    # an inline list item before a lower-case word (``a. one b. two``, ``1.
    # one 2. two``): the rules decide.
    letter_item = _LETTER_ITEM
    # Nor after two ASCII lower-case letters, which may end a plain word (the
    # rules' ``_plain_word``: ``Use npm. npm is``), unless closers or other
    # terminators follow the period: the rules decide.
    plain = _PLAIN_WORD
    # ... or a word of the abbreviation tables written in ASCII lower case
    # (``etc. and``): by length, each after a character that is no such letter.
    known = sorted(w for w in abbreviations if re.fullmatch("[a-z]{2,}", w))
    plain_or_known = "|".join(
        [plain] + [f"(?<=(?<![a-z]){one_of(group)}\\.)" for group in _by_length(known)]
    )
    quote = f"[{re.escape(QUOTES)}]"
    quoted = f"(?<=[{LATIN1_LOWER}]{{2}}[.!?]{quote})(?<![ivx]{{2}}[.!?]{quote})"
    citation = f"(?!(?<=[{re.escape(QUOTES)}])\\s+\\()"
    capital = f"{guard}(?=[{openers}]{{0,{SKIP_MAX}}}[{LATIN1_UPPER}0-9])"
    upper = f"{guard}(?=[{openers}]{{0,{SKIP_MAX}}}[{LATIN1_UPPER}])"
    lower = _LOWER
    marker = "(?:(?<=\n\\d\\.)|(?<=\n\\d\\d\\.)|(?<=\n\\d\\d\\d\\.)|(?<=\n[A-Za-z]\\.))"
    # Neither whitespace nor a footnote mark after the run (nor the beginning
    # of one that the text so far ends in, nor an inverted mark, which the
    # rules decide): ``.)**``, ``.[a``.
    glued = f"(?=\\S)(?![{_INVERTED}]|{FOOTNOTE_MARK}|{FOOTNOTE_BEGUN}\\Z)"
    one_space = r"\s"
    opener = f"[{''.join(re.escape(c) for c in sorted(OPENERS) if not c.isspace())}]"
    spaces, blank, space = _SPACES, r"[^\S\n]*+\n[^\S\n]*+\n\s*+", r"\s++"
    # Within DEFER characters of the window's end (the lead counts as one).
    near = DEFER - 1
    near_end = f"(?=[\\s\\S]{{0,{near}}}+\\Z)"
    white_end = f"\\s{{0,{near}}}+"

    def branch(
        lead: str,
        ends: list[str],
        letter_ends: tuple[str, ...] = (),
        initials: bool = False,
        usual: str | None = None,
    ) -> str:
        """The alternatives after the terminator ``lead``, the last one empty;
        ``ends`` and ``letter_ends`` end the sentence before a capital or a
        digit, and before a capital only; ``initials``: the initial rules.
        ``usual``: where the first of ``ends`` holds (a lookbehind), for the
        usual cut, right after the terminator: one whitespace character, then
        a capital or a digit, one opener before it or none; proven first, in
        a few steps (the first cut below proves it too, in many)."""
        fast = ""
        if usual is not None:
            fast = f"(?=\\s{opener}?[{LATIN1_UPPER}0-9]){usual}{group('cut', one_space)}{guard}|"
        cuts = []
        if ends:
            # (Not a quotation before its citation: '"..." (Smith 55)'.)
            cuts.append(f"(?:{'|'.join(ends)}){citation}{group('cut', space)}{capital}")
        if letter_ends:
            cuts.append(f"(?:{'|'.join(letter_ends)}){group('cut', space)}{upper}")
        if initials:
            cuts.append(f"{initial}{group('cut', space)}{starter}")
            cuts.append(f"{initial}{letter_named}{group('skip', spaces)}{no_starter}")
        # After the whole run and closers (``rest``, read once): a blank line,
        # spaces before a lower-case word, or neither whitespace nor a footnote
        # mark (``.)**``): no end.
        after_run = [
            f"{group('blank', blank)}(?=\\S)",
            f"{letter_item}{plain}{group('skip', spaces)}{lower}",
            f"(?!{GLUED}){not_opening}{group('skip', '')}{glued}",
            # A quotation before its citation, after a word of two lower-case
            # letters or more (no list marker): '... word." (Smith 5)'.
            f"{quoted}{group('skip', spaces)}(?=\\()",
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
        # (A period before footnote numbers: a candidate the rules decide.)
        footnote = f"|{FOOTNOTE}" if lead == "." else ""
        if lead == ".":
            after = _NEXT
            skipped_lower = f"(?={spaces}{lower}){letter_item}(?:{plain_or_known})"
        else:  # (no other lead is glued, nor follows a plain word)
            after, skipped_lower = _SPACED, f"{spaces}{lower}"
        # (After a kana or ideograph, "!" and "?" are CJK runs the rules decide.)
        cjk = f"{_CJK_TYPED}|" if lead in CJK_TYPED else ""
        return f"{re.escape(lead)}(?:{cjk}{fast}{after}(?!{skipped_lower})(?:{body}){footnote})"

    long_ends = "|".join(["[ivx]{4}", *([one_of(suffixes)] if suffixes else []), *compound_ends])
    long_ends = f"(?:{long_ends})"
    # A word of four lower-case letters or more, not a long abbreviation.
    word_end_period = f"(?<=[{LATIN1_LOWER}]{{4}}\\.)(?<!{long_ends}\\.)"
    period = [
        # (Whitespace tested first: it fails at once before a closer.)
        f"(?=\\s){word_end_period}",
        f"(?<=[{LATIN1_LOWER}]{{2}}\\.)(?<![ivx]{{2}}\\.){closer}+",
    ]
    if not odd_ends:
        period += ["(?<=[)\\]]\\.)", "(?<=\\d{4}\\.)"]
    # A word of two or three lower-case letters after whitespace, not an
    # abbreviation (the rules' word is then exactly these letters).
    period_short = tuple(
        f"(?=\\s)(?<=\\s[{LATIN1_LOWER}]{{{size}}}\\.)(?<![ivx]{{{size}}}\\.)"
        + (f"(?<!\\s{one_of(words)}\\.)" if words else "")
        for size, words in zip((2, 3), short, strict=True)
    )
    # A one-letter word after a space and a letter, not an abbreviation: an
    # initial (MEDIAL) that does not open its chunk (no cut ends at such a
    # space).  It ends the sentence before a whole capitalised sentence
    # starter of two letters or more, and not before another capitalised
    # word of two to STARTER_MAX letters (spaces or tabs between).
    letters = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in abbreviations)
    # (Upper case only: a lower-case letter may number an inline list item.)
    initial = f"(?<=[{LATIN1_LOWER}{LATIN1_UPPER}] [{letters.upper()}]\\.)"
    # Nor after a word of LETTER_NOUNS, or one of ANSWER_LETTERS after a word
    # of ANSWER_LEADS, where a capital names itself ("Plan B. Nobody", "is B.
    # Paris"): the rules decide.  (Any case, by length; the rules also need
    # whitespace or the chunk's start before the word.)
    letter_named = "".join(
        f"(?<!(?<![^\\W\\d_])(?i:{one_of(group)}) [{letters}]\\.)"
        for table, letters in ((LETTER_NOUNS, LATIN1_UPPER), (ANSWER_LEADS, ANSWER_LETTERS))
        for group in _by_length(table)
    )
    starters = one_of(w.capitalize() for w in sentence_starters if len(w) > 1)
    word_end = "(?=[\\W\\d_])"  # a character that ends the word (no letter)
    starter = f"{guard}(?={skipped}{starters}{word_end})"
    # (Tried after ``starter``, so a word of two letters or more that it takes
    # here is no sentence starter; a one-letter word is left to the rules.)
    no_starter = f"(?={skipped}[{LATIN1_UPPER}][^\\W\\d_]{{1,{STARTER_MAX - 1}}}+{word_end})"
    bang = [f"[!?]*{closer}*"]
    line_gap = r"[^\S\n]*+\n\s*+"
    line = f"{group('line', line_gap)}(?=\\S)"
    indent = r"[^\S\r\n]*+"
    # A single line break right after content that is no soft wrap, so the
    # chunk ends there: after a line shorter than WRAP_MIN, before content
    # that is not indented (an indented line may go on); or before an
    # upper-case letter, a digit or ASCII punctuation that neither goes on a
    # line nor may open a soft wrap.
    # (After "\r\n" too: the scanner ends such a chunk before the "\r".)
    # A line is short when fewer than WRAP_MIN characters but line breaks
    # precede its end; "." (no "\n") proves fewer lines short, those without
    # a lone "\r" (the rules decide the others), and is tested faster.
    ends_line = f"[{LATIN1_UPPER}0-9{re.escape(LINE_OPENERS)}]"
    short_lf = f"(?<!.{{{WRAP_MIN}}}\n){group('line', '')}(?=\\S)"
    goes_lf = f"{group('line', indent)}(?={ends_line})"
    short_crlf = f"(?<!.{{{WRAP_MIN}}}\r\n){group('line', '')}(?=\\S)"
    goes_crlf = f"{group('line', indent)}(?={ends_line})"
    # A line break the text so far cannot decide: whitespace to the end, or (in
    # a chunk that does not open with a heading marker, where a line break
    # ends the chunk anyway) one lower-case letter that may open a list marker
    # after a break that may be a soft wrap.
    wait = next(numbers)
    marker_end = f"{WRAP_BEFORE}[^\\S\\r\\n]{{0,{near - 1}}}+[a-z]"
    line_wait = f"(?P<wait{wait}>{white_end}|{marker_end})\\Z"
    blank_wait = f"(?P<wait{wait}>{white_end})\\Z"
    # A line break after content and WRAP_MIN characters without one, before
    # what goes on a line: a soft wrap when the chunk began at least WRAP_MIN
    # characters before it, else the chunk ends there (the scanner tells).
    # (Never in a chunk that opens with a heading marker: the same group,
    # never matched, keeps the groups of both searches numbered alike.)
    wrap_number = next(numbers)
    wrap = f"(?<=[^\\r\\n]{{{WRAP_MIN}}}\n)(?P<wrap{wrap_number}>)(?={WRAP_AFTER})"
    no_wrap = f"(?!)(?P<wrap{wrap_number}>)"

    def after_content(wrapped: str) -> str:
        # (Whether content precedes "\n" or "\r\n" is tested once, not
        # before each proof: at most one of them holds.)
        return (
            f"(?<=\\S\n)(?:{line}|{short_lf}|{goes_lf}|{wrapped})"
            f"|(?<=\\S\r\n)(?:{short_crlf}|{goes_crlf})"
        )

    line_breaks = f"\n(?!{SOFT_WRAP})(?:{after_content(wrap)}|{line_wait}|)"
    all_line_breaks = f"\n(?:{after_content(no_wrap)}|{blank_wait}|)"
    # A lone "\r" (a line break the rules decide), the ")" of a list marker.
    lone_cr, lone_cr_all = f"\r(?!\n)(?!{SOFT_WRAP})", "\r(?!\n)"
    item = f"\\){ITEM_PAREN}"
    # The branches of Latin-1 characters first, so that the narrow searches
    # (for text without any other character) number their groups alike.
    narrow = [
        branch(".", period, period_short, True, usual=word_end_period),
        branch("!", bang, usual=""),
        branch("?", bang, usual=""),
    ]
    wide = [
        branch("\u2026", []),
        branch("\u203d", []),
        # (Other scripts' terminators are candidates the rules decide: a branch
        # each with the proofs above costs about 9% more per character of
        # English prose, measured with cachegrind.)
        *(
            f"{c}{_SPACED_OR_GLUED if c in UNSPACED_SCRIPT_TERMINATORS else _SPACED}"
            for c in SCRIPT_TERMINATORS
        ),
        *sorted(CJK_TERMINATORS),
    ]
    narrow_marks = mark_branches(quote_leads, numbers, wide=False)
    wide_marks = mark_branches(quote_leads, numbers, wide=True)
    # (A line that goes on starts with no whitespace, so it rules out the blank
    # line after it too: that test comes first, where most line breaks fail.)
    return (
        re.compile(
            "|".join([*narrow, line_breaks, item, lone_cr, *narrow_marks, *wide, *wide_marks])
        ),
        re.compile(
            "|".join(
                [*narrow, all_line_breaks, item, lone_cr_all, *narrow_marks, *wide, *wide_marks]
            )
        ),
        re.compile("|".join([*narrow, line_breaks, item, lone_cr, *narrow_marks])),
        re.compile("|".join([*narrow, all_line_breaks, item, lone_cr_all, *narrow_marks])),
    )


def _may_lead(marks: str) -> str:
    """A regex for a character of ``marks`` (quotation marks that may open a
    quotation) where the character before it allows it to open."""
    brackets = re.escape("".join(c for c in marks if c in BRACKET_QUOTES))
    others = re.escape("".join(c for c in marks if c not in BRACKET_QUOTES))
    return "|".join(
        ([f"[{brackets}]"] if brackets else [])
        + ([f"(?<![^\\s{re.escape(QUOTE_OPEN_AFTER)}])[{others}]"] if others else [])
    )


def mark_branches(
    quote_leads: tuple[tuple[str, str], ...], numbers: Iterator[int], *, wide: bool
) -> list[str]:
    """The branches that find the quotation marks of ``quote_leads`` (each a
    mark and the context that must follow it) as ``mark`` groups numbered
    from ``numbers``: those above U+00FF when ``wide``, else the others."""
    return [
        f"{re.escape(c)}{where}(?P<mark{next(numbers)}>)"
        for c, where in sorted(quote_leads)
        if (c > "\xff") == wide
    ]


@lru_cache(maxsize=64)
def group_proofs(pattern: re.Pattern[str]) -> tuple[int, ...]:
    """For each group number of ``pattern``, what it proves (``_PROOFS``); 0
    for group 0, and for every group of a search that proves nothing."""
    kinds = [0] * (pattern.groups + 1)
    for name, number in pattern.groupindex.items():
        kinds[number] = _PROOFS[name.rstrip("0123456789")]
    return tuple(kinds)
