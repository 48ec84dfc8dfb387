"""Sizes in tokens or any measure, chunks filled to a target (chunkers/sizing.py, fill.py).

Properties with a real tokenizer (bpe-openai's cl100k, offline) on random text
and random slicings: no chunk over the ceiling as the tokenizer counts the
chunk, lossless segments, delta invariance, the held-back text within the
ceiling.  Examples pin the fill level rules, fenced code blocks, the line level,
tokenizer objects of each kind and parameter checking.
"""

from __future__ import annotations

import bisect
import itertools
import re
import statistics
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from _text import markdown, prose
from helpers.chunking import sliced, stream
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    ChunkStream,
    Sized,
    limit,
    measure_for,
    resolve_chunker,
    split_spans,
)

bpe_openai = pytest.importorskip("bpe_openai")
CL100K = bpe_openai.get_encoding("cl100k_base")


def tokens(text: str) -> int:
    return len(CL100K.encode_ordinary(text))


WORDS = [
    "a",
    "bb",
    "word",
    "longerword",
    "Dr.",
    "3.14",
    "x" * 23,
    # Runs about the 16 characters after which a streamed piece is cut.
    "q" * 15,
    "r" * 16,
    "s" * 17,
    "\u201c\u3002",
    "日本語の文",
    "Привет",
    "🙂",
    "|",
    "#",
    "```",
    "- item",
    "1.",
    "e.g.",
]
SEPS = [
    " ",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\n\n\n",
    ". ",
    "! ",
    "\t",
    "\r\n",
    "\u00a0",
    ".\n\n",
    "\n```\n",
    "\n# ",
]
texts = st.one_of(
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SEPS)), max_size=60).map("".join),
    st.text(max_size=40),
    st.text(alphabet="ab .\n`#|", max_size=80),
)


LEVELS = ["structure", "paragraph", "line", "sentence", "word"]


def check(chunker: Sized, text: str, deltas: list[str], size: object) -> None:
    """Lossless, delta-invariant, every chunk and the held-back text (its
    whitespace included) within the ceiling."""
    measure = measure_for(size)
    pieces = stream(chunker, deltas)  # also: split() of every prefix agrees with the stream
    assert "".join(p.segment for p in pieces) == text
    chunks = [p.chunk for p in pieces if p.chunk is not None]
    assert chunks == chunker.split_text(text)
    for chunk in chunks:
        assert chunk
        if chunker.fill:  # filled chunks are stripped (whitespace travels in segments)
            assert chunk == chunk.strip() or chunk.isspace()
        assert measure(chunk) <= chunker.limit, (chunk, measure(chunk))
    held = ChunkStream(chunker)
    for delta in deltas:
        held.feed(delta)
        assert measure(held.pending) <= chunker.limit, held.pending


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize("level", LEVELS)
@given(case=sliced(texts), ceiling=st.integers(6, 40))
def test_token_ceiling_properties(
    level: str, fill: bool, case: tuple[str, list[str]], ceiling: int
) -> None:
    text, deltas = case
    check(limit(level, max_tokens=ceiling, tokenizer=CL100K, fill=fill), text, deltas, CL100K)


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize("level", LEVELS)
def test_final_fragment_within_a_small_token_ceiling(level: str, fill: bool) -> None:
    # "\x85" (NEL) is whitespace to Python but content to the line, paragraph and
    # structure chunkers: with it the fragment is 7 tokens, without it 5.
    text = "\x850:0\u00d8"
    assert tokens(text) == 7
    check(limit(level, max_tokens=6, tokenizer=CL100K, fill=fill), text, list(text), CL100K)
    # Two spaces then a digit are three tokens, " " " " "1", though "  " alone is
    # one: the held-back text was measured exactly up to the middle of the run.
    text = "\U0001f642.  1."
    assert tokens(text) == 7
    check(limit(level, max_tokens=6, tokenizer=CL100K, fill=fill), text, list(text), CL100K)


@pytest.mark.parametrize("level", LEVELS)
@given(case=sliced(texts), ceiling=st.integers(1, 60))
def test_character_fill_properties(level: str, case: tuple[str, list[str]], ceiling: int) -> None:
    text, deltas = case
    check(limit(level, max_chars=ceiling, fill=True), text, deltas, None)


@given(case=sliced(texts), ceiling=st.integers(3, 30))
def test_any_length_function(case: tuple[str, list[str]], ceiling: int) -> None:
    text, deltas = case

    def words(text: str) -> int:
        return len(text.split()) + text.count("\n")

    check(limit("sentence", max_chars=ceiling, length=words), text, deltas, words)


@pytest.mark.parametrize("size", [1, 2, 5, 1000])
def test_a_unit_that_fits_is_whole_however_the_estimate_was_anchored(size: int) -> None:
    # The sentence chunker holds "“。" back (an open quotation) until the blank
    # line; the next unit is 4 words, one longer than a piece (16 characters),
    # which the running estimate counts twice.  Fed at once, that unit used to
    # be judged by the estimate and cut ('... c', 'd'); streamed, it was whole.
    def words(text: str) -> int:
        return len(text.split())

    text = "\u201c\u3002a " + "b" * 16 + " c d\n\ne"
    chunker = limit("sentence", max_chars=4, length=words)
    assert chunker.split_text(text) == ["\u201c\u3002", "a " + "b" * 16 + " c d", "e"]
    check(chunker, text, [text[i : i + size] for i in range(0, len(text), size)], words)


