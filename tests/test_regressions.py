"""The eight streaming defects of guardrails-ai 0.11 listed in issue 3.

Each is checked against ``guarded_stream`` (and ``async_guarded_stream`` for
the ``AsyncGuard`` one), where every defect is closed; against the plain
``guard(..., stream=True)`` path with a ``ChunkedValidator``, where a
validator-side fix exists; and, on the plain path with a validator that uses
Guardrails' own chunking, as a pin of the defect itself (``xfail(strict=True)``
or an assertion of today's behaviour), so that a Guardrails upgrade that
changes it is noticed.
"""

from __future__ import annotations

import asyncio

import pytest
from guardrails.validator_base import split_sentence_word_tokenizers_jl_separator
from helpers.guardrails import (
    Ban,
    PlainBan,
    Record,
    arun,
    guard_with,
    joined,
    released_before,
    run,
    stream,
)

TEXT = "Hello there. How are you? I am fine! Thanks for asking. Bye"
SENTENCES = ["Hello there.", "How are you?", "I am fine!", "Thanks for asking.", "Bye"]
DELTAS3 = [TEXT[i : i + 3] for i in range(0, len(TEXT), 3)]

#: Why a defect cannot be fixed by a validator on the plain path.
RUNNER = "guardrails-ai 0.11 runner defect, not fixable validator-side"


# -- 1. the default chunking drops the whitespace after a boundary ------------------


def test_1_guardrails_default_function_drops_whitespace() -> None:
    # The root cause, pinned: Guardrails' splitter loses the space.
    assert split_sentence_word_tokenizers_jl_separator("One. Two. Three") == ["One.", "Two.Three"]


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_1_guarded_stream_keeps_whitespace_on_fix(validator: type) -> None:
    v = validator("zzz", on_fail="fix")
    assert joined(run(guard_with(v), DELTAS3)) == TEXT
    assert [s.strip() for s in v.seen] == SENTENCES


def test_1_chunked_validator_keeps_whitespace_on_plain_fix_path() -> None:
    v = Ban("zzz", on_fail="fix")
    assert joined(run(guard_with(v), DELTAS3, guarded=False)) == TEXT
    assert v.seen == SENTENCES


def test_1_plain_path_with_default_chunking_drops_whitespace() -> None:
    out = joined(run(guard_with(PlainBan("zzz", on_fail="fix")), DELTAS3, guarded=False))
    assert out == "Hello there. How are you?I am fine! Thanks for asking.Bye"


# -- 2. noop/exception: the fragment is never validated, deltas leak -----------------


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_2_guarded_stream_validates_fragment_on_noop(validator: type) -> None:
    v = validator("Bye", on_fail="noop")
    outcomes = run(guard_with(v), DELTAS3)
    assert joined(outcomes) == TEXT
    assert v.seen[-1] == "Bye"
    assert outcomes[-1].validation_passed is False


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_2_guarded_stream_raises_on_fragment(validator: type) -> None:
    v = validator("Bye", on_fail="exception")
    assert released_before(guard_with(v), DELTAS3) == TEXT[: -len("Bye")]


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_2_guarded_stream_raises_before_releasing_the_failing_sentence(validator: type) -> None:
    v = validator("fine", on_fail="exception")
    assert released_before(guard_with(v), DELTAS3) == "Hello there. How are you? "


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": no remainder on noop")
def test_2_plain_noop_path_never_validates_the_fragment() -> None:
    v = Ban("zzz", on_fail="noop")
    run(guard_with(v), DELTAS3, guarded=False)
    assert v.seen == SENTENCES


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": deltas yielded raw")
def test_2_plain_exception_path_releases_text_before_validating_it() -> None:
    released = released_before(guard_with(Ban("fine", on_fail="exception")), DELTAS3, guarded=False)
    assert "fine" not in released


# -- 3. fix: the trailing fragment is lost after a delta that completes a chunk -----

R3 = ["Hello. World", " is big. Bye"]


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_3_guarded_stream_keeps_the_fragment(validator: type) -> None:
    v = validator("Bye", on_fail="fix")
    assert joined(run(guard_with(v), R3)) == "Hello. World is big. ***"
    assert [s.strip() for s in v.seen] == ["Hello.", "World is big.", "Bye"]


