"""Any chunkwise chunker as a LangChain ``TextSplitter``.

Needs the optional extra: ``pip install 'guardrails-ai-chunkwise[langchain]'``
(``langchain-text-splitters``).  LangChain is imported when a splitter is first
built, never at import time.

Constructors mirror LangChain's: :func:`from_tiktoken_encoder` (a named OpenAI
encoding or model, counted offline with the ``tokens`` extra) and
:func:`from_huggingface_tokenizer` (a ``tokenizers.Tokenizer`` or transformers
tokenizer) take ``chunk_size``/``chunk_overlap`` in tokens and fill chunks up
to ``chunk_size`` with whole sections, paragraphs, lines, sentences or words
(``limit(chunker, max_tokens=chunk_size, fill=True, overlap=chunk_overlap)``).
With a structure chunker, each Document's metadata gets ``headings``: the
titles of the Markdown sections the chunk lies in, outermost first (what
``MarkdownHeaderTextSplitter`` records as ``Header 1``, ``Header 2``, ...).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from guardrails_ai.chunkwise.chunkers import (
    Bounded,
    ChunkerSpec,
    Grouped,
    Sized,
    StructureChunker,
    limit,
    resolve_chunker,
    split_spans,
)
from guardrails_ai.chunkwise.chunkers.headings import heading_paths

if TYPE_CHECKING:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter

__all__ = ["as_langchain_splitter", "from_huggingface_tokenizer", "from_tiktoken_encoder"]

_EXTRA_HINT = (
    "chunkwise's LangChain splitters need langchain-text-splitters; install it with "
    "pip install 'guardrails-ai-chunkwise[langchain]'"
)


def as_langchain_splitter(
    chunker: ChunkerSpec,
    *,
    add_start_index: bool = False,
    strip_whitespace: bool = True,
    headings: bool | None = None,
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
    ``headings`` (default: when the chunker is a structure chunker, limited or
    not) adds each chunk's section titles as ``metadata["headings"]``.
    Raises ``ImportError`` naming the extra when LangChain is not installed.
    """
    strategy = resolve_chunker(chunker)
    if headings is None:
        headings = isinstance(_top(strategy), StructureChunker)
    flags = {
        "add_start_index": add_start_index,
        "strip_whitespace": strip_whitespace,
        "headings": headings,
    }
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool, got {type(value).__name__}: {value!r:.80}")
    splitter_class = _splitter_class()
    return splitter_class(
        strategy,
        add_start_index=add_start_index,
        strip_whitespace=strip_whitespace,
        headings=headings,
    )


def from_tiktoken_encoder(
    encoding_name: str = "cl100k_base",
    model_name: str | None = None,
    *,
    chunk_size: int = 4000,
    chunk_overlap: int = 200,
    chunker: ChunkerSpec = "structure",
    **kwargs: Any,
) -> TextSplitter:
    """A splitter sized in tokens of an OpenAI encoding, as LangChain's
    ``TextSplitter.from_tiktoken_encoder`` (``model_name`` wins over
    ``encoding_name``; the default encoding is ``cl100k_base``, not ``gpt2``).

    Counted offline by bpe-openai (the ``tokens`` extra): tiktoken itself
    downloads its encodings on first use.  Chunks are filled up to
    ``chunk_size`` tokens; ``chunk_overlap`` tokens of the previous chunk open
    the next when they fit.  ``kwargs`` go to :func:`as_langchain_splitter`.
    """
    given = (
        ("model_name", model_name) if model_name is not None else ("encoding_name", encoding_name)
    )
    return _token_splitter(chunker, chunk_size, chunk_overlap, given[1], kwargs, given[0])


def from_huggingface_tokenizer(
    tokenizer: Any,
    *,
    chunk_size: int = 4000,
    chunk_overlap: int = 200,
    chunker: ChunkerSpec = "structure",
    **kwargs: Any,
) -> TextSplitter:
    """A splitter sized in tokens of ``tokenizer`` (a ``tokenizers.Tokenizer`` or
    a transformers tokenizer; special tokens not counted), as LangChain's
    ``TextSplitter.from_huggingface_tokenizer``.  As :func:`from_tiktoken_encoder`."""
    if tokenizer is None:  # (limit() would count cl100k_base tokens instead)
        raise TypeError(
            "tokenizer must be a tokenizers.Tokenizer, a transformers tokenizer or a "
            "tokenizer name, got None"
        )
    return _token_splitter(chunker, chunk_size, chunk_overlap, tokenizer, kwargs)


