"""BannedPhrases across a line break or a blank line: no chunk boundary lies
inside a phrase (``_phrase_joins``), so ``FREE\\nMONEY`` is caught."""

from __future__ import annotations

from typing import Any

import pytest
from guardrails.actions.filter import Filter
from helpers.chunking import sliced
from helpers.cost import Reads
from helpers.guardrails import guard_with, joined, rebuilt_opt_in_outputs, run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import BannedPhrases
from guardrails_ai.chunkwise import _phrase_joins as joins
from guardrails_ai.chunkwise._phrase_joins import PhraseJoins
from guardrails_ai.chunkwise._phrases import PhraseMatcher
from guardrails_ai.chunkwise.chunkers import (
    ChunkStream,
    FixedSizeChunker,
    SpecError,
    limit,
    split_spans,
)

PHRASES = ["free money", "get free", "act now now", "stop. now", "U.S. It", "a.m. Meeting"]


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("Get FREE\n  MONEY now.", "*** ****\n  ***** now."),
        ("Please take the FREE\nMONEY now.", "Please take the ****\n***** now."),
        ("Title\n\nFREE\n\nMONEY here.", "Title\n\n****\n\n***** here."),
        ("* FREE\n  MONEY", "* ****\n  *****"),
        ("Act\nnow\nNOW!", "***\n***\n***!"),
        ("Title\nFREE\nNothing else.", "Title\nFREE\nNothing else."),
        # Phrases across a sentence end.
        ("Please stop. Now!", "Please ***** ***!"),
        ("In the U.S. It rains.", "In the **** ** rains."),
        ("At 9 a.m. Meeting.", "At 9 **** *******."),
    ],
)
@pytest.mark.parametrize("chunker", [None, "paragraph", "line", limit("sentence", max_chars=20)])
def test_a_phrase_across_a_line_break_is_caught_at_once_and_streamed(
    text: str, fixed: str, chunker: Any
) -> None:
    validator = BannedPhrases(PHRASES, chunker=chunker, on_fail="fix")
    guard = guard_with(validator)
    assert guard.validate(text).validated_output == fixed
    assert joined(run(guard, list(text))) == fixed
    assert joined(run(guard, [text])) == fixed


def test_the_chunk_before_a_phrase_is_released_without_it() -> None:
    validator = BannedPhrases(PHRASES)
    assert isinstance(validator.chunker, PhraseJoins)
    assert "free" not in repr(validator.chunker)  # (phrases may be confidential)
    assert validator.chunker.split_text("Please take the FREE\nMONEY now. Bye.") == [
        "Please take the",
        "FREE\nMONEY now.",
        "Bye.",
    ]
    # A beginning that no phrase continues is held until the next chunk ends,
    # then goes out alone: in the stream and at its end alike.
    for end in ("", " More."):
        assert validator.chunker.split_text("One.\nGet FREE\nstuff here." + end) == [
            "One.",
            "Get FREE",
            "stuff here.",
            *(["More."] if end else []),
        ]
    # A chunker that cuts inside a word: the beginning goes on, so does a word.
    fixed = BannedPhrases(["zap", "bad word"], chunker=FixedSizeChunker(8), on_fail="fix")
    text = "Oh no, zap. A bad word."
    assert FixedSizeChunker(8).split_text(text)[:2] == ["Oh no, z", "ap. A ba"]
    assert fixed.validate(text, {}).fix_value == "Oh no, ***. A *** ****."  # type: ignore[union-attr]
    # Any chunker keeps a phrase whole now, "word" and a phrase across sentences too.
    words = BannedPhrases(["bad word", "stop. now"], chunker="word", on_fail="fix")
    assert words.validate("Please stop. Now! A bad word.", {}).fix_value == (  # type: ignore[union-attr]
        "Please ***** ***! A *** ****."
    )


WORDS = ["free", "FREE", "money", "Money", "get", "act", "now", "x", "**free**"]
SEPARATORS = [" ", "\n", "\n\n", "\r\n", ". ", ".\n", "\n- ", "  \n", "! ", "-", "-\n", " - ", "--"]
texts = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=30).map(
    "".join
)


