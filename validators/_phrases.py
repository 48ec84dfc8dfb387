"""Whole-word phrase search in folded text, in one pass with one compiled pattern.

The phrases are folded (see :mod:`._normalize`), their whitespace runs become
``\\s+``, and all of them are merged into one regular expression shaped like a
trie: phrases that share a prefix share its branch, so at any position the
pattern follows at most one branch per character and the cost of a search is
O(len(text) x longest phrase), independent of the number of phrases, with no
nested quantifiers to backtrack over.  Every start position is tried (the
pattern sits in a lookahead), so overlapping phrases are all found.

A match is whole-word: the characters on either side of it, in the folded
text, are not letters or digits, except next to a letter of a script written
without spaces between words (Chinese, Japanese, Thai...: ``免费的钱`` in
``这是免费的钱。``, ``free money`` in ``访问free money网站``), where a match
may begin or end anywhere.  Markdown emphasis markers do not join words: a
run of ``_`` before a phrase, after a non-word character, and one after it,
before a non-word character, count as boundaries (``_free money_``,
``__free__ money``, ``____free money____``; ``bad_x`` stays one word).  Between the words of a
phrase, a run of whitespace matches, or one hyphen that joins them
(``free-money``, ``free-\\nmoney``; a hyphen in a phrase separates its words
too), also when ``*``, ``_``, ``~`` or the backtick of inline code stick to
it (``**free** money``, ```free` money``).
Dashes between spaces and ``--`` separate clauses, as ``;`` does: they do not.
Building the pattern is iterative: a phrase of any length compiles.  A
blank letter (:data:`._normalize.BLANK_LETTERS`) is read both ways: dropped
(inside a word) and as a space (between words); a text holding one is
searched once for each reading.  :meth:`PhraseMatcher.open_at` finds the
beginning of a phrase that runs to the end of a text (for cuts that must not
split one: :mod:`._phrase_cuts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ._normalize import (
    BLANK_LETTERS,
    SPACELESS_LETTERS,
    SPELLING_MARKS,
    Folded,
    fold,
    has_two_case,
    is_ignorable_or_mark,
    open_reference,
)

__all__ = ["PhraseMatch", "PhraseMatcher", "fold_phrase", "group_matches"]

# Folded text holds no nonspacing marks (folding drops them) but for the
# vowel signs, tones and viramas of the scripts that spell with them, after a
# letter of their script (SPELLING_MARKS): a letter, a digit or such a mark on
# either side makes a match part of a longer word (\u091c\u0932 is not in
# \u091c\u0932\u0947\u092c\u0940).
_LETTER = f"(?:[^\\W_]|[{SPELLING_MARKS}])"
# Letters of scripts written without spaces between words (Han, kana, Thai,
# Lao, Myanmar, Khmer): next to one, either side of a match is a boundary.
_SPACELESS = f"[{SPACELESS_LETTERS}]"
# Before a phrase: no letter, digit or "_", then a run of "_" (emphasis, any
# number: "____free____" is bold in CommonMark), possessive: a run is read
# once, from its start (inside it "_" comes before).
_BEFORE = f"(?:(?<={_SPACELESS})|(?={_SPACELESS})|(?<![\\w{SPELLING_MARKS}]))_*+"
# After a phrase: no letter, also not after a run of "_".
_AFTER = f"(?:(?<={_SPACELESS})|(?={_SPACELESS})|(?!_*+{_LETTER}))"
# Between the words of a phrase: a run of whitespace, or one hyphen (hyphen-
# minus, U+2010; U+2011 folds to it) with no whitespace before it, as words
# are joined ("free-money", "free-\nmoney" broken at a line end), with
# emphasis markers stuck to it (possessive: no backtracking).  Dashes set off
# by spaces and "--" are punctuation between clauses, as ";" is: no gap.
_HYPHENS = "\\-\u2010"
_SEPARATOR = f"(?:\\s++|[{_HYPHENS}]\\s*+)"
# Markers stuck to a gap: emphasis ("*", "_", "~") and the backtick of inline
# code ("`free` money").
_MARKS = "[*_~`]*+"
_GAP = f"{_MARKS}{_SEPARATOR}{_MARKS}"
# In a phrase: whitespace, or a hyphen between two words ("-5%" keeps its own).
_WORD_CHAR = f"[^\\s{_HYPHENS}]"
_WORDS = re.compile(f"\\s+|(?<={_WORD_CHAR})[{_HYPHENS}]\\s*(?={_WORD_CHAR})")
_MARKERS = "*_~`"
_SPACE = object()  # trie key for a whitespace run
_BLANKS = re.compile(f"[{BLANK_LETTERS}]")
_GAP_RE = re.compile(_GAP)
_AFTER_RE = re.compile(_AFTER)


@dataclass(frozen=True, slots=True)
class PhraseMatch:
    """A phrase found in a source text: ``source[start:end]``, as given by the user."""

    start: int
    end: int
    phrase: str


def fold_phrase(phrase: str, *, lower_first: bool = False) -> str:
    """The folded phrase as :func:`_words_of` gives it (``lower_first``: see
    :func:`~._normalize.fold`)."""
    return _words_of(fold(phrase, lower_first=lower_first).text)


def _words_of(folded: str) -> str:
    """The words of ``folded`` (a folded phrase, or a match of one), separated
    by whitespace or a hyphen between words, joined by one space; emphasis
    markers around words dropped."""
    return " ".join(w for w in (w.strip(_MARKERS) for w in _WORDS.split(folded)) if w)


def _in_word(char: str) -> bool:
    """A letter, a digit, a combining mark or a character folding drops."""
    return char.isalnum() or is_ignorable_or_mark(char)


class _Node:
    __slots__ = ("children", "terminal")

    def __init__(self) -> None:
        self.children: dict[object, _Node] = {}
        self.terminal = False


#: How deep the pattern of a phrase's beginning follows the trie (edges): a
#: beginning as long as this counts as open whatever follows it (a group per
#: character nests, and the regex compiler recurses once per group).
PARTIAL_DEPTH = 64


def _pattern(root: _Node, *, partial: bool = False) -> str:
    """The trie below ``root`` as one pattern; iterative (no recursion per character).

    ``partial``: the pattern of a phrase's beginning that runs to the end of
    the text (``free mo`` at the end of a window): it matches only up to
    ``\\Z``, from any node, a whole phrase included, and takes anything to the
    end after :data:`PARTIAL_DEPTH` edges."""
    done: dict[int, str] = {}
    stack: list[tuple[_Node, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, expanded = stack.pop()
        if partial and depth >= PARTIAL_DEPTH:
            done[id(node)] = "[\\s\\S]*+\\Z"
            continue
        if not expanded:
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in node.children.values())
            continue
        branches = [
            _edge(key, done.pop(id(child)), partial) for key, child in node.children.items()
        ]
        if partial:
            branches.append("\\Z")
        elif node.terminal:
            # Last: longer phrases are tried first.  The phrase may end here;
            # whether a word ends here too is checked once, after the trie
            # (PhraseMatcher), which backtracks to a shorter phrase if not.
            branches.append("")
        done[id(node)] = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return done[id(root)]


def _edge(key: object, below: str, partial: bool) -> str:
    if key is not _SPACE:
        return re.escape(str(key)) + below
    if partial:  # (the window may end inside the gap)
        return f"{_MARKS}(?:\\Z|{_SEPARATOR}{_MARKS}{below})"
    return _GAP + below


class PhraseMatcher:
    """Find every occurrence of any of ``phrases`` in a text (see module docstring).

    ``phrases`` must be non-empty strings with some content left after
    folding; the caller checks types and reports errors with its own
    parameter names.  :attr:`folded` maps each folded phrase to the first
    phrase given that folds to it.
    """

    def __init__(self, phrases: Iterable[str]) -> None:
        self.folded: dict[str, str] = {}
        root = _Node()
        for phrase in phrases:
            first = fold_phrase(phrase)
            if not first:
                raise ValueError(f"phrase {phrase!r} is empty once folded")
            # Both readings: a text is searched in the second too when it has
            # a letter whose capital and small forms fold apart (see find).
            for key in dict.fromkeys((first, fold_phrase(phrase, lower_first=True))):
                self.folded.setdefault(key, phrase)
                node = root
                for token in key:
                    step: object = _SPACE if token == " " else token
                    node = node.children.setdefault(step, _Node())
                node.terminal = True
        # _AFTER once, not at each phrase's end: its class of spaceless
        # letters costs milliseconds to compile, each time it is written.
        self._regex = re.compile(f"(?={_BEFORE}({_pattern(root)}){_AFTER})")
        self._partial = re.compile(f"{_BEFORE}({_pattern(root, partial=True)})")
        #: Per phrase, the shorter phrases it begins with, as their lengths
        #: in it ("free" in "free money"): the pattern reports the longest.
        self._shorter: dict[str, list[int]] = {}
        for key in self.folded:
            node, ends = root, []
            for i, token in enumerate(key[:-1], 1):
                node = node.children[_SPACE if token == " " else token]
                if node.terminal:
                    ends.append(i)
            if ends:
                self._shorter[key] = ends

    def find(self, text: str) -> list[PhraseMatch]:
        """Every phrase occurrence, by start offset in ``text`` (overlaps included).

        From each position the longest phrase is reported, and the shorter
        ones it begins with that end a word there too (``free`` in ``free
        money``).
        """
        found: list[PhraseMatch] = []
        readings = 0
        for folded in _readings(text):
            found += self._find(folded)
            readings += 1
        if readings == 1:
            return found
        # (Each other reading's matches join the first's.)
        return sorted(dict.fromkeys(found), key=lambda m: (m.start, m.end))

    def _find(self, folded: Folded) -> list[PhraseMatch]:
        found = []
        last = -1
        for m in self._regex.finditer(folded.text):
            start, end = m.span(1)
            if start == last:
                continue  # (found from the "_" before it, and again next to a spaceless letter)
            last = start
            key = _words_of(m.group(1))
            found.append(PhraseMatch(*folded.source_span(start, end), self.folded[key]))
            if key in self._shorter:
                found += self._shorter_at(folded, start, key)
        return found

    def _shorter_at(self, folded: Folded, start: int, key: str) -> list[PhraseMatch]:
        """The shorter phrases that ``key``, found at ``start``, begins with
        and that end a word there too (O(len(match)))."""
        text, found = folded.text, []
        ends = iter(self._shorter[key])
        at, pos = next(ends), start
        for i, token in enumerate(key, 1):
            if token == " ":
                gap = _GAP_RE.match(text, pos)
                pos = pos + 1 if gap is None else gap.end()  # (the match has one)
            else:
                pos += 1
            if i != at:
                continue
            end = pos
            if token != " " and _AFTER_RE.match(text, end) is not None:
                # (Emphasis markers after a word are no part of it.)
                phrase = self.folded[key[:i]]
                found.append(PhraseMatch(*folded.source_span(start, end), phrase))
            at = next(ends, 0)
            if not at:
                break
        return found

    def open_at(self, text: str) -> int | None:
        """Where the earliest beginning of a phrase that runs to the end of
        ``text`` starts (the rest may follow it), or ``None``.  One search:
        O(len(text) x longest phrase).

        A character reference that ``text`` ends inside (``fr&#x6``) may be
        any character: a phrase may run into it, and the word it ends may
        begin one, so the earliest of those counts too."""
        found = self._open_plain(text)
        amp = open_reference(text)
        if amp is None:
            return found
        start = amp
        while start > 0 and (text[start - 1] in "&#;" or _in_word(text[start - 1])):
            start -= 1
        before = self._open_plain(text[:amp])
        return min(p for p in (found, before, start) if p is not None)

    def _open_plain(self, text: str) -> int | None:
        # As in find: a blank letter may stand for a space before a phrase.
        opened = [self._open_at(folded) for folded in _readings(text)]
        return min((p for p in opened if p is not None), default=None)

    def _open_at(self, folded: Folded) -> int | None:
        m = self._partial.search(folded.text)
        if m is None or m.start(1) == len(folded.text):
            return None
        return folded.source_span(m.start(1), m.start(1) + 1)[0]


def _readings(text: str) -> Iterator[Folded]:
    """``text`` folded, then in each other reading it may need: a blank
    letter read as a space (it hides a phrase inside a word, dropped, and
    between its words, a space), and case folded first (a capital that
    imitates another letter than its small form: ``\u0397`` and ``\u03b7``,
    see :func:`~._normalize.fold`), so that matching ignores case in every
    script.  A text needs none but the first unless it holds such letters."""
    yield fold(text)
    blanks = not text.isascii() and _BLANKS.search(text) is not None
    if blanks:
        yield fold(text, blanks_as_spaces=True)
    if has_two_case(text):
        yield fold(text, lower_first=True)
        if blanks:
            yield fold(text, blanks_as_spaces=True, lower_first=True)


def group_matches(matches: Iterable[PhraseMatch]) -> list[tuple[int, int, list[str]]]:
    """Overlapping or touching matches merged: ``(start, end, phrases)`` by offset.

    ``phrases`` lists the distinct phrases of the group in order of appearance.
    One pass over the matches sorted by start: O(n log n).
    """
    groups: list[tuple[int, int, list[str]]] = []
    for m in sorted(matches, key=lambda m: (m.start, m.end)):
        if groups and m.start <= groups[-1][1]:
            start, end, phrases = groups[-1]
            if m.phrase not in phrases:
                phrases.append(m.phrase)
            groups[-1] = (start, max(end, m.end), phrases)
        else:
            groups.append((m.start, m.end, [m.phrase]))
    return groups
