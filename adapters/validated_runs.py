"""Guardrails runs that go through the validation pipeline, linear in the text.

Two kinds of run replace Guardrails' own for string outputs validated at
``"$"`` (installed by :mod:`~guardrails_ai.chunkwise.adapters.validated_streaming`):

* :func:`stream_step` / :func:`async_stream_step` stand in for
  ``StreamRunner.step`` / ``AsyncStreamRunner.async_step``: the same
  preparation (history entry, input validation, the LLM call through
  Guardrails), then every delta goes through the pipeline
  (:mod:`~guardrails_ai.chunkwise.adapters.pipeline`) and a
  ``ValidationOutcome`` is yielded each time text is released, plus one last
  outcome when the stream ends;
* :func:`validate_at_once` / :func:`async_validate_at_once` stand in for
  ``validator_service.validate`` / ``async_validate`` (``guard.validate``,
  ``guard.parse``, non-streamed ``guard(llm)``): the same pipeline over the
  whole value, so a text validated at once and the same text streamed in any
  deltas release the same text.

Cost: O(len(delta)) amortised per delta plus the validations (no per-delta
history object, no string concatenation that copies what came before); memory:
the LLM text, what each validator released (kept for the history) and what
the chunkers hold back.

What ``guard.history`` keeps of a streamed call (as of a call validated at
once): one iteration whose inputs are Guardrails' own (messages, metadata,
``stream=True``), ``raw_output`` and ``parsed_output`` the whole LLM text (also
``llm_response_info.output``), ``validation_response`` and ``guarded_output``
the whole released text, and one ``ValidatorLogs`` per validator (see
:meth:`Stage.log`) instead of one per delta; an exception is recorded in
``outputs.exception``/``error``.  A stream that ended before its end (its
reader stopped reading, an error) is recorded as far as its outcomes released
text, as a stop is: the logs and the verdict say nothing of what the
validators read beyond it (how far depends on the slicing).

Whether the call passed is the pipeline's own verdict, not Guardrails' guess
from those logs: for each iteration the pipeline validated to the end (no
exception, no refrain at once; a streamed refrain counts, as a failure, so that
the call's ``guarded_output`` is what the stream released) it remembers
whether a failure was left in the output or ended it
(:func:`pipeline_passed`), and ``Call.status`` / ``Call.guarded_output`` read
it (patched by :mod:`~guardrails_ai.chunkwise.adapters.validated_streaming`).
Guardrails' heuristics (``Call._has_unresolved_failures`` compares the whole
output with each failed validator's whole input; ``Call.guarded_output``
wants every failed log unchanged) cannot tell from one log per validator that
a ``noop`` failure is still in the output after a later fix, or that a fix
plus a ``noop`` failure released the text; so the at-once outcome would
disagree with the streamed one.
"""

from __future__ import annotations

import weakref
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from guardrails.actions.refrain import Refrain
from guardrails.classes.history import Call, Inputs, Iteration, Outputs
from guardrails.classes.validation_outcome import ValidationOutcome

from .pipeline import (
    Stage,
    Stop,
    TextBuffer,
    advance,
    arun,
    released_passed,
    run,
    stages_for,
    trim_to_release,
    trim_to_stop,
)

__all__ = [
    "async_stream_step",
    "async_validate_at_once",
    "pipeline_passed",
    "stream_step",
    "validate_at_once",
]


_OUTCOME = ValidationOutcome[str]

#: ``id(iteration)`` -> whether the pipeline passed it, for each live iteration the
#: pipeline validated to the end (an entry goes with its iteration).
_VERDICTS: dict[int, bool] = {}


def _passed(stages: list[Stage]) -> bool:
    """No failure left in the output (``noop``) or ending it (``refrain``, ``exception``)."""
    return not any(stage.unresolved for stage in stages)


def _remember(iteration: Iteration, stages: list[Stage]) -> None:
    key = id(iteration)
    if key not in _VERDICTS:
        weakref.finalize(iteration, _VERDICTS.pop, key, None)
    _VERDICTS[key] = _passed(stages)


def pipeline_passed(call: Call) -> bool | None:
    """Whether the pipeline passed ``call``'s last iteration.

    ``None`` when it did not validate that iteration to the end (Guardrails'
    own path, an exception, a refrain at once, or a copy of the history).
    """
    last = call.iterations.last
    return None if last is None else _VERDICTS.get(id(last))


