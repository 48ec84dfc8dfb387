"""max_chars ceilings, chunk_size groups and whole-document overlap (chunkers/limits.py).

Properties on random text and random slicings for every registered chunker
(and a foreign ``split``/``flush`` object) under :class:`Bounded` and
:class:`Grouped`; example tests pin the fallback chain, the overlap rules, the
boundary-smart-splitter regressions and parameter checking.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from helpers.chunking import sliced, stream
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    ChunkStream,
    LineChunker,
    ParagraphChunker,
    RegexChunker,
    Scanner,
    SentenceChunker,
    WordChunker,
    aliases,
    resolve_chunker,
)
from guardrails_ai.chunkwise.chunkers.limits import (
    Bounded,
    Grouped,
    fallback_chain,
    limit,
    split_spans,
)
from guardrails_ai.chunkwise.chunkers.replay import bounded_replay, unit_spans

#: Chunkers that may refuse some texts (see test_chunkers_properties.MAY_REFUSE).
_SKIP = {"guardrails"}


class Foreign:
    """An object with ``split``/``flush`` only."""

    def __init__(self) -> None:
        self._inner = SentenceChunker(mode="simple")

    def split(self, accumulated_text: str) -> list[str]:
        return self._inner.split(accumulated_text)

    def flush(self, accumulated_text: str) -> list[str]:
        return self._inner.flush(accumulated_text)

    def __repr__(self) -> str:
        return "Foreign()"


INNER = {a: resolve_chunker(a) for a in aliases() if a not in _SKIP}
INNER["regex"] = RegexChunker(r"[;|]+")
INNER["foreign"] = Foreign()
inner_params = pytest.mark.parametrize("inner", list(INNER.values()), ids=list(INNER))

WORDS = ["a", "bb", "word", "longerword", "Dr.", "U.S.", "3.14", "x" * 13, "e.g.", "It", ";", "|"]
SEPS = [" ", " ", "  ", "\n", "\n\n", "\n\n\n", ". ", "! ", "? ", "\t", "\r\n", "\u00a0", ".\n\n"]
texts = st.one_of(
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SEPS)), max_size=30).map("".join),
    st.text(alphabet="ab .\n", max_size=40),
    st.text(max_size=12),
)


def word_at(text: str, i: int) -> str:
    """The whitespace-free run around the gap before ``text[i]``."""
    a = i
    while a > 0 and not text[a - 1].isspace():
        a -= 1
    b = i
    while b < len(text) and not text[b].isspace():
        b += 1
    return text[a:b]


def check_no_word_cut(text: str, spans: list[tuple[int, int]], max_chars: int) -> None:
    for a, b in spans:
        for i in (a, b):
            if 0 < i < len(text) and not text[i - 1].isspace() and not text[i].isspace():
                assert len(word_at(text, i)) > max_chars, (text, spans, i)


def check_stream(chunker: ChunkingStrategy, text: str, deltas: list[str], bound: int) -> None:
    pieces = stream(chunker, deltas, bound)
    assert "".join(p.segment for p in pieces) == text
    chunks = [p.chunk for p in pieces if p.chunk is not None]
    assert chunks == chunker.split(text) + chunker.flush(text) == chunker.split_text(text)
    for p in pieces:
        assert len(p.segment) <= bound
        assert p.chunk != ""
    spans = split_spans(chunker, text)
    assert [text[a:b] for a, b in spans] == chunks
    if not isinstance(getattr(chunker, "inner", None), RegexChunker):  # its own cuts may
        check_no_word_cut(text, spans, bound)  # fall inside a whitespace-delimited word
    check_no_gap_leads_a_chunk(chunker, text, spans)


def check_no_gap_leads_a_chunk(
    chunker: ChunkingStrategy, text: str, spans: list[tuple[int, int]]
) -> None:
    """The whitespace after a chunk on its line leads the next segment, never
    its chunk (a line's indentation may), unless the inner chunker's own
    chunk starts there or the chunk is that whitespace alone.  Was broken: a
    fallback cut at the line level kept the gap (``limit("sentence",
    max_chars=20)`` gave ``' With two sentences.'`` when a line break followed)."""
    inner = getattr(chunker, "inner", None)
    if inner is None:
        return
    starts = {a for a, _ in split_spans(inner, text)}
    for a, b in spans:
        if a > 0 and text[a].isspace() and text[a - 1] != "\n" and text[a:b].strip():
            assert a in starts, (text, spans, a)


@inner_params
@given(sliced(texts), st.integers(1, 30))
def test_bounded_stream(inner: object, case: tuple[str, list[str]], max_chars: int) -> None:
    text, deltas = case
    check_stream(Bounded(inner, max_chars), text, deltas, max_chars)  # type: ignore[arg-type]


@inner_params
@given(sliced(texts), st.integers(1, 30), st.integers(1, 4))
def test_grouped_stream(
    inner: object, case: tuple[str, list[str]], max_chars: int, size: int
) -> None:
    text, deltas = case
    grouped = limit(inner, max_chars=max_chars, chunk_size=size)  # type: ignore[arg-type]
    assert isinstance(grouped, ChunkingStrategy)
    check_stream(grouped, text, deltas, max_chars)


@inner_params
@given(sliced(texts), st.integers(1, 4))
def test_grouped_without_ceiling_groups_units(
    inner: object, case: tuple[str, list[str]], size: int
) -> None:
    text, deltas = case
    grouped = Grouped(inner, size)  # type: ignore[arg-type]
    pieces = stream(grouped, deltas, None)
    assert "".join(p.segment for p in pieces) == text
    units = split_spans(inner, text)  # type: ignore[arg-type]
    expected = [
        (units[i][0], units[min(i + size, len(units)) - 1][1]) for i in range(0, len(units), size)
    ]
    assert split_spans(grouped, text) == expected


@inner_params
@given(texts)
def test_a_ceiling_that_is_never_reached_changes_nothing(inner: object, text: str) -> None:
    bounded = Bounded(inner, len(text) + 1)  # type: ignore[arg-type]
    assert bounded.split_text(text) == split_spans_text(inner, text)


def split_spans_text(chunker: object, text: str) -> list[str]:
    return [text[a:b] for a, b in split_spans(chunker, text)]  # type: ignore[arg-type]


@inner_params
@given(texts, st.integers(1, 30), st.integers(1, 4), st.data())
def test_overlap(inner: object, text: str, max_chars: int, size: int, data: st.DataObject) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    chunker = Grouped(inner, size, max_chars=max_chars, overlap=overlap)  # type: ignore[arg-type]
    units = split_spans(chunker.units, text)
    spans = chunker.split_spans(text)
    assert chunker.split_text(text) == [text[a:b] for a, b in spans]
    if not units:
        assert spans == []
        return
    index = {u: i for i, u in enumerate(units)}
    previous: tuple[int, int] | None = None
    for a, b in spans:
        assert b - a <= max_chars
        first = next(i for i, u in enumerate(units) if u[0] == a)
        last = next(i for i, u in enumerate(units) if u[1] == b)
        assert 1 <= last - first + 1 <= size
        if previous is not None:
            shared = previous[1] - first + 1  # units repeated from the previous chunk
            assert 0 <= shared <= overlap
            assert last > previous[1]
        else:
            assert first == 0
        previous = (first, last)
    assert previous is not None and previous[1] == len(units) - 1
    assert index  # every unit was covered: starts chain without gaps (checked above)


@inner_params
@given(texts, st.integers(1, 30), st.integers(1, 4))
def test_whole_document_fast_path_gives_the_streaming_layout(
    inner: object, text: str, max_chars: int, size: int
) -> None:
    bounded = Bounded(inner, max_chars)  # type: ignore[arg-type]
    assert bounded.locate(text) == ChunkingStrategy.locate(bounded, text)
    grouped = Grouped(inner, size, max_chars=max_chars)  # type: ignore[arg-type]
    assert grouped.locate(text) == ChunkingStrategy.locate(grouped, text)
    assert grouped.split_text(text) == ChunkingStrategy.split_text(grouped, text)
    if getattr(inner, "alias", "") in {"word", "paragraph", "line"}:
        assert (
            bounded_replay(bounded.inner, bounded.max_chars, bounded.fallback, text) is not None
        )  # the fast path was taken


@pytest.mark.parametrize(
    "inner",
    [WordChunker(), ParagraphChunker(), LineChunker(), LineChunker(crlf=False)],
    ids=["word", "paragraph", "line", "line-lf"],
)
@given(st.one_of(texts, st.text(alphabet="ab \n\t\r\x1c\u00a0", max_size=30)))
def test_regex_unit_spans_match_the_scanners(inner: ChunkingStrategy, text: str) -> None:
    layout = inner.locate(text)
    assert unit_spans(inner, text) == (
        [c.start for c in layout.cuts],
        [c.end for c in layout.cuts],
        layout.fragment,
    )


def test_fast_path_on_long_texts() -> None:
    text = ("Alpha beta. " * 7 + "\n" + "x" * 40 + "\n\n") * 12
    for inner in ("word", "line", "paragraph", SentenceChunker(mode="simple")):
        for max_chars in (9, 37, 100, 1000):
            bounded = Bounded(inner, max_chars)
            assert (
                bounded_replay(bounded.inner, bounded.max_chars, bounded.fallback, text) is not None
            )
            assert bounded.locate(text) == ChunkingStrategy.locate(bounded, text)
            grouped = Grouped(inner, 3, max_chars=max_chars)
            assert grouped.locate(text) == ChunkingStrategy.locate(grouped, text)


# Examples ------------------------------------------------------------------


def test_fallback_chain_goes_down_one_level_at_a_time() -> None:
    text = (
        "Short one. Then a much longer sentence that cannot fit in the limit at all. "
        "Supercalifragilisticexpialidocious!\n\nNext paragraph."
    )
    chunks = limit("paragraph", max_chars=30).split_text(text)
    assert chunks == [
        "Short one.",  # the sentence level
        "Then a much longer sentence",  # the word level
        "that cannot fit in the limit",
        "at all.",
        " ",  # whitespace that cannot lead the (unknown-length) word after it
        "Supercalifragilisticexpialidoc",  # a hard cut: the word is longer than 30
        "ious!",
        "Next paragraph.",  # the paragraph level again
    ]
    assert all(len(c) <= 30 for c in chunks)


def test_a_response_without_punctuation_gets_a_chunk_every_max_chars() -> None:
    text = "word " * 200
    stream_ = ChunkStream(Bounded("sentence", 50))
    released = 0
    for i in range(0, len(text), 3):
        pieces = stream_.feed(text[i : i + 3])
        released += sum(len(p.segment) for p in pieces)
        assert i + 3 - released <= 50
    chunks = Bounded("sentence", 50).split_text(text)
    assert all(46 <= len(c) <= 50 for c in chunks[:-1])


def test_whitespace_that_cannot_travel_with_the_next_word_is_a_segment_of_its_own() -> None:
    assert Bounded("word", 5).split_text("alpha alpha") == ["alpha", " ", "alpha"]
    assert Bounded("word", 6).split_text("alpha alpha") == ["alpha", "alpha"]
    assert Bounded("word", 6).segments("alpha alpha") == ["alpha", " alpha"]
    assert Bounded("word", 3).split_text("x" + " " * 7) == ["x", "   ", "   "]


@pytest.mark.parametrize("measured", [False, True])
@pytest.mark.parametrize("gap", ["\n", " \n", "\r\n", "\n  "])
def test_the_line_break_after_a_cut_leads_the_next_segment_not_its_chunk(
    gap: str, measured: bool
) -> None:
    # Before: ['aa', '\nmore words here'] with max_chars=17: the paragraph
    # level keeps a single line break before a paragraph, and the cut after
    # "aa" left it at the head of the next chunk.  Indentation stays.
    text = f"aa{gap}more words here\n\n"
    ceiling = 16 + len(gap)
    chunker = (
        limit("structure", max_chars=ceiling, length=lambda s: len(s))
        if measured  # a Sized chunker, capped
        else Bounded("structure", ceiling)
    )
    indent = gap[gap.rfind("\n") + 1 :]
    assert [c.rstrip() for c in chunker.split_text(text)] == ["aa", f"{indent}more words here"]
    pieces = stream(chunker, list(text))
    assert [p.chunk for p in pieces if p.chunk is not None] == chunker.split_text(text)
    assert "".join(p.segment for p in pieces) == text


def test_bss_overlap_regression_never_exceeds_the_ceiling() -> None:
    # boundary-smart-splitter 1.0.2 returned ['alpha', 'aalpha'] here.
    chunker = limit("word", max_chars=5, chunk_size=2, overlap=1)
    chunks = chunker.split_text("alpha alpha")
    assert all(len(c) <= 5 for c in chunks)
    assert [c for c in chunks if c.strip()] == ["alpha", "alpha"]
    assert limit("word", max_chars=11, chunk_size=2, overlap=1).split_text("alpha beta gamma") == [
        "alpha beta",
        "beta gamma",
    ]


def test_overlap_shrinks_to_fit_the_ceiling() -> None:
    chunker = limit("sentence", chunk_size=3, overlap=2, max_chars=40)
    text = "One. Two. Three. A much longer sentence here. Five."
    chunks = chunker.split_text(text)
    assert chunks == [
        "One. Two. Three.",
        "Two. Three. A much longer sentence here.",  # 40 characters
        "A much longer sentence here. Five.",  # overlap 1: two units would not fit
    ]


def test_overlap_without_ceiling_repeats_units() -> None:
    chunker = limit("word", chunk_size=3, overlap=1)
    assert chunker.split_text("a b c d e f g") == ["a b c", "c d e", "e f g"]
    assert chunker.split("a b c d e f g") == ["a b c", "d e f"]  # streaming: no overlap
    assert chunker.flush("a b c d e f g") == ["g"]
    assert split_spans(chunker, "a b c d e") == [(0, 5), (4, 9)]


def test_chunk_size_counts_units() -> None:
    grouped = limit("sentence", chunk_size=2)
    text = "One. Two. Three. Four. Five."
    assert grouped.split_text(text) == ["One. Two.", "Three. Four.", "Five."]
    assert limit("paragraph", chunk_size=2, max_chars=12).split_text(
        "one\n\ntwo\n\nthree four five\n\nsix"
    ) == ["one\n\ntwo", "three four", "five\n\nsix"]  # a piece of a long unit is a unit


def test_default_fallback_chains() -> None:
    def names(spec: str) -> list[str]:
        return [type(s).__name__ for s in fallback_chain(spec)]

    assert names("paragraph") == ["LineChunker", "SentenceChunker", "WordChunker"]
    assert names("sentence") == ["LineChunker", "WordChunker"]
    assert names("word") == []
    assert names(Foreign()) == ["SentenceChunker", "WordChunker"]  # type: ignore[arg-type]
    assert names(Bounded("paragraph", 9)) == ["LineChunker", "SentenceChunker", "WordChunker"]
    if "structure" in aliases():
        assert names("structure") == [
            "ParagraphChunker",
            "LineChunker",
            "SentenceChunker",
            "WordChunker",
        ]


def test_custom_fallback() -> None:
    bounded = Bounded("paragraph", 10, fallback=["word"])
    assert bounded.split_text("aa. bb. cc. dd") == ["aa. bb.", "cc. dd"]
    assert Bounded("paragraph", 10, fallback=[]).split_text("aa. bb. cc. dd") == [
        "aa. bb. cc",
        ". dd",
    ]


def test_limit_returns_the_chunker_itself_without_limits() -> None:
    assert isinstance(limit("word"), WordChunker)
    assert isinstance(limit("word", max_chars=3), Bounded)
    assert isinstance(limit("word", chunk_size=2), Grouped)
    assert repr(limit("word", max_chars=3)) == repr(Bounded("word", 3))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_chars": 0}, ValueError, "max_chars must be >= 1, got 0"),
        ({"max_chars": True}, TypeError, "max_chars must be an int, got bool"),
        ({"max_chars": 2.5}, TypeError, "max_chars must be an int, got float"),
        ({"chunk_size": 0}, ValueError, "chunk_size must be >= 1, got 0"),
        ({"chunk_size": "3"}, TypeError, "chunk_size must be an int, got str"),
        ({"chunk_size": 2, "overlap": 2}, ValueError, "overlap must be < chunk_size=2, got 2"),
        ({"chunk_size": 2, "overlap": -1}, ValueError, "overlap must be >= 0, got -1"),
        ({"chunk_size": 2, "overlap": False}, TypeError, "overlap must be an int, got bool"),
        (
            {"overlap": 1},
            ValueError,
            "overlap=1 needs chunk_size (units per chunk) greater than it; "
            "chunk_size was not given (it defaults to 1)",
        ),
        ({"fallback": ["word"]}, ValueError, "fallback=['word'] needs max_chars"),
        ({"max_chars": 5, "fallback": "word"}, TypeError, "fallback must be a list"),
        ({"max_chars": 5, "fallback": ["nope"]}, ValueError, "fallback[0]='nope'"),
    ],
)
def test_bad_parameters_are_named(kwargs: dict[str, object], error: type, message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        limit("word", **kwargs)  # type: ignore[arg-type]


def test_bad_inner_is_named() -> None:
    with pytest.raises(ValueError, match="inner='nope'"):
        Bounded("nope", 3)
    with pytest.raises(TypeError, match="inner must be"):
        Grouped(42, 3)  # type: ignore[arg-type]


# Cost ----------------------------------------------------------------------


class _Counted(Scanner):
    def __init__(self, inner: Scanner, counter: list[int]) -> None:
        self._inner = inner
        self._counter = counter

    def feed(self, delta: str) -> list:  # type: ignore[type-arg]
        self._counter[0] += len(delta)
        return self._inner.feed(delta)

    def finish(self) -> tuple[int, int] | None:
        return self._inner.finish()


class _CountedWord(WordChunker):
    def __init__(self, counter: list[int]) -> None:
        self.counter = counter

    def scanner(self) -> Scanner:
        return _Counted(super().scanner(), self.counter)


@pytest.mark.parametrize(
    "text",
    [
        "x" * 20_000,  # no boundary at all: hard cuts
        " " * 20_000,  # whitespace only
        ("word " * 4000),  # words only
        ("a" * 30 + " ") * 600,  # words near the ceiling
    ],
    ids=["boundary-free", "spaces", "words", "long-words"],
)
@pytest.mark.parametrize("delta", [1, 7, 100_000])
def test_fallback_work_is_linear(text: str, delta: int) -> None:
    inner_count = [0]
    fallback_count = [0]
    bounded = Bounded(_CountedWord(inner_count), 64, fallback=[_CountedWord(fallback_count)])
    cs = ChunkStream(bounded)
    for i in range(0, len(text), delta):
        cs.feed(text[i : i + delta])
        assert len(cs.pending) <= 64
    cs.close()
    assert inner_count[0] == len(text)  # the inner scanner sees every character once
    assert fallback_count[0] <= 3 * len(text)


# Through a real Guard ------------------------------------------------------


def test_a_bounded_chunker_through_a_guard_validates_every_chunk_within_the_ceiling() -> None:
    from helpers.guardrails import Record, guard_with, joined, run

    from guardrails_ai.chunkwise import MaxChunkLength

    text = (
        "no punctuation at all in this first long stretch of model output that goes on "
        "and on without ever ending a sentence "
        * 2
        + "Then a short one. And a word: "
        + "z" * 70
        + " end"
    )
    chunker = limit("sentence", max_chars=40, chunk_size=2)
    record = Record(chunker=chunker, on_fail="exception")
    # A length validator with the same ceiling never fails: the chunker keeps it.
    length = MaxChunkLength(max_chars=40, chunker=chunker, on_fail="exception")
    deltas = [text[i : i + 41] for i in range(0, len(text), 41)]  # few deltas: Guard is slow
    assert joined(run(guard_with(record, length), deltas)) == text
    assert record.seen == chunker.split_text(text)
    assert all(len(chunk) <= 40 for chunk in record.seen)


#: What a reader sees as one character: a hard cut must not fall inside one.
CLUSTERS = [
    "a",
    "e\u0301",  # a combining accent
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family joined by ZWJ
    "\U0001f1eb\U0001f1f7",  # a flag: two regional indicators
    "\U0001f44d\U0001f3fd",  # an emoji modifier
    "\u2764\ufe0f",  # a variation selector
    "\u0915\u094d\u0937",  # Devanagari with a virama (a mark)
    "\r\n",
    "\u0e19\u0e49\u0e33",  # Thai: a tone mark and the vowel AM (a letter by category)
    "\u06cc\u200c",  # a letter and ZWNJ (Persian)
    "\uff76\uff9e",  # halfwidth katakana and its voiced sound mark
    "\u1100\u1161\u11a8",  # a Hangul syllable in conjoining jamo (L V T)
    "\uac00\u11a8",  # a precomposed syllable (LV) and a final jamo (T)
]


@given(
    st.lists(st.sampled_from(CLUSTERS), max_size=40),
    st.integers(5, 12),
    st.sampled_from(["word", "line", "sentence"]),
    st.booleans(),
    st.data(),
)
def test_hard_cuts_keep_grapheme_clusters_whole(
    clusters: list[str], max_chars: int, level: str, fill: bool, data: st.DataObject
) -> None:
    # Before: a hard cut counted code points only: 'e' and its accent, the
    # halves of a flag, a ZWJ sequence, CR and LF went to different chunks.
    text = "".join(clusters)
    bounds = {0, *itertools.accumulate(map(len, clusters))}
    chunker = limit(level, max_chars=max_chars, fill=fill)
    check_stream(chunker, text, data.draw(sliced(st.just(text)))[1], max_chars)
    for a, b in split_spans(chunker, text):
        assert a in bounds and b in bounds, text[a:b]


@pytest.mark.parametrize(
    ("text", "max_chars", "expected"),
    [
        # A ZWJ that joins no emoji to an emoji, nor a letter to a virama, ends
        # its cluster: the cut after it keeps the cluster after it whole.
        ("\u200da\u0323\u0301", 3, ["\u200d", "a\u0323\u0301"]),
        ("_\u200d-\u0301", 3, ["_\u200d", "-\u0301"]),
        ("\u200d\u0915\u094d\u0937", 3, ["\u200d", "\u0915\u094d\u0937"]),
        ("a\u200d\U0001f600\u0301", 3, ["a\u200d", "\U0001f600\u0301"]),
        ("\u200d\u200d\U0001f1eb\U0001f1f7", 3, ["\u200d\u200d", "\U0001f1eb\U0001f1f7"]),
        # Joined: an emoji ZWJ sequence, a half form (virama, ZWJ, consonant).
        ("x\U0001f468\u200d\U0001f469", 3, ["x", "\U0001f468\u200d\U0001f469"]),
        ("x\u0915\u094d\u200d\u0937", 4, ["x", "\u0915\u094d\u200d\u0937"]),
        # Thai AM and Lao AM are letters by category, ZWNJ a format character and
        # the halfwidth sound marks modifier letters, but each extends the
        # cluster before it (UAX #29): a hard cut went between them.
        ("\u0e19\u0e49\u0e33\u0e17\u0e33", 4, ["\u0e19\u0e49\u0e33", "\u0e17\u0e33"]),
        ("ab\u0e84\u0eb3", 3, ["ab", "\u0e84\u0eb3"]),
        ("ab\u06cc\u200c", 3, ["ab", "\u06cc\u200c"]),
        ("ab\uff76\uff9e", 3, ["ab", "\uff76\uff9e"]),
        # Hangul jamo make one syllable (L V T, LV T, LVT T, L L V): a hard cut
        # went between them; two precomposed syllables are two clusters.
        ("ab\u1100\u1161\u11a8", 4, ["ab", "\u1100\u1161\u11a8"]),
        ("ab\uac00\u11a8", 3, ["ab", "\uac00\u11a8"]),
        ("ab\uac01\u11a8", 3, ["ab", "\uac01\u11a8"]),
        ("a\u1100\u1100\u1161", 3, ["a", "\u1100\u1100\u1161"]),
        ("\uac00\uac00\uac00", 2, ["\uac00\uac00", "\uac00"]),
    ],
)
def test_hard_cuts_keep_these_clusters_whole(
    text: str, max_chars: int, expected: list[str]
) -> None:
    # Was broken: a ZWJ joined whatever followed it, so a stray one before a
    # letter made the cluster look longer than the chunk and the hard cut fell
    # inside the letter's accents or conjunct ('\u200da\u0323' | '\u0301').
    for level in ("word", "line", "sentence"):
        for fill in (False, True):
            chunker = limit(level, max_chars=max_chars, fill=fill)
            assert chunker.split_text(text) == expected, (level, fill)
            check_stream(chunker, text, list(text), max_chars)


@pytest.mark.parametrize(
    "unit",
    ["e" + "\u0301" * 200, "\U0001f1eb", "\U0001f468\u200d", "\r\n", "\u0915\u094d", "\u1100"],
    ids=["marks", "regional-indicators", "zwj-chain", "crlf", "conjuncts", "hangul-jamo"],
)
@pytest.mark.parametrize("delta", [1, 7])
def test_cluster_cut_work_is_linear(unit: str, delta: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Runs where every hard cut falls inside a cluster (or a run of regional
    # indicators, whose parity is counted back to the window's start): the
    # characters a cut looks at grow with the text, not with its square.
    from guardrails_ai.chunkwise.chunkers import clusters

    looked = [0]
    for name in ("_extends", "_regional", "_hangul"):
        original = getattr(clusters, name)

        def counted(*args: str, _original: Any = original) -> Any:
            looked[0] += 1
            return _original(*args)

        monkeypatch.setattr(clusters, name, counted)

    def work(n: int) -> int:
        looked[0] = 0
        text = (unit * n)[:n]
        stream = ChunkStream(limit("word", max_chars=64))
        for i in range(0, n, delta):
            stream.feed(text[i : i + delta])
        stream.close()
        return looked[0]

    one, two = work(4000), work(8000)
    assert 0 < one and two <= 2.3 * one + 1000 and two <= 8 * 8000, (one, two)


#: A code block longer than the ceiling (a blank line in it), prose, then a
#: short block: the chunk cut after the first block's last lines starts inside it.
_TWO_BLOCKS = (
    "```py\nload = read(path)\n\nrows = parse(load)\nkeep = filter(rows)\nsave = write(keep)\n"
    "report = summary(save)\nprint(report)\n```\n"
    "Then install the tool that the script needs before you run it.\n"
    "```sh\npip install example\npython run.py\n```\n"
)


@pytest.mark.parametrize("inner", ["structure", "paragraph"])
@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("max_chars", [60, 80, 99])
def test_a_code_block_that_fits_is_not_cut_after_a_cut_inside_an_earlier_block(
    inner: str, grouped: bool, max_chars: int
) -> None:
    # Before: with max_chars=80, ['```py\nload = read(path)', ..., '```\nThen install the tool
    # that the script needs before you run it.\n```sh', 'pip install example\npython run.py\n```']:
    # a window that started inside the first block read its closing fence as an opening
    # one, and the short block, which fits, was cut after its opening fence.
    chunker = (
        limit(inner, max_chars=max_chars, chunk_size=2)
        if grouped
        else limit(inner, max_chars=max_chars)
    )
    small = "```sh\npip install example\npython run.py\n```"
    start = _TWO_BLOCKS.index(small)
    spans = chunker.split_spans(_TWO_BLOCKS)
    assert not [end for _, end in spans if start < end < start + len(small)]
    assert [(a, b) for a, b in spans if a <= start and start + len(small) <= b]
    pieces = stream(chunker, list(_TWO_BLOCKS))
    assert [(p.chunk_start, p.chunk_end) for p in pieces if p.chunk is not None] == spans


def test_a_code_block_that_fits_reaches_a_guard_whole_after_a_cut_inside_an_earlier_one() -> None:
    from helpers.guardrails import Record, guard_with, joined, run

    chunker = limit("structure", max_chars=80)
    record = Record(chunker=chunker, on_fail="exception")
    deltas = [_TWO_BLOCKS[i : i + 23] for i in range(0, len(_TWO_BLOCKS), 23)]
    assert joined(run(guard_with(record), deltas)) == _TWO_BLOCKS
    assert "```sh\npip install example\npython run.py\n```" in record.seen


@pytest.mark.parametrize(
    "make",
    [
        lambda n: limit("structure", max_chars=n),
        lambda n: limit("structure", max_chars=n, length=len),
        lambda n: limit("structure", max_chars=n, fill=True),
    ],
    ids=["bounded", "length", "fill"],
)
@pytest.mark.parametrize("slack", [0, 1])
def test_a_code_block_that_fits_only_without_its_lead_is_kept_whole(make: Any, slack: int) -> None:
    # Before: ['Intro sentence here.', '```py\nfirst = 1\nsecond = 2\nthird = 3', '```', ...]:
    # the block was counted with the blank line before it, which goes in no chunk,
    # and cut though it fits; the blank line is now a segment of its own.
    block = "```py\nfirst = 1\nsecond = 2\nthird = 3\n```"
    text = f"Intro sentence here.\n\n{block}\n\nAfter the block."
    chunker = make(len(block) + slack)
    assert block in chunker.split_text(text)
    pieces = stream(chunker, list(text))
    assert [p.chunk for p in pieces if p.chunk is not None] == chunker.split_text(text)
    assert "".join(p.segment for p in pieces) == text
