"""``ChunkedValidator`` and ``merge_results``: chunking, merging, state, parity.

A text validated at once (``validator.validate``, ``guard.validate``) and the
same text streamed in any deltas (``guarded_stream``, and Guardrails' plain
fix path) get the same verdict and the same fixed output.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import itertools
import threading
from typing import Any

import pytest
from guardrails.validator_base import register_validator
from guardrails_ai.types import FailResult, PassResult
from helpers.chunking import last_delta_completes
from helpers.guardrails import (
    Ban,
    History,
    PlainBan,
    Record,
    cached_guard,
    guard_with,
    joined,
    run,
    slicings,
    stream,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import RedactPII, disable_validated_streaming
from guardrails_ai.chunkwise.adapters import ChunkedValidator, merge_results, with_chunker
from guardrails_ai.chunkwise.adapters.streams import streams_of
from guardrails_ai.chunkwise.chunkers import (
    ChunkStream,
    ParagraphChunker,
    WordChunker,
    limit,
    resolve_chunker,
)

words = st.sampled_from(["bad", "Bad", "One", "two", "Dr.", "U.S.", "3.14", "\U0001f600"])
seps = st.sampled_from([" ", ". ", "! ", "? ", ".\n", "\n\n", "\r\n", "\t", ".  ", ""])
texts = st.lists(st.tuples(words, seps).map("".join), max_size=10).map("".join)
CHUNKERS = ["sentence", "sentence-simple", "word", "paragraph"]


# -- batch / stream parity -----------------------------------------------------------


@settings(max_examples=20)
@given(data=st.data())
def test_stream_and_batch_agree_on_verdict_and_fix(data: st.DataObject) -> None:
    text = data.draw(texts.filter(bool), "text")  # guard.validate("") is an error
    deltas = data.draw(slicings(text), "deltas")
    chunker = data.draw(st.sampled_from(CHUNKERS), "chunker")
    fix_guard, fix = cached_guard(Ban, chunker, "fix")
    noop_guard, _ = cached_guard(Ban, chunker, "noop")
    del fix.seen[:]

    direct = fix.validate(text, {})
    failed = isinstance(direct, FailResult)
    fixed = direct.fix_value if isinstance(direct, FailResult) else text
    assert failed == ("bad" in text)

    batch = fix_guard.validate(text)
    assert batch.validated_output == fixed and batch.validation_passed
    assert noop_guard.validate(text).validation_passed is not failed

    streamed = run(fix_guard, deltas)
    assert joined(streamed) == fixed and streamed[-1].validation_passed
    assert run(noop_guard, deltas)[-1].validation_passed is not failed

    plain = joined(run(fix_guard, deltas, guarded=False))
    logs = fix_guard.history.last.iterations.last.validator_logs
    plain_failed = any(isinstance(log.validation_result, FailResult) for log in logs)
    # Guardrails passes remainder=True only when the last delta completed no
    # chunk (regression 3); otherwise the plain path stops at the last chunk.
    assert fixed.startswith(plain)
    assert plain_failed <= failed
    if not deltas or not last_delta_completes(chunker, deltas):
        assert (plain, plain_failed) == (fixed, failed)


def test_batch_validate_chunks_like_a_stream() -> None:
    v = Ban(on_fail="fix")
    result = v.validate("One bad. Two.  Three bad", {})
    assert isinstance(result, FailResult)
    assert v.seen == ["One bad.", "Two.", "Three bad"]
    assert result.fix_value == "One ***. Two.  Three ***"
    assert result.validated_chunk == "One bad. Two.  Three bad"


def test_validate_refuses_non_strings() -> None:
    with pytest.raises(TypeError, match=r"value must be str, got int$"):
        Record().validate(123, {})


def test_validate_stream_refuses_non_strings() -> None:
    with pytest.raises(TypeError, match="chunk must be str, got bytes"):
        Record().validate_stream(b"One. ", {})


# -- merging ------------------------------------------------------------------------


@settings(max_examples=40)
@given(text=texts)
def test_error_spans_locate_each_failure_in_the_emitted_text(text: str) -> None:
    result = Ban(chunker="word").validate(text, {})
    if "bad" not in text:
        assert isinstance(result, PassResult)
        return
    assert isinstance(result, FailResult)
    assert result.validated_chunk == text
    failing = [word for word in text.split() if "bad" in word]  # Ban: one span per chunk
    assert [text[s.start : s.end] for s in result.error_spans or []] == ["bad"] * len(failing)
    assert result.fix_value == text.replace("bad", "***")


def test_merge_results_directly() -> None:
    stream = ChunkStream("sentence")
    pieces = stream.feed("Fine. No fix here. Ok. ") + stream.close()

    def verdict(chunk: str) -> Any:
        if chunk == "No fix here.":
            return FailResult(error_message="no", fix_value=None)
        if chunk == "Ok.":
            return FailResult(error_message="short", fix_value="Okay.")
        return PassResult()

    result = merge_results(pieces, verdict, Record())
    assert isinstance(result, FailResult)
    assert result.fix_value == "Fine.  Okay. "  # no fix: the chunk goes, its separator stays
    assert result.error_message == "no; short"
    spans = [(s.start, s.end) for s in result.error_spans or []]
    assert spans == [(6, 18), (19, 22)]


def test_value_override_on_pass() -> None:
    class Upper(Record):
        override_value_on_pass = True

        def check(self, value: str) -> Any:
            return PassResult(value_override=value.upper())

    result = Upper().validate("One. Two.", {})
    assert isinstance(result, PassResult)
    assert result.validated_chunk == "One. Two."
    assert result.value_override == "ONE. TWO."


def test_validate_must_return_a_result() -> None:
    @register_validator(name="chunkwise-test/broken", data_type="string")
    class Broken(ChunkedValidator):
        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            return "yes"

    with pytest.raises(TypeError, match="must return PassResult or FailResult"):
        Broken().validate("One.", {})


# -- chunker argument -----------------------------------------------------------------


def test_default_and_given_chunker() -> None:
    assert Record().chunker == resolve_chunker(Record.default_chunker)
    assert isinstance(Record(chunker="word").chunker, WordChunker)
    paragraph = ParagraphChunker(crlf=True)
    assert Record(chunker=paragraph).chunker is paragraph
    assert Record(chunker="word").get_args()["chunker"] == "word"
    assert "chunker" not in Record().get_args()


def test_class_default_chunker() -> None:
    class Words(Record):
        default_chunker = "word"

    words = Words()
    assert isinstance(words.chunker, WordChunker)
    words.validate("a b", {})
    assert words.seen == ["a", "b"]


@pytest.mark.parametrize(
    ("chunker", "error", "words"),
    [
        ("nope", ValueError, "chunker='nope' is not a known chunker; choose one of .*'sentence'"),
        (42, TypeError, "chunker must be one of"),
        (WordChunker, TypeError, "chunker=WordChunker is a class"),
    ],
)
def test_bad_chunker(chunker: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        Record(chunker=chunker)


@pytest.mark.parametrize(
    ("on_fail", "error", "words"),
    [
        ("fixx", ValueError, "^on_fail='fixx' is not an on-fail action; choose one of"),
        (3, TypeError, "^on_fail must be an on-fail action name or a callable, got int: 3"),
    ],
)
def test_a_subclass_refuses_a_bad_on_fail_at_construction(
    on_fail: Any, error: type, words: str
) -> None:
    # Before: Guardrails' own "TypeError: unsupported callable", naming nothing.
    with pytest.raises(error, match=words):
        Record(on_fail=on_fail)
    for good in ("FIX", "noop", None, lambda value, result: value):
        Record(on_fail=good)


# -- per-stream state -------------------------------------------------------------------


def test_stream_state_is_per_stream_and_per_call() -> None:
    v = History()
    guard = guard_with(v)
    run(guard, ["One. Tw", "o. Three"])
    run(guard, ["Four. Five"])
    v.validate("Six. Seven", {})
    assert v.states == [["One.", "Two.", "Three"], ["Four.", "Five"], ["Six.", "Seven"]]
    assert v.stream_state is None  # outside _validate


def test_stream_state_on_plain_path() -> None:
    v = History(on_fail="fix")
    guard = guard_with(v)
    run(guard, ["One. Tw", "o. Thr", "ee"], guarded=False)
    run(guard, ["Four. Fi", "ve"], guarded=False)
    assert v.states == [["One.", "Two.", "Three"], ["Four.", "Five"]]


def test_direct_validate_stream_without_a_runner() -> None:
    # No Guardrails iteration on the stack: state lives in the current context;
    # another context (here a fresh one) has its own.
    v = Record()
    assert v.validate_stream("One. Tw", {}) is not None
    assert v.validate_stream("o", {}) is None

    def other() -> Any:
        return v.validate_stream("Alpha. Beta", {}, remainder=True)

    assert other_result(other).validated_chunk == "Alpha. Beta"
    last = v.validate_stream(". End", {}, remainder=True)
    assert last is not None and last.validated_chunk == "Two. End"
    assert v.seen == ["One.", "Alpha.", "Beta", "Two.", "End"]


def other_result(function: Any) -> Any:
    return contextvars.Context().run(function)


def test_a_dead_validators_unfinished_direct_stream_is_forgotten() -> None:
    # A validator per request, its direct stream never ended (the client went
    # away): the context kept every such stream (about 2.8 KB each) after its
    # validator was gone, without bound.
    from guardrails_ai.chunkwise.adapters import streams

    def requests() -> int:
        for n in range(50):
            RedactPII(on_fail="fix").validate_stream(f"Hello {n}. Mail me at u{n}@exa", {})
        gc.collect()
        found = streams._RUNS.get()
        return 0 if found is None else len(found.runs)

    assert other_result(requests) == 0


@register_validator(name="chunkwise-test/raising", data_type="string")
class Raising(Record):
    """Raises ``RuntimeError`` on a chunk containing ``BOOM`` (a validator's own bug)."""

    def check(self, value: str) -> Any:
        if "BOOM" in value:
            raise RuntimeError("validator failed")
        return PassResult()


def test_a_direct_stream_whose_validation_raised_leaves_nothing_to_the_next() -> None:
    # The held fragment ("Held") of a direct stream whose validator raised
    # opened the next stream of the same context: "HeldFresh." was validated
    # and released as the new stream's first sentence.
    v = Raising()

    def streams() -> Any:
        with pytest.raises(RuntimeError):
            v.validate_stream("Hello BOOM. Held", {})
        return v.validate_stream("Fresh. End", {}, remainder=True)

    result = other_result(streams)
    assert result is not None and result.validated_chunk == "Fresh. End"
    assert v.seen == ["Hello BOOM.", "Fresh.", "End"]


def _length(text: str) -> int:
    if "X" in text:
        raise ValueError("length failed")
    return len(text)


@pytest.mark.parametrize(
    "make",
    [
        lambda chunker: Record(chunker=chunker),
        lambda chunker: with_chunker(PlainBan("bad"), chunker),
    ],
    ids=["chunked", "with_chunker"],
)
def test_a_direct_stream_whose_chunker_raised_leaves_nothing_to_the_next(make: Any) -> None:
    # A chunker that raised broke its ChunkStream, which stayed the context's
    # direct stream: every later call on the validator, remainder=True
    # included, raised "ChunkStream is broken" for good.
    v = make(limit("sentence", max_chars=50, length=_length))

    def streams() -> Any:
        with pytest.raises(ValueError, match="length failed"):
            v.validate_stream("Hi there. X", {})
        return v.validate_stream("Fresh. End", {}, remainder=True)

    result = other_result(streams)
    assert result is not None and result.validated_chunk == "Fresh. End"
    assert v.seen[-2:] == ["Fresh.", "End"]


def test_hundreds_of_open_streams_never_lose_one() -> None:
    # Guardrails' plain path never ends a stream for a validator: 300 open at
    # once through one validator (generators interleaved delta by delta).
    # Each stream was forgotten by the 257th (an LRU of 256), and all of them
    # lost text and restarted mid-sentence.
    v = Record(on_fail="fix")
    guard = guard_with(v)
    texts = [f"Stream {n} opens. It goes on. Stream {n} ends. " for n in range(300)]
    sliced = [[t[i : i + 5] for i in range(0, len(t), 5)] for t in texts]
    streams = [stream(guard, deltas, guarded=False) for deltas in sliced]
    outputs = [""] * len(streams)
    for _ in range(max(map(len, sliced)) + 1):
        for n, outcomes in enumerate(streams):
            for outcome in itertools.islice(outcomes, 1):
                outputs[n] += outcome.validated_output or ""
    assert outputs == texts
    assert len(v.seen) == 3 * len(texts)
    # A stream is remembered while its Guardrails iteration lives: the last
    # calls' iterations stay in guard.history (10 calls), the others go.
    del streams, outcomes
    gc.collect()
    assert len(streams_of(v)._runs) <= 10


def test_direct_streams_of_tasks_never_mix() -> None:
    # asyncio tasks copy their parent's context: after a direct stream in the
    # parent, every task saw the parent's runs and their texts mixed (a phone
    # number split between two streams was never redacted).
    v = RedactPII(on_fail="fix")

    async def one(deltas: list[str]) -> str:
        out = []
        for i, delta in enumerate(deltas):
            result = v.validate_stream(delta, {}, remainder=i == len(deltas) - 1)
            if result is not None:
                fixed = result.fix_value if isinstance(result, FailResult) else None
                out.append(str(fixed or result.validated_chunk))
            await asyncio.sleep(0)
        return "".join(out)

    async def main() -> list[str]:
        v.validate_stream("Warm up.", {}, remainder=True)
        return list(
            await asyncio.gather(
                one(["Alpha one. Call +44 20 ", "7946 0958 now. ", "Alpha end."]),
                one(["Beta one. ", "Beta two. ", "Beta end."]),
            )
        )

    assert asyncio.run(main()) == [
        "Alpha one. Call <PHONE> now. Alpha end.",
        "Beta one. Beta two. Beta end.",
    ]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Record(),
        lambda: with_chunker(PlainBan("bad"), "sentence"),
        lambda: with_chunker(PlainBan, "sentence")("bad"),
    ],
    ids=["chunked", "with_chunker", "with_chunker_class"],
)
def test_direct_async_streams_of_tasks_never_mix(make: Any) -> None:
    # Guardrails' async_validate_stream runs validate_stream in a worker
    # thread, whose context every task shares: tasks awaiting it directly
    # fed one another's streams ("Sne. 0 end", "StreaStreatreamne. ...").
    v = make()

    async def one(text: str) -> str:
        deltas = [text[i : i + 5] for i in range(0, len(text), 5)]
        out = []
        for i, delta in enumerate(deltas):
            result = await v.async_validate_stream(delta, {}, remainder=i == len(deltas) - 1)
            if result is not None:
                out.append(result.validated_chunk)
            await asyncio.sleep(0)
        return "".join(out)

    texts = [f"Stream {n} one. Stream {n} two. Stream {n} end" for n in range(8)]

    async def main() -> list[str]:
        return list(await asyncio.gather(*(one(text) for text in texts)))

    assert asyncio.run(main()) == texts
    assert sorted(v.seen) == sorted(
        f"Stream {n} {word}" for n in range(8) for word in ("one.", "two.", "end")
    )


