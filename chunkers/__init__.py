"""Stateless chunking strategies and the streaming driver.

Pure standard library: nothing here imports Guardrails.
"""

from functools import partial

from .base import ChunkingStrategy, Cut, Layout, Scanner, SplitFlush
from .limits import Bounded, Grouped, limit, split_spans
from .paragraph import ParagraphChunker
from .registry import ChunkerSpec, aliases, register_alias, resolve_chunker
from .sentence import SentenceChunker
from .stream import ChunkStream, Piece, RescanScanner
from .word import WordChunker

register_alias("sentence", SentenceChunker)
register_alias("sentence-simple", partial(SentenceChunker, mode="simple"))
register_alias("word", WordChunker)
register_alias("paragraph", ParagraphChunker)

__all__ = [
    "Bounded",
    "ChunkStream",
    "ChunkerSpec",
    "ChunkingStrategy",
    "Cut",
    "Grouped",
    "Layout",
    "ParagraphChunker",
    "Piece",
    "RescanScanner",
    "Scanner",
    "SentenceChunker",
    "SplitFlush",
    "WordChunker",
    "aliases",
    "limit",
    "register_alias",
    "resolve_chunker",
    "split_spans",
]
