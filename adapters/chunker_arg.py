"""A validator's chunker as Guardrails records it: written as a spec by ``Guard.to_dict()``.

Guardrails snapshots ``validator.get_args()`` in ``guard.use(...)`` and writes
that snapshot in ``Guard.to_dict()`` (pydantic's ``model_dump``); it rebuilds a
validator as ``validators_registry[id](on_fail=..., **kwargs)`` and, on every
call, keeps the instance whose ``get_args()`` equals the recorded kwargs
(``Guard._fill_validator_map``; pinned by ``tests/adapters/test_serialization.py``).
A :class:`ChunkerArg` is the ``chunker`` entry of those kwargs:

* ``model_dump`` writes it as the chunker's spec (``{"chunker": kind, ...}``,
  see :mod:`guardrails_ai.chunkwise.chunkers.specs`), so ``to_dict()`` is JSON
  data; an alias given as a string whose chunker has no spec is written as that
  alias; anything else raises ``SpecError`` at ``to_dict()`` time, naming the
  validator and what cannot be written;
* it is one mutable object shared by the validator and Guardrails' snapshot, so
  a chunker set after ``guard.use(...)`` is what ``to_dict()`` writes;
* it equals the spec, alias or chunker it stands for, so a rebuilt validator
  matches its recorded kwargs and is not built twice.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, PrivateAttr, model_serializer

from guardrails_ai.chunkwise.chunkers import ChunkerSpec, SpecError, spec_of
from guardrails_ai.chunkwise.chunkers.registry import resolve_chunker

__all__ = ["ChunkerArg"]


class ChunkerArg(BaseModel):
    """The ``chunker`` entry of a validator's ``get_args()`` (see the module docstring).

    ``given`` is the argument as the caller gave it (alias, spec, strategy or
    ``split``/``flush`` object), ``chunker`` its resolved strategy and
    ``owner`` the validator's name for error messages.
    """

    _given: Any = PrivateAttr()
    _chunker: Any = PrivateAttr()
    _owner: str = PrivateAttr()

    def __init__(self, given: ChunkerSpec, chunker: Any, owner: str) -> None:
        super().__init__()
        self._owner = owner
        self.set(given, chunker)

    def set(self, given: ChunkerSpec, chunker: Any) -> None:
        """Stand for another chunker from now on (in every snapshot that holds this)."""
        self._given = given.given if isinstance(given, ChunkerArg) else given
        self._chunker = chunker

    @property
    def given(self) -> ChunkerSpec:
        """The chunker argument as given."""
        return self._given  # type: ignore[no-any-return]

    @model_serializer
    def json_value(self) -> object:
        """The spec of the chunker (or the alias it was given as, if it has none)."""
        try:
            return spec_of(self._chunker)
        except SpecError as exc:
            if isinstance(self._given, str):
                return self._given
            raise SpecError(
                f"{self._owner}: Guard.to_dict() cannot write this validator's chunker "
                f"as JSON ({exc}); give it a chunkwise chunker, an alias or a spec"
            ) from None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChunkerArg):
            theirs = other._chunker
        elif other is self._given:
            return True
        else:
            try:
                theirs = resolve_chunker(other)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                return False
        return bool(theirs is self._chunker or theirs == self._chunker)

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return self._given if isinstance(self._given, str) else repr(self._chunker)

    def __repr__(self) -> str:
        return f"ChunkerArg({self._given!r:.120})"