LIMITS = {
    "sentence-16": limit("sentence", max_chars=16),
    "line-12": limit("line", max_chars=12),
    "grouped-24": limit("sentence", chunk_size=2, max_chars=24),
    "sized-16": limit("paragraph", max_chars=16, length=len),
    "fill-16": limit("paragraph", max_chars=16, fill=True),
}


def _chained_extent(match: Any, matches: list[Any]) -> int:
    """The length of the run of matches that overlap ``match``, one another in turn."""
    start, end = match.start, match.end
    grown = True
    while grown:
        grown = False
        for m in matches:
            if m.start < end and start < m.end and (m.start < start or m.end > end):
                start, end, grown = min(start, m.start), max(end, m.end), True
    return end - start


@pytest.mark.parametrize(
    "chunker", [None, "paragraph", "line", "sentence-simple", "word", "fixed", *LIMITS]
)
@settings(max_examples=120, deadline=None)
@given(case=sliced(texts))
@example(case=("Now get **free** money", ["Now get **free** money"]))  # (overlapping matches)
def test_no_phrase_spans_two_chunks_in_any_slicing(
    chunker: Any, case: tuple[str, list[str]]
) -> None:
    text, deltas = case
    validator = BannedPhrases(PHRASES, chunker=LIMITS.get(chunker, chunker))
    strategy = validator.chunker
    spans = split_spans(strategy, text)
    ceiling = int(chunker.rsplit("-", 1)[1]) if chunker in LIMITS else len(text)
    assert all(b - a <= ceiling for a, b in spans)
    matches = validator._matcher.find(text)
    for match in matches:
        if _chained_extent(match, matches) > ceiling:
            continue  # (it, or matches overlapping it, fill the window: cut, as documented)
        assert any(a <= match.start and match.end <= b for a, b in spans), (match, spans)
    stream = ChunkStream(strategy)
    pieces = [p for d in deltas for p in stream.feed(d)] + stream.close()
    assert [p.chunk for p in pieces if p.chunk is not None] == strategy.split_text(text)
    assert "".join(p.segment for p in pieces) == text


