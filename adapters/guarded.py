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
  releases what it returns, ``filter`` drops the failing chunk (keeping the
  line breaks that structure the text around it), ``refrain`` ends the output,
  ``noop`` releases the text; ``validation_passed`` is false once a failure
  is left in the output or ends it (noop, refrain, exception);
* when every validator passes, the released text equals the LLM's text byte for
  byte; nothing carries over from one call to the next, and concurrent calls
  through one guard never mix.

How: the call goes through Guardrails as ``guard(llm_api, stream=True, ...)``
would (prompt preparation, input validation, the LLM call, ``guard.history``),
on a view of the guard whose output validation is chunkwise's pipeline
(:mod:`~guardrails_ai.chunkwise.adapters.pipeline`: validators in guard order,
each on the text the one before released, each chunking with its own
chunker) instead of Guardrails' runner; see
:mod:`~guardrails_ai.chunkwise.adapters.validated_runs` for what the history
keeps.  It costs O(len(delta)) per delta plus the validations, whatever the
length of the response.  With ``enable_validated_streaming()`` the plain
``guard(llm_api, stream=True)`` behaves the same way.

What is released before a ``refrain``/``exception`` failure depends on the
text alone, never on the slicing: every chunk before the failing one, through
the later validators.

Guardrails internals relied on (pinned by ``tests/adapters/test_guardrails_internals.py``):
``Guard.model_copy()`` sharing ``history``; the private ``_validator_map``
passed as the runner's ``validation_map``; the patch points listed in
:mod:`~guardrails_ai.chunkwise.adapters.validated_streaming`.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from types import SimpleNamespace
from typing import Any

from guardrails import AsyncGuard
from guardrails.classes.validation_outcome import ValidationOutcome

from .pipeline import check_streamable
from .validated_streaming import pipeline_stream

__all__ = ["async_guarded_stream", "guarded_stream"]


def _check_call(
    guard: Any, llm_api: object, guard_kwargs: dict[str, Any], *, asynchronous: bool
) -> None:
    if not callable(getattr(guard, "get_validators", None)):
        raise TypeError(
            f"guard must be a guardrails Guard or AsyncGuard, got {type(guard).__name__}"
        )
    if isinstance(guard, AsyncGuard) != asynchronous:
        wanted, other = (
            ("an AsyncGuard", "guarded_stream")
            if asynchronous
            else ("a Guard", "async_guarded_stream")
        )
        raise TypeError(
            f"guard must be {wanted} here, got {type(guard).__name__}; stream it with {other}"
        )
    if llm_api is None and not guard_kwargs.get("model"):
        raise ValueError(
            "llm_api=None: pass an LLM callable that yields the response's deltas, or "
            "model='...' (a LiteLLM model name) for Guardrails to call"
        )
    if llm_api is not None and not callable(llm_api):
        raise TypeError(
            f"llm_api must be callable (or None with model=...), got {type(llm_api).__name__}"
        )
    check_streamable(guard.get_validators("output"))
    if "stream" in guard_kwargs and guard_kwargs["stream"] is not True:
        raise ValueError(f"stream={guard_kwargs['stream']!r}: guarded streams always stream")
    guard_kwargs.pop("stream", None)


def guarded_stream(
    guard: Any, llm_api: Callable[..., Any] | None = None, *args: Any, **guard_kwargs: Any
) -> Iterator[ValidationOutcome[str]]:
    """Stream ``llm_api`` through ``guard``, releasing only validated text.

    Yields a ``ValidationOutcome`` each time text is released, and one last
    outcome when the stream ends (its ``validated_output`` may be empty).
    ``raw_llm_output`` holds the LLM text received since the previous outcome.
    Bad arguments raise ``TypeError``/``ValueError`` at this call, before any
    iteration. Deltas must be ``str`` or OpenAI-style chunk objects; anything
    else raises ``TypeError`` before any later text is released.
    """
    _check_call(guard, llm_api, guard_kwargs, asynchronous=False)
    api = _checked_llm(llm_api) if callable(llm_api) else llm_api
    return _released(guard, api, args, guard_kwargs)


def _released(
    guard: Any, api: Any, args: tuple[Any, ...], guard_kwargs: dict[str, Any]
) -> Iterator[ValidationOutcome[str]]:
    with pipeline_stream(guard) as view:
        outcomes = view(api, *args, stream=True, **guard_kwargs)
        try:
            yield from outcomes
        finally:
            outcomes.close()


