"""Alias strings and specs for chunkers, and the one place a chunker argument is checked.

A *spec* is a chunker written as JSON data: ``{"chunker": kind, **parameters}``,
where ``kind`` is a registered alias (``"fixed"``, ``"sentence"``...) or a kind
that needs parameters (``"bounded"``, ``"grouped"``, ``"regex"``), and a
parameter that is itself a chunker is a nested spec.  An alias string is a
spec without parameters.  ``chunker.spec()`` writes one (see :mod:`.specs`);
:func:`resolve_chunker` reads it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from importlib import import_module

from .base import ChunkingStrategy, SplitFlush

__all__ = [
    "ChunkerSpec",
    "aliases",
    "kinds",
    "register_alias",
    "register_kind",
    "resolve_chunker",
]

#: What every ``chunker=`` parameter accepts: an alias, a spec, a strategy, or
#: any object with ``split``/``flush``.
ChunkerSpec = str | Mapping[str, object] | ChunkingStrategy | SplitFlush

#: The key of a spec that names its kind.
KIND = "chunker"

_FACTORIES: dict[str, Callable[..., ChunkingStrategy]] = {}
_KINDS: dict[str, Callable[..., ChunkingStrategy]] = {}

#: Aliases registered by a module of a layer above (imported on first use, by
#: name, so that this package never imports it itself): ``"guardrails"`` is
#: Guardrails' own splitter, which needs guardrails-ai.
_REGISTERED_BY = {"guardrails": "guardrails_ai.chunkwise.adapters.contract"}


def _factory(key: str) -> Callable[..., ChunkingStrategy] | None:
    factory = _FACTORIES.get(key)
    if factory is None and key in _REGISTERED_BY:
        import_module(_REGISTERED_BY[key])  # registers it
        factory = _FACTORIES.get(key)
    return factory


def _key(name: object) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if not name.strip():
        raise ValueError("name must not be empty or whitespace")
    return name.strip().lower()


def _register(
    table: dict[str, Callable[..., ChunkingStrategy]],
    name: str,
    factory: Callable[..., ChunkingStrategy],
    replace: bool,
) -> None:
    """Put ``factory`` in ``table`` under ``name``, unless the name is taken.

    A name is taken when an alias or a kind of that name (case and blanks
    aside) is registered with another factory, ``"guardrails"`` included:
    ``ValueError`` unless ``replace``.  The same factory, or the same
    definition run again (a module reloaded: see :func:`_same_definition`),
    takes the name over.
    """
    key = _key(name)
    if not callable(factory):
        raise TypeError(
            f"factory must be callable (a class or a function), got {type(factory).__name__}"
        )
    taken = _KINDS.get(key) or _factory(key)
    if taken is not None and not _same_definition(taken, factory) and not replace:
        raise ValueError(
            f"name={key!r} names a registered chunker already; pass replace=True to "
            "replace it everywhere it is used, or choose another name"
        )
    _FACTORIES.pop(key, None)
    _KINDS.pop(key, None)
    table[key] = factory


def _same_definition(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are one factory, or one definition made twice:
    classes or functions of the same module and qualified name (not lambdas,
    which share theirs), or ``functools.partial`` objects of such with equal
    arguments."""
    if a is b:
        return True
    if isinstance(a, partial) and isinstance(b, partial):
        return _same_definition(a.func, b.func) and (a.args, a.keywords) == (b.args, b.keywords)
    name = getattr(a, "__qualname__", None)
    return (
        isinstance(name, str)
        and "<lambda>" not in name
        and (getattr(a, "__module__", None), name)
        == (getattr(b, "__module__", None), getattr(b, "__qualname__", None))
    )


def register_alias(
    name: str, factory: Callable[..., ChunkingStrategy], *, replace: bool = False
) -> None:
    """Make ``name`` resolve to ``factory()`` wherever a chunker is accepted.

    A spec ``{"chunker": name, **params}`` resolves to ``factory(**params)``:
    a class, or a ``functools.partial`` whose defaults are keywords.  A name
    that is registered already (``"sentence"``, ``"bounded"``...) is refused
    with a ``ValueError`` unless ``replace=True``; a ``factory`` that is not
    callable with a ``TypeError``.  What the factory returns must be a
    ``ChunkingStrategy`` or an object with ``split``/``flush``: anything else
    is a ``TypeError`` naming the alias where it is resolved.
    """
    _register(_FACTORIES, name, factory, replace)