def test_named_encoding_counts_as_the_encoding_does() -> None:
    measure = measure_for("cl100k_base")
    text = prose(20_000, seed=3) + " 日本語 🙂 \r\n\t" + "\ud800"
    assert measure(text) == tokens(text)
    assert measure_for("o200k_base")("hello world") == 2
    assert measure_for("gpt-4o").spec == "gpt-4o"


def test_an_encoding_object_of_a_shipped_encoding_is_written_by_its_name() -> None:
    # Before: a chunker sized by an Encoding object had no spec
    # ("cannot be written as JSON data"), so Guard.to_dict() failed and no
    # server could rebuild the guard, though its name says the same.
    tiktoken = pytest.importorskip("tiktoken")
    # (tiktoken.get_encoding downloads; the same encoding built from the
    # ranks bpe-openai ships stands for it.)
    same = tiktoken.Encoding(
        "cl100k_base",
        pat_str=CL100K._pat_str,
        mergeable_ranks=dict(CL100K._mergeable_ranks),
        special_tokens={},
    )
    for encoding in (CL100K, same):
        chunker = limit("sentence", max_tokens=50, tokenizer=encoding)
        assert chunker.spec()["tokenizer"] == "cl100k_base"
        assert resolve_chunker(chunker.spec()) == chunker
    # An Encoding that only takes the name is not written as it.
    other = tiktoken.Encoding(
        "cl100k_base",
        pat_str=r"\S+|\s+",
        mergeable_ranks={bytes([i]): i for i in range(256)},
        special_tokens={},
    )
    with pytest.raises(ValueError, match="cannot be written as JSON data"):
        limit("sentence", max_tokens=50, tokenizer=other).spec()


def test_tokenizers_tokenizer_built_offline() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    corpus = prose(50_000, seed=1).splitlines()
    tok.train_from_iterator(
        corpus, trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]"])
    )
    text = prose(8_000, seed=2)
    chunks = limit("sentence", max_tokens=150, tokenizer=tok, fill=True).split_text(text)
    sizes = [len(tok.encode(c, add_special_tokens=False).ids) for c in chunks]
    assert max(sizes) <= 150
    assert statistics.median(sizes) >= 0.75 * 150
    # Before: a lone surrogate (bpe-openai counts one, as tiktoken does) raised
    # tokenizers' "TextInputSequence must be str" from the middle of a stream.
    lone = "Odd \ud800 byte here. Then\udfff more words follow."
    chunker = limit("sentence", max_tokens=4, tokenizer=tok)
    check(chunker, lone, list(lone), tok)
    assert chunker.split_text(lone)[:2] == ["Odd", "\ud800"]


@pytest.mark.parametrize(
    ("setup", "fill", "size"),
    [("truncation", True, 200), ("padding", True, 200), ("padding", False, 40)],
)
def test_a_tokenizers_tokenizer_is_counted_without_its_truncation_or_padding(
    setup: str, fill: bool, size: int
) -> None:
    # Before: a Tokenizer set up to truncate to 64 tokens (as many a
    # tokenizer.json is, for its model's input) counted every longer text as
    # 64, so under max_tokens=200 chunks of 445 tokens passed; set up to pad to
    # 64, it counted every text as 64: filled chunks of 9 tokens, and under
    # max_tokens=40 chunks of one character.
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, trainers

    plain = tokenizers.Tokenizer(models.WordLevel(unk_token="[UNK]"))
    plain.pre_tokenizer = pre_tokenizers.Whitespace()
    plain.train_from_iterator(
        prose(30_000, seed=1).splitlines(),
        trainers.WordLevelTrainer(vocab_size=400, special_tokens=["[UNK]", "[PAD]"]),
    )
    tok = tokenizers.Tokenizer.from_str(plain.to_str())
    if setup == "truncation":
        tok.enable_truncation(max_length=64)
    else:
        tok.enable_padding(length=64, pad_token="[PAD]", pad_id=1)
    text = prose(8_000, seed=7)
    chunks = limit("sentence", max_tokens=size, tokenizer=tok, fill=fill).split_text(text)
    sizes = [len(plain.encode(c, add_special_tokens=False).ids) for c in chunks]
    assert max(sizes) <= size
    assert statistics.median(sizes) >= (0.75 * size if fill else 5)
    # The caller's tokenizer keeps its setup.
    assert (tok.truncation if setup == "truncation" else tok.padding) is not None


def test_fill_reaches_the_target_on_markdown() -> None:
    text = markdown(200_000, seed=5)
    for chunker in ("structure", "paragraph"):
        sizes = [len(c) for c in limit(chunker, max_chars=1000, fill=True).split_text(text)]
        assert max(sizes) <= 1000
        assert statistics.median(sizes) >= 850, (chunker, statistics.median(sizes))
    sizes = [tokens(c) for c in limit("structure", max_tokens=256, fill=True).split_text(text)]
    assert max(sizes) <= 256
    assert statistics.median(sizes) >= 0.8 * 256


def test_fill_takes_whole_sections_when_they_fill_the_chunk() -> None:
    section = "# Title {}\n\n" + "Some words here. " * 20 + "\n\n"
    text = "".join(section.format(i) for i in range(6))
    size = len(section.format(0)) * 2 + 10
    chunks = limit("structure", max_chars=size, fill=True).split_text(text)
    assert all(c.startswith("# Title") for c in chunks)
    assert [c.count("# Title") for c in chunks] == [2, 2, 2]