def _token_splitter(
    chunker: ChunkerSpec,
    size: int,
    overlap: int,
    tokenizer: Any,
    kwargs: dict[str, Any],
    tokenizer_name: str = "tokenizer",
) -> TextSplitter:
    """The filled, token-sized splitter; an error about a size or the tokenizer
    (the ``tokens`` extra a named encoding needs included) names the parameter
    as the caller gave it (``chunk_size``, ``chunk_overlap``,
    ``tokenizer_name``); one about ``chunker`` itself (its spec's own sizes)
    is raised as it is."""
    strategy = resolve_chunker(chunker)
    try:
        strategy = limit(strategy, max_tokens=size, tokenizer=tokenizer, fill=True, overlap=overlap)
    except (TypeError, ValueError, ImportError) as error:
        message = str(error)
        if message.startswith("tokenizer"):
            message = tokenizer_name + message.removeprefix("tokenizer")
        message = message.replace("max_tokens", "chunk_size")
        message = message.replace("overlap", "chunk_overlap")
        if isinstance(error, ImportError):
            raise ImportError(message, name=error.name) from None
        raise type(error)(message) from None
    return as_langchain_splitter(strategy, **kwargs)


def _top(strategy: object) -> object:
    """The chunker under any size limits."""
    while isinstance(strategy, (Sized, Bounded, Grouped)):
        strategy = strategy.inner
    return strategy


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
            self,
            chunker: Any,
            *,
            add_start_index: bool,
            strip_whitespace: bool,
            headings: bool = False,
        ) -> None:
            # LangChain's own size fields are informative only: the chunker decides.
            size = getattr(chunker, "max_chars", None) or getattr(chunker, "limit", None)
            overlap = getattr(chunker, "overlap", 0) if isinstance(chunker, Sized) else 0
            super().__init__(
                chunk_size=size or sys.maxsize,
                chunk_overlap=overlap,
                add_start_index=add_start_index,
                strip_whitespace=strip_whitespace,
            )
            self.chunker = chunker
            self.headings = headings
            top = _top(chunker)
            # Whether a numbered title is a section (never a Setext heading's title).
            self._numbered = isinstance(top, StructureChunker) and top.respect_numbered_sections

        @classmethod
        def from_tiktoken_encoder(cls, *args: Any, **kwargs: Any) -> Any:
            """As the module's :func:`from_tiktoken_encoder`."""
            return from_tiktoken_encoder(*args, **kwargs)

        @classmethod
        def from_huggingface_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> Any:
            """As the module's :func:`from_huggingface_tokenizer`."""
            return from_huggingface_tokenizer(tokenizer, **kwargs)

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
            # (An empty list is no metadata, as LangChain's own splitters read it.)
            if metadatas and len(metadatas) != len(texts):
                raise ValueError(
                    f"metadatas must have one dict per text: {len(texts)} texts, "
                    f"{len(metadatas)} metadatas"
                )
            documents = []
            for i, text in enumerate(texts):
                spans = self.spans(text)
                paths = (
                    heading_paths(text, [a for a, _ in spans], numbered=self._numbered)
                    if self.headings
                    else None
                )
                for k, (a, b) in enumerate(spans):
                    metadata = copy.deepcopy(metadatas[i]) if metadatas else {}
                    if self._add_start_index:
                        metadata["start_index"] = a
                    if paths is not None:
                        metadata["headings"] = paths[k]
                    documents.append(Document(page_content=text[a:b], metadata=metadata))
            return documents

        def split_documents(self, documents: Iterable[Document]) -> list[Document]:
            docs = list(documents)
            return self.create_documents([d.page_content for d in docs], [d.metadata for d in docs])

        def __repr__(self) -> str:
            return f"as_langchain_splitter({self.chunker!r})"

        def __reduce__(self) -> tuple[Callable[..., TextSplitter], tuple[object, ...]]:
            # (The class is made on first use, so pickle cannot name it.)
            flags = (self._add_start_index, self._strip_whitespace, self.headings)
            return _splitter_again, (self.chunker, *flags)

    return ChunkwiseTextSplitter


def _splitter_again(
    chunker: object, add_start_index: bool, strip_whitespace: bool, headings: bool
) -> TextSplitter:
    """An unpickled splitter (see ``ChunkwiseTextSplitter.__reduce__``)."""
    return _splitter_class()(
        chunker,
        add_start_index=add_start_index,
        strip_whitespace=strip_whitespace,
        headings=headings,
    )
