"""``ChunkedValidator``: the base class of validators that stream without gaps.

Guardrails 0.11 hands a streaming validator one delta at a time and asks its
``_chunking_function`` for at most one segment per call; what remains is kept
on the validator instance (or, under ``AsyncGuard``, in a ContextVar).  A
:class:`ChunkedValidator` replaces that machinery with a
:class:`~guardrails_ai.chunkwise.chunkers.ChunkStream` per stream (kept by a
:class:`~guardrails_ai.chunkwise.adapters.streams.StreamRuns`, which
``with_chunker`` also gives validators this package did not write):

* every chunk a delta completes is validated in that same call, each one
  handed to :meth:`_validate` as the chunker defines it (a sentence without its
  whitespace, say), while the text released keeps its separators;
* the results of one call merge into one ``ValidationResult``;
* the withheld fragment is validated when Guardrails says the stream ended
  (``remainder=True``);
* streams never share state: under ``AsyncGuard`` the state is keyed by the
  stream's own ``contextvars.Context``; under ``Guard`` by the Guardrails
  iteration that drives the stream (found on the call stack), so threads,
  tasks, interleaved generators and consecutive calls stay apart, and a copy
  (``copy.deepcopy``) of the validator starts with no open streams;
* ``validate(value)`` chunks the whole value the same way, so a text validated
  at once and the same text streamed in any deltas get the same verdict and
  the same fixed output.

Subclasses implement ``_validate(value, metadata)`` for ONE chunk, returning
``PassResult`` or ``FailResult`` with ``error_spans`` relative to that chunk and
``fix_value`` the fixed chunk.  A ``FailResult`` without a string ``fix_value``
means "no programmatic fix": the chunk is dropped from the fixed output.
"""

from __future__ import annotations

from collections.abc import Coroutine
from contextvars import ContextVar
from typing import Any, ClassVar, TypeVar

from guardrails.validator_base import Validator, validators_registry
from guardrails_ai.types import FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.chunkers import (
    Bounded,
    ChunkerSpec,
    ChunkStream,
    Grouped,
    Piece,
    Sized,
    SplitFlush,
)
from guardrails_ai.chunkwise.chunkers.base import ChunkingStrategy
from guardrails_ai.chunkwise.chunkers.registry import resolve_chunker
from guardrails_ai.chunkwise.chunkers.specs import SpecError

from .chunker_arg import ChunkerArg
from .contract import chunking_function
from .streams import StreamRuns, merge_results

__all__ = ["ChunkedValidator", "OwnCuts", "OwnJoins", "merge_results", "without_own_joins"]

_C = TypeVar("_C")

#: The per-stream state of the stream whose chunk ``_validate`` is looking at.
_STATE: ContextVar[Any] = ContextVar("chunkwise_stream_state", default=None)


class OwnJoins(ChunkingStrategy):
    """A validator's own wrapper of the chunker it was given (``inner``), such
    as ``BannedPhrases``' joins across its phrases: tied to that validator,
    it has no spec.  A :class:`ChunkedValidator` given one (a chunker taken
    from another validator) records and wraps ``inner`` instead, so
    ``Guard.to_dict()`` can write it."""

    inner: ChunkingStrategy | SplitFlush

    def __init__(self, inner: ChunkingStrategy | SplitFlush) -> None:
        self.inner = inner

    def _params(self) -> dict[str, object]:
        return {"inner": self.inner}

    def spec(self) -> dict[str, object]:
        """Always ``SpecError``: write ``inner.spec()`` instead (the validator
        given that chunker joins it again)."""
        raise SpecError(
            f"chunker={self!r} is a validator's own join and has no spec of its own; "
            "write its inner chunker (chunker.inner.spec()): the validator joins it again"
        )


class OwnCuts(ChunkingStrategy):
    """A validator's own fallback level, such as ``BannedPhrases``' cuts where
    no phrase is: it replaced the default fallback chain of a size limit the
    validator was given (:func:`without_own_joins` puts that chain back)."""


def without_own_joins(chunker: _C) -> _C | ChunkingStrategy | SplitFlush:
    """``chunker`` as the validator that fitted it was given: the chunker an
    :class:`OwnJoins` wraps; a size limit (``Bounded``, ``Grouped`` with
    ``max_chars``, ``Sized``) with its inner chunker unwrapped likewise and a
    fallback chain of :class:`OwnCuts` back to the default one.  Anything
    else (a spec, an alias) as it is."""
    while isinstance(chunker, OwnJoins):
        chunker = chunker.inner  # type: ignore[assignment]
    limit: Bounded | Grouped | Sized
    if isinstance(chunker, Grouped) and isinstance(chunker.units, Bounded):
        limit, chain = chunker, chunker.units.fallback
    elif isinstance(chunker, (Bounded, Sized)):
        limit, chain = chunker, chunker.fallback
    else:
        return chunker
    inner = without_own_joins(limit.inner)
    if inner is limit.inner and not _own_chain(chain):
        return limit
    return limit.with_fallback(None if _own_chain(chain) else chain, inner=inner)


