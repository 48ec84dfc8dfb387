"""Section chunking for Markdown and numbered documents."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .base import ChunkingStrategy, Cut, Scanner
from .markdown import ATX, BREAK, FENCE, SETEXT, Fence, closes_fence, opened_fence
from .params import refuse_mapping

__all__ = ["DEFAULT_TRANSITIONS", "StructureChunker"]

_NO_CUTS: list[Cut] = []

#: Phrases that open a new topic when they open a paragraph.
DEFAULT_TRANSITIONS: tuple[str, ...] = (
    "However,",
    "In summary,",
    "In conclusion,",
    "To summarize,",
    "To sum up,",
    "Overall,",
    "Moreover,",
    "Furthermore,",
    "Additionally,",
    "In addition,",
    "On the other hand,",
    "In contrast,",
    "Nevertheless,",
    "Meanwhile,",
    "Consequently,",
    "As a result,",
    "Therefore,",
    "Finally,",
    "That said,",
)

# Module globals so that tests can count the work done by the regex engine.
# Prefix patterns need one character after what they match, so that a match
# found on the start of an unfinished line stays a match however it goes on.
_ATX_SPAN = 3 + 6 + 1
NUMBERED = re.compile(r" {0,3}\d{1,3}(?:(?:\.\d{1,3}){1,4}\.?|[.)])[ \t]{1,4}\S")
_NUMBERED_SPAN = 3 + 3 + 4 * 4 + 1 + 4 + 1

# The first character of a line that no pattern can match (the common case).
_SPECIAL = re.escape("#0123456789`~-*_=")
PLAIN = re.compile(f"[^\\s{_SPECIAL}]")
_BLANK, _PARA, _OTHER = 0, 1, 2  # kinds of the previous line
_HEADING, _NUMBERED, _TRANSITION = 1, 2, 3  # line starts decided from a prefix


class _StructureScanner(Scanner):
    """Line-by-line state machine (see :class:`StructureChunker`).

    Keeps the current line only.  A line is joined once, when its ``\\n``
    arrives; until then at most its first ``limit`` characters are probed for
    a heading, numbered title or transition, so a section break is reported
    as soon as the start of its first line decides it.  Every pattern is
    anchored at a line start and linear in what it is given, so ``feed`` is
    amortised O(len(delta)).
    """

    def __init__(self, cfg: StructureChunker) -> None:
        self._headings = cfg.respect_headings
        self._numbered = cfg.respect_numbered_sections
        self._blank_runs = cfg.double_newline_as_boundary
        self._trans = cfg._transition_re
        self._limit = cfg._limit
        self._plain_re = cfg._plain_re
        self._total = 0
        self._ls = 0  # absolute start of the current line
        self._parts: list[str] = []  # the current line so far
        self._decided = False  # the current line's prefix class is settled
        self._kind = 0  # ... and is this (0: none)
        self._fence: Fence | None = None  # the open fence
        self._start: int | None = None  # start of the current section's chunk
        self._end = 0  # end of its last non-space character
        self._body = False  # it holds more than headings
        self._prev = _BLANK
        self._blanks = 0
        self._para = 0  # start of the paragraph the previous line belongs to
        self._para_end = 0  # section content end before that paragraph
        self._para_body = False  # section body before that paragraph
        self._cuts: list[Cut] = []
        self._settled = False  # the last cut's separator is over

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        base = self._total
        self._total += len(delta)
        i = 0
        while True:
            j = delta.find("\n", i)
            if j < 0:
                if i < len(delta):
                    self._parts.append(delta[i:] if i else delta)
                    if not self._decided and self._fence is None:
                        if len(self._parts) > 1:
                            self._parts = ["".join(self._parts)]
                        self._probe(self._parts[0], False)
                break
            if self._parts:
                if j > i:
                    self._parts.append(delta[i:j])
                line = "".join(self._parts)
                self._parts = []
            else:
                line = delta[i:j]
            self._complete(line)
            self._ls = base + j + 1
            self._decided = False
            self._kind = 0
            i = j + 1
        if not self._cuts:
            return _NO_CUTS
        cuts, self._cuts = self._cuts, []
        return cuts

    # -- classification -------------------------------------------------

    def _probe(self, text: str, final: bool) -> None:
        """Settle the class of the line starting with ``text`` if its start decides it."""
        if (PLAIN if self._plain_re is None else self._plain_re).match(text, 0, 1):
            self._decided = True  # no heading, title or transition starts so
            return
        limit = self._limit
        if len(text) >= limit:
            probe, final = text[:limit], True
        elif final:
            probe = text + "\n"
        else:
            probe = text
        kind = 0
        if ATX.match(probe):
            kind = _HEADING
        elif self._prev != _PARA:
            if self._numbered and NUMBERED.match(probe):
                kind = _NUMBERED
            elif self._trans is not None and self._trans.match(probe):
                kind = _TRANSITION
        if kind or final:
            self._decided = True
            self._kind = kind
            if kind == _NUMBERED or kind == _TRANSITION or (kind == _HEADING and self._headings):
                self._section_break(self._ls)

    def _complete(self, line: str) -> None:
        ls = self._ls
        body = line.rstrip()
        if self._fence is not None:
            m = FENCE.fullmatch(body)
            if m and closes_fence(self._fence, m):
                self._fence = None
            if body:
                self._content(ls, len(body), True)
            self._prev = _OTHER
            return
        if not body:
            self._blanks += 1
            self._prev = _BLANK
            if self._blank_runs and self._blanks == 2:
                self._close(ls + len(line) + 1)
            return
        if (PLAIN if self._plain_re is None else self._plain_re).match(line, 0, 1):
            # The common case: a paragraph line no pattern can match.
            if self._prev != _PARA:
                self._para = ls
                self._para_end = self._end
                self._para_body = self._body and self._start is not None
            if self._start is None:
                self._start = ls
                self._settled = True
            self._end = ls + len(body)
            self._body = True
            self._prev = _PARA
            self._blanks = 0
            return
        if not self._decided:
            self._probe(line, True)
        self._blanks = 0
        kind = self._kind
        if kind == _HEADING or kind == _NUMBERED:
            self._content(ls, len(body), kind == _HEADING and not self._headings)
            self._prev = _OTHER
            return
        if not kind:
            m = FENCE.fullmatch(body)
            if m and (opened := opened_fence(m)) is not None:
                self._fence = opened
                self._content(ls, len(body), True)
                self._prev = _OTHER
                return
            if self._prev == _PARA and SETEXT.fullmatch(body):
                if self._headings:
                    self._setext()
                self._content(ls, len(body), not self._headings)
                self._prev = _OTHER
                return
            if BREAK.fullmatch(body):
                if self._headings:
                    self._close(ls + len(line) + 1)
                else:
                    self._content(ls, len(body), True)
                self._prev = _OTHER
                return
        # A paragraph line (a transition opens one).
        if self._prev != _PARA:
            self._para = ls
            self._para_end = self._end
            self._para_body = self._body and self._start is not None
        self._content(ls, len(body), True)
        self._prev = _PARA

    # -- sections -------------------------------------------------------

    def _content(self, ls: int, length: int, body: bool) -> None:
        if self._start is None:
            self._start = ls
            self._body = False
            self._settled = True
        self._end = ls + length
        self._body = self._body or body

    def _close(self, stop: int) -> None:
        """End the current section; its separator runs to ``stop``."""
        if self._start is not None:
            self._cuts.append(Cut(self._start, self._end, stop))
            self._start = None
            self._body = False
            self._settled = False

    def _section_break(self, at: int) -> None:
        """A new section starts at ``at``, unless the current one is only headings."""
        if self._start is not None and self._body:
            self._close(at)
            self._settled = True  # the new section's first line has begun

    def _setext(self) -> None:
        """The paragraph before the underline is a heading: a section starts there."""
        start = self._start
        if start is not None and start < self._para and self._para_body:
            self._cuts.append(Cut(start, self._para_end, self._para))
            self._start = self._para
            self._settled = True
        self._body = False

    def settled(self) -> bool:
        # A cut's separator is over once the next section has begun; the text
        # from there chunks the same on its own (the state a section opens in
        # does not depend on what came before).
        return self._settled

    def finish(self) -> tuple[int, int] | None:
        line = "".join(self._parts)
        body = line.rstrip()
        if body:
            is_break = (
                self._fence is None
                and not self._kind
                and self._headings
                and BREAK.fullmatch(body) is not None
                and not (self._prev == _PARA and SETEXT.fullmatch(body))
            )
            if not is_break:
                self._content(self._ls, len(body), True)
        if self._start is None:
            return None
        return (self._start, self._end)


class StructureChunker(ChunkingStrategy):
    r"""One chunk per section of a Markdown or numbered document.

    A line-based state machine (the parameters are those of
    boundary-smart-splitter's V4 ``StructureSplitter``).  A new section starts
    at:

    * ``respect_headings`` (default ``True``): a Markdown ATX heading
      (``# Title``, up to six ``#``, at most three spaces of indentation) or
      Setext heading (a paragraph underlined with three or more ``=`` or
      ``-``; the section starts at the paragraph's first line).  A thematic
      break (a line of three or more ``-``, ``*`` or ``_``, spaces allowed)
      ends a section: it is separator, part of no chunk.
    * ``respect_numbered_sections`` (default ``True``): a numbered title at
      the start of a paragraph (after a blank line, a heading or the start of
      the text): ``1. Title``, ``2) Title``, ``2.3 Title``, ``4.1.2. Title``
      (at most three digits per level, so ``2024. was`` is not one).
    * ``split_on_transitions`` (default ``False``): a paragraph that opens
      with a transition phrase (case-insensitive; ``DEFAULT_TRANSITIONS``:
      ``"However,"``, ``"In summary,"`` ...).  Off by default, unlike the
      seed: such paragraphs usually continue the argument of their section,
      and splitting them off loses that context.  ``transition_phrases``
      *extends* the built-in list (it never replaces it) and requires
      ``split_on_transitions=True``.  A phrase ending in a letter or digit
      must be followed by a non-word character.
    * ``double_newline_as_boundary`` (default ``True``, as in the seed): a run
      of two or more blank lines (three ``\n`` in a row) ends a section.

    A section never consists of headings alone: a heading, numbered title or
    transition directly after a section that holds only headings does not
    start a new one (``# Part\n## Chapter\ntext`` is one chunk).  Fenced code
    blocks (three or more backticks or tildes, closed by a fence of the same
    character at least as long) are kept whole: no boundary inside a fence,
    even on a line that looks like a heading; an unclosed fence runs to the
    end of the text.

    A chunk is its section's lines from the first non-blank one (indentation
    kept) to the last non-space character; the blank lines and breaks after
    it travel as its separator.  A section is complete when the next one
    starts: on a blank-line run or break as soon as the line is complete, on
    a heading, numbered title or transition as soon as the start of its line
    decides it.  The last line, if unterminated, counts only through what its
    start decides: it can open a section that way, but a trailing ``===`` or
    ``---`` that no ``\n`` follows does not make a Setext heading.  ``flush``
    returns the last section, stripped of trailing whitespace and of a final
    thematic break, or ``[]`` when none is left.

    Streaming keeps only the current line, costs amortised O(len(delta)) per
    ``feed`` and never looks at a line again once its ``\n`` has arrived.
    """

    alias = "structure"

    def __init__(
        self,
        *,
        respect_headings: bool = True,
        respect_numbered_sections: bool = True,
        split_on_transitions: bool = False,
        transition_phrases: Iterable[str] | None = None,
        double_newline_as_boundary: bool = True,
    ) -> None:
        flags = {
            "respect_headings": respect_headings,
            "respect_numbered_sections": respect_numbered_sections,
            "split_on_transitions": split_on_transitions,
            "double_newline_as_boundary": double_newline_as_boundary,
        }
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be a bool, got {type(value).__name__}: {value!r:.80}")
        self.respect_headings = respect_headings
        self.respect_numbered_sections = respect_numbered_sections
        self.split_on_transitions = split_on_transitions
        self.double_newline_as_boundary = double_newline_as_boundary
        self.transition_phrases = _check_phrases(transition_phrases)
        if self.transition_phrases and not split_on_transitions:
            raise ValueError(
                f"transition_phrases={list(self.transition_phrases)!r:.80} has no effect "
                "unless split_on_transitions=True"
            )
        phrases = (*DEFAULT_TRANSITIONS, *self.transition_phrases)
        self._transition_re: re.Pattern[str] | None = None
        self._limit = max(_ATX_SPAN, _NUMBERED_SPAN)
        self._plain_re: re.Pattern[str] | None = None  # None: PLAIN
        if split_on_transitions:
            alternatives = [
                re.escape(p) + (r"(?=\W)" if p[-1].isalnum() or p[-1] == "_" else "")
                for p in sorted(set(phrases), key=len, reverse=True)
            ]
            self._transition_re = re.compile(
                r" {0,3}(?:" + "|".join(alternatives) + ")", re.IGNORECASE
            )
            self._limit = max(self._limit, 3 + max(map(len, phrases)) + 1)
            firsts = "".join(p[0] for p in phrases)
            firsts += firsts.lower() + firsts.upper() + firsts.casefold()
            # Case-insensitive matching can pair a non-ASCII letter with a
            # phrase: only ASCII letters are ruled out by their look.
            self._plain_re = re.compile(
                "[^\\s" + _SPECIAL + re.escape("".join(sorted(set(firsts)))) + "\\x80-\\U0010ffff]"
            )

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {}
        if not self.respect_headings:
            params["respect_headings"] = False
        if not self.respect_numbered_sections:
            params["respect_numbered_sections"] = False
        if self.split_on_transitions:
            params["split_on_transitions"] = True
        if self.transition_phrases:
            params["transition_phrases"] = list(self.transition_phrases)
        if not self.double_newline_as_boundary:
            params["double_newline_as_boundary"] = False
        return params

    def scanner(self) -> Scanner:
        return _StructureScanner(self)


def _check_phrases(phrases: Iterable[str] | None) -> tuple[str, ...]:
    """The transition phrases, stripped; ``TypeError``/``ValueError`` naming the
    parameter for a value that is no iterable of non-empty strings (a mapping
    included: its values would be dropped), and for a
    phrase holding a line break (a phrase is matched at the start of one line,
    so it could never match)."""
    if phrases is None:
        return ()
    refuse_mapping("transition_phrases", phrases, "an iterable of str")
    if isinstance(phrases, (str, bytes)) or not isinstance(phrases, Iterable):
        raise TypeError(
            "transition_phrases must be an iterable of str, got "
            f"{type(phrases).__name__}: {phrases!r:.80}"
        )
    out = []
    for i, phrase in enumerate(phrases):
        if not isinstance(phrase, str):
            raise TypeError(
                f"transition_phrases[{i}] must be a str, got {type(phrase).__name__}: "
                f"{phrase!r:.80}"
            )
        if not phrase.strip():
            raise ValueError(
                f"transition_phrases[{i}] must be a non-empty string, got {phrase!r:.80}"
            )
        if "\n" in phrase.strip():
            raise ValueError(
                f"transition_phrases[{i}]={phrase!r:.80} holds a line break; a transition "
                "phrase opens a line and is matched within it"
            )
        out.append(phrase.strip())
    return tuple(out)
