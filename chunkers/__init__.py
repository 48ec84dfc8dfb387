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
from .registry import (
    ChunkerSpec,
    aliases,
    kinds,
    register_alias,
    register_kind,
    resolve_chunker,
)
from .sentence import SentenceChunker
from .sizing import Measure, measure_for
from .specs import SpecError, regex_from_spec, sized_from_spec, spec_of
from .stream import ChunkStream, Piece, RescanScanner
from .structure import StructureChunker
from .word import WordChunker

register_alias("sentence", SentenceChunker)
register_alias("sentence-simple", partial(SentenceChunker, mode="simple"))
register_alias("word", WordChunker)
register_alias("paragraph", ParagraphChunker)
register_alias("line", LineChunker)
register_alias("fixed", partial(FixedSizeChunker, size=200, tolerance=20))
register_alias("structure", StructureChunker)
register_kind("bounded", Bounded)
register_kind("grouped", Grouped)
register_kind("regex", regex_from_spec)

register_kind("sized", sized_from_spec)

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
    "SpecError",
    "SplitFlush",
    "StructureChunker",
    "WordChunker",
    "aliases",
    "kinds",
    "limit",
    "measure_for",
    "register_alias",
    "register_kind",
    "resolve_chunker",
    "spec_of",
    "split_spans",
]