def test_3_chunked_validator_gets_the_fragment_when_the_runner_passes_remainder() -> None:
    # The sync fix runner passes remainder=True at the end when the last
    # delta completed no chunk: the validator then flushes its fragment.
    v = Ban("Bye", on_fail="fix")
    deltas = ["Hello. World", " is big. B", "ye"]
    assert joined(run(guard_with(v), deltas, guarded=False)) == "Hello. World is big. ***"
    assert v.seen == ["Hello.", "World is big.", "Bye"]


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": no remainder call")
def test_3_plain_fix_path_drops_fragment_after_a_completing_delta() -> None:
    # After a delta that completed a chunk the runner never calls the
    # validators again, whatever they are: "Bye" is neither validated nor
    # released (the whitespace, though, is kept by ChunkedValidator).
    v = Ban("zzz", on_fail="fix")
    out = joined(run(guard_with(v), R3, guarded=False))
    assert out.startswith("Hello. World is big. ")
    assert out == "Hello. World is big. Bye"


def test_3_plain_path_with_default_chunking_loses_whitespace_and_fragment() -> None:
    out = joined(run(guard_with(PlainBan("zzz", on_fail="fix")), R3, guarded=False))
    assert out == "Hello.World is big."


# -- 4. a delta carrying several sentences -------------------------------------------

R4 = ["One. Two. Three. Fo", "ur"]


def first_then_rest(guard: object, deltas: list[str], *, guarded: bool) -> tuple[str, str]:
    outcomes = stream(guard, deltas, guarded=guarded)
    return next(outcomes).validated_output, joined(outcomes)


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_4_every_chunk_a_delta_completes_is_validated_in_that_call(guarded: bool) -> None:
    v = Ban("zzz", on_fail="fix")
    outcomes = stream(guard_with(v), R4, guarded=guarded)
    assert next(outcomes).validated_output == "One. Two. Three. "
    assert v.seen == ["One.", "Two.", "Three."]
    assert joined(outcomes) == "Four"


def test_4_guarded_stream_splits_for_a_plain_validator() -> None:
    v = PlainBan("zzz", on_fail="fix")
    first, rest = first_then_rest(guard_with(v), R4, guarded=True)
    assert (first, rest) == ("One. Two. Three. ", "Four")
    assert v.seen == ["One.", "Two.", "Three.", "Four"]


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": one segment per call")
def test_4_plain_path_validates_one_sentence_per_call() -> None:
    v = PlainBan("zzz", on_fail="fix")
    run(guard_with(v), ["One. Two. Three. ", "Four"], guarded=False)
    assert v.seen == ["One.", "Two.", "Three.", "Four"]


# -- 5. the end of the buffer is not a boundary -------------------------------------

R5 = ["Mail john@example.", "com now."]
ADDRESS = "john@example.com"


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_5_address_validated_whole(guarded: bool) -> None:
    v = Ban(ADDRESS, on_fail="fix")
    out = joined(run(guard_with(v), R5, guarded=guarded))
    assert out == "Mail **************** now."
    assert v.seen == ["Mail john@example.com now."]


def test_5_guarded_stream_with_a_plain_validator() -> None:
    v = PlainBan(ADDRESS, on_fail="exception")
    assert released_before(guard_with(v), R5) == ""
    assert v.seen == ["Mail john@example.com now."]


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="Guardrails' default splitter")
def test_5_plain_path_with_default_chunking_splits_the_address() -> None:
    v = PlainBan(ADDRESS, on_fail="fix")
    run(guard_with(v), R5, guarded=False)
    assert v.seen == ["Mail john@example.com now."]


# -- 6. streams through one Guard mix; fragments carry over ----------------------

A = ["Alpha one. Alp", "ha two. Alpha", " three. "]
B = ["Beta one. Be", "ta two. Beta", " three. "]


def interleaved(guard: object, *, guarded: bool) -> tuple[str, str]:
    a, b = stream(guard, A, guarded=guarded), stream(guard, B, guarded=guarded)
    out_a, out_b = [], []
    for x, y in zip(a, b, strict=False):
        out_a.append(x)
        out_b.append(y)
    return joined(out_a + list(a)), joined(out_b + list(b))


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_6_guarded_streams_do_not_mix(validator: type) -> None:
    guard = guard_with(validator("zzz", on_fail="fix"))
    assert interleaved(guard, guarded=True) == ("".join(A), "".join(B))


