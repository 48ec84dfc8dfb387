"""Alias strings for chunkers, and the one place a chunker argument is checked."""

from __future__ import annotations

from collections.abc import Callable

from .base import ChunkingStrategy, SplitFlush

__all__ = ["ChunkerSpec", "aliases", "register_alias", "resolve_chunker"]

#: What every ``chunker=`` parameter accepts.
ChunkerSpec = str | ChunkingStrategy | SplitFlush

_FACTORIES: dict[str, Callable[[], ChunkingStrategy]] = {}


def register_alias(name: str, factory: Callable[[], ChunkingStrategy]) -> None:
    """Make ``name`` resolve to ``factory()`` wherever a chunker is accepted."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"alias name must be a non-empty str, got {name!r}")
    _FACTORIES[name.strip().lower()] = factory


def aliases() -> list[str]:
    """The registered alias strings, sorted."""
    return sorted(_FACTORIES)


def resolve_chunker(
    chunker: ChunkerSpec, *, param: str = "chunker"
) -> ChunkingStrategy | SplitFlush:
    """Turn an alias, a strategy or any ``split``/``flush`` object into a strategy.

    Raises ``ValueError`` for an unknown alias and ``TypeError`` for anything
    else; both name ``param`` and list the valid choices.
    """
    if isinstance(chunker, str):
        factory = _FACTORIES.get(chunker.strip().lower())
        if factory is None:
            raise ValueError(
                f"{param}={chunker!r} is not a known chunker; "
                f"choose one of {', '.join(map(repr, aliases()))}, or pass a "
                "ChunkingStrategy or any object with split()/flush()"
            )
        return factory()
    if isinstance(chunker, ChunkingStrategy):
        return chunker
    if isinstance(chunker, type):
        raise TypeError(
            f"{param}={chunker.__name__} is a class; pass an instance such as "
            f"{chunker.__name__}() or one of {', '.join(map(repr, aliases()))}"
        )
    if callable(getattr(chunker, "split", None)) and callable(
        getattr(chunker, "flush", None)
    ):
        return chunker
    raise TypeError(
        f"{param} must be one of {', '.join(map(repr, aliases()))}, a "
        f"ChunkingStrategy or an object with split()/flush(); got "
        f"{type(chunker).__name__}: {chunker!r:.80}"
    )
