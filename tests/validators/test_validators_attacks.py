"""The validators under attack: disguised phrases, huge phrases and mark runs, PII in
messages, bad on_fail values and chunkers that split entities (issue 12 items 2, 3,
10, 11, 12, 13)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _pii_labelled import labelled_set
from banned_coverage import BENIGN, PHRASES, attacks
from guardrails.errors import ValidationError
from guardrails_ai.types import FailResult, PassResult
from helpers.guardrails import guard_with, joined, run
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise import (
    BannedPhrases,
    MaxChunkLength,
    NoRepetition,
    RedactPII,
    _normalize,
)
from guardrails_ai.chunkwise._phrases import PhraseMatcher
from guardrails_ai.chunkwise._pii import find_entities
from guardrails_ai.chunkwise.chunkers import limit

ALL = [
    (BannedPhrases, {"phrases": ["bad word"]}),
    (RedactPII, {}),
    (NoRepetition, {}),
    (MaxChunkLength, {"max_words": 3}),
]

# -- item 13: on_fail and chunkers ------------------------------------------------------


@pytest.mark.parametrize(("cls", "kwargs"), ALL)
def test_unknown_on_fail_is_refused_naming_it(cls: Any, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"on_fail='explode' is not an on-fail action.*'fix'"):
        cls(**kwargs, on_fail="explode")
    with pytest.raises(TypeError, match=r"on_fail must be an on-fail action name or a callable"):
        cls(**kwargs, on_fail=3)
    for good in (
        "fix",
        "EXCEPTION",
        "noop",
        "filter",
        "refrain",
        "reask",
        "fix_reask",
        None,
        lambda value, fail: value,
    ):
        cls(**kwargs, on_fail=good)


@pytest.mark.parametrize("chunker", ["word", "fixed"])
def test_redact_pii_refuses_a_chunker_that_splits_entities(chunker: str) -> None:
    with pytest.raises(ValueError, match=r"chunker=.* cuts an? .* in two"):
        RedactPII(chunker=chunker)


@pytest.mark.parametrize(
    ("pattern", "entity"),
    [
        (r"(?<=\d)\.(?=\d)", "an IPv4 address"),  # the probes held no IPv4 address
        (r"/", "a phone number"),  # nor a number written 030/1234567
        (r"\uff0e", "an e-mail address"),  # a full-width dot
        (r"\u200b", "an e-mail address"),  # an invisible character inside an address
    ],
)
def test_redact_pii_refuses_a_chunker_that_splits_any_kind(pattern: str, entity: str) -> None:
    from guardrails_ai.chunkwise.chunkers import RegexChunker

    with pytest.raises(ValueError, match=f"cuts {entity} in two"):
        RedactPII(chunker=RegexChunker(pattern))


def test_redact_pii_refuses_a_hard_cut_ceiling() -> None:
    from guardrails_ai.chunkwise.chunkers import Bounded, SentenceChunker

    for ceiling in (120, 300, 1000, 2000):
        with pytest.raises(ValueError, match="e-mail address in two"):
            RedactPII(chunker=Bounded(SentenceChunker(), ceiling, fallback=[]))
    RedactPII(chunker="sentence")
    RedactPII(chunker="paragraph")
    RedactPII(chunker=RedactPII.default_chunker)


# -- item 3: messages describe, they do not quote ----------------------------------------


def _messages(result: Any) -> list[str]:
    assert isinstance(result, FailResult)
    return [result.error_message or ""] + [s.reason or "" for s in result.error_spans]


def test_no_message_quotes_the_text() -> None:
    secret = "Mail bob@example.com now"
    for validator, text in [
        (NoRepetition(), f"{secret}. {secret}."),
        (MaxChunkLength(max_words=2), f"{secret}."),
        (RedactPII(), f"{secret}."),
        (BannedPhrases(["bob@example.com now"]), f"{secret}."),
    ]:
        for message in _messages(validator.validate(text, {})):
            assert "bob" not in message and "Mail" not in message, (validator, message)


def test_failure_summaries_do_not_quote() -> None:
    # The README's four validators on one guard: what reaches a client, at once
    # and streamed (results of each streamed chunk, as Guardrails gets them).
    validators = [
        RedactPII(on_fail="fix"),
        NoRepetition(on_fail="fix"),
        BannedPhrases(["bob@example.com"], on_fail="fix"),
        MaxChunkLength(max_words=3, on_fail="fix"),
    ]
    guard = guard_with(*validators)
    text = "Mail bob@example.com now. Mail bob@example.com now. Thanks."
    outcome = guard.validate(text)
    summaries = [
        f"{s.failure_reason} {[e.reason for e in s.error_spans or []]}"
        for s in outcome.validation_summaries or []
    ]
    assert len(summaries) >= 2 and all("bob" not in s for s in summaries), summaries
    assert "bob@" not in joined(run(guard, [text[:17], text[17:]]))
    for validator in validators:
        results = [validator.validate_stream(d, {}) for d in (text[:17], text[17:])]
        results.append(validator.validate_stream("", {}, remainder=True))
        for result in results:
            if isinstance(result, FailResult):
                assert all("bob" not in m for m in _messages(result)), validator
    with pytest.raises(ValidationError) as raised:
        guard_with(NoRepetition(on_fail="exception")).validate(text)
    assert "bob" not in str(raised.value)


def test_bad_phrase_arguments_do_not_quote_phrases() -> None:
    with pytest.raises(ValueError) as raised:
        BannedPhrases(["ok", "secret prompt passage"], chunker=limit("word", max_chars=12))
    assert "secret" not in str(raised.value) and "phrases[1]" in str(raised.value)
    with pytest.raises(TypeError) as wrong_type:
        BannedPhrases(["ok", b"secret prompt passage"])  # type: ignore[list-item]
    assert "secret" not in str(wrong_type.value) and "bytes of" in str(wrong_type.value)


# -- item 10: phrases of any length, runs of marks -----------------------------------------


def test_long_phrases_compile() -> None:
    # Was RecursionError: the pattern was built recursively, one frame per character.
    validator = BannedPhrases(["a" * 497, "b" * 5000, "c " * 800])
    assert isinstance(validator.validate("x " + "a" * 497 + ".", {}), FailResult)
    assert isinstance(validator.validate("a" * 498 + ".", {}), PassResult)


def _normalized_work(text: str) -> int:
    """Characters handed to unicodedata.normalize, each counted by its call's size."""
    calls: list[int] = []
    real = _normalize.unicodedata.normalize

    def counting(form: Any, value: str) -> str:
        calls.append(len(value))
        return real(form, value)

    _normalize.unicodedata.normalize = counting  # type: ignore[assignment]
    try:
        _normalize.fold(text)
    finally:
        _normalize.unicodedata.normalize = real  # type: ignore[assignment]
    # Normalising n combining marks at once costs up to n^2 (canonical reordering).
    return sum(c * c for c in calls)


