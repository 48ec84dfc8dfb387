"""Whole-document fast paths (chunkers/replay.py) give exactly the streaming layout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    LineChunker,
    ParagraphChunker,
    WordChunker,
)
from guardrails_ai.chunkwise.chunkers.limits import Bounded, Grouped
from guardrails_ai.chunkwise.chunkers.replay import line_chunks, unit_groups

#: Units and separators of every kind the three chunkers tell apart.
_PIECES = [
    "a",
    "bb",
    "word",
    "x" * 9,
    "é",
    "。",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "\r",
    "\r\n",
    "\x1c",
    "\u00a0",
    "\u2028",
    "   \n\n ",
    " \n",
    "\n\n\n",
]
unit_texts = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=60).map("".join),
    st.text(alphabet="ab \n\r\t\x0b\x1f\u3000", max_size=50),
)
UNITS = [WordChunker(), LineChunker(), LineChunker(crlf=False), ParagraphChunker()]
units = pytest.mark.parametrize("inner", UNITS, ids=["word", "line", "line-lf", "paragraph"])


@units
@given(unit_texts, st.integers(1, 40), st.integers(1, 8))
def test_unit_groups_are_the_streaming_groups(
    inner: ChunkingStrategy, text: str, max_chars: int, size: int
) -> None:
    grouped = Grouped(inner, size, max_chars=max_chars)
    streamed = ChunkingStrategy.locate(grouped, text)
    fast = unit_groups(inner, text, size, max_chars)
    assert fast is not None
    groups, fragment, stop = fast
    cuts = [(c.start, c.end) for c in streamed.cuts]
    if stop is None:
        assert groups == cuts
        assert fragment == streamed.fragment
    else:  # the groups before the first fallback cut
        assert groups == cuts[: len(groups)]
        assert stop == (groups[-1][1] if groups else 0)
    assert grouped.locate(text) == streamed
    assert grouped.split_text(text) == ChunkingStrategy.split_text(grouped, text)


@units
def test_unit_groups_take_the_fast_path_on_ordinary_text(inner: ChunkingStrategy) -> None:
    text = "Alpha beta gamma, delta.\r\n\n  Epsilon zeta eta\ttheta. \n" * 40
    for max_chars, size in ((60, 3), (100, 60), (1000, 60), (1000, 10_000)):
        fast = unit_groups(inner, text, size, max_chars)
        assert fast is not None and fast[2] is None
        streamed = ChunkingStrategy.locate(Grouped(inner, size, max_chars=max_chars), text)
        assert fast[0] == [(c.start, c.end) for c in streamed.cuts]
        assert fast[1] == streamed.fragment


def test_unit_groups_leave_fallback_cuts_to_the_general_path() -> None:
    def stop(inner: ChunkingStrategy, text: str) -> int | None:
        fast = unit_groups(inner, text, 3, 10)
        assert fast is not None
        return fast[2]

    assert stop(WordChunker(), "x" * 12 + " tail") == 0
    assert stop(WordChunker(), "a b " + " " * 12 + "b c") == 3
    assert stop(LineChunker(), "short\n" + "y" * 12 + "\nz") == 5
    assert stop(ParagraphChunker(), "\nleading line break") == 0
    assert unit_groups(ParagraphChunker(crlf=True), "a\n\nb", 3, 10) is None


def test_fast_groups_resume_after_fallback_cuts() -> None:
    text = ("Short one.\n\n" + "Long sentence here. " * 60 + "\n\n" + "Tiny.\n\n" * 30) * 20
    for inner in UNITS:
        for max_chars, size in ((50, 2), (300, 1000), (1000, 3)):
            grouped = Grouped(inner, size, max_chars=max_chars)
            assert grouped.locate(text) == ChunkingStrategy.locate(grouped, text)


def test_units_after_a_fallback_cut_are_not_dropped() -> None:
    # Regression: a unit after a fallback cut that left p short of a unit end.
    text = "a   \n\n \n\n"
    bounded = Bounded(ParagraphChunker(), 4)
    assert bounded.locate(text) == ChunkingStrategy.locate(bounded, text)
    assert bounded.split_text(text) == ["a", "   \n", " "]


_LINES = [
    "x" * 40,
    "word " * 20,
    "  indented",
    "",
    " ",
    "\t",
    " " * 70,
    "tail\r",
    "\r",
    "é" * 90,
    "y" * 150,
    "z" * 250 + "\r",
    "Long. Sentences here. " * 20,
]
line_texts = st.lists(st.sampled_from(_LINES), max_size=60).map("\n".join)


@given(line_texts, st.integers(133, 400), st.booleans())
def test_line_chunks_are_the_streaming_lines(text: str, max_chars: int, crlf: bool) -> None:
    bounded = Bounded(LineChunker(crlf=crlf), max_chars)
    streamed = ChunkingStrategy.split_text(bounded, text)
    fast = line_chunks(text, max_chars, crlf)
    if fast is not None:
        chunks, fallbacks = fast
        if not fallbacks:
            assert chunks == streamed
        else:  # exact up to the first line that needs a fallback cut
            a, _, count = fallbacks[0]
            assert chunks[:count] == streamed[:count]
            assert chunks[:count] == ChunkingStrategy.split_text(bounded, text[:a])
    assert bounded.split_text(text) == streamed


def test_line_chunks_gate() -> None:
    def fast(text: str, max_chars: int = 1000, crlf: bool = True) -> list[str] | None:
        got = line_chunks(text, max_chars, crlf)
        return got[0] if got is not None and not got[1] else None

    text = "a line\r\n\n  indented line\n \nlast"
    assert fast(text) == ["a line", "  indented line", "last"]
    assert fast(text, crlf=False) == ["a line\r", "  indented line", "last"]
    assert line_chunks(text, 132, True) is None  # no room for the blank lines
    assert fast("a\n" + "x" * 999 + "\nb") == ["a", "x" * 999, "b"]
    assert line_chunks("a\n\n" + "x" * 999 + "\nb", 1000, True) == (
        ["a", "x" * 999, "b"],
        [(1, 1003, 1)],
    )
    assert fast("a\n" + "x" * 998 + "\n \nb") == ["a", "x" * 998, "b"]
    assert fast("x" * 1000) == ["x" * 1000]
    assert line_chunks(" " + "x" * 1000, 1000, True) == ([" " + "x" * 1000], [(0, 1002, 0)])
    assert line_chunks("a\n\n\n\nb\n", 1000, True) is None  # three blank lines
    assert line_chunks("a\n" + " " * 65 + "\nb\n", 1000, True) is None  # a long blank line
    assert line_chunks("\n \n\nb\n", 1000, True) is None  # three blank lines at the start


def test_line_chunks_resume_after_fallback_cuts() -> None:
    text = ("Short line.\n" * 30 + "Long sentence here. " * 60 + "\n\n") * 20
    for crlf in (True, False):
        bounded = Bounded(LineChunker(crlf=crlf), 300)
        assert bounded.split_text(text) == ChunkingStrategy.split_text(bounded, text)
