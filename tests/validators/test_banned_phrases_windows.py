"""BannedPhrases under a size limit: a sentence longer than the window is cut,
never inside a phrase (``_phrase_cuts``)."""

from __future__ import annotations

import pytest
from guardrails.errors import ValidationError
from guardrails_ai.types import FailResult
from helpers.cost import Reads
from helpers.guardrails import guard_with, joined, run, slicings
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import BannedPhrases
from guardrails_ai.chunkwise._phrase_cuts import phrase_safe_cut
from guardrails_ai.chunkwise._phrases import PhraseMatcher
from guardrails_ai.chunkwise.adapters import with_chunker
from guardrails_ai.chunkwise.chunkers import limit, split_spans

PHRASES = ["free money", "act now", "zap"]
#: How a phrase may be spelled in the text (each must still match).
SPELLINGS = [
    "free money",
    "FREE  MONEY",
    "**free** money",
    "fr\u200bee mo\u00adney",
    "act now",
    "zap",
]
FILLER = st.sampled_from(["word", "and", "then", "x", "longer-word", ",", "a1", "\u00e9t\u00e9"])


def words_around(draw: st.DrawFn) -> tuple[str, str]:
    before = " ".join(draw(st.lists(FILLER, max_size=40)))
    after = " ".join(draw(st.lists(FILLER, max_size=40)))
    return before, after


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from(SPELLINGS), st.integers(24, 80))
def test_no_window_cuts_a_phrase(data: st.DataObject, spelling: str, window: int) -> None:
    # Before: limit("sentence", max_chars=50) let about 1 in 5 offsets of
    # "free money" through, cut between its words by the word level.
    before, after = words_around(data.draw)
    text = f"{before} {spelling} {after} end."
    validator = BannedPhrases(PHRASES, chunker=limit("sentence", max_chars=window), on_fail="fix")
    spans = split_spans(validator.chunker, text)
    assert all(b - a <= window for a, b in spans)
    result = validator.validate(text, {})
    assert isinstance(result, FailResult)
    start = text.index(spelling)
    masked = str(result.fix_value)[start : start + len(spelling)]
    assert not any(c.isalnum() for c in masked), masked
    guard = guard_with(validator)
    deltas = data.draw(slicings(text, max_deltas=10))
    assert joined(run(guard, deltas)) == result.fix_value


def test_the_cut_waits_for_a_phrase_the_window_ends_in() -> None:
    matcher = PhraseMatcher(PHRASES)
    # "free mo" may go on as "free money": the cut comes before it.
    window = "one two three free mo"
    assert phrase_safe_cut(window, matcher) == len("one two three")
    # A whole phrase inside the window is not cut either.
    window = "one free money two three"
    p = phrase_safe_cut(window, matcher)
    assert p == len("one free money two")
    # Inside a word, never; nor next to what folding drops.
    assert phrase_safe_cut("abcdefghijkl", matcher) is None
    assert phrase_safe_cut("badly\u200bwritten", PhraseMatcher(["bad"])) is None


@pytest.mark.parametrize("lead", ["(", "...", "\u2014", "x "])
@pytest.mark.parametrize("spelling", ["&#102;ree money", "fr&#x65;e money", "free&nbsp;money"])
def test_no_window_cuts_a_phrase_spelled_with_character_references(
    lead: str, spelling: str
) -> None:
    # Before: not caught at all; then, with references folded but cuts
    # unaware of them, 1800 of 7920 windows cut "fr|&#x65;e" or "fr&#|x65;e".
    for window in (18, 19, 23, 31):
        validator = BannedPhrases(PHRASES, chunker=limit("sentence", max_chars=window))
        for pre in (0, 3, 7):
            text = "x" * pre + " " + lead * 12 + spelling + " and then more words."
            start = text.index(spelling)
            end = start + len(spelling)
            spans = split_spans(validator.chunker, text)
            assert sum(a < end and start < b for a, b in spans) == 1, (window, pre)
    guard = guard_with(
        BannedPhrases(PHRASES, chunker=limit("sentence", max_chars=19), on_fail="fix")
    )
    text = lead * 12 + spelling + " and then more words."
    deltas = [text[i : i + 4] for i in range(0, len(text), 4)]
    assert spelling not in joined(run(guard, deltas))