class _Session:
    """One streamed call: its history entry, its pipeline, the LLM text."""

    def __init__(
        self,
        runner: Any,
        index: int,
        call_log: Call,
        api: Any,
        messages: Any,
        prompt_params: dict[str, Any] | None,
        output: str | None,
    ) -> None:
        inputs = Inputs(
            llm_api=api,
            llm_output=output,
            messages=messages,
            prompt_params=prompt_params or {},
            num_reasks=runner.num_reasks,
            metadata=runner.metadata,
            full_schema_reask=runner.full_schema_reask,
            stream=True,
        )
        self.iteration = Iteration(
            callId=call_log.id, index=index, inputs=inputs, outputs=Outputs()
        )
        call_log.iterations.push(self.iteration)
        self.runner = runner
        self.index = index
        self.call_log = call_log
        self.api = api
        self.call_id = call_log.id
        self.stages = stages_for(runner.validation_map.get("$") or [], runner.metadata)
        self.raw = TextBuffer()
        self.unreported: list[str] = []  # LLM text the last outcome did not report
        self.reported = False  # whether an outcome was yielded
        self.given = 0  # how much text the outcomes released
        #: After a stop: how much of the LLM text the validators' logs cover.
        self.validated: int | None = None
        #: Whether the pipeline took in the whole stream (its end included).
        self.ended = False
        self.start = datetime.now()

    @property
    def passed(self) -> bool:
        return _passed(self.stages)

    def messages(self, messages: Any) -> Any:
        """Record the prepared messages (``None`` when the output was given)."""
        if self.iteration.inputs.llm_output is not None:
            messages = None
        self.iteration.inputs.messages = messages
        return messages

    def called(self, response: Any, asynchronous: bool) -> Any:
        """Record the LLM response; its stream, or ``ValueError`` if it has none."""
        self.iteration.outputs.llm_response_info = response
        stream = response.async_stream_output if asynchronous else response.stream_output
        if stream is None:
            kind = "an async generator" if asynchronous else "a generator"
            raise ValueError(
                "No stream was returned from the API. Please check that "
                f"the API is returning {kind}."
            )
        return stream

    def delta(self, delta: Any) -> str:
        """The text of one LLM delta, recorded (``""`` for deltas without text)."""
        text: str = self.runner.get_chunk_text(delta, self.api)
        if text:
            self.raw.append(text)
            self.unreported.append(text)
        return text

    def outcome(self, released: str, last: bool = False) -> ValidationOutcome[str]:
        """The outcome releasing ``released``: whether it passed counts the
        failures in the text released so far (:func:`released_passed`), all of
        them in the ``last`` outcome."""
        raw, self.unreported = "".join(self.unreported), []
        self.reported = True
        self.given += len(released)
        # Built without pydantic validation (every field is already the right
        # type): one of these per release is most of the pipeline's own cost.
        return _OUTCOME.model_construct(
            call_id=self.call_id,
            raw_llm_output=raw,
            validated_output=released,
            validation_passed=self.passed if last else released_passed(self.stages),
        )

    def last(self, released: str) -> ValidationOutcome[str]:
        """The outcome of the end of the stream (the pipeline took all of it)."""
        self.ended = True
        return self.outcome(released, last=True)

    def stopped(self, stop: Stop) -> Iterator[ValidationOutcome[str]]:
        """The last outcome after a refrain/exception; raises the exception's error."""
        self.validated = trim_to_stop(self.stages, stop)
        if stop.error is None:
            yield self.outcome(stop.released, last=True)
            return
        if stop.released or self.reported:
            # The verdict on the text released (the error tells of the failure
            # after it), yielded whenever anything was released, even all of it
            # in earlier outcomes.
            outcome = self.outcome(stop.released, last=True)
            outcome.validation_passed = not any(
                stage.unresolved - (stage is stop.stage) for stage in self.stages
            )
            yield outcome
        raise stop.error from None

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Write the call's outputs into its iteration when the stream ends, however."""
        error: Exception | None = None
        try:
            yield
        except Exception as exc:
            error = exc
            raise
        finally:
            self.record(error)

    def record(self, error: Exception | None) -> None:
        """Write the call's outputs into its iteration (once, at the end).

        A stream that ended before its end (its reader stopped reading, or an
        error) is recorded as far as its outcomes released text
        (:func:`trim_to_release`): what the validators did beyond that, as far
        as the slicing had taken them, is forgotten."""
        if not self.ended and self.validated is None and self.stages:
            self.validated = trim_to_release(self.stages, self.given)
        raw = self.raw.value()
        outputs = self.iteration.outputs
        outputs.raw_output = raw
        outputs.parsed_output = raw
        info = outputs.llm_response_info
        if info is not None and not info.output:
            info.output = raw
        text = self.stages[-1].output if self.stages else raw
        outputs.validation_response = text
        outputs.guarded_output = text
        received = raw if self.validated is None else raw[: self.validated]
        outputs.validator_logs.extend(_logs(self.stages, received, self.start))
        if error is not None:
            outputs.exception = error
            outputs.error = str(error)
        else:
            # (A refrain counts as a failure, and the call's guarded_output is
            # what the stream released before it.)
            _remember(self.iteration, self.stages)


