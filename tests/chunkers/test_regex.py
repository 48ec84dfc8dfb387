"""RegexChunker: the separator's place, waiting as long as a pattern needs, bad
patterns, properties over plain and wide patterns, and linear work on adversarial
text (characters handed to the regex engine, never seconds).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.chunking import bad, check_stream, linear, sliced
from helpers.chunking import stream as drive
from helpers.cost import CountingPattern, Work
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    ChunkStream,
    RegexChunker,
)

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


def test_regex_lookahead_keeps_a_heading_marker_in_the_chunk_it_opens() -> None:
    # The docstring's example: cut before each Markdown heading, "#" kept.
    text = "# One\ntext\n\n## Two\nmore\n# Three"
    chunks = ["# One\ntext", "## Two\nmore", "# Three"]
    chunker = RegexChunker(r"\n+(?=#)")
    assert chunker.split_text(text) == chunks
    assert [p.chunk for p in drive(chunker, list(text))] == chunks
    # (A marker matched as the separator goes out of the chunks.)
    assert RegexChunker(r"(?m)^#").split_text(text) == [" One\ntext\n\n", "# Two\nmore\n", " Three"]


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


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?:(?=a+b)|x)a",  # an alternative that starts with a lookahead...
        r"(?:x|(?=a+b))a",
        r"(?:(?:(?=a+b)|x)|y)a",  # ... nested further
        r"((?=a+b)|x)a",  # in a capturing group
        r"(?>(?=a+b)|x)a",  # in an atomic group
        r";(?:(?=.*!)|x)",  # a lookahead over the characters before the group
        r"y(?:c(?=\s*\s*x)|b)",  # two repeats in a row in a nested lookahead
    ],
)
def test_regex_refuses_lookaheads_in_nested_alternatives(pattern: str) -> None:
    # The check read lookaheads in the top-level sequence and each top-level
    # alternative only: these were accepted, and their search is quadratic on a
    # run of a (of ;, of spaces after yc): 4x the run took 11-21x the time.
    with bad(ValueError, f"pattern={pattern!r}", "not be linear"):
        RegexChunker(pattern)


@pytest.mark.parametrize(
    ("pattern", "text", "chunks"),
    [
        ("(?:\n\n|\r\n\r\n)", "a\n\nb\r\n\r\nc", ["a", "b", "c"]),
        (r"(?:[.!?]|\n)\s+", "Aa. Bb\n Cc", ["Aa", "Bb", "Cc"]),
        (r"(?:[.!?](?=\s+[A-Z])|\n)", "Aa. Bb. cc\nDd", ["Aa", " Bb. cc", "Dd"]),
        (r"(?:(?=\n\n)|\r)\s+", "a b\n\nc\r\nd", ["a b", "c", "d"]),
        (r"(?:(?<=[.!?])|\n)\s+", "Aa. Bb\n Cc", ["Aa.", "Bb", "Cc"]),
    ],
)
def test_regex_accepts_linear_nested_alternatives(
    pattern: str, text: str, chunks: list[str]
) -> None:
    assert RegexChunker(pattern).split_text(text) == chunks


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
    r"(?:ab|c)+",
    r"\n(?=##)",
    r"ab(?=b)",
    r"\n\n|---",
    r"ab*c|a",
    r";(?=[a-c ]*!)",
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


def test_chunkers_of_long_patterns_that_differ_are_not_equal() -> None:
    # Equality and hashing read the repr, and re.Pattern's repr stops after
    # 200 characters: two chunkers that split differently were equal.
    words = "|".join(f"word{i:03d}" for i in range(40))
    semicolon, comma = RegexChunker(f"(?:{words}|;)"), RegexChunker(f"(?:{words}|,)")
    assert semicolon.split_text("x;y,z") != comma.split_text("x;y,z")
    assert semicolon != comma and len({semicolon, comma}) == 2
    assert semicolon == RegexChunker(f"(?:{words}|;)")
    assert repr(RegexChunker(re.compile("a", re.I))) == (
        "RegexChunker(pattern=re.compile('a', re.IGNORECASE))"
    )
