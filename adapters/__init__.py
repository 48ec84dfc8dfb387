"""Adapters between chunkwise strategies and Guardrails' contracts.

The only layer that imports Guardrails: ``chunking_function`` and
``GuardrailsChunker`` translate between ``split``/``flush`` and
``_chunking_function``; ``with_chunker`` gives any validator a chunker and
exact streaming (``streams.StreamRuns``, shared with ``ChunkedValidator``);
``ChunkedValidator`` is the base of validators that stream without gaps;
``guarded_stream`` streams through any Guard with every byte validated once
before it is released.
"""

from .chunked import ChunkedValidator, merge_results
from .contract import ChunkingFunction, GuardrailsChunker, chunking_function
from .guarded import async_guarded_stream, guarded_stream
from .langchain import as_langchain_splitter  # imports LangChain only when called
from .override import with_chunker

__all__ = [
    "ChunkedValidator",
    "ChunkingFunction",
    "GuardrailsChunker",
    "as_langchain_splitter",
    "async_guarded_stream",
    "chunking_function",
    "guarded_stream",
    "merge_results",
    "with_chunker",
]
