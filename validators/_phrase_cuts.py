"""Where a phrase validator's size limit may cut a sentence longer than its window.

``BannedPhrases`` chunks by sentence; no phrase it takes spans a sentence end
(its constructor refuses one that would).  Under a size limit
(``limit("sentence", max_chars=...)``), a sentence longer than the window is
cut down a fallback chain, whose word and hard cuts could split a phrase (``free
| money``), each half then passing.  :func:`phrase_safe` makes such a limit's
last level :class:`PhraseCuts`: in the window the limit offers (``limit + 1``
characters), it cuts at the last position that

* no phrase found in the window spans, nor a fenced code block that the
  limit keeps whole (it refuses a cut there),
* comes at or before the start of any beginning of a phrase that runs to the
  window's end (``free mo``: the rest may follow),
* falls between two characters that are not both letters or digits, neither
  a combining mark nor one that folding drops, nor inside an HTML character
  reference (so a cut neither splits a word nor makes one: ``bad|ly`` never
  leaves ``bad`` alone, ``&|#102;ree`` never hides ``free``),

preferring the end of a word (whitespace after it).  None such: the limit's
own last resort (whitespace on its own, else a hard cut at the limit), which
happens only when one occurrence of a phrase, or its beginning, fills the whole
window (a phrase whose gaps hold a whitespace run about as long as the window),
or occurrences that overlap one another do (``get **free** money`` with ``get
free`` and ``free money`` banned, in a window of 16: the chunk cut off still
holds ``get free``, so it fails).

Cost per fallback cut: one phrase search and one search for an open beginning
over the window, O(window x longest phrase); the cut moves on by the window
but for the open beginning at its end.
"""

from __future__ import annotations

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy, SplitFlush

from ._normalize import REFERENCE_MAX, is_ignorable_or_mark, reference_at
from ._phrases import PhraseMatcher
from ._windows import OneCut, size_limit, window_cut

__all__ = ["PhraseCuts", "phrase_safe", "phrase_safe_cut", "splits_nothing"]


def splits_nothing(window: str, p: int) -> bool:
    """Whether a cut before ``window[p]`` neither splits a word nor makes one
    (no letter or digit on both sides; no combining mark or character that
    folding drops on either side; not inside an HTML character reference,
    which folds as one character)."""
    before, after = window[p - 1], window[p]
    if before in "&#;" or after in "&#;":
        # An HTML character reference is the character it renders as
        # ("&#102;ree" is "free"): never cut inside one, and read it as that
        # character on either side of the cut.
        amp = window.rfind("&", max(0, p - REFERENCE_MAX), p)
        found = reference_at(window, amp) if amp >= 0 else None
        if found is not None and found[0] > p:
            return False
        if found is not None and found[0] == p and found[1]:
            before = found[1][-1]
        found = reference_at(window, p) if after == "&" else None
        if found is not None and found[1]:
            after = found[1][0]
    if before.isalnum() and after.isalnum():
        return False  # (inside a word)
    for c in (before, after):
        if is_ignorable_or_mark(c):
            return False
    return True


def phrase_safe_cut(window: str, matcher: PhraseMatcher) -> int | None:
    """The cut :class:`PhraseCuts` makes in ``window`` (see the module docstring)."""
    hi = len(window) - 1
    open_at = matcher.open_at(window)
    if open_at is not None:
        hi = min(hi, open_at)
    spans = ((m.start, m.end) for m in matcher.find(window))
    return window_cut(window, hi, spans, splits_nothing)


class PhraseCuts(OneCut):
    """One cut at :func:`phrase_safe_cut` of the window fed (a fallback level).

    Its ``repr`` counts the phrases and never shows them (they may be
    confidential)."""

    def __init__(self, matcher: PhraseMatcher) -> None:
        self.matcher = matcher

    def cut_at(self, window: str) -> int | None:
        return phrase_safe_cut(window, self.matcher)

    def __repr__(self) -> str:
        return f"PhraseCuts(<{len(self.matcher.folded)} phrases>)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PhraseCuts) and other.matcher is self.matcher

    def __hash__(self) -> int:
        return id(self.matcher)


def phrase_safe(
    strategy: ChunkingStrategy | SplitFlush, matcher: PhraseMatcher
) -> ChunkingStrategy | SplitFlush:
    """``strategy`` whose fallback chain never cuts a phrase of ``matcher``, if
    it is a size limit with its default chain (:class:`PhraseCuts` becomes the
    whole chain); any other strategy as it is.  ``ValueError`` for a size
    limit with a ``fallback=`` of the caller's (its levels may cut a phrase)."""
    window = size_limit(strategy)
    if window is None:
        return strategy
    # (A chain of PhraseCuts is one this function set: a chunker taken from a
    # BannedPhrases.  An empty chain, a hard cut at the window's end, is the caller's.)
    chain = window.fallback
    ours = bool(chain) and all(isinstance(level, PhraseCuts) for level in chain)
    if not (window.default_fallback or ours):
        raise ValueError(
            f"chunker={strategy!r:.200} has a fallback= chain of its own, whose cuts may "
            "split a phrase in two; leave fallback= unset and BannedPhrases cuts an "
            "over-long sentence only where no phrase is"
        )
    return window.strategy.with_fallback((PhraseCuts(matcher),))
