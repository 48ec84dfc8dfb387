"""Unicode folding for matching, with a map from folded offsets back to the source.

Text is folded one *cluster* at a time: a character together with the combining
marks that follow it, at most :data:`MAX_NON_STARTERS` of them (Unicode's
stream-safe text format, UAX #15, starts a new cluster after 30 non-starters;
so does this fold, which keeps the cost of a run of marks linear).  Each
cluster is decomposed (NFKD) and case-folded, its nonspacing and enclosing
marks (accents, strike-through and slash overlays such as U+0336/U+0338, the
dot of Turkish ``\\u0130``) are dropped, but for the vowel signs and tones of
the scripts that spell words with them, after a letter of their script
(Devanagari to Sinhala, Thai, Lao, Tibetan, Myanmar, Khmer: see
``_SPELLING_MARKS``), it is recomposed (NFKC), and letters that
imitate an ASCII letter (Cyrillic ``\\u0430``, Greek ``\\u03bf``, small capital
``\\u1d07``;
see :mod:`._confusables`) become that letter, and the apostrophes U+2019,
U+2018 and U+02BC, and the acute accent U+00B4 and the primes U+2032 and
U+02B9 typed for one, become ``'``.  So full-width letters,
ligatures, compatibility forms, case, accents and look-alikes all fold to one
spelling.  Characters that render as nothing are dropped: format characters
(Unicode category ``Cf``: zero-width space, ZWNJ, ZWJ, word joiner, soft
hyphen, byte-order mark, bidirectional controls, ...), variation selectors,
the combining grapheme joiner and the blank "letters" U+115F, U+1160, U+3164,
U+FFA0 (Hangul fillers) and U+2800 (Braille blank).  So is the Arabic tatweel
U+0640, which only stretches the joint between two letters.  An HTML
character reference (``&#102;``, ``&#x65;``, ``&nbsp;``, with its ``;``) is
read as the character a page shows for it, one cluster.  Every folded character
records the span of the cluster it came from, so a match found in the folded
text can be located in the original exactly.

Folding per cluster rather than per string keeps the map exact (a cluster
also takes in the second half of a vowel sign written in two, Bengali U+09C7
U+09BE for U+09CB); it differs from whole-string folding only for rare
compositions across two starters (Hangul jamo sequences), and both sides of
a comparison are folded the same way.  Cost: O(len(text)), each cluster at most 31 characters.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from html.entities import html5

from ._confusables import SKELETON

__all__ = [
    "BLANK_LETTERS",
    "MAX_NON_STARTERS",
    "REFERENCE_MAX",
    "SPACELESS_LETTERS",
    "SPELLING_MARKS",
    "TWO_CASE",
    "Folded",
    "fold",
    "fold_text",
    "has_two_case",
    "is_ignorable",
    "is_ignorable_or_mark",
    "open_reference",
    "reference_at",
]

#: Most combining marks kept in one cluster (UAX #15 stream-safe text format).
MAX_NON_STARTERS = 30

_VARIATION_SELECTORS = (range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0))
#: Letters of the scripts written without spaces between words (Han, kana,
#: Thai, Lao, Myanmar, Khmer), as the inside of a regex character class.
SPACELESS_LETTERS = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
#: Hangul fillers and the Braille blank: letters that show nothing, which an
#: attacker may put inside a word or, as a space, between words.
BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"
#: The blank letters and the combining grapheme joiner: dropped by folding.
_BLANK = frozenset("\u034f" + BLANK_LETTERS)
_DROPPED_MARKS = frozenset(("Mn", "Me"))
#: Scripts whose combining marks spell the word (vowel signs, tone marks,
#: viramas, Tibetan subjoined letters: Devanagari to Sinhala, Thai, Lao,
#: Tibetan, Myanmar, Khmer), one range per script: such a mark after a letter
#: of its own script is kept by folding, as dropping it makes other words
#: (Thai \u0e02\u0e49\u0e32\u0e27 "rice", \u0e02\u0e48\u0e32\u0e27 "news",
#: Tibetan \u0f66\u0f90 is not \u0f66).  Elsewhere, and after a letter of
#: another script, a mark is an accent or an overlay: dropped.
_SPELLING_MARKS = (
    *(range(start, start + 0x80) for start in range(0x0900, 0x0F00, 0x80)),
    range(0x0F00, 0x1000),
    range(0x1000, 0x10A0),
    range(0x1780, 0x1800),
)
_SPELLING_STARTS = [r.start for r in _SPELLING_MARKS]


def _script_of(code: int) -> int:
    """The index in :data:`_SPELLING_MARKS` of the script of ``code``, or -1."""
    if not _SPELLING_STARTS[0] <= code < _SPELLING_MARKS[-1].stop:
        return -1
    k = bisect_right(_SPELLING_STARTS, code) - 1
    return k if k >= 0 and code in _SPELLING_MARKS[k] else -1


#: The combining marks (``M*``) of :data:`_SPELLING_MARKS`: vowel signs,
#: spacing ones too, tones, viramas.
_SPELLING_MARK_SET = frozenset(
    chr(code) for r in _SPELLING_MARKS for code in r if unicodedata.category(chr(code))[0] == "M"
)


def _class_of(chars: frozenset[str]) -> str:
    """``chars`` as the inside of a regex character class (runs as ranges)."""
    runs: list[list[int]] = []
    for code in sorted(map(ord, chars)):
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in runs)


def _second_halves() -> frozenset[str]:
    """The marks that compose, with no combining class of their own, with the
    character before them (Bengali U+09C7 U+09BE is U+09CB, Myanmar U+1025
    U+102E is U+1026): a cluster takes them in, so that both spellings fold
    the same.  They are all in the scripts of U+0900-U+1FFF and U+11000-U+11FFF."""
    halves = set()
    for code in (*range(0x0900, 0x2000), *range(0x11000, 0x12000)):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) != 2 or parts[0].startswith("<"):
            continue
        first, second = (chr(int(part, 16)) for part in parts)
        if (
            unicodedata.category(second)[0] == "M"
            and not unicodedata.combining(second)
            and unicodedata.normalize("NFC", first + second) == chr(code)
        ):
            halves.add(second)
    return frozenset(halves)


_SECOND_HALVES = _second_halves()

#: :data:`_SPELLING_MARK_SET` as the inside of a regex character class: in
#: folded text such a mark is part of the word of the letter before it.
SPELLING_MARKS = _class_of(_SPELLING_MARK_SET)
#: Apostrophes written another way: the typographic U+2019, the left quote
#: U+2018 used as one, the modifier letter U+02BC, and what is typed for one on
#: keyboards without it: the acute accent U+00B4 (which compatibility
#: decomposition would turn into a space), the prime U+2032 and the modifier
#: prime U+02B9.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2018\u2019\u02bc\u00b4\u2032\u02b9", "'"))
#: The Arabic tatweel (kashida) U+0640: a stroke that stretches the joint
#: between two letters, typographic only (``\u0645\u062c\u0640\u0640\u0627\u0646\u064a``
#: is ``\u0645\u062c\u0627\u0646\u064a``): dropped, as Arabic search does.
_TATWEEL = {0x0640: None}
#: The first step of folding: look-alikes and apostrophes, and the tatweel
#: dropped, before decomposition (see :func:`_fold_cluster`).
_FIRST_FOLD: dict[int, str | None] = {**SKELETON, **_APOSTROPHES, **_TATWEEL}
#: The last step of folding: look-alikes (:data:`SKELETON`), and apostrophes
#: as "'", one character for one, so offsets keep their length.  One table:
#: one pass.
_LAST_FOLD = {**SKELETON, **_APOSTROPHES}


def is_ignorable(char: str) -> bool:
    """True for a character that renders as nothing and is dropped by folding."""
    if char in _BLANK or unicodedata.category(char) == "Cf":
        return True
    code = ord(char)
    return any(code in r for r in _VARIATION_SELECTORS)


def is_ignorable_or_mark(char: str) -> bool:
    """True for a character that renders as nothing (:func:`is_ignorable`) or
    a combining mark (category ``M*``): part of the letter before it, never a
    character of its own."""
    return is_ignorable(char) or unicodedata.category(char).startswith("M")


def _fold_cluster(cluster: str, base: int = -1, lower_first: bool = False) -> str:
    # ``lower_first``: case-folded before anything else, so that a capital and
    # its small letter fold the same where they imitate different letters
    # (Greek capital eta imitates "H", small eta "n": see fold).
    if lower_first:
        cluster = cluster.casefold()
    # Look-alikes are mapped before compatibility decomposition (which turns
    # the lunar sigma, a look-alike of "c", into a sigma), before case folding
    # (capital Greek eta imitates "H", small eta imitates "n") and after it
    # (what folding produced); the marks are dropped after folding (U+0130
    # folds to "i" and a combining dot).
    decomposed = (
        unicodedata.normalize("NFKD", cluster.translate(_FIRST_FOLD)).translate(SKELETON).casefold()
    )
    decomposed = unicodedata.normalize("NFKD", decomposed)
    script = (
        base if unicodedata.category(decomposed[:1] or "a")[0] == "M" else _marks_script(decomposed)
    )
    bare = "".join(
        c
        for c in decomposed
        if (script >= 0 and _script_of(ord(c)) == script)
        or (unicodedata.category(c) not in _DROPPED_MARKS and c not in _SPELLING_MARK_SET)
    )
    return unicodedata.normalize("NFKC", bare).translate(_LAST_FOLD)


def _marks_script(cluster: str) -> int:
    """The script (:func:`_script_of`) whose marks ``cluster`` keeps: its
    letter's, when that letter is of a script whose marks are vowels and tones
    (:data:`_SPELLING_MARKS`: ``\u092a\u0941\u0932`` is not ``\u092a\u0932``);
    else -1 (no mark is kept).  A cluster that begins with a mark keeps the
    marks of the letter it renders on (see :func:`fold`)."""
    return _script_of(ord(cluster[0])) if cluster else -1


@dataclass(frozen=True, slots=True)
class Folded:
    """Folded text and, per folded character, its cluster's span in the source.

    ``text[i]`` came from ``source[starts[i]:ends[i]]``.  :meth:`source_span`
    turns a folded span into the source span that covers it.
    """

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """Source span of the folded span ``[start, end)`` (``end > start``)."""
        return self.starts[start], self.ends[end - 1]


# ASCII but "&", which may begin a character reference.
_ASCII_RUN = re.compile(r"[\x00-\x25\x27-\x7f]+")
#: An HTML character reference: decimal, hexadecimal or named, with its ";"
#: (without it, "AT&T" and "&copy" are text).  Bounded: at most 34 characters.
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: Longest character reference :data:`_REFERENCE` matches.
REFERENCE_MAX = 34


def _decoded(reference: str) -> str | None:
    """What an HTML character reference (``&#102;``, ``&#x65;``, ``&nbsp;``)
    renders as, or ``None`` if it names no character."""
    if reference[1] != "#":
        return html5.get(reference[1:])
    code = int(reference[3:-1], 16) if reference[2] in "xX" else int(reference[2:-1])
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code)


#: The beginning of an HTML character reference that a text ends inside.
_OPEN_REFERENCE = re.compile(r"&(?:#[xX]?[0-9a-fA-F]*|[A-Za-z][A-Za-z0-9]*)?\Z")


def open_reference(text: str) -> int | None:
    """Where an HTML character reference that ``text`` ends inside (``fr&#x6``:
    one character, not known yet) begins, or ``None``.  O(1)."""
    amp = text.rfind("&", max(0, len(text) - REFERENCE_MAX))
    return amp if amp >= 0 and _OPEN_REFERENCE.match(text, amp) is not None else None


def reference_at(text: str, i: int) -> tuple[int, str] | None:
    """The end of the HTML character reference at ``text[i]`` and what it
    renders as, or ``None``."""
    m = _REFERENCE.match(text, i)
    if m is None:
        return None
    decoded = _decoded(m.group())
    return None if decoded is None else (m.end(), decoded)


@lru_cache(maxsize=4096)
def _fold_char(char: str, base: int = -1, lower_first: bool = False) -> str:
    """A lone non-ASCII character, folded ("" if ignorable); ``base``: the
    script whose marks a mark standing alone keeps (see :func:`fold`)."""
    return "" if is_ignorable(char) else _fold_cluster(char, base, lower_first)


def fold(source: str, *, blanks_as_spaces: bool = False, lower_first: bool = False) -> Folded:
    """Fold ``source`` (see the module docstring) and keep the offset map.

    ASCII runs are lower-cased in one step (no ASCII character is ignorable,
    combining or changed by NFKC); only the other characters are folded one
    cluster at a time.  An HTML character reference (``&#102;``, ``&#x65;``,
    ``&nbsp;``, with its ``;``) folds as the character it renders as.
    ``blanks_as_spaces``: a blank letter (:data:`BLANK_LETTERS`) standing
    alone folds to a space instead of nothing (the reading of ``free\u2800money`` as two words).
    ``lower_first``: each cluster is case-folded before its look-alikes are
    mapped, so that a capital and its small letter fold the same where they
    imitate different letters (:data:`TWO_CASE`: Greek ``\u0397`` is ``h``,
    ``\u03b7`` is ``n``; with it, both are ``n``): the reading in which case
    never counts.
    """
    n = len(source)
    if source.isascii() and "&" not in source:
        return Folded(source.lower(), tuple(range(n)), tuple(range(1, n + 1)))
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i = 0
    # A cluster that begins with a mark keeps the marks of the script of the
    # last cluster that began with neither a mark nor an ignorable character
    # (its folded letter, ``letter``: see _marks_script).  So a mark after no
    # letter of its script is dropped, also after a dropped mark, and a mark
    # after an invisible character is its letter's, as it renders.  The script
    # is looked up only for a cluster that is more than a lone letter (a lone
    # letter folds with base -1: one cache entry per character).
    letter = ""
    while i < n:
        run = _ASCII_RUN.match(source, i)
        if run is not None:
            j = run.end()
            # A combining mark after the run belongs to the run's last character.
            if j < n and unicodedata.combining(source[j]):
                j -= 1
            if j > i:
                out.append(source[i:j].lower())
                starts.extend(range(i, j))
                ends.extend(range(i + 1, j + 1))
                letter = ""
                i = j
                if i == n:
                    break
        reference = reference_at(source, i) if source[i] == "&" else None
        # A character reference is one character (what it renders as), its
        # marks after it.
        first, j = (source[i], i + 1) if reference is None else (reference[1], reference[0])
        after = j
        stop = min(n, j + MAX_NON_STARTERS)
        while j < stop and (unicodedata.combining(source[j]) or source[j] in _SECOND_HALVES):
            j += 1
        kind = unicodedata.category(first)
        # (A letter, or anything else that is neither a mark nor ignorable.)
        lead = kind[0] != "M" and kind != "Cf" and first not in _BLANK
        # (Only a lone letter is sure to fold to no mark first: a tatweel
        # folds to nothing, and the marks after it are then the letter's.)
        base = -1 if lead and j == after and reference is None else _marks_script(letter)
        if reference is not None:
            cluster = "".join(c for c in first + source[after:j] if not is_ignorable(c))
            folded = _fold_cluster(cluster, base, lower_first) if cluster else ""
        elif j == i + 1:
            folded = (
                " "
                if blanks_as_spaces and first in BLANK_LETTERS
                else _fold_char(first, base, lower_first)
            )
        else:
            cluster = "".join(c for c in source[i:j] if not is_ignorable(c))
            folded = _fold_cluster(cluster, base, lower_first) if cluster else ""
        if lead or (folded == " " and kind[0] != "M"):
            letter = folded
        if folded:
            out.append(folded)
            starts.extend([i] * len(folded))
            ends.extend([j] * len(folded))
        i = j
    return Folded("".join(out), tuple(starts), tuple(ends))


def _two_case() -> str:
    """The letters whose capital and small forms fold to different letters
    (each imitates another ASCII letter: Greek eta, nu, upsilon, Latin iota),
    as the inside of a regex character class; their compatibility and
    accented forms decompose to them."""
    found: set[str] = set()
    for code in SKELETON:
        char = chr(code)
        for other in (char.lower(), char.upper()):
            if other != char and _fold_cluster(other) != _fold_cluster(char):
                found.update((char, other))
    return _class_of(frozenset(found))


#: :func:`_two_case`: a text with one of them (decomposed) is read again with
#: ``lower_first``.
TWO_CASE = _two_case()
_TWO_CASE = re.compile(f"[{TWO_CASE}]")


def has_two_case(text: str) -> bool:
    """Whether ``text`` may fold differently with ``lower_first``: it holds a
    letter of :data:`TWO_CASE`, in any compatibility or accented form, or a
    character reference to one.  O(len(text))."""
    if not text.isascii() and _TWO_CASE.search(unicodedata.normalize("NFKD", text)):
        return True
    if "&" not in text:
        return False
    return any(
        _TWO_CASE.search(unicodedata.normalize("NFKD", _decoded(m.group()) or ""))
        for m in _REFERENCE.finditer(text)
    )


def fold_text(source: str) -> str:
    """The folded text alone (no offset map)."""
    return fold(source).text
