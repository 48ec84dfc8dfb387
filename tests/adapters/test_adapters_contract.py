"""Guardrails' ``_chunking_function`` contract, both ways.

``chunking_function(chunker)`` answers ``[]`` or ``[segment, remainder]`` with
``segment + remainder == text`` for every chunker, and driven the way
Guardrails drives it (accumulate deltas, one call per delta, keep the
remainder, take the rest at the end) it yields the chunker's own chunks; a
size limit's answers depend on the text alone and fit its ceiling.
``GuardrailsChunker`` turns Guardrails' splitter (or any validator's
``_chunking_function``) into a lossless strategy.  A foreign ``split``/``flush``
object, written here after mellea's documented ``SentenceChunker``, is accepted
everywhere a chunker is.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from guardrails.validator_base import (
    register_validator,
    split_sentence_word_tokenizers_jl_separator,
)
from guardrails_chunking_cost import rescan
from helpers.guardrails import PlainBan, Record, arun, guard_with, joined, run, slicings
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise.adapters import (
    GuardrailsChunker,
    chunking_function,
    contract,
    disable_validated_streaming,
    enable_validated_streaming,
    with_chunker,
)
from guardrails_ai.chunkwise.chunkers import ChunkStream, aliases, limit, resolve_chunker


class MelleaLikeSentences:
    """A foreign chunker after mellea's documented ``SentenceChunker``: a
    sentence ends at ``.``, ``!`` or ``?`` followed by whitespace, which is
    dropped; ``flush`` returns the rest stripped.  Only ``split``/``flush``."""

    _SENTENCE = re.compile(r"\S.*?[.!?](?=\s)", re.S)

    def split(self, accumulated_text: str) -> list[str]:
        return self._SENTENCE.findall(accumulated_text)

    def flush(self, accumulated_text: str) -> list[str]:
        ends = [m.end() for m in self._SENTENCE.finditer(accumulated_text)]
        rest = accumulated_text[ends[-1] if ends else 0 :].strip()
        return [rest] if rest else []


CHUNKERS: dict[str, Any] = {alias: alias for alias in aliases()}
CHUNKERS["mellea-like"] = MelleaLikeSentences()
#: Guardrails' own splitter looks ahead (for a closing quote or bracket), so
#: what it answers for a prefix may differ from the whole text.
LOOKAHEAD = {"guardrails"}

FRAGMENTS = [
    ". ",
    "! ",
    "? ",
    "...",
    ".\n",
    "\n",
    "\n\n",
    "\r\n",
    "\r\n\r\n",
    "\t",
    " ",
    "  ",
    "\u00a0",
    "\U0001f600",
    "Dr. ",
    "U.S. ",
    "A. ",
    "(x. y)",
    '"Hi." ',
    "# T\n\n",
    "- i\n",
    "word",
    "Hi",
    "and ",
    "3.14",
]
texts = st.one_of(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=16).map("".join),
    st.text(alphabet=" \t\r\n", max_size=5),
)


def chunks_of(strategy: Any, text: str) -> list[str]:
    return strategy.split(text) + strategy.flush(text)


@pytest.mark.parametrize("name", list(CHUNKERS))
@settings(max_examples=60)
@given(text=texts)
def test_answer_is_empty_or_an_exact_split(name: str, text: str) -> None:
    answer = chunking_function(CHUNKERS[name])(text)
    assert answer == [] or (len(answer) == 2 and answer[0] + answer[1] == text and answer[0])


def guardrails_style(function: Any, deltas: list[str]) -> tuple[list[str], str]:
    """Drive ``function`` as Guardrails' ``validate_stream`` does: one call per
    delta on the accumulated text; at the end, what is left."""
    segments, accumulated = [], ""
    for delta in deltas:
        accumulated += delta
        answer = function(accumulated)
        if answer:
            segment, accumulated = answer
            segments.append(segment)
    more, rest = chain(function, accumulated)  # what later deltas would have cut
    return segments + more, rest


def chain(function: Any, text: str) -> tuple[list[str], str]:
    """Every segment ``function`` gives for ``text``, each remainder asked again."""
    segments = []
    while answer := function(text):
        segment, text = answer
        segments.append(segment)
    return segments, text


@pytest.mark.parametrize("name", [n for n in CHUNKERS if n not in LOOKAHEAD])
@settings(max_examples=60)
@given(data=st.data())
def test_guardrails_style_iteration_gives_the_chunkers_chunks(
    name: str, data: st.DataObject
) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text, max_deltas=20), "deltas")
    strategy = resolve_chunker(CHUNKERS[name])
    segments, rest = guardrails_style(chunking_function(strategy), deltas)
    assert "".join(segments) + rest == text
    # Each segment holds exactly one chunk, the one the whole text has there
    # (chunking a segment alone recovers it, separators and all).
    per_segment = [chunks_of(strategy, s) for s in segments]
    assert all(len(chunks) == 1 for chunks in per_segment)
    assert [c for chunks in per_segment for c in chunks] + chunks_of(strategy, rest) == (
        chunks_of(strategy, text)
    )


@pytest.mark.parametrize("name", sorted(LOOKAHEAD))
@settings(max_examples=30)
@given(data=st.data())
def test_guardrails_style_iteration_is_lossless_with_lookahead(
    name: str, data: st.DataObject
) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text, max_deltas=20), "deltas")
    segments, rest = guardrails_style(chunking_function(CHUNKERS[name]), deltas)
    assert "".join(segments) + rest == text


def test_separator_travels_with_the_segment_once_settled() -> None:
    function = chunking_function("sentence-simple")
    assert function("One.") == []
    assert function("One.  ") == []  # the separator may continue
    assert function("One.  Two") == ["One.  ", "Two"]
    assert function("One. Two. Three") == ["One. ", "Two. Three"]
    assert function.chunker == resolve_chunker("sentence-simple")  # type: ignore[attr-defined]


def test_chunking_function_refuses_non_strings() -> None:
    with pytest.raises(TypeError, match="text must be str, got NoneType"):
        chunking_function("word")(None)  # type: ignore[arg-type]


# -- GuardrailsChunker -------------------------------------------------------------


def test_alias_resolves_to_guardrails_default_splitter() -> None:
    strategy = resolve_chunker("guardrails")
    assert isinstance(strategy, GuardrailsChunker)
    assert strategy.function is split_sentence_word_tokenizers_jl_separator


@settings(max_examples=150)
@given(text=texts)
def test_guardrails_chunker_is_lossless(text: str) -> None:
    strategy = GuardrailsChunker()
    assert "".join(strategy.segments(text)) == text
    assert all(c == c.strip() and c for c in strategy.split_text(text))


@pytest.mark.parametrize(
    ("text", "chunks"),
    [
        # Guardrails drops the space; the segments keep it.
        ("One. Two. Three", ["One.", "Two.", "Three"]),
        # Guardrails' splitter drops "\r" and doubles a space after an initial.
        ("One.\r\nTwo.\r\nThree", ["One.", "Two.", "Three"]),
        ("It is A. Smith. Yes. ", ["It is A. Smith.", "Yes."]),
    ],
)
def test_guardrails_chunker_examples(text: str, chunks: list[str]) -> None:
    strategy = GuardrailsChunker()
    assert strategy.split_text(text) == chunks
    assert "".join(strategy.segments(text)) == text


_WORDS = st.sampled_from(
    ["word", "Dr.", "e.g.", "A.", "(", ")", "[", "]", '"', "'", "?", "!", "and", "of", "Next", "."]
)
_SENTENCES = st.lists(
    st.lists(_WORDS, min_size=1, max_size=40).map(" ".join).map(lambda s: s + "."),
    min_size=1,
    max_size=120,
).map(" ".join)


@settings(max_examples=60)
@given(text=_SENTENCES)
def test_guardrails_chunker_shows_a_window_with_the_same_answer(text: str) -> None:
    # Texts long enough to need several windows, brackets and quotations that
    # close within a few hundred characters: the answers are those of the
    # whole rest of the text.
    assert GuardrailsChunker().split_text(text) == rescan(
        split_sentence_word_tokenizers_jl_separator, text
    )


def test_guardrails_chunker_work_grows_linearly_in_one_delta() -> None:
    # One delta holding many sentences (guard.validate, a server's burst):
    # the characters shown to the function grow with the text, not its square.
    shown = []

    def counting(text: str) -> list[str]:
        shown.append(len(text))
        return split_sentence_word_tokenizers_jl_separator(text)

    def work(sentences: int) -> int:
        shown.clear()
        GuardrailsChunker(counting).split("This is a sentence. " * sentences)
        return sum(shown)

    small, large = work(500), work(1000)
    assert large <= 2.1 * small
    assert small <= 500 * 2 * contract.LOOKAHEAD


@settings(max_examples=150)
@given(data=st.data(), text=texts)
def test_guardrails_splitter_skipped_only_where_it_would_find_nothing(
    data: st.DataObject, text: str
) -> None:
    # The default splitter is not asked while the pending text holds no ".",
    # "!" or "?"; the same function behind a wrapper is asked at every delta:
    # the chunks are the same in any slicing, for the function and for a
    # validator's own _chunking_function (Guardrails' Validator method).
    # (Not where a bare "\r" separates two words: only the default is known
    # to read on there, so the wrapper streamed may cut before a word that
    # joins: "Dr. ...\rand Dr. ".)
    assume(re.search(r"\S\r+\S", text) is None)

    def asked_always(text: str) -> list[str]:
        return split_sentence_word_tokenizers_jl_separator(text)

    deltas = data.draw(slicings(text, max_deltas=30))

    def streamed(strategy: Any) -> list[str]:
        stream = ChunkStream(strategy)
        return [c for d in deltas for c in stream.feed(d)] + stream.close()

    expected = streamed(GuardrailsChunker(asked_always))
    assert streamed(GuardrailsChunker()) == expected
    assert streamed(GuardrailsChunker(PlainBan()._chunking_function)) == expected


def test_a_validators_own_chunking_function_as_a_strategy() -> None:
    validator = with_chunker(PlainBan(), "word")
    strategy = GuardrailsChunker(validator._chunking_function)
    assert strategy.split_text("one  two\tthree") == ["one", "two", "three"]


def test_function_returning_a_segment_not_in_the_text() -> None:
    strategy = GuardrailsChunker(lambda text: ["Elsewhere.", text] if len(text) > 3 else [])
    with pytest.raises(ValueError, match="not at the start of the text"):
        strategy.split("Hello there. You")


def test_function_breaking_the_contract() -> None:
    strategy = GuardrailsChunker(lambda text: [text, "", ""])
    with pytest.raises(ValueError, match=r"the contract is \[\] or \[segment, remainder\]"):
        strategy.split("Hello. You")


def _lines(text: str) -> list[str]:
    """A line splitter as a hub validator might write it: cut after each line break."""
    end = text.find("\n")
    return [] if end < 0 else [text[: end + 1], text[end + 1 :]]


@register_validator(name="chunkwise-test/lines", data_type="string")
class Lines(PlainBan):
    """:class:`PlainBan` with a line-by-line ``_chunking_function`` of its own."""

    def _chunking_function(self, chunk: str) -> list[str]:
        return _lines(chunk)


@pytest.mark.parametrize("text", ["\nHello.\nbad day\n\nBye", "\n\n  Hello.\n bad day", " \n"])
def test_function_cutting_a_response_that_opens_with_a_line_break(text: str) -> None:
    # A response that opens with a line break: the line splitter's first
    # segment is the blank line alone.  It is whitespace before the first
    # chunk, not a segment to locate (that raised ValueError on every path).
    chunks = [line.strip() for line in text.splitlines() if line.strip()]
    shown: list[str] = []

    def showing(window: str) -> list[str]:
        shown.append(window)
        return _lines(window)

    assert GuardrailsChunker(showing).split_text(text) == chunks
    # (Every window the function is shown starts with content.)
    assert all(window[:1].strip() for window in shown)
    assert "".join(GuardrailsChunker(_lines).segments(text)) == text
    validator = Lines(on_fail="fix")
    guard = guard_with(validator)
    for deltas in ([text], list(text), [text[:1], text[1:]]):
        validator.seen.clear()
        assert joined(run(guard, deltas)) == text.replace("bad", "***")
        assert validator.seen == (chunks or [text])


@pytest.mark.parametrize(
    ("text", "chunks"),
    [
        # After a "\r" alone, Guardrails' splitter reads the next word: a
        # lowercase one, a conjunction or a preposition joins the sentences.
        ("Call now.\rcall me. Bye. ", ["Call now.\rcall me.", "Bye."]),
        ("It is 5.\rand so on. Bad? ", ["It is 5.\rand so on.", "Bad?"]),
        ("Go.\r\rof course. ", ["Go.\r\rof course."]),
        # A capital, or other whitespace, ends the sentence there.
        ("Call now.\rCall me. ", ["Call now.", "Call me."]),
        ("Call now.\r\ncall me. ", ["Call now.", "call me."]),
        # At the end of the text the splitter's answer is taken as it is.
        ("Call now.\rc", ["Call now.", "c"]),
    ],
)
def test_a_sentence_after_a_bare_cr_waits_for_the_next_word(text: str, chunks: list[str]) -> None:
    # Before: the cut after "now." was taken as soon as one letter followed
    # the "\r", so a plain validator saw one chunk in one delta and two in
    # 1-character deltas, and filtered or fixed different text.
    validator = PlainBan("Bad", on_fail="fix")
    guard = guard_with(validator)
    for deltas in ([text], list(text), [text[:10], text[10:]]):
        validator.seen.clear()
        assert joined(run(guard, deltas)) == text.replace("Bad", "***"), deltas
        assert validator.seen == chunks, deltas
    assert GuardrailsChunker().split_text(text) == chunks


@pytest.mark.parametrize("unit", [".\r", "Go.\rgo", "x.\r\ra", "Call now.\rcall me. "])
def test_a_cut_waiting_after_a_bare_cr_is_not_asked_again_at_every_delta(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: while a cut waited for the word after a bare "\r", Guardrails'
    # splitter was shown up to 2 * LOOKAHEAD characters at every delta:
    # 640 characters of ".\r" in 1-character deltas showed it 301 characters
    # a character, against 81 for the whole text in one delta (3.7 times).
    # Now the streamed work is about that of the whole text (1.24 times here,
    # 1.04 at 2,560 characters).
    shown: list[int] = []

    def counting(text: str) -> list[str]:
        shown.append(len(text))
        return split_sentence_word_tokenizers_jl_separator(text)

    # (Counted as Guardrails' default, which alone reads on after a bare "\r".)
    monkeypatch.setattr(contract, "split_sentence_word_tokenizers_jl_separator", counting)
    text = unit * (2 * contract.LOOKAHEAD // len(unit))
    whole = GuardrailsChunker(counting).split_text(text)
    whole_work = sum(shown)
    shown.clear()
    stream = ChunkStream(GuardrailsChunker(counting))
    pieces = [p for char in text for p in stream.feed(char)] + stream.close()
    assert [p.chunk for p in pieces if p.chunk is not None] == whole
    assert sum(shown) <= 1.5 * whole_work


def test_function_must_be_callable() -> None:
    with pytest.raises(TypeError, match="function must be callable"):
        GuardrailsChunker("split")  # type: ignore[arg-type]


# -- a foreign split/flush object, everywhere a chunker is accepted ----------------

TEXT = "Hello there. How are you?  Fine. Bye"
# The last delta completes no chunk: Guardrails' plain fix path then passes
# remainder=True (after a completing delta it would drop "Bye": regression 3).
DELTAS = ["Hello th", "ere. How", " are you?", "  Fine. B", "ye"]
SENTENCES = ["Hello there.", "How are you?", "Fine.", "Bye"]


def test_foreign_chunker_through_chunk_stream_and_chunking_function() -> None:
    foreign = MelleaLikeSentences()
    assert chunks_of(foreign, TEXT) == SENTENCES
    stream = ChunkStream(foreign)
    pieces = [p for d in DELTAS for p in stream.feed(d)] + stream.close()
    assert [p.chunk for p in pieces] == SENTENCES
    assert "".join(p.segment for p in pieces) == TEXT
    assert chunking_function(foreign)("Hello there. How") == ["Hello there. ", "How"]


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_foreign_chunker_in_a_chunked_validator(guarded: bool) -> None:
    validator = Record(chunker=MelleaLikeSentences(), on_fail="fix")
    assert joined(run(guard_with(validator), DELTAS, guarded=guarded)) == TEXT
    assert validator.seen == SENTENCES


def test_foreign_chunker_on_a_plain_validator() -> None:
    validator = with_chunker(PlainBan("Fine", on_fail="fix"), MelleaLikeSentences())
    guard = guard_with(validator)
    assert joined(run(guard, DELTAS)) == TEXT.replace("Fine", "****")
    assert validator.seen == SENTENCES
    # Plain path: with_chunker's validate_stream streams the chunks themselves,
    # and the last delta completes none, so the runner asks for the fragment.
    del validator.seen[:]
    assert joined(run(guard, DELTAS, guarded=False)) == TEXT.replace("Fine", "****")
    assert validator.seen == SENTENCES


# -- size limits as a chunking function --------------------------------------------

#: Chunkers with a ceiling, with their ceiling in characters.
LIMITED: dict[str, tuple[Any, int]] = {
    **{
        f"{inner}-{size}": (limit(inner, max_chars=size), size)
        for inner in ("word", "line", "paragraph", "sentence", "sentence-simple", "structure")
        for size in (5, 24)
    },
    "grouped-sentence-2-24": (limit("sentence", chunk_size=2, max_chars=24), 24),
    "sized-length-16": (limit("word", max_chars=16, length=len), 16),
    "fill-16": (limit("paragraph", max_chars=16, fill=True), 16),
}
LIMIT_FRAGMENTS = [*FRAGMENTS, '"', "```\n", "abcdefghijklmnop", "(x. y) z", ' "A. B. C." ']
limit_texts = st.lists(st.sampled_from(LIMIT_FRAGMENTS), max_size=24).map("".join)


@pytest.mark.parametrize("name", list(LIMITED))
@settings(max_examples=40)
@given(data=st.data())
def test_a_limited_chunker_answers_by_the_text_alone_within_its_ceiling(
    name: str, data: st.DataObject
) -> None:
    # Whatever the slicing, Guardrails-style iteration hands out the segments
    # the whole text gives (each answer stays the answer for every longer
    # text), and none is longer than the ceiling, nor is what is left.
    strategy, ceiling = LIMITED[name]
    text = data.draw(limit_texts, "text")
    deltas = data.draw(slicings(text, max_deltas=20), "deltas")
    function = chunking_function(strategy)
    segments, rest = guardrails_style(function, deltas)
    assert (segments, rest) == chain(function, text)
    assert "".join(segments) + rest == text
    assert all(len(segment) <= ceiling for segment in [*segments, rest])


QUOTED = 'She wrote: "A rather long opening clause goes here. Short. Also short." The end.'


def test_after_a_size_cut_inside_a_quotation_the_rest_is_chunked_afresh() -> None:
    # Guardrails hands the function only the remainder, so it cannot know that
    # a quotation opened before a size cut: the rest is chunked as a text of
    # its own.  with_chunker validates the chunker's own chunks.
    strategy = limit("sentence", max_chars=30)
    assert strategy.split_text(QUOTED) == [
        'She wrote: "A rather long',
        "opening clause goes here.",
        'Short. Also short."',
        "The end.",
    ]
    segments, rest = chain(chunking_function(strategy), QUOTED)
    assert [s.strip() for s in segments] + [rest.strip()] == [
        'She wrote: "A rather long',
        "opening clause goes here.",
        "Short.",
        'Also short."',
        "The end.",
    ]
    plain = PlainBan("Short", on_fail="fix")
    plain._chunking_function = chunking_function(strategy)  # type: ignore[method-assign]
    chunked = with_chunker(PlainBan("Short", on_fail="fix"), strategy)
    for validator, seen in [(plain, [*segments, rest]), (chunked, strategy.split_text(QUOTED))]:
        run(guard_with(validator), list(QUOTED), guarded=False)
        assert validator.seen == seen


def test_guardrails_validates_no_piece_over_the_ceiling() -> None:
    # One-character deltas through Guardrails' own validate_stream: the
    # function hands out a size cut as soon as it is made, so what Guardrails
    # validates whole when the stream ends fits under the ceiling too.
    text = (
        "Intro para.\n\n```\nline one of code here\nline two of code here\nline three\n```\n\n"
        "After the fence. Another sentence here.\n\nLast para.\n"
    )
    validator = PlainBan("never", on_fail="fix")
    validator._chunking_function = chunking_function(  # type: ignore[method-assign]
        limit("structure", max_chars=40)
    )
    assert joined(run(guard_with(validator), list(text), guarded=False)) == text
    assert "".join(validator.seen) == text
    assert max(map(len, validator.seen)) <= 40


def _squared_words(text: str) -> int:
    # A length that grows faster than the sum of its parts.
    return len(text.split()) ** 2 // 3


def _cl100k_tokens(text: str) -> int:
    return len(pytest.importorskip("bpe_openai").get_encoding("cl100k_base").encode(text))


#: Limits measured by a tokenizer or by a length of the caller's, each with a
#: text that a chunker-level regression test pins (tests/chunkers/test_sizing.py)
#: and the measure its chunks must stay within.
MEASURED_LIMITS: dict[str, tuple[Any, str, Any, int]] = {
    "tokens": (
        lambda: limit("word", max_tokens=6, tokenizer="cl100k_base"),
        "abbbblongerword  longerword",
        _cl100k_tokens,
        6,
    ),
    "superadditive": (
        lambda: limit("sentence", max_chars=3, length=_squared_words),
        "One two three four five six.",
        _squared_words,
        3,
    ),
    "superadditive-fill": (
        lambda: limit("paragraph", max_chars=3, length=_squared_words, fill=True),
        "One two three four five six.",
        _squared_words,
        3,
    ),
}


@pytest.mark.parametrize("path", ["guarded", "async", "opt-in", "plain"])
@pytest.mark.parametrize("case", list(MEASURED_LIMITS))
def test_a_guard_validates_the_chunks_of_a_measured_limit_whatever_the_slicing(
    case: str, path: str
) -> None:
    # The chunker-level fixes hold where users run them: through a real Guard,
    # each slicing validates exactly the chunks the whole text gives, all
    # within the limit.  The plain sync runner may lose the fragment after the
    # last chunk (README, "what it fixes" 3): there the chunks validated are
    # the first ones.
    pytest.importorskip("bpe_openai")
    make, text, measure, ceiling = MEASURED_LIMITS[case]
    expected = make().split_text(text)
    assert all(measure(chunk) <= ceiling for chunk in expected), expected
    validator = Record(chunker=make(), on_fail="fix")
    guard = guard_with(validator, asynchronous=path == "async")
    if path == "opt-in":
        enable_validated_streaming()
    try:
        for size in (1, 2, 3, len(text)):
            deltas = [text[i : i + size] for i in range(0, len(text), size)]
            del validator.seen[:]
            if path == "async":
                released = joined(asyncio.run(arun(guard, deltas)))
            else:
                released = joined(run(guard, deltas, guarded=path == "guarded"))
            if path == "plain":
                assert text.startswith(released), size
                assert validator.seen == expected[: len(validator.seen)], size
            else:
                assert released == text, size
                assert validator.seen == expected, size
    finally:
        disable_validated_streaming()
