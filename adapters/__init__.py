"""Adapters between chunkwise strategies and Guardrails' contracts.

The only layer that imports Guardrails: ``chunking_function`` and
``GuardrailsChunker`` translate between ``split``/``flush`` and
``_chunking_function``; ``with_chunker`` overrides any validator's chunking;
``ChunkedValidator`` is the base of validators that stream without gaps.
"""

from .chunked import ChunkedValidator, merge_results
from .contract import ChunkingFunction, GuardrailsChunker, chunking_function

__all__ = [
    "ChunkedValidator",
    "ChunkingFunction",
    "GuardrailsChunker",
    "chunking_function",
    "merge_results",
]
