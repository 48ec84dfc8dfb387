"""Any chunkwise chunker as a LangChain ``TextSplitter``.

Needs the optional extra: ``pip install 'guardrails-ai-chunkwise[langchain]'``
(``langchain-text-splitters``).  LangChain is imported when
:func:`as_langchain_splitter` is first called, never at import time.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from guardrails_ai.chunkwise.chunkers import ChunkerSpec, resolve_chunker, split_spans

if TYPE_CHECKING:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter

__all__ = ["as_langchain_splitter"]

_EXTRA_HINT = (
    "as_langchain_splitter needs langchain-text-splitters; install it with "
    "pip install 'guardrails-ai-chunkwise[langchain]'"
)


def as_langchain_splitter(
    chunker: ChunkerSpec, *, add_start_index: bool = False, strip_whitespace: bool = True
) -> TextSplitter:
    """A ``langchain_text_splitters.TextSplitter`` that splits with ``chunker``.

    ``chunker`` is an alias, a strategy (for instance
    ``limit("paragraph", max_chars=1000, chunk_size=3, overlap=1)``) or any
    ``split``/``flush`` object.  ``split_text`` returns the chunker's whole-document
    chunks (``split_text``, overlapping when the chunker has ``overlap``);
    ``create_documents``/``split_documents`` copy each text's metadata into its
    chunks and, with ``add_start_index``, record each chunk's exact offset
    (from the chunk spans, not by searching the text).  With
    ``strip_whitespace`` (LangChain's default), chunks are stripped and
    whitespace-only chunks are dropped; offsets follow the stripped chunk.
    Raises ``ImportError`` naming the extra when LangChain is not installed.
    """
    strategy = resolve_chunker(chunker)
    flags = {"add_start_index": add_start_index, "strip_whitespace": strip_whitespace}
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool, got {type(value).__name__}: {value!r:.80}")
    splitter_class = _splitter_class()
    return splitter_class(
        strategy, add_start_index=add_start_index, strip_whitespace=strip_whitespace
    )


@cache
def _splitter_class() -> Callable[..., TextSplitter]:
    try:
        from langchain_core.documents import Document
        from langchain_text_splitters import TextSplitter
    except ImportError as error:
        raise ImportError(_EXTRA_HINT, name=error.name) from error

    class ChunkwiseTextSplitter(TextSplitter):
        """LangChain ``TextSplitter`` over a chunkwise chunker (see ``as_langchain_splitter``)."""

        def __init__(
            self, chunker: Any, *, add_start_index: bool, strip_whitespace: bool
        ) -> None:
            # LangChain's own size fields are informative only: the chunker decides.
            size = getattr(chunker, "max_chars", None) or sys.maxsize
            super().__init__(
                chunk_size=size,
                chunk_overlap=0,
                add_start_index=add_start_index,
                strip_whitespace=strip_whitespace,
            )
            self.chunker = chunker

        def spans(self, text: str) -> list[tuple[int, int]]:
            """``(start, end)`` of every chunk :meth:`split_text` returns."""
            spans = split_spans(self.chunker, text)
            if not self._strip_whitespace:
                return spans
            kept = []
            for a, b in spans:
                part = text[a:b]
                stripped = part.strip()
                if stripped:
                    a += len(part) - len(part.lstrip())
                    kept.append((a, a + len(stripped)))
            return kept

        def split_text(self, text: str) -> list[str]:
            return [text[a:b] for a, b in self.spans(text)]

        def create_documents(
            self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
        ) -> list[Document]:
            if metadatas is not None and len(metadatas) != len(texts):
                raise ValueError(
                    f"metadatas must have one dict per text: {len(texts)} texts, "
                    f"{len(metadatas)} metadatas"
                )
            documents = []
            for i, text in enumerate(texts):
                for a, b in self.spans(text):
                    metadata = copy.deepcopy(metadatas[i]) if metadatas else {}
                    if self._add_start_index:
                        metadata["start_index"] = a
                    documents.append(Document(page_content=text[a:b], metadata=metadata))
            return documents

        def split_documents(self, documents: Iterable[Document]) -> list[Document]:
            docs = list(documents)
            return self.create_documents(
                [d.page_content for d in docs], [d.metadata for d in docs]
            )

        def __repr__(self) -> str:
            return f"as_langchain_splitter({self.chunker!r})"

    return ChunkwiseTextSplitter