def test_mark_runs_cost_linear() -> None:
    small = _normalized_work("a" + "\u0301\u0323" * 5_000)
    large = _normalized_work("a" + "\u0301\u0323" * 20_000)
    assert large <= 4.2 * small
    assert large <= 40 * 40 * 4 * 40_001  # clusters of at most 31 characters


def test_mark_runs_split_into_stream_safe_clusters() -> None:
    text = "a" + "\u0301" * 100
    folded = _normalize.fold(text)
    assert folded.text == "a"  # marks are dropped; the map still covers the source
    spans = {(s, e) for s, e in zip(folded.starts, folded.ends, strict=True)}
    assert spans == {(0, 31)}


# -- item 11: coverage and benign near-misses ----------------------------------------------

COVERAGE = BannedPhrases(PHRASES)


@pytest.mark.parametrize("family", sorted(attacks()))
def test_every_disguise_is_caught(family: str) -> None:
    missed = [t for t in attacks()[family] if isinstance(COVERAGE.validate(t, {}), PassResult)]
    assert missed == []


@pytest.mark.parametrize("text", BENIGN)
def test_benign_near_misses_pass(text: str) -> None:
    assert isinstance(COVERAGE.validate(text, {}), PassResult)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("_free money_ now", "_**** *****_ now"),
        ("__free__ money", "__****** *****"),  # the markers inside the match are masked
        ("**free** money!", "******** *****!"),
        ("fr\u0336e\u0336e\u0336 money", "******* *****"),
        # Four or more "_" are bold emphasis in CommonMark too (before: missed).
        ("____free money____ now", "____**** *****____ now"),
        ("Get ______free______ money", "Get ______********** *****"),
    ],
)
def test_masks_cover_exactly_the_disguised_phrase(text: str, masked: str) -> None:
    result = BannedPhrases(["free money"], on_fail="fix").validate(text, {})
    assert isinstance(result, FailResult)
    assert result.fix_value == masked


@pytest.mark.parametrize("text", ["x____free money", "x_free money", "free money_x"])
def test_underscores_glued_to_a_word_keep_it_one_word(text: str) -> None:
    assert isinstance(BannedPhrases(["free money"]).validate(text, {}), PassResult)


def test_a_long_emphasis_run_is_caught_in_every_slicing() -> None:
    guard = guard_with(BannedPhrases(["free money"], chunker="word", on_fail="fix"))
    text = "Try ____free\nmoney____ now."
    for deltas in ([text], list(text), [text[:9], text[9:]]):
        assert joined(run(guard, deltas)) == "Try ____****\n*****____ now."


@given(st.text(alphabet="free money_*~ \u0301\u0336\u0430\u3164xy", max_size=40))
def test_matches_fold_to_the_phrase(text: str) -> None:
    matcher = PhraseMatcher(["free money"])
    for m in matcher.find(text):
        folded = _normalize.fold_text(text[m.start : m.end])
        assert folded.replace("_", " ").replace("*", " ").replace("~", " ").split() == [
            "free",
            "money",
        ]


