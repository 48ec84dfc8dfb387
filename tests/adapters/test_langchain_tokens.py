"""LangChain constructors sized in tokens, and heading metadata (adapters/langchain.py)."""

from __future__ import annotations

import itertools
import pickle

import bpe_openai
import pytest
from _text import markdown, prose
from langchain_text_splitters import MarkdownHeaderTextSplitter, TextSplitter

from guardrails_ai.chunkwise.adapters.langchain import (
    as_langchain_splitter,
    from_huggingface_tokenizer,
    from_tiktoken_encoder,
)
from guardrails_ai.chunkwise.chunkers import StructureChunker, limit

CL100K = bpe_openai.get_encoding("cl100k_base")


def tokens(text: str) -> int:
    return len(CL100K.encode_ordinary(text))


def test_from_tiktoken_encoder_fills_chunks_in_tokens_with_overlap() -> None:
    text = prose(30_000, seed=2)
    splitter = from_tiktoken_encoder(
        "cl100k_base", chunk_size=200, chunk_overlap=30, add_start_index=True
    )
    assert isinstance(splitter, TextSplitter)
    assert splitter._chunk_size == 200 and splitter._chunk_overlap == 30
    docs = splitter.create_documents([text])
    sizes = [tokens(d.page_content) for d in docs]
    assert max(sizes) <= 200
    assert sorted(sizes)[len(sizes) // 2] >= 160
    starts = [d.metadata["start_index"] for d in docs]
    ends = [s + len(d.page_content) for s, d in zip(starts, docs, strict=True)]
    assert all(text[s:e] == d.page_content for s, e, d in zip(starts, ends, docs, strict=True))
    pairs = [(s1, e0) for e0, s1 in zip(ends, starts[1:], strict=False) if s1 < e0]
    assert pairs and all(tokens(text[s1:e0]) <= 30 for s1, e0 in pairs)
    # The class spells it as LangChain does, and a model name picks its encoding.
    same = type(splitter).from_tiktoken_encoder(
        model_name="gpt-4", chunk_size=200, chunk_overlap=30
    )
    assert same.split_text(text) == splitter.split_text(text)


def test_from_huggingface_tokenizer_counts_its_tokens() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(
        prose(60_000, seed=1).splitlines(),
        trainers.BpeTrainer(vocab_size=400, special_tokens=["[UNK]"]),
    )
    text = markdown(20_000, seed=3)
    splitter = from_huggingface_tokenizer(tok, chunk_size=120, chunk_overlap=0)
    chunks = splitter.split_text(text)
    assert max(len(tok.encode(c, add_special_tokens=False).ids) for c in chunks) <= 120
    assert chunks == limit("structure", max_tokens=120, tokenizer=tok, fill=True).split_text(text)


def test_bad_sizes_are_named_as_langchain_names_them() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        from_tiktoken_encoder(chunk_size=0)
    with pytest.raises(ValueError, match="chunk_overlap"):
        from_tiktoken_encoder(chunk_size=10, chunk_overlap=10)


def test_splitters_pickle_as_langchain_splitters_do() -> None:
    # Before: "Can't pickle local object" (the class, and a named encoding's
    # counting function), so a splitter could not go to a process pool.
    text = prose(3_000, seed=4)
    for splitter in (
        from_tiktoken_encoder(chunk_size=60, chunk_overlap=10, add_start_index=True),
        as_langchain_splitter(limit("sentence", max_tokens=40), strip_whitespace=False),
    ):
        again = pickle.loads(pickle.dumps(splitter))
        assert type(again) is type(splitter)
        assert again.create_documents([text]) == splitter.create_documents([text])


def test_no_huggingface_tokenizer_is_an_error_not_cl100k() -> None:
    # Before: tokenizer=None (a tokenizer that failed to load) silently sized
    # the chunks in cl100k_base tokens, the default of limit(max_tokens=...).
    with pytest.raises(TypeError, match=r"^tokenizer must be .*got None"):
        from_huggingface_tokenizer(None, chunk_size=100, chunk_overlap=10)


def test_a_bad_encoding_or_model_is_named_as_given() -> None:
    # Before: both were blamed on "tokenizer", a parameter these do not have.
    with pytest.raises(ValueError, match=r"^encoding_name='nope' is not a known encoding"):
        from_tiktoken_encoder("nope")
    with pytest.raises(ValueError, match=r"^model_name='nope' is not a known encoding"):
        from_tiktoken_encoder(model_name="nope")
    with pytest.raises(TypeError, match=r"^encoding_name must be a tokenizer name"):
        from_tiktoken_encoder(5)  # type: ignore[arg-type]


def test_an_error_in_the_chunker_spec_is_not_blamed_on_the_splitter_sizes() -> None:
    # Before: the spec's own overlap and size were reported as chunk_overlap and
    # chunk_size, with the spec's values ("chunk_overlap must be < chunk_size=2").
    grouped = {"chunker": "grouped", "inner": "sentence", "chunk_size": 2, "overlap": 5}
    with pytest.raises(ValueError, match=r"^overlap must be < chunk_size=2, got 5"):
        from_tiktoken_encoder(chunk_size=100, chunk_overlap=10, chunker=grouped)
    sized = {"chunker": "sized", "inner": "sentence", "max_tokens": 0}
    with pytest.raises(ValueError, match=r"^max_tokens must be >= 1, got 0"):
        from_huggingface_tokenizer(CL100K, chunk_size=100, chunk_overlap=10, chunker=sized)


DOC = """# Guide

Intro paragraph.

## Install

Run the installer. It takes a minute.

```sh
# not a heading
pip install it
```

### From source

Clone it.

Usage
-----

Call it.
"""


def test_headings_metadata_from_the_structure_chunker() -> None:
    splitter = as_langchain_splitter("structure")
    docs = splitter.create_documents([DOC], [{"source": "doc"}])
    assert all(d.metadata["source"] == "doc" for d in docs)
    by_text = {d.page_content.splitlines()[0]: d.metadata["headings"] for d in docs}
    assert by_text["# Guide"] == ["Guide"]
    assert by_text["## Install"] == ["Guide", "Install"]
    assert by_text["### From source"] == ["Guide", "Install", "From source"]
    assert by_text["Usage"] == ["Guide", "Usage"]
    assert all("not a heading" not in h for d in docs for h in d.metadata["headings"])
    # The same titles as LangChain's MarkdownHeaderTextSplitter for ATX headings.
    header = MarkdownHeaderTextSplitter([("#", "h1"), ("##", "h2"), ("###", "h3")])
    theirs = {
        d.page_content.splitlines()[0].strip(): list(d.metadata.values())
        for d in header.split_text(DOC)
    }
    assert theirs["Clone it."] == by_text["### From source"]
    # Other chunkers add no headings unless asked.
    assert "headings" not in as_langchain_splitter("sentence").create_documents([DOC])[0].metadata
    assert as_langchain_splitter("sentence", headings=True).create_documents([DOC])[0].metadata[
        "headings"
    ] == ["Guide"]


@pytest.mark.parametrize(
    "doc",
    [
        "Opening words.\n\n***\n---\nClosing words.\n",
        "Opening words.\n\n***\n===\nClosing words.\n",
        "Opening words.\n\n2. Setup\n---\nClosing words.\n",
        "Opening words.\n\n2. Setup\n===\nClosing words.\n",
    ],
)
def test_no_setext_heading_over_a_break_or_a_numbered_title(doc: str) -> None:
    # Before: a thematic break or a numbered title over "---"/"===" was
    # recorded as a Setext heading's title, though StructureChunker reads
    # neither as a paragraph line: chunks were put under a section it never saw.
    for chunker in ("structure", limit("structure", max_chars=20, fill=True)):
        docs = as_langchain_splitter(chunker).create_documents([doc])
        assert [d.metadata["headings"] for d in docs] == [[]] * len(docs), chunker


def test_a_numbered_title_is_a_setext_title_when_numbered_sections_are_off() -> None:
    doc = "Opening words.\n\n2. Setup\n---\nClosing words.\n"
    splitter = as_langchain_splitter(StructureChunker(respect_numbered_sections=False))
    docs = splitter.create_documents([doc])
    assert [(d.page_content, d.metadata["headings"]) for d in docs] == [
        ("Opening words.", []),
        ("2. Setup\n---\nClosing words.", ["2. Setup"]),
    ]


def test_a_chunk_opening_with_a_setext_heading_of_several_lines_is_under_it() -> None:
    # Before: the chunk was put under the heading before it ("Top").
    doc = "# Top\n\nIntro text.\n\nA title in\ntwo lines\n===\nBody text.\n"
    docs = as_langchain_splitter("structure").create_documents([doc])
    assert [(d.page_content, d.metadata["headings"]) for d in docs] == [
        ("# Top\n\nIntro text.", ["Top"]),
        ("A title in\ntwo lines\n===\nBody text.", ["A title in two lines"]),
    ]


def test_every_chunk_is_in_the_text_in_order() -> None:
    text = markdown(40_000, seed=9)
    splitter = from_tiktoken_encoder(chunk_size=300, chunk_overlap=0, add_start_index=True)
    docs = splitter.create_documents([text])
    starts = [d.metadata["start_index"] for d in docs]
    assert starts == sorted(starts)
    for (s0, d0), (s1, _) in itertools.pairwise(zip(starts, docs, strict=True)):
        assert s0 + len(d0.page_content) <= s1