@pytest.mark.parametrize(
    ("unit", "phrases"),
    [
        ("FREE\n", PHRASES),
        ("get\nFREE\n", PHRASES),
        ("act\nnow\n", PHRASES),
        ("x\n", PHRASES),
        ("FREE\nx\n", PHRASES),
        ("a b a b\n", ["a b", "b a"]),  # matches overlap all through
        ("free" + " " * 50 + "\n", PHRASES),
    ],
)
def test_work_grows_linearly(
    unit: str, phrases: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Text is held only while a phrase may run through it: each inner chunk
    # is searched a bounded number of times, however many lines open one.
    reads = Reads()
    reads.patch(monkeypatch, joins, "last_cut")
    reads.patch(monkeypatch, PhraseMatcher, "open_at", 1)
    strategy = BannedPhrases(phrases, chunker="line").chunker
    totals = []
    for n in (2_000, 4_000):
        reads.count = 0
        stream = ChunkStream(strategy)
        for line in [unit] * n:
            stream.feed(line)
        stream.close()
        totals.append(reads.count)
    assert 0 < totals[0] and totals[1] <= 2.2 * totals[0], totals
    assert totals[1] <= 20 * len(unit) * 4_000, totals


def fixed(phrases: list[str], text: str, chunker: Any = None) -> str:
    return BannedPhrases(phrases, chunker=chunker, on_fail="fix").validate(text, {}).fix_value  # type: ignore[no-any-return,union-attr]


@pytest.mark.parametrize(
    ("phrases", "text", "chunker", "expected"),
    [
        # Runs that fold to nothing are no words: the beginning was not looked for.
        (
            ["free money"],
            "Take the FREE\n\u200b\n\u200b\nMONEY now.",
            None,
            "Take the ****\n*\n*\n***** now.",
        ),
        (["free money"], "free \u200b \u200b money", "word", "**** * * *****"),
        # A blank letter read as a space before the beginning.
        (["free money"], "Take the\u2800FREE\nMONEY now.", None, "Take the\u2800****\n***** now."),
        (["money now"], "Get free\u2800money\nnow.", None, "Get free\u2800*****\n***."),
        # Matches overlapping for more than HOLD characters, then another phrase.
        (
            ["free money", "money free", "money now"],
            "free money " * 30 + "\n\nnow",
            None,
            "**** ***** " * 30 + "\n\n***",
        ),
        # No cut allowed between CJK letters for more than HOLD characters.
        (
            ["免费的钱"],
            "这" * 197 + "免费的钱" + "这" * 196 + "免费的钱。",
            "fixed",
            "这" * 197 + "****" + "这" * 196 + "****。",
        ),
    ],
)
def test_probe_findings_are_caught(
    phrases: list[str], text: str, chunker: Any, expected: str
) -> None:
    assert fixed(phrases, text, chunker) == expected
    guard = guard_with(BannedPhrases(phrases, chunker=chunker, on_fail="fix"))
    assert joined(run(guard, [text[i : i + 7] for i in range(0, len(text), 7)])) == expected


@pytest.mark.parametrize(
    ("phrases", "chunker", "text"),
    [
        (["stop. now"], FixedSizeChunker(10), "hello stop x"),
        # "word": the blank line after "Hi." is one separator at once, two sliced.
        (["secret sauce"], "word", "Hi.\n\nsecret sauce  1 U.S."),
        (["secret sauce"], "word", "Hi.\r\n\r\nsecret sauce  1 U.S."),
    ],
)
def test_segments_do_not_change_where_chunks_are_cut(
    phrases: list[str], chunker: Any, text: str
) -> None:
    # The end of a separator depends on the slicing: no decision reads from it.
    strategy = BannedPhrases(phrases, chunker=chunker).chunker
    cut = len(text) // 2
    for deltas in ([text], [text[:cut], text[cut:]], [text[:5], text[5:]], list(text)):
        stream = ChunkStream(strategy)
        pieces = [p for d in deltas for p in stream.feed(d)] + stream.close()
        assert [p.chunk for p in pieces if p.chunk] == strategy.split_text(text), deltas
    # Through a real Guard, what "filter" drops is the same for every slicing.
    guard = guard_with(BannedPhrases(phrases, chunker=chunker, on_fail="filter"))
    released = {joined(run(guard, d)) for d in ([text], [text[:5], text[5:]], list(text))}
    assert len(released) == 1, released
    (output,) = released
    assert not [word for word in phrases[0].split() if word in output], output


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I like the secret sauce very much indeed.", "I like the very much indeed."),
        ("secret sauce one two three four five six", "one two three four five six"),
        ("Try the secret  sauce, then the secret\nsauce again ok", "Try the then the again ok"),
        ("secret sauces are fine; secret sauce is not.", "secret sauces are fine; is not."),
        # At the end of the stream too (the last word went with the phrase).
        ("I like the secret sauce today", "I like the today"),
        ("Try the secret\nsauce ok", "Try the ok"),
    ],
)
def test_filter_drops_the_phrase_not_the_words_after_it(text: str, kept: str) -> None:
    # Before: the phrase held open (it might go on: "sauce" -> "sauces") was
    # read again only once the text held had doubled, so the words before that
    # went out in its chunk, and filter dropped them too.
    guard = guard_with(BannedPhrases(["secret sauce"], chunker="word", on_fail="filter"))
    for deltas in ([text], [text[:9], text[9:]], list(text)):
        assert joined(run(guard, deltas)).split() == kept.split(), deltas


FILTERED_JOINS = [
    # The line between "Get" and "FREE" is filtered: "Get\nFREE" would be released.
    ("line", "Get\nsecret sauce here\nFREE stuff", "Get\n"),
    (None, "Take it free\nThe secret sauce!\nMONEY back. Ok.", "Take it free\nOk."),
    ("word", "Free secret sauce money today", "Free today"),
    ("line", "act now\nsecret sauce\nnow\nnow", "act now\n"),
    # A chunk kept after the filtered one, and then the rest of the phrase.
    ("line", "act\nsecret sauce\nnow\nnow", "act\nnow\n"),
    # Nothing released before the filtered chunk: nothing to join.
    ("line", "secret sauce\nfree money\nok", "ok"),
    # Text after the filtered chunk that completes no phrase stays.
    ("line", "Get\nsecret sauce\nfreebies\nfree\nok", "Get\nfreebies\nfree\nok"),
]
JOIN_PHRASES = ["secret sauce", "free money", "get free", "act now now"]


