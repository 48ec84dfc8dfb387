"""Per-validator chunking overrides, for any Guardrails validator."""

from __future__ import annotations

from types import MethodType
from typing import Any, TypeVar, overload

from guardrails.validator_base import Validator, validators_registry
from guardrails_ai.types import ValidationResult

from guardrails_ai.chunkwise.chunkers import ChunkerSpec
from guardrails_ai.chunkwise.chunkers.registry import resolve_chunker

from .chunked import ChunkedValidator
from .contract import chunking_function
from .streams import chunker_of, streams_of

__all__ = ["with_chunker"]

V = TypeVar("V", bound=Validator)


@overload
def with_chunker(validator: V, chunker: ChunkerSpec) -> V: ...
@overload
def with_chunker(validator: type[V], chunker: ChunkerSpec) -> type[V]: ...
@overload
def with_chunker(validator: str, chunker: ChunkerSpec) -> type[Validator]: ...


def with_chunker(validator: Any, chunker: ChunkerSpec) -> Any:
    """Make ``validator`` chunk streamed text with ``chunker``.

    * A validator **instance**: only that instance changes (its
      ``_chunking_function`` and ``validate_stream``, or a
      ``ChunkedValidator``'s ``chunker``); it is returned.
    * A validator **class**, or the alias it is registered under (such as
      ``"guardrails/lowercase"``): a subclass is returned that keeps the class
      name and ``rail_alias`` and chunks with ``chunker``; the original class
      and its instances are untouched.

    ``chunker`` is a strategy, an alias such as ``"paragraph"`` or any object
    with ``split``/``flush``.  Raises ``TypeError``/``ValueError`` naming the bad
    argument.

    A validator this package did not write (a hub validator) then streams
    exactly as a ``ChunkedValidator`` does: its ``_chunking_function`` answers
    Guardrails' contract with ``chunker`` (for callers that use it directly),
    and its ``validate_stream`` (:func:`exact_validate_stream`) keeps a
    ``ChunkStream`` per stream, so the validator's own ``validate(chunk,
    metadata)`` sees exactly the chunks ``chunker`` yields for the whole text,
    however it was sliced; every chunk a delta completes is validated in that
    call (one merged ``ValidationResult``); the final fragment is validated
    where Guardrails signals the end of the stream (``remainder=True``: only the
    sync ``fix`` path does, after a last delta that completes no chunk or carries
    a ``finish_reason``); streams never share state, and ``copy.deepcopy`` of the
    validator starts with none open.  A ``validate_stream`` of the validator's
    own is bypassed; ``AsyncGuard`` reaches ours through Guardrails' default
    ``async_validate_stream``, so a validator overriding that one keeps it.
    """
    strategy = resolve_chunker(chunker)
    if isinstance(validator, str):
        cls = validators_registry.get(validator)
        if cls is None:
            raise ValueError(
                f"validator={validator!r} is not a registered validator alias; "
                f"registered: {', '.join(sorted(validators_registry)) or 'none'}"
            )
        return _override_class(cls, strategy)
    if isinstance(validator, type) and issubclass(validator, Validator):
        return _override_class(validator, strategy)
    if isinstance(validator, ChunkedValidator):
        validator.chunker = strategy
        return validator
    if isinstance(validator, Validator):
        # Instance attributes shadow the class's methods for this instance only;
        # Guardrails looks both up on the instance.  A bound method is rebound
        # to the copy by copy.deepcopy.
        validator._chunking_function = chunking_function(strategy)  # type: ignore[method-assign,assignment]
        validator.validate_stream = MethodType(exact_validate_stream, validator)  # type: ignore[method-assign]
        return validator
    raise TypeError(
        "validator must be a guardrails Validator instance, a Validator subclass or a "
        f"registered alias, got {type(validator).__name__}: {validator!r:.80}"
    )


def _override_class(cls: type[Validator], strategy: Any) -> type[Validator]:
    attrs: dict[str, Any] = {
        "rail_alias": cls.rail_alias,
        "__module__": cls.__module__,
        "__doc__": cls.__doc__,
        "__qualname__": cls.__qualname__,
    }
    if issubclass(cls, ChunkedValidator):
        attrs["default_chunker"] = strategy
    else:
        function = chunking_function(strategy)

        def _chunking_function(self: Validator, chunk: str) -> list[str]:
            return function(chunk)

        _chunking_function.chunker = strategy  # type: ignore[attr-defined]
        attrs["_chunking_function"] = _chunking_function
        attrs["validate_stream"] = exact_validate_stream
    return type(cls.__name__, (cls,), attrs)


def exact_validate_stream(
    self: Validator, chunk: Any, metadata: dict[str, Any], **kwargs: Any
) -> ValidationResult | None:
    """``validate_stream`` of a validator given ``with_chunker``.

    Validates, with ``self.validate``, every chunk that ``chunk`` (a delta)
    completes in this stream, chunked by the strategy behind
    ``self._chunking_function``; returns ``None`` while none is complete.  With
    ``remainder=True`` the stream ends and its withheld fragment is validated
    too.  See :class:`~guardrails_ai.chunkwise.adapters.streams.StreamRuns`.
    """
    return streams_of(self).validate_stream(self, chunk, metadata, kwargs, chunker_of(self))


exact_validate_stream.__name__ = "validate_stream"
