"""Adapters between chunkwise strategies and Guardrails' contracts.

The only layer that imports Guardrails: ``chunking_function`` and
``GuardrailsChunker`` translate between ``split``/``flush`` and
``_chunking_function``; ``with_chunker`` gives any validator a chunker and
exact streaming (``streams.StreamRuns``, shared with ``ChunkedValidator``);
``ChunkedValidator`` is the base of validators that stream without gaps;
``guarded_stream`` streams through any Guard with every byte validated once
before it is released; ``enable_validated_streaming`` gives every Guard's
streams (and at-once validation) the same pipeline.
"""

from .chunked import ChunkedValidator, merge_results
from .contract import ChunkingFunction, GuardrailsChunker, chunking_function
from .guarded import async_guarded_stream, guarded_stream
from .langchain import as_langchain_splitter  # imports LangChain only when called
from .override import with_chunker
from .validated_streaming import (
    disable_validated_streaming,
    enable_validated_streaming,
    validated_streaming_enabled,
)

__all__ = [
    "ChunkedValidator",
    "ChunkingFunction",
    "GuardrailsChunker",
    "as_langchain_splitter",
    "async_guarded_stream",
    "chunking_function",
    "disable_validated_streaming",
    "enable_validated_streaming",
    "guarded_stream",
    "merge_results",
    "validated_streaming_enabled",
    "with_chunker",
]