@pytest.mark.parametrize(("chunker", "text", "kept"), FILTERED_JOINS)
def test_filtering_a_chunk_never_joins_a_phrase(chunker: Any, text: str, kept: str) -> None:
    # Before: the chunks on either side of a filtered one were released
    # together, and their words could spell a phrase ("Get\nFREE").
    phrases = JOIN_PHRASES
    guard = guard_with(BannedPhrases(phrases, chunker=chunker, on_fail="filter"))
    assert guard.validate(text).validated_output is None  # (Guardrails filters it whole)
    matcher = PhraseMatcher(phrases)
    for deltas in ([text], [text[:5], text[5:]], list(text)):
        released = joined(run(guard, deltas))
        assert released == kept, deltas
        assert not matcher.find(released)
    # So under the opt-in, from a Guard and an AsyncGuard rebuilt from to_dict()
    # (of a fresh guard: Guardrails writes the history's Filter outcomes too).
    fresh = guard_with(BannedPhrases(phrases, chunker=chunker, on_fail="filter"))
    assert rebuilt_opt_in_outputs(fresh, list(text)) == (kept, kept)
    # "fix" masks in place: nothing is dropped, so nothing is joined either.
    fixing = guard_with(BannedPhrases(phrases, chunker=chunker, on_fail="fix"))
    assert joined(run(fixing, list(text))) == fixing.validate(text).validated_output


@pytest.mark.parametrize("handler", [lambda value, fail: Filter(), lambda value, fail: None, ""])
@pytest.mark.parametrize(("chunker", "text", "kept"), FILTERED_JOINS)
def test_a_custom_on_fail_that_drops_never_joins_a_phrase(
    chunker: Any, text: str, kept: str, handler: Any
) -> None:
    # Before: only on_fail="filter" was watched for joins, so a custom
    # on_fail dropping the chunk (Filter(), None, or an empty text) released
    # "Get\nFREE stuff", "get free" banned.
    on_fail = handler if callable(handler) else lambda value, fail: handler
    guard = guard_with(BannedPhrases(JOIN_PHRASES, chunker=chunker, on_fail=on_fail))
    for deltas in ([text], list(text)):
        released = joined(run(guard, deltas))
        assert released.split() == kept.split(), deltas
        assert not PhraseMatcher(JOIN_PHRASES).find(released)
    # Text the handler puts in the chunk's place ends the phrase: nothing more fails.
    marked = guard_with(
        BannedPhrases(JOIN_PHRASES, chunker=chunker, on_fail=lambda value, fail: "[cut]")
    )
    replaced = joined(run(marked, [text]))
    assert joined(run(marked, list(text))) == replaced
    assert "[cut]" in replaced and len(replaced.split()) >= len(kept.split())


