"""as_langchain_splitter: any chunker as a LangChain TextSplitter (optional extra)."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.adapters import as_langchain_splitter
from guardrails_ai.chunkwise.adapters import langchain as adapter_module
from guardrails_ai.chunkwise.chunkers import SentenceChunker, limit

text_splitters = pytest.importorskip("langchain_text_splitters")
from langchain_core.documents import Document  # noqa: E402

TEXT = "First paragraph. It has two sentences.\n\nSecond one.\n\n  \n\nThird, last: no end"


def test_is_a_langchain_text_splitter() -> None:
    splitter = as_langchain_splitter("paragraph")
    assert isinstance(splitter, text_splitters.TextSplitter)
    assert splitter.split_text(TEXT) == [
        "First paragraph. It has two sentences.",
        "Second one.",
        "Third, last: no end",  # the whitespace-only paragraph is dropped
    ]


def test_create_documents_copies_metadata_and_exact_start_index() -> None:
    splitter = as_langchain_splitter(
        limit("sentence", chunk_size=2, overlap=1, max_chars=60), add_start_index=True
    )
    texts = ["Aa bb. Cc dd. Ee ff. Cc dd.", "One. Two."]
    docs = splitter.create_documents(texts, [{"source": "a"}, {"source": "b"}])
    assert [(d.page_content, d.metadata) for d in docs] == [
        ("Aa bb. Cc dd.", {"source": "a", "start_index": 0}),
        ("Cc dd. Ee ff.", {"source": "a", "start_index": 7}),
        # Searching the text (LangChain's default) would find the first "Cc dd." here.
        ("Ee ff. Cc dd.", {"source": "a", "start_index": 14}),
        ("One. Two.", {"source": "b", "start_index": 0}),
    ]
    for d in docs:
        text = texts[0] if d.metadata["source"] == "a" else texts[1]
        start = d.metadata["start_index"]
        assert text[start : start + len(d.page_content)] == d.page_content


def test_split_documents_keeps_each_documents_metadata() -> None:
    splitter = as_langchain_splitter("sentence")
    docs = [
        Document(page_content="Red fox. Blue sky.", metadata={"n": 1}),
        Document(page_content=""),
    ]
    out = splitter.split_documents(docs)
    assert [(d.page_content, d.metadata) for d in out] == [
        ("Red fox.", {"n": 1}),
        ("Blue sky.", {"n": 1}),
    ]
    out[0].metadata["n"] = 2
    assert docs[0].metadata == {"n": 1}  # copied, not shared


def test_strip_whitespace_false_keeps_chunks_as_the_chunker_gives_them() -> None:
    splitter = as_langchain_splitter("paragraph", strip_whitespace=False)
    assert splitter.split_text(" a\n\n  \n\nb ") == [" a", "  ", "b "]


@given(st.text(alphabet="ab .!\n", max_size=60), st.integers(1, 20))
def test_chunks_match_the_chunker_and_respect_the_ceiling(text: str, max_chars: int) -> None:
    chunker = limit("sentence", max_chars=max_chars)
    splitter = as_langchain_splitter(chunker, add_start_index=True)
    expected = [c.strip() for c in chunker.split_text(text) if c.strip()]
    assert splitter.split_text(text) == expected
    for doc in splitter.create_documents([text]):
        start = doc.metadata["start_index"]
        assert len(doc.page_content) <= max_chars
        assert text[start : start + len(doc.page_content)] == doc.page_content


def test_accepts_any_split_flush_object() -> None:
    class Foreign:
        def split(self, accumulated_text: str) -> list[str]:
            return SentenceChunker(mode="simple").split(accumulated_text)

        def flush(self, accumulated_text: str) -> list[str]:
            return SentenceChunker(mode="simple").flush(accumulated_text)

    assert as_langchain_splitter(Foreign()).split_text("X y. Z") == ["X y.", "Z"]  # type: ignore[arg-type]


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="chunker='nope'"):
        as_langchain_splitter("nope")
    with pytest.raises(TypeError, match="add_start_index must be a bool, got int"):
        as_langchain_splitter("word", add_start_index=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="metadatas must have one dict per text"):
        as_langchain_splitter("word").create_documents(["a", "b"], [{}])
    # An empty list is no metadata, as in LangChain's own splitters (it raised).
    documents = as_langchain_splitter("word").create_documents(["a", "b"], [])
    assert [(d.page_content, d.metadata) for d in documents] == [("a", {}), ("b", {})]


@pytest.mark.parametrize(
    "build",
    [
        lambda: as_langchain_splitter("word"),
        lambda: adapter_module.from_tiktoken_encoder(chunk_size=50, chunk_overlap=5),
    ],
    ids=["as_langchain_splitter", "from_tiktoken_encoder"],
)
def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch, build: Any) -> None:
    adapter_module._splitter_class.cache_clear()
    monkeypatch.setitem(sys.modules, "langchain_text_splitters", None)
    try:
        with pytest.raises(ImportError, match=r"guardrails-ai-chunkwise\[langchain\]") as raised:
            build()
        # (from_tiktoken_encoder's error named as_langchain_splitter, never called.)
        assert "as_langchain_splitter" not in str(raised.value)
    finally:
        adapter_module._splitter_class.cache_clear()


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [({}, "encoding_name='cl100k_base'"), ({"model_name": "gpt-4o"}, "model_name='gpt-4o'")],
)
def test_missing_tokens_extra_is_named_by_the_parameter_given(
    monkeypatch: pytest.MonkeyPatch, kwargs: dict[str, str], named: str
) -> None:
    # Before: "tokenizer='cl100k_base': named encodings need ...", a parameter
    # from_tiktoken_encoder does not have.
    monkeypatch.setitem(sys.modules, "bpe_openai", None)
    with pytest.raises(ImportError, match=r"guardrails-ai-chunkwise\[tokens\]") as raised:
        adapter_module.from_tiktoken_encoder(chunk_size=50, chunk_overlap=5, **kwargs)
    assert str(raised.value).startswith(f"{named}: ")
    assert raised.value.name == "bpe_openai"


def test_module_imports_without_langchain(monkeypatch: pytest.MonkeyPatch) -> None:
    module = adapter_module
    monkeypatch.setitem(sys.modules, "langchain_text_splitters", None)
    monkeypatch.setitem(sys.modules, "langchain_core.documents", None)
    try:
        reloaded = importlib.reload(module)  # would raise if LangChain were imported eagerly
        assert callable(reloaded.as_langchain_splitter)
    finally:
        monkeypatch.undo()
        importlib.reload(module)
