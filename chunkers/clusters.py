"""Where a hard cut may fall: not inside what a reader sees as one character.

A hard cut (the last resort of a size limit, in a run with no boundary of any
level) counts code points, so it could fall inside a grapheme cluster: before
a combining accent (``e`` + U+0301), inside an emoji sequence joined by ZWJ
(``👨‍👩‍👧``) or a flag's pair of regional indicators (``🇫🇷``), between a CR and
its LF, between the jamo of a Hangul syllable.  :func:`cluster_start` moves
such a cut back to the start of the cluster, and :func:`cluster_end` forward
to its end (for a cluster that opens the chunk and fits in it), with the
standard library's ``unicodedata`` only: the rules of Unicode's extended
grapheme clusters (UAX #29) that keep marks, joiners (ZWJ and ZWNJ), variation
selectors, emoji modifiers, tags and the few other extending characters (Thai
and Lao AM, halfwidth katakana sound marks) with what they follow, CR LF
together, Hangul jamo sequences whole (and a precomposed syllable with the
jamo that continue it), regional indicators in pairs, an emoji ZWJ sequence
whole (a ZWJ joins an emoji to an emoji before it, and a letter to a virama:
any other character after a ZWJ starts a cluster), and an Indic conjunct whole
(a letter after a virama).  Left out: prepended concatenation marks.

The decision reads the characters around the cut only (back to the start of
a run of regional indicators, never before ``lo``): it depends on the text,
never on how a stream was sliced.
"""

from __future__ import annotations

import unicodedata

__all__ = ["cluster_end", "cluster_start"]

_ZWJ = "\u200d"
#: Categories of the characters that extend the cluster before them: marks.
_MARKS = frozenset({"Mn", "Mc", "Me"})


#: Characters that extend the cluster before them though no mark: ZWNJ, the
#: halfwidth katakana sound marks (Extend) and the Thai and Lao vowel AM
#: (SpacingMark, a letter by category).
_EXTENDERS = frozenset("\u200c\uff9e\uff9f\u0e33\u0eb3")


def _extends(char: str) -> bool:
    """Whether ``char`` belongs to the cluster before it: a mark (variation
    selectors are marks), ZWJ, ZWNJ, an emoji modifier, a tag character, or
    one of :data:`_EXTENDERS`."""
    return (
        unicodedata.category(char) in _MARKS
        or char == _ZWJ
        or char in _EXTENDERS
        or "\U0001f3fb" <= char <= "\U0001f3ff"
        or "\U000e0020" <= char <= "\U000e007f"
    )


def _joins_conjunct(before: str, after: str) -> bool:
    """Whether a virama joins ``after``, a letter, to the cluster before it
    (an Indic conjunct such as Devanagari ``\u0915\u094d\u0937``)."""
    return unicodedata.combining(before) == 9 and unicodedata.category(after) == "Lo"


def _emoji(char: str) -> bool:
    """Whether ``char`` may be an emoji (an Extended_Pictographic character):
    a symbol, or a code point this Python's tables do not know yet (a newer
    emoji); a regional indicator is none."""
    if char >= "\U0001f000":
        return not _regional(char)
    return unicodedata.category(char) in ("So", "Cn")


def _after_zwj(text: str, zwj: int, lo: int) -> bool:
    """Whether the ZWJ at ``zwj`` joins the character after it to its cluster
    (UAX #29): an emoji after an emoji (marks, variation selectors, modifiers
    between the first and the ZWJ), or a letter after a virama (a half form).
    Any other ZWJ ends its cluster.  Reads back to ``lo`` at most."""
    after = text[zwj + 1]
    if not _emoji(after):
        return zwj > lo and _joins_conjunct(text[zwj - 1], after)
    i = zwj - 1
    while i >= lo and _extends(text[i]):
        i -= 1
    return i >= lo and _emoji(text[i])


def _regional(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _hangul(char: str) -> str:
    """The Hangul syllable type of ``char`` (UAX #29): ``"L"``, ``"V"``, ``"T"``
    (conjoining jamo), ``"LV"``, ``"LVT"`` (precomposed syllables), else ``""``."""
    if "\uac00" <= char <= "\ud7a3":
        return "LVT" if (ord(char) - 0xAC00) % 28 else "LV"
    if "\u1100" <= char <= "\u115f" or "\ua960" <= char <= "\ua97c":
        return "L"
    if "\u1160" <= char <= "\u11a7" or "\ud7b0" <= char <= "\ud7c6":
        return "V"
    if "\u11a8" <= char <= "\u11ff" or "\ud7cb" <= char <= "\ud7fb":
        return "T"
    return ""


#: The Hangul syllable types that may follow each one in a syllable (UAX #29,
#: GB6 to GB8).
_HANGUL_NEXT = {
    "L": frozenset({"L", "V", "LV", "LVT"}),
    "V": frozenset({"V", "T"}),
    "LV": frozenset({"V", "T"}),
    "T": frozenset({"T"}),
    "LVT": frozenset({"T"}),
}


def _joined(text: str, cut: int, lo: int) -> bool:
    """Whether a cut at ``cut`` (``0 < cut < len(text)``) falls inside a
    grapheme cluster; reads back to ``lo`` at most."""
    before, after = text[cut - 1], text[cut]
    if (
        (before == "\r" and after == "\n")
        or (before == _ZWJ and _after_zwj(text, cut - 1, lo))
        or _extends(after)
        or _joins_conjunct(before, after)
    ):
        return True
    if _regional(before) and _regional(after):
        first = cut - 1
        while first > lo and _regional(text[first - 1]):
            first -= 1
        return bool((cut - first) % 2)  # (a pair's second half follows)
    if before >= "\u1100" and after >= "\u1100":
        kind = _hangul(before)
        return bool(kind) and _hangul(after) in _HANGUL_NEXT[kind]
    return False


def cluster_start(text: str, end: int, lo: int = 0) -> int:
    """The cut ``end`` of ``text``, moved back to the start of the grapheme
    cluster it falls inside (see the module docstring); ``end`` itself when
    it falls between clusters, at the end of ``text``, or when moving it would
    leave nothing after ``lo`` (one cluster longer than the chunk: it is cut,
    or kept whole by :func:`cluster_end` when it fits).

    O(the cluster's length), plus the run of regional indicators before ``end``.
    """
    cut = end
    while lo < cut < len(text) and _joined(text, cut, lo):
        cut -= 1
    return cut if cut > lo else end


def cluster_end(text: str, end: int, lo: int = 0) -> int:
    """The cut ``end`` of ``text``, moved forward to the end of the grapheme
    cluster it falls inside, ``len(text)`` at most (a cluster the text ends
    inside ends there); ``end`` itself when it falls between clusters.  For
    a cluster that opens a chunk (from ``lo``) and that :func:`cluster_start`
    cannot move the cut back out of: the chunk keeps it whole if it fits.

    O(the cluster's length), plus the run of regional indicators before ``end``.
    """
    cut = end
    while lo < cut < len(text) and _joined(text, cut, lo):
        cut += 1
    return cut
