"""The guard a worker streams through, rebuilt from a served guard's dict.

Kept apart from :mod:`~.route` (FastAPI, guardrails-api, LiteLLM) so that
``chunkwise serve`` can check a config's guards before any worker starts
without importing them.
"""

from __future__ import annotations

from typing import Any

from guardrails import AsyncGuard, Guard

__all__ = ["rebuilt"]


def rebuilt(found: Any) -> AsyncGuard[Any]:
    """An ``AsyncGuard`` rebuilt from ``found``'s dict (a ``Guard``'s ``to_dict()``),
    its history left behind: what each worker streams through.

    Raises what rebuilding raises: a validator whose ``__init__`` takes an
    argument it does not hand on to ``Validator.__init__`` is rebuilt without
    it (``to_dict()`` holds only what was handed on), a ``TypeError`` when the
    argument is required; ``ValueError`` if Guardrails builds nothing."""
    data = found.to_dict() if isinstance(found, Guard) else found.model_dump(exclude_none=True)
    data["history"] = []
    guard = AsyncGuard.from_dict(data)
    if guard is None:
        raise ValueError(f"guard {found.name!r} could not be rebuilt from its dict")
    return guard
