"""Per-validator chunking overrides, for any Guardrails validator, that survive ``to_dict()``."""

from __future__ import annotations

from collections.abc import Coroutine
from types import MethodType
from typing import Any, TypeVar, overload

from guardrails.validator_base import (
    Validator,
    get_validator_class,
    register_validator,
    validators_registry,
)
from guardrails_ai.types import ValidationResult

from guardrails_ai.chunkwise.chunkers import ChunkerSpec
from guardrails_ai.chunkwise.chunkers.registry import resolve_chunker

from .chunked import ChunkedValidator, without_own_joins
from .chunker_arg import ChunkerArg
from .contract import chunking_function
from .streams import chunker_of, streams_of

__all__ = ["WITH_CHUNKER", "WithChunker", "validator_id", "with_chunker"]

#: The validator id under which ``Guard.to_dict()`` writes a validator this
#: package did not write, given ``with_chunker``.
WITH_CHUNKER = "chunkwise/with_chunker"
#: Where a wrapped instance keeps the arguments it reports in ``get_args()``.
_WRAPPED = "_chunkwise_with_chunker"

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
      and its instances are untouched (instances of the subclass report
      :data:`WITH_CHUNKER`, see "Guards as dicts" below).

    ``chunker`` is a strategy, an alias such as ``"paragraph"``, a spec
    (``{"chunker": "fixed", "size": 30}``) or any object with
    ``split``/``flush``; a chunker taken from a chunkwise validator
    (``other.chunker``) is the one that validator was given, without its own
    joins and cuts (:func:`~.chunked.without_own_joins`).  Raises
    ``TypeError``/``ValueError`` naming the bad argument.

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
    ``async_validate_stream``, so a validator overriding that one keeps it
    (one that does not gets :func:`exact_async_validate_stream`, whose direct
    awaits keep each task's stream apart).

    Guards as dicts.  ``Guard.to_dict()`` writes the override and
    ``Guard.from_dict``/``AsyncGuard.from_dict`` rebuild it (the chunker as
    its spec; a chunker without one raises ``SpecError`` in ``to_dict()``).  A
    ``ChunkedValidator`` records its ``chunker`` argument, keeping its id.  Any
    other validator is written under the id :data:`WITH_CHUNKER`
    (``{"validator": its id, "kwargs": its arguments, "chunker": spec}``),
    which Guardrails rebuilds as ``with_chunker(cls(**kwargs), spec)``; so its
    instances report ``rail_alias == WITH_CHUNKER`` (in validation logs too):
    Guardrails keeps a validator across calls only if its ``rail_alias`` is
    the id it was written under.  Guardrails records a validator's id and
    arguments in ``guard.use(...)``: give the override before that.
    """
    chunker = without_own_joins(chunker)
    strategy = resolve_chunker(chunker)
    if isinstance(validator, str):
        cls = validators_registry.get(validator)
        if cls is None:
            raise ValueError(
                f"validator={validator!r} is not a registered validator alias; "
                f"registered: {', '.join(sorted(validators_registry)) or 'none'}"
            )
        return _override_class(cls, chunker, strategy)
    if isinstance(validator, type) and issubclass(validator, Validator):
        return _override_class(validator, chunker, strategy)
    if isinstance(validator, ChunkedValidator):
        validator.record_chunker(chunker)
        return validator
    if isinstance(validator, Validator):
        # Instance attributes shadow the class's methods for this instance only;
        # Guardrails looks both up on the instance.  A bound method is rebound
        # to the copy by copy.deepcopy.
        validator._chunking_function = chunking_function(strategy)  # type: ignore[method-assign,assignment]
        validator.validate_stream = MethodType(exact_validate_stream, validator)  # type: ignore[method-assign]
        if type(validator).async_validate_stream is Validator.async_validate_stream:
            validator.async_validate_stream = MethodType(  # type: ignore[method-assign]
                exact_async_validate_stream, validator
            )
        _record(validator, chunker, strategy)
        return validator
    raise TypeError(
        "validator must be a guardrails Validator instance, a Validator subclass or a "
        f"registered alias, got {type(validator).__name__}: {validator!r:.80}"
    )


def _override_class(cls: type[Validator], given: ChunkerSpec, strategy: Any) -> type[Validator]:
    """The ``with_chunker`` subclass of ``cls``: chunks with ``strategy``
    and records ``given`` (so an alias whose chunker has no spec is written
    as the alias, as for an instance)."""
    attrs: dict[str, Any] = {
        "rail_alias": cls.rail_alias,
        "__module__": cls.__module__,
        "__doc__": cls.__doc__,
        "__qualname__": cls.__qualname__,
    }
    if issubclass(cls, ChunkedValidator):
        attrs["default_chunker"] = given
    else:
        function = chunking_function(strategy)

        def _chunking_function(self: Validator, chunk: str) -> list[str]:
            return function(chunk)

        _chunking_function.chunker = strategy  # type: ignore[attr-defined]
        attrs["_chunking_function"] = _chunking_function
        attrs["validate_stream"] = exact_validate_stream
        if cls.async_validate_stream is Validator.async_validate_stream:
            attrs["async_validate_stream"] = exact_async_validate_stream
        attrs["__init__"] = _recording_init(cls, given, strategy)
    return type(cls.__name__, (cls,), attrs)


def _recording_init(cls: type[Validator], given: ChunkerSpec, strategy: Any) -> Any:
    """``__init__`` of a ``with_chunker`` subclass of ``cls``: records the override."""

    def __init__(self: Validator, *args: Any, **kwargs: Any) -> None:
        cls.__init__(self, *args, **kwargs)
        _record(self, given, strategy)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _record(validator: Validator, given: Any, strategy: Any) -> None:
    """Make ``validator`` write itself as :data:`WITH_CHUNKER` in ``Guard.to_dict()``.

    ``get_args()`` becomes ``{"validator": id, "kwargs": arguments, "chunker":
    ChunkerArg}`` and ``rail_alias`` :data:`WITH_CHUNKER` (instance attributes;
    the class is untouched).  A second override updates the recorded chunker.
    """
    state = vars(validator)
    wrapped = state.get(_WRAPPED)
    if wrapped is not None:
        wrapped["chunker"].set(given, strategy)
        return
    alias = validator.rail_alias
    state[_WRAPPED] = {
        "validator": alias,
        "kwargs": validator._kwargs,
        "chunker": ChunkerArg(given, strategy, alias),
    }
    validator.get_args = MethodType(_wrapped_args, validator)  # type: ignore[method-assign]
    validator.rail_alias = WITH_CHUNKER


def validator_id(validator: Validator) -> str:
    """The id ``validator`` is registered under, for messages: its ``rail_alias``,
    or for a ``with_chunker`` override (whose ``rail_alias`` is
    :data:`WITH_CHUNKER`) the id of the validator it overrides."""
    wrapped = vars(validator).get(_WRAPPED)
    alias = wrapped["validator"] if wrapped is not None else validator.rail_alias
    return str(alias or type(validator).__name__)


def _wrapped_args(self: Validator) -> dict[str, Any]:
    args: dict[str, Any] = vars(self)[_WRAPPED]
    return args


@register_validator(name=WITH_CHUNKER, data_type="string")
class WithChunker(Validator):
    """What ``Guard.from_dict`` builds for the id :data:`WITH_CHUNKER`.

    ``WithChunker(validator=id, kwargs={...}, chunker=spec, on_fail=...)``
    returns ``with_chunker(cls(on_fail=..., **kwargs), spec)``, ``cls`` being
    the validator registered as ``id`` (an instance of ``cls``, not of this
    class).  Raises ``ValueError`` if no validator is registered as ``id``, or
    if it is a ``ChunkedValidator`` (written under its own id instead).
    """

    def __new__(  # type: ignore[misc]
        cls,
        *args: Any,
        validator: str,
        chunker: ChunkerSpec,
        kwargs: dict[str, Any] | None = None,
        on_fail: Any = None,
    ) -> Validator:
        target = get_validator_class(validator) if isinstance(validator, str) else None
        if target is None:
            raise ValueError(
                f"{WITH_CHUNKER}: validator={validator!r:.80} is not a registered validator "
                "id; import the module that registers it before Guard.from_dict"
            )
        if issubclass(target, ChunkedValidator):
            raise ValueError(
                f"{WITH_CHUNKER}: validator={validator!r:.80} is a chunkwise validator; write "
                f"it under its own id with a chunker= argument"
            )
        if kwargs is not None and not isinstance(kwargs, dict):
            raise TypeError(f"{WITH_CHUNKER}: kwargs must be a dict, got {type(kwargs).__name__}")
        arguments = {**(kwargs or {}), "on_fail": on_fail}
        built = target(*args, **arguments)
        return with_chunker(built, chunker)


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


def exact_async_validate_stream(
    self: Validator, chunk: Any, metadata: dict[str, Any], **kwargs: Any
) -> Coroutine[Any, Any, ValidationResult | None]:
    """``async_validate_stream`` of a validator given ``with_chunker`` (unless
    its class has its own): :func:`exact_validate_stream`, awaited.

    Under ``AsyncGuard`` (Guardrails passes the stream's ``context``) it runs
    as Guardrails' default does; called directly, the stream is the caller's
    context's, found when the call is made (see
    :meth:`~guardrails_ai.chunkwise.adapters.streams.StreamRuns.async_validate_direct`).
    """
    if kwargs.get("context") is not None:
        return Validator.async_validate_stream(self, chunk, metadata, **kwargs)
    return streams_of(self).async_validate_direct(self, chunk, metadata, kwargs, chunker_of(self))


exact_async_validate_stream.__name__ = "async_validate_stream"
