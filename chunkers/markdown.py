"""The Markdown lines every chunker reads a document by: one definition each.

:class:`~.structure.StructureChunker` (sections), :func:`~.headings.headings_of`
(the heading path of a chunk) and :mod:`.fences` (where a size limit may not
cut) must agree on what a heading and a fenced code block are, or a chunk's
heading metadata names a section the chunker never saw.  So they read them
here, close to CommonMark and to what models write:

* an ATX heading: up to three spaces, one to six ``#``, then a space, a tab
  or the end of the line (not another space character: ``#\\u00a0Title`` is a
  paragraph);
* a Setext underline: up to three spaces and three or more ``=`` (level 1) or
  ``-`` (level 2), under a paragraph line (shorter runs are too often a
  stray dash);
* a thematic break: three or more ``-``, ``*`` or ``_``, spaces between;
* a fence: three or more backticks or tildes after *any* indentation (a code
  block inside a nested list item is indented by the item's marker; an
  indented code block that shows a fence is rarer in a model's answer), and
  for backticks no backtick after them on the line (that is an inline code
  span).  It is closed by a line of the same character, at least as long,
  with nothing after it, indented at most three columns more than the fence
  that opened it (a tab counts to the next multiple of four): a fence line
  indented deeper is code of the block (a string or a docstring that shows
  Markdown).

Every pattern is anchored at a line start and linear in the line.
"""

from __future__ import annotations

import re

__all__ = [
    "ATX",
    "BREAK",
    "FENCE",
    "FENCE_LINE",
    "SETEXT",
    "Fence",
    "closes_fence",
    "opened_fence",
]

#: An open fence: its character, its length and its indentation (in columns).
Fence = tuple[str, int, int]

# Prefix patterns need one character after what they match, so that a match
# found on the start of an unfinished line stays a match however it goes on
# (match a complete line with its line break).
#: An ATX heading's opening (group 1: its ``#`` marks).
ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t\r\n])")
# Whole-line patterns, matched against the line without trailing whitespace.
#: A fence line (group 1: its indentation, 2: the fence, 3: the rest of the line).
FENCE = re.compile(r"([ \t]*+)(`{3,}+|~{3,}+)(.*)")
#: A Setext underline (group 1: the run of ``=`` or ``-``).
SETEXT = re.compile(r" {0,3}(={3,}|-{3,})")
#: A thematic break.
BREAK = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}")
#: Every complete fence line of a text (``re.MULTILINE``; groups as :data:`FENCE`).
FENCE_LINE = re.compile(r"^([ \t]*+)(`{3,}+|~{3,}+)([^\n]*+)\n", re.MULTILINE)


def opened_fence(line: re.Match[str]) -> Fence | None:
    """The fence a fence line (a match of :data:`FENCE` or :data:`FENCE_LINE`)
    opens; ``None`` for backticks that the rest of the line closes again (an
    inline code span)."""
    indent, mark, rest = line.groups()
    if mark[0] == "`" and "`" in rest:
        return None
    return mark[0], len(mark), len(indent.expandtabs(4))


def closes_fence(fence: Fence, line: re.Match[str]) -> bool:
    """Whether a fence line (a match of :data:`FENCE` or :data:`FENCE_LINE`) closes ``fence``."""
    indent, mark, rest = line.groups()
    return (
        mark[0] == fence[0]
        and len(mark) >= fence[1]
        and not rest.strip()
        and len(indent.expandtabs(4)) <= fence[2] + 3
    )
