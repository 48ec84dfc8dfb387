"""Shared helpers for tests that drive a real ``Guard`` / ``AsyncGuard``.

Nothing here mocks Guardrails: the LLM callables are what a user would write
(a sync callable yielding string deltas, an async one returning an object
whose ``completion_stream`` is an async generator), and the validators are
real ``Validator`` subclasses registered under ``chunkwise-test/...``.

* :func:`llm` / :func:`async_llm`: custom LLM callables over fixed deltas;
  :func:`openai_chunks` turns deltas into OpenAI-style chunk objects.
* :func:`guard_with` / :func:`cached_guard`: a Guard with validators on the output.
* :func:`stream`, :func:`run` / :func:`arun`: stream through ``guarded_stream``
  (or the plain ``guard(..., stream=True)``) and collect the outcomes;
  :func:`joined` joins their ``validated_output``.
* :func:`slicings`: a hypothesis strategy cutting a text into random deltas.
* Validators: :class:`Record` (a ``ChunkedValidator`` that passes and records
  every chunk), :class:`Ban` (``Record`` that fails chunks containing a word,
  fix = the word masked), :class:`PlainBan` (the same rule as a plain
  Guardrails ``Validator`` using Guardrails' own chunking) and
  :class:`History` (per-stream state: each stream's chunks in order).

Every validator records in ``seen`` what it was asked to validate, so tests
can assert that each chunk was validated exactly once.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from guardrails import AsyncGuard, Guard
from guardrails.errors import ValidationError
from guardrails.validator_base import Validator, register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult
from hypothesis import strategies as st

import guardrails_ai.chunkwise as chunkwise
from guardrails_ai.chunkwise.adapters import (
    ChunkedValidator,
    async_guarded_stream,
    guarded_stream,
    with_chunker,
)

__all__ = [
    "MESSAGES",
    "WHITESPACE_RUNS",
    "Ban",
    "EndlessResponse",
    "History",
    "PlainBan",
    "Record",
    "arun",
    "async_llm",
    "cached_guard",
    "endless_deltas",
    "guard_with",
    "joined",
    "llm",
    "openai_chunks",
    "run",
    "slicings",
    "stream",
    "two_part_slicings",
]

#: The messages every test passes to the guard.
MESSAGES = [{"role": "user", "content": "x"}]


# -- LLM callables -----------------------------------------------------------------


def llm(deltas: Iterable[Any]) -> Callable[..., Iterator[Any]]:
    """A sync custom LLM callable that yields ``deltas`` (a fresh copy per call)."""
    items = list(deltas)

    def fake_llm(*, messages: Any = None, **kwargs: Any) -> Iterator[Any]:
        for item in items:
            time.sleep(0)  # let other threads run between deltas
            yield item

    return fake_llm


class _AsyncResponse:
    """What an async custom LLM callable returns under ``stream=True``."""

    def __init__(self, items: list[Any]) -> None:
        self.completion_stream = self._stream(items)

    @staticmethod
    async def _stream(items: list[Any]) -> AsyncIterator[Any]:
        for item in items:
            await asyncio.sleep(0)  # let other tasks run between deltas
            yield item


def endless_deltas() -> Iterator[str]:
    """Deltas of an answer that would go on for long: an address, then 10,000 sentences."""
    yield "Mail jo@example.com now. "
    for i in range(10_000):
        yield f"Sentence {i}. "


class EndlessResponse:
    """What an async LLM callable returns for :func:`endless_deltas`:
    ``name`` is added to ``closed`` when its stream is closed."""

    def __init__(self, closed: list[str], name: str = "closed") -> None:
        self.completion_stream = self._stream(closed, name)

    @staticmethod
    async def _stream(closed: list[str], name: str) -> AsyncIterator[str]:
        try:
            for delta in endless_deltas():
                yield delta
        finally:
            closed.append(name)


def async_llm(deltas: Iterable[Any]) -> Callable[..., Any]:
    """An async custom LLM callable; its response's ``completion_stream`` yields ``deltas``."""
    items = list(deltas)

    async def fake_llm(*, messages: Any = None, **kwargs: Any) -> _AsyncResponse:
        return _AsyncResponse(items)

    return fake_llm


def openai_chunks(deltas: Iterable[str], finish_reason: str = "stop") -> list[Any]:
    """OpenAI-style chunk objects: text in ``choices[0].delta.content``, then a
    final chunk with empty content and ``finish_reason`` set."""

    def chunk(content: str | None, reason: str | None) -> Any:
        delta = SimpleNamespace(content=content, role="assistant")
        choice = SimpleNamespace(index=0, delta=delta, finish_reason=reason)
        return SimpleNamespace(choices=[choice], usage=None, object="chat.completion.chunk")

    return [chunk(d, None) for d in deltas] + [chunk(None, finish_reason)]