@pytest.mark.parametrize(
    "make",
    [
        lambda n: limit("structure", max_chars=n, fill=True),
        lambda n: limit("structure", max_chars=n, length=len),
        lambda n: limit("structure", max_chars=n),
    ],
    ids=["fill", "length", "bounded"],
)
def test_a_heading_over_the_limit_is_cut_between_words(make: Callable[[int], Any]) -> None:
    # No chunk ends a heading line, so a heading over the limit had only
    # hard cuts left: "...for produc" | "tion".  Nor does one end at its "#".
    doc = "## Configuring the streaming validators for production\nSet the options below.\n"
    assert make(50).split_text(doc) == [
        "## Configuring the streaming validators for",
        "production\nSet the options below.",
    ]
    assert make(12).split_text("# Setup steps\nRun it.") == ["# Setup", "steps", "Run it."]
    assert "#" not in make(12).split_text("Run it.\n\n# Usage\nCall it.")


@pytest.mark.parametrize(
    "make",
    [
        lambda n: limit("structure", max_chars=n, fill=True),
        lambda n: limit("structure", max_chars=n, length=len),
        lambda n: limit("word", max_chars=n, fill=True),
        lambda n: limit("sentence", max_chars=n, fill=True),
    ],
    ids=["fill", "length", "fill-word", "fill-sentence"],
)
def test_a_heading_ends_a_chunk_rather_than_a_word_that_fits_being_cut(
    make: Callable[[int], Any],
) -> None:
    # Before: no chunk could end on the heading line, so when the heading fit
    # but not with the word after it, that word was cut ("Thre" | "e four"),
    # though no word is cut unless it alone is over the limit.
    assert make(9).split_text("# Hi\nThree four") == ["# Hi", "Three", "four"]
    assert make(14).split_text("Intro.\n\n## Setup\nConfigure it") == [
        "Intro.",
        "## Setup",
        "Configure it",
    ]


