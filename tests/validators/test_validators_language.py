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


# Armenian written with ":" for its full stop, as LLMs often do: the default
# chunker ("auto") reads it as a full stop after an Armenian letter, and every
# Guard path hands the validator the text as written.
ARMENIAN = "Ես տուն եմ գնում: Դու ինչ ես անում: Ratio 3:1 here."
ARMENIAN_SENTENCES = ["Ես տուն եմ գնում:", "Դու ինչ ես անում:", "Ratio 3:1 here."]


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded_stream", "guard_stream"])
@pytest.mark.parametrize("size", [1, 3, len(ARMENIAN)])
def test_auto_ends_armenian_sentences_at_a_typed_colon_through_a_guard(
    guarded: bool, size: int
) -> None:
    from helpers.guardrails import Record, guard_with, joined, run

    record = Record()
    guard = guard_with(record)
    deltas = [ARMENIAN[i : i + size] for i in range(0, len(ARMENIAN), size)]
    released = joined(run(guard, deltas, guarded=guarded))
    if guarded:
        assert [c.strip() for c in record.seen] == ARMENIAN_SENTENCES
        assert released == ARMENIAN
    else:  # (Guardrails' own runner never validates the trailing fragment)
        assert [c.strip() for c in record.seen] == ARMENIAN_SENTENCES[:2]
        assert ARMENIAN.startswith(released)


def test_auto_ends_armenian_sentences_at_a_typed_colon_through_an_async_guard() -> None:
    import asyncio

    from helpers.guardrails import Record, arun, guard_with, joined

    record = Record()
    guard = guard_with(record, asynchronous=True)
    deltas = [ARMENIAN[i : i + 2] for i in range(0, len(ARMENIAN), 2)]
    released = joined(asyncio.run(arun(guard, deltas)))
    assert [c.strip() for c in record.seen] == ARMENIAN_SENTENCES
    assert released == ARMENIAN


# This session's rules change what the default chunker hands a validator: a
# Markdown table row is one chunk, an emoji that ends a line stays with its
# sentence, "'90s" opens no quotation, a unit after a number ends its sentence.
MIXED = "| a | Slower. |\nEmail us! 😊\nWe loved the '90s. It took 2 hrs. Too long."
MIXED_CHUNKS = [
    "| a | Slower. |",
    "Email us! 😊",
    "We loved the '90s.",
    "It took 2 hrs.",
    "Too long.",
]


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded_stream", "guard_stream"])
@pytest.mark.parametrize("size", [1, 4, len(MIXED)])
def test_tables_emoji_and_units_reach_the_validator_whole_through_a_guard(
    guarded: bool, size: int
) -> None:
    from helpers.guardrails import Record, guard_with, joined, run

    record = Record()
    guard = guard_with(record)
    deltas = [MIXED[i : i + size] for i in range(0, len(MIXED), size)]
    released = joined(run(guard, deltas, guarded=guarded))
    if guarded:
        assert [c.strip() for c in record.seen] == MIXED_CHUNKS
        assert released == MIXED
    else:  # (Guardrails' own runner never validates the trailing fragment)
        assert [c.strip() for c in record.seen] == MIXED_CHUNKS[:-1]
        assert MIXED.startswith(released)


def test_tables_emoji_and_units_reach_the_validator_whole_through_an_async_guard() -> None:
    import asyncio

    from guardrails import AsyncGuard
    from helpers.guardrails import Record, arun, guard_with, joined

    record = Record()
    guard = guard_with(record, asynchronous=True)
    rebuilt = AsyncGuard.from_dict(guard.to_dict())  # (as the Guardrails server does)
    assert rebuilt is not None
    for each in (guard, rebuilt):
        (seen,) = [v.seen for v in each.get_validators("output")]  # type: ignore[attr-defined]
        deltas = [MIXED[i : i + 3] for i in range(0, len(MIXED), 3)]
        released = joined(asyncio.run(arun(each, deltas)))  # type: ignore[arg-type]
        assert [c.strip() for c in seen] == MIXED_CHUNKS
        assert released == MIXED