@pytest.mark.parametrize("fallback", [["word"], []], ids=["word", "hard-cut"])
def test_a_size_limit_with_its_own_fallback_is_refused(fallback: list[str]) -> None:
    # An empty chain (cut at the window's end) is the caller's too: refused, not replaced.
    chunker = limit("sentence", max_chars=60, fallback=fallback)
    with pytest.raises(ValueError, match="fallback= chain of its own"):
        BannedPhrases(PHRASES, chunker=chunker)
    with pytest.raises(ValueError, match="fallback= chain of its own"):
        with_chunker(BannedPhrases(PHRASES), chunker)


@pytest.mark.parametrize(
    "chunker",
    [
        limit("sentence", max_chars=60),
        limit("sentence", max_chars=60, fill=True),
        limit("sentence", max_chars=60, chunk_size=2),
        limit("paragraph", max_tokens=16, tokenizer="cl100k_base"),
    ],
    ids=["bounded", "filled", "grouped", "tokens"],
)
def test_every_kind_of_size_limit_gets_the_phrase_cuts(chunker: object) -> None:
    validator = BannedPhrases(PHRASES, chunker=chunker, on_fail="fix")  # type: ignore[arg-type]
    assert "PhraseCuts(<3 phrases>)" in repr(validator.chunker)
    assert "free money" not in repr(validator.chunker)  # (phrases may be confidential)
    text = "word " * 9 + "free money " + "word " * 30 + "end."
    for offset in range(12):
        shifted = "x " * offset + text
        fixed = validator.validate(shifted, {})
        assert isinstance(fixed, FailResult) and "free money" not in str(fixed.fix_value)


def test_a_phrase_safe_window_survives_to_dict_on_every_guard_path() -> None:
    # The server rebuilds every guard from to_dict() (JSON) before it streams:
    # the rebuilt window must still cut only where no phrase is, on the plain
    # (guard(stream=True) with the opt-in) and the async paths.
    import asyncio
    import json

    from guardrails import AsyncGuard, Guard
    from helpers.guardrails import arun

    from guardrails_ai.chunkwise import disable_validated_streaming, enable_validated_streaming

    chunker = limit("sentence", max_chars=50)
    data = json.loads(json.dumps(guard_with(BannedPhrases(PHRASES, chunker=chunker)).to_dict()))
    text = "word " * 9 + "free money " + "word " * 20 + "end."
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    enable_validated_streaming()
    try:
        for guard in (Guard.from_dict(data), AsyncGuard.from_dict(data)):
            [validator] = guard._validators
            assert "PhraseCuts" in repr(validator.chunker)
        with pytest.raises(ValidationError, match=r"phrases\[0\]"):
            joined(run(Guard.from_dict(data), deltas, guarded=False))
        with pytest.raises(ValidationError, match=r"phrases\[0\]"):
            asyncio.run(arun(AsyncGuard.from_dict(data), deltas, guarded=False))
    finally:
        disable_validated_streaming()


@pytest.mark.parametrize(
    "unit",
    [
        "free ",
        "x free" + " " * 60,
        "free mo",
        "zap ",
        "**free**" + "\u2800" * 5,
        "a",
        "fr&#x65;e&nb",
    ],
    ids=[
        "phrase-starts",
        "open-gap",
        "open-word",
        "short",
        "marks-blanks",
        "no-boundary",
        "references",
    ],
)
def test_phrase_cuts_work_grows_linearly(monkeypatch: pytest.MonkeyPatch, unit: str) -> None:
    # Runs with no sentence end, each window ending in the beginning of a
    # phrase: the characters the fallback level reads grow with the text.
    from guardrails_ai.chunkwise import _phrase_cuts

    reads = Reads()
    reads.patch(monkeypatch, _phrase_cuts, "phrase_safe_cut")
    chunker = BannedPhrases(PHRASES, chunker=limit("sentence", max_chars=80)).chunker
    totals = []
    for n in (10_000, 20_000):
        reads.count = 0
        text = (unit * (n // len(unit) + 1))[:n]
        chunks = [text[a:b] for a, b in split_spans(chunker, text)]
        assert all(len(c) <= 80 for c in chunks)
        if " " in unit:  # (no word is cut where words are short)
            assert " ".join(chunks).split() == text.split()
        totals.append(reads.count)
    assert totals[0] > 0 and totals[1] <= 2.3 * totals[0], totals
    assert totals[1] <= 4 * 20_000, totals
