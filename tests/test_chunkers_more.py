"""LineChunker, FixedSizeChunker, RegexChunker and StructureChunker.

One example test per documented rule; hypothesis properties for every chunker
and several configurations of each (delta invariance through ``ChunkStream``,
prefix stability, lossless segments, ``split_text`` equal to the driver's
output, the ``flush`` contract, plain reference implementations where the
rule is short enough to state twice); and adversarial text for every regular
expression, shown linear by counting the characters handed to the regex
engine (the measure of ``test_stream_cost``), never by timing.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from _chunking_helpers import stream as drive
from _cost_helpers import CountingPattern, Work, count_work
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.adapters import chunking_function
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    ChunkStream,
    FixedSizeChunker,
    LineChunker,
    RegexChunker,
    StructureChunker,
    resolve_chunker,
)
from guardrails_ai.chunkwise.chunkers.structure import DEFAULT_TRANSITIONS

# -- helpers ------------------------------------------------------------------


def check_stream(chunker: ChunkingStrategy, text: str, deltas: list[str]) -> list[str]:
    """Every streaming property at once; returns the chunks."""
    pieces = drive(chunker, deltas)
    chunks = [p.chunk for p in pieces if p.chunk is not None]
    # Delta invariance, and the whole-document call agrees with the driver.
    assert chunks == chunker.split(text) + chunker.flush(text) == chunker.split_text(text)
    # Lossless, and each chunk lies inside its segment where it says.
    assert "".join(p.segment for p in pieces) == text
    assert "".join(chunker.segments(text)) == text
    for p in pieces:
        assert text[p.start : p.stop] == p.segment
        if p.chunk is not None:
            assert p.chunk and text[p.chunk_start : p.chunk_end] == p.chunk
            assert p.start <= p.chunk_start < p.chunk_end <= p.stop
    # The flush contract.
    rest = chunker.flush(text)
    layout = chunker.locate(text)
    assert len(rest) <= 1
    if rest:
        assert layout.fragment is not None
        assert text[layout.fragment[0] : layout.fragment[1]] == rest[0]
        assert layout.fragment[0] >= layout.tail
    assert chunker.split(text) == chunker.split(text)  # stateless
    return chunks


@st.composite
def sliced(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> tuple[str, list[str]]:
    text = draw(texts)
    if draw(st.integers(0, 3)) == 0:
        return text, list(text)
    cuts = draw(st.lists(st.integers(0, len(text)), max_size=min(len(text), 12)))
    bounds = [0, *sorted(cuts), len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds)]


def feed_work(chunker: ChunkingStrategy, text: str, size: int, work: Work) -> None:
    """Stream ``text`` in ``size``-character deltas, closing each delta in ``work``."""
    stream = ChunkStream(chunker)
    for i in range(0, len(text), size):
        stream.feed(text[i : i + size])
        work.end_delta()
    stream.close()
    work.end_delta()


def linear(measure: Any, n: int) -> tuple[Work, Work]:
    """Work for a text of ``n`` and of ``2n`` characters; assert it is linear."""
    one, two = measure(n), measure(2 * n)
    assert one.calls > 0, "no pattern was counted"
    assert two.total <= 2.3 * one.total + 1000, (one, two)
    assert two.total <= 40 * 2 * n, two
    return one, two


def bad(exc: type[Exception], *needles: str) -> Any:
    """``pytest.raises`` whose message must contain every needle."""
    return pytest.raises(exc, match=".*".join(re.escape(n) for n in needles))


# -- as Guardrails' _chunking_function ---------------------------------------------

#: Every chunker of this module in a few configurations.
CONFIGS: list[ChunkingStrategy] = [
    LineChunker(),
    LineChunker(crlf=False),
    FixedSizeChunker(6, 2),
    FixedSizeChunker(3),
    FixedSizeChunker(6, 2, boundary_preference="forward"),
    FixedSizeChunker(6, 2, boundary_preference="backward"),
    RegexChunker(r";\s*"),
    RegexChunker(r"\n\s*\n"),
    RegexChunker(r"(?<=[.!?])\s+"),
    RegexChunker(r"\ba\b"),
    RegexChunker(r"a(?:bc)?"),
    StructureChunker(),
    StructureChunker(split_on_transitions=True, transition_phrases=["ab"]),
]
contract_texts = st.lists(
    st.sampled_from(["# T", "ab", "a", "bc", ";", " ", "\n", "\n\n", "\r\n", "---", "1. T", "."]),
    max_size=14,
).map("".join)


@pytest.mark.parametrize("chunker", CONFIGS, ids=repr)
@given(case=sliced(contract_texts))
def test_as_a_guardrails_chunking_function(
    chunker: ChunkingStrategy, case: tuple[str, list[str]]
) -> None:
    # Called as Guardrails' validate_stream calls it: on the accumulated text
    # after each delta, the remainder kept.  Each segment holds exactly the
    # chunk the whole text has there; nothing is lost (scanners' settled()).
    text, deltas = case
    function = chunking_function(chunker)
    segments, rest = [], ""
    for delta in deltas:
        rest += delta
        while answer := function(rest):
            segment, rest = answer
            segments.append(segment)
    assert "".join(segments) + rest == text
    per_segment = [chunker.split_text(s) for s in segments]
    assert all(len(chunks) == 1 for chunks in per_segment)
    assert [c for chunks in per_segment for c in chunks] + chunker.split_text(rest) == (
        chunker.split_text(text)
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


# -- RegexChunker -------------------------------------------------------------


def test_regex_match_is_the_separator_and_travels_with_the_chunk_before() -> None:
    rc = RegexChunker(r";\s*")
    assert rc.split_text("a; b;c") == ["a", "b", "c"]
    assert rc.segments("a; b;c") == ["a; ", "b;", "c"]


def test_regex_chunks_are_verbatim_and_never_empty() -> None:
    rc = RegexChunker(";")
    assert rc.split_text(";;a; b;;") == ["a", " b"]
    assert rc.segments(";;a; b;;") == [";;a;", " b;", ";"]


def test_regex_lookbehind_keeps_the_terminator_in_the_chunk() -> None:
    rc = RegexChunker(r"(?<=[.!?])\s+")
    assert rc.split_text("One. Two!  Three") == ["One.", "Two!", "Three"]
    # The lookbehind sees text before a delta border.
    assert [p.chunk for p in drive(rc, ["One.", " Two", "!", " x"])] == ["One.", "Two!", "x"]


def test_regex_accepts_a_match_once_a_character_follows_it() -> None:
    rc = RegexChunker(r"\n+")
    assert rc.split("a\n\n") == []  # more newlines may come
    assert rc.split("a\n\nb") == ["a"]
    assert rc.flush("a\n\n") == ["a"]  # flush drops the trailing separator


def test_regex_waits_as_long_as_the_pattern_needs() -> None:
    # "\n(?:\r?\n)+" can grow by two characters at a time.
    rc = RegexChunker(r"\n(?:\r?\n)+")
    assert rc.split("a\n\n\r") == []
    assert rc.split("a\n\n\rb") == ["a"]
    assert rc.split_text("a\n\n\r\nbc") == ["a", "bc"]
    # A lookahead: decided by the characters it looks at.
    rc = RegexChunker(r"\n(?=##)")
    assert rc.split("a\n#") == []
    assert rc.split_text("a\n## b\n#c") == ["a", "## b\n#c"]


def test_regex_final_fragment_spans_separators_confirmed_too_late() -> None:
    # "a(?:bc)?" on "...2ab": the "a" may still become "abc", and the text
    # ends before a stopper or the reach settles it: it stays in the fragment.
    rc = RegexChunker(r"a(?:bc)?")
    assert rc.split_text("1abc2ab") == ["1", "2ab"]
    assert rc.split_text("1abc2ab3") == ["1", "2", "b3"]


def test_regex_a_stopper_settles_a_match() -> None:
    # For "\n\s*\n" any non-space character is a stopper: more blank lines
    # could still join the separator until one arrives.
    rc = RegexChunker(r"\n\s*\n")
    assert rc.split("a\n \n ") == []
    assert rc.split("a\n \n \nb") == ["a"]
    assert [p.chunk for p in drive(rc, ["a\n \n", " \n", "b"])] == ["a", "b"]


def test_regex_compiled_patterns_and_flags() -> None:
    rc = RegexChunker(re.compile(r"^-+$\n?", re.MULTILINE))
    assert rc.split_text("a\n---\nb\n--\nc") == ["a\n", "b\n", "c"]
    assert RegexChunker(re.compile("x", re.I)).split_text("aXbxc") == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("pattern", "exc", "needles"),
    [
        ("a*", ValueError, ("pattern", "'a*'", "empty")),
        (r"\b", ValueError, ("pattern", "empty")),
        ("(?=x)", ValueError, ("pattern", "empty")),
        ("x|", ValueError, ("pattern", "empty")),
        ("(", ValueError, ("pattern", "'('", "not a valid regex")),
        (b";", TypeError, ("pattern", "bytes")),
        (re.compile(b";"), TypeError, ("pattern",)),
        (None, TypeError, ("pattern", "None")),
        (r"[^;]+;", ValueError, ("pattern", "max_match")),
        (r"(?s);.*", ValueError, ("pattern", "max_match")),
    ],
)
def test_regex_rejects_bad_patterns(pattern: Any, exc: type, needles: Any) -> None:
    with bad(exc, *needles):
        RegexChunker(pattern)


def test_regex_max_match_is_checked_and_unlocks_unbounded_alternatives() -> None:
    with bad(ValueError, "max_match=2", "3"):
        RegexChunker("abc", max_match=2)
    with bad(TypeError, "max_match", "True"):
        RegexChunker(";", max_match=True)
    with bad(ValueError, "max_match", "0"):
        RegexChunker(";", max_match=0)
    rc = RegexChunker(r"[^;]+;", max_match=8)
    assert rc.split_text("ab;cde;xyzxyzxyz") == ["xyzxyzxyz"]
    assert rc == RegexChunker(r"[^;]+;", max_match=8)
    assert "max_match=8" in repr(rc)


#: Patterns whose streaming rule needs one character after a match, so that
#: ``split_text`` is exactly ``re.split`` without the empty pieces.
PLAIN_PATTERNS = [
    r"\n+",
    ";",
    r";\s*",
    r"\s*[;,]\s*",
    r"(?<=[.!?])\s+",
    r"-{3,}",
    r"\bab\b",
    r"(?m)^a",
    "a{1,3}",
    "[.!?]+",
]
#: Patterns whose last separators may stay unsettled when the text ends: only
#: the streaming properties are checked.
WIDE_PATTERNS = [
    r"\n\s*\n",
    r"\r?\n",
    r"\n(?:\r?\n)+",
    r"a(?:bc)?",
    "b$",
    r"(?:ab|c)+;",
    r"\n(?=##)",
    r"ab(?=b)",
    r"\n\n|---",
    r"ab*c|a",
    r";(?=.*!)",
    r"[ab] +[^;]",
]
regex_texts = st.text(alphabet="abc;,.!#- \n\r", max_size=40)


@pytest.mark.parametrize("pattern", PLAIN_PATTERNS + WIDE_PATTERNS)
@given(case=sliced(regex_texts))
def test_regex_properties(pattern: str, case: tuple[str, list[str]]) -> None:
    text, deltas = case
    chunker = RegexChunker(pattern)
    chunks = check_stream(chunker, text, deltas)
    if pattern in PLAIN_PATTERNS:
        assert chunks == [p for p in re.split(pattern, text) if p]


REGEX_ATOMS = [
    "a",
    ";",
    r"\n",
    r"\s",
    "[ab]",
    ".",
    "[^a]",
    r"\b",
    "$",
    "^",
    r"\Z",
    r"(?=a)",
    r"(?!;)",
    r"(?<=a)",
    r"(?<!;)",
    "(?i:A)",
    r"(?=.*;)",
]
random_patterns = st.recursive(
    st.sampled_from(REGEX_ATOMS),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map("".join),
        st.tuples(inner, inner).map(lambda p: f"(?:{p[0]}|{p[1]})"),
        st.tuples(inner, st.sampled_from(["*", "+", "?", "{1,3}", "{2}", "+?", "*+"])).map(
            lambda p: f"(?:{p[0]}){p[1]}"
        ),
        inner.map(lambda p: f"({p})"),
    ),
    max_leaves=5,
)


@given(pattern=random_patterns, case=sliced(st.text(alphabet="ab; \n", max_size=16)))
def test_regex_random_patterns_are_delta_invariant(
    pattern: str, case: tuple[str, list[str]]
) -> None:
    try:
        chunker = RegexChunker(pattern)
    except ValueError:
        return  # matches empty text, or nothing can settle a match
    text, deltas = case
    check_stream(chunker, text, deltas)


def regex_work(pattern: str, max_match: int | None, text: str, n: int) -> Work:
    """Stream ``text`` repeated to ``n`` characters in 4-character deltas,
    counting every search of the chunker's own patterns (separator, stoppers)."""
    work = Work()
    stream = ChunkStream(RegexChunker(pattern, max_match=max_match))
    scanner: Any = stream._scanner
    for name in ("_pat", "_stopper", "_last", "_guarded", "_run_char"):
        if getattr(scanner, name) is not None:
            setattr(scanner, name, CountingPattern(getattr(scanner, name), work))
    source = text * (n // len(text) + 1)
    for i in range(0, n, 4):
        stream.feed(source[i : min(i + 4, n)])
        work.end_delta()
    stream.close()
    work.end_delta()
    return work


@pytest.mark.parametrize(
    ("pattern", "max_match", "text"),
    [
        (r"\n+", None, "x"),  # never a separator: every character a stopper
        (r"\n+", None, "ab\n"),
        (r"\n+", 16, "\n"),  # one endless separator (a broken promise)
        (r";\s*", None, "; x"),
        (r";\s*", 16, "; "),  # no stopper: the bound settles it
        (r"\n\s*\n", None, "a \n \n"),
        (r"\)\s*", None, "(((((((("),  # nested brackets, never closed
        (r"\([^()]{0,20}\)", None, "(((((((((((x"),
        (r"\.{3}\s", None, "."),  # a long run of dots
        (r"[.!?]+\s+", 16, "."),
        (r"\d+\.\s", 32, "1234567890"),  # a long run of digits
        (r"\s{2,}", 16, " "),
    ],
)
def test_regex_work_is_linear(pattern: str, max_match: int | None, text: str) -> None:
    linear(lambda n: regex_work(pattern, max_match, text, n), 10_000)


@pytest.mark.parametrize("pattern", [r"\s+", r"\n\s*\n", r"(?<=[.!?])\s+", r"\s*;\s*", r"\s+$"])
@pytest.mark.parametrize("text", [" ", "\n", ";", ". "])
def test_regex_without_stopper_or_bound_waits_for_one(pattern: str, text: str) -> None:
    # Nothing settles a match of an unbounded pattern before a stopper
    # arrives: a delta without one is set aside, not searched (issue 12: a
    # run of 80k spaces cost x4 per doubling).
    linear(lambda n: regex_work(pattern, None, text, n), 10_000)


# -- StructureChunker ---------------------------------------------------------


def sections(text: str, **kwargs: Any) -> list[str]:
    return StructureChunker(**kwargs).split_text(text)


def test_structure_atx_heading_starts_a_section() -> None:
    text = "Intro.\n# One\nbody one\n## Two\nbody two\n"
    assert sections(text) == ["Intro.", "# One\nbody one", "## Two\nbody two"]
    # Not headings: seven #, no space, four spaces of indentation.
    assert sections("a\n####### x\n#x\n    # x\n") == ["a\n####### x\n#x\n    # x"]


def test_structure_setext_heading_starts_a_section_at_its_paragraph() -> None:
    text = "Intro text.\n\nTitle\nline two\n=====\nbody\n\nSub\n---\nmore"
    assert sections(text) == [
        "Intro text.",
        "Title\nline two\n=====\nbody",
        "Sub\n---\nmore",
    ]


def test_structure_numbered_sections() -> None:
    text = "Intro.\n\n1. Home Page\nThe homepage.\n\n2.3 Details\nMore.\n\n4) Last\nEnd."
    assert sections(text) == [
        "Intro.",
        "1. Home Page\nThe homepage.",
        "2.3 Details\nMore.",
        "4) Last\nEnd.",
    ]


def test_structure_numbered_titles_only_at_a_paragraph_start() -> None:
    # A tight list stays in its section; a year is not a number title.
    text = "Steps.\n\n1. one\n2. two\n3. three\n\n2024. was a year\n"
    assert sections(text) == ["Steps.", "1. one\n2. two\n3. three\n\n2024. was a year"]
    assert sections(text, respect_numbered_sections=False) == [text.strip()]


def test_structure_thematic_break_ends_a_section_and_is_separator() -> None:
    text = "one\n\n---\n\ntwo\n* * *\nthree\n___"
    assert sections(text) == ["one", "two", "three"]
    assert StructureChunker().flush(text) == ["three"]  # a final break is stripped
    assert StructureChunker().segments(text) == ["one\n\n---\n", "\ntwo\n* * *\n", "three\n___"]


def test_structure_fenced_code_is_kept_whole() -> None:
    text = (
        "Intro.\n\n```python\n# not a heading\n\n\n\n1. nor a title\n---\n```\n"
        "after\n~~~\n# inside tildes\n```\n~~~~\n# Next\nx"
    )
    assert sections(text) == [
        "Intro.\n\n```python\n# not a heading\n\n\n\n1. nor a title\n---\n```\n"
        "after\n~~~\n# inside tildes\n```\n~~~~",
        "# Next\nx",
    ]


def test_structure_fence_closes_only_with_the_same_character_and_length() -> None:
    text = "a\n````\n```\n# in\n~~~~\n# in\n````\n# out\nb"
    assert sections(text) == ["a\n````\n```\n# in\n~~~~\n# in\n````", "# out\nb"]
    # A backtick fence's info string cannot hold a backtick: not a fence.
    assert sections("a\n``` x`y\n# out\nb") == ["a\n``` x`y", "# out\nb"]


def test_structure_unclosed_fence_runs_to_the_end() -> None:
    text = "a\n```\n# no\n\n\n\nstill code"
    assert sections(text) == [text]


def test_structure_blank_line_runs() -> None:
    text = "one\n\ntwo\n\n\nthree\n \n\t\n\n\nfour"
    assert sections(text) == ["one\n\ntwo", "three", "four"]
    assert sections(text, double_newline_as_boundary=False) == [text]


def test_structure_transitions_are_opt_in() -> None:
    text = "Results are good.\n\nHowever, costs rose.\n\nIn summary, fine.\nhowever, mid"
    assert sections(text) == [text]
    assert sections(text, split_on_transitions=True) == [
        "Results are good.",
        "However, costs rose.",
        "In summary, fine.\nhowever, mid",
    ]


def test_structure_transition_phrases_extend_the_defaults() -> None:
    text = "a.\n\nBy contrast, b.\n\nHowever, c.\n\nbeyond d."
    chunker = StructureChunker(split_on_transitions=True, transition_phrases=["By contrast", "Be"])
    assert chunker.split_text(text) == ["a.", "By contrast, b.", "However, c.\n\nbeyond d."]
    assert "However," in DEFAULT_TRANSITIONS


def test_structure_sections_are_never_headings_alone() -> None:
    text = "# Part\n## Chapter\n\n1. First\ntext\n# Next\n\nHowever, more"
    assert sections(text, split_on_transitions=True) == [
        "# Part\n## Chapter\n\n1. First\ntext",
        "# Next\n\nHowever, more",
    ]


def test_structure_options_off() -> None:
    text = "a\n# H\nb\nT\n===\nc\n---\nd"
    assert sections(text, respect_headings=False) == [text]


def test_structure_seed_example() -> None:
    text = (
        "\n# Intro\nWelcome to our proposal.\n\n1. Home Page\nThe homepage will act...\n\n"
        "2. About Us Page\nTo build credibility and trust.\n\n"
        "However, we must also consider costs.\n\n3. Services Page\nA detailed breakdown.\n"
    )
    assert sections(text, split_on_transitions=True) == [
        "# Intro\nWelcome to our proposal.",
        "1. Home Page\nThe homepage will act...",
        "2. About Us Page\nTo build credibility and trust.",
        "However, we must also consider costs.",
        "3. Services Page\nA detailed breakdown.",
    ]


def test_structure_a_heading_is_reported_as_soon_as_its_start_decides_it() -> None:
    chunker = StructureChunker()
    assert chunker.split("Intro.\n# Ti") == ["Intro."]
    assert chunker.split("Intro.\n#") == []  # "#x" would be no heading
    assert chunker.split("Intro.\n\n1. T") == ["Intro."]


def test_structure_unterminated_last_line() -> None:
    chunker = StructureChunker()
    # A Setext underline needs its "\n"; without it, it is text.
    assert chunker.split_text("a\n\nTitle\n===") == ["a\n\nTitle\n==="]
    assert chunker.split_text("a\n\nTitle\n===\n") == ["a", "Title\n==="]
    assert chunker.flush("a\n\n  ") == ["a"]


@pytest.mark.parametrize(
    ("transitions", "text", "expected"),
    [
        # A transition paragraph that is also a Setext heading: one break.
        (True, "a\n\nHowever, x\n===\nb", ["a", "However, x\n===\nb"]),
        # After headings only, a Setext heading does not start a section.
        (False, "# A\nFoo\n===\nbody", ["# A\nFoo\n===\nbody"]),
        # After a heading line "---" is a break, not an underline.
        (False, "text\n# A\n---\nx", ["text", "# A", "x"]),
        # Up to three spaces before "#"; a tab is too much.
        (False, "a\n  # H\nb\n\t# no\n", ["a", "  # H\nb\n\t# no"]),
        # At most five number levels.
        (
            False,
            "a\n\n1.1.1.1.1 Deep\nb\n\n1.1.1.1.1.1 Too deep\nc",
            ["a", "1.1.1.1.1 Deep\nb\n\n1.1.1.1.1.1 Too deep\nc"],
        ),
        # A fence closes only with its own character; nested fences are text.
        (False, "p\n~~~~\n```\n~~~\n~~~~\n# H\nq", ["p\n~~~~\n```\n~~~\n~~~~", "# H\nq"]),
        # The unterminated last line opens a section when its start decides it.
        (True, "a\n\nHowever, x", ["a", "However, x"]),
    ],
)
def test_structure_interactions(transitions: bool, text: str, expected: list[str]) -> None:
    assert sections(text, split_on_transitions=transitions) == expected


def test_structure_crlf_lines() -> None:
    text = "intro\r\n# H\r\nbody\r\n\r\n\r\nnext\r\n"
    assert sections(text) == ["intro", "# H\r\nbody", "next"]


@pytest.mark.parametrize(
    ("kwargs", "exc", "needles"),
    [
        ({"respect_headings": 1}, TypeError, ("respect_headings", "1")),
        ({"split_on_transitions": "no"}, TypeError, ("split_on_transitions", "'no'")),
        ({"double_newline_as_boundary": None}, TypeError, ("double_newline_as_boundary",)),
        ({"respect_numbered_sections": 0}, TypeError, ("respect_numbered_sections",)),
        (
            {"transition_phrases": ["So,"]},
            ValueError,
            ("transition_phrases", "split_on_transitions"),
        ),
        (
            {"split_on_transitions": True, "transition_phrases": "So,"},
            TypeError,
            ("transition_phrases", "str"),
        ),
        (
            {"split_on_transitions": True, "transition_phrases": ["  "]},
            ValueError,
            ("transition_phrases", "'  '"),
        ),
        (
            {"split_on_transitions": True, "transition_phrases": [3]},
            ValueError,
            ("transition_phrases", "3"),
        ),
    ],
)
def test_structure_rejects_bad_parameters(kwargs: dict[str, Any], exc: type, needles: Any) -> None:
    with bad(exc, *needles):
        StructureChunker(**kwargs)


def test_structure_alias_and_equality() -> None:
    assert resolve_chunker("structure") == StructureChunker()
    chunker = StructureChunker(split_on_transitions=True, transition_phrases=["So,"])
    assert chunker == StructureChunker(split_on_transitions=True, transition_phrases=["So,"])
    assert chunker != StructureChunker(split_on_transitions=True)


LINES = [
    "# H",
    "## Sub",
    "####### no",
    "text",
    "more words",
    "",
    "",
    " ",
    "\t",
    "1. Title",
    "2.3 Sub",
    "2024. year",
    "However, x",
    "In summary, y",
    "---",
    "- - -",
    "***",
    "___",
    "===",
    "```",
    "````",
    "~~~",
    "```py",
    "``` a`b",
    "    # indented",
    "- item",
    "1. ",
    "#",
    "\r",
    "Title\r",
]
structure_texts = st.builds(
    lambda lines, ends, tail: (
        "".join(line + end for line, end in zip(lines, ends, strict=False)) + tail
    ),
    st.lists(st.sampled_from(LINES), max_size=12),
    st.lists(st.sampled_from(["\n", "\n", "\r\n", "\n\n"]), min_size=12, max_size=12),
    st.sampled_from(["", "x", "# T", "1. T", "---", "```", " "]),
)
STRUCTURE_CONFIGS = [
    StructureChunker(),
    StructureChunker(split_on_transitions=True, transition_phrases=["text"]),
    StructureChunker(respect_headings=False),
    StructureChunker(respect_numbered_sections=False, double_newline_as_boundary=False),
]


def fence_interiors(text: str) -> list[tuple[int, int]]:
    """Spans strictly inside closed fences (a plain restatement of the rule)."""
    spans, offset = [], 0
    opened: tuple[str, int, int] | None = None  # char, length, end of the opening line
    for line in text.split("\n"):
        body = line.strip()
        run = len(body) - len(body.lstrip(body[:1])) if body[:1] in ("`", "~") else 0
        if opened is None:
            if run >= 3 and not (body[0] == "`" and "`" in body[run:]):
                opened = (body[0], run, offset + len(line))
        elif run >= opened[1] and body[0] == opened[0] and run == len(body):
            spans.append((opened[2], offset))
            opened = None
        offset += len(line) + 1
    return spans


@pytest.mark.parametrize("chunker", STRUCTURE_CONFIGS, ids=repr)
@given(case=sliced(structure_texts))
def test_structure_properties(chunker: StructureChunker, case: tuple[str, list[str]]) -> None:
    text, deltas = case
    chunks = check_stream(chunker, text, deltas)
    assert all(c == c.strip("\n") and c == c.rstrip() for c in chunks)
    # No section boundary inside a closed backtick fence.
    layout = chunker.locate(text)
    for a, b in fence_interiors(text):
        assert not any(a < cut.end <= b and cut.stop <= b for cut in layout.cuts)


@pytest.mark.parametrize(
    "text",
    [
        "#" * 20_000,
        "`" * 20_000,
        "-" * 20_000,
        "- " * 10_000,
        "=" * 20_000,
        "~" * 20_000,
        "1" * 20_000,
        "1." * 10_000,
        " " * 20_000,
        "x" * 20_000,
        "```\n" * 5_000,  # fences opening and closing
        "#\n" * 10_000,
        "a\n===\n" * 3_000,
        "1. T\n\n" * 3_000,
        "\n\n\n#" * 5_000,
        "(" * 10_000 + ")" * 10_000,
        ("#" * 50 + "\n" + "-" * 50 + "\n" + "1.1.1.1.1.1 x\n") * 200,
    ],
    ids=lambda t: repr(t[:12]),
)
@pytest.mark.parametrize("config", [0, 1])
def test_structure_work_is_linear(monkeypatch: pytest.MonkeyPatch, text: str, config: int) -> None:
    from guardrails_ai.chunkwise.chunkers.structure import _StructureScanner

    work = count_work(monkeypatch, _StructureScanner)
    chunker = STRUCTURE_CONFIGS[config]

    def measure(n: int) -> Work:
        before = Work(work.examined, work.window, work.calls)
        feed_work(chunker, (text * 3)[:n], 4, work)
        return Work(
            work.examined - before.examined, work.window - before.window, work.calls - before.calls
        )

    linear(measure, 10_000)


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
