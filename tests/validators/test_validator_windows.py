"""Per-validator windows: chunks sized to what a model validator can take.

``with_chunker(validator, limit("sentence", max_tokens=N, tokenizer=...))`` is
the way to fit a validator's window: checked on a real hub validator this
package did not write (``guardrails_ai.lowercase.LowerCase``, PyPI
``guardrails-ai-lowercase``) through a real ``Guard``, on this package's four
validators given the same chunker, and on ``chunkwise guard --max-tokens``.
"""

from __future__ import annotations

from typing import Any

import bpe_openai
import pytest
from guardrails_ai.lowercase import LowerCase
from helpers.guardrails import guard_with, joined, run

from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII
from guardrails_ai.chunkwise._fence_joins import FenceJoins
from guardrails_ai.chunkwise._phrase_joins import PhraseJoins
from guardrails_ai.chunkwise.adapters import with_chunker
from guardrails_ai.chunkwise.chunkers import limit

CL100K = bpe_openai.get_encoding("cl100k_base")
WINDOW = 24

TEXT = (
    "The first sentence is short. "
    "The second sentence runs on and on, with clause after clause, list after list, "
    "and no end in sight for a model with a small window, until it finally stops here. "
    "\uff34\uff48\uff45 third has wide letters 日本語 and an emoji 🙂. Bye"
)


def tokens(text: str) -> int:
    return len(CL100K.encode_ordinary(text))


class SeenLowerCase(LowerCase):  # type: ignore[misc]
    """The hub validator, recording every value it is asked to validate."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seen: list[str] = []

    def validate(self, value: Any, metadata: dict[str, Any]) -> Any:
        self.seen.append(value)
        return super().validate(value, metadata)


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded_stream", "plain"])
def test_a_hub_validator_sees_chunks_within_its_token_window(guarded: bool) -> None:
    window = limit("sentence", max_tokens=WINDOW, tokenizer="cl100k_base")
    validator = with_chunker(SeenLowerCase(on_fail="fix"), window)
    deltas = [TEXT[i : i + 5] for i in range(0, len(TEXT), 5)]
    out = joined(run(guard_with(validator), deltas, guarded=guarded))
    expected = TEXT.lower()
    assert out == expected if guarded else expected.startswith(out)
    assert validator.seen and all(tokens(v) <= WINDOW for v in validator.seen), validator.seen
    assert max(tokens(v) for v in validator.seen) > WINDOW // 2
    # Sentences that fit stay whole; the long one is cut at words.
    assert "The first sentence is short." in validator.seen
    assert [c for c in validator.seen if c.strip()] == [c for c in window.split_text(TEXT)][
        : len([c for c in validator.seen if c.strip()])
    ]


@pytest.mark.parametrize(
    "make",
    [
        lambda chunker: BannedPhrases(["forbidden words"], chunker=chunker, on_fail="fix"),
        lambda chunker: MaxChunkLength(max_words=200, chunker=chunker, on_fail="fix"),
        lambda chunker: NoRepetition(chunker=chunker, on_fail="fix"),
    ],
    ids=["BannedPhrases", "MaxChunkLength", "NoRepetition"],
)
def test_our_validators_take_the_same_window(make: Any) -> None:
    window = limit("sentence", max_tokens=WINDOW, tokenizer=CL100K)
    validator = make(window)
    if isinstance(validator, BannedPhrases):
        # Its fallback cuts only where no phrase is (test_banned_phrases_windows.py)
        # and its units are sentences joined across a phrase (test_banned_phrases_joins.py).
        chunker = validator.chunker
        assert (chunker.limit, chunker.measure) == (window.limit, window.measure)
        assert chunker.inner == PhraseJoins(window.inner, validator._matcher)
    elif isinstance(validator, NoRepetition):
        # Its units are sentences joined with fence marks later on their line.
        chunker = validator.chunker
        assert (chunker.limit, chunker.measure) == (window.limit, window.measure)
        assert chunker.inner == FenceJoins(window.inner)
    else:
        assert validator.chunker is window
    deltas = [TEXT[i : i + 7] for i in range(0, len(TEXT), 7)]
    once = guard_with(validator).validate(TEXT)
    streamed = joined(run(guard_with(make(window)), deltas))
    assert streamed == once.validated_output
    chunks = window.split_text(TEXT)
    assert all(tokens(c) <= WINDOW for c in chunks)


def test_redact_pii_takes_a_window_that_holds_an_entity() -> None:
    # The window keeps its sentences and measure; its fallback cuts only where
    # no entity can be (tests/validators/test_redact_pii_windows.py).  A window too small to
    # hold an entity and what follows it is refused.
    window = limit("sentence", max_tokens=512, tokenizer=CL100K)
    validator = RedactPII(chunker=window, on_fail="fix")
    assert validator.chunker.limit == 512  # type: ignore[union-attr]
    with pytest.raises(ValueError, match=rf"max_tokens={WINDOW} is too small a window"):
        RedactPII(chunker=limit("sentence", max_tokens=WINDOW, tokenizer=CL100K))


def code_block(lines: int, secret: str) -> str:
    return (
        "Here is the code you asked for\n```\n"
        + "x = 1\n" * lines
        + f"yy # free money {secret} now\n```\nDone."
    )


@pytest.mark.parametrize(
    ("make", "secret", "hidden", "sizes"),
    [
        (
            lambda: BannedPhrases(
                ["secret"], chunker=limit("paragraph", max_chars=80), on_fail="fix"
            ),
            "secret",
            "******",
            range(2, 10),
        ),
        (
            lambda: RedactPII(chunker=limit("paragraph", max_chars=400), on_fail="fix"),
            "jo.smith@example.com",
            "<EMAIL>",
            range(52, 72),
        ),
    ],
    ids=["BannedPhrases", "RedactPII"],
)
def test_no_window_cuts_what_it_looks_for_beside_a_code_block(
    make: Any, secret: str, hidden: str, sizes: range
) -> None:
    # The safe cut of the fallback level fell inside a code block the limit
    # keeps whole; the limit refused it and cut at the window's end instead,
    # inside "secret" or the address, whose halves passed.
    for lines in sizes:
        text = code_block(lines, secret)
        expected = text.replace(secret, hidden)
        assert make().validate(text, {}).fix_value == expected, lines
        deltas = [text[i : i + 5] for i in range(0, len(text), 5)]
        assert joined(run(guard_with(make()), deltas)) == expected, lines