@pytest.mark.parametrize(
    "make",
    [
        lambda n: limit("structure", max_chars=n, fill=True),
        lambda n: limit("structure", max_chars=n, length=len),
        lambda n: limit("paragraph", max_chars=n, fill=True),
        lambda n: limit("sentence", max_chars=n, fill=True),
        lambda n: limit("structure", max_tokens=n // 3, fill=True),
        lambda n: limit("structure", max_tokens=n // 3),
    ],
    ids=["fill", "length", "fill-paragraph", "fill-sentence", "tokens", "tokens-capped"],
)
def test_a_heading_that_fits_is_not_cut_between_its_words(make: Callable[[int], Any]) -> None:
    # Before: when a heading fit but not with the code block after it, it was
    # cut between its words ("### Check" | "report\n\n```..."), the cut a
    # heading over the limit gets; with headings in a row, the last that
    # began in the window was cut ("## Model" | "system answer ...").
    code = "```python\ngreen = never(6)\nmorning = stream(2)\n```"
    doc = f"Intro words here.\n\n### Check report\n\n{code}\n\nAfter.\n"
    assert make(60).split_text(doc) == ["Intro words here.", "### Check report", code, "After."]
    headings = ["## Mountain table", "## Sometimes a user although", "## Model system answer user"]
    doc = "\n\n".join([*headings, "Text."])
    for n in (45, 60, 75, 90):
        chunks = make(n).split_text(doc)
        assert all(any(h in c for c in chunks) for h in headings), chunks


@pytest.mark.parametrize(
    "make",
    [
        lambda n: limit("structure", max_chars=n, fill=True),
        lambda n: limit("structure", max_chars=n, length=len),
        lambda n: limit("sentence", max_chars=n, fill=True),
    ],
    ids=["fill", "length", "fill-sentence"],
)
@pytest.mark.parametrize("ceiling", [60, 70, 80])
def test_a_heading_that_fits_is_whole_in_a_chunk_of_its_own(
    make: Callable[[int], Any], ceiling: int
) -> None:
    # Before, with 70 or 80: ['Intro text here.', '### Explains', 'it.\n\n```...```', ...]:
    # no chunk could end on the heading line and the code block after it was kept whole,
    # so the chunk was cut between the heading's words, though the heading fits.
    code = "```\n" + "".join(f"x{i} = {i}\n" for i in range(8)) + "```"
    doc = f"Intro text here.\n\n### Explains it.\n\n{code}\n\nMore prose after the code."
    chunks = make(ceiling).split_text(doc)
    assert "### Explains it." in chunks
    # A heading that does not fit in the window after the text before it: its
    # lead goes alone, and the heading is whole in the next chunk.
    doc = "Some words here to fill.\n\n### Writes users it explains.\nFor the model."
    assert "### Writes users it explains." in make(30).split_text(doc)
    for text in (doc, f"Intro text here.\n\n### Explains it.\n\n{code}\n"):
        chunker = make(ceiling)
        pieces = stream(chunker, list(text))
        assert [p.chunk for p in pieces if p.chunk is not None] == chunker.split_text(text)


# Sentences dense in bytes per token (Japanese, Russian): the unfinished word
# is counted by its UTF-8 bytes, about three times its tokens, and measured
# exactly only twice per chunk, so a sentence that fits may be cut near its end.
JAPANESE = (
    "今日はとても良い天気なので、友達と一緒に近くの大きな公園へ"
    "散歩に行って、みんなで美味しいお弁当を食べました。"
)
RUSSIAN = (
    "Вчера мы долго гуляли по старому городу, смотрели на красивые дома"
    " и пили горячий чай в маленьком кафе."
)
# (Known, strict: a fix makes these pass, and the marks must then go.)
_CUT_NEAR_ITS_END = pytest.mark.xfail(
    reason="known: the unfinished word is bounded by its UTF-8 bytes and measured exactly "
    "twice per chunk; measuring it more often (tried) costs 2-4x the tokenizer work on these "
    "scripts and still cuts a sentence of exactly the limit",
    strict=True,
)


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize(
    ("sentence", "extra"),
    [
        pytest.param(JAPANESE, 0, marks=_CUT_NEAR_ITS_END),
        pytest.param(JAPANESE, 1, marks=_CUT_NEAR_ITS_END),
        pytest.param(JAPANESE, 9, marks=_CUT_NEAR_ITS_END),
        pytest.param(RUSSIAN, 0, marks=_CUT_NEAR_ITS_END),
        pytest.param(RUSSIAN, 1, marks=_CUT_NEAR_ITS_END),
        (RUSSIAN, 9),
        (JAPANESE, 16),
        (RUSSIAN, 6),
    ],
)
def test_a_sentence_dense_in_bytes_that_fits_its_tokens_is_kept_whole(
    sentence: str, extra: int, fill: bool
) -> None:
    chunker = limit("sentence", max_tokens=tokens(sentence) + extra, fill=fill)
    text = "Hi. " + sentence + " Bye."
    assert any(sentence in chunk for chunk in chunker.split_text(text))
    for size in (1, 7):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert any(sentence in piece.chunk for piece in stream(chunker, deltas))


def test_fill_ends_at_sentences_within_a_long_paragraph() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(200))
    chunks = limit("paragraph", max_chars=300, fill=True).split_text(text)
    assert all(c.endswith(".") for c in chunks)
    assert all(250 <= len(c) <= 300 for c in chunks[:-1])


CODE = "```python\n" + "\n\n".join(f"x{i} = {i}  # line. Next" for i in range(20)) + "\n```"


@pytest.mark.parametrize("indent", ["", "    "])  # (indented: in a list item)
@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize("level", ["structure", "paragraph", "sentence"])
def test_code_blocks_that_fit_are_kept_whole(level: str, fill: bool, indent: str) -> None:
    # Before: a block indented by four spaces was a fence for StructureChunker
    # only; a size limit cut it at its blank lines.
    code = textwrap.indent(CODE, indent)
    text = "\n\n".join(f"Intro paragraph {i}. It has two sentences.\n\n{code}" for i in range(8))
    size = len(code) + 60
    # (a chunk may start after the indentation of the block's first line)
    blocks = [(m + len(indent), m + len(code)) for m in _find_all(text, code)]
    if fill or level == "structure":
        # (A max_chars ceiling alone keeps the inner chunker's own units: a
        # paragraph chunker's paragraphs inside code stay its chunks.)
        spans = split_spans(limit(level, max_chars=size, fill=fill), text)
        for a, b in spans:
            for x, y in blocks:
                assert not (x < a < y or x < b < y), (level, fill, text[a:b][:80])
    tokens_chunker = limit(level, max_tokens=tokens(code) + 20, fill=fill)
    token_spans = split_spans(tokens_chunker, text)
    for a, b in token_spans:
        for x, y in blocks:
            assert not (x < a < y or x < b < y)


@pytest.mark.parametrize(("eol", "blanks"), [("\r\n", ""), ("\n", "  "), ("\r\n", " \t")])
@pytest.mark.parametrize(
    "make",
    [
        lambda: limit("structure", max_chars=60),
        lambda: limit("paragraph", max_chars=60),
        lambda: limit("structure", max_chars=64, fill=True),
        lambda: limit("sentence", max_chars=64, length=len),
        lambda: limit("structure", max_tokens=24, fill=True),
    ],
    ids=["bounded", "bounded-paragraph", "fill", "length", "tokens"],
)
def test_a_code_block_closed_by_a_fence_line_with_blanks_ends_at_the_fence(
    make: Callable[[], Any], eol: str, blanks: str
) -> None:
    # Before: with CR LF line ends (or blanks after the closing fence) the
    # block reached past its fence to the line break, so no boundary right
    # after it counted and the text after it was cut inside a word or a
    # heading ("```\r\n\r\nP" | "lain words", "```\r\n\r\n#" | "# Notes").
    code = "```python\nsentence = mountain(2)\ncity = light(4)\n```"
    for after in ("Plain words of a paragraph here.", "## Notes on it\n\nCheck it now."):
        text = f"{code}{blanks}\n\n{after}".replace("\n", eol)
        chunks = make().split_text(text)
        assert chunks[0].rstrip() == code.replace("\n", eol), chunks
        assert " ".join(chunks[1:]).split() == after.split(), chunks


def _find_all(text: str, part: str) -> list[int]:
    found, i = [], text.find(part)
    while i >= 0:
        found.append(i)
        i = text.find(part, i + 1)
    return found


@pytest.mark.parametrize("size", [1, 2, 1000])
def test_a_piece_of_sixteen_characters_before_a_word_start_is_no_run_cut(size: int) -> None:
    # Streamed a character at a time, the first 16 characters were cut off as
    # part of a run as soon as 17 were known, one token more in the estimate,
    # while the whole text has a word start there: the whitespace before the
    # last word was a chunk of its own or not, depending on the slicing.
    text = "abbbblongerword  longerword"
    chunker = limit("word", max_tokens=6, tokenizer=CL100K)
    check(chunker, text, [text[i : i + size] for i in range(0, len(text), size)], CL100K)


@pytest.mark.parametrize("size", [1, 3, 1000])
@pytest.mark.parametrize(
    ("level", "fill", "text"),
    [
        ("word", False, "```\n\n\n~~~~````a ba b\n```js\u00e9Dr. L"),  # a block held to the end
        ("sentence", False, "One two three four five six."),
        ("paragraph", True, "One two three four five six."),
    ],
)
def test_what_is_left_at_the_end_is_measured_before_it_is_released(
    size: int, level: str, fill: bool, text: str
) -> None:
    # What was left when the text ended was released as it was, over the limit
    # for a length that grows faster than the sum of its parts (12 > 3 here):
    # such a length outgrows the estimate (the sum), and units held in a code
    # block are measured with it only now and then.
    def squared_words(text: str) -> int:
        return len(text.split()) ** 2 // 3

    chunker = limit(level, max_chars=3, length=squared_words, fill=fill)
    pieces = stream(chunker, [text[i : i + size] for i in range(0, len(text), size)])
    assert "".join(p.segment for p in pieces) == text
    chunks = [p.chunk for p in pieces if p.chunk is not None]
    assert chunks == chunker.split_text(text)
    assert all(squared_words(chunk) <= 3 for chunk in chunks), chunks
    # (The held-back text is bounded by the estimate only.)


def test_code_block_larger_than_the_limit_is_cut_at_lines() -> None:
    chunks = limit("paragraph", max_chars=120, fill=True).split_text("Text.\n\n" + CODE)
    assert all(len(c) <= 120 for c in chunks)
    assert all(not c.endswith(("x", "=")) for c in chunks)


def test_line_level_cuts_a_table_at_rows() -> None:
    table = "\n".join(f"| row {i} | value {i} | more cells here |" for i in range(30))
    for chunker in (
        limit("sentence", max_chars=300),
        limit("paragraph", max_chars=300),
        limit("paragraph", max_chars=300, fill=True),
    ):
        for chunk in chunker.split_text(table):
            assert chunk.startswith("| row") and chunk.endswith("|"), chunk


def test_overlap_for_whole_documents() -> None:
    text = prose(20_000, seed=7)
    chunker = limit("paragraph", max_tokens=100, fill=True, overlap=20)
    spans = split_spans(chunker, text)
    assert all(tokens(text[a:b]) <= 100 for a, b in spans)
    overlaps = [b0 - a1 for (_, b0), (a1, _) in itertools.pairwise(spans) if a1 < b0]
    assert len(overlaps) > len(spans) // 2
    assert all(
        tokens(text[a1:b0]) <= 20 for (_, b0), (a1, _) in itertools.pairwise(spans) if a1 < b0
    )
    assert all(b1 > b0 for (_, b0), (_, b1) in itertools.pairwise(spans))
    assert spans[0][0] == len(text) - len(text.lstrip())


@pytest.mark.parametrize("size", [40, 50, 60])
@pytest.mark.parametrize("measure", [{}, {"length": len}])
def test_an_overlap_opening_inside_a_code_block_reads_it_as_code(
    size: int, measure: dict[str, Any]
) -> None:
    # Before: the chunk after an overlap that began inside a code block was cut
    # as if the block's closing fence opened one: no boundary after it counted,
    # and a word that fit was cut ("delta epsilo" | "epsilon zeta").
    words = "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho."
    text = f"Intro words.\n\n```\nx = 1\ny = 2\n```\n\n{words}"
    chunker = limit("structure", max_chars=size, fill=True, overlap=size // 3, **measure)
    vocabulary = set(text.split())
    for chunk in chunker.split_text(text):
        assert set(chunk.split()) <= vocabulary, chunk


@pytest.mark.parametrize("level", ["structure", "paragraph", "sentence"])
@pytest.mark.parametrize("measure", [{}, {"length": len}])
def test_an_overlap_makes_no_room_by_cutting_a_unit_that_fits(
    level: str, measure: dict[str, Any]
) -> None:
    # Before: a code block that fit, but not after the overlap, was cut inside
    # a word ("gamma = delta(" | "= delta(2)"); the chunk now opens without the
    # overlap (as LangChain drops overlap to keep the next split whole).
    code = "```\nalpha = beta(1)\ngamma = delta(2)\n```"
    text = f"First words here now.\n\n{code}\n\nLast words of it."
    chunks = limit(level, max_chars=45, fill=True, overlap=10, **measure).split_text(text)
    assert code in chunks
    assert chunks[0] == "First words here now."


@pytest.mark.parametrize(
    ("kwargs", "error", "names"),
    [
        ({"max_tokens": 10, "max_chars": 10}, ValueError, "max_chars"),
        ({"tokenizer": "cl100k_base"}, ValueError, "tokenizer"),
        ({"max_tokens": 10, "length": len}, ValueError, "length"),
        ({"max_tokens": 0}, ValueError, "max_tokens"),
        ({"max_tokens": "10"}, TypeError, "max_tokens"),
        ({"max_tokens": 10, "tokenizer": "no-such-encoding"}, ValueError, "tokenizer"),
        ({"max_tokens": 10, "tokenizer": 3}, TypeError, "tokenizer"),
        ({"max_chars": 10, "length": "x" * 0 or 5}, TypeError, "length"),
        ({"fill": True}, ValueError, "fill"),
        ({"fill": "yes", "max_chars": 5}, TypeError, "fill"),
        ({"max_tokens": 10, "chunk_size": 3}, ValueError, "chunk_size"),
        ({"max_tokens": 10, "overlap": 3}, ValueError, "overlap"),
        ({"max_chars": 10, "fill": True, "overlap": 10}, ValueError, "overlap"),
    ],
)
def test_bad_arguments_name_the_parameter(
    kwargs: dict[str, object], error: type, names: str
) -> None:
    with pytest.raises(error, match=names):
        limit("sentence", **kwargs)  # type: ignore[arg-type]


def test_a_misbehaving_length_function_is_named() -> None:
    chunker = limit("word", max_chars=5, length=lambda text: -1)
    with pytest.raises(ValueError, match="length must return"):
        chunker.split_text("some words here")
    # What it returned is described, never quoted: it may be the text.
    echo = limit("word", max_chars=5, length=lambda text: text)
    with pytest.raises(ValueError, match="got str of 7 characters") as raised:
        echo.split_text("hunter2")
    assert "hunter2" not in str(raised.value)
    # A tokenizer= callable is named as tokenizer, the parameter it came in by
    # (it was blamed on length=, which the caller never gave).
    tokens = limit("sentence", max_tokens=2, tokenizer=lambda text: text.split())
    with pytest.raises(ValueError, match=r"^tokenizer must return an int >= 0, got list of"):
        tokens.split_text("Two words. More.")


def test_repr_names_the_measure() -> None:
    assert repr(limit("sentence", max_tokens=64, fill=True)) == (
        "Sized(inner=SentenceChunker(mode='accurate'), max_tokens=64, tokenizer='cl100k_base', "
        "fill=True)"
    )
    assert "max_chars=10" in repr(limit("word", max_chars=10, fill=True))


# -- whitespace before a word -------------------------------------------------


def utf8(text: str) -> int:
    return len(text.encode())


def test_fill_keeps_a_word_that_fits_whole_after_whitespace() -> None:
    # The whitespace that cannot travel with the word is a segment of its own,
    # as without fill: the word is measured from its first character.
    filled = limit("word", max_chars=4, fill=True).split_text("Hi. word more")
    assert filled == limit("word", max_chars=4).split_text("Hi. word more")
    assert filled == ["Hi.", " ", "word", " ", "more"]
    text = "Intro. " + " " * 197 + "hello world, fine."
    chunks = limit("sentence", max_chars=200, fill=True).split_text(text)
    assert chunks == ["Intro.", " " * 198, "hello world, fine."]
    text = "Intro line.\n\n\n\n\n\n\nSupercalifragilistic is long"
    chunks = limit("sentence", max_chars=20, fill=True).split_text(text)
    assert chunks == ["Intro line.", "\n" * 7, "Supercalifragilistic", "is long"]
    chunks = limit("sentence", max_tokens=20, fill=True).split_text(" \r" * 25 + "word more")
    assert chunks[-1] == "word more"
    assert all(c.isspace() and tokens(c) <= 20 for c in chunks[:-1])


@pytest.mark.parametrize(
    ("chunker", "measure", "text"),
    [
        (limit("sentence", max_tokens=20), tokens, " \r" * 25 + "word more"),
        (limit("sentence", max_tokens=20, fill=True), tokens, " \r" * 25 + "word more"),
        (limit("word", max_tokens=5), tokens, "\u2003 " * 4 + "word"),
        (limit("word", max_tokens=5), tokens, " \r" * 7 + "word"),
        (limit("sentence", max_tokens=20), tokens, "Hi. " + " \r" * 30 + "word " * 40),
        (
            limit("sentence", max_chars=20, length=utf8),
            utf8,
            "Intro. " + " \r" * 30 + "hello world, fine.",
        ),
    ],
)
def test_whitespace_stays_within_a_measured_ceiling(
    chunker: Sized, measure: object, text: str
) -> None:
    # Tokens of a whitespace run add up: a whitespace chunk, a segment and the
    # held-back text are measured as they are, whitespace included.
    assert callable(measure)
    for deltas in (list(text), [text]):
        pieces = stream(chunker, deltas)
        assert "".join(p.segment for p in pieces) == text
        assert all(measure(p.segment) <= chunker.limit for p in pieces), [
            measure(p.segment) for p in pieces
        ]
    held = ChunkStream(chunker)
    for delta in text:
        held.feed(delta)
        assert measure(held.pending) <= chunker.limit
    assert _words_cut(text, split_spans(chunker, text)) == []


RUNS = [" \r", "\u2003 ", "\t", " ", "\n", "\r\n"]
spaced = st.lists(
    st.tuples(
        st.sampled_from(RUNS),
        st.integers(1, 24),
        st.sampled_from(["a", "bb", "word", "more", "longerword", "x" * 23, "Hi.", "end."]),
    ),
    max_size=8,
).map(lambda parts: "".join(run * k + word for run, k, word in parts))


def _words_cut(text: str, spans: list[tuple[int, int]]) -> list[str]:
    """The words of ``text`` a chunk starts or ends inside."""
    edges = {x for span in spans for x in span}
    return [
        m.group() for m in re.finditer(r"\S+", text) if any(m.start() < x < m.end() for x in edges)
    ]


@pytest.mark.parametrize("fill", [False, True])
@given(
    case=sliced(spaced),
    level=st.sampled_from(LEVELS),
    size=st.sampled_from(["chars", "tokens", "utf8"]),
    ceiling=st.integers(4, 40),
)
def test_whitespace_runs_before_words(
    fill: bool, case: tuple[str, list[str]], level: str, size: str, ceiling: int
) -> None:
    """Runs of whitespace before words, every slicing: the ceiling holds for
    every chunk and the held-back text, whitespace included, and no word is cut
    that fits: in characters, a word within the ceiling; as measured, a word
    whose UTF-8 bytes are (the bound a word is counted by while it is held
    back; a long word of few tokens may still be cut)."""
    text, deltas = case
    if size == "chars" and not fill:  # a Bounded chunker
        bounded = limit(level, max_chars=ceiling)
        pieces = stream(bounded, deltas, bound=ceiling)
        assert "".join(p.segment for p in pieces) == text
        assert all(len(p.segment) <= ceiling for p in pieces)
        cut = _words_cut(text, split_spans(bounded, text))
        assert all(len(word) > ceiling for word in cut), cut
        return
    if size == "chars":
        chunker, measure, fits = limit(level, max_chars=ceiling, fill=fill), None, len
    elif size == "tokens":
        chunker = limit(level, max_tokens=ceiling, tokenizer=CL100K, fill=fill)
        measure, fits = CL100K, utf8
    else:
        chunker = limit(level, max_chars=ceiling, length=utf8, fill=fill)
        measure, fits = utf8, utf8
    check(chunker, text, deltas, measure)
    cut = _words_cut(text, split_spans(chunker, text))
    assert all(fits(word) > ceiling for word in cut), cut


def test_held_back_text_within_the_ceiling_where_a_run_is_cut() -> None:
    # Before: 38 tokens held back under max_tokens=37.  ".\n\n..." is one
    # pre-token, measured in pieces of at most 16 characters: 3 tokens, but 4
    # as a whole (its newlines merge differently), so the sum of the pieces
    # was one short.
    text = " Hi." + "\n" * 19 + " \r" * 17
    chunker = limit("structure", max_tokens=37, tokenizer=CL100K, fill=True)
    check(chunker, text, list(text), CL100K)


def test_an_unknown_encoding_lists_only_those_shipped() -> None:
    # Before: the list named every encoding bpe-openai knows, 'gpt2' and
    # 'p50k_base' included, which it cannot load without a download.
    pytest.importorskip("bpe_openai")
    with pytest.raises(ValueError, match="choose one of 'cl100k_base', 'o200k_base' ") as raised:
        limit("word", max_tokens=10, tokenizer="no-such-encoding")
    assert "gpt2" not in str(raised.value)


#: Grapheme clusters, with their cl100k tokens: a Devanagari conjunct (3), Thai
#: with its tone mark and AM (3), a heart with its variation selector (3), an
#: accented letter (2), a thumb with a skin tone (6), a flag (6), a family
#: joined by ZWJ (13), CR LF, letters and spaces.
TOKEN_CLUSTERS = [
    "\u0915\u094d\u0937",
    "\u0e19\u0e49\u0e33",
    "\u2764\ufe0f",
    "e\u0301",
    "\U0001f44d\U0001f3fd",
    "\U0001f1eb\U0001f1f7",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\r\n",
    "a",
    "x",
    " ",
    ".",
]


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize(
    ("text", "ceiling", "expected"),
    [
        ("\u0915\u094d\u0937", 3, ["\u0915\u094d\u0937"]),
        ("\u0915\u094d\u0937" * 2, 3, ["\u0915\u094d\u0937"] * 2),
        ("xx\u0e19\u0e49\u0e33", 3, ["xx", "\u0e19\u0e49\u0e33"]),
        ("\u2764\ufe0f!", 3, ["\u2764\ufe0f", "!"]),
        (
            "\U0001f468\u200d\U0001f469\u200d\U0001f467.",
            13,
            ["\U0001f468\u200d\U0001f469\u200d\U0001f467", "."],
        ),
    ],
)
def test_a_cluster_that_takes_the_whole_token_limit_is_kept_whole(
    fill: bool, text: str, ceiling: int, expected: list[str]
) -> None:
    # Before: the window is cut where the estimate passes the limit, and the
    # longest prefix that estimates within it stopped inside a cluster of
    # exactly max_tokens tokens: 'क्', 'ष' under max_tokens=3.
    for level in ("word", "sentence", "paragraph"):
        chunker = limit(level, max_tokens=ceiling, tokenizer=CL100K, fill=fill)
        assert chunker.split_text(text) == expected, (level, fill)
        check(chunker, text, list(text), CL100K)


@pytest.mark.parametrize("fill", [False, True])
@given(
    clusters=st.lists(st.sampled_from(TOKEN_CLUSTERS), max_size=30),
    ceiling=st.integers(3, 14),
    level=st.sampled_from(["word", "line", "sentence"]),
    data=st.data(),
)
def test_token_hard_cuts_keep_the_clusters_that_fit_whole(
    fill: bool, clusters: list[str], ceiling: int, level: str, data: st.DataObject
) -> None:
    text = "".join(clusters)
    chunker = limit(level, max_tokens=ceiling, tokenizer=CL100K, fill=fill)
    check(chunker, text, data.draw(sliced(st.just(text)))[1], CL100K)
    starts = list(itertools.accumulate(map(len, clusters), initial=0))
    for a, b in split_spans(chunker, text):
        for cut in (a, b):
            i = bisect.bisect_right(starts, cut) - 1
            if starts[i] != cut:  # inside a cluster: only one over the limit
                assert tokens(clusters[i]) > ceiling, (text[a:b], clusters[i])


def _prefixing_tokenizer() -> Any:
    """A SentencePiece-style tokenizer built offline: Metaspace puts "\u2581" before
    the text (a token its bytes do not pay for), no merges (a token a
    character), and a template adding [CLS] and [SEP] (special tokens, not
    counted)."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, processors

    vocab = ["[UNK]", "[CLS]", "[SEP]", "\u2581", *"0123456789abcxyz.,!?-#`"]
    tok = tokenizers.Tokenizer(
        models.BPE({t: i for i, t in enumerate(vocab)}, [], unk_token="[UNK]")
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    return tok


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize("level", LEVELS)
def test_held_back_text_within_the_ceiling_when_the_tokenizer_adds_a_prefix(
    level: str, fill: bool
) -> None:
    # Before: the held-back text was bounded by its UTF-8 bytes, but "0000" is
    # five tokens ("\u2581", then a digit each) in four bytes: one over max_tokens=4.
    tok = _prefixing_tokenizer()
    assert len(tok.encode("0000", add_special_tokens=False).ids) == 5
    assert len(tok.encode("0000").ids) == 7  # [CLS] and [SEP]: not counted (documented)
    chunker = limit(level, max_tokens=4, tokenizer=tok, fill=fill)
    check(chunker, "0000", list("0000"), tok)
    assert chunker.split_text("0000 ab") == ["000", "0", "ab"]


@pytest.mark.parametrize("fill", [False, True])
@given(
    case=sliced(st.text(alphabet="0ab \n.#`\u00e9", max_size=60)),
    ceiling=st.integers(4, 24),
    level=st.sampled_from(LEVELS),
)
def test_token_ceiling_properties_with_a_tokenizer_that_adds_a_prefix(
    fill: bool, case: tuple[str, list[str]], ceiling: int, level: str
) -> None:
    text, deltas = case
    tok = _prefixing_tokenizer()
    check(limit(level, max_tokens=ceiling, tokenizer=tok, fill=fill), text, deltas, tok)


def test_a_tokenizer_passed_as_length_is_bounded_by_its_bytes() -> None:
    # The README: a tokenizer's count may be higher for a prefix than for the
    # text (4 tokens, then 3); passed as the object, it is bounded by the
    # text's UTF-8 bytes and a stream cuts as the text at once; a function
    # around it keeps every chunk within the size, however it cuts.
    text = "aaxxxxxxxxx"
    assert (tokens(text[:-1]), tokens(text)) == (4, 3)
    check(limit("word", max_chars=3, length=CL100K), text, list(text), CL100K)
    wrapped = limit("word", max_chars=3, length=tokens)
    for deltas in ([text], list(text)):
        chunks = [p.chunk for p in stream_pieces(wrapped, deltas) if p.chunk]
        assert "".join(chunks) == text
        assert all(tokens(chunk) <= 3 for chunk in chunks)


def stream_pieces(chunker: Sized, deltas: list[str]) -> list[Any]:
    held = ChunkStream(chunker)
    return [piece for delta in deltas for piece in held.feed(delta)] + held.close()


def _expanding_tokenizer() -> Any:
    """A tokenizer built offline whose NFKC normalizer writes a character
    longer than its bytes: "\u00bd" (two bytes) is "1\u20442", three tokens."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, normalizers, pre_tokenizers

    vocab = ["[UNK]", *"0123456789abc.\u2044"]
    tok = tokenizers.Tokenizer(
        models.BPE({t: i for i, t in enumerate(vocab)}, [], unk_token="[UNK]")
    )
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return tok


@pytest.mark.parametrize("fill", [False, True])
@pytest.mark.parametrize("level", LEVELS)
def test_held_back_text_within_the_ceiling_when_the_tokenizer_normalizes_it_longer(
    level: str, fill: bool
) -> None:
    # Before: the held-back text was bounded by its UTF-8 bytes (and one token
    # before them), but "\u00bd\u00bd" is six tokens in four bytes once
    # normalized: held back whole under max_tokens=5.
    tok = _expanding_tokenizer()
    assert len(tok.encode("\u00bd\u00bd", add_special_tokens=False).ids) == 6
    text = "\u00bd\u00bd a."
    check(limit(level, max_tokens=5, tokenizer=tok, fill=fill), text, list(text), tok)


@pytest.mark.parametrize("fill", [False, True])
@given(
    case=sliced(st.text(alphabet="ab1 \n.\u00bd\u00bc\u2153", max_size=60)),
    ceiling=st.integers(4, 24),
    level=st.sampled_from(LEVELS),
)
def test_token_ceiling_properties_with_a_normalizing_tokenizer(
    fill: bool, case: tuple[str, list[str]], ceiling: int, level: str
) -> None:
    text, deltas = case
    tok = _expanding_tokenizer()
    check(limit(level, max_tokens=ceiling, tokenizer=tok, fill=fill), text, deltas, tok)