def async_guarded_stream(
    guard: Any, llm_api: Callable[..., Any] | None = None, *args: Any, **guard_kwargs: Any
) -> AsyncIterator[ValidationOutcome[str]]:
    """:func:`guarded_stream` for an ``AsyncGuard``: an async iterator (bad
    arguments raise at this call)."""
    _check_call(guard, llm_api, guard_kwargs, asynchronous=True)
    opened: list[_CheckedResponse] = []
    api = _checked_async_llm(llm_api, opened) if callable(llm_api) else llm_api
    return _async_released(guard, api, args, guard_kwargs, opened)


async def _async_released(
    guard: Any,
    api: Any,
    args: tuple[Any, ...],
    guard_kwargs: dict[str, Any],
    opened: list[_CheckedResponse],
) -> AsyncIterator[ValidationOutcome[str]]:
    with pipeline_stream(guard) as view:
        outcomes = await view(api, *args, stream=True, **guard_kwargs)
        try:
            async for outcome in outcomes:
                yield outcome
        finally:
            await outcomes.aclose()
            # Guardrails' wrappers do not pass aclose() on to the stream they
            # wrap (an async generator left suspended is closed only when the
            # event loop finalises it): close the LLM's response now.
            for response in opened:
                await response.aclose()


def _checked_delta(delta: object, index: int) -> object:
    """``delta`` as Guardrails takes it: a ``str``, an OpenAI-style chunk object,
    or a chunk given as a dict (``{"choices": [{"delta": {"content": ...}}]}``,
    as ``chunk.model_dump()`` gives it, or as the API sends it, a delta
    without text having no ``content``) turned into attribute form.  Anything
    else raises ``TypeError`` naming its index and type (never its content)."""
    if isinstance(delta, str) or hasattr(delta, "choices"):
        return delta
    if isinstance(delta, dict) and "choices" in delta:
        chunk = _attributes(delta)
        # A delta without text has no "content" key in the API's JSON (``{}``
        # ends every stream; ``model_dump(exclude_none=True)`` drops it too):
        # no text, as the SDK reads it, not a chunk Guardrails refuses.
        choices = getattr(chunk, "choices", None)
        for choice in choices if isinstance(choices, list) else ():
            inner = getattr(choice, "delta", None)
            if isinstance(inner, SimpleNamespace) and not hasattr(inner, "content"):
                inner.content = None
        return chunk
    hint = " (decode bytes first)" if isinstance(delta, (bytes, bytearray)) else ""
    raise TypeError(
        f"delta #{index} from the LLM is {type(delta).__name__}; expected str or an "
        f"OpenAI-style chunk (an object or a dict with 'choices'){hint}"
    )


def _attributes(value: object) -> object:
    """Dicts (nested in lists too) as objects whose attributes are their keys."""
    if isinstance(value, dict):
        return SimpleNamespace(**{str(k): _attributes(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_attributes(item) for item in value]
    return value


def _checked_llm(llm_api: Callable[..., Any]) -> Callable[..., Iterator[Any]]:
    def checked_llm(*args: Any, messages: Any = None, **kwargs: Any) -> Iterator[Any]:
        if messages is not None:
            kwargs["messages"] = messages
        for index, delta in enumerate(llm_api(*args, **kwargs)):
            yield _checked_delta(delta, index)

    return checked_llm


class _CheckedResponse:
    def __init__(self, stream: AsyncIterator[Any]) -> None:
        self.completion_stream = self._check(stream)

    async def aclose(self) -> None:
        """Close the LLM's stream (through the check, which closes it when it ends)."""
        await self.completion_stream.aclose()

    @staticmethod
    async def _check(stream: AsyncIterator[Any]) -> AsyncGenerator[Any, None]:
        index = 0
        try:
            async for delta in stream:
                yield _checked_delta(delta, index)
                index += 1
        finally:
            # (``async for`` leaves the iterator it stops reading suspended.)
            aclose = getattr(stream, "aclose", None)
            if callable(aclose):
                await aclose()


def _checked_async_llm(
    llm_api: Callable[..., Any], opened: list[_CheckedResponse]
) -> Callable[..., Any]:
    async def checked_llm(*args: Any, messages: Any = None, **kwargs: Any) -> Any:
        if messages is not None:
            kwargs["messages"] = messages
        response = await llm_api(*args, **kwargs)
        stream = getattr(response, "completion_stream", None)
        if stream is None:
            raise TypeError(
                "an async LLM callable must return an object whose .completion_stream is an "
                f"async iterator; got {type(response).__name__}"
            )
        response = _CheckedResponse(stream)
        opened.append(response)
        return response

    return checked_llm
