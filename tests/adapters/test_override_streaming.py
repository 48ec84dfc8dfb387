"""``with_chunker`` gives a hub validator exact streaming on Guardrails' own paths.

The validator is ``guardrails_ai.lowercase.LowerCase`` (a hub validator this
package did not write), or :class:`SeenLowerCase`, the same class registered
under a test alias that records every value its ``validate`` is given.  Real
``Guard`` / ``AsyncGuard`` objects drive it through the plain
``guard(llm, stream=True)`` path; nothing of Guardrails is mocked.

What is pinned where Guardrails' runners, not the validator, decide:

* the sync ``fix`` path passes ``remainder=True`` only after a last delta that
  completed no chunk, or on a delta marked with ``finish_reason``; otherwise the
  trailing fragment is never validated nor released (regression 3);
* the sync noop/exception path and ``AsyncGuard`` never pass it: the fragment is
  never validated there (regressions 2 and 8); the noop path releases raw deltas.
"""

from __future__ import annotations

import asyncio
import copy
import functools
from typing import Any

import pytest
from guardrails.validator_base import register_validator
from guardrails_ai.lowercase import LowerCase
from guardrails_ai.types import ValidationResult
from helpers.chunking import last_delta_completes
from helpers.guardrails import (
    Record,
    arun,
    guard_with,
    joined,
    openai_chunks,
    released_before,
    run,
    slicings,
    stream,
)
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.adapters import with_chunker
from guardrails_ai.chunkwise.chunkers import limit, resolve_chunker

MAX = 20
LIMITED = limit("sentence", max_chars=MAX)
TEXT = "Alpha beta Gamma delta epsilon. Zeta Eta. Theta iota kappa lambda mu nu. Xi"
CHUNKS = LIMITED.split_text(TEXT)
COMPLETE = LIMITED.split(TEXT)  # the chunks a stream completes before it ends


@register_validator(name="chunkwise-test/seen-lowercase", data_type="string")
class SeenLowerCase(LowerCase):
    """``LowerCase`` recording in ``seen`` every value ``validate`` is given."""

    def __init__(self, on_fail: Any = None, **kwargs: Any) -> None:
        super().__init__(on_fail=on_fail, **kwargs)
        self.seen: list[str] = []

    def validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        self.seen.append(value)
        return super().validate(value, metadata)


def finish_marked(deltas: list[str]) -> list[Any]:
    """OpenAI-style chunks whose last text delta carries ``finish_reason``."""
    chunks = openai_chunks(deltas)[:-1]
    chunks[-1].choices[0].finish_reason = "stop"
    return chunks


def test_the_chunker_used_here_cuts_long_sentences() -> None:
    assert CHUNKS == [
        "Alpha beta Gamma",
        "delta epsilon.",
        "Zeta Eta.",
        "Theta iota kappa",
        "lambda mu nu.",
        "Xi",
    ]
    assert COMPLETE == CHUNKS[:-1]


# -- (1) one large delta holding several sentences ---------------------------------


@pytest.mark.parametrize("kind", ["instance", "class", "alias"])
def test_one_delta_fix_path_validates_every_chunk_once(kind: str) -> None:
    validator = _overridden(kind, on_fail="fix")
    guard = guard_with(validator)
    assert joined(run(guard, finish_marked([TEXT]), guarded=False)) == TEXT.lower()
    assert validator.seen == CHUNKS
    assert max(map(len, validator.seen)) <= MAX


def test_one_delta_fix_path_without_end_signal_keeps_the_fragment() -> None:
    # Pinned runner behaviour: the delta completed chunks, so Guardrails never
    # asks for the remainder; "Xi" is neither validated nor released.
    validator = with_chunker(SeenLowerCase(on_fail="fix"), LIMITED)
    out = joined(run(guard_with(validator), [TEXT], guarded=False))
    assert out == TEXT[: TEXT.rindex(" Xi")].lower()
    assert validator.seen == COMPLETE


def test_a_last_delta_completing_nothing_gets_the_fragment_validated() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="fix"), LIMITED)
    out = joined(run(guard_with(validator), [TEXT[:-1], TEXT[-1]], guarded=False))
    assert out == TEXT.lower()
    assert validator.seen == CHUNKS