def register_kind(
    name: str, factory: Callable[..., ChunkingStrategy], *, replace: bool = False
) -> None:
    """Make the spec ``{"chunker": name, **params}`` resolve to ``factory(**params)``.

    For chunkers that need parameters (``"bounded"``, ``"regex"``): unlike an
    alias, ``name`` alone is not a chunker.  Names already registered and
    factories that are not callable are refused as by :func:`register_alias`.
    """
    _register(_KINDS, name, factory, replace)


def aliases() -> list[str]:
    """The alias strings, sorted (those a layer above registers included)."""
    return sorted({*_FACTORIES, *_REGISTERED_BY})


def kinds() -> list[str]:
    """Every kind a spec may name (aliases and parameterised kinds), sorted."""
    return sorted({*_FACTORIES, *_KINDS, *_REGISTERED_BY})


def resolve_chunker(
    chunker: ChunkerSpec, *, param: str = "chunker"
) -> ChunkingStrategy | SplitFlush:
    """Turn an alias, a spec, a strategy or any ``split``/``flush`` object into a strategy.

    Raises ``ValueError`` for an unknown alias or kind and ``TypeError`` for
    anything else; both name ``param`` and list the valid choices.
    """
    if isinstance(chunker, str):
        factory = _factory(chunker.strip().lower())
        if factory is None:
            raise ValueError(
                f"{param}={chunker!r:.80} is not a known chunker; "
                f"choose one of {', '.join(map(repr, aliases()))}, or pass a "
                "ChunkingStrategy or any object with split()/flush()"
            )
        return _made(factory(), param, chunker)
    if isinstance(chunker, ChunkingStrategy):
        return chunker
    if isinstance(chunker, Mapping):
        return _from_spec(chunker, param)
    if isinstance(chunker, type):
        raise TypeError(
            f"{param}={chunker.__name__} is a class; pass an instance such as "
            f"{chunker.__name__}() or one of {', '.join(map(repr, aliases()))}"
        )
    if _splits(chunker):
        return chunker
    raise TypeError(
        f"{param} must be one of {', '.join(map(repr, aliases()))}, a "
        f"ChunkingStrategy or an object with split()/flush(); got "
        f"{type(chunker).__name__}: {chunker!r:.80}"
    )


def _from_spec(spec: Mapping[str, object], param: str) -> ChunkingStrategy | SplitFlush:
    """Build the chunker ``spec`` describes; nested specs are built first."""
    kind = spec.get(KIND)
    if not isinstance(kind, str):
        got = (
            f"its {KIND!r} is of type {type(kind).__name__}"
            if KIND in spec
            else f"got keys {sorted(map(str, spec))}"
        )
        raise ValueError(
            f"{param} spec needs a {KIND!r} key whose value, a str, names its kind (one "
            f"of {', '.join(map(repr, kinds()))}); {got}"
        )
    key = kind.strip().lower()
    factory = _KINDS.get(key) or _factory(key)
    if factory is None:
        raise ValueError(
            f"{param} spec names {KIND}={kind!r}, not a known kind; "
            f"choose one of {', '.join(map(repr, kinds()))}"
        )
    params = {
        str(name): _decode(value, f"{param}.{name}") for name, value in spec.items() if name != KIND
    }
    try:
        made = factory(**params)
    except TypeError as exc:
        if "argument" not in str(exc):  # a parameter's own check: already names it
            raise
        raise TypeError(
            f"{param} spec {KIND}={kind!r}: {exc} (parameters given: {sorted(params)})"
        ) from None
    return _made(made, param, kind)


def _splits(chunker: object) -> bool:
    return callable(getattr(chunker, "split", None)) and callable(getattr(chunker, "flush", None))


def _made(made: object, param: str, name: str) -> ChunkingStrategy | SplitFlush:
    """What a registered factory returned, refused unless it is a chunker.

    Checked here, where the registered name is known, rather than as an
    ``AttributeError`` at the first ``split``.
    """
    if isinstance(made, ChunkingStrategy):
        return made
    if isinstance(made, SplitFlush) and not isinstance(made, type):
        return made
    raise TypeError(
        f"{param}={name!r:.80}: its registered factory returned a "
        f"{type(made).__name__}, not a ChunkingStrategy or an object with split()/flush()"
    )


def _decode(value: object, path: str) -> object:
    """A spec parameter as the constructor takes it: nested specs become chunkers."""
    if isinstance(value, Mapping):
        return resolve_chunker(value, param=path)
    if isinstance(value, list):
        return [_decode(item, f"{path}[{i}]") for i, item in enumerate(value)]
    return value