def _own_chain(chain: tuple[object, ...]) -> bool:
    """Whether ``chain`` is a validator's own (its levels all :class:`OwnCuts`)."""
    return bool(chain) and all(isinstance(level, OwnCuts) for level in chain)


#: The on-fail actions Guardrails knows by name (``OnFailAction``), lower case.
ON_FAIL_NAMES = ("exception", "fix", "filter", "refrain", "noop", "reask", "fix_reask", "custom")


def check_on_fail(value: object) -> None:
    """Refuse an ``on_fail`` Guardrails would not understand, naming it.

    Accepted as Guardrails accepts them: ``None``, an ``OnFailAction`` (a str
    enum), a name of one in any case, or a callable taking the value and the
    ``FailResult``.  Guardrails itself would take any other string for a
    callable and fail later with an unrelated ``TypeError``.
    """
    if value is None:
        return
    if isinstance(value, str):
        if value.lower() in ON_FAIL_NAMES:
            return
        raise ValueError(
            f"on_fail={value!r:.40} is not an on-fail action; "
            f"choose one of {', '.join(map(repr, ON_FAIL_NAMES))} or pass a callable"
        )
    if not callable(value):
        raise TypeError(
            f"on_fail must be an on-fail action name or a callable, "
            f"got {type(value).__name__}: {value!r:.40}"
        )


