"""``language=`` on the validators that chunk by sentences: short for
``chunker=SentenceChunker(language=...)``, checked early, and kept by
``Guard.to_dict()``."""

from __future__ import annotations

import pytest

from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition
from guardrails_ai.chunkwise.chunkers import SentenceChunker

GERMAN = "Wir kamen am 12. Juni an. Es regnete. Es regnete."


def chunks(validator: object, text: str) -> list[str]:
    chunker = validator.chunker  # type: ignore[attr-defined]
    return list(chunker.split(text) + chunker.flush(text))


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: NoRepetition(**kw),
        lambda **kw: BannedPhrases(["verboten"], **kw),
        lambda **kw: MaxChunkLength(max_words=30, **kw),
    ],
    ids=["no_repetition", "banned_phrases", "max_chunk_length"],
)
def test_language_picks_the_sentence_chunker(make: object) -> None:
    validator = make(language="de")  # type: ignore[operator]
    chunker = validator.chunker
    assert getattr(chunker, "inner", chunker) == SentenceChunker(language="de")
    assert chunks(validator, GERMAN) == ["Wir kamen am 12. Juni an.", "Es regnete.", "Es regnete."]
    # Recorded as the chunker, so a guard's spec rebuilds it.
    assert validator.get_args()["chunker"].json_value() == SentenceChunker(language="de").spec()
    with pytest.raises(ValueError, match=r"language='xx' is not a supported language"):
        make(language="xx")  # type: ignore[operator]
    with pytest.raises(TypeError, match=r"language must be a language code"):
        make(language=7)  # type: ignore[operator]
    with pytest.raises(ValueError, match=r"language=.* or chunker=.*not both"):
        make(language="de", chunker="paragraph")  # type: ignore[operator]


def test_no_repetition_counts_sentences_of_the_language() -> None:
    validator = NoRepetition(language="de", on_fail="fix")
    result = validator.validate(GERMAN, {})
    assert result.outcome == "fail"
    assert NoRepetition(unit="sentence", language="de").chunker == SentenceChunker(language="de")
    with pytest.raises(ValueError, match=r"language='de' applies to sentences"):
        NoRepetition(unit="paragraph", language="de")


def test_a_guard_keeps_the_language_through_to_dict() -> None:
    from guardrails import Guard

    guard = Guard().use(NoRepetition(language="de", on_fail="fix"))
    rebuilt = Guard.from_dict(guard.to_dict())
    (validator,) = rebuilt._validators
    chunker = validator.chunker
    assert getattr(chunker, "inner", chunker) == SentenceChunker(language="de")
