"""Word chunking."""

from __future__ import annotations

import re

from .base import ChunkingStrategy, Scanner
from .scanning import RegexScanner

__all__ = ["WordChunker"]


class _WhitespaceScanner(RegexScanner):
    boundary = re.compile(r"\s")
    boundary_span = 1
    boundary_lookahead = 1
    separator = re.compile(r"\s*")


class WordChunker(ChunkingStrategy):
    """Split on whitespace (mellea's ``WordChunker`` semantics).

    Each run of non-whitespace characters is a chunk, complete once whitespace
    follows it.  ``flush`` returns the last word when the text does not end in
    whitespace, and ``[]`` when it does (every word is then already complete).
    """

    alias = "word"

    def scanner(self) -> Scanner:
        return _WhitespaceScanner()
