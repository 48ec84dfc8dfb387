"""Whole-word phrase search in folded text, in one pass with one compiled pattern.

The phrases are folded (see :mod:`._normalize`), their whitespace runs become
``\\s+``, and all of them are merged into one regular expression shaped like a
trie: phrases that share a prefix share its branch, so at any position the
pattern follows at most one branch per character and the cost of a search is
O(len(text) x longest phrase), independent of the number of phrases, with no
nested quantifiers to backtrack over.  Every start position is tried (the
pattern sits in a lookahead), so overlapping phrases are all found.

A match is whole-word: the characters on either side of it, in the folded
text, are not word characters (letters, digits, ``_``) nor combining marks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ._normalize import fold

__all__ = ["PhraseMatch", "PhraseMatcher", "fold_phrase", "group_matches"]

# Word characters and the common combining-mark blocks (a mark glued to the
# last letter of a phrase makes it another word).
_WORDISH = r"\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_SPACE = object()  # trie key for a whitespace run
_WS = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class PhraseMatch:
    """A phrase found in a source text: ``source[start:end]``, as given by the user."""

    start: int
    end: int
    phrase: str


def fold_phrase(phrase: str) -> str:
    """The folded phrase with whitespace runs collapsed to one space, stripped."""
    return " ".join(fold(phrase).text.split())


class _Node:
    __slots__ = ("children", "terminal")

    def __init__(self) -> None:
        self.children: dict[object, _Node] = {}
        self.terminal = False


def _pattern(node: _Node) -> str:
    branches = [
        (r"\s+" if key is _SPACE else re.escape(str(key))) + _pattern(child)
        for key, child in node.children.items()
    ]
    if node.terminal:
        branches.append(f"(?![{_WORDISH}])")  # last: longer phrases are tried first
    if len(branches) == 1:
        return branches[0]
    return "(?:" + "|".join(branches) + ")"


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
            key = fold_phrase(phrase)
            if not key:
                raise ValueError(f"phrase {phrase!r} is empty once folded")
            self.folded.setdefault(key, phrase)
            node = root
            for token in key:
                step: object = _SPACE if token == " " else token
                node = node.children.setdefault(step, _Node())
            node.terminal = True
        self._regex = re.compile(f"(?<![{_WORDISH}])(?=({_pattern(root)}))")

    def find(self, text: str) -> list[PhraseMatch]:
        """Every phrase occurrence, by start offset in ``text`` (overlaps included).

        From each position the longest phrase is reported.
        """
        folded = fold(text)
        found = []
        for m in self._regex.finditer(folded.text):
            start, end = m.span(1)
            phrase = self.folded[_WS.sub(" ", m.group(1))]
            found.append(PhraseMatch(*folded.source_span(start, end), phrase))
        return found


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
