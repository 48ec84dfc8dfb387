# ruff: noqa: RUF003
"""The characters sentence chunking reads: terminators, closers, openers, bullets.

Data only.  The rules (:mod:`.rules`), the candidate searches (:mod:`.fast_path`)
and the scanner (:mod:`.scanner`) build their character classes from these
strings, so a mark added here is seen by every path.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "ABBREVIATION_JOINERS",
    "BRACKET_QUOTES",
    "BULLETS",
    "CJK_CLOSERS",
    "CJK_QUOTE_CLOSERS",
    "CJK_TERMINATORS",
    "CJK_TYPED",
    "CLOSERS",
    "CLOSER_CLASS",
    "CLOSER_SPACES",
    "CODE_MARK",
    "DANDAS",
    "DASHES",
    "DECIMAL_STOPS",
    "EMPHASIS",
    "GLUED_BULLETS",
    "INVERTED_OPENERS",
    "ITEM_BULLETS",
    "LATIN1_LOWER",
    "LATIN1_UPPER",
    "LETTER_MARKS",
    "OPENERS",
    "PARTICLE_CLOSERS",
    "PICTOGRAPHS",
    "QUOTES",
    "QUOTE_CLOSED_BEFORE",
    "QUOTE_OPEN_AFTER",
    "QUOTE_PAIRS",
    "QUOTE_PARTICLES",
    "SCRIPT_TERMINATORS",
    "SIMPLE_CLOSERS",
    "SPACED_CLOSERS",
    "SPACED_QUOTES",
    "SUPERSCRIPT_DIGITS",
    "TERMINATORS",
    "TITLE_CLOSERS",
    "UNSPACED_LETTERS",
    "UNSPACED_SCRIPT_TERMINATORS",
    "WORD_OPENERS",
]

#: Terminators of scripts written beside others that may touch the next
#: sentence (Burmese, Ethiopic, Devanagari, Arabic and Armenian text often
#: sets no space after them): the Greek question mark, Armenian full stop,
#: Arabic question mark and full stop, Devanagari danda and double danda,
#: Myanmar section mark, Ethiopic full stop and question mark.  Between two
#: characters above U+00FF (neither whitespace, a terminator nor a closer),
#: each ends a sentence with no whitespace after it (``ነው።ደህና``).
UNSPACED_SCRIPT_TERMINATORS = "\u037e\u0589\u061f\u06d4\u0964\u0965\u104b\u1362\u1367"

#: The Devanagari danda and double danda, which also frame a verse's number
#: (``॥१॥``): before a digit they end no sentence unless whitespace follows.
DANDAS = "\u0964\u0965"

#: Terminators of other scripts; each ends a sentence as ``!`` does
#: (whitespace after it): :data:`UNSPACED_SCRIPT_TERMINATORS` and the doubled
#: or mixed ``‼ ⁇ ⁈ ⁉`` (which need whitespace, as ``!`` does).
SCRIPT_TERMINATORS = UNSPACED_SCRIPT_TERMINATORS + "\u203c\u2047\u2048\u2049"

#: Terminators that need whitespace after them: ``.`` ``!`` ``?`` ``…`` ``‽``
#: and :data:`SCRIPT_TERMINATORS` (see :data:`UNSPACED_SCRIPT_TERMINATORS`).
TERMINATORS = ".!?\u2026\u203d" + SCRIPT_TERMINATORS

#: CJK terminators, which end a sentence with no whitespace after them:
#: ``。`` and the full-width ``！`` ``？`` ``．`` and half-width ``｡``.
CJK_TERMINATORS = "\u3002\uff01\uff1f\uff0e\uff61"

#: The ASCII terminators that end a sentence as their full-width forms do
#: (a CJK run: no whitespace needed, CJK closers, the particle rule) right
#: after a letter of :data:`UNSPACED_LETTERS` (``すごい!次は何?``).
CJK_TYPED = "!?"

#: Superscript digits (footnote numbers after a period: ``It works.¹²``).
SUPERSCRIPT_DIGITS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"

#: CJK terminators that are also decimal points between digits (``３．２``) and
#: dots before a lower-case Latin letter or digit (``example.com`` in full-width forms).
DECIMAL_STOPS = "\uff0e\uff61"

#: Markdown emphasis marks, closers after a terminator (``**Check it.** Then``)
#: and openers before a word.
EMPHASIS = "*_~"

#: What may close a sentence after a terminator other than a CJK one (quotes,
#: the German and Danish closing quotes ``“`` ``«`` included, ``)``, ``]``,
#: the CJK quotation brackets ``」`` ``』`` ``｣`` (``He said 「OK.」 Then``),
#: Markdown emphasis ``*`` ``_`` ``~``: ``**Check it.** Then``, and
#: superscript digits, footnote numbers: ``It works.¹ Next``); a footnote
#: mark such as ``[12]`` or ``[^12]`` closes one too.
CLOSERS = (
    "\"'\u201d\u2019\u00bb\u201c\u2018\u00ab)]\u300d\u300f\uff63" + EMPHASIS + SUPERSCRIPT_DIGITS
)

#: Emoji: pictographs, dingbats, symbols, regional indicators and the joiner,
#: variation selector, keycap and tags that build them (a regex class body).
#: Glued to a terminator they close its sentence (``Thanks!\U0001f642 Let``);
#: after a space, at the end of a line, they end its line (``Thanks! \U0001f60a``).
PICTOGRAPHS = (
    "\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\u200d\u20e3\ufe0f\U000e0020-\U000e007f"
)

#: The closers after a terminator, as a regex class body: :data:`CLOSERS` and
#: :data:`PICTOGRAPHS`.  (Every path reads closers through it.)
CLOSER_CLASS = re.escape(CLOSERS) + PICTOGRAPHS

#: Closing guillemets that may stand after a space (French ``« Viens. » Puis``):
#: after a terminator run and its closers, one of :data:`CLOSER_SPACES`, such
#: a mark and then whitespace close the sentence as a closer does.  (Not
#: ``«``, which opens a French quotation before a space: ``Fin. « Non``.)
SPACED_CLOSERS = "\u00bb"

#: The spaces that may stand before a spaced closer: a space, a no-break space
#: and a narrow no-break space (French typography).
CLOSER_SPACES = " \u00a0\u202f"

#: The closers that are quotation marks: a run they close before ``(`` is a
#: quotation before its citation (``"..." (Smith 55).``), which goes on.
QUOTES = "\"'\u201d\u2019\u00bb\u201c\u2018\u00ab"

#: What may close a sentence after a CJK terminator (and :data:`PICTOGRAPHS`).
CJK_CLOSERS = "\u300d\u300f\uff63\u201d\u2019\uff09\u3011\u300b\u3009\"')]"

#: CJK closers of a title (``《...》``): a terminator they close ends no sentence.
TITLE_CLOSERS = "\u300b\u3009"

#: CJK closers of a quotation (``「...」``, ``『...』`` and the half-width
#: ``｢...｣`` of text typed in half-width kana): before a particle of
#: :data:`QUOTE_PARTICLES` the quotation is part of the sentence
#: (``「はい。」と言った``).
CJK_QUOTE_CLOSERS = "\u300d\u300f\uff63"

#: CJK closers after which a particle of :data:`QUOTE_PARTICLES` keeps the
#: sentence going: those of a quotation, the right double quotation marks
#: that Japanese text also quotes in (``“行く。”と言った``, ``"行く。"と``) and
#: the full-width right parenthesis of a parenthetical that ends with a
#: terminator (``（以下「甲」という。）は``).
PARTICLE_CLOSERS = CJK_QUOTE_CLOSERS + '\u201d"\uff09'

#: The kana of the Japanese particles that may follow a closed quotation inside
#: its sentence: the quotative ``と`` and ``って``, the case particles ``は``
#: ``が`` ``を`` ``に`` ``で`` ``も`` ``の`` ``へ``, ``や`` and ``か`` (lists) and
#: ``な`` (``など``, ``なんて``).  Any other kana opens a new sentence: the
#: conjunctions and adverbs that begin one (``そして``, ``しかし``, ``それで``,
#: ``まず``, ``ただ``, ``だから``...) start with none of them.
QUOTE_PARTICLES = "\u3068\u3063\u306f\u304c\u3092\u306b\u3067\u3082\u306e\u3078\u3084\u304b\u306a"

#: The closers of ``SentenceChunker(mode="simple")`` (mellea's rule).
SIMPLE_CLOSERS = "\"'\u201d\u2019)"

#: The inverted question and exclamation marks that open a Spanish sentence
#: (``¿`` ``¡``).  Right after a terminator run and its closers, with no
#: whitespace between, one is decided as if whitespace stood before it
#: (``Llegó tarde.¿Por qué?``, ``¿Vienes?¡Sí!``), in every language.
INVERTED_OPENERS = "\u00bf\u00a1"

#: Opening punctuation skipped before the token after a candidate.
OPENERS = "\"'\u201c\u2018\u00ab([{\u00bf\u00a1*_-\u2013\u2014 \t"

#: The mark around inline code (Markdown): a word it opens and closes before
#: a period (`` `make`. make builds it``) is no abbreviation, and ends a
#: sentence before a lower-case word as a plain word does.
CODE_MARK = "`"

#: Opening punctuation stripped from the word before a period.
WORD_OPENERS = "\"'\u201c\u2018\u00ab([{\u00bf\u00a1*_"

#: Dashes: a dash before a lower-case word after a ``!`` goes on (``Stop! - he said``).
DASHES = "-\u2013\u2014"

#: Marks that join an abbreviation to the word after it into one word, read
#: by its last part: hyphens (``Dipl.-Ing.``, also U+2010 and the
#: non-breaking U+2011), an en dash or a slash (a range or a choice:
#: ``Mo.\u2013Fr.``, ``Sa./So.``).
ABBREVIATION_JOINERS = "-\u2010\u2011\u2013/"

#: Bullets that open a list item at the start of a line (a space after them).
BULLETS = "-*+\u2022\u2023\u25e6\u25aa\u25cf\u2013\u2014"

#: Bullets before an inline list marker (``• 9.``).
ITEM_BULLETS = "-*+\u2022\u2023\u2043\u25e6\u25aa\u25cf"

#: Bullets that may touch the list marker after them (``⁃9.``).
GLUED_BULLETS = "\u2022\u2023\u2043\u25e6"

#: Lower- and upper-case letters of ASCII and Latin-1, as regex class bodies.
LATIN1_LOWER = "a-z\u00df-\u00f6\u00f8-\u00ff"
LATIN1_UPPER = "A-Z\u00c0-\u00d6\u00d8-\u00de"

#: Quotation marks (see :mod:`.quotes`): each opening mark, with the marks
#: that close it.  ``“`` closes ``„`` (German) and opens its own; ``»`` and
#: ``«`` open each other's (German ``»...«``, French ``«...»``).
QUOTE_PAIRS = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u201e": "\u201c\u201d",
    "\u201a": "\u2018\u2019",
    "\u00ab": "\u00bb",
    "\u00bb": "\u00ab",
    "\u300c": "\u300d",
    "\u300e": "\u300f",
    "\uff62": "\uff63",
    "\u300a": "\u300b",
    "\u3008": "\u3009",
}

#: What an opening quotation mark may follow (besides whitespace and the start
#: of the text): opening brackets, dashes, slashes, emphasis marks, other
#: quotation marks, and the full-width colon, commas, semicolon and bracket
#: of Chinese text, which puts no space before a quotation (``他说：“来。”``).
QUOTE_OPEN_AFTER = (
    "([{<-\u2013\u2014/*_\"'\u201c\u2018\u201e\u201a\u00ab\u00bb\u300c\u300e"
    "\uff1a\uff0c\u3001\uff1b\uff08"
)

#: Letters of scripts written without spaces (kana, CJK ideographs), which may
#: follow a closing quotation mark right away (``”然后``): a regex class body.
UNSPACED_LETTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

#: Letters that may follow a closing quotation mark right away: those of
#: :data:`UNSPACED_LETTERS`, and Hangul syllables, as Korean attaches its
#: particles to a quotation (``"좋아"라고 했다``, ``'사과'는``): a regex class body.
QUOTE_CLOSED_BEFORE = UNSPACED_LETTERS + "\uac00-\ud7a3"


def _marks_below(limit: int) -> str:
    """The combining marks (``Mn``, ``Mc``) below ``limit`` as a regex class
    body of ranges."""
    codes = [c for c in range(0x300, limit) if unicodedata.category(chr(c)) in ("Mn", "Mc")]
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(f"\\u{a:04x}" + (f"-\\u{b:04x}" if b > a else "") for a, b in ranges)


#: The combining marks a letter may carry below U+2000 (accents, the vowel
#: signs of Indic scripts: the ``ी`` of Hindi ``बी.ए.``), which a regex does
#: not count as letters: a regex class body.
LETTER_MARKS = _marks_below(0x2000)

#: Quotation marks that may have a space on their inner side (``« Bonjour »``).
SPACED_QUOTES = "\u00ab\u00bb"

#: Quotation brackets of CJK text, which open and close wherever they stand.
BRACKET_QUOTES = "\u300c\u300d\u300e\u300f\uff62\uff63\u300a\u300b\u3008\u3009"
