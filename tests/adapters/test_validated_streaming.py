"""``enable_validated_streaming()``: every Guard streams validate-then-release.

Real ``Guard``/``AsyncGuard`` objects and custom LLM callables throughout.
With the opt-in on, ``guard(llm, stream=True)``, AsyncGuard streams and the
at-once paths (``guard.validate``, non-streamed calls) all run chunkwise's
pipeline, so a streamed text equals the same text validated at once for every
slicing and every validator order; ``disable_validated_streaming()`` puts
Guardrails' own functions back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from guardrails import validator_service
from guardrails.classes.history import Call
from guardrails.errors import ValidationError
from guardrails.run.async_stream_runner import AsyncStreamRunner
from guardrails.run.stream_runner import StreamRunner
from guardrails.validator_base import Validator, register_validator
from guardrails_ai.lowercase import LowerCase
from guardrails_ai.types import FailResult, PassResult, ValidationResult
from helpers.cost import Reads, python_calls
from helpers.guardrails import (
    MESSAGES,
    WHITESPACE_RUNS,
    Ban,
    EndlessResponse,
    History,
    Record,
    async_llm,
    endless_deltas,
    guard_with,
    joined,
    llm,
    slicings,
    two_part_slicings,
    verdicts_by_release,
)
from hypothesis import given
from hypothesis import strategies as st

import guardrails_ai.chunkwise as chunkwise
from guardrails_ai.chunkwise import (
    BannedPhrases,
    MaxChunkLength,
    NoRepetition,
    RedactPII,
    disable_validated_streaming,
    enable_validated_streaming,
    validated_streaming_enabled,
)
from guardrails_ai.chunkwise.adapters import (
    async_guarded_stream,
    guarded_stream,
    validated_streaming,
    with_chunker,
)


@pytest.fixture(autouse=True)
def enabled() -> Iterator[None]:
    """Every test starts with the opt-in on and leaves it off."""
    enable_validated_streaming()
    yield
    disable_validated_streaming()


def streamed(guard: Any, deltas: list[str]) -> list[Any]:
    return list(guard(llm(deltas), messages=MESSAGES, stream=True))


async def astreamed(guard: Any, deltas: list[str]) -> list[Any]:
    return [o async for o in await guard(async_llm(deltas), messages=MESSAGES, stream=True)]


# -- several fix validators: streamed == guard.validate, every order -----------------

SENTENCES = [
    "Hi.",
    "Free money now.",
    "Mail ann@example.org today.",
    "Send it to ann@example.org.",
    "Send it to bob@example.net.",
    "Call me at 555-123-4567.",
    "Call me.",
    "free money is here",
    "Thanks.",
    "Bye.",
]
texts = st.lists(
    st.tuples(st.sampled_from(SENTENCES), st.sampled_from([" ", "  ", "\n", "\n\n", " \r\n"])),
    min_size=1,
    max_size=8,
).map(lambda parts: "".join(s + sep for s, sep in parts))


def three_fixers() -> list[Any]:
    return [
        RedactPII(on_fail="fix"),
        BannedPhrases(["free money"], on_fail="fix"),
        NoRepetition(on_fail="fix"),
    ]


ORDERS = [guard_with(*order) for order in itertools.permutations(three_fixers())]
ASYNC_ORDERS = [
    guard_with(*order, asynchronous=True) for order in itertools.permutations(three_fixers())
]


@given(st.data())
def test_three_fix_validators_streamed_equal_validate_in_every_order(data: st.DataObject) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    for guard in ORDERS:
        once = guard.validate(text)
        outcomes = streamed(guard, deltas)
        assert joined(outcomes) == once.validated_output
        assert outcomes[-1].validation_passed is once.validation_passed
        assert (
            joined(guarded_stream(guard, llm(deltas), messages=MESSAGES)) == once.validated_output
        )


@given(st.data())
def test_async_guard_streams_equal_validate(data: st.DataObject) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    guard = data.draw(st.sampled_from(ASYNC_ORDERS), "guard")
    once = asyncio.run(guard.validate(text))
    outcomes = asyncio.run(astreamed(guard, deltas))
    assert joined(outcomes) == once.validated_output
    assert outcomes[-1].validation_passed is once.validation_passed


def test_two_fixers_regression_hi_free_money() -> None:
    guard = guard_with(RedactPII(on_fail="fix"), BannedPhrases(["free money"], on_fail="fix"))
    outcomes = streamed(guard, ["Hi. Free money", " now. Bye."])
    assert joined(outcomes) == guard.validate("Hi. Free money now. Bye.").validated_output
    assert joined(outcomes) == "Hi. **** ***** now. Bye."
    assert all("Free" not in (o.validated_output or "") for o in outcomes)


def test_readme_guard_keeps_both_sentences_once_redacted() -> None:
    # The pipeline: after redaction the second sentence repeats the first, at once too.
    guard = guard_with(RedactPII(on_fail="fix"), NoRepetition(on_fail="fix"))
    text = "Send it to ann@example.org. Send it to bob@example.net. Thanks."
    once = guard.validate(text).validated_output
    assert once == joined(streamed(guard, [text[i : i + 3] for i in range(0, len(text), 3)]))
    assert once.count("<EMAIL>") == 1


# -- each on_fail --------------------------------------------------------------------


def test_filter_keeps_paragraph_breaks() -> None:
    text = "Keep one.\n\nMail a@b.org now. Say bad word here.\n\nKeep two.\n"
    guard = guard_with(RedactPII(on_fail="filter"))
    expected = "Keep one.\n\nSay bad word here.\n\nKeep two.\n"
    assert guard.validate(text).validated_output == expected
    for size in (1, 4, 7, len(text)):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert joined(streamed(guard, deltas)) == expected


def test_filter_of_a_whole_paragraph_does_not_double_the_blank_line() -> None:
    text = "Keep one.\n\nMail a@b.org now.\n\nKeep two."
    guard = guard_with(RedactPII(on_fail="filter"))
    assert joined(streamed(guard, [text])) == "Keep one.\n\nKeep two."


def test_noop_releases_everything_and_reports_failure_as_at_once() -> None:
    guard = guard_with(RedactPII(on_fail="noop"))
    text = "Hi. Mail a@b.org now. Bye"
    outcomes = streamed(guard, [text[:9], text[9:]])
    assert joined(outcomes) == text  # the trailing fragment too
    assert outcomes[-1].validation_passed is False
    assert guard.validate(text).validation_passed is False


# -- a noop failure next to a fix: the verdict is the pipeline's, at once as streamed ----

NOOP_AND_FIX = {
    # a noop failure left in the output, then a later fix elsewhere: not passed
    "noop then fix": (
        lambda: [BannedPhrases(["secret sauce"], on_fail="noop"), RedactPII(on_fail="fix")],
        "The secret sauce is ketchup. Mail jo@example.com now.",
        "The secret sauce is ketchup. Mail <EMAIL> now.",
    ),
    # a fix, then a noop failure: the released text, not None
    "fix then noop": (
        lambda: [RedactPII(on_fail="fix"), NoRepetition(on_fail="noop")],
        "Hi. Mail jo@example.com. Hi. Bye",
        "Hi. Mail <EMAIL>. Hi. Bye",
    ),
}


def text_llm(text: str) -> Any:
    """A custom LLM callable returning the whole ``text`` (a non-streamed call)."""

    def fake_llm(*, messages: Any = None, **kwargs: Any) -> str:
        return text

    return fake_llm


def async_text_llm(text: str) -> Any:
    async def fake_llm(*, messages: Any = None, **kwargs: Any) -> str:
        return text

    return fake_llm


def assert_released_and_failed(outcome: Any, expected: str) -> None:
    assert outcome.validated_output == expected
    assert outcome.validation_passed is False


@pytest.mark.parametrize("case", list(NOOP_AND_FIX))
def test_noop_next_to_a_fix_agrees_at_once_and_streamed(case: str) -> None:
    make, text, expected = NOOP_AND_FIX[case]
    guard = guard_with(*make())
    assert_released_and_failed(guard.validate(text), expected)
    assert_released_and_failed(guard(text_llm(text), messages=MESSAGES), expected)
    # the history says what the outcome says
    assert guard.history.last.status == "fail"
    assert guard.history.last.guarded_output == expected
    for size in (1, 4, 5, len(text)):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        outcomes = streamed(guard, deltas)
        assert joined(outcomes) == expected
        assert outcomes[-1].validation_passed is False
        assert guard.history.last.status == "fail"
        assert guard.history.last.guarded_output == expected
        outcomes = list(guarded_stream(guard, llm(deltas), messages=MESSAGES))
        assert joined(outcomes) == expected
        assert outcomes[-1].validation_passed is False


@pytest.mark.parametrize("case", list(NOOP_AND_FIX))
def test_noop_next_to_a_fix_agrees_with_an_async_guard(case: str) -> None:
    make, text, expected = NOOP_AND_FIX[case]
    guard = guard_with(*make(), asynchronous=True)

    async def check() -> None:
        assert_released_and_failed(await guard.validate(text), expected)
        assert_released_and_failed(await guard(async_text_llm(text), messages=MESSAGES), expected)
        assert guard.history.last.status == "fail"
        outcomes = await astreamed(guard, [text[i : i + 3] for i in range(0, len(text), 3)])
        assert joined(outcomes) == expected
        assert outcomes[-1].validation_passed is False
        assert guard.history.last.guarded_output == expected

    asyncio.run(check())


@pytest.mark.parametrize("case", list(NOOP_AND_FIX))
def test_noop_next_to_a_fix_agrees_under_the_async_validator_service(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUARDRAILS_RUN_SYNC", "false")
    make, text, expected = NOOP_AND_FIX[case]
    assert_released_and_failed(guard_with(*make()).validate(text), expected)


def test_a_resolved_call_passes_and_guardrails_own_path_is_untouched() -> None:
    text = "The secret sauce is ketchup. Mail jo@example.com now."
    guard = guard_with(BannedPhrases(["secret sauce"], on_fail="fix"), RedactPII(on_fail="fix"))
    once = guard.validate(text)
    assert once.validation_passed is True
    assert once.validated_output == "The ****** ***** is ketchup. Mail <EMAIL> now."
    assert guard.history.last.status == "pass"
    # a history entry the pipeline did not validate keeps Guardrails' own verdict
    disable_validated_streaming()
    noop = guard_with(BannedPhrases(["secret sauce"], on_fail="noop"), RedactPII(on_fail="fix"))
    native = noop.validate(text)
    enable_validated_streaming()
    assert noop.history.last.status == ("pass" if native.validation_passed else "fail")


@register_validator(name="tests/fix_that_fails", data_type="string")
class FixThatFails(Validator):
    """Fails on "BAD", and its fix (the text itself) fails again."""

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        return FailResult(error_message="bad", fix_value=value) if "BAD" in value else PassResult()


def test_fix_reask_keeps_guardrails_own_path_at_once() -> None:
    # The pipeline released a fix that failed again as passed, and never
    # re-asked; Guardrails validates the fix and re-asks (as for "reask").
    guard = guard_with(FixThatFails(on_fail="fix_reask"))
    once = guard.validate("This is BAD. Fine.")
    assert once.validation_passed is False and once.validated_output is None
    calls = []

    def answer(*, messages: Any = None, **kwargs: Any) -> str:
        calls.append(1)
        return "This is BAD. Fine." if len(calls) == 1 else "This is fine."

    outcome = guard(answer, messages=MESSAGES, num_reasks=1)
    assert len(calls) == 2
    assert outcome.validation_passed is True and outcome.validated_output == "This is fine."


def _endless(closed: list[str], name: str) -> Any:
    """An LLM whose response would go on for long, noting in ``closed`` when it is closed."""

    def answer(*, messages: Any = None, **kwargs: Any) -> Iterator[str]:
        try:
            yield from endless_deltas()
        finally:
            closed.append(name)

    return answer


def test_the_llm_response_is_closed_when_the_stream_ends_early() -> None:
    # It was left suspended, held by the call's history, until the guard went
    # away: an open HTTP response, tokens still generated after a refrain.
    closed: list[str] = []
    refrain = guard_with(RedactPII(on_fail="refrain"))
    assert joined(refrain(_endless(closed, "refrain"), messages=MESSAGES, stream=True)) == ""
    outcomes = guard_with(RedactPII(on_fail="fix"))(
        _endless(closed, "caller stopped"), messages=MESSAGES, stream=True
    )
    next(outcomes)
    outcomes.close()
    # guarded_stream takes the same path without the opt-in.
    disable_validated_streaming()
    try:
        guarded = guard_with(RedactPII(on_fail="refrain"))
        assert (
            joined(guarded_stream(guarded, _endless(closed, "guarded_stream"), messages=MESSAGES))
            == ""
        )
    finally:
        enable_validated_streaming()

    async def answer(*, messages: Any = None, **kwargs: Any) -> EndlessResponse:
        return EndlessResponse(closed, "async refrain")

    async_refrain = guard_with(RedactPII(on_fail="refrain"), asynchronous=True)
    assert joined(asyncio.run(astreamed_from(async_refrain, answer))) == ""
    assert closed == ["refrain", "caller stopped", "guarded_stream", "async refrain"]


def test_an_async_stream_closed_early_with_aclose_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # What the README tells a caller who leaves an AsyncGuard stream early:
    # close it (contextlib.aclosing).  Under the opt-in that logs nothing and
    # closes the LLM response.  (Without aclose, or with it on Guardrails' own
    # path, OpenTelemetry logs "Failed to detach context" when Guardrails'
    # traced generator is finalized in another task.)
    closed: list[str] = []

    async def answer(*, messages: Any = None, **kwargs: Any) -> EndlessResponse:
        return EndlessResponse(closed, "left early")

    async def leave_early() -> str:
        guard = guard_with(RedactPII(on_fail="fix"), asynchronous=True)
        stream = await guard(answer, messages=MESSAGES, stream=True)
        async with contextlib.aclosing(stream) as outcomes:
            async for outcome in outcomes:
                return str(outcome.validated_output)
        return ""

    with caplog.at_level("ERROR"):
        assert asyncio.run(leave_early())
    assert closed == ["left early"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


async def astreamed_from(guard: Any, answer: Any) -> list[Any]:
    return [o async for o in await guard(answer, messages=MESSAGES, stream=True)]


NOOP_PARTS = [
    lambda: RedactPII(on_fail="fix"),
    lambda: BannedPhrases(["free money"], on_fail="noop"),
    lambda: NoRepetition(on_fail="noop"),
    lambda: Ban("Bye", on_fail="fix"),
]
NOOP_ORDERS = [
    guard_with(*(NOOP_PARTS[i]() for i in order)) for order in itertools.permutations(range(4))
]


@given(st.data())
def test_fix_and_noop_validators_streamed_equal_validate_in_every_order(
    data: st.DataObject,
) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    guard = data.draw(st.sampled_from(NOOP_ORDERS), "guard")
    once = guard.validate(text)
    outcomes = streamed(guard, deltas)
    assert once.validated_output is not None
    assert joined(outcomes) == once.validated_output
    assert outcomes[-1].validation_passed is once.validation_passed
    left = "free money" in once.validated_output.lower()
    assert not left or once.validation_passed is False


REFRAIN_TEXT = "Hello there. Next one. free money. Bye."


@pytest.mark.parametrize(
    "deltas", [[REFRAIN_TEXT], ["Hello there. Next", " one. free money. Bye."]]
)
def test_refrain_releases_the_same_prefix_for_every_slicing(deltas: list[str]) -> None:
    guard = guard_with(BannedPhrases(["free money"], on_fail="refrain"))
    outcomes = streamed(guard, deltas)
    # "free money." is its own sentence (a plain word, a stop, a lower-case
    # start): everything before it is released, whatever the slicing.
    assert joined(outcomes) == "Hello there. Next one. "
    assert outcomes[-1].validation_passed is False
    once = guard.validate(REFRAIN_TEXT)
    assert not once.validated_output and once.validation_passed is False


def test_a_streamed_refrain_leaves_the_released_text_in_the_calls_history() -> None:
    guard = guard_with(BannedPhrases(["free money"], on_fail="refrain"))
    released = joined(streamed(guard, ["Hello there. Next", " one. free money. Bye."]))
    assert released == "Hello there. Next one. "
    call = guard.history.last
    assert call.guarded_output == released == call.iterations.last.guarded_output
    assert call.status == "fail"


@register_validator(name="chunkwise-test/non-blank", data_type="string")
class NonBlank(Validator):
    """Refuses a blank value (the fix says so); records every value it is given."""

    def __init__(self, on_fail: Any = None, **kwargs: Any) -> None:
        super().__init__(on_fail=on_fail, **kwargs)
        self.seen: list[str] = []

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        self.seen.append(value)
        if value.strip():
            return PassResult()
        return FailResult(error_message="blank answer", fix_value="(blank)")


#: What each on_fail releases of a blank response, and whether it passed.
BLANK = {
    "noop": (None, False),
    "fix": ("(blank)", True),
    "filter": ("", True),
    "refrain": ("", False),
}


@pytest.mark.parametrize("text", [" \n", "\r\n\t ", "\n\n\n", "\u3000"])
@pytest.mark.parametrize("on_fail", [*BLANK, "exception"])
def test_a_blank_response_is_validated_once_whole(text: str, on_fail: str) -> None:
    # No chunk, only whitespace: each validator is still asked, once, about
    # the whole text, streamed in any slicing as at once.
    for deltas in ([text], list(text)):
        blank = NonBlank(on_fail=on_fail)
        guard = guard_with(Record(), blank)
        if on_fail == "exception":
            with pytest.raises(ValidationError):
                streamed(guard, deltas)
            with pytest.raises(ValidationError):
                guard.validate(text)
            assert blank.seen == [text, text]
            continue
        output, passed = BLANK[on_fail]
        outcomes = streamed(guard, deltas)
        assert joined(outcomes) == (text if output is None else output)
        assert outcomes[-1].validation_passed is passed
        assert blank.seen == [text]
        once = guard.validate(text)
        assert (once.validated_output or "") == joined(outcomes)
        assert once.validation_passed is passed


@pytest.mark.parametrize("on_fail", ["fix", "exception"])
def test_a_blank_response_is_validated_once_through_an_async_guard(on_fail: str) -> None:
    blank = NonBlank(on_fail=on_fail)
    guard = guard_with(blank, asynchronous=True)
    if on_fail == "exception":
        with pytest.raises(ValidationError):
            asyncio.run(astreamed(guard, [" ", "\n"]))
    else:
        assert joined(asyncio.run(astreamed(guard, [" ", "\n"]))) == "(blank)"
    assert blank.seen == [" \n"]


def test_an_empty_response_is_validated_once() -> None:
    blank = NonBlank(on_fail="fix")
    outcomes = streamed(guard_with(blank), [])
    assert joined(outcomes) == "(blank)"
    assert blank.seen == [""]


def test_text_a_stop_cut_short_is_not_validated_as_a_blank_response() -> None:
    blank = NonBlank(on_fail="noop")
    guard = guard_with(Ban("bad", on_fail="refrain"), blank)
    assert joined(streamed(guard, ["bad one. ", "Two."])) == ""
    assert blank.seen == []


def released_before_error(stream: Iterator[Any]) -> str:
    released = []
    with pytest.raises(ValidationError):
        for outcome in stream:
            released.append(outcome)
    return joined(released)


@functools.cache
def stopping_guard(order: tuple[int, ...], on_fail: str) -> Any:
    parts = [
        RedactPII(on_fail="fix"),
        BannedPhrases(["free money"], on_fail=on_fail),
        NoRepetition(on_fail="fix"),
    ]
    return guard_with(*(parts[i] for i in order))


@pytest.mark.parametrize("on_fail", ["refrain", "exception"])
@given(data=st.data())
def test_what_is_released_before_a_stop_depends_on_the_text_alone(
    on_fail: str, data: st.DataObject
) -> None:
    text = data.draw(texts, "text")
    deltas = data.draw(slicings(text), "deltas")
    order = data.draw(st.permutations(range(3)), "order")
    guard = stopping_guard(tuple(order), on_fail)
    if on_fail == "refrain":
        reference = joined(streamed(guard, [text]))
        assert joined(streamed(guard, deltas)) == reference
        assert joined(guarded_stream(guard, llm(deltas), messages=MESSAGES)) == reference
        return
    if "free money" not in text.lower():
        assert joined(streamed(guard, deltas)) == guard.validate(text).validated_output
        return
    reference = released_before_error(iter(streamed_lazily(guard, [text])))
    assert released_before_error(streamed_lazily(guard, deltas)) == reference
    assert "free money" not in reference.lower()
    with pytest.raises(ValidationError):
        guard.validate(text)


def streamed_lazily(guard: Any, deltas: list[str]) -> Iterator[Any]:
    return iter(guard(llm(deltas), messages=MESSAGES, stream=True))


def test_exception_raises_before_the_failing_text_and_records_it() -> None:
    guard = guard_with(Ban("bad", on_fail="exception"))
    released = released_before_error(streamed_lazily(guard, ["One. Two bad", ". Three."]))
    assert released == "One. "
    assert guard.history.last.error and "bad" in guard.history.last.error


def test_async_guard_exception_and_refrain() -> None:
    guard = guard_with(Ban("bad", on_fail="refrain"), asynchronous=True)
    assert joined(asyncio.run(astreamed(guard, ["One. Two bad. Th", "ree."]))) == "One. "

    async def until_error() -> str:
        guard = guard_with(Ban("bad", on_fail="exception"), asynchronous=True)
        released = []
        with pytest.raises(ValidationError):
            async for o in await guard(
                async_llm(["One. Two bad. ", "x"]), messages=MESSAGES, stream=True
            ):
                released.append(o)
        return joined(released)

    assert asyncio.run(until_error()) == "One. "


def test_async_guarded_stream_uses_the_pipeline_without_the_opt_in() -> None:
    disable_validated_streaming()
    guard = guard_with(
        RedactPII(on_fail="fix"), BannedPhrases(["free money"], on_fail="fix"), asynchronous=True
    )

    async def collect() -> list[Any]:
        return [
            o
            async for o in async_guarded_stream(
                guard, async_llm(["Hi. Free money", " now. Bye."]), messages=MESSAGES
            )
        ]

    assert joined(asyncio.run(collect())) == "Hi. **** ***** now. Bye."


# -- a hub validator with with_chunker -------------------------------------------------


@pytest.mark.parametrize("lower_first", [True, False])
def test_hub_validator_with_chunker_streams_as_it_validates(lower_first: bool) -> None:
    lower = with_chunker(LowerCase(on_fail="fix"), "sentence")
    pii = RedactPII(on_fail="fix")
    guard = guard_with(*((lower, pii) if lower_first else (pii, lower)))
    text = "Please MAIL a@b.org. Then Stop."
    once = guard.validate(text).validated_output
    assert once == (
        "please mail <EMAIL>. then stop." if lower_first else "please mail <email>. then stop."
    )
    for size in (1, 3, 8):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert joined(streamed(guard, deltas)) == once


# -- concurrency ---------------------------------------------------------------------


def test_concurrent_threads_never_mix() -> None:
    history = History()
    guard = guard_with(history, Ban("bad", on_fail="fix"))
    texts_ = [f"Stream {n} says bad. Then {n} more. End {n}" for n in range(8)]
    results: dict[int, str] = {}

    def worker(n: int) -> None:
        text = texts_[n]
        results[n] = joined(streamed(guard, [text[i : i + 2] for i in range(0, len(text), 2)]))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n, text in enumerate(texts_):
        assert results[n] == text.replace("bad", "***")
    assert sorted(map(tuple, history.states)) == sorted(
        (f"Stream {n} says bad.", f"Then {n} more.", f"End {n}") for n in range(8)
    )


def test_concurrent_tasks_never_mix() -> None:
    guard = guard_with(Ban("bad", on_fail="fix"), NoRepetition(on_fail="fix"), asynchronous=True)
    texts_ = [f"Task {n} is bad. Task {n} is bad. Done {n}" for n in range(8)]

    async def one(text: str) -> str:
        return joined(await astreamed(guard, [text[i : i + 3] for i in range(0, len(text), 3)]))

    async def all_() -> list[str]:
        return await asyncio.gather(*(one(t) for t in texts_))

    outputs = asyncio.run(all_())
    for n, out in enumerate(outputs):
        assert out == asyncio.run(guard.validate(texts_[n])).validated_output
        assert out.startswith(f"Task {n} is ***.") and out.endswith(f"Done {n}")


# -- the switch ------------------------------------------------------------------------

PATCHED = [
    (StreamRunner, "step"),
    (AsyncStreamRunner, "async_step"),
    (validator_service, "validate"),
    (validator_service, "async_validate"),
    (Call, "status"),
    (Call, "guarded_output"),
]


def test_disable_restores_guardrails_exactly_and_both_are_idempotent() -> None:
    disable_validated_streaming()
    assert not validated_streaming_enabled()
    originals = [vars(owner)[name] for owner, name in PATCHED]
    guard = guard_with(RedactPII(on_fail="fix"), BannedPhrases(["free money"], on_fail="fix"))
    deltas = ["Hi. Free money", " now. Bye."]
    plain = [(o.validated_output, o.validation_passed) for o in streamed(guard, deltas)]
    enable_validated_streaming()
    enable_validated_streaming()
    assert validated_streaming_enabled()
    assert all(
        vars(owner)[name] is not original
        for (owner, name), original in zip(PATCHED, originals, strict=True)
    )
    assert joined(streamed(guard, deltas)) == "Hi. **** ***** now. Bye."
    disable_validated_streaming()
    disable_validated_streaming()
    assert not validated_streaming_enabled()
    assert all(
        vars(owner)[name] is original
        for (owner, name), original in zip(PATCHED, originals, strict=True)
    )
    assert [(o.validated_output, o.validation_passed) for o in streamed(guard, deltas)] == plain
    enable_validated_streaming()


def test_exported_from_the_package_and_the_adapters() -> None:
    for name in (
        "enable_validated_streaming",
        "disable_validated_streaming",
        "validated_streaming_enabled",
    ):
        assert getattr(chunkwise, name) is getattr(validated_streaming, name)
        assert name in chunkwise.__all__


def test_enable_from_many_threads_at_once() -> None:
    disable_validated_streaming()
    barrier = threading.Barrier(8)

    def flip() -> None:
        barrier.wait()
        enable_validated_streaming()

    threads = [threading.Thread(target=flip) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert validated_streaming_enabled()
    disable_validated_streaming()
    assert "chunkwise" not in (vars(StreamRunner)["step"].__doc__ or "")
    enable_validated_streaming()


def test_guards_without_validators_and_at_once_without_validators_are_unchanged() -> None:
    guard = guard_with()
    assert joined(streamed(guard, ["a. ", "b"])) == "a. b"
    assert guard.validate("a. b").validated_output == "a. b"


# -- what the history keeps, and linear cost -------------------------------------------


def test_history_keeps_the_whole_texts_and_one_log_per_validator() -> None:
    guard = guard_with(Record(), Ban("bad", on_fail="fix"))
    text = "One bad. Two. Three bad"
    streamed(guard, [text[i : i + 2] for i in range(0, len(text), 2)])
    call = guard.history.last
    iteration = call.iterations.last
    assert iteration.outputs.raw_output == text == call.raw_outputs.last
    assert iteration.outputs.guarded_output == "One ***. Two. Three ***" == call.guarded_output
    logs = iteration.outputs.validator_logs
    assert [log.registered_name for log in logs] == ["chunkwise-test/record", "chunkwise-test/ban"]
    assert logs[1].validation_result.outcome == "fail"
    spans = call.iterations.last.error_spans_in_output
    assert [(s.start, s.end) for s in spans] == [(4, 7), (20, 23)]


@pytest.mark.parametrize("via", ["guard", "guarded_stream"])
def test_work_per_delta_does_not_grow_with_the_response(via: str) -> None:
    guard = guard_with(RedactPII(on_fail="fix"), BannedPhrases(["free money"], on_fail="fix"))
    sentence = "Mail ann@example.org about free money. Then we talk. "

    def stream(n: int) -> None:
        text = sentence * n
        deltas = [text[i : i + 4] for i in range(0, len(text), 4)]
        if via == "guard":
            streamed(guard, deltas)
        else:
            list(guarded_stream(guard, llm(deltas), messages=MESSAGES))

    stream(5)  # warm caches
    small, large = python_calls(lambda: stream(150)), python_calls(lambda: stream(600))
    assert large <= 4.4 * small, (small, large)
    assert len(guard.history.last.iterations.last.outputs.validator_logs) == 2


def test_at_once_uses_the_pipeline_under_the_async_validator_service(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Guardrails' default service runs each validator on the original and merges the
    # fixes; with the opt-in, validate() is the pipeline whichever service is selected.
    monkeypatch.setenv("GUARDRAILS_RUN_SYNC", "false")
    lower = with_chunker(LowerCase(on_fail="fix"), "sentence")
    guard = guard_with(lower, RedactPII(on_fail="fix"))
    text = "Mail a@b.org. Bye."
    once = guard.validate(text)
    assert (
        once.validated_output
        == "mail <EMAIL>. bye."
        == joined(streamed(guard, [text[:7], text[7:]]))
    )
    assert once.validation_passed


@pytest.mark.parametrize(("make", "text", "released"), WHITESPACE_RUNS)
def test_guard_streams_release_whole_whitespace_runs(make: Any, text: str, released: str) -> None:
    # As guarded_stream (test_guarded_stream.py), through guard(..., stream=True)
    # with the opt-in, and at once.
    guard = guard_with(make())

    def out(deltas: list[str]) -> str:
        outcomes = []
        try:
            for outcome in guard(llm(deltas), messages=MESSAGES, stream=True):
                outcomes.append(outcome)
        except ValidationError:
            pass
        return joined(outcomes)

    assert {out(deltas) for deltas in two_part_slicings(text)} == {released}
    if guard.get_validators("output")[0].on_fail_descriptor == "filter":  # (at once too)
        assert guard.validate(text).validated_output == released


# -- after a stop, the verdict and the history depend on the text alone ---------------

STOP_SENTENCES = ["Hi.", "A bad one.", "Worse news.", "Time to stop.", "Bye now.", "bad stop."]


@functools.cache
def reusable_guard(asynchronous: bool) -> Any:
    """One guard per kind, its validators replaced by each example (``Guard()`` is slow)."""
    return guard_with(asynchronous=asynchronous)


def after_a_stop(outcomes: Iterator[Any]) -> tuple[str, bool | None, bool]:
    """(released text, the last outcome's ``validation_passed``, whether it raised)."""
    seen = []
    try:
        for outcome in outcomes:
            seen.append(outcome)
    except ValidationError:
        return joined(seen), seen[-1].validation_passed if seen else None, True
    return joined(seen), seen[-1].validation_passed if seen else None, False


def _named(value: Any) -> Any:
    return value if isinstance(value, str) else type(value).__name__


def history_of(guard: Any) -> tuple[Any, ...]:
    """What the last call's history says of its validators (not of the LLM text read)."""
    call = guard.history.last
    logs = call.iterations.last.outputs.validator_logs
    return (
        call.status,
        call.guarded_output,
        [
            (
                log.registered_name,
                type(log.validation_result).__name__,
                log.value_before_validation,
                _named(log.value_after_validation),
                getattr(log.validation_result, "error_message", None),
                [(s.start, s.end) for s in getattr(log.validation_result, "error_spans", [])],
            )
            for log in logs
        ],
    )


@given(data=st.data())
def test_after_a_stop_the_verdict_and_history_depend_on_the_text_alone(
    data: st.DataObject,
) -> None:
    """Earlier validators validate past the failing chunk as far as the slicing
    takes them (given the text at once, all of it); what they found there is
    forgotten on every Guard path."""
    parts = data.draw(st.lists(st.sampled_from(STOP_SENTENCES), min_size=1, max_size=6))
    seps = data.draw(st.lists(st.sampled_from([" ", "\n", "\n\n"]), min_size=len(parts)))
    text = "".join(p + s for p, s in zip(parts, seps, strict=False))
    chunkers = st.sampled_from(["sentence", "word", "line", "paragraph"])
    validators = [
        Ban(
            "bad",
            on_fail=data.draw(st.sampled_from(["noop", "fix", "filter"])),
            chunker=data.draw(chunkers),
        ),
        Ban(
            "Worse",
            on_fail=data.draw(st.sampled_from(["noop", "fix", "exception"])),
            chunker=data.draw(chunkers),
        ),
        Ban(
            "stop",
            on_fail=data.draw(st.sampled_from(["refrain", "exception"])),
            chunker=data.draw(chunkers),
        ),
    ]
    validators = data.draw(st.permutations(validators))
    deltas = data.draw(slicings(text))
    guard, aguard = reusable_guard(False), reusable_guard(True)
    guard.use(*validators)
    aguard.use(*validators)

    reference = after_a_stop(streamed_lazily(guard, [text]))
    history = history_of(guard)
    assert after_a_stop(streamed_lazily(guard, deltas)) == reference
    assert history_of(guard) == history
    assert after_a_stop(guarded_stream(guard, llm(deltas), messages=MESSAGES)) == reference
    assert history_of(guard) == history
    with contextlib.suppress(ValidationError):
        guard.validate(text)
    assert history_of(guard)[2] == history[2]  # the logs (at once, a refrain releases "")

    async def async_paths() -> list[tuple[Any, ...]]:
        seen = []
        for stream in (
            await aguard(async_llm(deltas), messages=MESSAGES, stream=True),
            async_guarded_stream(aguard, async_llm(deltas), messages=MESSAGES),
        ):
            released: list[Any] = []
            raised = False
            try:
                async for outcome in stream:
                    released.append(outcome)
            except ValidationError:
                raised = True
            last = released[-1].validation_passed if released else None
            seen.append(((joined(released), last, raised), history_of(aguard)))
        return seen

    for outcome, async_history in asyncio.run(async_paths()):
        assert outcome == reference
        assert async_history == history


EARLY_TEXT = "Hi. Ok.\n\nSame. Same. More words here.\n\nThe end."


def test_a_stream_its_reader_left_early_is_recorded_as_far_as_it_was_released() -> None:
    """The reader takes the first outcome and stops (a break, close(), aclose()):
    the history says what that outcome released, whatever the first validator
    had found beyond it (before: its repeat, found or not depending on how the
    text was read, made the call fail, and the logs covered unreleased text)."""
    validators = [
        NoRepetition(on_fail="noop"),
        MaxChunkLength(max_words=40, chunker="paragraph", on_fail="noop"),
    ]
    guard = guard_with(*validators)
    aguard = guard_with(*validators, asynchronous=True)

    async def first_outcome(deltas: list[str]) -> Any:
        stream = await aguard(async_llm(deltas), messages=MESSAGES, stream=True)
        async for outcome in stream:
            await stream.aclose()
            return outcome
        raise AssertionError("no outcome")

    histories = set()
    # The first delta ends inside the second paragraph: before the second
    # "Same.", after it (its first validator has found the repeat), or at once.
    cuts = [len("Hi. Ok.\n\nS"), len("Hi. Ok.\n\nSame. Sa"), EARLY_TEXT.index(" here.")]
    for deltas in [list(EARLY_TEXT)] + [[EARLY_TEXT[:k], EARLY_TEXT[k:]] for k in cuts]:
        for outcome in guard(llm(deltas), messages=MESSAGES, stream=True):  # noqa: B007
            break
        assert (outcome.validated_output, outcome.validation_passed) == ("Hi. Ok.\n\n", True)
        histories.add(repr(history_of(guard)))
        stream = guarded_stream(guard, llm(deltas), messages=MESSAGES)
        assert next(stream).validated_output == "Hi. Ok.\n\n"
        stream.close()
        histories.add(repr(history_of(guard)))
        assert asyncio.run(first_outcome(deltas)).validated_output == "Hi. Ok.\n\n"
        histories.add(repr(history_of(aguard)))
    assert len(histories) == 1
    assert history_of(guard)[:2] == ("pass", "Hi. Ok.\n\n")
    assert all(
        log.validation_result.outcome == "pass"
        for log in guard.history.last.iterations.last.outputs.validator_logs
    )
    # A later stream on the same guard reads the whole text from a new start.
    outcomes = streamed(guard, [EARLY_TEXT])
    assert joined(outcomes) == EARLY_TEXT and outcomes[-1].validation_passed is False
    assert guard.history.last.status == "fail"


def _none(value: Any, result: Any) -> None:
    return None


@given(data=st.data())
def test_each_outcome_verdict_depends_on_the_text_released_alone(
    data: st.DataObject,
) -> None:
    """An earlier validator may validate (and fail) text the last one has not
    released yet, as far as the slicing takes it: an outcome's
    ``validation_passed`` counts only the failures in the text released so far
    (it counted them all: ``Hi. `` failed when one delta also held a later
    failing word)."""
    parts = data.draw(st.lists(st.sampled_from(STOP_SENTENCES), min_size=1, max_size=6))
    seps = data.draw(st.lists(st.sampled_from([" ", "\n", "\n\n"]), min_size=len(parts)))
    text = "".join(p + s for p, s in zip(parts, seps, strict=False))
    chunkers = st.sampled_from(["sentence", "word", "line", "paragraph"])
    on_fails = st.sampled_from(["noop", "fix", "filter", _none])
    validators = [
        Ban(word, on_fail=data.draw(on_fails), chunker=data.draw(chunkers))
        for word in ("bad", "Worse", "stop")
    ]
    guard, aguard = reusable_guard(False), reusable_guard(True)
    guard.use(*validators)
    aguard.use(*validators)
    one_by_one = list(streamed_lazily(guard, list(text)))
    reference = verdicts_by_release(one_by_one)
    for deltas in (data.draw(slicings(text)), data.draw(slicings(text))):
        outcomes = list(streamed_lazily(guard, deltas))
        assert joined(outcomes) == joined(one_by_one)
        assert outcomes[-1].validation_passed == one_by_one[-1].validation_passed
        verdicts = verdicts_by_release(outcomes)
        assert {k: v for k, v in verdicts.items() if k in reference} == {
            k: reference[k] for k in verdicts if k in reference
        }

        async def streamed_async(deltas: list[str] = deltas) -> list[Any]:
            stream = await aguard(async_llm(deltas), messages=MESSAGES, stream=True)
            return [outcome async for outcome in stream]

        assert verdicts_by_release(asyncio.run(streamed_async())) == verdicts


OUTCOMES_BEFORE_A_FAILURE = [
    # Given the text in one delta, the first validator failed "A bad one." before
    # the last one released "Hi. ": that outcome said False (True in 1-character deltas).
    (
        lambda: [
            Ban("bad", on_fail="noop", chunker="sentence"),
            Ban("Worse", on_fail="noop", chunker="line"),
            Ban("stop", on_fail="noop", chunker="sentence"),
        ],
        "Hi. Hi.\nA bad one. Hi. ",
        9,
        [("Hi. ", True), ("Hi.\nA bad one. Hi. ", False)],
    ),
    # Failing text that a later validator drops (None, filter) after "Hi. ": the
    # last one had validated past it, released nothing of it, and the outcome failed.
    (
        lambda: [
            Ban("bad", on_fail="noop", chunker="word"),
            Ban("one", on_fail=_none, chunker="sentence"),
        ],
        "Hi. A bad one. Bye.",
        12,
        [("Hi. ", True), ("Bye.", False)],
    ),
    (
        lambda: [
            Ban("bad", on_fail="noop", chunker="sentence"),
            Ban("one", on_fail="filter", chunker="line"),
        ],
        "Hi.\nA bad one.\nBye.",
        12,
        [("Hi.\n", True), ("Bye.", False)],
    ),
    # A failure that releases nothing (a custom on_fail's None) right after "Hi. ".
    (
        lambda: [Ban("bad", on_fail=_none, chunker="word")],
        "Hi. bad Bye.",
        9,
        [("Hi. ", True), ("Bye.", False)],
    ),
]


@pytest.mark.parametrize("asynchronous", [False, True])
@pytest.mark.parametrize(("make", "text", "cut", "expected"), OUTCOMES_BEFORE_A_FAILURE)
def test_an_outcome_before_a_failure_passes(
    make: Any, text: str, cut: int, expected: list[tuple[str, bool]], asynchronous: bool
) -> None:
    guard = guard_with(*make(), asynchronous=asynchronous)

    def verdicts(deltas: list[str]) -> list[tuple[str, bool]]:
        if not asynchronous:
            outcomes = list(streamed_lazily(guard, deltas))
        else:

            async def collect() -> list[Any]:
                stream = await guard(async_llm(deltas), messages=MESSAGES, stream=True)
                return [outcome async for outcome in stream]

            outcomes = asyncio.run(collect())
        return [(o.validated_output, o.validation_passed) for o in outcomes if o.validated_output]

    assert verdicts([text]) == verdicts([text[:cut], text[cut:]]) == expected


STOPS_BEHIND_EARLIER_FAILURES = [
    # An earlier noop failure after the repeated sentence that stops the stream.
    (
        lambda: [
            BannedPhrases(["secret sauce"], on_fail="noop"),
            NoRepetition(on_fail="exception"),
        ],
        "Hi. Hi. The secret sauce. Bye.",
    ),
    # An earlier filtered line after the e-mail address that stops the stream.
    (
        lambda: [
            chunkwise.MaxChunkLength(max_words=5, on_fail="filter", chunker="line"),
            RedactPII(on_fail="exception"),
        ],
        "Hi.\nMail ann@example.org now.\nOk.\nthis line has far too many words in it\n",
    ),
    # Two stops: the second validator's comes first in the text.
    (
        lambda: [
            chunkwise.MaxChunkLength(max_words=8, on_fail="exception"),
            RedactPII(on_fail="exception", chunker="paragraph"),
        ],
        "Hi there.\n\nMail ann@example.org now. This one has a lot of words in it for sure.\n",
    ),
]


@pytest.mark.parametrize(("make", "text"), STOPS_BEHIND_EARLIER_FAILURES)
def test_failures_past_the_stop_are_not_reported(make: Any, text: str) -> None:
    guard = guard_with(*make())
    outcomes = {}
    for size in (len(text), 7, 3, 1):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        outcomes[size] = (after_a_stop(streamed_lazily(guard, deltas)), history_of(guard))
    (_, passed, raised), (status, _, logs) = outcomes[len(text)]
    assert raised and passed is True and status == "error"
    assert [log[1] for log in logs] == ["PassResult", "FailResult"]
    assert all(outcome == outcomes[len(text)] for outcome in outcomes.values())


@pytest.mark.parametrize("chunker", ["sentence", "word"])
def test_filtered_chunks_after_a_long_blank_run_cost_linear_work(
    chunker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each filtered chunk compared the widest run around the dropped chunks so
    far, measured again each time: a long run then many filtered chunks read
    the run once per chunk."""
    from guardrails_ai.chunkwise.adapters import pipeline

    reads = Reads()
    reads.patch(monkeypatch, pipeline, "_line_breaks")
    guard = guard_with(Ban("Bad", on_fail="filter", chunker=chunker))

    def work(n: int) -> int:
        text = "Bad. " + " " * (n // 2) + "Bad. " * (n // 10) + "Good."
        reads.count = 0
        released = joined(streamed(guard, [text[i : i + 64] for i in range(0, len(text), 64)]))
        assert released == "Good."
        return reads.count

    small, large = work(4_000), work(16_000)
    assert large <= 4.6 * small, (small, large)
