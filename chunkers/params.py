"""Constructor argument checks shared by the chunkers."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["check_choice", "check_int", "described", "refuse_mapping"]


def described(value: object) -> str:
    """What ``value`` is, without its content (for errors about values that
    may hold user text): ``str of 12 characters``, ``bytes of 3 bytes``, ``list of 2 items``,
    ``NoneType``."""
    kind = type(value).__name__
    if isinstance(value, str):
        return f"{kind} of {len(value)} characters"
    if isinstance(value, (bytes, bytearray)):
        return f"{kind} of {len(value)} bytes"
    if isinstance(value, (list, tuple)):
        return f"{kind} of {len(value)} items"
    return kind


def check_int(name: str, value: object, low: int) -> int:
    """Return ``value`` if it is an int (not a bool) ``>= low``; else raise naming it.

    ``TypeError`` for a non-int (``True`` included), ``ValueError`` below ``low``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}: {value!r:.80}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value!r}")
    return value


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``; else raise naming it and them.

    ``TypeError`` for a non-str, ``ValueError`` for a str not among ``choices``.
    """
    listed = ", ".join(map(repr, choices))
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a str (one of {listed}), got {type(value).__name__}: {value!r:.80}"
        )
    if value not in choices:
        raise ValueError(f"{name}={value!r:.80} is not valid; choose one of {listed}")
    return value


def refuse_mapping(name: str, value: object, wanted: str) -> None:
    """``TypeError`` naming ``name`` if ``value`` is a mapping, where ``wanted``
    (``"a list of str"``) is expected: its keys would be taken and its values
    dropped without a word.  Shows the type only, never the content."""
    if isinstance(value, Mapping):
        raise TypeError(
            f"{name} must be {wanted}, got {type(value).__name__} (a mapping: its values "
            "would be dropped); pass list(...) of the items"
        )