# -- running a guard ---------------------------------------------------------------


def guard_with(*validators: Validator, asynchronous: bool = False) -> Any:
    """A fresh ``Guard`` (or ``AsyncGuard``) with ``validators`` on the output."""
    guard: Any = AsyncGuard() if asynchronous else Guard()
    return guard.use(*validators)


@functools.cache
def cached_guard(kind: type, chunker: Any, on_fail: str) -> tuple[Any, Any]:
    """One shared ``(guard, validator)`` per ``kind(chunker=..., on_fail=...)``.

    ``Guard()`` costs ~0.3 s (it builds an HTTP client), so property tests
    reuse these; clear ``validator.seen`` before each example.
    """
    validator = kind(chunker=chunker, on_fail=on_fail)
    return guard_with(validator), validator


def stream(guard: Any, deltas: Sequence[Any], *, guarded: bool = True) -> Iterator[Any]:
    """Stream ``deltas`` through ``guard``: an iterator of ``ValidationOutcome``.

    ``guarded=True`` uses ``guarded_stream``; ``False`` the plain
    ``guard(..., stream=True)``.
    """
    if guarded:
        return guarded_stream(guard, llm(deltas), messages=MESSAGES)
    return iter(guard(llm(deltas), messages=MESSAGES, stream=True))


def run(guard: Any, deltas: Sequence[Any], *, guarded: bool = True) -> list[Any]:
    """Every ``ValidationOutcome`` of :func:`stream`."""
    return list(stream(guard, deltas, guarded=guarded))


async def arun(guard: Any, deltas: Sequence[Any], *, guarded: bool = True) -> list[Any]:
    """:func:`run` for an ``AsyncGuard``."""
    if guarded:
        stream = async_guarded_stream(guard, async_llm(deltas), messages=MESSAGES)
    else:
        stream = await guard(async_llm(deltas), messages=MESSAGES, stream=True)
    return [outcome async for outcome in stream]


def joined(outcomes: Iterable[Any]) -> str:
    """The ``validated_output`` of ``outcomes`` joined (``None`` counts as empty)."""
    return "".join(o.validated_output or "" for o in outcomes)


def rebuilt_opt_in_outputs(guard: Any, deltas: Sequence[Any]) -> tuple[str, str]:
    """The text ``guard(llm, stream=True)`` releases under the opt-in, from a
    ``Guard`` and an ``AsyncGuard`` each rebuilt from ``guard``'s
    ``to_dict()`` (through JSON)."""
    import json

    data = json.loads(json.dumps(guard.to_dict()))
    chunkwise.enable_validated_streaming()
    try:
        plain = joined(run(Guard.from_dict(data), deltas, guarded=False))
        awaited = joined(asyncio.run(arun(AsyncGuard.from_dict(data), deltas, guarded=False)))
    finally:
        chunkwise.disable_validated_streaming()
    return plain, awaited


def verdicts_by_release(outcomes: Sequence[Any]) -> dict[int, bool]:
    """Each outcome but the last: released length so far -> its ``validation_passed``."""
    verdicts, released = {}, 0
    for outcome in outcomes[:-1]:
        released += len(outcome.validated_output or "")
        verdicts[released] = outcome.validation_passed
    return verdicts


def validated_and_streamed(guard: Any, text: str, deltas: list[str]) -> Any:
    """``guard.validate(text)``, after checking that ``guarded_stream`` of
    ``deltas`` releases exactly its output and the plain ``guard(...,
    stream=True)`` a prefix of it (it may lose the trailing fragment)."""
    once = guard.validate(text)
    assert joined(run(guard, deltas)) == once.validated_output
    assert once.validated_output.startswith(joined(run(guard, deltas, guarded=False)))
    return once


def released_before(guard: Any, deltas: list[str], *, guarded: bool = True) -> str:
    """The text released before the stream raised ``ValidationError``."""
    outcomes = []
    with pytest.raises(ValidationError):
        for outcome in stream(guard, deltas, guarded=guarded):
            outcomes.append(outcome)
    return joined(outcomes)


