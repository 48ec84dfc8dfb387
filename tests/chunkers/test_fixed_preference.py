"""FixedSizeChunker's ``boundary_preference``: "nearest", "forward", "backward".

Example tests pin each preference at every edge of the window (whitespace at
``size``, at ``size - tolerance`` and ``size + tolerance``, only before, only
after, none, tolerance 0, CRLF and Unicode whitespace) and when each releases
a chunk; hypothesis checks the streaming properties (delta invariance, lossless
segments, ``split_text``), the length bound, a plain whole-text oracle for all
three preferences, and that a chunk is withheld exactly as long as some
continuation of the text could still change it; and a real ``Guard``
validates every chunk once, streamed in any deltas, output byte for byte.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.chunking import bad, check_stream, sliced
from helpers.guardrails import Record, cached_guard, joined, run, slicings
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import FixedSizeChunker

PREFERENCES = FixedSizeChunker.preferences


def fsc(size: int, tolerance: int, preference: str) -> FixedSizeChunker:
    return FixedSizeChunker(size, tolerance, boundary_preference=preference)


def by_preference(size: int, tolerance: int, text: str) -> dict[str, list[str]]:
    return {p: fsc(size, tolerance, p).split_text(text) for p in PREFERENCES}


def agreed(size: int, tolerance: int, text: str) -> list[str]:
    """``split_text`` under every preference, checked to be the same."""
    found = by_preference(size, tolerance, text)
    assert len(set(map(tuple, found.values()))) == 1, found
    return found["nearest"]


def oracle(text: str, size: int, tol: int, preference: str) -> list[str]:
    """The documented rule, whole text at once, on the text followed by a space."""
    padded = text + " "
    chunks: list[str] = []
    start = len(text) - len(text.lstrip())
    while start < len(text):
        mid = start + size
        window = [i for i in range(mid - tol, mid + tol + 1) if i < len(padded)]
        spaces = [i for i in window if padded[i].isspace()]
        before = [i for i in spaces if i <= mid]
        after = [i for i in spaces if i >= mid]
        if preference == "nearest":
            nearest = sorted(spaces, key=lambda i: (abs(i - mid), i))
            cut = nearest[0] if nearest else mid
        elif preference == "forward":
            cut = after[0] if after else before[-1] if before else mid
        else:
            cut = before[-1] if before else after[0] if after else mid
        chunks.append(text[start:cut].rstrip())
        start = cut
        while start < len(text) and text[start].isspace():
            start += 1
    return chunks


# -- one example per preference and edge (size 10, tolerance 3: k in 7..13) ---


def test_whitespace_at_size_wins_under_every_preference() -> None:
    # Offsets 7 and 13 are in the window too; the one at 10 is "at size".
    text = "abcdefg ij bc defg"
    assert agreed(10, 3, text) == ["abcdefg ij", "bc defg"]


def test_whitespace_at_the_window_edges_counts() -> None:
    # Only at size - tolerance (offset 7), then only at size + tolerance (13).
    assert agreed(10, 3, "abcdefg hijklmnop") == ["abcdefg", "hijklmnop"]
    assert agreed(10, 3, "abcdefghijklm nop") == ["abcdefghijklm", "nop"]


def test_whitespace_just_outside_the_window_gives_a_hard_cut() -> None:
    # Offsets 6 and 14 lie outside [7, 13]: cut after exactly 10 characters.
    text = "abcdef ghijklm nop"
    assert agreed(10, 3, text) == ["abcdef ghi", "jklm nop"]


def test_no_whitespace_at_all_gives_hard_cuts() -> None:
    assert agreed(4, 1, "abcdefghij") == ["abcd", "efgh", "ij"]


def test_whitespace_on_both_sides_after_nearer() -> None:
    # Offsets 8 (2 before size) and 11 (1 after).
    assert by_preference(10, 3, "abcdefgh ab cdefgh") == {
        "nearest": ["abcdefgh ab", "cdefgh"],
        "forward": ["abcdefgh ab", "cdefgh"],
        "backward": ["abcdefgh", "ab cdefgh"],
    }


def test_whitespace_on_both_sides_before_nearer() -> None:
    # Offsets 9 (1 before size) and 12 (2 after).
    assert by_preference(10, 3, "abcdefghi ab cdef") == {
        "nearest": ["abcdefghi", "ab cdef"],
        "forward": ["abcdefghi ab", "cdef"],
        "backward": ["abcdefghi", "ab cdef"],
    }


def test_only_before_size_forward_falls_back_to_it() -> None:
    # Offsets 7 and 9, none after: forward takes the last one before size.
    assert fsc(10, 3, "forward").split_text("abcdefg h abcdefgh") == ["abcdefg h", "abcdefgh"]
    assert fsc(10, 3, "backward").split_text("abcdefg h abcdefgh") == ["abcdefg h", "abcdefgh"]


def test_only_after_size_backward_falls_back_to_it() -> None:
    # Offsets 12 (and 14, outside), none before: backward takes the first after size.
    assert fsc(10, 3, "backward").split_text("abcdefghijkl m no") == ["abcdefghijkl", "m no"]
    assert fsc(10, 3, "forward").split_text("abcdefghijkl m no") == ["abcdefghijkl", "m no"]


def test_tolerance_zero_cuts_at_size_whatever_the_preference() -> None:
    assert agreed(4, 0, "ab cdefg hi") == ["ab c", "defg", "hi"]
    assert agreed(4, 0, "abcd efgh") == ["abcd", "efgh"]


def test_crlf_is_one_separator_and_the_chunk_never_ends_in_cr() -> None:
    # \r at 8, \n at 9, space at 12.
    text = "abcdefgh\r\nab cdefgh"
    assert by_preference(10, 3, text) == {
        "nearest": ["abcdefgh", "ab cdefgh"],
        "forward": ["abcdefgh\r\nab", "cdefgh"],
        "backward": ["abcdefgh", "ab cdefgh"],
    }
    assert fsc(10, 3, "backward").segments(text) == ["abcdefgh\r\n", "ab cdefgh"]


def test_unicode_whitespace_is_whitespace() -> None:
    # No-break space at 8, line separator at 11; then an ideographic space at 10.
    assert by_preference(10, 3, "abcdefgh\u00a0ab\u2028cdef") == {
        "nearest": ["abcdefgh\u00a0ab", "cdef"],
        "forward": ["abcdefgh\u00a0ab", "cdef"],
        "backward": ["abcdefgh", "ab\u2028cdef"],
    }
    assert agreed(10, 3, "abcdefghij\u3000kl") == ["abcdefghij", "kl"]


# -- what is withheld ---------------------------------------------------------


def test_backward_decides_as_soon_as_the_character_at_size_is_known() -> None:
    # Whitespace at offset 8; the character at size (offset 10) has arrived.
    assert fsc(10, 3, "backward").split("abcdefgh ab") == ["abcdefgh"]
    # Nearest waits for offset 11 (nearer than 8), forward for offset 13.
    assert fsc(10, 3, "nearest").split("abcdefgh ab") == []
    assert fsc(10, 3, "nearest").split("abcdefgh abc") == ["abcdefgh"]
    assert fsc(10, 3, "forward").split("abcdefgh abcd") == []
    assert fsc(10, 3, "forward").split("abcdefgh abcde") == ["abcdefgh"]


def test_backward_waits_for_the_character_at_size() -> None:
    # A whitespace at size (offset 10) would give "abcdefgh a".
    assert fsc(10, 3, "backward").split("abcdefgh a") == []
    assert fsc(10, 3, "backward").split_text("abcdefgh a bc") == ["abcdefgh a", "bc"]


def test_forward_decides_at_the_first_whitespace_after_size() -> None:
    assert fsc(10, 3, "forward").split("abcdefgh ab d") == ["abcdefgh ab"]


def test_size_characters_ending_in_whitespace_are_settled_unless_forward() -> None:
    # Cutting at offset 9 or at 10 gives the same chunk; forward may still cut at 11..13.
    for preference in ("nearest", "backward"):
        chunker = fsc(10, 3, preference)
        assert (chunker.split("abcdefghi "), chunker.flush("abcdefghi ")) == (["abcdefghi"], [])
    forward = fsc(10, 3, "forward")
    assert (forward.split("abcdefghi "), forward.flush("abcdefghi ")) == ([], ["abcdefghi"])


def test_tolerance_zero_settles_at_size_characters() -> None:
    for preference in PREFERENCES:
        chunker = fsc(4, 0, preference)
        assert (chunker.split("abcd"), chunker.flush("abcd")) == (["abcd"], [])
        assert (chunker.split("abc"), chunker.flush("abc")) == ([], ["abc"])


# -- arguments ------------------------------------------------------------------


def test_repr_names_the_preference_only_when_not_the_default() -> None:
    assert repr(FixedSizeChunker(10, 3)) == "FixedSizeChunker(size=10, tolerance=3)"
    assert FixedSizeChunker(10, 3, boundary_preference="nearest") == FixedSizeChunker(10, 3)
    backward = FixedSizeChunker(10, 3, boundary_preference="backward")
    assert repr(backward) == (
        "FixedSizeChunker(size=10, tolerance=3, boundary_preference='backward')"
    )
    assert backward != FixedSizeChunker(10, 3)
    assert backward.boundary_preference == "backward"


@pytest.mark.parametrize(
    ("value", "exc", "needles"),
    [
        ("sideways", ValueError, ("boundary_preference", "'sideways'", "'nearest'", "'backward'")),
        ("Forward", ValueError, ("boundary_preference", "'Forward'", "'forward'")),
        ("", ValueError, ("boundary_preference", "''", "'nearest'")),
        (None, TypeError, ("boundary_preference", "NoneType", "None")),
        (1, TypeError, ("boundary_preference", "int", "1")),
        (["forward"], TypeError, ("boundary_preference", "list", "['forward']")),
    ],
)
def test_bad_preferences_are_refused(value: Any, exc: type[Exception], needles: Any) -> None:
    with bad(exc, *needles):
        FixedSizeChunker(10, 3, boundary_preference=value)


def test_preference_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        FixedSizeChunker(10, 3, "forward")  # type: ignore[misc]


# -- properties -------------------------------------------------------------------

texts = st.text(alphabet="ab \n\t\r\u3000\u00a0", max_size=40)


@given(
    preference=st.sampled_from(PREFERENCES),
    size=st.integers(1, 9),
    data=st.data(),
    case=sliced(texts),
)
def test_streaming_agrees_with_the_oracle(
    preference: str, size: int, data: st.DataObject, case: tuple[str, list[str]]
) -> None:
    tol = data.draw(st.integers(0, size - 1), label="tolerance")
    text, deltas = case
    chunker = fsc(size, tol, preference)
    # Delta invariance, lossless segments and pieces, split_text == driver.
    chunks = check_stream(chunker, text, deltas)
    assert chunks == oracle(text, size, tol, preference)
    assert all(0 < len(c) <= size + tol for c in chunks)


@given(
    preference=st.sampled_from(PREFERENCES),
    size=st.integers(1, 6),
    data=st.data(),
    text=st.text(alphabet="ab \n\u3000", max_size=24),
)
def test_a_chunk_is_withheld_exactly_while_a_continuation_could_change_it(
    preference: str, size: int, data: st.DataObject, text: str
) -> None:
    tol = data.draw(st.integers(0, size - 1), label="tolerance")
    chunker = fsc(size, tol, preference)
    reach = size + tol + 2
    # One whitespace at each offset the window can reach, or none at all.
    continuations = ["b" * j + " " + "b" * reach for j in range(reach)] + ["b" * 3 * reach]
    released = chunker.split(text)
    outcomes = {tuple(oracle(text + c, size, tol, preference)) for c in continuations}
    # Never too early: every continuation keeps the released chunks.
    assert all(list(o[: len(released)]) == released for o in outcomes)
    # Never too late: the first withheld chunk differs between continuations.
    if chunker.flush(text):
        assert len({o[len(released)] for o in outcomes}) > 1, (released, outcomes)


guard_texts = st.lists(st.sampled_from(["ab", "abcdef", " ", "\n", "\r\n", "a"]), max_size=12).map(
    "".join
)


@given(preference=st.sampled_from(PREFERENCES), data=st.data())
def test_a_guard_validates_every_chunk_once_and_loses_nothing(
    preference: str, data: st.DataObject
) -> None:
    chunker = fsc(6, 2, preference)
    text = data.draw(guard_texts, label="text")
    deltas = data.draw(slicings(text), label="deltas")
    guard, validator = cached_guard(Record, chunker, "noop")
    del validator.seen[:]
    outcomes = run(guard, deltas)
    assert joined(outcomes) == text
    assert validator.seen == (chunker.split_text(text) or [text])  # (blank: one chunk)
