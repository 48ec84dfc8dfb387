"""The four validators on one Guard / AsyncGuard, in every on_fail mode, streamed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from guardrails import Guard
from guardrails.errors import ValidationError
from helpers.guardrails import MESSAGES, arun, guard_with, joined, llm, run
from helpers.prose import BANNED_FOR_PROSE, PROSE
from helpers.validator_checks import texts_and_deltas
from hypothesis import given
from pydantic import BaseModel, Field

from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII
from guardrails_ai.chunkwise.adapters import guarded_stream


def validators(on_fail: Any, **chunkers: Any) -> list[Any]:
    return [
        BannedPhrases(["bad word", "evil"], on_fail=on_fail, chunker=chunkers.get("banned")),
        RedactPII(on_fail=on_fail, chunker=chunkers.get("pii")),
        NoRepetition(on_fail=on_fail),
        MaxChunkLength(max_words=8, on_fail=on_fail, chunker=chunkers.get("length")),
    ]


FIX = guard_with(*validators("fix"))
ASYNC_FIX = guard_with(*validators("fix"), asynchronous=True)
NOOP = guard_with(*validators("noop"))
MIXED = guard_with(*validators("fix", banned="paragraph", length="word"))

TEXT = (
    "Hello there. Mail john@example.com now! The bad word is here. I am fine. I am fine. "
    "This sentence is far too long for the limit we set. Card 4111 1111 1111 1111"
)
DELTAS = [TEXT[i : i + 5] for i in range(0, len(TEXT), 5)]
FIXED = (
    "Hello there. Mail <EMAIL> now! The *** **** is here. I am fine.  "
    "This sentence is far too long for the\u2026 Card <CARD>"
)


def test_fix_streamed_sync_and_async() -> None:
    assert FIX.validate(TEXT).validated_output == FIXED
    assert joined(run(FIX, DELTAS)) == FIXED
    assert joined(asyncio.run(arun(ASYNC_FIX, DELTAS))) == FIXED


def test_noop_releases_everything_and_reports_failure() -> None:
    outcomes = run(NOOP, DELTAS)
    assert joined(outcomes) == TEXT
    assert not all(o.validation_passed for o in outcomes)


def test_exception_raised_before_failing_text_is_released() -> None:
    guard = guard_with(*validators("exception"))
    released = []
    with pytest.raises(ValidationError, match=r"banned phrases|personal data"):
        for outcome in guarded_stream(guard, llm(DELTAS), messages=MESSAGES):
            released.append(outcome.validated_output or "")
    assert "Hello there. ".startswith("".join(released))


def test_filter_drops_failing_chunks_and_refrain_ends_the_output() -> None:
    filtered = joined(run(guard_with(*validators("filter")), DELTAS))
    assert filtered.split() == ["Hello", "there.", "I", "am", "fine."]
    # Refrain ends the output at the first failure: at most what passed before.
    refrained = run(guard_with(*validators("refrain")), DELTAS)
    assert "Hello there. ".startswith(joined(refrained))
    assert not refrained[-1].validation_passed


def test_each_validator_keeps_its_own_chunker() -> None:
    text = "A line with a bad\nword in it. Supercalifragilisticexpialidocious!!"
    outcome = MIXED.validate(text)
    # BannedPhrases by paragraph sees "bad\nword" (one sentence here anyway);
    # MaxChunkLength by word checks single words: never over eight.
    assert outcome.validated_output == (
        "A line with a ***\n**** in it. Supercalifragilisticexpialidocious!!"
    )
    assert joined(run(MIXED, [text[i : i + 4] for i in range(0, len(text), 4)])) == (
        outcome.validated_output
    )


def test_prose_passes_every_validator_unchanged() -> None:
    guard = guard_with(
        BannedPhrases(list(BANNED_FOR_PROSE)),
        RedactPII(),
        NoRepetition(),
        MaxChunkLength(max_words=30),
    )
    outcome = guard.validate(PROSE)
    assert outcome.validation_passed and outcome.validated_output == PROSE
    deltas = [PROSE[i : i + 9] for i in range(0, len(PROSE), 9)]
    outcomes = run(guard, deltas)
    assert joined(outcomes) == PROSE and all(o.validation_passed for o in outcomes)


_SENTENCES = [
    "Hello there.",
    "Mail john@example.com now!",
    "The BAD  word is here.",
    "\uff25\uff36\uff29\uff2c plans?",
    "I am fine.",
    "This sentence is far too long for the limit we set.",
    "Card 4111 1111 1111 1111",
    "Not a card: 4111 1111 1111 1112.",
    "Server 192.168.1.20 is up",
]


@given(texts_and_deltas(_SENTENCES))
def test_streamed_equals_validated_at_once(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    once = FIX.validate(text)
    assert joined(run(FIX, deltas)) == once.validated_output
    noop = run(NOOP, deltas)
    assert joined(noop) == text
    assert all(o.validation_passed for o in noop) == NOOP.validate(text).validation_passed


def test_guard_round_trips_through_its_dict() -> None:
    # Guardrails rebuilds validators from get_args(): every argument must do.
    guard = guard_with(
        BannedPhrases(["bad word"], mask="#", on_fail="fix"),
        RedactPII(entities=["email"], on_fail="fix"),
        NoRepetition(unit="paragraph", on_fail="fix"),
        MaxChunkLength(max_words=5, chunker="paragraph", on_fail="fix"),
    )
    rebuilt = Guard.from_dict(guard.to_dict())
    assert rebuilt is not None
    text = "A bad word. Mail a@example.com now."
    assert rebuilt.validate(text).validated_output == guard.validate(text).validated_output
    assert guard.validate(text).validated_output == "A ### ####. Mail <EMAIL>\u2026"


def test_pydantic_field() -> None:
    class Reply(BaseModel):
        text: str = Field(
            json_schema_extra={
                "validators": [RedactPII(on_fail="fix"), BannedPhrases(["bad word"], on_fail="fix")]
            }
        )

    guard = Guard.for_pydantic(Reply)
    outcome = guard.parse('{"text": "Mail a@example.com. A bad word."}')
    assert outcome.validated_output == {"text": "Mail <EMAIL>. A *** ****."}
