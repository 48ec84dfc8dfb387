"""Stream through a Guard with every byte validated exactly once before release.

``guarded_stream(guard, llm_api, **kwargs)`` takes the same arguments and
yields the same ``ValidationOutcome`` items as ``guard(llm_api, stream=True,
**kwargs)``, with these guarantees for every validator on the guard's output
(ours or not):

* no text is released before every validator has validated it;
* every chunk is validated exactly once, the trailing fragment included, in
  every on_fail mode;
* each validator's on_fail holds: ``exception`` raises before the failing text
  is released, ``fix``/``fix_reask`` release the fix, a custom on_fail callable
  releases what it returns, ``filter`` drops the failing segment, ``refrain``
  ends the output, ``noop`` releases the text and reports
  ``validation_passed=False``;
* when every validator passes, the released text equals the LLM's text byte for
  byte; nothing carries over from one call to the next, and concurrent calls
  through one guard never mix.

How: validators run as a pipeline, in the order the guard lists them, each
validating the output of the one before (as Guardrails' sequential validator
service does for a whole value).  Each stage chunks its input with the
validator's chunker: a ``ChunkedValidator``'s own, the strategy behind a
``with_chunker`` override, or else the validator's ``_chunking_function`` made
lossless by :class:`~guardrails_ai.chunkwise.adapters.GuardrailsChunker`.  The
LLM is still called by Guardrails (prompt preparation, input validation,
history, OpenAI-style chunk objects), through a copy of the guard that has no
output validators, so Guardrails' own streaming validation never runs.

Guardrails internals relied on (pinned by ``tests/test_guardrails_internals.py``):
``Guard.get_validators("output")``; ``Guard.model_copy()`` sharing ``history``;
the private ``_validator_map``/``_validators`` and the ``validators`` references
(``on == "$"`` for output); a stream through a guard without output validators
yielding one ``ValidationOutcome`` per delta whose ``raw_llm_output`` is the
delta's text; ``Validator.on_fail_descriptor``/``on_fail_method``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Generator, Iterator
from typing import Any

from guardrails.classes.validation_outcome import ValidationOutcome
from guardrails.errors import ValidationError
from guardrails.types.on_fail import OnFailAction
from guardrails.validator_base import Validator
from guardrails_ai.types import FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.chunkers import ChunkStream, Piece

from .chunked import ChunkedValidator
from .streams import chunker_of

__all__ = ["async_guarded_stream", "guarded_stream"]

_FIXED = (OnFailAction.FIX, OnFailAction.FIX_REASK)


class _Refrained(Exception):
    """A ``refrain`` validator failed: the output ends here."""


class _Stage:
    """One validator of the pipeline: its stream of chunks and its verdicts."""

    def __init__(self, validator: Validator, metadata: dict[str, Any]) -> None:
        self.validator = validator
        self.metadata = metadata
        self.state: Any = None
        if isinstance(validator, ChunkedValidator):
            chunker: Any = validator.chunker
            self.state = validator.new_stream_state()
        else:
            chunker = chunker_of(validator)
        self.stream = ChunkStream(chunker)
        self.chunks_validated = 0
        self.failures = 0
        self.unresolved = 0

    def pieces(self, text: str, final: bool) -> list[Piece]:
        pieces = self.stream.feed(text) if text else []
        return pieces + self.stream.close() if final else pieces

    def validate(self, chunk: str) -> ValidationResult:
        self.chunks_validated += 1
        if isinstance(self.validator, ChunkedValidator):
            return self.validator.validate_chunk(chunk, self.metadata, self.state)
        return self.validator.validate(chunk, self.metadata)

    async def async_validate(self, chunk: str) -> ValidationResult:
        if isinstance(self.validator, ChunkedValidator):
            return self.validate(chunk)
        self.chunks_validated += 1
        return await self.validator.async_validate(chunk, self.metadata)

    def apply(self, piece: Piece, result: ValidationResult) -> str:
        """The text this stage releases for ``piece`` given its verdict."""
        chunk = piece.chunk or ""
        if not isinstance(result, FailResult):
            override = getattr(result, "value_override", PassResult.ValueOverrideSentinel)
            if (
                self.validator.override_value_on_pass
                and override is not PassResult.ValueOverrideSentinel
            ):
                return piece.before + str(override) + piece.after
            return piece.segment
        self.failures += 1
        action = self.validator.on_fail_descriptor
        if action in _FIXED:
            fix = result.fix_value if isinstance(result.fix_value, str) else ""
            return piece.before + fix + piece.after
        if action == OnFailAction.CUSTOM and self.validator.on_fail_method is not None:
            value = self.validator.on_fail_method(chunk, result)
            if not isinstance(value, str):
                raise TypeError(
                    f"the on_fail callable of {self.validator.rail_alias} returned "
                    f"{value!r:.80}; a streamed string needs a str"
                )
            return piece.before + value + piece.after
        self.unresolved += 1
        if action == OnFailAction.NOOP:
            return piece.segment
        if action == OnFailAction.FILTER:
            return ""
        if action == OnFailAction.REFRAIN:
            raise _Refrained
        raise ValidationError(
            "Validation failed for field with errors: " + (result.error_message or "")
        )


Step = Generator[tuple[_Stage, str], ValidationResult, str]


def _advance(stages: list[_Stage], text: str, final: bool) -> Step:
    """Push ``text`` through every stage; yields each chunk to be validated.

    Sans-I/O: the caller sends back each verdict (synchronously or after an
    ``await``), so the sync and async drivers share this one pipeline.
    Returns the text the last stage releases.
    """
    for stage in stages:
        released = []
        for piece in stage.pieces(text, final):
            if piece.chunk is None:
                released.append(piece.segment)
                continue
            result = yield stage, piece.chunk
            released.append(stage.apply(piece, result))
        text = "".join(released)
    return text


def _run(step: Step) -> str:
    try:
        stage, chunk = next(step)
        while True:
            stage, chunk = step.send(stage.validate(chunk))
    except StopIteration as done:
        return str(done.value)


async def _arun(step: Step) -> str:
    try:
        stage, chunk = next(step)
        while True:
            stage, chunk = step.send(await stage.async_validate(chunk))
    except StopIteration as done:
        return str(done.value)


class _Session:
    """What one guarded call needs: the bare guard, the pipeline, the tally."""

    def __init__(self, guard: Any, guard_kwargs: dict[str, Any]) -> None:
        validators = list(guard.get_validators("output"))
        for validator in validators:
            if validator.on_fail_descriptor == OnFailAction.REASK:
                raise ValueError(
                    f"{validator.rail_alias} has on_fail='reask', which streaming cannot "
                    "honour; use fix, fix_reask, filter, refrain, noop or exception"
                )
        if "stream" in guard_kwargs and guard_kwargs["stream"] is not True:
            raise ValueError(f"stream={guard_kwargs['stream']!r}: guarded streams always stream")
        guard_kwargs.pop("stream", None)
        metadata = guard_kwargs.get("metadata") or {}
        self.stages = [_Stage(v, metadata) for v in validators]
        self.bare = _without_output_validators(guard)
        self.raw: list[str] = []
        self.call_id = ""

    @property
    def passed(self) -> bool:
        return not any(stage.unresolved for stage in self.stages)

    def outcome(self, released: str) -> ValidationOutcome[str]:
        raw, self.raw = "".join(self.raw), []
        return ValidationOutcome[str](
            callId=self.call_id,
            rawLlmOutput=raw,
            validatedOutput=released,
            validationPassed=self.passed,
        )


def guarded_stream(
    guard: Any, llm_api: Callable[..., Any] | None = None, *args: Any, **guard_kwargs: Any
) -> Iterator[ValidationOutcome[str]]:
    """Stream ``llm_api`` through ``guard``, releasing only validated text.

    Yields a ``ValidationOutcome`` each time text is released, and one last
    outcome when the stream ends (its ``validated_output`` may be empty).
    ``raw_llm_output`` holds the LLM text received since the previous outcome.
    Deltas must be ``str`` or OpenAI-style chunk objects; anything else raises
    ``TypeError`` before any later text is released.
    """
    session = _Session(guard, guard_kwargs)
    api = _checked_llm(llm_api) if callable(llm_api) else llm_api
    outcomes = session.bare(api, *args, stream=True, **guard_kwargs)
    try:
        for outcome in outcomes:
            session.call_id = outcome.call_id
            session.raw.append(outcome.raw_llm_output or "")
            released = _run(_advance(session.stages, session.raw[-1], False))
            if released:
                yield session.outcome(released)
        yield session.outcome(_run(_advance(session.stages, "", True)))
    except _Refrained:
        yield session.outcome("")
    finally:
        outcomes.close()


async def async_guarded_stream(
    guard: Any, llm_api: Callable[..., Any] | None = None, *args: Any, **guard_kwargs: Any
) -> AsyncIterator[ValidationOutcome[str]]:
    """:func:`guarded_stream` for an ``AsyncGuard`` (an async generator)."""
    session = _Session(guard, guard_kwargs)
    api = _checked_async_llm(llm_api) if callable(llm_api) else llm_api
    outcomes = await session.bare(api, *args, stream=True, **guard_kwargs)
    try:
        async for outcome in outcomes:
            session.call_id = outcome.call_id
            session.raw.append(outcome.raw_llm_output or "")
            released = await _arun(_advance(session.stages, session.raw[-1], False))
            if released:
                yield session.outcome(released)
        yield session.outcome(await _arun(_advance(session.stages, "", True)))
    except _Refrained:
        yield session.outcome("")
    finally:
        await outcomes.aclose()


def _without_output_validators(guard: Any) -> Any:
    """A shallow copy of ``guard`` (same history) with no output validators."""
    bare = guard.model_copy()
    bare.validators = [ref for ref in guard.validators if ref.on != "$"]
    bare._validator_map = {on: vs for on, vs in guard._validator_map.items() if on != "$"}
    bare._validators = [v for vs in bare._validator_map.values() for v in vs]
    return bare


def _check_delta(delta: object, index: int) -> None:
    if isinstance(delta, str) or hasattr(delta, "choices"):
        return
    hint = " (decode bytes first)" if isinstance(delta, (bytes, bytearray)) else ""
    raise TypeError(
        f"delta #{index} from the LLM is {type(delta).__name__}: {delta!r:.80}; expected str "
        f"or an OpenAI-style chunk{hint}"
    )


def _checked_llm(llm_api: Callable[..., Any]) -> Callable[..., Iterator[Any]]:
    def checked_llm(*args: Any, messages: Any = None, **kwargs: Any) -> Iterator[Any]:
        if messages is not None:
            kwargs["messages"] = messages
        for index, delta in enumerate(llm_api(*args, **kwargs)):
            _check_delta(delta, index)
            yield delta

    return checked_llm


class _CheckedResponse:
    def __init__(self, stream: AsyncIterator[Any]) -> None:
        self.completion_stream = self._check(stream)

    @staticmethod
    async def _check(stream: AsyncIterator[Any]) -> AsyncIterator[Any]:
        index = 0
        async for delta in stream:
            _check_delta(delta, index)
            index += 1
            yield delta


def _checked_async_llm(llm_api: Callable[..., Any]) -> Callable[..., Any]:
    async def checked_llm(*args: Any, messages: Any = None, **kwargs: Any) -> Any:
        if messages is not None:
            kwargs["messages"] = messages
        response = await llm_api(*args, **kwargs)
        stream = getattr(response, "completion_stream", None)
        if stream is None:
            raise TypeError(
                "an async LLM callable must return an object whose .completion_stream is an "
                f"async iterator; got {response!r:.80}"
            )
        return _CheckedResponse(stream)

    return checked_llm
