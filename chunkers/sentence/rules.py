r"""The rules of ``SentenceChunker(mode="accurate")``: one decision function,
:meth:`SentenceRules._ends`, over a candidate's context, reading the tables of
:mod:`.marks`, :mod:`.abbreviations` and :mod:`.languages`.

Candidates and the rules that decide them
-----------------------------------------
A *candidate* is a run of terminators (``.``, ``!``, ``?``, ``…``, ``‽`` and
the terminators of other scripts, ``SCRIPT_TERMINATORS`` of
:mod:`.marks`, in any mix), a run of CJK terminators (``。`` and
the full-width and half-width forms of ``!``, ``?``, ``.``), or a line break.
After a terminator run come optional closers (quotes, the German and Danish
closing quotes ``“`` and ``«`` included, ``)``, ``]``, Markdown emphasis, emoji
(``Thanks!🙂 Let``), footnote marks such as ``[12]``, ``[^12]`` or a file
citation ``【4:0†source】``, and a French ``»`` after a space when whitespace follows it:
``« Viens. » Puis``) and then whitespace; the chunk ends after the closers and the
whitespace travels with it (``Cut.stop``).  The language
(:mod:`.languages`) supplies the abbreviations, the sentence
starters and the ordinal rule below.

* A CJK terminator run ends a sentence, no whitespace needed, unless it is a
  full-width ``.`` between digits (a decimal point), in a name written in
  full-width forms, or after a full-width capital that opens the chunk or is
  one of dotted initials (a label, initials), a title mark closes it
  (``《...》``), a quotation mark or a full-width right parenthesis closes
  it right before the kana of a particle (``PARTICLE_CLOSERS``,
  ``QUOTE_PARTICLES``: ``「...。」と``; ``「...。」そして`` ends), or
  its closers are followed right away by another terminator, which decides
  (``“...。”。``: no chunk of a lone ``。``).  An ASCII ``!`` or ``?``
  (``CJK_TYPED``) right after a kana or ideograph (``UNSPACED_LETTERS``)
  opens such a run too (``すごい!次``, ``「行こう!」「うん。」``).
* A lone terminator of ``UNSPACED_SCRIPT_TERMINATORS`` (Armenian,
  Devanagari, Arabic, Ethiopic, Myanmar, the Greek question mark) between
  two characters above U+00FF, neither whitespace, the one after it no
  closer, ends a sentence, no whitespace needed (``ነው።ደህና``, ``है।यह``).
* Any other terminator run needs whitespace after it (``3.14``, ``v1.2.3``,
  ``example.com``, ``a.b@c.org``, ``https://x.y/z.html`` and ``Y!J`` never split),
  except a lone ``.`` glued to the next word that ends a sentence (the
  searches' ``GLUED`` candidates) after a word in no abbreviation table
  that is either three ASCII lower-case letters or more, optionally
  capitalised, or a number of three digits or more, when a title follows
  (``Tuesday.Mr. Smith``) or a capitalised pronoun or determiner of
  ``GLUED_STARTERS`` then a space and a lower-case letter (``world.Today is``,
  ``1,000.That is``); or after three lower-case letters or more of other
  scripts, before an upper-case letter (Kazakh ``...ы.XVIII``).  Code stays
  whole: ``nn.Module``, ``models.Model``, ``React.Component``, ``os.Path``,
  ``self.Foo``, ``np.NaN``, ``time.Now()``, ``sync.Once``.  A run (and its
  closers) followed right away by an inverted mark of ``INVERTED_OPENERS``
  (``¿`` ``¡``, which open a Spanish sentence) is decided as if whitespace
  stood before the mark (``tarde.¿Por qué?`` and ``¿Vienes?¡Sí!`` end,
  ``Sr.¿Viene?`` goes on as ``Sr. ¿Viene?`` does).
* A blank line always ends a sentence.  A line break is ``\n``, ``\r\n`` or
  a lone ``\r``.  A single line break ends a sentence too (a title line, a
  Markdown table row, a code line, a list without markers: each line is its
  own chunk), unless it is a *soft wrap*: the next line (after its spaces and
  tabs) starts with a lower-case letter that opens no list marker, and either
  that line is indented (``bad\n\t  word``), or the line before the break
  ends with a space or tab (``It was a cold \nnight``) or is a hard-wrapped
  line of prose, at least ``WRAP_MIN`` characters long counted from the
  chunk's start (``...templating engine.  Special\nplaceholders...``:
  the chunk ``Special`` is short, so it is cut).  A soft wrap goes on,
  and the rules below decide a terminator before it.  A
  short line before a lower-case one (``alpha\nbeta gamma``) ends, and so
  does any line before a capitalised word, a digit or punctuation, even in a
  hard-wrapped paragraph (``of the\nPallets team`` is cut: a known limit, the
  price of keeping titles and lists apart).  A list marker on the next line:
  a bullet (``-``, ``*``, ``+``, ``•``...), ``12.``, ``12)``, ``b.``, ``b)``,
  ``(iv)``, or a Markdown heading ``#``, always ends it, and so does any line
  break in a chunk that opens with a Markdown heading marker (``## Usage``),
  but a soft wrap right after a terminator run (``# Intro. \nmore``).
* Otherwise the next token decides (opening quotes, brackets and dashes before
  it are skipped).  A next token starting with ``.`` continues a spaced
  ellipsis (``. . .``); one starting with a lower-case letter never starts a
  sentence (``Yahoo! and``, ``e.g. a hat``, ``-- voila! -- you``) unless a
  single ``.`` ends a plain word right before it (below) or it is
  a list marker (``world. (b) Next``, ``done. a. more``), which counts as a
  capitalised word that is not a sentence starter, and is not a dash
  (``Stop! - he said``).  An elided word of ``ELIDED_WORDS`` in lower case
  after an apostrophe (``'`` or ``\u2018``, skipped as openers), then a
  space and a capital, counts as that capital (``Goed. 's Avonds eten we.``,
  ``Ja. 't Is mooi.``: Dutch capitalises the word after the elision).  A
  ``...`` or ``…`` inside brackets (``[...]``) is
  an elision and never ends it; a ``|`` (a table cell ends: ``| Fast. |``)
  never starts one, nor do up to ``_EMOJI_MAX`` emoji and spaces that end
  their line (``Thanks! \U0001f60a`` then a line break: they end this one).
* A capitalised (or upper-case) word that the language lists as a
  continuation (``Language.continuations``, none by default) never opens a
  sentence: no terminator run before it ends one (a blank line, or a line
  break that is no soft wrap, still does).
* A ``.`` or ``)`` that ends the marker of an inline list item (``2.``,
  ``b.)`` or ``b)`` after a space, an optional bullet before it) in a chunk
  that opens with a list marker ends the chunk before that marker when it
  follows the opening one (same form, next number or letter: ``1. One 2.
  Two``, ``a) one b) two``), restarts a list (``1``, ``a``, ``A``: ``• 10.
  Ten a. One``) or has another bullet (``• 10. Ten`` then ``9.`` after the hyphen
  bullet U+2043).  In a chunk that opens with none, a marker ending in a
  period that starts a list after a colon, or any after a bullet that is no
  ``-``, ``*`` or ``+``, ends the lead-in there (``Steps: 1.) Open``,
  ``Agenda • 9. First``).
* Footnote numbers glued to a period: a ``.`` after two lower-case letters or
  after ``)``, then one to three digits (up to three such numbers, a space
  between; digits of any script), then whitespace and a capitalised word ends
  the sentence after the numbers (``a consultation.12 Take``, ``(type 2).10
  This``), unless the word before the period is an abbreviation
  (``approx.5 Million``).  Decimals and versions (``3.14``, ``v1.2``,
  ``Section 2.1 Overview``) are no candidates: a digit precedes their period.
  Superscript digits, closers after any terminator run (``done.²³ The``
  ends), likewise end no sentence before more superscript digits
  (``today.⁴¹¹¹ ¹¹¹¹``: a number written in them).
* A run holding ``!``, ``?``, ``‽`` or another script's terminator (``?!``,
  ``!!!``, ``।``), or any run followed by
  a closer (``"Stop." Then``, ``(See above.) Next``), ends the sentence.
* An ellipsis (``..``, ``...``, ``....``, ``…``) ends the sentence only
  before a capitalised or uncased word.  A spaced one (``. . .``) never
  does (``It stopped . . . Then it went on``), unless it has four dots
  (``word . . . . Next``), or three after a period glued to a word, which
  then ends the sentence (``word. . . . Next``: the dots open the next).
* A single ``.`` looks at the word before it:

  - a list marker opening its chunk (``1.``, ``b.``, ``iv.``, after an optional
    bullet, a Markdown heading marker or block-quote markers, a space after
    them or not: ``## 1. Title``, ``> 1. Item``, ``>1. Item``) does not end
    it, nor does a number of up to three digits in a Markdown heading
    (``### Step 1. Install``: a heading is one line) or in a label that
    emphasis opening the chunk (``*``, ``**``, ``_``, ``__``, after an
    optional bullet) closes right after the period (``**Step 1.** Install``);
  - a known abbreviation (see :mod:`.abbreviations`) ends it by its kind:
    ``PREFIX`` never, ``FINAL`` before a capitalised word, ``TIME`` before a
    capitalised word that is not a title (``Mr.``) or, after a time that does
    not open its sentence, before a title too (``He left at 6 P.M. Mr. Smith
    stayed``; ``At 5 a.m. Mr. Smith left`` goes on), ``MEDIAL`` before a
    capitalised sentence starter (``The``, ``It``...) that is not itself an
    initial (``I.``); a word is looked up without an elision before an
    apostrophe (``l'Avv.``; a contraction such as ``isn't`` is a word),
    a word that a mark of ``ABBREVIATION_JOINERS`` (a hyphen, an en dash, a
    slash) joins to an abbreviation before it by its last part, a title
    there as ``MEDIAL`` (``Dipl.-Ing. Weber``, ``Sa./So. 10 Uhr``, ``Mo.-Fr.
    Am Samstag`` ends: a range's end), and a word glued
    to a kana or ideograph by what follows the last one when that is an
    abbreviation or a dotted form (``他叫Dr. Wang``, ``在U.S. Army``);
  - dotted forms (``U.S.A``, ``Ph.D``, any letters of one or two between
    periods, each with its combining marks: Hindi ``बी.ए``) and single
    letters (initials such as ``J. R. R. Tolkien``) are
    ``MEDIAL`` abbreviations, but a lower-case letter after a number and a
    space is a unit, ``FINAL`` (``Add 5 g. Then``, ``It ran 20 m. The``),
    unless it is the first half of a dotted abbreviation of the tables
    written spaced (``en el 63 a. C. en Roma``, ``44 v. Chr. in``),
    and a capital that a word of ``LETTER_NOUNS`` names, or one of
    ``ANSWER_LETTERS`` after a word of ``ANSWER_LEADS``, is a letter,
    ``FINAL`` but before an initial (``Plan B. Nobody``, ``The answer is B.
    Paris``; ``is J. Smith`` keeps its initial);
  - a word ending in an abbreviation of ``Language.compounds`` after a letter
    is that abbreviation (``language="de"``: ``Hauptstr. 5`` is ``str.``),
    and a label before a number (``Hauptstr. 12. Komm`` ends after ``12.``);
  - a word of one to three letters before a number is a label
    (``Rs. 500``, ``Gr. 5``, ``N°. 5``, ``l'art. 12``) and does not end it,
    unless it closes a quantity and a capital follows its first letter: a
    unit symbol, which takes no period (``Use 4 GB. 8 GB``, ``5 mL. 3``;
    ``§ 5 Abs. 3`` and ``5 ft. 3 in.`` go on), or it is a sentence starter
    of two letters or more in lower case, a whole word (``I ran it. 3
    failed``, ``That is all. 42 passed``);
  - a number of one or two digits before a capitalised word is an ordinal
    that does not end it: before a month name or its abbreviation in every
    language (``am 12. Juni``, ``am 3. Okt.``, ``am Mo. 5. Mai``), and
    before any other word in languages that write ordinals so
    (``language="de"``: ``der 3. Platz``), and in "auto" after a word of
    ``ORDINAL_LEADS`` (``zum 2. Mal``, ``im 3. Stock``), unless the word is a sentence
    starter (``ist 42. Das heißt``) or a label of one to three letters and a
    period come before the number (``Zimmer Nr. 5. Morgen``: a count); in
    the languages that write ordinals so, the day and month of a date
    written with periods and spaces do not end it either
    (``am 3. 10. 1990``, ``am 5. 6. kommt``);
  - a dotted abbreviation of two letters written spaced is looked up as one
    (``и т. д. Всё`` ends, ``z. B. Der`` goes on; in upper case only a
    ``PREFIX``, as ``A. M. Turing`` is a name), and so is one of a
    lower-case letter and a capitalised word of two or three letters (an era:
    ``44 v. Chr. Er`` ends as ``v.Chr.`` does, ``f. Kr.``), and no list item
    opens at its second letter (``a las 9 p. m.``: not the ``m.`` of a list);
  - a capital written twice before another and a period (``EE. UU.``,
    ``RR. HH.``: a Spanish plural written spaced) does not end it;
  - a plain word, two ASCII lower-case letters or more (``npm``, ``hi``),
    not the second half of a spaced abbreviation (``p. ex.``, ``p. ej.``),
    ends it also before a lower-case word right after the whitespace
    (``Use npm. npm is great.``, ``ann says hi. ann says hi.``), and so does
    a word of inline code (``Run `make`. make builds it.``), in English
    and "auto" only (``Language.plain_words``); a ``!`` or
    ``?`` before a lower-case word never does (``Yahoo! and``, ``"Oh!" she
    said``), nor a ``.`` after a capitalised word, an acronym, a number, a
    dotted form, an initial or a word of other scripts (``Calif. and``,
    ``p. 55``, ``J. smith``);
  - any other word (``600``, ``3.14``, ``example.com``) ends the sentence
    unless a lower-case word follows.

Sentences inside a quotation are joined by the layer over the scanner
(:mod:`.quotes`), not by these rules.

Known limits (by design, measured in ``benchmarks/sentence_accuracy.py``):
inline list items longer than 40 characters are not split, nor a sentence
glued to the next but by the narrow rule above (``lunch.Then we`` stays
whole); a lower-case abbreviation missing from the tables is taken for a
plain word before a lower-case word (``The med. staff`` holds only because
``med`` is listed); a name after
a ``MEDIAL`` abbreviation that ends its sentence stays joined (``Acme Inc. Bob
left``), and so does one after ``a.m.``/``p.m.`` (``at 9 p.m. Bob left``);
a time that opens its sentence after a word missing from ``TIME_LEADS`` is
cut before a title (``Early on at 5 a.m. Mr. Smith left``); a spaced time in
upper case is cut (``5 P. M.``), and a unit before an initial that makes an
abbreviation of the tables with it is taken for its first half (``12 m. A. Lee``
goes on, as ``63 a. C. en`` does); in languages that write ordinals with a
period, a number of one or two digits ending a sentence before a capitalised
word does not end it (``Bývam na ul. Hlavnej 5. Príď``), unless a label
precedes it (``Nr. 5. Komm``, ``Hauptstr. 12. Komm``) or a sentence starter
follows (``Es war 1. 5. 22. Wir``), and in "auto" likewise after a word
of ``ORDINAL_LEADS`` (``Er stand im 3. Tom kam``); an era that ends its
sentence's first clause before a name is cut, as an era ending a sentence
is (``Als 300 v. Chr. Kaiser Diokletian regierte,`` is cut after ``Chr.``),
and an era of three spaced parts is read as three (``50 v. u. Z. Niemand``
is cut after ``v.`` in "auto"); ``language="el"`` reads every ``;`` as a
question mark, also inside code (``x = 1; Y = 2`` is cut after ``;``)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from .abbreviations import (
    ANSWER_LEADS,
    ANSWER_LETTERS,
    CONTRACTION_ENDS,
    ELIDED_WORDS,
    FINAL,
    GLUED_STARTERS,
    LETTER_NOUNS,
    MEDIAL,
    PREFIX,
    TIME,
    TIME_LEADS,
    TIME_ZONES,
    UNITS,
)
from .languages import (
    MONTH_ABBREVIATIONS,
    MONTHS,
    ORDINAL_AFTER_LEADS,
    ORDINAL_ALWAYS,
    ORDINAL_LEADS,
    ORDINAL_MONTHS,
)
from .marks import (
    ABBREVIATION_JOINERS,
    BULLETS,
    CJK_TERMINATORS,
    CODE_MARK,
    DANDAS,
    DASHES,
    DECIMAL_STOPS,
    GLUED_BULLETS,
    INVERTED_OPENERS,
    ITEM_BULLETS,
    LETTER_MARKS,
    OPENERS,
    PARTICLE_CLOSERS,
    PICTOGRAPHS,
    QUOTE_PARTICLES,
    QUOTES,
    SUPERSCRIPT_DIGITS,
    TERMINATORS,
    TITLE_CLOSERS,
    UNSPACED_LETTERS,
    UNSPACED_SCRIPT_TERMINATORS,
    WORD_OPENERS,
)

__all__ = [
    "CJK",
    "FOOTNOTE",
    "FOOTNOTE_BEFORE",
    "FOOTNOTE_NUMBERS",
    "FOOTNOTE_OPENERS",
    "ITEM",
    "ITEM_PAREN",
    "LETTERS",
    "LINE_BREAK",
    "LOOKBEHIND",
    "SOFT_WRAP",
    "TERMINATOR",
    "WRAP_AFTER",
    "WRAP_BEFORE",
    "WRAP_MIN",
    "WRAP_PUNCTUATION",
    "NeedMore",
    "SentenceRules",
    "line_breaks",
    "list_marker",
    "opens_heading",
]

#: Characters kept before the scan position (the longest word inspected, plus
#: a bullet before a list marker; more than ``WRAP_MIN``).
LOOKBEHIND = 40
_WORD_MAX = 32  # a longer word before a period is a plain word
_LEAD_MAX = max(map(len, LETTER_NOUNS | ANSWER_LEADS)) + 1  # (no longer word is one)
SKIP_MAX = 8  # opening punctuation skipped before the next token
STARTER_MAX = 13  # as long as the longest sentence starter ("unfortunately") or continuation

#: The kinds of candidate: a terminator run, a CJK terminator run, a line
#: break, the ``)`` of an inline list marker (``b)``).
TERMINATOR, CJK, LINE_BREAK, ITEM = range(4)

# What kind of token follows a candidate (after the openers it skips).
_LOWER, _UPPER, _DIGIT, _OTHER, _MARKER = range(5)

# How a line break may be a soft wrap (see SentenceRules._wraps_before).
_LONG_LINE, _SPACED = 1, 2

#: A line at least this long before a single line break, and a lower-case
#: word after it, is a hard-wrapped line of prose (a soft wrap).
WRAP_MIN = 32

#: Where a single line break may be a soft wrap (a regex, right after the
#: ``\n`` or lone ``\r``): a space or tab before it.  (Not after ``\r\n``,
#: nor after a long line, which counts from the chunk's start: the rules
#: decide those.)
WRAP_BEFORE = "(?<=[ \t][\r\n])"

#: Punctuation that goes on a line it begins (``pricing\n.``).
WRAP_PUNCTUATION = ".,;:!?)]}"

#: What follows a soft wrap right after the line break (a regex): a lower-case
#: letter of ASCII or Latin-1 that cannot open a list marker (``b.``, ``iv)``),
#: or ``WRAP_PUNCTUATION``.
WRAP_AFTER = (
    "[a-hj-uwyz][^.)]|[ivx][^.)ivxIVX]|[\u00df-\u00f6\u00f8-\u00ff]"
    f"|[{re.escape(WRAP_PUNCTUATION)}]"
)

#: A line break (``\n`` or lone ``\r`` just matched) that the rules find to be a
#: soft wrap, which goes on (a regex; the rules find others too): also before
#: ``(`` and a space after a space or tab (``400 yd \n( 365.8 m )``).
SOFT_WRAP = f"(?:{WRAP_BEFORE}(?:{WRAP_AFTER}|\\([ \t])|[ \t]+(?:{WRAP_AFTER}))"

#: Footnote numbers glued to a period (a regex, right after the ``.``): two
#: lower-case letters or ``)`` before it, then up to three numbers of one to
#: three digits, a space between (``consultation.11 12``).
FOOTNOTE_BEFORE = "(?:(?<=[a-z\u00df-\u00f6\u00f8-\u00ff]{2}\\.)|(?<=\\)\\.))"
FOOTNOTE_NUMBERS = "\\d{1,3}(?!\\d)(?: \\d{1,3}(?!\\d)){0,2}"
#: A period that footnote numbers may follow: a candidate (a regex, right
#: after the ``.``).
FOOTNOTE = f"{FOOTNOTE_BEFORE}(?=\\d{{1,3}}(?!\\d))"
#: A footnote mark among the closers after a terminator run (a regex):
#: ``[12]``, Markdown's ``[^12]`` (``It works.[^1] Next``), or a file
#: citation of OpenAI's assistants, ``\u30104:0\u2020source\u3011`` (a
#: number, an optional second one, a dagger and at most 64 characters on
#: one line).
FOOTNOTE_MARK = (
    "(?:\\[\\^?\\d{1,4}\\]|\u3010\\d{1,4}(?::\\d{1,4})?\u2020[^\u3011\\r\\n]{0,64}\u3011)"
)
#: The beginning of a footnote mark, all the text so far may hold of one
#: (``[``, ``[^1``, ``\u30104:0\u2020sou``): it waits for the rest.
FOOTNOTE_BEGUN = (
    "(?:\\[\\^?\\d{0,4}"
    "|\u3010(?:\\d{1,4}(?::\\d{0,4}|(?::\\d{1,4})?\u2020[^\u3011\\r\\n]{0,64})?)?)"
)
#: The characters a footnote mark begins with.
FOOTNOTE_OPENERS = "[\u3010"

#: The ``)`` of an inline list marker (a regex, right after the ``)``): one
#: letter or up to three digits after whitespace or a bullet, whitespace (or
#: the end of the text so far) after it.  A candidate.
ITEM_PAREN = (
    "(?:"
    + "|".join(
        f"(?<=[\\s{re.escape(ITEM_BULLETS)}]{body}\\))"
        for body in ("[0-9A-Za-z]", "[0-9]{2}", "[0-9]{3}")
    )
    + ")(?!\\S)"
)

#: A word's letters, as the rules and the searches both read them (the
#: searches cannot test ``str.isalpha``).
LETTERS = re.compile(r"[^\W\d_]*")

_OPENERS = frozenset(OPENERS)
# The apostrophes (skipped as openers) before an elided word that may open a
# sentence.
_ELISION_MARKS = "'\u2018"
_QUOTES = frozenset(QUOTES)
_DASHES = frozenset(DASHES)
_BULLETS = frozenset(BULLETS)
_ITEM_BULLETS = frozenset(ITEM_BULLETS)
#: Bullets that are nothing else (not ``-``, ``*`` or ``+``, which may be
#: arithmetic or emphasis): one before a marker opens a list item anywhere.
_LIST_BULLETS = frozenset(ITEM_BULLETS) - frozenset("-*+")
_WORD_END = re.compile(r"(?<!\S)\S+\Z")
#: The end of a word after its last kana or ideograph: Chinese and Japanese
#: set a Latin word after one with no space (``他叫Dr. Wang``).  (Linear: a
#: match starts only after a kana or ideograph and stops at the next one.)
_AFTER_UNSPACED = re.compile(f"(?<=[{UNSPACED_LETTERS}])[^{UNSPACED_LETTERS}]+\\Z")
# (A letter and its marks: the vowel sign of Hindi "बी.ए", "ई.पू".)
_MARKED_LETTER = f"[^\\W\\d_][{LETTER_MARKS}]*"
#: A word up to the last mark joining an abbreviation to the word after it
#: (``Dipl.-``, ``Mo.\u2013``, ``Sa./``), which is then read by that word.
_JOINED = re.compile(f".*\\.[{re.escape(ABBREVIATION_JOINERS)}](?=.)")
_DOTTED = re.compile(f"(?:{_MARKED_LETTER}){{1,2}}(?:\\.(?:{_MARKED_LETTER}){{1,2}})+")
#: A plain word before a period, which ends a sentence before a lower-case word.
_PLAIN_WORD = re.compile(r"[a-z]{2,}")
#: The end of inline code (`` `make` ``, ``ci` `` of `` `npm ci` ``), which
#: ends one the same way.
_CODE_WORD = re.compile(f"\\S*[^\\s{CODE_MARK}]{CODE_MARK}")
# Words before a period glued to the next word (see ``_glued_ends``).
_GLUED_WORD = re.compile(r"[A-Z]?[a-z]{3,}|\d{1,3}(?:,\d{3})+|\d{3,}")
_GLUED_OTHER = re.compile(r"[^\W\d_\x00-\xff]{3,}")
_LIST_MARK = re.compile(r"\d{1,3}|[A-Za-z]|[ivx]{1,5}|[IVX]{1,5}")
_HEADING = re.compile(r"#{1,6}[ \t]")
#: A label of one to three letters and a period (``Nr.``, ``N°.``) and the
#: day of a date (``5.``), right before a number (see ``_after``: ``\Z``
#: holds at the end it searches to, so the match found is the one ending
#: there, not the first in reach, as in ``bzw. Kap. 3``).
_LABEL_BEFORE = re.compile(r"[^\W\d_]{1,3}[\u00b0\u00ba]?\.[ \t\u00a0]+\Z")
_DAY_BEFORE = re.compile(r"\d{1,2}\.[ \t\u00a0]+\Z")
#: A word of ``ORDINAL_LEADS`` right before a number (``zum 2``), its first
#: letter in either case (see ``_after``: at most 8 characters).
_ORDINAL_LEAD_BEFORE = re.compile(
    "(?:"
    + "|".join(f"[{w[0]}{w[0].upper()}]{re.escape(w[1:])}" for w in sorted(ORDINAL_LEADS))
    + r")[ \t\u00a0]{1,3}\Z"
)
_CLOCK = re.compile(r"[0-9]{1,2}(?:[:.][0-9]{2})?")
_BULLET = f"[{re.escape(''.join(sorted(BULLETS)))}]"
_BULLET_LEAD = re.compile(f"{_BULLET}\\s+")
#: Markdown block-quote markers before a list marker (``> 1.``, ``> > - 2.``).
_QUOTE_LEAD = re.compile(f"(?:>[ \\t]?)+(?:{_BULLET}[ \\t]+)?")
#: Markdown emphasis opening a chunk, after an optional bullet (``**``,
#: ``- _``): the mark (see ``SentenceRules._emphasis_label``).
_EMPHASIS_LEAD = re.compile(f"(?:{_BULLET}[ \\t]+)?(\\*\\*?|__?)(?=[^\\s*_])")
_ITEM_OPENING = re.compile(
    f"(?:([{re.escape(''.join(sorted(ITEM_BULLETS)))}]) ?)?(\\d{{1,3}}|[A-Za-z])(\\.\\)?|\\))\\s"
)
_BREAK = re.compile("[\\r\\n]")


def line_breaks(text: str, lo: int, hi: int) -> int:
    """How many line breaks (``\\n``, ``\\r\\n``, a lone ``\\r``) ``text[lo:hi]``
    holds; a ``\\r`` at ``hi - 1`` counts as one (the caller makes sure that
    no ``\\n`` follows it, or has not scanned it yet)."""
    count = text.count("\n", lo, hi)
    if text.find("\r", lo, hi) >= 0:
        count += text.count("\r", lo, hi) - text.count("\r\n", lo, hi)
    return count


def opens_heading(buf: str, k: int) -> bool | None:
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


class NeedMore(Exception):
    """The decision needs text that has not arrived yet."""


def _inline_item(buf: str, base: int, at: int, chunk: int) -> tuple[int, int] | None:
    """The inline list item numbered by the marker that the ``.`` or ``)`` at
    absolute offset ``at`` ends (``2.``, ``b.)`` or ``b)`` after a space, an
    optional bullet before it: ``1. One 2. Two``, ``a) One b) Two``), when
    the chunk starting at ``chunk`` opens with a list marker that it follows
    (the same bullet and form, the next number or letter), or the marker
    restarts a list (``1``, ``a``, ``A``) or has another bullet than the
    opening one (``9.`` after U+2043 in ``• 10. Ten``): ``(end of the chunk before it,
    start of its marker)``; else ``None``.  An upper-case letter counts only
    before ``)`` (a bare ``B.`` is an initial).  Reads ``buf`` from ``chunk``
    to two characters after ``at``."""
    k = at - base
    i = k
    while i > 0 and k - i < 3 and "0" <= buf[i - 1] <= "9":
        i -= 1
    if buf[k] == ")":
        form = ")"
    else:
        form = ".)" if buf[k + 1 : k + 2] == ")" else "."
    if i == k:
        letter = buf[k - 1] if k else ""
        if not (letter.isascii() and letter.isalpha()) or (form == "." and letter.isupper()):
            return None
        i = k - 1
    mark = i
    bullet = ""
    if mark > 0 and buf[mark - 1] in _ITEM_BULLETS:
        bullet = buf[mark - 1]
        mark -= 1
    elif mark > 1 and buf[mark - 1] == " " and buf[mark - 2] in _ITEM_BULLETS:
        bullet = buf[mark - 2]
        mark -= 2
    if mark == 0 or not buf[mark - 1].isspace() or chunk - base < 0 or chunk - base >= mark:
        return None
    m = _ITEM_OPENING.match(buf, chunk - base, mark)
    number = buf[i:k]
    if m is None:
        # The first item of a list after its lead-in, numbered with a period
        # (which would otherwise end a sentence after the marker): a marker
        # that starts a list after a colon (``Steps: 1.) Open``), or any after
        # a bullet (``Agenda • 9. First``): the lead-in is its own chunk.  (A
        # list of ``a)`` markers after a lead-in stays one chunk: no period.)
        lead = buf[chunk - base : mark].rstrip()
        starts = number in ("1", "a", "A") and lead.endswith(":")
        if form != ")" and (starts or bullet in _LIST_BULLETS):
            return (base + chunk - base + len(lead), base + mark)
        return None
    if number in ("1", "a", "A") or bullet != (m.group(1) or ""):
        follows = True  # a list restarts, or another list begins
    else:
        previous = m.group(2)
        if m.group(3) != form or number.isdigit() != previous.isdigit():
            return None
        if number.isdigit():
            follows = int(number) == int(previous) + 1
        else:
            follows = ord(number) == ord(previous) + 1
    if not follows:
        return None
    lo = chunk - base  # (the chunk opens with a marker: content before ``mark``)
    return (base + lo + len(buf[lo:mark].rstrip()), base + mark)


def _unspaced_script_ends(buf: str, k: int) -> bool:
    """Whether the lone terminator of :data:`.marks.UNSPACED_SCRIPT_TERMINATORS`
    at ``buf[k]``, which no closer and no whitespace follow, ends a sentence:
    the characters on both sides are above U+00FF and no whitespace, and the
    one before is no terminator (``ነው።ደህና``, ``है।यह``; not ``10\u058930``,
    ``https\u0589//``: a named language maps ``:`` onto U+0589).  Raises
    ``IndexError`` when ``buf`` ends at the terminator."""
    after = buf[k + 1]
    if k == 0 or after <= "\xff" or after.isspace():
        return False
    if after.isdecimal() and buf[k] in DANDAS:
        return False  # (a verse's number: "॥१॥")
    before = buf[k - 1]
    return before > "\xff" and not before.isspace() and before not in TERMINATORS


def _latin_alnum(c: str) -> bool:
    """Whether ``c`` is an ASCII letter or digit, or its full-width form."""
    return (c.isascii() or "\uff10" <= c <= "\uff5a") and c.isalnum()


#: Emoji (:data:`.marks.PICTOGRAPHS`), and runs of them with spaces, at most
#: ``_EMOJI_MAX`` characters.
_EMOJI = re.compile(f"[{PICTOGRAPHS}]")
_EMOJI_RUN = re.compile(f"[{PICTOGRAPHS} \t]*")
_EMOJI_MAX = 16


#: Terminators that may follow the closers of a CJK run right away, which
#: then end no sentence: the later terminator decides (``\u201c\u8d70\u3002\u201d\u3002``).
_RUN_AGAIN = frozenset(CJK_TERMINATORS + TERMINATORS)

#: Most digits of a list marker ended by a full-width full stop (``\uff11\uff12\uff0e``).
_LIST_DIGITS_MAX = 2
#: The numerals that number a Chinese or Japanese list (``\u4e00\uff0e``,
#: ``\u5341\u4e8c\uff0e``), as digits do.
_CHINESE_NUMERALS = frozenset("\u3007\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341")


def _full_width_capital(c: str) -> bool:
    """Whether ``c`` is a full-width Latin capital letter."""
    return "\uff21" <= c <= "\uff3a"


#: Most unseen characters (:func:`_unseen`) read past around a full-width dot
#: (with the word before it, within ``LOOKBEHIND``).
_INVISIBLE_MAX = 8
#: The at signs of an address (ASCII, full-width, small).
_ATS = "@\uff20\ufe6b"
#: What a domain holds between its ``@`` and a dot (ASCII or full-width forms).
_DOMAIN_MARKS = "-.\u3002\uff0d\uff0e\uff61"
#: CJK full stops that may be a dot inside a name (``DECIMAL_STOPS``, and the
#: ideographic full stop after ``@`` and a domain: ``jo@example\u3002com``).
_DOTS = DECIMAL_STOPS + "\u3002"


def _unseen(c: str) -> bool:
    """Whether ``c`` is a format character (``Cf``: zero-width space, soft
    hyphen) or a combining mark (an accent of decomposed text), which the
    detectors of personal data read past too."""
    return not c.isascii() and unicodedata.category(c) in ("Cf", "Mn", "Me")


def _shown(buf: str, j: int, step: int) -> str:
    """The first character from ``buf[j]`` on, going by ``step`` (1 or -1),
    that is not :func:`_unseen`, past at most ``_INVISIBLE_MAX`` of them;
    ``""`` when there are more, or the text starts first.  Raises
    ``IndexError`` when, going forward, the window ends first."""
    for _ in range(_INVISIBLE_MAX + 1):
        if j < 0:
            return ""
        c = buf[j]
        if not _unseen(c):
            return c
        j += step
    return ""


def _in_address(buf: str, i: int, marks: str = _DOMAIN_MARKS) -> bool:
    """Whether the dot at ``buf[i]`` follows ``@`` and a domain (letters,
    digits, invisible characters and ``marks``: hyphens and dots), within
    ``_WORD_MAX`` characters."""
    return _domain_before(buf, i, marks) is not None


def _domain_before(buf: str, i: int, marks: str) -> str | None:
    """The domain between an ``@`` and ``buf[i]`` (see :func:`_in_address`),
    or ``None``."""
    for j in range(i - 1, max(i - 1 - _WORD_MAX, -1), -1):
        c = buf[j]
        if c in _ATS:
            return buf[j + 1 : i] if j < i - 1 else None
        if not (_latin_alnum(c) or c in marks or _unseen(c)):
            return None
    return None


#: What a domain written with ideographic full stops holds besides letters
#: and digits (after ``jo@example.com``, U+3002 ends the sentence).
_IDEOGRAPHIC_DOMAIN = "-\u3002\uff0d"
#: The most digit groups, and digits in one, read each way from an
#: ideographic full stop between digits (an IPv4 address has 4 groups, a
#: phone number 3 to 5).
_GROUPS_MAX, _GROUP_MAX = 5, 5
#: What may join those groups besides the ideographic full stop: every dot the
#: detectors of personal data read as ``.`` (``192.168\u300210.20`` is an address).
_GROUP_DOTS = ".\u2024\u3002\ufe52\uff0e\uff61"


def _digit_groups(buf: str, i: int) -> int:
    """How many groups of digits the ideographic full stop at ``buf[i]``
    (between digits) and the dots around it (:data:`_GROUP_DOTS`) join,
    reading at most ``_GROUPS_MAX`` groups of at most ``_GROUP_MAX`` digits
    each way (a longer run ends the count).  Raises ``IndexError`` when
    ``buf`` ends first, going forward."""
    groups = 0
    for step in (-1, 1):
        j = i
        for _ in range(_GROUPS_MAX):
            n = 0
            while n <= _GROUP_MAX and j + step * (n + 1) >= 0 and buf[j + step * (n + 1)].isdigit():
                n += 1
            if not 0 < n <= _GROUP_MAX:
                break
            groups += 1
            j += step * (n + 1)
            if j < 0 or buf[j] not in _GROUP_DOTS:
                break
    return groups


def _is_capital(c: str) -> bool:
    """Whether ``c`` is a letter that is not lower case (upper case or uncased)."""
    return c.isalpha() and not c.islower()


#: Longest local part of an address (RFC 5321) read past a glued period.
_LOCAL_MAX = 64


def _local_part(buf: str, j: int) -> bool:
    """Whether ``buf[j:]`` runs to an ``@`` within ``_LOCAL_MAX`` characters
    with no whitespace.  Raises ``IndexError`` when ``buf`` ends first."""
    for k in range(j, j + _LOCAL_MAX):
        c = buf[k]
        if c in _ATS:
            return True
        if c.isspace():
            return False
    return False


#: A run of what a local part written in Latin letters holds: ASCII letters,
#: digits and atext (RFC 5322), full-width letters and digits, dots (ASCII or
#: CJK), and the invisible characters and combining marks text most often
#: hides in one (those of :func:`_unseen` in common use), read at most
#: ``_LATIN_LOCAL_AFTER`` characters after a dot (a longer rest of a local
#: part is rare, and every full-width dot before a capital waits for it).
_LATIN_LOCAL_AFTER = 24
_LATIN_LOCAL_RUN = re.compile(
    "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~.\uff10-\uff19\uff21-\uff3a\uff41-\uff5a"
    "\uff0e\uff61\u3002\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    f"\ufeff\ufe00-\ufe0f\u0300-\u036f\u20d0-\u20ff]{{0,{_LATIN_LOCAL_AFTER}}}"
)


def _latin_local_part(buf: str, j: int) -> bool:
    """Whether ``buf[j:]`` runs to an ``@`` within ``_LATIN_LOCAL_AFTER``
    characters of a local part written in Latin letters
    (``_LATIN_LOCAL_RUN``).  Raises ``IndexError`` when ``buf`` ends first."""
    match = _LATIN_LOCAL_RUN.match(buf, j)
    end = match.end() if match else j
    if end - j >= _LATIN_LOCAL_AFTER:
        return False
    return buf[end] in _ATS


def _doubled_capital(word: str) -> bool:
    """Whether ``word`` is one capital written twice (``EE``, ``RR``), the
    half of a Spanish plural abbreviation (``EE. UU.``, ``RR. HH.``)."""
    return len(word) == 2 and word[0] == word[1] and word.isupper()


def _word_at(buf: str, j: int) -> str:
    """The letters from ``buf[j]`` on, or ``""`` when there are more than
    ``STARTER_MAX`` (no sentence starter or month is so long).  Raises
    ``IndexError`` when ``buf`` ends before the word does."""
    k = j
    while buf[k].isalpha():
        k += 1
        if k - j > STARTER_MAX:
            return ""
    return buf[j:k]


def _after_elision(buf: str, j: int) -> int:
    """The offset of the capital after the elided word at ``buf[j]`` (one of
    ``ELIDED_WORDS``, an apostrophe before it) and a space, or ``j`` when
    they are not there.  Reads the word as :func:`_word_at` does, then two
    characters; raises ``IndexError`` when ``buf`` ends before that is decided."""
    word = _word_at(buf, j)
    k = j + len(word)
    if word in ELIDED_WORDS and buf[k] == " " and buf[k + 1].isupper():
        return k + 1
    return j


def list_marker(peek: str, j: int) -> bool:
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


class SentenceRules:
    """The decision of a candidate, from the text around it (the rules of the
    module docstring), read from the tables of one language.

    A mix-in of :class:`~.scanner.SentenceScanner`, which holds the window
    (``_buf`` from absolute offset ``_base`` on), the current chunk and the
    tables, and calls :meth:`_ends` once a candidate's runs are scanned.
    """

    # The scanner's state that the rules read (see SentenceScanner.__init__;
    # its __slots__ hold them).
    _buf: str
    _base: int
    _start: int | None
    _heading: bool | None
    _item: tuple[int, int] | None
    _abbreviations: Mapping[str, int]
    _starters: frozenset[str]
    _continuations: frozenset[str]
    _compounds: frozenset[str]
    _plain_words: bool
    _foreign: frozenset[str]
    _ordinals: int
    _word_offset: int
    _word_read: tuple[str, bool, bool, tuple[int, int] | None]
    _wrap_offset: int
    _wrap_read: int

    def _ends(
        self,
        kind: int,
        at: int,
        run_end: int,
        closers_end: int,
        space_end: int,
        newlines: int,
        bang: bool,
        ellipsis: bool,
    ) -> bool:
        """Whether the candidate of ``kind`` at absolute offset ``at`` ends a
        sentence: the one decision every path of the scanner takes (the
        searches of :mod:`.fast_path` prove the same in the common cases).

        Its runs are scanned: terminators up to ``run_end``, closers up to
        ``closers_end``, whitespace (holding ``newlines`` line breaks) up to
        ``space_end``, where the next token begins in the window; ``bang``:
        the run holds a terminator other than ``.`` and ``…``; ``ellipsis``:
        it holds ``…`` or more than one ``.``.  For a line break, ``run_end``
        and ``closers_end`` are where the content before it ends; for the
        ``)`` of a list marker (``ITEM``) only ``at`` counts.  Raises
        :class:`NeedMore` when the text that decides has not arrived.  May
        record an inline list item to cut before (``_item``).
        """
        if kind == TERMINATOR:
            closer = self._buf[closers_end - 1 - self._base] if closers_end > run_end else ""
            if space_end == closers_end:
                try:
                    if self._buf[closers_end - self._base] in INVERTED_OPENERS:
                        # ("tarde.¿Por": decided as "tarde. ¿Por" would be.)
                        return self._term_ends(
                            at, closer, bang, ellipsis, closers_end, space_end, newlines
                        )
                    return closers_end == at + 1 and self._glued_ends(at)
                except IndexError:
                    raise NeedMore from None
            return self._term_ends(at, closer, bang, ellipsis, closers_end, space_end, newlines)
        if kind == ITEM:
            self._item = self._paren_item(at)  # "a) One b) Two": cut before "b)"
            return False
        if kind == CJK:
            try:
                if not self._cjk_goes_on(at, run_end, closers_end, space_end):
                    return True
            except IndexError:
                raise NeedMore from None
        # A line break, or one after a CJK run that goes on (a title: U+300B).
        return newlines > 0 and self._line_ends(at, closers_end, space_end, newlines)

    def _line_ends(self, at: int, lo: int, space_end: int, newlines: int) -> bool:
        """Whether a line break (whitespace from ``lo`` holding ``newlines``
        line breaks up to ``space_end``) of the candidate at ``at`` ends a
        sentence: a blank line, a chunk that opens with a heading marker, or
        a line break that is no soft wrap (:meth:`_soft_wrap`)."""
        if newlines >= 2 or self._is_heading():
            return True
        try:
            return not self._soft_wrap(at, lo, space_end)
        except IndexError:
            raise NeedMore from None

    def _soft_wrap(self, at: int, lo: int, space_end: int) -> bool:
        """Whether the single line break in the whitespace from ``lo`` to
        ``space_end`` of the candidate at ``at`` is a soft wrap, which goes
        on: at ``space_end`` a lower-case letter or ``WRAP_PUNCTUATION``
        after a space or tab or a line of ``WRAP_MIN`` characters before the
        break (:meth:`_wraps_before`), or a ``(`` after a space or tab; and
        no list marker.  Raises ``IndexError`` when the window ends before
        that is decided."""
        buf = self._buf
        k = space_end - self._base
        c = buf[k]
        if c == "(":
            if self._wraps_before(at, lo) != _SPACED:
                return False
        elif not (c.islower() or c in WRAP_PUNCTUATION):
            return False
        elif buf[k - 1] not in " \t" and not self._wraps_before(at, lo):
            return False  # (an indented line goes on: "bad\n\t  word")
        return not list_marker(buf, k)

    def _wraps_before(self, at: int, lo: int) -> int:
        """Whether the first line break from absolute offset ``lo`` on (in
        the whitespace of the candidate at ``at``) follows a space or tab
        (``_SPACED``), or ``WRAP_MIN`` characters of the current chunk without
        a line break (``_LONG_LINE``: so that a chunk chunked alone is
        itself), or neither (0).  Read once per candidate (the
        scanner asks as soon as it has scanned the break, before the text
        before it may be dropped)."""
        if self._wrap_offset == at:
            return self._wrap_read
        buf = self._buf
        found = _BREAK.search(buf, max(lo - self._base, 0))
        assert found is not None
        k = found.start()
        if k > 0 and buf[k - 1] in " \t":
            wraps = _SPACED
        elif (
            k - WRAP_MIN >= max(self._start - self._base, 0)  # type: ignore[operator]
            and _BREAK.search(buf, k - WRAP_MIN, k) is None
        ):
            wraps = _LONG_LINE
        else:
            wraps = 0
        self._wrap_offset = at
        self._wrap_read = wraps
        return wraps

    def _paren_item(self, at: int) -> tuple[int, int] | None:
        """The inline list item whose marker the ``)`` at ``at`` ends
        (:func:`_inline_item`), when the chunk begins at most
        ``LOOKBEHIND`` characters before it."""
        chunk = self._start if self._start is not None else -1
        if chunk < at - LOOKBEHIND:
            return None
        return _inline_item(self._buf, self._base, at, chunk)

    def _cjk_goes_on(self, at: int, run_end: int, closers_end: int, space_end: int) -> bool:
        """Whether the CJK run at ``at`` (terminators up to ``run_end``,
        closers up to ``closers_end``, whitespace up to ``space_end``, the
        character there in the window) ends no sentence: a full-width or
        half-width ideographic full stop (U+FF0E, U+FF61) between digits (a
        decimal point) or between a Latin letter or digit and a lower-case one
        or a digit, ASCII or full-width (a name such as ``example.com`` in
        full-width forms; one before a capital ends, unless it follows ``@``
        and a domain: ``JO@EX.COM``), an ideographic full stop (U+3002)
        between Latin letters or digits after ``@`` and a domain with no dot
        yet (``jo@example\u3002com``) or before the rest of a local part that
        runs to an ``@`` within ``_LATIN_LOCAL_AFTER`` characters
        (``taro\u3002yamada@example.jp``, which the PII detectors read as one
        address; undecided, so no end, where the text ends first), invisible
        characters around the dot read past (at most ``_INVISIBLE_MAX`` on
        each side), a run closed by a title mark (U+300B, U+3009: ``《...》``),
        or a quotation closed by U+300D, U+300F, U+201D, ``"`` or U+FF09
        (``PARTICLE_CLOSERS``) before a particle of ``QUOTE_PARTICLES``
        (U+3068...), or closers followed right away by another terminator (which decides); a
        full-width full stop after a full-width capital that opens the chunk
        (a label: ``\uff31\uff0e``) or is one of dotted initials
        (``\uff2e\uff0e\uff39\uff0e``), or after one or two digits or Chinese
        numerals that open the chunk (a list marker: ``\uff11\uff0e``, ``\u4e00\uff0e``)."""
        buf, base = self._buf, self._base
        i, a = at - base, run_end - base
        b = closers_end - base
        if a - i == 1 and b == a and buf[i] == "\uff0e" and self._list_number(i):
            return True  # (a list marker: "\uff11\uff0e" opening its chunk)
        # (A joiner or variation selector after the dot reads as a closer: read
        # past, as the other invisible characters are, before a Latin letter or digit.)
        unseen = 0 < b - a <= _INVISIBLE_MAX and all(map(_unseen, buf[a:b]))
        if (
            a - i == 1
            and b == space_end - base
            and buf[i] in _DOTS
            and (b == a or (unseen and _latin_alnum(_shown(buf, b, 1))))
        ):
            if buf[i] == "\uff0e" and self._full_width_initial(buf, i - 1):
                return True  # (a label or initials: "Q." and "N.Y." in full-width forms)
            before, after = _shown(buf, i - 1, -1), _shown(buf, a, 1)
            if not (_latin_alnum(before) and _latin_alnum(after)):
                return False
            if buf[i] == "\u3002":  # (a domain's dot, or one between number groups)
                if before.isdigit() and after.isdigit() and _digit_groups(buf, i) >= 3:
                    return True
                domain = _domain_before(buf, i, _IDEOGRAPHIC_DOMAIN)
                if domain is None:  # (a local part's dot: taro\u3002yamada@example.jp)
                    return _latin_local_part(buf, a)
                # (Before a capital, only a domain's first dot: jo@example\u3002Com.)
                return not after.isupper() or "\u3002" not in domain
            if before.isdigit() and after.isdigit():
                return True
            # (The read ahead first: while it waits, the read back is not redone.)
            return not after.isupper() or _latin_local_part(buf, a) or _in_address(buf, i)
        if b > a:
            if buf[a] in TITLE_CLOSERS:
                return True
            if space_end - base == b and buf[b] in _RUN_AGAIN:
                return True  # (the terminator after the closers decides)
            return (
                buf[a] in PARTICLE_CLOSERS and space_end - base == b and buf[b] in QUOTE_PARTICLES
            )
        return False

    @staticmethod
    def _emoji_ends_line(buf: str, e: int) -> bool:
        """Whether the emoji at ``buf[e]`` begins a run of at most
        ``_EMOJI_MAX`` emoji and spaces that ends its line (a line break
        follows).  Raises ``IndexError`` when the window ends first."""
        m = _EMOJI_RUN.match(buf, e, e + _EMOJI_MAX + 1)
        end = m.end()  # type: ignore[union-attr]
        if end - e > _EMOJI_MAX:
            return False
        return buf[end] in "\r\n"

    def _list_number(self, i: int) -> bool:
        """Whether the full-width full stop at ``buf[i]`` ends the marker of
        a numbered list item: one or two digits, ASCII or full-width, or
        Chinese numerals (``_CHINESE_NUMERALS``), that open the chunk
        (``\uff11\uff0e``, ``\uff11\uff12\uff0e``, ``1\uff0e``, ``\u4e00\uff0e``)."""
        if self._start is None:
            return False
        j = self._start - self._base
        return 1 <= i - j <= _LIST_DIGITS_MAX and all(
            "0" <= c <= "9" or "\uff10" <= c <= "\uff19" or c in _CHINESE_NUMERALS
            for c in self._buf[j:i]
        )

    def _full_width_initial(self, buf: str, j: int) -> bool:
        """Whether the full-width capital at ``buf[j]``, before a full-width
        full stop, opens the chunk or is one of dotted initials: a full stop
        and another capital come before it, or another capital and a full
        stop after that stop.  Raises ``IndexError`` when the window ends
        before that is decided."""
        if j < 0 or not _full_width_capital(buf[j]):
            return False
        if self._start == self._base + j:
            return True
        if j >= 2 and buf[j - 1] == "\uff0e" and _full_width_capital(buf[j - 2]):
            return True
        return _full_width_capital(buf[j + 2]) and buf[j + 3] == "\uff0e"

    def _term_ends(
        self,
        at: int,
        closer: str,
        bang: bool,
        ellipsis: bool,
        closers_end: int,
        e: int,
        newlines: int,
    ) -> bool:
        """Whether the terminator run at ``at``, its last closer ``closer``
        (``""``: none), whitespace from ``closers_end`` up to ``e``, ends a
        sentence (a line break in it that is no soft wrap does, also in a
        chunk that opens with a heading marker: ``# Intro. \\nmore`` goes
        on, as the searches' waits assume)."""
        if newlines >= 2:
            return True
        buf = self._buf
        k = e - self._base
        try:
            if newlines and not self._soft_wrap(at, closers_end, e):
                return True
            return self._next_starts(buf, k, at, closer, bang, ellipsis)
        except IndexError:
            raise NeedMore from None

    def _next_starts(
        self, buf: str, e: int, at: int, closer: str, bang: bool, ellipsis: bool
    ) -> bool:
        """The rules of the module docstring for the text from ``buf[e]`` on.

        ``at`` is the absolute offset of the terminator run.  Raises
        ``IndexError`` when ``buf`` ends before the rules decide (they read at
        most ``SKIP_MAX + STARTER_MAX + 2`` characters, and ``STARTER_MAX + 2``
        more after an elided word).
        """
        k = at - self._base
        if k > 0 and buf[k - 1] == "[" and buf.startswith(("...]", "\u2026]"), k):
            return False  # "[...]": an elision goes on
        j = e
        while buf[j] in _OPENERS and j - e < SKIP_MAX:
            j += 1
        c = buf[j]
        if j > e and c.islower() and buf[j - 1] in _ELISION_MARKS:
            j = _after_elision(buf, j)  # ("Goed. 's Avonds": the capital decides)
            c = buf[j]
        if c == "|" and j == e:
            return False  # ("| Fast. | Cheap. |": a table cell ends, its row goes on)
        if j == e and _EMOJI.match(c) and self._emoji_ends_line(buf, e):
            return False  # ("Thanks! 😊\n": the emoji ends this sentence's line)
        if c == "." and j == e:
            # A spaced ellipsis follows: it goes on, unless it is three dots
            # after a period glued to a word, then a capitalised word ("word.
            # . . . Next": the period ends the sentence, the ellipsis opens the
            # next).  (Seven characters are read first, whatever they hold.)
            if bang or ellipsis or closer or k == 0 or buf[k - 1].isspace() or e != k + 2:
                return False
            if self._opens_list_item(at):
                return False  # ("1. . . ." : a list marker, decided before the dots)
            after = buf[e : e + 7]
            if len(after) < 7:
                raise IndexError(e + 6)
            return after.startswith(". . . ") and _is_capital(after[6])
        if c.isalpha():
            cat = _LOWER if c.islower() else _UPPER
        else:
            cat = _DIGIT if c.isdigit() else _OTHER
        if cat == _UPPER and self._continuations and self._continues(buf, j):
            return False  # "And" (when a language's table says so) never opens one
        if closer and closer in SUPERSCRIPT_DIGITS and c in SUPERSCRIPT_DIGITS:
            return False  # ("today.\u2074\u00b9\u00b2 \u2075\u2076": a number in superscripts)
        if closer.isdecimal():
            # Footnote numbers ("a consultation.12 Take"): before a capitalised
            # word, unless the word before the period is an abbreviation.
            word = self._word_before(at)[0]
            return cat == _UPPER and word.lower() not in self._abbreviations
        if cat == _LOWER:
            if not (bang or ellipsis or closer) and k > 1:
                letter = buf[k - 2].isspace() and "a" <= buf[k - 1] <= "z"
                if (letter or buf[k - 1].isdigit()) and (item := self._word_before(at)[3]):
                    # "a. one b. two", "1. one 2. two": the chunk ends before "b."
                    self._item = item
                    return False
            if buf[e] in _DASHES:
                return False  # ("Stop! - he said": a dash before a lower-case word goes on)
            if not list_marker(buf, e):
                # "Use npm. npm is great.": a plain word ends one before a
                # lower-case word; "e.g. a hat", "Yahoo! and" go on.
                return j == e and not (bang or ellipsis or closer) and self._plain_word(at)
            cat = _MARKER
        word, _, spaced, item = self._word_before(at)
        if cat == _MARKER and len(word) == 1 and f"{word}.{buf[j]}" in self._abbreviations:
            return False  # "a las 5 p. m.": a spaced abbreviation's first half, no list
        ellipsis = ellipsis or spaced
        if not (bang or ellipsis) and self._opens_list_item(at):
            return False  # "1." or "b.)" opening a list item
        if (
            not (bang or ellipsis)
            and len(word) <= 3
            and word.isdigit()
            and (self._emphasis_label(k) if closer else self._is_heading())
        ):
            return False  # ("### Step 1. Install", "**Step 1.** Install": a label's number)
        if item is not None and not (bang or ellipsis):
            self._item = item  # "1. One 2. Two": the chunk ends before "2."
            return False
        if closer in _QUOTES and buf[e] == "(":
            return False  # '"..." (Smith 55)': a quotation and its citation
        if bang or closer:
            return True
        if spaced and not (k >= 7 and buf[k - 7].isspace() and buf.startswith(". . . ", k - 6)):
            # "It stopped . . . Then": a spaced ellipsis goes on, unless it is
            # four dots after a space ("word . . . . Next", decided below).
            return False
        if ellipsis:
            return cat == _UPPER or cat == _MARKER
        if not word:
            return True
        if word in TIME_ZONES:
            return True  # ("9 a.m. EST. Join": not "est.", established)
        # The second part of a spaced abbreviation is read with the first
        # ("44 v. Chr. Er": an era, not the title "Chr." of "auto").
        kind = self._spaced_abbreviation(k, len(word)) if 1 < len(word) <= 3 else None
        if kind is not None:
            word = buf[k - len(word) - 3 : k]  # "v. Chr", "f. Kr"
        else:
            kind = self._abbreviations.get(word.lower())
        if kind is None and len(word) == 1 and word.isalpha():
            kind = self._spaced_abbreviation(k)
            if kind is not None:
                word = buf[k - 4 : k]  # "т. д.", "z. B.", "5 p. m."
        if kind is None and ("'" in word or "\u2019" in word):
            tail = re.split("['\u2019]", word)[-1]
            if tail.lower() not in CONTRACTION_ENDS:  # ("isn't." is a word)
                word = tail  # "l'Avv.", "l'art. 12"
                kind = self._abbreviations.get(word.lower())
        if kind is None and (joined := _JOINED.match(word)) is not None:
            # The last part: "Dipl.-Ing. Weber", "Mo.\u2013Fr. 9 Uhr", "Sa./So.
            # 10 Uhr", "die 1.\u20133. Klasse".  A title there ends a sentence
            # before a sentence starter ("Mo.-Fr. Am Samstag": a range's end).
            word = word[joined.end() :]
            kind = self._abbreviations.get(word.lower())
            if kind == PREFIX:
                kind = MEDIAL
        if kind is None and not word.isascii():
            # "他叫Dr. Wang", "在U.S. Army": a word of the tables or a dotted
            # form right after a kana or ideograph is that abbreviation.
            found = _AFTER_UNSPACED.search(word)
            if found is not None:
                tail = found.group()
                glued = self._abbreviations.get(tail.lower())
                if glued is None and "." in tail and _DOTTED.fullmatch(tail):
                    glued = MEDIAL
                if glued is not None:
                    word, kind = tail, glued
        if kind is None and self._compounds:
            kind = self._compound_kind(word)  # "Hauptstr. 5"
        if kind is None:
            if len(word) == 1 and word.isalpha():
                # A lower-case letter after a number is a unit ("5 g. Stir")
                # unless a letter and a period follow that make one of the
                # tables with it ("en el 63 a. C. en Roma"), a capital after
                # one of LETTER_NOUNS or ANSWER_LEADS a letter ("Plan B.
                # Nobody", "is B. Paris"), any other an initial.
                if word.islower():
                    unit = self._after_number(at - 1) and not (
                        j == e and self._spaced_first_half(word, buf, j)
                    )
                    kind = FINAL if unit else MEDIAL
                elif self._names_a_letter(at - 1):
                    # (Not before an initial: "is A. B. Smith".)
                    following = _word_at(buf, j)
                    if len(following) == 1 and buf[j + 1] == ".":
                        return False
                    kind = FINAL
                else:
                    kind = MEDIAL
            elif "." in word and _DOTTED.fullmatch(word):
                kind = MEDIAL
            elif cat == _DIGIT and len(word) <= 3 and word.rstrip("\u00b0\u00ba").isalpha():
                # "Rs. 500", "N°. 5": a unit or label before a number goes on;
                # a unit symbol closing a quantity ends it when a capital
                # follows its first letter ("Use 4 GB. 8 GB", "5 mL. 3": a
                # symbol takes no period; "§ 5 Abs. 3" is an abbreviation).
                # A sentence starter in lower case is a whole word, no label
                # ("I tried it. 3 failed", "That is all. 42 passed").
                if len(word) > 1 and word.islower() and word in self._starters:
                    return True
                return not (word.islower() or word.istitle()) and self._after_number(at - len(word))
            elif len(word) <= 2 and word.isdigit() and cat == _UPPER:
                return not self._ordinal(buf, j, at - len(word))  # "am 12. Juni" goes on
            elif len(word) <= 2 and word.isdigit() and cat == _DIGIT:
                return not self._in_date(buf, j, at - len(word))  # "am 5. 6. 2020" goes on
            elif j == e and _doubled_capital(word):
                # "EE. UU.", "RR. HH.": a Spanish plural abbreviation written
                # spaced (each letter doubled) is one word.
                return not (_doubled_capital(_word_at(buf, j)) and buf[j + 2] == ".")
            else:
                return True
        if kind == PREFIX or cat == _DIGIT or cat == _OTHER:
            return False
        if kind == FINAL or (word.lower() in UNITS and self._after_number(at - len(word))):
            return True  # ("etc. The", "It took 2 hrs. Too long")
        if kind == TIME:  # "At 5 a.m. Mr. Smith left", "10 a.m. EST" go on
            if _word_at(buf, j) in TIME_ZONES:
                return False
            return not (self._title_at(buf, j) and self._time_opens(at, word))
        if cat == _MARKER:
            return False
        # MEDIAL: only before a sentence starter that is not an initial.
        following = _word_at(buf, j)
        if not following or (len(following) == 1 and buf[j + 1] == "."):
            return False
        return self._starter(following)

    def _spaced_first_half(self, letter: str, buf: str, j: int) -> bool:
        """Whether the lower-case ``letter`` before a period, and the word at
        ``buf[j]`` with a period after it, make a dotted abbreviation of the
        tables written spaced (``a. C.``, ``v. Chr.``, ``f. Kr.``).  Reads the
        word as :func:`_word_at` does, then one character; raises
        ``IndexError`` when ``buf`` ends before that is decided."""
        following = _word_at(buf, j)
        return (
            bool(following)
            and f"{letter}.{following}".lower() in self._abbreviations
            and buf[j + len(following)] == "."
        )

    def _starter(self, word: str) -> bool:
        """Whether ``word`` (capitalised) is one of the language's sentence starters."""
        return word.lower() in self._starters and (len(word) == 1 or word[1:].islower())

    def _glued_ends(self, at: int) -> bool:
        """Whether a lone ``.`` at ``at`` glued to the next word ends a
        sentence: after a word (openers stripped) in no abbreviation table
        that is three ASCII lower-case letters or more, optionally
        capitalised, or a number of three digits or more (``1,000``), before a
        title and whitespace (``world.Mr. Smith``; not the address
        ``contact.Dr.Jones@clinic.com``) or before a capitalised pronoun or
        determiner (``GLUED_STARTERS``), a space and a lower-case letter
        (``world.Today is``; not ``time.Now()``, ``sync.Once``, ``React.Component``,
        ``self.Foo``); or after three lower-case letters or more of other
        scripts (no ASCII) before an upper-case letter (Kazakh ``...ы.XVIII``)
        that does not open the rest of an address's local part (``@`` within
        ``_LOCAL_MAX`` characters, no whitespace before it:
        ``иван.Петров@почта.рф``).
        Raises ``IndexError`` when ``buf`` ends before that is decided."""
        buf = self._buf
        j = at - self._base + 1
        if buf[j - 1] in UNSPACED_SCRIPT_TERMINATORS:
            return _unspaced_script_ends(buf, j - 1)
        word = self._word_before(at)[0]
        if word.lower() in self._abbreviations:
            return False
        if _GLUED_OTHER.fullmatch(word) and word.islower():
            return buf[j].isupper() and not _local_part(buf, j)
        if not _GLUED_WORD.fullmatch(word) or not ("A" <= buf[j] <= "Z"):
            return False
        following = _word_at(buf, j)
        if self._title_at(buf, j):
            # "world.Mr. Smith"; not "contact.Dr.Jones@clinic.com" (an address).
            return buf[j + len(following) + 1].isspace()
        end = j + len(following)
        return (
            len(following) >= 2
            and following[1:].islower()
            and following.lower() in GLUED_STARTERS
            and buf[end] == " "
            and buf[end + 1].islower()
        )

    def _plain_word(self, at: int) -> bool:
        """Whether the word before the period at ``at`` is a plain word, which
        ends a sentence before a lower-case word: two ASCII lower-case letters
        or more (openers stripped: no dotted form, initial, number, name or
        acronym), in none of the language's abbreviation tables (nor, in
        "auto", another language's: ``Language.foreign``), not a unit
        after a number (``5 ft. 3 in. tall``), not a list
        marker opening its chunk (``iv.``), not the last dot of a spaced
        ellipsis; never in a language without them (``Language.plain_words``:
        ``language="it"`` keeps ``e segg. per`` whole); or the end of inline
        code (``Run `make`. make builds it``: no abbreviation)."""
        word, at_start, spaced, _ = self._word_before(at)
        if self._plain_words and _CODE_WORD.fullmatch(word):
            return True
        return (
            self._plain_words
            and not spaced
            and not self._initial_before(at - len(word) - self._base)  # ("p. ex.")
            and _PLAIN_WORD.fullmatch(word) is not None
            and word not in self._abbreviations
            and word not in self._foreign
            and not (at_start and _LIST_MARK.fullmatch(word) is not None)
            and not (word in UNITS and self._after_number(at - len(word)))
        )

    def _opens_list_item(self, at: int) -> bool:
        """Whether the word before the period at ``at`` is a list marker
        opening its chunk (``1.``, ``b.``, ``iv.``, after an optional bullet)."""
        word, at_start, _, _ = self._word_before(at)
        return (
            bool(word) and at_start and _LIST_MARK.fullmatch(word.lstrip(GLUED_BULLETS)) is not None
        )

    def _continues(self, buf: str, j: int) -> bool:
        """Whether the word at ``buf[j]`` is one of the language's
        continuations (``Language.continuations``, written Capitalised or in
        upper case), which never open a sentence.  A word is a run of
        :data:`LETTERS`; one longer than ``STARTER_MAX`` is none.  Raises
        ``IndexError`` when ``buf`` ends before the word does."""
        end = LETTERS.match(buf, j, j + STARTER_MAX + 1).end()  # type: ignore[union-attr]
        if end - j > STARTER_MAX:
            return False
        if end == len(buf):
            raise IndexError(end)
        return buf[j:end] in self._continuations

    def _title_at(self, buf: str, j: int) -> bool:
        """Whether the word at ``buf[j]`` is a ``PREFIX`` abbreviation and a
        period (``Mr.``, ``Dr.``).  Raises ``IndexError`` when ``buf`` ends
        before that is decided."""
        word = _word_at(buf, j)
        return (
            bool(word)
            and buf[j + len(word)] == "."
            and self._abbreviations.get(word.lower()) == PREFIX
        )

    def _time_opens(self, at: int, word: str) -> bool:
        """Whether the time ``word`` (``a.m``) before the period at ``at``
        opens its chunk: a clock number right before it, and before that only
        words of ``TIME_LEADS``, bullets and commas, within ``LOOKBEHIND``."""
        chunk = self._start
        if chunk is None or chunk < at - LOOKBEHIND:
            return False
        lead = self._buf[chunk - self._base : at - len(word) - self._base].split()
        if not lead or _CLOCK.fullmatch(lead[-1]) is None:
            return False
        return all(
            w.rstrip(",").lower() in TIME_LEADS or not any(c.isalnum() for c in w)
            for w in lead[:-1]
        )

    def _compound_kind(self, word: str) -> int | None:
        """The kind of the abbreviation of ``Language.compounds`` that ends
        the compound ``word`` after a letter (``Hauptstr`` is ``str``), or
        ``None``."""
        low = word.lower()
        for end in self._compounds:
            if len(low) > len(end) and low.endswith(end) and low[-len(end) - 1].isalpha():
                return self._abbreviations.get(end)
        return None

    def _initial_before(self, k: int) -> bool:
        """Whether one letter, a period and a space end right before
        ``buf[k]``, the letter a word of its own within the current chunk
        (``p. ex``, ``z. B``)."""
        buf = self._buf
        lo = (self._start - self._base) if self._start is not None else k
        return (
            k - 3 >= max(lo, 0)
            and buf[k - 2 : k] == ". "
            and buf[k - 3].isalpha()
            and (k - 3 == lo or not buf[k - 4].isalnum())
        )

    def _names_a_letter(self, letter: int) -> bool:
        """Whether the capital at absolute offset ``letter`` follows a word of
        ``LETTER_NOUNS``, or is one of ``ANSWER_LETTERS`` after a word of
        ``ANSWER_LEADS``, and a space, the word after whitespace or at the
        start of the current chunk (after ``Options:`` a letter opens a list:
        ``Options: A. Paris B. London``)."""
        buf, k = self._buf, letter - self._base
        lo = max((self._start if self._start is not None else letter) - self._base, 0)
        end = k - 1  # (the space)
        if end - 1 < lo or buf[end] != " ":
            return False
        start = end
        while start > lo and buf[start - 1].isalpha() and end - start < _LEAD_MAX:
            start -= 1
        if start == end or (start > lo and not buf[start - 1].isspace()):
            return False
        word = buf[start:end].lower()
        return word in LETTER_NOUNS or (buf[k] in ANSWER_LETTERS and word in ANSWER_LEADS)

    def _after_number(self, word: int) -> bool:
        """Whether the word at absolute offset ``word`` follows a digit and a
        space within the current chunk."""
        buf, k = self._buf, word - self._base
        lo = (self._start if self._start is not None else word) - self._base
        return k - 2 >= max(lo, 0) and buf[k - 1] == " " and buf[k - 2].isdigit()

    def _spaced_abbreviation(self, k: int, size: int = 1) -> int | None:
        """The kind of the dotted abbreviation written spaced (``т. д.``,
        ``z. B.``, ``p. m.``, ``v. Chr.``) whose last part, ``size`` letters,
        is right before the period at ``buf[k]``, its first letter a word of
        its own within the current chunk; ``None`` if the two parts are none.
        In upper case, only a ``PREFIX`` (``z. B.``): ``A. M. Turing`` and
        ``M. M. Hansen`` are initials.  A last part of two letters or more
        counts capitalised after a lower-case first letter (``v. Chr.``,
        ``f. Kr.``: no initial is lower case); in lower case it is a word of
        its own, as the searches read it (``f. eks.`` is ``eks.``)."""
        if not self._initial_before(k - size):
            return None
        first, last = self._buf[k - size - 3], self._buf[k - size : k]
        kind = self._abbreviations.get(f"{first}.{last}".lower())
        if size > 1:
            return kind if first.islower() and not last.islower() else None
        if kind == PREFIX or (first.islower() and last.islower()):
            return kind
        return None

    def _ordinal(self, buf: str, j: int, number: int) -> bool:
        """Whether the number of one or two digits starting at absolute offset
        ``number``, and a period, before the capitalised word at ``buf[j]`` is
        an ordinal (see ``Language.ordinals``): always before a month name
        or its abbreviation (``am 3. Okt.``), and in languages that write
        ordinals so, unless a label precedes it (:meth:`_labelled`) or the word
        is a sentence starter of two letters or more (``ist 42. Das heißt``);
        in "auto" (``ORDINAL_AFTER_LEADS``) so only after a word of
        ``ORDINAL_LEADS`` (``zum 2. Mal``; ``I am 12. The`` ends).
        Raises ``IndexError`` when ``buf`` ends before the word does."""
        if self._ordinals not in (ORDINAL_ALWAYS, ORDINAL_MONTHS, ORDINAL_AFTER_LEADS):
            return False
        word = _word_at(buf, j)
        low = word.lower()
        if low in MONTHS or (low in MONTH_ABBREVIATIONS and buf[j + len(word)] == "."):
            return True
        if self._ordinals == ORDINAL_AFTER_LEADS:
            if not self._after(_ORDINAL_LEAD_BEFORE, number):
                return False
        elif self._ordinals != ORDINAL_ALWAYS or self._labelled(number):
            return False
        # An ordinal comes before a noun or an adjective, never before an
        # article or a pronoun ("Die Antwort ist 42. Das heißt").
        return len(word) < 2 or not self._starter(word)

    def _in_date(self, buf: str, j: int, number: int) -> bool:
        """Whether the number of one or two digits starting at absolute offset
        ``number``, and a period, is the day or month of a date written with
        periods and spaces (``5. 6. 2020``, ``am 5. 6. kommt``) in a language
        that writes ordinals so: a day number and a period follow, or a day
        and a period precede within the current chunk and a year of two or
        four digits follows.  Raises ``IndexError`` when ``buf`` ends before
        that is decided."""
        if self._ordinals != ORDINAL_ALWAYS:
            return False
        n = j
        while buf[n].isdigit() and n - j < 5:
            n += 1
        if n - j <= 2 and buf[n] == "." and buf[n + 1].isspace():
            return True
        if n - j not in (2, 4) or buf[n].isalpha():
            return False
        return self._after(_DAY_BEFORE, number)

    def _labelled(self, number: int) -> bool:
        """Whether the number starting at absolute offset ``number`` follows a
        label of one to three letters and a period within the current chunk
        (``Nr. 5``, ``S. 12``, ``č. 3``): a count, never an ordinal, so that
        ``Zimmer Nr. 5. Morgen`` ends after ``5.`` (``am Mo. 5. Mai`` does
        not: before a month name the number is a day); or a compound ending
        in an abbreviation of ``Language.compounds`` (``Hauptstr. 12``)."""
        if self._after(_LABEL_BEFORE, number):
            return True
        if not self._compounds or self._start is None:
            return False
        buf, lo = self._buf, max(self._start - self._base, 0)
        k = number - self._base - 1  # (the space before the number)
        if k - 1 < lo or buf[k] != " " or buf[k - 1] != ".":
            return False
        reach = max(lo, k - 1 - _WORD_MAX)
        space = buf.rfind(" ", reach, k - 1)
        if space < 0 and reach != lo:
            return False  # (a word longer than _WORD_MAX)
        word = buf[space + 1 if space >= 0 else lo : k - 1]
        return word.isalpha() and self._compound_kind(word) is not None

    def _after(self, pattern: re.Pattern[str], at: int) -> bool:
        r"""Whether a match of ``pattern`` (at most 8 characters, ending in
        ``\Z``) ends at absolute offset ``at`` and starts a word within the
        current chunk (after whitespace or at the chunk's start: what the
        buffer holds before the chunk is never read)."""
        if self._start is None:
            return False
        buf, lo = self._buf, self._start - self._base
        found = pattern.search(buf, max(at - self._base - 8, lo, 0), at - self._base)
        if found is None:
            return False
        k = found.start()
        return k == lo or (k > 0 and buf[k - 1].isspace())

    def _word_before(self, at: int) -> tuple[str, bool, bool, tuple[int, int] | None]:
        """The word before offset ``at`` (openers stripped), whether it opens
        the chunk (after an optional bullet, a Markdown heading marker or
        block-quote markers: ``## 1. Title``, ``> 1. Item``), whether ``at``
        is the last dot of a spaced ellipsis, and the inline list item it
        numbers (:func:`_inline_item`)."""
        if self._word_offset == at:
            return self._word_read
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
            word = buf[max(space + 1, lo - base, 0) : k]  # (never more than _WORD_MAX)
            if (space < 0 and lo > 0) or not word.isprintable():
                # Another kind of whitespace, or a word longer than _WORD_MAX.
                m = _WORD_END.search(buf, max(0, lo - base), k)
                word = m.group() if m else "\0"  # "\0": a long, plain word
            start = at - len(word) if word != "\0" else -1
        chunk = self._start if self._start is not None else -1
        if 0 <= start < chunk < at:  # (a chunk cut at a glued period: "world.Today")
            word = buf[chunk - base : k]
            start = chunk
        if word.startswith(">") and (
            start == chunk
            or (
                0 <= chunk < start <= chunk + 7
                and _QUOTE_LEAD.fullmatch(buf, chunk - base, start - base)
            )
        ):
            # Block-quote markers glued to a list marker (">1. Item",
            # ">>2. Item", "> >3. Item"): a lead, as "> 1." has.
            marker = word.lstrip(">")
            start += len(word) - len(marker)
            word = marker
        lead = (chunk - base, start - base)
        at_start = start == chunk or (
            0 < start - chunk <= 7
            and (
                (start - chunk <= 4 and _BULLET_LEAD.fullmatch(buf, *lead) is not None)
                or _HEADING.fullmatch(buf, *lead) is not None  # ("## 1. Title")
                or _QUOTE_LEAD.fullmatch(buf, *lead) is not None  # ("> 1. Item")
            )
        )
        self._word_offset = at
        if word and word[0] in WORD_OPENERS:
            word = word.lstrip(WORD_OPENERS)
        item = None
        if not at_start and word and len(word) <= 5 and chunk >= at - LOOKBEHIND:
            item = _inline_item(buf, base, at, chunk)
        self._word_read = (word, at_start, spaced, item)
        return self._word_read

    def _emphasis_label(self, k: int) -> bool:
        """Whether the closers right after the period at ``buf[k]`` are the
        emphasis mark (``*``, ``**``, ``_`` or ``__``) that opens the current
        chunk, after an optional bullet, and no other closer follows them
        (``**Step 1.** Install``, ``- __1.__ Open``): the period is a
        label's.  Reads the chunk within ``LOOKBEHIND`` of the period."""
        if self._start is None:
            return False
        buf, lo = self._buf, self._start - self._base
        if lo < 0 or k - lo > LOOKBEHIND:
            return False
        lead = _EMPHASIS_LEAD.match(buf, lo, k)
        if lead is None:
            return False
        mark = lead.group(1)
        end = k + 1 + len(mark)
        return (
            buf[k + 1 : end] == mark and buf[end].isspace() and mark[0] not in buf[lead.end() : k]
        )

    def _is_heading(self) -> bool:
        """Whether the current chunk opens with a Markdown heading marker."""
        if self._heading is None:
            start = self._start
            assert start is not None
            self._heading = _HEADING.match(self._buf, start - self._base) is not None
        return self._heading
