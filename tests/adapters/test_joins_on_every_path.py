"""Cuts that wait and chunks that are joined hold on every path a Guard streams through.

Three chunkings decide what a validator sees only once more text has come:
``GuardrailsChunker`` waits for the word after a sentence end followed by a
bare CR (Guardrails' splitter reads it), ``RedactPII`` joins a chunk ending
with an ideographic or full-width full stop right after a Latin letter, a
digit or a domain to the next one, and ``BannedPhrases`` under a custom
``on_fail`` that drops a chunk watches for a phrase that the drop puts
together.  Their own suites check them through ``guarded_stream``; here the
same texts go through ``async_guarded_stream`` and, with
``enable_validated_streaming()``, through ``guard(llm, stream=True)`` and an
``AsyncGuard`` (and guards rebuilt from ``to_dict()``), whole, in
1-character deltas and cut in two at every offset: the released text is the
same, and no entity and no banned phrase is in it.  (Served, by ``chunkwise
serve``: ``tests/server/test_serve.py``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from guardrails.actions.filter import Filter
from helpers.guardrails import (
    PlainBan,
    arun,
    guard_with,
    joined,
    rebuilt_opt_in_outputs,
    run,
    two_part_slicings,
)

from guardrails_ai.chunkwise import (
    BannedPhrases,
    RedactPII,
    disable_validated_streaming,
    enable_validated_streaming,
)
from guardrails_ai.chunkwise._phrases import PhraseMatcher

#: The paths: sync and async, chunkwise's own call or the opt-in under Guardrails' call.
PATHS = ["guarded_stream", "async_guarded_stream", "guard", "async_guard"]


def released(guards: tuple[Any, Any], path: str, deltas: list[str]) -> str:
    """The text ``path`` releases of ``deltas`` through ``guards`` (sync, async)."""
    guard, async_guard = guards
    if path == "guarded_stream":
        return joined(run(guard, deltas))
    if path == "async_guarded_stream":
        return joined(asyncio.run(arun(async_guard, deltas)))
    enable_validated_streaming()
    try:
        if path == "guard":
            return joined(run(guard, deltas, guarded=False))
        return joined(asyncio.run(arun(async_guard, deltas, guarded=False)))
    finally:
        disable_validated_streaming()


def both(make: Callable[[], list[Any]]) -> tuple[Any, Any]:
    return guard_with(*make()), guard_with(*make(), asynchronous=True)


# -- a hub or custom validator on Guardrails' own chunking: a sentence end and a bare CR ---


@pytest.mark.parametrize(
    ("word", "on_fail", "text", "chunks", "out"),
    [
        # One chunk, whatever the slicing: Guardrails' splitter reads "call" after "\r".
        ("Bad", "fix", "Call now.\rcall me. Bad? ", ["Call now.\rcall me.", "Bad?"], None),
        ("Bad", "fix", "It is 5.\rand so on. Bad? ", ["It is 5.\rand so on.", "Bad?"], None),
        # Filtered whole: none of it is released in any slicing.
        ("call", "filter", "Call now.\rcall me. Bye.", ["Call now.\rcall me.", "Bye."], "Bye."),
        ("call", "fix", "Call now.\rcall me.", ["Call now.\rcall me."], None),
    ],
)
def test_a_sentence_after_a_bare_cr_waits_on_every_path(
    word: str, on_fail: str, text: str, chunks: list[str], out: str | None
) -> None:
    # Before a37e072 the cut after "now." was taken as soon as one letter
    # followed the "\r": in 1-character deltas the validator saw two chunks.
    want = text.replace(word, "*" * len(word)) if out is None else out
    validators = PlainBan(word, on_fail=on_fail), PlainBan(word, on_fail=on_fail)
    guards = guard_with(validators[0]), guard_with(validators[1], asynchronous=True)
    for path in PATHS:
        seen = validators[path.startswith("async")].seen
        for deltas in two_part_slicings(text):
            seen.clear()
            assert released(guards, path, deltas) == want, (path, deltas)
            assert seen == chunks, (path, deltas)
    for deltas in ([text], list(text)):
        assert rebuilt_opt_in_outputs(guards[0], deltas) == (want, want)


# -- RedactPII: an ideographic full stop inside an entity ---------------------------------

#: Two entities the sentence chunker would cut at a CJK full stop, with text around them.
DOTTED = "Hi. Call +44 20\u30027946 0958 now. Bye. Mail jo@mail.example\u3002co\u3002uk today. End."
#: Pieces of them: none may be released.
DOTTED_PIECES = ["7946", "0958", "+44 20", "jo@", "mail.example", "co\u3002uk"]


@pytest.mark.parametrize(
    ("on_fail", "want"),
    [
        ("fix", "Hi. Call <PHONE> now. Bye. Mail <EMAIL> today. End."),
        ("filter", "Hi. Bye. End."),
    ],
)
def test_an_entity_across_a_cjk_full_stop_never_leaks_on_any_path(on_fail: str, want: str) -> None:
    # Before 29c2154 "Call +44 20\u3002" and "7946 0958 now." were two
    # chunks, neither of them an entity: both released as they were.
    guards = both(lambda: [RedactPII(on_fail=on_fail)])
    for path in PATHS:
        for deltas in two_part_slicings(DOTTED):
            out = released(guards, path, deltas)
            assert out == want, (path, deltas)
    for deltas in ([DOTTED], list(DOTTED)):
        assert rebuilt_opt_in_outputs(guards[0], deltas) == (want, want)
    assert not any(piece in want for piece in DOTTED_PIECES)


def test_an_entity_across_a_cjk_full_stop_never_leaks_on_guardrails_fix_runner() -> None:
    # Without the opt-in, a guard with a fix validator streams through
    # Guardrails' own fix runner, which asks RedactPII for each delta: it may
    # lose a trailing fragment (README), but never releases an entity.
    guard = guard_with(RedactPII(on_fail="fix"))
    want = "Hi. Call <PHONE> now. Bye. Mail <EMAIL> today. End."
    for deltas in two_part_slicings(DOTTED):
        out = joined(run(guard, deltas, guarded=False))
        assert want.startswith(out) and not any(p in out for p in DOTTED_PIECES), deltas


# -- BannedPhrases: a custom on_fail that drops a chunk -----------------------------------

PHRASES = ["free money"]
#: The middle paragraph fails; dropping it would put "free" and "money" together.
AROUND = "Say free\n\nBuy free money now.\n\nmoney back."


@pytest.mark.parametrize(
    "handler",
    [lambda value, fail: Filter(), lambda value, fail: None, lambda value, fail: ""],
    ids=["Filter", "None", "empty"],
)
def test_a_custom_on_fail_that_drops_joins_no_phrase_on_any_path(handler: Any) -> None:
    # Before 6730f53 "Say free\n\nmoney back." was released: only
    # on_fail="filter" was watched for phrases joined across a dropped chunk.
    guards = both(lambda: [BannedPhrases(PHRASES, on_fail=handler)])
    outputs = {
        (path, tuple(deltas)): released(guards, path, deltas)
        for path in PATHS
        for deltas in two_part_slicings(AROUND)
    }
    assert len(set(outputs.values())) == 1, set(outputs.values())
    out = next(iter(outputs.values()))
    assert out.split() == ["Say", "free"]
    assert not PhraseMatcher(PHRASES).find(out)


def test_a_custom_on_fail_that_replaces_ends_the_phrase_on_any_path() -> None:
    # Text the handler puts in the chunk's place stands between "free" and
    # "money": the paragraph after it is released.
    guards = both(lambda: [BannedPhrases(PHRASES, on_fail=lambda value, fail: "[cut]")])
    want = "Say free\n\n[cut]\n\nmoney back."
    for path in PATHS:
        for deltas in two_part_slicings(AROUND):
            assert released(guards, path, deltas) == want, (path, deltas)