class ChunkedValidator(Validator):
    """Base class for validators whose chunking is a chunkwise strategy.

    ``chunker`` (instance, alias, spec dict or any ``split``/``flush`` object)
    defaults to the class's ``default_chunker``; ``on_fail`` is checked here
    (:func:`check_on_fail`: ``ValueError``/``TypeError`` naming it, at
    construction rather than at the first failure).  Keyword arguments are
    forwarded to Guardrails' ``Validator.__init__``, so ``get_args()``/
    ``to_prompt()`` show them.  ``chunker`` is among them when given, or when
    the class's default differs from that of the class registered under its
    ``rail_alias`` (a ``with_chunker`` subclass), as a
    :class:`~.chunker_arg.ChunkerArg`: ``Guard.to_dict()`` writes it as the
    chunker's spec, and ``Guard.from_dict`` rebuilds the same chunker.
    Override ``new_stream_state`` for validators that remember earlier chunks
    of the same response; read it as ``self.stream_state`` inside ``_validate``.
    """

    default_chunker: ClassVar[ChunkerSpec] = "sentence"

    def __init__(self, *, chunker: ChunkerSpec | None = None, on_fail: Any = None, **kwargs: Any):
        check_on_fail(on_fail)
        if isinstance(chunker, ChunkerArg):
            chunker = chunker.given
        given = without_own_joins(self.default_chunker if chunker is None else chunker)
        strategy = resolve_chunker(given)
        record = chunker is not None or _default_differs(type(self))
        if record:
            kwargs["chunker"] = ChunkerArg(given, strategy, type(self).__name__)
        super().__init__(on_fail=on_fail, **kwargs)
        self._use(strategy)
        self._streams = StreamRuns()

    # -- chunking -----------------------------------------------------------------

    @property
    def chunker(self) -> ChunkingStrategy | SplitFlush:
        """The resolved chunking strategy.

        Setting it is :meth:`record_chunker`: the validator chunks with the
        new chunker and ``Guard.to_dict()`` writes it.
        """
        return self._chunker

    @chunker.setter
    def chunker(self, chunker: ChunkerSpec) -> None:
        self.record_chunker(chunker)

    def record_chunker(self, chunker: ChunkerSpec) -> None:
        """Chunk with ``chunker`` and record it in ``get_args()`` (for ``Guard.to_dict()``).

        What ``with_chunker`` does to an instance, and what setting
        :attr:`chunker` does.  The recorded entry is one object that
        Guardrails' snapshot (taken in ``guard.use(...)``) shares, so a chunker
        recorded after ``use`` is written by ``to_dict()`` too, if the
        validator recorded one before (given ``chunker=``); otherwise call this
        before ``use``.
        """
        chunker = without_own_joins(chunker)
        strategy = resolve_chunker(chunker)
        self._use(strategy)  # (first: a chunker it refuses is not recorded)
        entry = self._kwargs.get("chunker")
        if isinstance(entry, ChunkerArg):
            entry.set(chunker, strategy)
        else:
            self._kwargs["chunker"] = ChunkerArg(chunker, strategy, type(self).__name__)

    def _use(self, strategy: ChunkingStrategy | SplitFlush) -> None:
        strategy = self._fit_chunker(strategy)
        self._chunker = strategy
        self._chunk_fn = chunking_function(strategy)

    def _fit_chunker(
        self, strategy: ChunkingStrategy | SplitFlush
    ) -> ChunkingStrategy | SplitFlush:
        """The strategy to chunk with when given ``strategy`` (override: adapt
        it, or refuse it with ``ValueError`` naming ``chunker=``).  Every way
        of setting a chunker passes here: the constructor (a default included),
        the ``chunker`` setter and ``with_chunker`` (instance or subclass).
        Default: ``strategy`` as it is."""
        return strategy

    def _chunking_function(self, chunk: str) -> list[str]:
        return self._chunk_fn(chunk)

    # -- per-stream state ---------------------------------------------------------

    def new_stream_state(self) -> Any:
        """State for one response (override; default ``None``)."""
        return None

    def after_failure(self, state: Any, released: str) -> None:
        """Told by the validation pipeline what took the place of a chunk this
        validator failed: ``released`` is the text it released for it, only
        whitespace (or nothing) when the chunk was dropped (``filter``, a
        custom on_fail that returned ``Filter()`` or ``None``, a fix with no
        string).  ``state`` is the stream's :meth:`new_stream_state`.  Not
        called when the failure stops the stream, nor by :meth:`validate`.
        Override to keep ``state`` in step with the text released; default:
        nothing."""

    @property
    def stream_state(self) -> Any:
        """The state of the response being validated, inside ``_validate``."""
        return _STATE.get()

    # -- validation -----------------------------------------------------------------

    def validate_chunk(
        self, chunk: str, metadata: dict[str, Any], state: Any = None
    ) -> ValidationResult:
        """Run ``_validate`` on one chunk with ``state`` as ``stream_state``."""
        token = _STATE.set(state)
        try:
            result = self._validate(chunk, metadata)
        finally:
            _STATE.reset(token)
        if not isinstance(result, (PassResult, FailResult)):
            raise TypeError(
                f"{type(self).__name__}._validate must return PassResult or FailResult, "
                f"got {type(result).__name__}"
            )
        return result

    def validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        """Validate a whole value, chunk by chunk, as a stream of it would be."""
        if not isinstance(value, str):
            raise TypeError(f"value must be str, got {type(value).__name__}")
        stream = ChunkStream(self._chunker)
        pieces = stream.feed(value) + stream.close()
        state = self.new_stream_state()
        return self._merge(pieces, metadata, state)

    def validate_stream(
        self, chunk: Any, metadata: dict[str, Any], **kwargs: Any
    ) -> ValidationResult | None:
        """Validate every chunk that ``chunk`` (a delta) completes.

        Returns ``None`` while no chunk is complete.  With ``remainder=True``
        the stream ends: the withheld fragment is validated too.
        """
        return self._streams.validate_stream(
            self, chunk, metadata, kwargs, self._chunker, self.validate_chunk, self.new_stream_state
        )

    def async_validate_stream(
        self, chunk: Any, metadata: dict[str, Any], **kwargs: Any
    ) -> Coroutine[Any, Any, ValidationResult | None]:
        """:meth:`validate_stream`, awaited: the work runs in the loop's default executor.

        Under ``AsyncGuard`` (Guardrails passes the stream's ``context``) as
        Guardrails runs it.  Called directly, the stream is the caller's
        context's, as a direct ``validate_stream`` call's is, found when the
        call is made: concurrent tasks never share one (Guardrails' default
        ran ``validate_stream`` in a worker thread, whose context every task
        shared).
        """
        if kwargs.get("context") is not None:
            return super().async_validate_stream(chunk, metadata, **kwargs)
        return self._streams.async_validate_direct(
            self, chunk, metadata, kwargs, self._chunker, self.validate_chunk, self.new_stream_state
        )

    def _merge(self, pieces: list[Piece], metadata: dict[str, Any], state: Any) -> ValidationResult:
        return merge_results(
            pieces, lambda chunk: self.validate_chunk(chunk, metadata, state), self
        )


def _default_differs(cls: type[ChunkedValidator]) -> bool:
    """Whether ``cls`` chunks by default unlike the class registered under its alias.

    Such a class (a ``with_chunker`` subclass, a subclass that sets
    ``default_chunker``) is rebuilt by ``Guard.from_dict`` as the registered
    class: its chunker must be recorded in ``get_args()`` to survive.
    """
    registered = validators_registry.get(cls.rail_alias)
    return (
        registered is not None
        and registered is not cls
        and getattr(registered, "default_chunker", None) is not cls.default_chunker
    )
