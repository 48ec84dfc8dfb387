"""Stateless chunking strategies and the streaming driver.

Pure standard library: nothing here imports Guardrails.
"""

from functools import partial

from .base import ChunkingStrategy, Cut, Layout, Scanner, SplitFlush
from .fill import Sized
from .fixed import FixedSizeChunker
from .limits import Bounded, Grouped, limit, split_spans
from .line import LineChunker
from .paragraph import ParagraphChunker
from .pattern import RegexChunker
from .registry import ChunkerSpec, aliases, register_alias, resolve_chunker
from .sentence import SentenceChunker
from .sizing import Measure, measure_for
from .stream import ChunkStream, Piece, RescanScanner
from .structure import StructureChunker
from .word import WordChunker

register_alias("sentence", SentenceChunker)
register_alias("sentence-simple", partial(SentenceChunker, mode="simple"))
register_alias("word", WordChunker)
register_alias("paragraph", ParagraphChunker)
register_alias("line", LineChunker)
register_alias("fixed", partial(FixedSizeChunker, 200, 20))
register_alias("structure", StructureChunker)

__all__ = [
    "Bounded",
    "ChunkStream",
    "ChunkerSpec",
    "ChunkingStrategy",
    "Cut",
    "FixedSizeChunker",
    "Grouped",
    "Layout",
    "LineChunker",
    "Measure",
    "ParagraphChunker",
    "Piece",
    "RegexChunker",
    "RescanScanner",
    "Scanner",
    "SentenceChunker",
    "Sized",
    "SplitFlush",
    "StructureChunker",
    "WordChunker",
    "aliases",
    "limit",
    "measure_for",
    "register_alias",
    "resolve_chunker",
    "split_spans",
]
