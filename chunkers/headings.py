"""The Markdown headings in effect at any offset of a document (for chunk metadata).

:func:`heading_paths` reads the ATX (``# Title``) and Setext (a paragraph
underlined with ``===`` or ``---``) headings of a document, as
:class:`~.structure.StructureChunker` sees them (both read :mod:`.markdown`;
none inside fenced code blocks), and answers, for each chunk start, the titles of the enclosing
sections from the outermost in: what LangChain's
``MarkdownHeaderTextSplitter`` puts in its ``Header 1``, ``Header 2``, ...
metadata.  A chunk that starts with a heading (after whitespace) is under it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

from .markdown import ATX, BREAK, FENCE, SETEXT, Fence, closes_fence, opened_fence
from .structure import NUMBERED

__all__ = ["heading_paths", "headings_of"]

_LINE = re.compile(r"[^\n]*(?:\n|\Z)")

#: A heading: where its line starts, its level (1-6), its title.
Heading = tuple[int, int, str]


def headings_of(text: str, *, numbered: bool = False) -> list[Heading]:
    """Every heading of ``text`` in order: ``(line start, level, title)``.

    Only a paragraph line can be a Setext heading's title, as for
    :class:`~.structure.StructureChunker`: never a thematic break (``***``
    over ``---`` is two breaks) nor, with ``numbered`` (the chunker's
    ``respect_numbered_sections``), a numbered title that opens a paragraph.
    A last line that no ``\\n`` ends is read as the chunker reads it: ``#``
    alone opens no heading there, nor ``===`` a Setext one.
    A Setext heading starts where its paragraph does (where the chunker starts
    its section); its title is the paragraph's lines joined by spaces.
    """
    found: list[Heading] = []
    fence: Fence | None = None
    previous: tuple[int, int] | None = None  # the paragraph before, for Setext
    pos = 0
    for m in _LINE.finditer(text):
        line = m.group().rstrip("\r\n")
        start = pos
        pos = m.end()
        if not m.group():
            break
        body = line.rstrip()
        f = FENCE.fullmatch(body)
        if fence is not None:
            if f and closes_fence(fence, f):
                fence = None
            continue
        # The line as StructureChunker probes it: a last line that no "\n" ends
        # counts only through what its start decides.
        complete = m.group().endswith("\n")
        atx = ATX.match(line + "\n" if complete else m.group())
        if atx:
            found.append((start, len(atx.group(1)), _atx_title(body[atx.end() :])))
            previous = None
            continue
        if f and (fence := opened_fence(f)) is not None:
            previous = None
            continue
        setext = SETEXT.fullmatch(body)
        if setext and previous is not None and complete:
            lines = text[previous[0] : previous[1]].split("\n")
            title = " ".join(part.strip() for part in lines if part.strip())
            found.append((previous[0], 1 if setext.group(1)[0] == "=" else 2, title))
            previous = None
            continue
        if BREAK.fullmatch(body) or (numbered and previous is None and NUMBERED.match(line + "\n")):
            previous = None  # a break or a numbered title: no paragraph line
            continue
        if not body.strip():
            previous = None
        else:
            previous = (start if previous is None else previous[0], start + len(body))
    return found


def _atx_title(rest: str) -> str:
    """The title of an ATX heading line whose text after the ``#`` marks is
    ``rest`` (no trailing whitespace): without a closing run of ``#`` that
    follows a space or tab.  O(len(rest)) (a lazy regex for it went quadratic
    on a long run of inner spaces)."""
    title = rest.lstrip(" \t")
    hashes = len(title) - len(title.rstrip("#"))
    if 0 < hashes < len(title) and title[-hashes - 1] in " \t":
        title = title[:-hashes]
    return title.strip()


def heading_paths(text: str, starts: Iterable[int], *, numbered: bool = False) -> list[list[str]]:
    """For each offset in ``starts``, the titles of the sections it lies in,
    outermost first (a chunk that opens with a heading is under it);
    ``numbered`` as for :func:`headings_of`."""
    headings = headings_of(text, numbered=numbered)
    offsets = [h[0] for h in headings]
    # The path in effect after each heading.
    paths: list[list[str]] = []
    stack: list[tuple[int, str]] = []
    for _, level, title in headings:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        paths.append([t for _, t in stack])
    result = []
    for start in starts:
        lead = len(text[start : start + 256]) - len(text[start : start + 256].lstrip())
        i = bisect_right(offsets, start + lead) - 1
        result.append(list(paths[i]) if i >= 0 else [])
    return result
