"""Chunkers as JSON data: ``spec_of(chunker)``, and the ``"regex"`` and ``"sized"`` kinds read back.

``spec_of(chunker)`` (also ``chunker.spec()``) returns ``{"chunker": kind,
**parameters}``: the chunker's alias (:data:`KINDS` for those without one) and
the constructor arguments that differ from the defaults (what its ``repr``
shows), with nested chunkers as nested specs, tuples and sets as lists and a
compiled pattern as its source and flag names.  The spec is checked before it
is returned: rebuilt from its JSON text by :func:`~.registry.resolve_chunker`,
it must give a chunker equal to the original.  A chunker that cannot be
written so (an object with ``split``/``flush`` that is not a chunkwise
strategy, a strategy without an alias, a parameter that is a function) raises
:class:`SpecError` naming the chunker and the parameter; nothing is ever
replaced by a default.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from .base import ChunkingStrategy
from .fill import Sized
from .limits import Bounded, Grouped
from .pattern import RegexChunker
from .registry import KIND, resolve_chunker
from .sizing import measure_for

__all__ = ["KINDS", "SpecError", "regex_from_spec", "sized_from_spec", "spec_of"]

Spec = dict[str, object]

#: Flags a ``str`` pattern always has (``re.compile`` adds it): not written.
_IMPLIED = re.UNICODE

#: The kinds of the chunkers that have no alias (they need parameters); these
#: exact classes only, so a subclass needs an alias of its own.
KINDS: dict[type[ChunkingStrategy], str] = {
    Bounded: "bounded",
    Grouped: "grouped",
    RegexChunker: "regex",
    Sized: "sized",
}


class SpecError(ValueError):
    """A chunker, or one of its parameters, cannot be written as a spec."""


def spec_of(chunker: object, *, param: str = "chunker") -> Spec:
    """The spec of ``chunker``: JSON data that :func:`resolve_chunker` rebuilds it from.

    Raises :class:`SpecError` (a ``ValueError``) naming ``param`` (the path to
    the offending chunker or parameter) when there is none.
    """
    spec = _encode_chunker(chunker, param)
    rebuilt = resolve_chunker(json.loads(json.dumps(spec)), param=param)
    if rebuilt != chunker:
        raise SpecError(
            f"{param}={chunker!r:.120} cannot be written as a spec: {spec!r:.120} "
            f"rebuilds {rebuilt!r:.120}; a subclass needs its own alias "
            "(register_alias) and its parameters in _params()"
        )
    return spec


def _encode_chunker(chunker: object, path: str) -> Spec:
    if not isinstance(chunker, ChunkingStrategy):
        raise SpecError(
            f"{path}={chunker!r:.80} ({type(chunker).__name__}) is not a chunkwise "
            "ChunkingStrategy, so it has no spec; pass a built-in chunker or an "
            "alias, or a ChunkingStrategy subclass registered with register_alias"
        )
    kind = KINDS.get(type(chunker)) or chunker.alias
    if not kind:
        raise SpecError(
            f"{path}={chunker!r:.80} has no alias, so it has no spec; give "
            f"{type(chunker).__name__} an alias and register_alias() it"
        )
    if type(chunker) is RegexChunker:
        params: dict[str, object] = _regex_params(chunker)
    else:
        params = chunker._params()
    spec: Spec = {KIND: kind}
    for name, value in params.items():
        spec[name] = _encode(value, f"{path}.{name}")
    return spec


def _encode(value: object, path: str) -> object:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_encode(item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        return sorted(_encode(item, path) for item in value)  # type: ignore[type-var]
    if isinstance(value, ChunkingStrategy) or (
        callable(getattr(value, "split", None)) and callable(getattr(value, "flush", None))
    ):
        return _encode_chunker(value, path)
    raise SpecError(
        f"{path}={value!r:.80} ({type(value).__name__}) cannot be written as JSON "
        "data, so this chunker has no spec"
    )


def _regex_params(chunker: RegexChunker) -> dict[str, object]:
    pattern = chunker.pattern
    flags = pattern.flags & ~_IMPLIED & ~re.DEBUG  # (DEBUG changes no match)
    params: dict[str, object] = {"pattern": pattern.pattern}
    if flags:
        bits = (1 << i for i in range(flags.bit_length()))
        params["flags"] = [re.RegexFlag(bit).name for bit in bits if flags & bit]
    if chunker.max_match is not None:
        params["max_match"] = chunker.max_match
    return params


def regex_from_spec(
    pattern: str, flags: Sequence[str] = (), max_match: int | None = None
) -> RegexChunker:
    """The ``"regex"`` kind: a :class:`RegexChunker` from a pattern's source and flag names.

    ``flags`` lists names of ``re`` flags (``"IGNORECASE"``, ``"MULTILINE"``...).
    """
    if not isinstance(pattern, str):
        raise TypeError(
            f"pattern must be a str in a spec, got {type(pattern).__name__}: {pattern!r:.80}"
        )
    if isinstance(flags, str) or not isinstance(flags, Sequence):
        raise TypeError(
            f"flags must be a list of re flag names, got {type(flags).__name__}: {flags!r:.80}"
        )
    bits = 0
    for name in flags:
        flag = re.RegexFlag.__members__.get(name) if isinstance(name, str) else None
        if flag is None:
            raise ValueError(
                f"flags item {name!r:.80} is not an re flag name; use names such as "
                "'IGNORECASE', 'MULTILINE', 'DOTALL', 'VERBOSE', 'ASCII'"
            )
        if flag == re.DEBUG:
            raise ValueError(
                "flags item 'DEBUG' is not accepted in a spec: it changes no match and "
                "prints the compiled pattern each time the chunker is built"
            )
        bits |= flag
    try:
        compiled = re.compile(pattern, bits)
    except re.error as exc:
        raise ValueError(f"pattern={pattern!r:.80} is not a valid regex: {exc}") from None
    return RegexChunker(compiled, max_match=max_match)


def sized_from_spec(inner: object, **params: object) -> ChunkingStrategy:
    """The ``"sized"`` kind: a :class:`~.fill.Sized` chunker as it wrote itself.

    Its ceiling is written under the name it was given by (``max_tokens``,
    ``max_chars``, or ``limit`` for one built directly) and its measure as
    ``tokenizer`` (with ``max_tokens``) or ``length``: a spec with two
    ceilings, or with both measures, is a ``ValueError`` (one would be dropped).
    Without a measure, ``max_tokens`` counts ``cl100k_base`` tokens, as
    ``limit(..., max_tokens=...)`` does; the other ceilings count characters.
    """
    ceilings = [name for name in ("max_tokens", "max_chars", "limit") if name in params]
    if len(ceilings) != 1:
        raise ValueError(
            "a 'sized' spec needs one of max_tokens, max_chars or limit; got "
            f"{', '.join(ceilings) or 'none'}"
        )
    name = ceilings[0]
    ceiling = params.pop(name)
    if "tokenizer" in params and "length" in params:
        raise ValueError("a 'sized' spec takes its measure as tokenizer or length, not both")
    key = "tokenizer" if "tokenizer" in params else "length"
    # Measured here, so that an error names the key the spec gave it under.
    default = "cl100k_base" if name == "max_tokens" else None
    length = measure_for(params.pop(key, default), param=key)
    return Sized(inner, ceiling, length=length, param=name, **params)  # type: ignore[arg-type]