def test_stock_validator_sees_one_segment_per_delta() -> None:
    # The defect being fixed: Guardrails' validate_stream under a plain
    # _chunking_function override takes one segment per delta and, at the end,
    # validates what remains as one piece, far over the ceiling.
    validator = SeenLowerCase(on_fail="fix")
    function = with_chunker(LowerCase(), LIMITED)._chunking_function
    validator._chunking_function = function  # type: ignore[method-assign]
    run(guard_with(validator), finish_marked([TEXT]), guarded=False)
    assert validator.seen == [TEXT]
    del validator.seen[:]
    run(guard_with(validator), [TEXT], guarded=False)
    assert validator.seen == [CHUNKS[0]]  # and nothing else, ever


def test_one_delta_noop_path_validates_every_complete_chunk_once() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="noop"), LIMITED)
    outcomes = run(guard_with(validator), [TEXT], guarded=False)
    assert joined(outcomes) == TEXT  # noop releases the raw delta
    assert validator.seen == COMPLETE  # no end signal: the fragment is never validated


def test_one_delta_exception_path_raises_on_a_later_sentence() -> None:
    text = "1 fine here. 2 fine. 3 Not fine. 4 tail"
    validator = with_chunker(SeenLowerCase(on_fail="exception"), LIMITED)
    assert released_before(guard_with(validator), [text], guarded=False) == ""
    assert validator.seen == ["1 fine here.", "2 fine.", "3 Not fine."]
    stock = SeenLowerCase(on_fail="exception")
    assert joined(run(guard_with(stock), [text], guarded=False)) == text  # never sees "Not"


def test_exception_path_releases_earlier_deltas_only() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="exception"), LIMITED)
    deltas = ["1 fine here. ", "2 fine. 3 Not fine. 4", " tail"]
    assert released_before(guard_with(validator), deltas, guarded=False) == deltas[0]
    assert validator.seen == ["1 fine here.", "2 fine.", "3 Not fine."]


def test_async_guard_one_delta() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="fix"), LIMITED)
    guard = guard_with(validator, asynchronous=True)
    out = joined(asyncio.run(arun(guard, [TEXT], guarded=False)))
    # AsyncGuard never signals the end of the stream: the fragment stays unvalidated.
    assert out == TEXT[: TEXT.rindex(" Xi")].lower()
    assert validator.seen == COMPLETE


# -- (2) delta invariance through Guardrails -----------------------------------------

words = st.sampled_from(
    ["Alpha", "beta", "GAMMA", "x", "Dr.", "U.S.", "3.14", "Supercalifragilisticexpialidocious"]
)
seps = st.sampled_from([" ", ". ", "! ", "? ", "\n", "\n\n", "  ", "."])
texts = st.lists(st.tuples(words, seps).map("".join), min_size=1, max_size=10).map("".join)
CHUNKERS = {
    "sentence<=20": LIMITED,
    "word": resolve_chunker("word"),
    "paragraph<=30": limit("paragraph", max_chars=30),
}


@functools.cache
def _fixture(name: str) -> tuple[Any, SeenLowerCase]:
    validator = with_chunker(SeenLowerCase(on_fail="fix"), CHUNKERS[name])
    return guard_with(validator), validator


@given(data=st.data())
def test_chunks_seen_are_the_chunkers_for_any_slicing(data: st.DataObject) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    name = data.draw(st.sampled_from(sorted(CHUNKERS)), "chunker")
    marked = data.draw(st.booleans(), "finish_reason on the last delta")
    chunker = CHUNKERS[name]
    guard, validator = _fixture(name)
    del validator.seen[:]

    out = joined(run(guard, finish_marked(deltas) if marked else deltas, guarded=False))
    if marked or not last_delta_completes(chunker, deltas):
        assert validator.seen == chunker.split_text(text)
        assert out == text.lower()
    else:  # pinned runner behaviour (regression 3): the fragment is dropped
        assert validator.seen == chunker.split(text)
        assert out == text[: chunker.locate(text).tail].lower()


# -- (3) interleaved streams through one instance ------------------------------------