@st.composite
def slicings(draw: st.DrawFn, text: str, max_deltas: int = 12) -> list[str]:
    """``text`` cut at random offsets into at most ``max_deltas`` non-empty deltas."""
    if not text:
        return []
    cuts = draw(
        st.lists(st.integers(1, len(text) - 1), max_size=max_deltas - 1, unique=True)
        if len(text) > 1
        else st.just([])
    )
    bounds = [0, *sorted(cuts), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


# -- validators --------------------------------------------------------------------


@register_validator(name="chunkwise-test/record", data_type="string")
class Record(ChunkedValidator):
    """Passes every chunk and appends it to ``seen`` (shared by all streams)."""

    def __init__(self, *, chunker: Any = None, on_fail: Any = None, **kwargs: Any) -> None:
        super().__init__(chunker=chunker, on_fail=on_fail, **kwargs)
        self.seen: list[str] = []

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        self.seen.append(value)
        return self.check(value)

    def check(self, value: str) -> ValidationResult:
        return PassResult()


def _ban(value: str, word: str) -> ValidationResult:
    if word not in value:
        return PassResult()
    start = value.index(word)
    return FailResult(
        error_message=f"{word!r} is banned",
        fix_value=value.replace(word, "*" * len(word)),
        error_spans=[ErrorSpan(start=start, end=start + len(word), reason="banned")],
    )


@register_validator(name="chunkwise-test/ban", data_type="string")
class Ban(Record):
    """Fails a chunk that contains ``word``; the fix masks it with ``*``."""

    def __init__(
        self, word: str = "bad", *, chunker: Any = None, on_fail: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(word=word, chunker=chunker, on_fail=on_fail, **kwargs)
        self.word = word

    def check(self, value: str) -> ValidationResult:
        return _ban(value, self.word)


@register_validator(name="chunkwise-test/plain-ban", data_type="string")
class PlainBan(Validator):
    """:class:`Ban` as a plain Guardrails validator (Guardrails' default chunking).

    Records every value ``validate`` is given in ``seen``.
    """

    def __init__(self, word: str = "bad", on_fail: Any = None, **kwargs: Any) -> None:
        super().__init__(word=word, on_fail=on_fail, **kwargs)
        self.word = word
        self.seen: list[str] = []

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        self.seen.append(value)
        return _ban(value, self.word)


@register_validator(name="chunkwise-test/history", data_type="string")
class History(Record):
    """Per-stream state: a list of the stream's chunks so far.

    Every state ever created is kept in ``states``, so a test can check that
    each holds the chunks of exactly one stream, in order.
    """

    def __init__(self, *, chunker: Any = None, on_fail: Any = None, **kwargs: Any) -> None:
        super().__init__(chunker=chunker, on_fail=on_fail, **kwargs)
        self.states: list[list[str]] = []
        self._lock = threading.Lock()

    def new_stream_state(self) -> list[str]:
        state: list[str] = []
        with self._lock:
            self.states.append(state)
        return state

    def check(self, value: str) -> ValidationResult:
        self.stream_state.append(value)
        return PassResult()


# -- whitespace runs -----------------------------------------------------------------


def two_part_slicings(text: str) -> list[list[str]]:
    """``text`` whole, in 1-character deltas, and cut in two at every offset."""
    return [[text], list(text)] + [[text[:k], text[k:]] for k in range(1, len(text))]


#: (validator, text, what is released): a chunker may put a whitespace run's
#: characters in the chunk before or the one after, depending on the slicing.
WHITESPACE_RUNS = [
    # Before a stop: the chunks before the failing one, with the whole run after them.
    (
        lambda: chunkwise.MaxChunkLength(max_words=3, chunker="paragraph", on_fail="refrain"),
        "Short para.\n\n\nThis paragraph has far too many words.",
        "Short para.\n\n\n",
    ),
    (
        lambda: chunkwise.NoRepetition(chunker="word", on_fail="exception"),
        "Hi there.\r\nthere. ok",
        "Hi there.\r\n",
    ),
    # A filtered chunk leaves the stronger of the whole runs around it: no
    # half of a "\r\n", no doubled blank line.
    (
        lambda: with_chunker(Ban("TWO", on_fail="filter"), "word"),
        "one\r\nTWO\r\nthree",
        "one\r\nthree",
    ),
    (lambda: chunkwise.NoRepetition(on_fail="filter"), "Yes.\n\nYes.\n\n\nNo.", "Yes.\n\n\nNo."),
    # A "\r\n" released in two parts (the simple sentence chunker cuts between
    # them when a delta ends there) is one line break: the blank line stays.
    (
        lambda: chunkwise.MaxChunkLength(max_words=4, chunker="sentence-simple", on_fail="filter"),
        "Hello there.\r\nThis one is far too long for the limit. \n\nEnd.",
        "Hello there.\r\n\nEnd.",
    ),
    (
        lambda: chunkwise.NoRepetition(unit="paragraph", on_fail="filter"),
        "Yes.\n\nYes.\n\n\nNo.",
        "Yes.\n\n\nNo.",
    ),
]
