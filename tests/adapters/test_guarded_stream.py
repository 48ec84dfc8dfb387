"""``guarded_stream`` / ``async_guarded_stream`` through a real ``Guard``.

Properties on random text, random slicings, every registered chunker and the
on_fail modes fix, noop, exception and filter: lossless when every chunk
passes, each chunk validated exactly once (the trailing fragment included),
and each on_fail mode's promise kept.  Then examples: OpenAI-style chunk
objects, refrain, custom on_fail, several validators in a pipeline, bad input.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import pytest
from guardrails.actions.filter import Filter
from guardrails.actions.refrain import Refrain
from guardrails.classes.llm.prompt_callable import PromptCallableException
from guardrails.errors import ValidationError
from guardrails.validator_base import Validator, register_validator
from guardrails_ai.types import FailResult, PassResult, ValidationResult
from helpers.guardrails import (
    MESSAGES,
    WHITESPACE_RUNS,
    Ban,
    EndlessResponse,
    PlainBan,
    Record,
    arun,
    async_llm,
    cached_guard,
    guard_with,
    joined,
    llm,
    openai_chunks,
    run,
    slicings,
    two_part_slicings,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import NoRepetition
from guardrails_ai.chunkwise.adapters import async_guarded_stream, guarded_stream, with_chunker
from guardrails_ai.chunkwise.chunkers import ChunkStream, Piece, aliases, resolve_chunker

ALIASES = aliases()
#: Rescanning and not delta-invariant (Guardrails' splitter looks ahead for a
#: closing quote or bracket): few examples, and chunks compared with a replay.
SLOW = {"guardrails"}
MODES = ["fix", "noop", "exception", "filter"]

FRAGMENTS = [
    "bad",
    "Bad",
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
    "\u6587\u3002",
    "Dr. ",
    "U.S. ",
    "e.g. ",
    '"',
    ")",
    "# Title\n\n",
    "- item\n",
    "word",
    "Hi",
    "a",
    "3.14",
]
texts = st.one_of(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=14).map("".join),
    st.text(alphabet=" \t\r\n", max_size=5),  # whitespace only, or empty
)


def reference(alias: str, text: str, deltas: list[str]) -> list[Piece]:
    """The pieces a ChunkStream gives for these deltas (== split_text's chunks)."""
    chunker = resolve_chunker(alias)
    stream = ChunkStream(chunker)
    pieces = [p for d in deltas for p in stream.feed(d)] + stream.close()
    if alias not in SLOW:
        assert [p.chunk for p in pieces if p.chunk is not None] == chunker.split_text(text)
    return pieces


def _breaks(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _stronger(first: str, second: str) -> str:
    return first if (_breaks(first), len(first)) > (_breaks(second), len(second)) else second


def filtered(pieces: list[Piece], failing: list[Piece]) -> str:
    """The text with each failing chunk dropped.  The whitespace run before
    the first of the dropped chunks is kept whole; between the kept text before
    and after, the strongest whitespace run around the dropped chunks (most line
    breaks) is added whole if the kept text's ending has no whitespace, else
    only from the line breaks that ending lacks on; nothing at the start."""
    kept, gap = "", None

    def bridge() -> str:
        tail = kept[len(kept.rstrip()) :]
        if not kept or not gap:
            return ""
        if not tail:
            return gap
        have = _breaks(tail)
        if _breaks(gap) <= have:
            return ""
        lines = re.split(r"(\r\n|\r|\n)", gap)  # text, break, text, break...
        return "".join(lines[2 * have :])

    run = ""  # the whole whitespace run after the last dropped chunk, so far
    for p in pieces:
        if p in failing:
            if gap is not None:
                gap = _stronger(gap, run + p.before)
            else:
                # The first of the dropped chunks: the rest of the run before it
                # is kept (a slicing may have ended that run in its lead).
                kept += p.before if kept else ""
                gap = ""
            run = p.after
            gap = _stronger(gap, run)
            continue
        segment = p.segment
        if gap is not None:
            body = segment.lstrip()
            # (A slicing may end the run in a piece of its own: "\n" then "\n".)
            run += segment[: len(segment) - len(body)]
            gap = _stronger(gap, run)
            if not body:
                continue
            segment, gap, run = bridge() + body, None, ""
        kept += segment
    return kept + (bridge() if gap is not None else "")


def check_lossless(alias: str, data: st.DataObject) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    on_fail = data.draw(st.sampled_from(MODES), "on_fail")
    guard, validator = cached_guard(Record, alias, on_fail)
    del validator.seen[:]
    outcomes = run(guard, deltas)
    assert joined(outcomes) == text
    assert "".join(o.raw_llm_output for o in outcomes) == text
    assert all(o.validation_passed for o in outcomes)
    pieces = reference(alias, text, deltas)
    # Every chunk exactly once, in order, the trailing fragment included (a
    # text without a chunk, empty or blank, is one).
    assert validator.seen == ([p.chunk for p in pieces if p.chunk is not None] or [text])


def check_on_fail(alias: str, on_fail: str, data: st.DataObject) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    guard, validator = cached_guard(Ban, alias, on_fail)
    del validator.seen[:]
    pieces = reference(alias, text, deltas)
    chunks = [p.chunk for p in pieces if p.chunk is not None] or [text]  # (blank: one chunk)
    failing = [p for p in pieces if p.chunk is not None and "bad" in p.chunk]

    if on_fail == "exception" and failing:
        released = []
        with pytest.raises(ValidationError):
            for outcome in guarded_stream(guard, llm(deltas), messages=MESSAGES):
                released.append(outcome)
        out = joined(released)
        first = chunks.index(failing[0].chunk)  # type: ignore[arg-type]
        # Every chunk before the failing one and the whole whitespace run
        # after them, whatever the slicing (nothing when it is the first).
        assert out == (text[: failing[0].chunk_start] if first else "")
        assert validator.seen == chunks[: first + 1]
        return

    outcomes = run(guard, deltas)
    assert validator.seen == chunks
    out = joined(outcomes)
    if on_fail == "fix":
        assert out == "".join(
            p.before + p.chunk.replace("bad", "***") + p.after if p.chunk else p.segment
            for p in pieces
        )
        assert outcomes[-1].validation_passed
    elif on_fail == "noop":
        assert out == text
        assert outcomes[-1].validation_passed is not bool(failing)
    elif on_fail == "filter":
        assert out == filtered(pieces, failing)
        assert outcomes[-1].validation_passed  # what remains is valid
    else:
        assert out == text and not failing


FAST = [a for a in ALIASES if a not in SLOW]


@pytest.mark.parametrize("alias", FAST)
@settings(max_examples=15)
@given(data=st.data())
def test_lossless_and_every_chunk_validated_once(alias: str, data: st.DataObject) -> None:
    check_lossless(alias, data)


@pytest.mark.parametrize("alias", sorted(SLOW))
@settings(max_examples=5)
@given(data=st.data())
def test_lossless_and_every_chunk_validated_once_slow(alias: str, data: st.DataObject) -> None:
    check_lossless(alias, data)


@pytest.mark.parametrize("on_fail", MODES)
@pytest.mark.parametrize("alias", FAST)
@settings(max_examples=8)
@given(data=st.data())
def test_on_fail_semantics(alias: str, on_fail: str, data: st.DataObject) -> None:
    check_on_fail(alias, on_fail, data)


@pytest.mark.parametrize("on_fail", MODES)
@pytest.mark.parametrize("alias", sorted(SLOW))
@settings(max_examples=3)
@given(data=st.data())
def test_on_fail_semantics_slow(alias: str, on_fail: str, data: st.DataObject) -> None:
    check_on_fail(alias, on_fail, data)


# -- examples ---------------------------------------------------------------------

TEXT = "One bad. Two. Three bad"
DELTAS = ["One b", "ad. Two", ". Three", " bad"]


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_openai_style_chunks(validator: type) -> None:
    v = validator("bad", on_fail="fix")
    outcomes = run(guard_with(v), openai_chunks(DELTAS))
    assert joined(outcomes) == "One ***. Two. Three ***"
    assert "".join(o.raw_llm_output for o in outcomes) == TEXT
    assert [s.strip() for s in v.seen] == ["One bad.", "Two.", "Three bad"]


def _as_dicts(chunks: list[Any]) -> list[Any]:
    """OpenAI-style chunks as dicts, as ``chunk.model_dump()`` gives them."""

    def plain(value: Any) -> Any:
        if isinstance(value, list):
            return [plain(item) for item in value]
        if hasattr(value, "__dict__"):
            return {k: plain(v) for k, v in vars(value).items()}
        return value

    return [plain(chunk) for chunk in chunks]


def test_openai_style_chunks_as_dicts() -> None:
    v = Ban("bad", on_fail="fix")
    outcomes = run(guard_with(v), _as_dicts(openai_chunks(DELTAS)))
    assert joined(outcomes) == "One ***. Two. Three ***"
    assert "".join(o.raw_llm_output for o in outcomes) == TEXT
    v = Ban("bad", on_fail="fix")
    stream = async_guarded_stream(
        guard_with(v, asynchronous=True),
        async_llm(_as_dicts(openai_chunks(DELTAS))),
        messages=MESSAGES,
    )

    async def collect() -> list[Any]:
        return [o async for o in stream]

    assert joined(asyncio.run(collect())) == "One ***. Two. Three ***"


def _wire_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """An OpenAI chunk as the API sends it (parsed JSON): a delta without text
    has no ``content`` key (``{}`` ends every stream), as ``model_dump(exclude_none=True)``
    gives it too."""
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    return {"object": "chat.completion.chunk", "choices": [choice]}


def test_openai_wire_chunks_as_dicts_without_content() -> None:
    chunks = [
        _wire_chunk({"role": "assistant"}),
        *(_wire_chunk({"content": delta}) for delta in DELTAS),
        _wire_chunk({"tool_calls": []}),
        _wire_chunk({}, "stop"),
    ]
    v = Ban("bad", on_fail="fix")
    outcomes = run(guard_with(v), chunks)
    assert joined(outcomes) == "One ***. Two. Three ***"
    assert [s.strip() for s in v.seen] == ["One bad.", "Two.", "Three bad"]
    stream = async_guarded_stream(
        guard_with(Ban("bad", on_fail="fix"), asynchronous=True),
        async_llm(chunks),
        messages=MESSAGES,
    )

    async def collect() -> list[Any]:
        return [o async for o in stream]

    assert joined(asyncio.run(collect())) == "One ***. Two. Three ***"


def test_openai_style_chunks_async() -> None:
    v = Ban("bad", on_fail="fix")
    guard = guard_with(v, asynchronous=True)
    stream = async_guarded_stream(guard, async_llm(openai_chunks(DELTAS)), messages=MESSAGES)

    async def collect() -> list[Any]:
        return [o async for o in stream]

    assert joined(asyncio.run(collect())) == "One ***. Two. Three ***"


def test_nothing_is_released_before_it_is_validated() -> None:
    v = Record()
    seen_at_release = []
    for outcome in guarded_stream(guard_with(v), llm(DELTAS), messages=MESSAGES):
        seen_at_release.append((outcome.validated_output, list(v.seen)))
    assert seen_at_release == [
        ("One bad. ", ["One bad."]),
        ("Two. ", ["One bad.", "Two."]),
        ("Three bad", ["One bad.", "Two.", "Three bad"]),
    ]


def test_refrain_ends_the_output_at_the_failing_chunk() -> None:
    v = Ban("Three", on_fail="refrain")
    outcomes = run(guard_with(v), DELTAS)
    assert joined(outcomes) == "One bad. Two. "
    assert outcomes[-1].validated_output == ""
    assert outcomes[-1].validation_passed is False


def test_custom_on_fail_callable() -> None:
    v = Ban("bad", on_fail=lambda value, result: value.upper())
    assert joined(run(guard_with(v), DELTAS)) == "ONE BAD. Two. THREE BAD"


def test_custom_on_fail_must_return_a_string() -> None:
    v = Ban("bad", on_fail=lambda value, result: 42)
    with pytest.raises(TypeError, match="returned int; a streamed string needs a str"):
        run(guard_with(v), DELTAS)


def test_custom_on_fail_returning_none_releases_nothing_of_the_chunk() -> None:
    # A handler that only logs: Guardrails' value becomes None, so nothing of
    # the failing chunk goes out (as filter) and the failure stands.
    logged = []
    v = Ban("bad", on_fail=lambda value, result: logged.append(value))
    outcomes = run(guard_with(v), DELTAS)
    assert joined(outcomes) == "Two. "
    assert outcomes[-1].validation_passed is False
    assert logged == ["One bad.", "Three bad"]


def test_custom_on_fail_returning_refrain_or_filter_acts_as_those() -> None:
    # Guardrails honours both; the pipeline raised a TypeError.
    refrain = Ban("bad", on_fail=lambda value, result: Refrain())
    outcomes = run(guard_with(refrain), DELTAS)
    assert joined(outcomes) == "" and outcomes[-1].validation_passed is False
    assert joined(run(guard_with(Ban("bad", on_fail=lambda value, result: Filter())), DELTAS)) == (
        "Two. "
    )


@register_validator(name="chunkwise-test/fixless", data_type="string")
class Fixless(Validator):
    """Fails a value holding "bad" and offers no fix."""

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        return FailResult(error_message="bad") if "bad" in value else PassResult()


def test_a_fix_without_a_fix_value_releases_nothing_of_the_chunk_and_fails() -> None:
    # The chunk was dropped and the call reported as passed; Guardrails's
    # value becomes None and the failure stands.
    guard = guard_with(with_chunker(Fixless(on_fail="fix"), "sentence"))
    outcomes = run(guard, DELTAS)
    assert joined(outcomes) == "Two. "
    assert outcomes[-1].validation_passed is False


@register_validator(name="chunkwise-test/silent", data_type="string")
class Silent(Validator):
    """Returns no verdict at all (Guardrails reads ``None`` as no failure)."""

    def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
        return None


def test_a_validator_returning_none_passes_its_chunk() -> None:
    # The pipeline raised AttributeError ('NoneType' has no 'metadata').
    for outcomes in (
        run(guard_with(Silent(), Ban("bad", on_fail="fix")), DELTAS),
        asyncio.run(
            arun(guard_with(Silent(), Ban("bad", on_fail="fix"), asynchronous=True), DELTAS)
        ),
    ):
        assert joined(outcomes) == "One ***. Two. Three ***"
        assert outcomes[-1].validation_passed is True


def test_validators_run_as_a_pipeline_on_fixed_text() -> None:
    # The second validator sees the first one's fix, chunked its own way.
    first = Ban("bad", on_fail="fix")
    second = Record(chunker="word")
    outcomes = run(guard_with(first, second), DELTAS)
    assert joined(outcomes) == "One ***. Two. Three ***"
    assert second.seen == ["One", "***.", "Two.", "Three", "***"]


def test_plain_and_chunked_validators_together() -> None:
    plain, chunked = PlainBan("Two", on_fail="fix"), Ban("bad", on_fail="noop")
    outcomes = run(guard_with(plain, chunked), DELTAS)
    assert joined(outcomes) == "One bad. ***. Three bad"
    assert outcomes[-1].validation_passed is False


def test_empty_stream() -> None:
    outcomes = run(guard_with(Record()), [])
    assert [o.validated_output for o in outcomes] == [""]
    assert outcomes[-1].validation_passed


def test_guard_without_output_validators_streams_unchanged() -> None:
    assert joined(run(guard_with(), DELTAS)) == TEXT


def test_history_records_the_call() -> None:
    guard = guard_with(Record())
    outcomes = run(guard, DELTAS)
    assert guard.history.last is not None
    assert {o.call_id for o in outcomes} == {guard.history.last.id}


@pytest.mark.parametrize("on_fail", ["fix", "noop", "exception", "filter", "refrain"])
@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_async_guarded_stream_behaves_like_the_sync_one(validator: type, on_fail: str) -> None:
    def outcome(runner: Any) -> Any:
        try:
            return [(o.validated_output, o.validation_passed) for o in runner()]
        except ValidationError as error:
            return str(error)

    sync_guard = guard_with(validator("bad", on_fail=on_fail))
    async_guard = guard_with(validator("bad", on_fail=on_fail), asynchronous=True)
    expected = outcome(lambda: run(sync_guard, DELTAS))
    assert outcome(lambda: asyncio.run(arun(async_guard, DELTAS))) == expected


# -- bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "words"), [(None, "NoneType"), (b"Tw", "decode bytes"), (7, "int")]
)
def test_non_string_delta_raises_and_releases_nothing_after_it(bad: object, words: str) -> None:
    deltas = ["One. Two", bad, ". Three. "]
    released = []
    with pytest.raises(TypeError, match=f"delta #1 .*{words}"):
        for outcome in guarded_stream(guard_with(Record()), llm(deltas), messages=MESSAGES):
            released.append(outcome)
    assert joined(released) == "One. "


def test_a_delta_error_names_its_type_not_its_text() -> None:
    with pytest.raises(TypeError) as raised:
        list(
            guarded_stream(
                guard_with(Record()), llm(["One. ", b"secret@example.com"]), messages=MESSAGES
            )
        )
    assert "secret" not in str(raised.value)


@pytest.mark.parametrize(
    ("guard", "llm_api", "error", "words"),
    [
        ("guard", None, ValueError, "llm_api=None: pass an LLM callable"),
        ("guard", "not callable", TypeError, "llm_api must be callable .* got str"),
        (None, "llm", TypeError, "guard must be a guardrails Guard or AsyncGuard, got NoneType"),
    ],
)
def test_bad_call_says_what_is_wrong_before_streaming(
    guard: Any, llm_api: Any, error: type, words: str
) -> None:
    # Raised by the call itself, not at the first next(), and the same for the
    # async form.
    the_guard = guard_with(Record()) if guard == "guard" else guard
    api = llm(["One."]) if llm_api == "llm" else llm_api
    with pytest.raises(error, match=words):
        guarded_stream(the_guard, api, messages=MESSAGES)
    if guard == "guard":
        the_guard = guard_with(Record(), asynchronous=True)
    with pytest.raises(error, match=words):
        async_guarded_stream(the_guard, api, messages=MESSAGES)


def test_the_wrong_kind_of_guard_is_named() -> None:
    # Before: Python's own errors about coroutines and generators.
    with pytest.raises(
        TypeError, match="must be a Guard here, got AsyncGuard; stream it with async_guarded_stream"
    ):
        list(
            guarded_stream(
                guard_with(Record(), asynchronous=True), llm(["One."]), messages=MESSAGES
            )
        )

    async def collect() -> list[Any]:
        stream = async_guarded_stream(guard_with(Record()), llm(["One."]), messages=MESSAGES)
        return [o async for o in stream]

    with pytest.raises(
        TypeError, match="must be an AsyncGuard here, got Guard; stream it with guarded_stream"
    ):
        asyncio.run(collect())


def test_non_string_delta_raises_async() -> None:
    with pytest.raises(TypeError, match="delta #2"):
        asyncio.run(arun(guard_with(Record(), asynchronous=True), ["One. ", "Two", None]))


def test_async_llm_without_completion_stream() -> None:
    async def not_streaming(*, messages: Any = None, **kwargs: Any) -> str:
        return "One. Two."

    stream = async_guarded_stream(
        guard_with(Record(), asynchronous=True), not_streaming, messages=MESSAGES
    )

    async def collect() -> list[Any]:
        return [o async for o in stream]

    # Raised inside the LLM call, so Guardrails wraps it in its own exception.
    with pytest.raises(PromptCallableException, match="completion_stream"):
        asyncio.run(collect())


@pytest.mark.parametrize(("on_fail", "reason"), [("reask", "reask"), ("custom", "callable")])
def test_an_on_fail_streaming_cannot_honour_is_refused_before_the_llm_is_called(
    on_fail: str, reason: str
) -> None:
    calls = []

    def counting_llm(*, messages: Any = None, **kwargs: Any) -> Any:
        calls.append(messages)
        yield "One. "

    with pytest.raises(ValueError, match=reason):
        guarded_stream(guard_with(Ban(on_fail=on_fail)), counting_llm, messages=MESSAGES)
    assert calls == []


@pytest.mark.parametrize(("on_fail", "reason"), [("reask", "reask"), ("custom", "callable")])
def test_a_refused_on_fail_names_the_validator_a_chunker_was_given_to(
    on_fail: str, reason: str
) -> None:
    # with_chunker's rail_alias is chunkwise/with_chunker (for to_dict()): the
    # message named that, not which of a guard's validators to change.
    from guardrails_ai.lowercase import LowerCase

    validator = with_chunker(LowerCase(on_fail=on_fail), "sentence")
    with pytest.raises(ValueError, match=f"^guardrails/lowercase has on_fail=.*{reason}"):
        guarded_stream(guard_with(validator), llm(["One. "]), messages=MESSAGES)


def test_stream_false_is_refused() -> None:
    with pytest.raises(ValueError, match="stream=False"):
        guarded_stream(guard_with(Record()), llm(["x"]), messages=MESSAGES, stream=False)


class Garbling:
    """A foreign chunker whose ``split`` returns text that is not in the input."""

    def split(self, accumulated_text: str) -> list[str]:
        return ["garbled"] if ". " in accumulated_text else []

    def flush(self, accumulated_text: str) -> list[str]:
        return []


def test_chunker_returning_foreign_text_raises_and_releases_nothing() -> None:
    released = []
    guard = guard_with(Record(chunker=Garbling()))
    with pytest.raises(ValueError, match=r"split returned a chunk \(str of 7 characters\) that"):
        for outcome in guarded_stream(guard, llm(DELTAS), messages=MESSAGES):
            released.append(outcome)
    assert released == []


# -- whitespace runs are released whole ------------------------------------------------


async def _areleased(guard: Any, deltas: list[str]) -> str:
    """What ``async_guarded_stream`` released, up to an exception if one was raised."""
    released = []
    try:
        async for outcome in async_guarded_stream(guard, async_llm(deltas), messages=MESSAGES):
            released.append(outcome.validated_output or "")
    except ValidationError:
        pass
    return "".join(released)


def _released(guard: Any, deltas: list[str]) -> str:
    """What ``guarded_stream`` released, up to an exception if one was raised."""
    released = []
    try:
        for outcome in guarded_stream(guard, llm(deltas), messages=MESSAGES):
            released.append(outcome.validated_output or "")
    except ValidationError:
        pass
    return "".join(released)


@pytest.mark.parametrize(("make", "text", "released"), WHITESPACE_RUNS)
def test_what_is_released_does_not_depend_on_where_a_chunker_put_whitespace(
    make: Any, text: str, released: str
) -> None:
    # Before: "Short para.\n\n" in 1-character deltas; "Hi there.\r" (half a
    # line break); "one\rthree"; "Yes.\n\n\n\n\nNo." even at once.
    guard = guard_with(make())
    assert {_released(guard, deltas) for deltas in two_part_slicings(text)} == {released}
    # The same through an AsyncGuard.
    aguard = guard_with(make(), asynchronous=True)
    assert {asyncio.run(_areleased(aguard, d)) for d in two_part_slicings(text)} == {released}


def test_the_outcomes_before_an_exception_do_not_depend_on_the_slicing() -> None:
    # Before: in one delta the text before the failing chunk came with
    # validation_passed=False (the failure was found in the same call), in
    # 1-character deltas with True.
    guard = guard_with(NoRepetition(on_fail="exception"))
    text = "Yes. Yes. No."

    def seen(deltas: list[str]) -> tuple[str, bool]:
        outcomes = []
        with pytest.raises(ValidationError):
            for outcome in guarded_stream(guard, llm(deltas), messages=MESSAGES):
                outcomes.append(outcome)
        return joined(outcomes), outcomes[-1].validation_passed

    assert {seen(d) for d in ([text], list(text), [text[:7], text[7:]])} == {("Yes. ", True)}

    async def aseen(deltas: list[str]) -> tuple[str, bool]:
        aguard = guard_with(NoRepetition(on_fail="exception"), asynchronous=True)
        outcomes = []
        with pytest.raises(ValidationError):
            async for outcome in async_guarded_stream(aguard, async_llm(deltas), messages=MESSAGES):
                outcomes.append(outcome)
        return joined(outcomes), outcomes[-1].validation_passed

    assert {asyncio.run(aseen(d)) for d in ([text], list(text))} == {("Yes. ", True)}


@pytest.mark.parametrize("on_fail", ["refrain", "exception", "fix"])
def test_async_guarded_stream_closes_the_llm_response_when_it_ends_early(on_fail: str) -> None:
    # Before: the LLM's stream was left suspended inside the delta check and
    # closed only later, when the event loop finalised it (an open HTTP
    # response, tokens still generated), though the guarded stream had ended.
    closed: list[str] = []

    async def answer(*, messages: Any = None, **kwargs: Any) -> EndlessResponse:
        return EndlessResponse(closed)

    async def consume() -> list[str]:
        guard = guard_with(Ban("jo@example.com", on_fail=on_fail), asynchronous=True)
        stream = async_guarded_stream(guard, answer, messages=MESSAGES)
        with contextlib.suppress(ValidationError):
            async for _ in stream:
                if on_fail == "fix":
                    break  # a caller that stops reading
        await stream.aclose()
        return list(closed)  # before the event loop runs anything else

    assert asyncio.run(consume()) == ["closed"]