def _logs(stages: list[Stage], raw: str, start: datetime) -> list[Any]:
    """One ``ValidatorLogs`` per stage, each stage's input being the previous one's output."""
    logs = []
    received = raw
    for stage in stages:
        logs.append(stage.log(received, start))
        received = stage.output
    return logs


def stream_step(
    runner: Any,
    index: int,
    api: Any,
    messages: Any,
    prompt_params: dict[str, Any],
    output_schema: dict[str, Any],
    call_log: Call,
    output: str | None = None,
) -> Iterator[ValidationOutcome[str]]:
    """``StreamRunner.step`` for a string output, through the pipeline."""
    session = _Session(runner, index, call_log, api, messages, prompt_params, output)
    with session.recording():
        if output is None:
            messages = runner.prepare(
                call_log, index, messages=messages, prompt_params=prompt_params, api=api
            )
        stream = session.called(runner.call(session.messages(messages), api, output), False)
        try:
            for delta in stream:
                text = session.delta(delta)
                if text and (released := run(advance(session.stages, text, False))):
                    yield session.outcome(released)
            yield session.last(run(advance(session.stages, "", True)))
        except Stop as stop:
            yield from session.stopped(stop)
        finally:
            # Ended early (a refrain, an exception, a caller that stopped
            # reading): the LLM's response is closed now, not when the call
            # leaves the history (an open HTTP response, tokens still billed).
            close = getattr(stream, "close", None)
            if callable(close):
                close()


async def _async_stream(
    session: _Session, messages: Any, prompt_params: dict[str, Any] | None
) -> AsyncIterator[ValidationOutcome[str]]:
    runner, index, call_log = session.runner, session.index, session.call_log
    api, output = session.api, session.iteration.inputs.llm_output
    with session.recording():
        if output is None:
            messages = await runner.async_prepare(
                call_log, index, messages=messages, prompt_params=prompt_params, api=api
            )
        response = await runner.async_call(session.messages(messages), api, output)
        stream = session.called(response, True)
        try:
            async for delta in stream:
                text = session.delta(delta)
                if text and (released := await arun(advance(session.stages, text, False))):
                    yield session.outcome(released)
            yield session.last(await arun(advance(session.stages, "", True)))
        except Stop as stop:
            for outcome in session.stopped(stop):
                yield outcome
        finally:
            aclose = getattr(stream, "aclose", None)
            if callable(aclose):
                await aclose()


async def async_stream_step(
    runner: Any,
    index: int,
    output_schema: dict[str, Any],
    call_log: Call,
    *,
    api: Any,
    messages: Any = None,
    prompt_params: dict[str, Any] | None = None,
    output: str | None = None,
) -> AsyncIterator[ValidationOutcome[str]]:
    """``AsyncStreamRunner.async_step`` for a string output (awaited, it gives the stream)."""
    session = _Session(runner, index, call_log, api, messages, prompt_params, output)
    return _async_stream(session, messages, prompt_params)


def _at_once_result(
    stages: list[Stage], value: str, iteration: Any, start: datetime, text: str | Stop
) -> Any:
    if isinstance(text, Stop):
        value = value[: trim_to_stop(stages, text)]
    iteration.outputs.validator_logs.extend(_logs(stages, value, start))
    if isinstance(text, Stop):
        if text.error is not None:
            raise text.error
        return Refrain()
    _remember(iteration, stages)
    return text


def validate_at_once(
    value: str, metadata: dict[str, Any], validators: list[Any], iteration: Any
) -> tuple[Any, dict[str, Any]]:
    """``validator_service.validate`` of a string at ``"$"``, through the pipeline.

    Returns ``(released text, metadata)``; a refrain returns Guardrails'
    ``Refrain()`` (the output becomes ``""``); an exception validator raises
    ``ValidationError`` as Guardrails does.  One ``ValidatorLogs`` per
    validator goes into ``iteration``.
    """
    start = datetime.now()
    stages = stages_for(validators, metadata)
    result: str | Stop
    try:
        result = run(advance(stages, value, True))
    except Stop as stop:
        result = stop
    return _at_once_result(stages, value, iteration, start, result), metadata


async def async_validate_at_once(
    value: str, metadata: dict[str, Any], validators: list[Any], iteration: Any
) -> tuple[Any, dict[str, Any]]:
    """:func:`validate_at_once` awaiting each validator's ``async_validate``."""
    start = datetime.now()
    stages = stages_for(validators, metadata)
    result: str | Stop
    try:
        result = await arun(advance(stages, value, True))
    except Stop as stop:
        result = stop
    return _at_once_result(stages, value, iteration, start, result), metadata
