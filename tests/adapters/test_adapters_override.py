"""``with_chunker``: per-instance and per-class chunking overrides.

Checked on this package's ``ChunkedValidator`` and on a real hub validator it
did not write, ``guardrails_ai.lowercase.LowerCase`` (the PyPI package
``guardrails-ai-lowercase``, installed by the test extra), through a plain
``guard(..., stream=True)`` and through ``guarded_stream``.
"""

from __future__ import annotations

from typing import Any

import pytest
from guardrails.validator_base import validators_registry
from guardrails_ai.lowercase import LowerCase
from helpers.guardrails import PlainBan, Record, guard_with, joined, run

from guardrails_ai.chunkwise.adapters import with_chunker
from guardrails_ai.chunkwise.chunkers import (
    ParagraphChunker,
    SentenceChunker,
    WordChunker,
    resolve_chunker,
)

TEXT = "Hello there. How are you? I am fine! Thanks for asking. Bye"
DELTAS3 = [TEXT[i : i + 3] for i in range(0, len(TEXT), 3)]


# -- per instance -------------------------------------------------------------------


def test_instance_override_changes_only_that_instance() -> None:
    changed, other = LowerCase(), LowerCase()
    assert with_chunker(changed, "word") is changed
    assert changed._chunking_function("one two") == ["one ", "two"]
    assert "_chunking_function" not in vars(other)
    assert other._chunking_function("one two") == []  # still Guardrails' splitter
    assert "_chunking_function" not in vars(LowerCase)  # nothing set on the class


def test_instance_override_of_a_chunked_validator() -> None:
    changed, other = Record(), Record()
    with_chunker(changed, ParagraphChunker(crlf=True))
    assert changed.chunker == ParagraphChunker(crlf=True)
    assert other.chunker == resolve_chunker("sentence")
    changed.validate("One. Two.\r\n\r\nThree", {})
    assert changed.seen == ["One. Two.", "Three"]


def test_hub_validator_keeps_whitespace_on_the_plain_path() -> None:
    # Regression 1 fixed for a hub validator, with no help from guarded_stream.
    fixed = with_chunker(LowerCase(on_fail="fix"), "sentence-simple")
    assert joined(run(guard_with(fixed), DELTAS3, guarded=False)) == TEXT.lower()
    stock = LowerCase(on_fail="fix")
    out = joined(run(guard_with(stock), DELTAS3, guarded=False))
    assert out == "hello there. how are you?i am fine! thanks for asking.bye"


@pytest.mark.parametrize("chunker", ["word", WordChunker()])
def test_guarded_stream_uses_the_overridden_chunking(chunker: Any) -> None:
    validator = with_chunker(PlainBan("are", on_fail="fix"), chunker)
    assert joined(run(guard_with(validator), DELTAS3)) == TEXT.replace("are", "***")
    assert validator.seen == TEXT.split()


# -- per class ------------------------------------------------------------------------


@pytest.mark.parametrize("target", [LowerCase, "guardrails/lowercase"], ids=["class", "alias"])
def test_class_override_is_a_subclass_keeping_the_alias(target: Any) -> None:
    Words = with_chunker(target, "word")
    assert issubclass(Words, LowerCase) and Words is not LowerCase
    assert Words.__name__ == "LowerCase"
    assert Words.rail_alias == "guardrails/lowercase"
    assert validators_registry["guardrails/lowercase"] is LowerCase
    assert Words()._chunking_function("one two") == ["one ", "two"]
    # The original class and its instances are untouched.
    assert LowerCase._chunking_function is not Words._chunking_function
    assert LowerCase()._chunking_function("one two") == []


def test_class_override_through_a_plain_guard() -> None:
    Sentences = with_chunker(LowerCase, "sentence-simple")
    out = joined(run(guard_with(Sentences(on_fail="fix")), DELTAS3, guarded=False))
    assert out == TEXT.lower()


def test_class_override_through_guarded_stream() -> None:
    Words = with_chunker(PlainBan, "word")
    validator = Words("are", on_fail="fix")
    assert joined(run(guard_with(validator), DELTAS3)) == TEXT.replace("are", "***")
    assert validator.seen == TEXT.split()


def test_class_override_of_a_chunked_validator() -> None:
    Words = with_chunker(Record, "word")
    assert Words.rail_alias == Record.rail_alias
    assert isinstance(Words().chunker, WordChunker)
    assert Words(chunker="paragraph").chunker == ParagraphChunker()  # instances may still choose
    assert isinstance(Record().chunker, SentenceChunker)


# -- bad arguments -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("validator", "chunker", "error", "words"),
    [
        (LowerCase(), "nope", ValueError, "chunker='nope' is not a known chunker.*'word'"),
        (LowerCase(), 42, TypeError, "chunker must be one of"),
        (LowerCase(), WordChunker, TypeError, "chunker=WordChunker is a class"),
        ("no/such", "word", ValueError, "validator='no/such' is not a registered"),
        (42, "word", TypeError, "validator must be a guardrails Validator.*int: 42"),
        (str, "word", TypeError, "validator must be a guardrails Validator"),
    ],
)
def test_bad_arguments(validator: Any, chunker: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        with_chunker(validator, chunker)
