"""FixedSizeChunker: one example test per documented rule, properties against a plain
reference, a bounded window and linear work (counted, never timed).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.chunking import bad, check_stream, feed_work, linear, sliced
from helpers.cost import Work, count_work
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    FixedSizeChunker,
    resolve_chunker,
)

# -- FixedSizeChunker ---------------------------------------------------------


def test_fixed_cuts_at_the_whitespace_nearest_to_size() -> None:
    # size 10: whitespace 2 before (offset 8) and 1 after (offset 11): after wins.
    assert FixedSizeChunker(10, 3).split_text("abcdefgh ab cdef") == ["abcdefgh ab", "cdef"]
    # ...and the one before when it is nearer.
    assert FixedSizeChunker(10, 3).split_text("abcdefghi abcdef") == ["abcdefghi", "abcdef"]


def test_fixed_tie_prefers_the_shorter_chunk() -> None:
    # Whitespace at offsets 9 and 11, both 1 from size 10: the one before wins.
    assert FixedSizeChunker(10, 2).split_text("abcdefghi a bcdef") == ["abcdefghi", "a bcdef"]


def test_fixed_hard_cut_when_no_whitespace_within_tolerance() -> None:
    assert FixedSizeChunker(4, 1).split_text("abcdefghij") == ["abcd", "efgh", "ij"]
    assert FixedSizeChunker(4).split_text("abcdefghij") == ["abcd", "efgh", "ij"]


def test_fixed_chunks_never_hold_whitespace_at_their_ends() -> None:
    fc = FixedSizeChunker(6, 0)
    assert fc.split_text("  ab    cdefgh   ") == ["ab", "cdefgh"]
    assert fc.segments("  ab    cdefgh   ") == ["  ab    ", "cdefgh   "]


def test_fixed_tolerance_zero_cuts_exactly_at_size_or_at_the_space_there() -> None:
    assert FixedSizeChunker(3).split_text("ab cd ef") == ["ab", "cd", "ef"]
    assert FixedSizeChunker(3).split_text("abc def") == ["abc", "def"]


def test_fixed_withholds_until_the_cut_is_decided() -> None:
    fc = FixedSizeChunker(10, 3)
    # A whitespace at offset 8: a nearer one may still come at offset 11.
    assert fc.split("abcdefgh ab") == []
    assert fc.split("abcdefgh abc") == ["abcdefgh"]
    assert fc.flush("abcdefgh ab") == ["abcdefgh ab"]


def test_fixed_flush_strips_and_is_bounded() -> None:
    fc = FixedSizeChunker(5, 2)
    assert fc.flush("abcdefg") == ["abcdefg"]  # the end of the text is a cut
    assert fc.flush("abc ") == ["abc"]
    assert fc.flush("   ") == []


@pytest.mark.parametrize(
    ("args", "exc", "needles"),
    [
        ((0,), ValueError, ("size", "0")),
        ((True,), TypeError, ("size", "True")),
        ((2.0,), TypeError, ("size", "2.0")),
        ((5, -1), ValueError, ("tolerance", "-1")),
        ((5, 5), ValueError, ("tolerance", "5", "size")),
        ((5, False), TypeError, ("tolerance", "False")),
        ((5, "1"), TypeError, ("tolerance", "'1'")),
    ],
)
def test_fixed_rejects_bad_parameters(args: tuple[Any, ...], exc: type, needles: Any) -> None:
    with bad(exc, *needles):
        FixedSizeChunker(*args)


def test_fixed_alias_has_a_sensible_default() -> None:
    assert resolve_chunker("fixed") == FixedSizeChunker(200, 20)


def fixed_reference(text: str, size: int, tol: int) -> list[str]:
    """The documented rule, by brute force over the candidate cuts."""
    out: list[str] = []
    n = len(text)
    i = len(text) - len(text.lstrip())
    while i < n:
        mid = i + size
        spaces = [c for c in range(mid - tol, min(n, mid + tol + 1)) if text[c].isspace()]
        best = min(spaces, key=lambda c: (abs(c - mid), c), default=None)
        # Decided once every nearer candidate position has been seen.
        if best is None:
            decided = n > mid + tol
            cut = mid
        else:
            decided = n >= mid + (mid - best) if best <= mid else True
            cut = best
        if not decided:
            break
        out.append(text[i:cut].rstrip())
        i = cut + len(text[cut:]) - len(text[cut:].lstrip())
    rest = text[i:].rstrip()
    return out + ([rest] if rest else [])


fixed_texts = st.text(alphabet="ab \n\t\u3000", max_size=40)


@given(size=st.integers(1, 9), data=st.data(), case=sliced(fixed_texts))
def test_fixed_properties(size: int, data: st.DataObject, case: tuple[str, list[str]]) -> None:
    tol = data.draw(st.integers(0, size - 1))
    text, deltas = case
    chunker = FixedSizeChunker(size, tol)
    chunks = check_stream(chunker, text, deltas)
    assert chunks == fixed_reference(text, size, tol)
    assert all(len(c) <= size + tol for c in chunks)


@pytest.mark.parametrize("preference", FixedSizeChunker.preferences)
def test_fixed_keeps_a_bounded_window(preference: str) -> None:
    scanner = FixedSizeChunker(50, 10, boundary_preference=preference).scanner()
    for _ in range(2000):
        scanner.feed("abc")
        assert len(scanner._buf) + sum(map(len, scanner._parts)) <= 50 + 10 + 1 + 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        " " * 10_000,  # nothing but whitespace
        "x" * 10_000,  # no whitespace: hard cuts
        "x " * 5_000,  # whitespace everywhere
        ("x" * 59 + " ") * 170,  # whitespace just past size + tolerance
        ("x" * 45 + " " * 20) * 160,  # runs of spaces across the window
        ("x" * 41 + " ") * 250,  # whitespace only before size: forward searches after it
    ],
    ids=["spaces", "solid", "alternating", "just-out-of-reach", "space-runs", "before-only"],
)
@pytest.mark.parametrize("delta", [1, 4, 1000])
@pytest.mark.parametrize("preference", FixedSizeChunker.preferences)
def test_fixed_work_is_linear(
    monkeypatch: pytest.MonkeyPatch, text: str, delta: int, preference: str
) -> None:
    from guardrails_ai.chunkwise.chunkers.fixed import _FixedScanner

    work = count_work(monkeypatch, _FixedScanner)

    def measure(n: int) -> Work:
        before = Work(work.examined, work.window, work.calls)
        chunker = FixedSizeChunker(50, 10, boundary_preference=preference)
        feed_work(chunker, (text * 3)[:n], delta, work)
        return Work(
            work.examined - before.examined, work.window - before.window, work.calls - before.calls
        )

    one, _ = linear(measure, 10_000)
    assert one.total <= 12 * 10_000, one
