"""MaxChunkLength: bounds, the truncating fix, bad arguments, streams."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from guardrails_ai.types import FailResult, PassResult
from helpers.guardrails import arun, guard_with, joined, run, validated_and_streamed
from helpers.prose import PROSE
from helpers.validator_checks import assert_fix_within_spans, assert_verdict, texts_and_deltas
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise import MaxChunkLength
from guardrails_ai.chunkwise.max_chunk_length import ELLIPSIS

WORDS = MaxChunkLength(max_words=4, on_fail="fix")
GUARD = guard_with(WORDS)
ASYNC_GUARD = guard_with(MaxChunkLength(max_words=4, on_fail="fix"), asynchronous=True)


@pytest.mark.parametrize(
    ("kwargs", "text", "fixed"),
    [
        ({"max_words": 4}, "One two three four.", None),
        ({"max_words": 4}, "One two three four five.", "One two three four\u2026"),
        ({"max_words": 2}, "One  two\tthree.", "One  two\u2026"),
        ({"max_chars": 10}, "Short one.", None),
        ({"max_chars": 10}, "Rather long words.", "Rather\u2026"),
        ({"max_chars": 10}, "Supercalifragilistic.", "Supercali\u2026"),  # one word too long
        ({"max_chars": 1}, "Hi.", "\u2026"),
        # Inside a word, the cut keeps what a reader sees as one character whole:
        # an accent with its letter, an emoji sequence, a flag.
        ({"max_chars": 4}, "e\u0301e\u0301e\u0301e\u0301.", "e\u0301\u2026"),
        ({"max_chars": 5}, "ab\U0001f469\u200d\U0001f4bbcd.", "ab\u2026"),
        (
            {"max_chars": 4},
            "\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea!",
            "\U0001f1eb\U0001f1f7\u2026",
        ),
        # One cluster longer than the room left is cut where the room ends.
        ({"max_chars": 3}, "e\u0301\u0301\u0301\u0301.", "e\u0301\u2026"),
        ({"max_words": 3, "max_chars": 12}, "a b c d e f.", "a b c\u2026"),
        ({"max_words": 3, "max_chars": 12}, "alpha beta gamma.", "alpha beta\u2026"),
    ],
)
def test_examples(kwargs: dict[str, Any], text: str, fixed: str | None) -> None:
    validator = MaxChunkLength(**kwargs)
    result = assert_verdict(validator.validate(text, {}), fixed)
    if result is None:
        return
    [span] = result.error_spans
    assert fixed == text[: span.start] + ELLIPSIS and span.end == len(text)
    # The fix is itself within bounds.
    assert isinstance(validator.validate(fixed, {}), PassResult)


def test_reason_names_the_bounds() -> None:
    validator = MaxChunkLength(max_words=2, max_chars=8)
    result = validator.validate("One two three four.", {})
    assert isinstance(result, FailResult)
    assert result.error_spans[0].reason == (
        "chunk too long: 4 words (at most 2) and 19 characters (at most 8)"
    )


def test_every_sentence_checked_separately() -> None:
    result = WORDS.validate("One two three four five. Six. Seven eight nine ten eleven!", {})
    assert isinstance(result, FailResult)
    assert result.fix_value == "One two three four\u2026 Six. Seven eight nine ten\u2026"
    assert len(result.error_spans) == 2


def test_paragraph_chunker() -> None:
    validator = MaxChunkLength(max_words=6, chunker="paragraph", on_fail="fix")
    text = "One. Two. Three.\n\nA b c d e f g h."
    result = validator.validate(text, {})
    assert isinstance(result, FailResult)
    assert result.fix_value == "One. Two. Three.\n\nA b c d e f\u2026"


def test_no_false_positives_on_prose() -> None:
    assert isinstance(MaxChunkLength(max_words=30).validate(PROSE, {}), PassResult)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({}, ValueError, r"give max_words or max_chars \(or both\); got neither"),
        ({"max_words": 0}, ValueError, r"max_words must be >= 1, got 0"),
        ({"max_chars": -3}, ValueError, r"max_chars must be >= 1, got -3"),
        ({"max_words": True}, TypeError, r"max_words must be an int, got bool: True"),
        ({"max_chars": 2.5}, TypeError, r"max_chars must be an int, got float: 2.5"),
        ({"max_words": "3"}, TypeError, r"max_words must be an int, got str: '3'"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        MaxChunkLength(**kwargs)


def test_get_args_show_only_given_bounds() -> None:
    assert MaxChunkLength(max_chars=9).get_args() == {"max_chars": 9}
    assert MaxChunkLength(max_words=3, max_chars=9).to_prompt() == (
        "chunkwise/max_chunk_length: max_words=3 max_chars=9"
    )


@given(
    st.text(alphabet=st.sampled_from("ab \n\t\u00e9\u4e00"), max_size=80),
    st.one_of(st.none(), st.integers(1, 8)),
    st.integers(1, 40),
)
def test_fix_is_within_bounds_and_keeps_the_start(text: str, words: int | None, chars: int) -> None:
    validator = MaxChunkLength(max_words=words, max_chars=chars)
    result = validator._validate(text, {})
    if isinstance(result, PassResult):
        assert text.isspace() or len(text) <= chars
        assert words is None or len(text.split()) <= words
        return
    fixed = result.fix_value
    assert fixed.endswith(ELLIPSIS) and text.startswith(fixed[: -len(ELLIPSIS)])
    assert len(fixed) <= chars and (words is None or len(fixed.split()) <= words)
    assert_fix_within_spans(text, result)


_SENTENCES = [
    "One two three four five six.",
    "Short one.",
    "A b c d",
    "Yes!",
    "This one has exactly five.",
    "Tiny",
]


@given(texts_and_deltas(_SENTENCES))
def test_streamed_equals_validated_at_once(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    once = validated_and_streamed(GUARD, text, deltas)
    assert joined(asyncio.run(arun(ASYNC_GUARD, deltas))) == once.validated_output


@pytest.mark.parametrize("text", ["\n" * 12, " " * 30, "\r\n\t \u3000" * 4])
@pytest.mark.parametrize("on_fail", ["fix", "exception", "noop"])
def test_a_blank_response_has_nothing_too_long(text: str, on_fail: str) -> None:
    # Before: a response of whitespace only (no sentence: a model printing
    # newlines) is validated whole, and its whitespace counted as characters,
    # so it failed max_chars where the same run after "Hi." passed: the fix
    # released "\n\n\n\n…", exception raised, noop reported a failure; while
    # validate() of the same text passed.
    guard = guard_with(MaxChunkLength(max_chars=5, on_fail=on_fail))
    for deltas in ([text], [text[:3], text[3:]]):
        outcomes = run(guard, deltas)
        assert joined(outcomes) == text
        assert outcomes[-1].validation_passed
    assert (
        joined(
            asyncio.run(arun(guard_with(MaxChunkLength(max_chars=5), asynchronous=True), [text]))
        )
        == text
    )
    assert isinstance(MaxChunkLength(max_chars=5)._validate(text, {}), PassResult)
    assert isinstance(MaxChunkLength(max_chars=5).validate("Hi." + text, {}), PassResult)