@pytest.mark.parametrize(
    "unit", ["free\nsecret sauce\n", "act\nsecret sauce\nnow\n", "free money\nsecret sauce\n"]
)
def test_filtered_joins_read_linear_work(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a filtered chunk leaves open is read in its last words only.
    reads = Reads()
    reads.patch(monkeypatch, PhraseMatcher, "find", 1)
    reads.patch(monkeypatch, PhraseMatcher, "open_at", 1)
    phrases = ["secret sauce", "free money", "act now now"]
    validator = BannedPhrases(phrases, chunker="line", on_fail="filter")
    totals = []
    for n in (1_000, 2_000):
        reads.count = 0
        validator.validate(unit * n, {})
        totals.append(reads.count)
    assert 0 < totals[0] and totals[1] <= 2.2 * totals[0], totals


def test_at_the_end_flush_gives_the_phrase_held_and_the_fragment_apart() -> None:
    chunker = BannedPhrases(["secret sauce"], chunker="word").chunker
    text = "Try the secret sauce today"
    assert chunker.split(text) == ["Try", "the"]
    assert chunker.flush(text) == ["secret sauce", "today"]
    assert chunker.split_text(text) == ["Try", "the", "secret sauce", "today"]
    # A phrase that runs into the fragment keeps them one chunk.
    assert chunker.flush("Try the secret sauce") == ["secret sauce"]
    assert chunker.flush("Try the secret\nsauce") == ["secret\nsauce"]
    for size in (1, 4, len(text)):
        stream = ChunkStream(chunker)
        pieces = [p for i in range(0, len(text), size) for p in stream.feed(text[i : i + size])]
        pieces += stream.close()
        assert [p.chunk for p in pieces] == chunker.split_text(text)
        assert "".join(p.segment for p in pieces) == text


def test_a_chunker_given_back_is_joined_once_with_the_new_phrases() -> None:
    first = BannedPhrases(["free money"])
    second = BannedPhrases(["act now"], chunker=first.chunker)
    assert isinstance(second.chunker, PhraseJoins)
    assert not isinstance(second.chunker.inner, PhraseJoins)
    assert second.chunker.matcher is second._matcher
    first.chunker = first.chunker
    assert not isinstance(first.chunker.inner, PhraseJoins)  # type: ignore[union-attr]
    limited = BannedPhrases(["free money"], chunker=limit("sentence", max_chars=80))
    limited.chunker = limited.chunker  # (its fallback chain is its own: taken)
    assert not isinstance(limited.chunker.inner.inner, PhraseJoins)  # type: ignore[union-attr]


def test_padding_held_is_read_again_only_once_it_doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    # A beginning padded with characters that fold to nothing, cut inside by
    # a fixed-size chunker: each cut read all the text held (quadratic).
    reads = Reads()
    reads.patch(monkeypatch, PhraseMatcher, "open_at", 1)
    strategy = BannedPhrases(["free"], chunker="fixed").chunker
    totals = []
    for n in (10_000, 40_000):
        reads.count = 0
        text = "xx fre" + "\u200b" * n + "e"
        stream = ChunkStream(strategy)
        pieces = [p for i in range(0, len(text), 50) for p in stream.feed(text[i : i + 50])]
        assert [p.chunk for p in pieces + stream.close()] == ["xx", text[3:]]  # (held whole)
        totals.append(reads.count)
    assert totals[1] <= 5 * totals[0], totals


def test_every_guard_path_joins_across_a_line_break() -> None:
    # guard(llm, stream=True) under the opt-in, sync and async, each rebuilt
    # from to_dict(): the rebuilt validator joins its chunks too.
    text = "Offers:\nGet FREE\n  MONEY now.\nBye."
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    guard = guard_with(BannedPhrases(PHRASES, on_fail="fix"))
    plain, awaited = rebuilt_opt_in_outputs(guard, deltas)
    assert plain == awaited == "Offers:\n*** ****\n  ***** now.\nBye."


def test_the_join_has_no_spec_and_says_which_one_to_write() -> None:
    # Before: "give PhraseJoins an alias and register_alias() it", which would
    # have written the phrases into the spec.
    validator = BannedPhrases(["secret sauce"], chunker="line")
    with pytest.raises(SpecError, match=r"chunker.inner.spec\(\)") as raised:
        validator.chunker.spec()
    assert "secret" not in str(raised.value) and "register_alias" not in str(raised.value)
    again = BannedPhrases(["secret sauce"], chunker=validator.chunker.inner.spec())
    assert again.chunker == validator.chunker


@pytest.mark.parametrize(
    ("phrases", "text"),
    [
        (["free money"], "A carefree money talk."),
        (["win"], "Ask the carewin team."),
        (["win"], "Say awin or winx."),
        (["free money"], "We x_free money here."),
        (["get free"], "Try get free_\u514d now."),
        (["free money"], "It is free moneyed."),
        (["free money"], "We care&#102;ree money here."),
        (["free money"], "We carefre&#101; money here."),
    ],
)
@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7, 9])
def test_a_chunk_cut_inside_a_word_does_not_make_its_tail_a_whole_word(
    phrases: list[str], text: str, size: int
) -> None:
    # Before: a fixed-size cut inside a word ("care|free money") began a chunk
    # there, and the phrase ending the word matched as if it were a whole word.
    validator = BannedPhrases(phrases, chunker=FixedSizeChunker(size), on_fail="fix")
    assert not BannedPhrases(phrases)._matcher.find(text)  # (no whole-word match)
    assert validator.validate(text, {}).outcome == "pass"
    guard = guard_with(validator)
    for deltas in ([text], list(text), [text[i : i + 3] for i in range(0, len(text), 3)]):
        assert joined(run(guard, deltas)) == text, deltas


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7, 9])
def test_a_fixed_size_cut_inside_a_character_reference_keeps_the_phrase_whole(size: int) -> None:
    # Before: not caught; then, with references folded, a cut in "free&nb|sp;money"
    # or "fr&#x6|5;e" released the phrase's beginning as if no phrase began there.
    text = "Get free&nbsp;money, fr&#x65;e money and &#102;ree m&#x6f;ney now."
    fixed = "Get ***************, ********* ***** and ********* ********** now."
    validator = BannedPhrases(["free money"], chunker=FixedSizeChunker(size), on_fail="fix")
    assert validator.validate(text, {}).fix_value == fixed
    guard = guard_with(validator)
    for deltas in ([text], list(text), [text[i : i + 3] for i in range(0, len(text), 3)]):
        assert joined(run(guard, deltas)) == fixed, deltas