# -- items 2 and 12: entities whole, context ----------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "sam.o'neil+billing@example.co.uk",
        "o'neil@example.com",
        "a!b@example.com",
        "a#b@example.com",
        "a&b@example.com",
        "a=b@example.com",
        "a{b}@example.com",
        "user@example.xn--p1ai",
        "first.last@sub.example.travel",
    ],
)
def test_whole_addresses_are_one_entity(address: str) -> None:
    text = f"Write to {address} today."
    result = RedactPII(on_fail="fix").validate(text, {})
    assert isinstance(result, FailResult)
    assert result.fix_value == "Write to <EMAIL> today."


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Tel 01 23 45 67 89.", ["01 23 45 67 89"]),
        ("Ruf an: 030/1234567.", ["030/1234567"]),
        ("Handy 01512 3456789.", ["01512 3456789"]),
        ("Mobil: 015123456789.", ["015123456789"]),
        ("Call 98765 43210.", ["98765 43210"]),
        ("Order 1234567890 shipped.", []),
        ("INT_MAX is 2147483647.", []),
        ("ISBN 0-306-40615-2.", []),
        ("Dial 000 000 0000.", []),
        ("Use version 1.2.3.4.", []),
        ("See section 4.1.2.3.", []),
        ("Release 6.1.7.1 is out.", []),
        ("See para 4.1.2.3 and ver 10.0.0.1.", []),
        # ... and in other languages (each was redacted as an IPv4 address).
        ("Ver el cap\u00edtulo 10.2.3.4 y la versi\u00f3n 10.0.0.1.", []),
        ("Siehe Kapitel 10.2.3.4, voir chapitre 10.2.3.4.", []),
        ("<td>Order</td><td>4111111111111111</td>", []),
        # One-digit numbers spaced, with no label: a list, not a number.
        ("Bits 1 0 1 1 0 0 1 0 1 1 0 1 0 0 1 1, scores 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1.", []),
        ("Batch 4222222222222 done.", []),  # 13 digits, Luhn passes, no card label
        ("Visa card 4222222222222.", ["4222222222222"]),
        # A label quoted in code names its value too; one for another number
        # does not hide a value that has a shape of its own ("v": a value).
        ('{"card": "4222222222222"}', ["4222222222222"]),
        ('{"v": "4111111111111111"}', ["4111111111111111"]),
    ],
)
def test_context_decides(text: str, found: list[str]) -> None:
    assert [text[e.start : e.end] for e in find_entities(text)] == found


def test_labelled_set_targets() -> None:
    # Every entity type at >= 0.95 precision and recall on the labelled set.
    counts: dict[str, list[int]] = {}
    for text, labels in labelled_set():
        got = {(e.start, e.end, e.name) for e in find_entities(text)}
        want = set(labels)
        for kind in {k for _, _, k in got | want}:
            c = counts.setdefault(kind, [0, 0, 0])
            c[0] += len({g for g in got & want if g[2] == kind})
            c[1] += len({g for g in got - want if g[2] == kind})
            c[2] += len({g for g in want - got if g[2] == kind})
    for kind, (tp, fp, fn) in counts.items():
        assert tp / (tp + fp) >= 0.95 and tp / (tp + fn) >= 0.95, (kind, tp, fp, fn)


def test_contract_errors_do_not_quote_the_text() -> None:
    # A chunker or a validator that breaks its contract is named, and so is
    # what it returned, by type and length: never the text, which may be PII.
    from guardrails_ai.chunkwise.adapters import ChunkedValidator, GuardrailsChunker
    from guardrails_ai.chunkwise.chunkers import ChunkStream

    secret = "Card 4111 1111 1111 1111 of ann. More"

    class Changing:  # a split/flush object that returns text not in its input
        def split(self, text: str) -> list[str]:
            return [text.upper()[:20]] if len(text) > 20 else []

        def flush(self, text: str) -> list[str]:
            return []

    from guardrails.validator_base import register_validator

    @register_validator(name="chunkwise-test/returns-its-input", data_type="string")
    class Wrong(ChunkedValidator):
        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            return value

    def moved(text: str) -> list[str]:
        return [text.upper(), ""] if len(text) > 20 else []

    failures: list[Callable[[], object]] = [
        lambda: ChunkStream(Changing()).feed(secret),
        lambda: GuardrailsChunker(moved).split(secret),
        lambda: GuardrailsChunker(lambda text: [text, "", ""]).split(secret),
        lambda: Wrong().validate_chunk(secret, {}),
        lambda: BannedPhrases(secret),  # type: ignore[arg-type]
    ]
    for failure in failures:
        with pytest.raises((TypeError, ValueError)) as raised:
            failure()
        message = str(raised.value)
        assert "4111" not in message and "ann" not in message.lower(), message