def test_6_chunked_validator_streams_do_not_mix_on_plain_path() -> None:
    v = Ban("zzz", on_fail="fix")
    assert interleaved(guard_with(v), guarded=False) == ("".join(A), "".join(B))
    assert sorted(v.seen) == sorted(
        ["Alpha one.", "Alpha two.", "Alpha three.", "Beta one.", "Beta two.", "Beta three."]
    )


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": one buffer per validator")
def test_6_plain_path_mixes_streams_with_default_chunking() -> None:
    out_a, _ = interleaved(guard_with(PlainBan("zzz", on_fail="fix")), guarded=False)
    assert "Beta" not in out_a


CARRY = (["First call. Dangling frag"], ["Second call. End. "])


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_6_no_carry_over_between_calls(guarded: bool) -> None:
    v = Ban("zzz", on_fail="noop")
    guard = guard_with(v)
    run(guard, CARRY[0], guarded=guarded)
    del v.seen[:]
    run(guard, CARRY[1], guarded=guarded)
    assert v.seen[0] == "Second call."


def test_6_guarded_stream_no_carry_over_for_a_plain_validator() -> None:
    v = PlainBan("zzz", on_fail="noop")
    guard = guard_with(v)
    run(guard, CARRY[0])
    del v.seen[:]
    run(guard, CARRY[1])
    assert v.seen == ["Second call.", "End."]


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": buffer on the instance")
def test_6_plain_path_carries_a_fragment_into_the_next_call() -> None:
    v = PlainBan("zzz", on_fail="noop")
    guard = guard_with(v)
    run(guard, CARRY[0], guarded=False)
    del v.seen[:]
    run(guard, CARRY[1], guarded=False)
    assert v.seen[0] == "Second call."


# -- 7. filter/refrain without a fix validator --------------------------------------

R7 = ["One bad. Two. Thr", "ee"]


def test_7_guarded_stream_filter_drops_the_failing_sentence() -> None:
    outcomes = run(guard_with(Ban("bad", on_fail="filter")), R7)
    assert joined(outcomes) == "Two. Three"
    assert outcomes[-1].validation_passed  # what remains is valid, as after a fix


def test_7_guarded_stream_refrain_ends_the_output() -> None:
    v = Ban("bad", on_fail="refrain")
    outcomes = run(guard_with(v), R7)
    assert joined(outcomes) == ""
    assert outcomes[-1].validation_passed is False
    assert v.seen == ["One bad."]


@pytest.mark.parametrize("on_fail", ["filter", "refrain"])
@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_7_plain_path_raises_type_error_mid_stream(validator: type, on_fail: str) -> None:
    # A runner defect: the noop runner concatenates the Filter/Refrain marker.
    with pytest.raises(TypeError, match="can only concatenate str"):
        run(guard_with(validator("bad", on_fail=on_fail)), R7, guarded=False)


# -- 8. AsyncGuard drops the fragment and always reports success ---------------------

R8 = ["One bad. Two. Thr", "ee bad"]


@pytest.mark.parametrize("validator", [PlainBan, Ban])
def test_8_async_guarded_stream_validates_fragment_and_reports_failure(validator: type) -> None:
    v = validator("bad", on_fail="noop")
    outcomes = asyncio.run(arun(guard_with(v, asynchronous=True), R8))
    assert joined(outcomes) == "".join(R8)
    assert [s.strip() for s in v.seen] == ["One bad.", "Two.", "Three bad"]
    assert all(o.validation_passed is False for o in outcomes)


def test_8_async_guarded_stream_fixes_the_fragment() -> None:
    v = Ban("bad", on_fail="fix")
    outcomes = asyncio.run(arun(guard_with(v, asynchronous=True), R8))
    assert joined(outcomes) == "One ***. Two. Three ***"


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": no remainder (async)")
def test_8_plain_async_path_drops_the_fragment() -> None:
    v = Record(on_fail="noop")
    outcomes = asyncio.run(arun(guard_with(v, asynchronous=True), R8, guarded=False))
    assert joined(outcomes) == "".join(R8)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=RUNNER + ": passed is constant")
def test_8_plain_async_path_reports_success_after_a_failure() -> None:
    v = Ban("bad", on_fail="noop")
    outcomes = asyncio.run(arun(guard_with(v, asynchronous=True), R8, guarded=False))
    assert v.seen[0] == "One bad."
    assert outcomes[-1].validation_passed is False