@pytest.mark.parametrize(
    "make",
    [lambda: Record(), lambda: with_chunker(PlainBan("bad"), "sentence")],
    ids=["chunked", "with_chunker"],
)
def test_a_direct_async_stream_awaited_through_wait_for_is_one_stream(make: Any) -> None:
    # Python 3.11's asyncio.wait_for runs the coroutine in a task of its own,
    # with a copy of the caller's context: a stream found when the coroutine
    # first ran was a new one at every delta, and all but the last was lost.
    v = make()
    text = "Alpha one. Beta two. Gamma end"
    deltas = [text[i : i + 4] for i in range(0, len(text), 4)]

    async def main() -> str:
        out = []
        for i, delta in enumerate(deltas):
            last = i == len(deltas) - 1
            result = await asyncio.wait_for(v.async_validate_stream(delta, {}, remainder=last), 10)
            if result is not None:
                out.append(result.validated_chunk)
        return "".join(out)

    assert other_result(lambda: asyncio.run(main())) == text
    assert v.seen == ["Alpha one.", "Beta two.", "Gamma end"]


@register_validator(name="chunkwise-test/slow", data_type="string")
class Slow(Record):
    """Waits for ``go`` before passing a chunk containing ``SLOW``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.go = threading.Event()

    def check(self, value: str) -> Any:
        if "SLOW" in value:
            self.go.wait(10)
        return PassResult()


def test_a_direct_async_stream_timed_out_leaves_nothing_to_the_next() -> None:
    # A timeout (asyncio.timeout: the same task goes on) left the stream open
    # while a worker thread still validated its delta: the next stream of the
    # task began with its held text ("HeldFresh."), and a ChunkStream (not
    # thread-safe) could be fed by two threads at once.
    v = Slow()

    async def main() -> Any:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await v.async_validate_stream("Slow SLOW. Held", {})
        v.go.set()
        return await v.async_validate_stream("Fresh. End", {}, remainder=True)

    result = asyncio.run(main())
    assert result is not None and result.validated_chunk == "Fresh. End"
    assert v.seen == ["Slow SLOW.", "Fresh.", "End"]


def test_hundreds_of_async_streams_never_lose_one() -> None:
    # The same through AsyncGuard's plain path (no opt-in: the stream's own
    # Context keys its state, and the trailing fragment is never validated).
    from helpers.guardrails import MESSAGES, async_llm

    disable_validated_streaming()
    guard = guard_with(RedactPII(on_fail="fix"), asynchronous=True)

    def deltas(n: int) -> list[str]:
        text = f"Stream {n} opens. Mail u{n}@example.org now. Stream {n} goes on. Done. "
        return [text[i : i + 4] for i in range(0, len(text), 4)]

    async def one(n: int) -> str:
        stream = await guard(async_llm(deltas(n)), messages=MESSAGES, stream=True)
        return joined([o async for o in stream])

    async def many() -> list[str]:
        return list(await asyncio.gather(*(one(n) for n in range(300))))

    outputs = asyncio.run(many())
    assert outputs == [
        f"Stream {n} opens. Mail <EMAIL> now. Stream {n} goes on." for n in range(300)
    ]
    gc.collect()
    assert not streams_of(guard.get_validators("output")[0])._runs
