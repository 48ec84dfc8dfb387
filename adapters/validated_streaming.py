"""One opt-in that makes every Guard validate-then-release: ``enable_validated_streaming()``.

After :func:`enable_validated_streaming`, every string output a Guard or
AsyncGuard validates at ``"$"`` goes through chunkwise's pipeline
(:mod:`~guardrails_ai.chunkwise.adapters.pipeline`), whatever its validators
(chunkwise's, hub validators, custom ones):

* ``guard(llm, stream=True, ...)`` and ``await async_guard(llm, stream=True,
  ...)`` get :func:`~guardrails_ai.chunkwise.adapters.guarded_stream`'s
  guarantees: nothing is released before every validator passed or fixed it,
  every chunk is validated exactly once (the trailing fragment included), each
  on_fail is honoured, the output equals the input when everything passes,
  concurrent streams never mix, and the cost is linear in the response (for
  a validator left on Guardrails' splitter, see ``GuardrailsChunker``: it
  rereads the pending text while it holds a ``.``, ``!`` or ``?`` that ends
  no sentence);
* ``guard.validate``, ``guard.parse``, non-streamed ``guard(llm)`` and their
  AsyncGuard forms run the same pipeline over the whole text (whichever
  validator service ``GUARDRAILS_RUN_SYNC`` selects), so streamed and at-once
  results agree for every slicing and every validator order.

Validators with ``on_fail="reask"`` keep Guardrails' own at-once path (a
pipeline cannot re-ask); streaming them raises ``ValueError`` as Guardrails
does.  So do ``on_fail="fix_reask"`` ones at once (Guardrails validates the
fix again and re-asks the LLM when it still fails); a stream cannot re-ask, so
streamed, they release the fix.  Outputs that are not strings (``for_pydantic``
guards) are untouched.

:func:`disable_validated_streaming` restores Guardrails' behaviour exactly
(the original functions are put back); both calls are idempotent and
thread-safe, and safe to call at import time of a server's config, before any
guard or app exists.  ``guarded_stream`` uses the same machinery for its own
calls only, whether or not the opt-in is enabled.

Patched (class and module attributes; pinned by
``tests/adapters/test_guardrails_internals.py``): ``StreamRunner.step``,
``AsyncStreamRunner.async_step``, ``guardrails.validator_service.validate``
and ``guardrails.validator_service.async_validate``, and the ``Call.status``
and ``Call.guarded_output`` properties, which report the pipeline's own
verdict for a call it validated (see
:func:`~guardrails_ai.chunkwise.adapters.validated_runs.pipeline_passed`):
``validation_passed`` is false exactly when a failure was left in the output,
and ``validated_output`` is the released text, at once as streamed.  Each
patch hands every call it does not take over to the original unchanged.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "disable_validated_streaming",
    "enable_validated_streaming",
    "pipeline_stream",
    "validated_streaming_enabled",
]

_LOCK = threading.Lock()
#: Whether the opt-in is on.
_enabled = False
#: How many users need the patches installed (the opt-in counts as one).
_users = 0
#: ``id(validator_map)`` -> map, for guards streamed by ``guarded_stream``.
_forced: dict[int, Any] = {}
#: (owner, attribute name, original value) of each installed patch.
_originals: list[tuple[Any, str, Any]] = []


def enable_validated_streaming() -> None:
    """Make every Guard and AsyncGuard validate string outputs with chunkwise's pipeline.

    Idempotent and thread-safe; undone by :func:`disable_validated_streaming`.
    """
    global _enabled
    with _LOCK:
        if not _enabled:
            _acquire()
            _enabled = True


def disable_validated_streaming() -> None:
    """Undo :func:`enable_validated_streaming` (idempotent, thread-safe).

    Guardrails' own functions are restored as soon as no ``guarded_stream``
    call is still running.
    """
    global _enabled
    with _LOCK:
        if _enabled:
            _enabled = False
            _release()


def validated_streaming_enabled() -> bool:
    """Whether :func:`enable_validated_streaming` is in effect."""
    return _enabled


@contextmanager
def pipeline_stream(guard: Any) -> Iterator[Any]:
    """A view of ``guard`` whose streams go through the pipeline, opt-in or not.

    The view is a shallow copy (same validators, same ``history``) with its own
    validator map, by which the patched runner recognises it; the patches stay
    installed while the view is in use.
    """
    view = guard.model_copy()
    view._validator_map = dict(guard._validator_map)
    key = id(view._validator_map)
    with _LOCK:
        _acquire()
        _forced[key] = view._validator_map
    try:
        yield view
    finally:
        with _LOCK:
            _forced.pop(key, None)
            _release()


# -- installing and removing the patches ------------------------------------------------


def _acquire() -> None:
    global _users
    _users += 1
    if _users == 1:
        _install()


def _release() -> None:
    global _users
    _users -= 1
    if _users == 0:
        for owner, name, original in reversed(_originals):
            setattr(owner, name, original)
        _originals.clear()


def _argument(args: tuple[Any, ...], kwargs: dict[str, Any], position: int, name: str) -> Any:
    """An optional argument passed by position (after the four required ones) or by name."""
    return args[position] if len(args) > position else kwargs.get(name)


def _install() -> None:
    from guardrails import validator_service
    from guardrails.classes.history import Call
    from guardrails.classes.output_type import OutputTypes
    from guardrails.constants import fail_status, pass_status
    from guardrails.run.async_stream_runner import AsyncStreamRunner
    from guardrails.run.stream_runner import StreamRunner
    from guardrails.types.on_fail import OnFailAction

    from .validated_runs import (
        async_stream_step,
        async_validate_at_once,
        pipeline_passed,
        stream_step,
        validate_at_once,
    )

    # (Validators that make an at-once call re-ask the LLM.)
    reasks = (OnFailAction.REASK, OnFailAction.FIX_REASK)

    step = vars(StreamRunner)["step"]
    async_step = vars(AsyncStreamRunner)["async_step"]
    validate = validator_service.validate
    async_validate = validator_service.async_validate
    status = vars(Call)["status"]
    guarded_output = vars(Call)["guarded_output"]

    def takes_stream(runner: Any) -> bool:
        return runner.output_type == OutputTypes.STRING and (
            _enabled or id(runner.validation_map) in _forced
        )

    def at_once(value: Any, validator_map: Any, path: Any, stream: Any) -> list[Any] | None:
        """The validators to run as a pipeline, or ``None`` for Guardrails' own path."""
        if not _enabled or stream or not isinstance(value, str) or path not in (None, "$"):
            return None
        validators = list(validator_map.get("$") or [])
        if not validators or any(v.on_fail_descriptor in reasks for v in validators):
            return None
        return validators

    def patched_step(self: Any, *args: Any, **kwargs: Any) -> Any:
        if takes_stream(self):
            return stream_step(self, *args, **kwargs)
        return step(self, *args, **kwargs)

    async def patched_async_step(self: Any, *args: Any, **kwargs: Any) -> Any:
        if takes_stream(self):
            return await async_stream_step(self, *args, **kwargs)
        return await async_step(self, *args, **kwargs)

    def patched_validate(
        value: Any,
        metadata: dict[str, Any],
        validator_map: Any,
        iteration: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        # (..., disable_tracer=True, path=None, **kwargs): stream only as a keyword
        path = _argument(args, kwargs, 1, "path")
        validators = at_once(value, validator_map, path, kwargs.get("stream"))
        if validators is None:
            return validate(value, metadata, validator_map, iteration, *args, **kwargs)
        return validate_at_once(value, metadata, validators, iteration)

    async def patched_async_validate(
        value: Any,
        metadata: dict[str, Any],
        validator_map: Any,
        iteration: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        # (..., disable_tracer=True, path=None, stream=False, **kwargs)
        path, stream = _argument(args, kwargs, 1, "path"), _argument(args, kwargs, 2, "stream")
        validators = at_once(value, validator_map, path, stream)
        if validators is None:
            return await async_validate(value, metadata, validator_map, iteration, *args, **kwargs)
        return await async_validate_at_once(value, metadata, validators, iteration)

    def patched_status(self: Any) -> str:
        passed = pipeline_passed(self)
        if passed is None or self.error:
            return str(status.fget(self))
        return pass_status if passed else fail_status

    def patched_guarded_output(self: Any) -> Any:
        # A call the pipeline validated with a failure left in it (noop) released
        # its text, as Guardrails' guarded_output does when every failure is a noop.
        if pipeline_passed(self) is False and not self.error:
            return self.iterations.last.guarded_output
        return guarded_output.fget(self)

    patches: list[tuple[Any, str, Any, Any]] = [
        (StreamRunner, "step", step, patched_step),
        (AsyncStreamRunner, "async_step", async_step, patched_async_step),
        (validator_service, "validate", validate, patched_validate),
        (validator_service, "async_validate", async_validate, patched_async_validate),
        (Call, "status", status, patched_status),
        (Call, "guarded_output", guarded_output, patched_guarded_output),
    ]
    for owner, name, original, patch in patches:
        is_property = isinstance(original, property)
        vars(patch)["__wrapped__"] = original.fget if is_property else original
        patch.__doc__ = (
            f"chunkwise: {name} from the validation pipeline's verdict (see validated_streaming)"
            if is_property
            else f"chunkwise: {name} through the validation pipeline (see validated_streaming)"
        )
        setattr(owner, name, property(patch) if is_property else patch)
        _originals.append((owner, name, original))