def test_interleaved_streams_through_one_instance_stay_apart() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="fix"), LIMITED)
    guard = guard_with(validator)
    a = ["Alpha One. Alpha tw", "o is Long enough to cut. Alpha ", "End"]
    b = ["Beta One. Be", "ta two. Beta", " End"]
    streams = [stream(guard, finish_marked(d), guarded=False) for d in (a, b)]
    outs: list[list[Any]] = [[], []]
    for pair in zip(*streams, strict=False):
        for out, outcome in zip(outs, pair, strict=True):
            out.append(outcome)
    for out, rest in zip(outs, streams, strict=True):
        out.extend(rest)
    assert [joined(out) for out in outs] == ["".join(a).lower(), "".join(b).lower()]
    expected = LIMITED.split_text("".join(a)) + LIMITED.split_text("".join(b))
    assert sorted(validator.seen) == sorted(expected)


def test_async_tasks_through_one_instance_stay_apart() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="fix"), LIMITED)
    guard = guard_with(validator, asynchronous=True)
    texts = [f"Task{n} One. Task{n} Two is a Long one. Task{n} end" for n in range(8)]

    async def main() -> list[str]:
        deltas = ([t[i : i + 3] for i in range(0, len(t), 3)] for t in texts)
        runs = (arun(guard, d, guarded=False) for d in deltas)
        return [joined(outcomes) for outcomes in await asyncio.gather(*runs)]

    # AsyncGuard never signals the end of a stream: each fragment stays unvalidated.
    assert asyncio.run(main()) == [t[: LIMITED.locate(t).tail].lower() for t in texts]
    assert sorted(validator.seen) == sorted(c for t in texts for c in LIMITED.split(t))


# -- (4) copies, and what stays as it was -------------------------------------------


@pytest.mark.parametrize("kind", ["instance", "class"])
def test_deepcopy_of_an_overridden_validator(kind: str) -> None:
    original = _overridden(kind, on_fail="fix")
    assert original.validate_stream("One. Two", {}) is not None  # leaves "Two" open
    clone = copy.deepcopy(original)
    assert clone.validate_stream.__self__ is clone
    assert clone._chunking_function("one two") == original._chunking_function("one two")
    # The copy starts with no open stream; the original keeps its own.
    clone_result = clone.validate_stream(" more. Four", {}, remainder=True)
    assert clone_result is not None and clone_result.validated_chunk == " more. Four"
    assert clone.seen == ["One.", "more.", "Four"]  # ``seen`` was copied
    result = original.validate_stream(" more. Four", {}, remainder=True)
    assert result is not None and result.validated_chunk == " Two more. Four"
    assert original.seen == ["One.", "Two more.", "Four"]
    del clone.seen[:]
    assert joined(run(guard_with(clone), finish_marked([TEXT]), guarded=False)) == TEXT.lower()
    assert clone.seen == CHUNKS


def test_deepcopy_of_a_chunked_validator_shares_no_stream() -> None:
    # The same StreamRuns is under ChunkedValidator: copies start with no open stream.
    original = Record()
    original.validate_stream("One. Two", {})
    clone = copy.deepcopy(original)
    result = clone.validate_stream(" more. Four", {}, remainder=True)
    assert result is not None and result.validated_chunk == " more. Four"
    assert clone.seen == ["One.", "more.", "Four"]


def test_only_the_overridden_instance_changes() -> None:
    changed, other = with_chunker(LowerCase(), "word"), LowerCase()
    assert "validate_stream" in vars(changed)
    assert "validate_stream" not in vars(other)
    assert "validate_stream" not in vars(LowerCase)


def test_a_second_override_applies_to_new_streams() -> None:
    validator = with_chunker(SeenLowerCase(on_fail="fix"), LIMITED)
    guard = guard_with(validator)
    run(guard, finish_marked([TEXT]), guarded=False)
    with_chunker(validator, "word")
    del validator.seen[:]
    assert joined(run(guard, finish_marked([TEXT]), guarded=False)) == TEXT.lower()
    assert validator.seen == TEXT.split()


def test_validate_stream_refuses_non_strings() -> None:
    with pytest.raises(TypeError, match="chunk must be str, got bytes"):
        with_chunker(LowerCase(), "word").validate_stream(b"One. ", {})


def _overridden(kind: str, *, on_fail: str) -> Any:
    if kind == "instance":
        return with_chunker(SeenLowerCase(on_fail=on_fail), LIMITED)
    target: Any = SeenLowerCase if kind == "class" else "chunkwise-test/seen-lowercase"
    return with_chunker(target, LIMITED)(on_fail=on_fail)
