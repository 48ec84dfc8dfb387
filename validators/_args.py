"""Argument checks shared by the validators: errors name the parameter and the value."""

from __future__ import annotations

from collections.abc import Iterable

from guardrails_ai.chunkwise.adapters.chunked import check_on_fail
from guardrails_ai.chunkwise.chunkers import ChunkerSpec, SentenceChunker
from guardrails_ai.chunkwise.chunkers.params import check_int, described, refuse_mapping

__all__ = [
    "check_on_fail",
    "optional_positive_int",
    "reject_unknown",
    "sentence_chunker",
    "str_list",
]


def sentence_chunker(language: str | None, chunker: ChunkerSpec | None) -> ChunkerSpec | None:
    """``chunker``, or the sentence chunker of ``language`` when that is given.

    ``language="de"`` is short for ``chunker=SentenceChunker(language="de")``
    (and is recorded so: ``Guard.to_dict()`` writes that chunker's spec).
    Raises ``ValueError`` when both are given, and ``TypeError`` or
    ``ValueError`` naming ``language`` for a value that is no supported code.
    """
    if language is None:
        return chunker
    if chunker is not None:
        raise ValueError(
            f"give language={language!r:.40} or chunker=..., not both: "
            "language= picks the sentence chunker of that language"
        )
    return SentenceChunker(language=language)


def optional_positive_int(name: str, value: object) -> int | None:
    """``value`` as an int >= 1 (checked as the chunkers check sizes), or ``None``."""
    return None if value is None else check_int(name, value, 1)


def str_list(name: str, value: object, *, secret: bool = False) -> list[str]:
    """``value`` (any iterable of str, but not a str itself nor a mapping) as a non-empty list.

    ``secret``: the items may be confidential (banned phrases), so an error
    names the parameter and the value's type and length, never its text.  A
    mapping is refused: its keys would be taken and its values dropped."""
    if isinstance(value, (str, bytes)):
        shown = described(value) if secret else f"{type(value).__name__} {value!r:.80}"
        item = f"{type(value).__name__} item" if secret else f"{value!r:.80}"
        raise TypeError(
            f"{name} must be a list of str, got {shown}; wrap a single item in a list: [{item}]"
        )
    refuse_mapping(name, value, "a list of str")
    if not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a list of str, got {type(value).__name__}: {value!r:.80}")
    items = list(value)
    for item in items:
        if not isinstance(item, str):
            shown = described(item) if secret else f"{type(item).__name__}: {item!r:.80}"
            raise TypeError(f"{name} must hold str only, got {shown}")
    if not items:
        raise ValueError(f"{name} must not be empty, got {value!r:.80}")
    return items


def reject_unknown(owner: object, kwargs: dict[str, object]) -> None:
    """Refuse keyword arguments that ``type(owner).__init__`` does not name.

    Guardrails' ``Validator`` takes any ``**kwargs`` and keeps them, so a
    misspelt argument (``RedactPII(entites=["email"])``) would be dropped
    silently and the default used: ``TypeError`` naming it instead, with the
    closest name it takes (never the value)."""
    if not kwargs:
        return
    import difflib
    import inspect

    cls = type(owner)
    params = inspect.signature(cls.__init__).parameters
    known = [n for n, p in params.items() if n != "self" and p.kind is not p.VAR_KEYWORD]
    name = sorted(kwargs)[0]
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise TypeError(
        f"{cls.__name__} got an unexpected keyword argument {name!r:.60}{hint} "
        f"(it takes {', '.join(known)})"
    )
