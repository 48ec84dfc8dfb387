"""Validated chat completions: a guard's outcomes turned into OpenAI responses.

:func:`stream_events` (streamed) and :func:`complete` (not streamed) call the
upstream LLM through LiteLLM's async client, run the text through the guard
with chunkwise's pipeline (:func:`~guardrails_ai.chunkwise.adapters.async_guarded_stream`:
nothing released before every output validator passed or fixed it, the
trailing fragment included) and answer with each outcome's
``validated_output``.  The non-streamed response runs the same pipeline over
the whole text as one delta, so both agree (chunking does not depend on the
slicing): the same text, ``validation_passed`` and validation summaries.

Everything runs on the event loop without blocking it (LiteLLM's async
client; validators through ``async_validate``), so one worker serves many
streams at once; the upstream's deltas are read ahead and what arrived while
the worker was busy goes to the guard as one delta (:func:`coalesced`).  A
failure under on_fail ``exception`` ends a stream with one OpenAI-shaped error
event and ``[DONE]`` (HTTP 400 with that error when not streamed), before any
failing text; errors are logged in one line, without a traceback and without
user text.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from typing import Any

import litellm
import openai
from guardrails import AsyncGuard
from guardrails.classes.validation.validation_summary import ValidationSummary
from guardrails.errors import ValidationError
from guardrails.types import OnFailAction
from guardrails.validator_base import Validator
from guardrails_ai.types import FailResult

from guardrails_ai.chunkwise.adapters import async_guarded_stream
from guardrails_ai.chunkwise.adapters.pipeline import CHUNK_START, ON_TRIM, Trimmed

from .events import (
    DONE,
    Upstream,
    chunk_event,
    completion_body,
    error_body,
    guardrails_field,
    sse,
    usage_event,
)

__all__ = ["Verdicts", "complete", "output_validators", "stream_events", "watch"]

log = logging.getLogger("guardrails_ai.chunkwise.server")

#: The methods through which chunkwise's async pipeline asks a validator for a verdict.
_WATCHED = ("validate_chunk", "async_validate")
#: The response being produced in this task (each request runs in its own context).
_CURRENT: ContextVar[Verdicts | None] = ContextVar("chunkwise_server_verdicts", default=None)


#: What a failure message shows in place of the text its validator was given.
WITHHELD = "<withheld>"
#: Shorter pieces of that text (an error span's) stay in a message: replacing
#: every "a" or "to" would garble it, and they identify nothing.
_SHORTEST_WITHHELD = 3
#: A run of a message this long or longer that the withheld text holds, in
#: any case and with Python's escapes (``{value!r}``), is withheld too: a
#: message may quote a part of the text (its first 40 characters) or its repr.
_QUOTED_RUN = 12


class Verdicts:
    """The failures reported while producing one response, in order, until taken.

    :func:`watch` makes a guard's output validators report here: each
    request's task sets its own ``Verdicts`` (a context variable), so
    concurrent requests through the same validator instances never mix.

    A validator's message may quote the text it failed (many hub validators
    do: "The following sentence is toxic: ..."), text that ``filter``,
    ``refrain``, ``fix`` or ``exception`` kept from the client.  Unless
    ``raw`` (the config lets raw LLM text through), each failure's
    ``failureReason`` and error span reasons show :data:`WITHHELD` in place of
    that text and of each error span's text (of three characters or more), and
    of any stretch made of runs of :data:`_QUOTED_RUN` characters of that text
    in any case or escaped (a ``repr`` of it, its first 40 characters); so
    does the message of the exception the last failure raised (:meth:`scrub`).
    """

    def __init__(self, *, raw: bool = False) -> None:
        self._failures: list[dict[str, Any]] = []
        #: The failures of validators whose on_fail is ``exception``: each ends
        #: the response with an error, which reports it (kept from the chunk
        #: events the pipeline may still release before raising).
        self._raising: list[dict[str, Any]] = []
        #: ``id(summary)`` -> the failing validator's id and where its chunk
        #: starts in that validator's input, for each summary not taken yet.
        self._places: dict[int, tuple[int, int]] = {}
        self._last: object = None
        self._raw = raw
        #: The text of the last failure noted, and of its error spans (what an
        #: exception's message may quote: it is that failure's message).
        self._withheld: list[str] = []
        #: Every run of _QUOTED_RUN characters of that text, case-folded.
        self._runs: frozenset[str] = frozenset()
        _CURRENT.set(self)
        ON_TRIM.set(self.forget_past)

    def note(
        self,
        validator: str,
        result: object,
        value: object = None,
        at: int = 0,
        *,
        raises: bool = False,
        path: str = "$",
        owner: object = None,
    ) -> None:
        """Record ``result``, a verdict on ``value``, if it is a failure not noted
        yet (nested calls report once).  ``value`` starts at offset ``at`` of the
        text the validator validates (a chunk of it): the summary's error spans
        are offsets in that text.  ``raises``: the validator's on_fail is
        ``exception`` (the failure is held for the error: :meth:`take`);
        ``path``: what it validates (``"$.answer"``: a field); ``owner``: the
        validator (:meth:`forget_past`).
        O(its message and spans), whatever was noted before."""
        if isinstance(result, FailResult) and result is not self._last:
            self._last = result
            spans = result.error_spans or []
            if isinstance(value, str) and not self._raw:
                pieces = [value.strip()] + [value[span.start : span.end] for span in spans]
                self._withheld = sorted(
                    {p for p in pieces if len(p) >= _SHORTEST_WITHHELD}, key=len, reverse=True
                )
                self._runs = _runs_of(value)
                spans = [
                    span.model_copy(update={"reason": self.scrub(span.reason)}) for span in spans
                ]
            if at:
                spans = [
                    span.model_copy(update={"start": span.start + at, "end": span.end + at})
                    for span in spans
                ]
            summary = ValidationSummary(
                validatorName=validator,
                validatorStatus="fail",
                propertyPath=path,
                failureReason=self.scrub(result.error_message),
                errorSpans=spans,
            )
            dumped = summary.model_dump()
            (self._raising if raises else self._failures).append(dumped)
            self._places[id(dumped)] = (id(owner), at)

    def forget_past(self, ends: dict[int, Trimmed]) -> None:
        """After a refrain or exception stop: forget the failures not taken
        yet that the pipeline forgot (``ends``: ``id(validator)`` -> where in
        its input its failures stop counting, :data:`ON_TRIM`), failures past
        the one that stopped it, found or not depending on the slicing."""

        def kept(summary: dict[str, Any]) -> bool:
            owner, at = self._places.get(id(summary), (0, 0))
            if owner not in ends or at < ends[owner].end:
                return True
            del self._places[id(summary)]
            return False

        self._failures = [s for s in self._failures if kept(s)]
        self._raising = [s for s in self._raising if kept(s)]

    def scrub(self, message: str) -> str:
        """``message`` with the text of the last failure noted (the longest
        piece first) replaced by :data:`WITHHELD`."""
        if not isinstance(message, str):
            return message
        for piece in self._withheld:
            message = message.replace(piece, WITHHELD)
        return _without_runs(message, self._runs)

    def take(self, *, last: bool = False) -> list[dict[str, Any]]:
        """The summaries noted since the last call (``ValidationSummary.model_dump()``),
        but for those of on_fail ``exception`` validators, which only the ``last``
        call of a response (its error, or its end) takes: the pipeline may release
        text that passed after such a failure and before raising it."""
        taken, self._failures = self._failures, []
        if last:
            taken, self._raising = taken + self._raising, []
        for summary in taken:
            self._places.pop(id(summary), None)
        return taken


def _runs_of(text: str) -> frozenset[str]:
    """The case-folded runs of :data:`_QUOTED_RUN` characters of ``text`` and
    of its escaped form (``repr``): O(len(text)) runs."""
    n = _QUOTED_RUN
    forms = {text.casefold(), repr(text)[1:-1].casefold()}
    return frozenset(form[i : i + n] for form in forms for i in range(len(form) - n + 1))


def _without_runs(message: str, runs: frozenset[str]) -> str:
    """``message`` with each stretch covered by runs of ``runs`` replaced by
    :data:`WITHHELD`: O(len(message))."""
    if not runs or len(message) < _QUOTED_RUN:
        return message
    folded = message.casefold()
    if len(folded) != len(message):  # (a fold that changes lengths: compare as is)
        folded = message
    covered = [False] * len(message)
    for i in range(len(message) - _QUOTED_RUN + 1):
        if folded[i : i + _QUOTED_RUN] in runs:
            covered[i : i + _QUOTED_RUN] = [True] * _QUOTED_RUN
    if not any(covered):
        return message
    out: list[str] = []
    for i, char in enumerate(message):
        if not covered[i]:
            out.append(char)
        elif i == 0 or not covered[i - 1]:
            out.append(WITHHELD)
    return "".join(out)


def output_validators(guard: AsyncGuard[Any]) -> list[Validator]:
    """Every validator of ``guard``'s output: on the whole output (``"$"``) and,
    for a structured output (``Guard.for_pydantic``), on each of its fields
    (``"$.answer"``), which ``guard.get_validators("output")`` leaves out."""
    return [validator for _, validator in _output_paths(guard)]


def _output_paths(guard: AsyncGuard[Any]) -> list[tuple[str, Validator]]:
    """:func:`output_validators` with the path each validates (``"$"``, ``"$.answer"``)."""
    paths = guard._validator_map.items()
    return [(path, v) for path, found in paths if path.startswith("$") for v in found]


def watch(guard: AsyncGuard[Any]) -> None:
    """Make ``guard``'s output validators report their verdicts to the current response.

    Wraps ``validate_chunk`` (chunkwise's validators) and ``async_validate``
    (any validator) on each instance; called once per guard a worker builds.
    """
    for path, validator in _output_paths(guard):
        for name in _WATCHED:
            method = getattr(validator, name, None)
            if callable(method) and not getattr(method, "_chunkwise_watched", False):
                setattr(validator, name, _watched(validator, path, method))


def _watched(owner: Validator, path: str, method: Callable[..., Any]) -> Callable[..., Any]:
    validator = owner.rail_alias

    def report(result: object, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        verdicts = _CURRENT.get()
        if verdicts is not None:
            value = args[0] if args else kwargs.get("value")
            raises = getattr(owner, "on_fail_descriptor", None) == OnFailAction.EXCEPTION
            at = CHUNK_START.get()
            verdicts.note(validator, result, value, at, raises=raises, path=path, owner=owner)

    if inspect.iscoroutinefunction(method):

        async def watched_async(*args: Any, **kwargs: Any) -> Any:
            result = await method(*args, **kwargs)
            report(result, args, kwargs)
            return result

        watched_async._chunkwise_watched = True  # type: ignore[attr-defined]
        return watched_async

    def watched(*args: Any, **kwargs: Any) -> Any:
        result = method(*args, **kwargs)
        report(result, args, kwargs)
        return result

    watched._chunkwise_watched = True  # type: ignore[attr-defined]
    return watched


class _Deltas:
    """What Guardrails' AsyncGuard wants from a custom streaming LLM."""

    def __init__(self, stream: AsyncIterator[str]) -> None:
        self.completion_stream = stream


def _text_of(message: Any) -> str:
    """The text of a message or delta: its content, then its function call's
    arguments, then every tool call's arguments in order (a stream sends them
    in that order, so a whole message gives what its deltas give, joined)."""
    if message is None:
        return ""
    parts = [str(getattr(message, "content", None) or "")]
    call = getattr(message, "function_call", None)
    if call is not None and call.arguments:
        parts.append(str(call.arguments))
    tools = getattr(message, "tool_calls", None) or ()
    parts += (str(tool.function.arguments or "") for tool in tools if tool.function)
    return "".join(parts)


def _note_upstream(upstream: Upstream, response: Any) -> None:
    upstream.id = str(getattr(response, "id", None) or upstream.id)
    upstream.created = int(getattr(response, "created", None) or upstream.created)
    upstream.model = str(getattr(response, "model", None) or upstream.model)


async def _texts(response: Any, upstream: Upstream) -> AsyncIterator[str]:
    """The text of each chunk of LiteLLM's stream; notes id, model and finish_reason.

    For OpenAI-compatible providers LiteLLM's stream wraps the ``openai`` SDK's
    own stream of ``ChatCompletionChunk`` objects: that is read directly (LiteLLM
    rebuilds each chunk, at a cost that dominates a served stream: see
    ``benchmarks/served_streams.py``; its callbacks are not run).  Any
    other provider's chunks go through LiteLLM's wrapper.
    """
    raw = getattr(response, "completion_stream", None)
    source = raw if isinstance(raw, openai.AsyncStream) else response
    try:
        async for chunk in source:
            _note_upstream(upstream, chunk)
            usage = getattr(chunk, "usage", None)
            if usage:  # (the last chunk, asked for by stream_options)
                dump = getattr(usage, "model_dump", None)
                upstream.usage = dump(exclude_none=True) if dump else dict(usage)
            # The first choice only (with n > 1 a chunk carries one choice
            # of any index): the text the guard validates and serves.
            choice = next((c for c in chunk.choices or () if not getattr(c, "index", 0)), None)
            if choice is None:
                continue
            if choice.finish_reason:
                upstream.finish_reason = str(choice.finish_reason)
            text = _text_of(choice.delta)
            if text:
                yield text
    finally:
        if isinstance(raw, openai.AsyncStream):
            await raw.close()


async def coalesced(texts: AsyncIterator[str]) -> AsyncIterator[str]:
    """``texts`` read ahead by a task; each item joins every text that has arrived.

    Never waits for more than the next text: an idle server hands each delta
    on at once, a busy one hands on what piled up while it was busy, in one
    delta (the guard's output does not depend on the slicing).  An error of
    ``texts`` is raised here, after the texts before it.
    """
    queue: asyncio.Queue[tuple[str | None, BaseException | None]] = asyncio.Queue()

    async def pump() -> None:
        try:
            async for text in texts:
                queue.put_nowait((text, None))
            queue.put_nowait((None, None))
        except Exception as exc:
            queue.put_nowait((None, exc))

    task = asyncio.ensure_future(pump())
    try:
        ended = False
        while not ended:
            items = [await queue.get()]
            while not queue.empty():
                items.append(queue.get_nowait())
            joined = "".join(text for text, _ in items if text)
            if joined:
                yield joined
            for text, error in items:
                if error is not None:
                    raise error
                ended = ended or text is None
    finally:
        task.cancel()


def streaming_llm(upstream: Upstream) -> Callable[..., Any]:
    """An async LLM callable streaming from LiteLLM (deltas :func:`coalesced`)."""

    async def llm(*args: Any, messages: Any = None, **kwargs: Any) -> _Deltas:
        kwargs.pop("stream", None)
        response = await litellm.acompletion(*args, messages=messages, stream=True, **kwargs)

        async def deltas() -> AsyncIterator[str]:
            async for text in coalesced(_texts(response, upstream)):
                yield text
            upstream.done = True

        return _Deltas(deltas())

    return llm


def whole_llm(upstream: Upstream) -> Callable[..., Any]:
    """An async LLM callable asking LiteLLM for a whole response, handed on as one delta."""

    async def llm(*args: Any, messages: Any = None, **kwargs: Any) -> _Deltas:
        kwargs.pop("stream", None)
        response = await litellm.acompletion(*args, messages=messages, **kwargs)
        _note_upstream(upstream, response)
        upstream.completion = response.model_dump(exclude_none=True)
        text = _text_of(response.choices[0].message) if response.choices else ""

        async def once() -> AsyncIterator[str]:
            if text:
                yield text
            upstream.done = True

        return _Deltas(once())

    return llm


def _content(validated: object) -> str:
    """The ``content`` an OpenAI client gets for a validated output: the text, or
    for a guard of a structured output (``Guard.for_pydantic``) its JSON."""
    if validated is None:
        return ""
    if isinstance(validated, str):
        return validated
    return json.dumps(validated)


def _validation_error(exc: ValidationError, verdicts: Verdicts) -> dict[str, Any]:
    """The error for an on_fail ``exception`` failure, with the failures' summaries
    (its message scrubbed of the failing text: see :class:`Verdicts`)."""
    message = verdicts.scrub(str(exc))
    body = error_body(message, "guardrails_validation_error", "validation_failed")
    body["guardrails"] = {"validation_summaries": verdicts.take(last=True)}
    return body


def _failure(exc: Exception) -> dict[str, Any]:
    """An error body naming what failed (:func:`_what_failed`), never its text."""
    message = f"the guarded completion failed: {_what_failed(exc)}"
    return error_body(message, "server_error", "guard_failed")


def _what_failed(exc: Exception) -> str:
    """The type of the error (and its HTTP status, if it has one), never its text.

    Guardrails wraps an error of the LLM call in its ``PromptCallableException``
    (raised while handling it): the error named is the first in that chain
    that carries an HTTP status (LiteLLM's and the ``openai`` SDK's do), else
    ``exc`` itself."""
    failed: BaseException = exc
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(getattr(cause, "status_code", None), int):
            failed = cause
            break
        cause = cause.__cause__ or cause.__context__
    status = getattr(failed, "status_code", None)
    where = f" (upstream status {status})" if status else ""
    return f"{type(failed).__name__}{where}"


async def stream_events(
    guard: AsyncGuard[Any], payload: dict[str, Any], *, name: str, raw: bool
) -> AsyncIterator[str]:
    """The server-sent events of a streamed completion, ``[DONE]`` last.

    One ``chat.completion.chunk`` per outcome the guard yields (its
    ``validated_output`` in ``delta.content``), the last one with the
    upstream's ``finish_reason``, then, if the client asked for it
    (``stream_options.include_usage``), a chunk with the upstream's ``usage``
    and no choice; or, when validation raises, one error event.
    """
    options = payload.get("stream_options") or {}
    upstream = Upstream(include_usage=bool(options.get("include_usage")))
    verdicts = Verdicts(raw=raw)
    finished = False
    passed: bool | None = None
    try:
        outcomes = async_guarded_stream(guard, streaming_llm(upstream), num_reasks=0, **payload)
        async for outcome in outcomes:
            passed = bool(outcome.validation_passed)
            finish = (upstream.finish_reason or "stop") if upstream.done else None
            finished = finish is not None
            shown = guardrails_field(outcome.model_dump(), verdicts.take(last=finished), raw=raw)
            yield sse(chunk_event(upstream, _content(outcome.validated_output), shown, finish))
        if not finished:  # refrained, or no final outcome
            # (No outcome at all: a structured output that never parsed.)
            passed = False if passed is None else passed
            shown = {"validation_passed": passed, "validation_summaries": verdicts.take(last=True)}
            yield sse(chunk_event(upstream, "", shown, upstream.finish_reason or "stop"))
        if (usage := usage_event(upstream)) is not None:
            yield sse(usage)
    except ValidationError as exc:
        log.warning("guard %r: validation failed (on_fail exception); stream ended", name)
        yield sse(_validation_error(exc, verdicts))
    except Exception as exc:
        log.error("guard %r: streamed completion failed: %s", name, _what_failed(exc))
        yield sse(_failure(exc))
    yield DONE


async def complete(
    guard: AsyncGuard[Any], payload: dict[str, Any], *, name: str, raw: bool
) -> tuple[int, dict[str, Any]]:
    """The HTTP status and body of a non-streamed completion (same pipeline)."""
    upstream = Upstream()
    verdicts = Verdicts(raw=raw)
    try:
        outcomes = async_guarded_stream(guard, whole_llm(upstream), num_reasks=0, **payload)
        collected = [outcome async for outcome in outcomes]
    except ValidationError as exc:
        log.warning("guard %r: validation failed (on_fail exception)", name)
        return 400, _validation_error(exc, verdicts)
    except Exception as exc:
        log.error("guard %r: completion failed: %s", name, _what_failed(exc))
        return 502, _failure(exc)
    text = "".join(_content(outcome.validated_output) for outcome in collected)
    # (No outcome: a structured output that never parsed, as Guardrails fails it.)
    whole: dict[str, Any] = (
        collected[-1].model_dump() if collected else {"validation_passed": False}
    )
    structured = [
        o.validated_output for o in collected if isinstance(o.validated_output, (dict, list))
    ]
    if len(collected) == 1 and structured:  # (a dict or list, as Guardrails gives it)
        whole["validated_output"] = structured[0]
    else:
        whole["validated_output"] = text
    whole["raw_llm_output"] = "".join(outcome.raw_llm_output or "" for outcome in collected)
    summaries = verdicts.take(last=True)
    return 200, completion_body(upstream, text, guardrails_field(whole, summaries, raw=raw))
