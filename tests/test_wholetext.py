"""Whole-document fast paths (chunkers/_wholetext.py) give exactly the streaming layout."""

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
from guardrails_ai.chunkwise.chunkers._wholetext import unit_groups
from guardrails_ai.chunkwise.chunkers.limits import Bounded, Grouped

#: Units and separators of every kind the three chunkers tell apart.
_PIECES = ["a", "bb", "word", "x" * 9, "é", "。", " ", "  ", "\n", "\n\n", "\t", "\r", "\r\n",
           "\x1c", "\u00a0", "\u2028", "   \n\n ", " \n", "\n\n\n"]
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
    if fast is not None:
        groups, fragment = fast
        assert groups == [(c.start, c.end) for c in streamed.cuts]
        assert fragment == streamed.fragment
    assert grouped.locate(text) == streamed


@units
def test_unit_groups_take_the_fast_path_on_ordinary_text(inner: ChunkingStrategy) -> None:
    text = "Alpha beta gamma, delta.\r\n\n  Epsilon zeta eta\ttheta. \n" * 40
    for max_chars, size in ((60, 3), (100, 60), (1000, 60), (1000, 10_000)):
        fast = unit_groups(inner, text, size, max_chars)
        assert fast is not None
        streamed = ChunkingStrategy.locate(Grouped(inner, size, max_chars=max_chars), text)
        assert fast[0] == [(c.start, c.end) for c in streamed.cuts]
        assert fast[1] == streamed.fragment


def test_unit_groups_leave_fallback_cuts_to_the_general_path() -> None:
    assert unit_groups(WordChunker(), "x" * 12 + " tail", 3, 10) is None
    assert unit_groups(WordChunker(), "a" + " " * 12 + "b c", 3, 10) is None
    assert unit_groups(LineChunker(), "short\n" + "y" * 12 + "\nz", 3, 10) is None
    assert unit_groups(ParagraphChunker(), "\nleading line break", 3, 10) is None
    assert unit_groups(ParagraphChunker(crlf=True), "a\n\nb", 3, 10) is None


def test_units_after_a_fallback_cut_are_not_dropped() -> None:
    # Regression: a unit after a fallback cut that left p short of a unit end.
    text = "a   \n\n \n\n"
    bounded = Bounded(ParagraphChunker(), 4)
    assert bounded.locate(text) == ChunkingStrategy.locate(bounded, text)
    assert bounded.split_text(text) == ["a", "   \n", " "]
