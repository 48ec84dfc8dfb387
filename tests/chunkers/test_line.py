"""LineChunker: one example test per documented rule, properties against a plain
reference, and linear work on adversarial text (counted, never timed).
"""

from __future__ import annotations

import pytest
from helpers.chunking import bad, check_stream, feed_work, linear, sliced
from helpers.chunking import stream as drive
from helpers.cost import Work, count_work
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    LineChunker,
    resolve_chunker,
)

# -- LineChunker --------------------------------------------------------------


def test_line_chunks_are_lines_without_their_line_ending() -> None:
    lc = LineChunker()
    assert lc.split("one\ntwo\nthr") == ["one", "two"]
    assert lc.flush("one\ntwo\nthr") == ["thr"]
    assert lc.segments("one\ntwo\nthr") == ["one\n", "two\n", "thr"]


def test_line_crlf_ending_is_not_part_of_the_chunk() -> None:
    assert LineChunker().split_text("a\r\nb\r\n") == ["a", "b"]
    assert LineChunker(crlf=False).split_text("a\r\nb\r\n") == ["a\r", "b\r"]
    # A lone "\r" never ends a line.
    assert LineChunker().split_text("a\rb\nc") == ["a\rb", "c"]


def test_line_blank_and_whitespace_only_lines_are_not_chunks() -> None:
    lc = LineChunker()
    text = "\n  \n\t\r\na\n\n \nb\n"
    assert lc.split_text(text) == ["a", "b"]
    # They travel as lead of the next line's segment.
    assert lc.segments(text) == ["\n  \n\t\r\na\n", "\n \nb\n"]


def test_line_keeps_indentation_and_trailing_spaces() -> None:
    assert LineChunker().split_text("  x = 1  \n\tif y:\n") == ["  x = 1  ", "\tif y:"]


def test_line_flush_is_byte_for_byte_or_nothing() -> None:
    lc = LineChunker()
    assert lc.flush("a\n  tail \r") == ["  tail \r"]
    assert lc.flush("a\n  \t") == []
    assert lc.flush("a\n") == []
    assert lc.flush("") == []


def test_line_crlf_split_across_deltas() -> None:
    pieces = drive(LineChunker(), ["a\r", "\nb\r", "\r\n"])
    assert [p.chunk for p in pieces] == ["a", "b\r"]


def test_line_rejects_a_non_bool_crlf() -> None:
    with bad(TypeError, "crlf", "'yes'"):
        LineChunker(crlf="yes")  # type: ignore[arg-type]


def test_line_alias() -> None:
    assert resolve_chunker("line") == LineChunker()


def line_reference(text: str, crlf: bool) -> list[str]:
    *complete, last = text.split("\n")
    chunks = [
        line[:-1] if crlf and line.endswith("\r") else line for line in complete if line.strip()
    ]
    return chunks + ([last] if last.strip() else [])


line_texts = st.text(alphabet="ab \t\r\n\u3000\x0b", max_size=40)


@given(crlf=st.booleans(), case=sliced(line_texts))
def test_line_properties(crlf: bool, case: tuple[str, list[str]]) -> None:
    text, deltas = case
    chunker = LineChunker(crlf=crlf)
    assert check_stream(chunker, text, deltas) == line_reference(text, crlf)


@pytest.mark.parametrize(
    "text",
    ["\n" * 20_000, "x" * 20_000, "\r" * 20_000, "\r\n" * 10_000, " \n" * 10_000],
    ids=["newlines", "one-line", "cr", "crlf", "blank-lines"],
)
def test_line_work_is_linear(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    from guardrails_ai.chunkwise.chunkers.line import _LineScanner

    work = count_work(monkeypatch, _LineScanner)

    def measure(n: int) -> Work:
        before = Work(work.examined, work.window, work.calls)
        feed_work(LineChunker(), (text * 3)[:n], 4, work)
        return Work(
            work.examined - before.examined, work.window - before.window, work.calls - before.calls
        )

    linear(measure, 10_000)