MIXED = ["carefree", "free", "money", "win", "awin", "winx", "x_free", "free_", "care", "get"]
MIXED += ["\u514d\u8d39\u7684\u94b1", "\u8fd9", "FREE", "a\u0301win", "free2", "fr\u200bee"]
mixed_texts = st.lists(
    st.tuples(st.sampled_from(MIXED), st.sampled_from([" ", "", "\n", ". ", "-", "**"])),
    max_size=12,
).map(lambda pairs: "".join(a + b for a, b in pairs))


@settings(max_examples=150, deadline=None)
@given(case=sliced(mixed_texts), size=st.integers(2, 9))
def test_a_fixed_size_chunker_masks_exactly_the_whole_word_matches(
    case: tuple[str, list[str]], size: int
) -> None:
    text, deltas = case
    phrases = ["free money", "win", "get free", "\u514d\u8d39\u7684\u94b1"]
    validator = BannedPhrases(phrases, chunker=FixedSizeChunker(size), on_fail="fix")
    expected = list(text)
    for m in validator._matcher.find(text):
        expected[m.start : m.end] = [c if c.isspace() else "*" for c in text[m.start : m.end]]
    result = validator.validate(text, {})
    assert (getattr(result, "fix_value", None) or text) == "".join(expected)
    stream = ChunkStream(validator.chunker)
    pieces = [p for d in deltas for p in stream.feed(d)] + stream.close()
    assert [p.chunk for p in pieces if p.chunk] == validator.chunker.split_text(text)
    assert "".join(p.segment for p in pieces) == text


def test_a_long_word_cut_by_a_fixed_size_chunker_is_read_in_linear_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A chunk that may end inside a word is held until the next one ends; a
    # word longer than HOLD is cut, and what is held is read again only once
    # it has doubled.
    reads = Reads()
    reads.patch(monkeypatch, PhraseMatcher, "find", 1)
    reads.patch(monkeypatch, PhraseMatcher, "open_at", 1)
    strategy = BannedPhrases(["free money"], chunker=FixedSizeChunker(5)).chunker
    totals = []
    for n in (10_000, 40_000):
        reads.count = 0
        text = "x" * n
        stream = ChunkStream(strategy)
        pieces = [p for i in range(0, n, 7) for p in stream.feed(text[i : i + 7])]
        assert "".join(p.segment for p in pieces + stream.close()) == text
        totals.append(reads.count)
    assert 0 < totals[0] and totals[1] <= 4.4 * totals[0], totals
    assert totals[1] <= 20 * 40_000, totals
