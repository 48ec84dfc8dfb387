"""Sentence chunking."""

from __future__ import annotations

import re

from .base import ChunkingStrategy, Scanner
from .scanning import RegexScanner

__all__ = ["SentenceChunker"]

#: Characters that may close a sentence after its terminator.
CLOSERS = "\"'\u201d\u2019)"


class _PunctuationScanner(RegexScanner):
    # A terminator, at most one closing quote or parenthesis, then whitespace.
    boundary = re.compile(f"[.!?][{re.escape(CLOSERS)}]?\\s")
    boundary_span = 3
    boundary_lookahead = 1
    separator = re.compile(r"\s*")


class SentenceChunker(ChunkingStrategy):
    """Split on sentence boundaries.

    ``mode="simple"`` follows mellea's documented ``SentenceChunker`` rule.
    A sentence ends at ``.``, ``!`` or ``?``, optionally followed by one closing
    quote (straight or curly) or ``)``, once whitespace follows.  The whitespace
    between sentences is not part of any chunk (it travels with the segment of
    the sentence before it), and a chunk never begins with whitespace.  A
    fragment not yet followed by whitespace is withheld; ``flush`` returns it
    with surrounding whitespace stripped, or ``[]`` when only whitespace is left.
    Abbreviations such as ``Dr.`` end a sentence in this mode.
    """

    alias = "sentence"
    modes = ("simple",)

    def __init__(self, *, mode: str = "simple") -> None:
        if mode not in self.modes:
            raise ValueError(
                f"mode={mode!r} is not a sentence mode; choose one of "
                f"{', '.join(map(repr, self.modes))}"
            )
        self.mode = mode

    def _params(self) -> dict[str, object]:
        return {"mode": self.mode}

    def scanner(self) -> Scanner:
        return _PunctuationScanner()
