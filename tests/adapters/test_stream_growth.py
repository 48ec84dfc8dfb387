"""Validated streams cost the same per delta and hold bounded memory, however long.

Counted, never timed: for each validated path (``guarded_stream`` and the
opt-in's ``guard(stream=True)`` / AsyncGuard, with no validator, where every
delta is released as its own outcome, and with validators) a stream of ``4n``
deltas makes at most 4 times the Python calls of a stream of ``n`` (plus a
small slack), and the peak of memory allocated while streaming (tracemalloc)
grows by a small multiple of the added text only.  The consumer keeps no
outcome, so what is measured is the path's own memory: the LLM text, what
each validator released (both kept for ``guard.history``) and the chunkers'
hold-back.  ``guard.history`` keeps one call with one iteration and one
``ValidatorLogs`` per validator, whatever the number of deltas.
"""

from __future__ import annotations

import asyncio
import sys
import tracemalloc
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from helpers.cost import python_calls
from helpers.guardrails import MESSAGES, PlainBan, guard_with

from guardrails_ai.chunkwise import (
    BannedPhrases,
    RedactPII,
    disable_validated_streaming,
    enable_validated_streaming,
)
from guardrails_ai.chunkwise.adapters import guarded_stream

SENTENCE = "Mail ann@example.org about free money. Then we talk. "
#: No failure in it: what the history keeps per failure (one ``ErrorSpan`` and
#: message each, as at once) is not part of the bound on memory.
CLEAN = "Mail the team about the money. Then we talk. "
DELTA = 4

#: path -> (asynchronous guard, guarded_stream rather than the opt-in)
PATHS = {
    "guarded_stream": (False, True),
    "enabled guard": (False, False),
    "enabled AsyncGuard": (True, False),
}


@pytest.fixture(autouse=True)
def enabled() -> Iterator[None]:
    enable_validated_streaming()
    yield
    disable_validated_streaming()


def _validators(kind: str) -> list[Any]:
    if kind == "none":
        return []
    if kind == "own chunking":
        return [PlainBan(on_fail="fix")]  # (a hub validator on Guardrails' splitter)
    return [RedactPII(on_fail="fix"), BannedPhrases(["free money"], on_fail="fix")]


def _sync_llm(text: str) -> Callable[..., Iterator[str]]:
    """An LLM callable slicing ``text`` into deltas as it goes (no list of deltas
    held, so the memory measured is the path's, not the input's)."""

    def fake_llm(*, messages: Any = None, **kwargs: Any) -> Iterator[str]:
        for i in range(0, len(text), DELTA):
            yield text[i : i + DELTA]

    return fake_llm


class _Response:
    def __init__(self, text: str) -> None:
        self.completion_stream = self._stream(text)

    @staticmethod
    async def _stream(text: str) -> AsyncIterator[str]:
        for i in range(0, len(text), DELTA):
            yield text[i : i + DELTA]


def _async_llm(text: str) -> Callable[..., Any]:
    async def fake_llm(*, messages: Any = None, **kwargs: Any) -> _Response:
        return _Response(text)

    return fake_llm


def _streamer(
    path: str, kind: str, sentence: str = SENTENCE, tail: str = ""
) -> tuple[Any, Callable[[int], int]]:
    """The guard and a function streaming ``n`` times ``sentence`` and then
    ``tail`` through it in 4-character deltas; it returns how many characters
    were released (keeping no outcome)."""
    asynchronous, guarded = PATHS[path]
    guard = guard_with(*_validators(kind), asynchronous=asynchronous)

    def stream(n: int) -> int:
        text = sentence * n + tail
        if asynchronous:

            async def drive() -> int:
                outcomes = await guard(_async_llm(text), messages=MESSAGES, stream=True)
                return sum([len(o.validated_output or "") async for o in outcomes])

            return asyncio.run(drive())
        if guarded:
            outcomes = guarded_stream(guard, _sync_llm(text), messages=MESSAGES)
        else:
            outcomes = guard(_sync_llm(text), messages=MESSAGES, stream=True)
        return sum(len(o.validated_output or "") for o in outcomes)

    return guard, stream


def _peak(function: Callable[[], object]) -> int:
    """The peak of memory allocated while ``function`` runs (tracemalloc, bytes)."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("kind", ["none", "validators"])
@pytest.mark.parametrize("path", list(PATHS))
def test_calls_per_delta_do_not_grow_with_the_response(path: str, kind: str) -> None:
    # With no validator every delta is its own outcome, through Guardrails'
    # per-outcome tracing in Guard.__call__: nothing there may grow per outcome.
    guard, stream = _streamer(path, kind)
    n = 40
    stream(2)  # warm-up: first-call imports and caches
    small, large = python_calls(lambda: stream(n)), python_calls(lambda: stream(4 * n))
    assert large <= 4 * small + 2000, (small, large)
    assert len(guard.history.last.iterations) == 1
    logs = guard.history.last.iterations.last.outputs.validator_logs
    assert len(logs) == len(_validators(kind))


@pytest.mark.parametrize("kind", ["none", "validators"])
@pytest.mark.parametrize("path", list(PATHS))
def test_memory_grows_by_a_small_multiple_of_the_text(path: str, kind: str) -> None:
    guard, stream = _streamer(path, kind, CLEAN)
    n = 400  # 21 KB, then 85 KB: large enough to dwarf per-call constants
    stream(2)
    released = 0

    def measured(count: int) -> Callable[[], None]:
        def run() -> None:
            nonlocal released
            released = stream(count)

        return run

    small, large = _peak(measured(n)), _peak(measured(4 * n))
    assert released == 4 * n * len(CLEAN)
    # the text itself is allocated inside the measured call: counted in the peak too
    added = sys.getsizeof(CLEAN * 4 * n) - sys.getsizeof(CLEAN * n)
    assert large - small <= 6 * added, (small, large, added)
    assert len(guard.history.last.iterations) == 1


@pytest.mark.parametrize("body", ["一段没有句号的回答\uff0c", "x\n  \t     "])
@pytest.mark.parametrize("path", list(PATHS))
def test_guardrails_splitter_reads_a_response_without_ends_once(
    path: str, body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A validator left on Guardrails' splitter: a response with no ".", "!" or
    # "?" (code, a list, Chinese) was shown to the splitter whole at every
    # delta, so its cost grew with its square; now the splitter is asked only
    # once such a character has arrived, about windows that grow geometrically.
    from guardrails import validator_base

    splitter = validator_base.split_sentence_word_tokenizers_jl_separator
    shown: list[int] = []

    def counting(text: str) -> list[str]:
        shown.append(len(text))
        return splitter(text)

    monkeypatch.setattr(validator_base, "split_sentence_word_tokenizers_jl_separator", counting)
    # (Each body is 10 characters: whitespace runs end many 4-character deltas.)
    _, stream = _streamer(path, "own chunking", body, tail="Done. Bye.")

    def shown_per_character(n: int) -> float:
        shown.clear()
        stream(n)
        return sum(shown) / (n * 10 + 10)

    # (Before: 185 characters shown per character at 1 KB, 1,084 at 4 KB.)
    small, large = shown_per_character(100), shown_per_character(400)
    assert 0 < small <= 4 and 0 < large <= 4, (small, large)
