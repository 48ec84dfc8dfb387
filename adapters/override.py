"""Per-validator chunking overrides, for any Guardrails validator."""

from __future__ import annotations

from typing import Any, TypeVar, overload

from guardrails.validator_base import Validator, validators_registry

from guardrails_ai.chunkwise.chunkers import ChunkerSpec
from guardrails_ai.chunkwise.chunkers.registry import resolve_chunker

from .chunked import ChunkedValidator
from .contract import chunking_function

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
      ``_chunking_function``, or a ``ChunkedValidator``'s ``chunker``); it is
      returned.
    * A validator **class**, or the alias it is registered under (such as
      ``"guardrails/lowercase"``): a subclass is returned that keeps the class
      name and ``rail_alias`` and chunks with ``chunker``; the original class
      and its instances are untouched.

    ``chunker`` is a strategy, an alias such as ``"paragraph"`` or any object
    with ``split``/``flush``.  Works for hub validators this package did not
    write.  Raises ``TypeError``/``ValueError`` naming the bad argument.
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
        # An instance attribute shadows the class's method for this instance only.
        validator._chunking_function = chunking_function(strategy)  # type: ignore[method-assign,assignment]
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
    return type(cls.__name__, (cls,), attrs)
