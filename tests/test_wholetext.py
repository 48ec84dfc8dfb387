"""Whole-document fast paths (chunkers/_wholetext.py) give exactly the streaming layout."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy
from guardrails_ai.chunkwise.chunkers._wholetext import word_groups
from guardrails_ai.chunkwise.chunkers.limits import Grouped

#: Words and whitespace runs of every kind ``\s`` and ``str.split`` agree on.
_PIECES = ["a", "bb", "word", "x" * 9, "é", "。", " ", "  ", "\n", "\t", "\r\n", "\x1c", "\u00a0",
           "\u2028", "   \n\n "]
word_texts = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=60).map("".join),
    st.text(alphabet="ab \n\t\x0b\x1f\u3000", max_size=50),
)


@given(word_texts, st.integers(1, 40), st.integers(1, 8))
def test_word_groups_are_the_streaming_groups(text: str, max_chars: int, size: int) -> None:
    grouped = Grouped("word", size, max_chars=max_chars)
    streamed = ChunkingStrategy.locate(grouped, text)
    fast = word_groups(text, size, max_chars)
    if fast is not None:
        groups, fragment = fast
        assert groups == [(c.start, c.end) for c in streamed.cuts]
        assert fragment == streamed.fragment
    assert grouped.locate(text) == streamed


def test_word_groups_take_the_fast_path_on_ordinary_text() -> None:
    text = "Alpha beta gamma, delta.\n\n  Epsilon zeta eta\ttheta. " * 40
    for max_chars, size in ((20, 3), (100, 60), (1000, 60), (1000, 10_000)):
        fast = word_groups(text, size, max_chars)
        assert fast is not None
        streamed = ChunkingStrategy.locate(Grouped("word", size, max_chars=max_chars), text)
        assert fast[0] == [(c.start, c.end) for c in streamed.cuts]
        assert fast[1] == streamed.fragment


def test_word_groups_leave_fallback_cuts_to_the_general_path() -> None:
    assert word_groups("x" * 12 + " tail", 3, 10) is None
    assert word_groups("a" + " " * 12 + "b c", 3, 10) is None
