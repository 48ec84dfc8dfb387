"""Where a PII validator's chunker may cut a run with no boundary: never inside an entity.

``RedactPII`` chunks by sentence under a ceiling (:class:`Bounded`).  A
sentence boundary never falls inside an entity (no entity holds a terminator
followed by whitespace), nor does the gap between a word and a lower-case word
(no entity holds whitespace before a lower-case letter).  When neither occurs
within the ceiling (minified JSON, a Markdown table row, CSV, a long run of
characters), :class:`EntityCuts` is the last fallback level: it runs the
detectors over the window Bounded offers (``max_chars + 1`` pending characters)
and cuts at the last position no entity found there spans, nor the label that
made a number an entity (``Phone: 4155550123``), at most
``len(window) - LONGEST_ENTITY - 2`` characters in, preferring the end of a
word.  Why that bound makes the cut safe: an entity of the whole text that
spans position ``p`` starts at or after ``p - LONGEST_ENTITY`` and ends, with
the two characters its pattern looks at after it, by ``p + LONGEST_ENTITY + 2``;
the window starts at the previous cut, itself never inside an entity, so the
entity and the context its detector reads lie inside the window and the
detectors find it there (property-tested over entities at every offset around
every cut, streamed in random slicings and at once).  A hard cut remains only
for a window whose every position up to that bound lies inside entities that
overlap one another (a chain of merged entities longer than ``max_chars -
LONGEST_ENTITY - 2`` characters): with the default ceiling of ``4 x
LONGEST_ENTITY`` that is over 760 characters of overlapping entities.

Bound: a chunk is at most ``max_chars`` characters, the stream holds back at
most ``max_chars`` characters, and a fallback cut falls at least
``max_chars - LONGEST_ENTITY - 2`` characters in unless entities cover the
window up to there.  Cost per fallback cut: one detector pass over
``max_chars + 1`` characters, and each such cut moves on by about
``max_chars - LONGEST_ENTITY`` characters: linear overall.

This strategy is a fallback level only: it chunks one window per scanner and
is not delta-invariant by itself (Bounded feeds it whole windows).
"""

from __future__ import annotations

from collections.abc import Iterable

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy
from guardrails_ai.chunkwise.chunkers.base import Cut, Scanner

from ._pii import ENTITIES, LONGEST_ENTITY, find_entities, label_start

__all__ = ["MARGIN", "EntityCuts", "safe_cut"]

#: How far from the window's end a cut must stay: an entity plus its look-ahead.
MARGIN = LONGEST_ENTITY + 2


def safe_cut(window: str, entities: Iterable[str] = ENTITIES) -> int | None:
    """The last offset in ``window`` (``1 <= p <= len - MARGIN``) no entity spans.

    An end of a word (whitespace follows, none precedes) is preferred to any
    other offset; ``None`` when every offset up to the bound is inside an
    entity or its label, or the window is too short.
    """
    hi = len(window) - MARGIN
    if hi < 1:
        return None
    blocked = bytearray(hi + 1)
    for e in find_entities(window, entities):
        for i in range(max(label_start(window, e.start) + 1, 1), min(e.end, hi + 1)):
            blocked[i] = 1
    fallback = None
    for p in range(hi, 0, -1):
        if blocked[p]:
            continue
        if window[p].isspace() and not window[p - 1].isspace():
            return p
        if fallback is None:
            fallback = p
    return fallback


class EntityCuts(ChunkingStrategy):
    """One cut at :func:`safe_cut` of the text fed (a fallback level, see module docstring)."""

    def __init__(self, entities: Iterable[str] = ENTITIES) -> None:
        self.entities = tuple(entities)

    def scanner(self) -> Scanner:
        return _EntityCutScanner(self.entities)

    def _params(self) -> dict[str, object]:
        return {} if self.entities == ENTITIES else {"entities": self.entities}


class _EntityCutScanner(Scanner):
    def __init__(self, entities: tuple[str, ...]) -> None:
        self._entities = entities
        self._text = ""
        self._done = 0

    def feed(self, delta: str) -> list[Cut]:
        self._text += delta
        rest = self._text[self._done :]
        start = len(rest) - len(rest.lstrip())
        p = safe_cut(rest, self._entities)
        if p is None or p <= start:
            return []
        cut = Cut(self._done + start, self._done + p, self._done + p)
        self._done += p
        return [cut]

    def finish(self) -> tuple[int, int] | None:
        rest = self._text[self._done :]
        start = len(rest) - len(rest.lstrip())
        end = len(rest.rstrip())
        return (self._done + start, self._done + end) if end > start else None
