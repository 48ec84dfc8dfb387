"""``ChunkedValidator``: the base class of validators that stream without gaps.

Guardrails 0.11 hands a streaming validator one delta at a time and asks its
``_chunking_function`` for at most one segment per call; what remains is kept
on the validator instance (or, under ``AsyncGuard``, in a ContextVar).  A
:class:`ChunkedValidator` replaces that machinery with a
:class:`~guardrails_ai.chunkwise.chunkers.ChunkStream` per stream:

* every chunk a delta completes is validated in that same call, each one
  handed to :meth:`_validate` as the chunker defines it (a sentence without its
  whitespace, say), while the text released keeps its separators;
* the results of one call merge into one ``ValidationResult``;
* the withheld fragment is validated when Guardrails says the stream ended
  (``remainder=True``);
* streams never share state: under ``AsyncGuard`` the state is keyed by the
  stream's own ``contextvars.Context``; under ``Guard`` by the Guardrails
  iteration that drives the stream (found on the call stack), so threads,
  tasks, interleaved generators and consecutive calls stay apart;
* ``validate(value)`` chunks the whole value the same way, so a text validated
  at once and the same text streamed in any deltas get the same verdict and
  the same fixed output.

Subclasses implement ``_validate(value, metadata)`` for ONE chunk, returning
``PassResult`` or ``FailResult`` with ``error_spans`` relative to that chunk and
``fix_value`` the fixed chunk.  A ``FailResult`` without a string ``fix_value``
means "no programmatic fix": the chunk is dropped from the fixed output.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from contextvars import Context, ContextVar
from dataclasses import dataclass
from types import FrameType
from typing import Any, ClassVar

from guardrails.classes.history import Iteration
from guardrails.validator_base import Validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.chunkers import ChunkerSpec, ChunkStream, Piece, SplitFlush
from guardrails_ai.chunkwise.chunkers.base import ChunkingStrategy
from guardrails_ai.chunkwise.chunkers.registry import resolve_chunker

from .contract import chunking_function

__all__ = ["ChunkedValidator", "merge_results"]

#: The per-stream state of the stream whose chunk ``_validate`` is looking at.
_STATE: ContextVar[Any] = ContextVar("chunkwise_stream_state", default=None)
#: Runs of the streams of one ``contextvars.Context`` (no runner: direct calls).
_RUNS: ContextVar[dict[int, _Run] | None] = ContextVar("chunkwise_runs", default=None)

#: How many unfinished streams one validator remembers.  Guardrails' noop path
#: and AsyncGuard never signal the end of a stream: older runs are forgotten first.
_MAX_OPEN_RUNS = 256
#: How far up the call stack to look for the Guardrails iteration.
_MAX_FRAMES = 24


@dataclass
class _Run:
    """One stream through one validator."""

    stream: ChunkStream
    state: Any
    anchor: object  # keeps the object whose id keys this run alive


class ChunkedValidator(Validator):
    """Base class for validators whose chunking is a chunkwise strategy.

    ``chunker`` (instance, alias or any ``split``/``flush`` object) defaults to
    the class's ``default_chunker``.  Keyword arguments are forwarded to
    Guardrails' ``Validator.__init__``, so ``get_args()``/``to_prompt()`` show
    them (``chunker`` included when given).  Override ``new_stream_state`` for
    validators that remember earlier chunks of the same response; read it as
    ``self.stream_state`` inside ``_validate``.
    """

    default_chunker: ClassVar[ChunkerSpec] = "sentence"

    def __init__(self, *, chunker: ChunkerSpec | None = None, on_fail: Any = None, **kwargs: Any):
        if chunker is not None:
            kwargs["chunker"] = chunker
        super().__init__(on_fail=on_fail, **kwargs)
        self.chunker = self.default_chunker if chunker is None else chunker
        self._runs: OrderedDict[int, _Run] = OrderedDict()
        self._runs_lock = threading.Lock()

    # -- chunking -----------------------------------------------------------------

    @property
    def chunker(self) -> ChunkingStrategy | SplitFlush:
        """The resolved chunking strategy."""
        return self._chunker

    @chunker.setter
    def chunker(self, chunker: ChunkerSpec) -> None:
        self._chunker = resolve_chunker(chunker)
        self._chunk_fn = chunking_function(self._chunker)

    def _chunking_function(self, chunk: str) -> list[str]:
        return self._chunk_fn(chunk)

    # -- per-stream state ---------------------------------------------------------

    def new_stream_state(self) -> Any:
        """State for one response (override; default ``None``)."""
        return None

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
                f"got {result!r:.80}"
            )
        return result

    def validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        """Validate a whole value, chunk by chunk, as a stream of it would be."""
        if not isinstance(value, str):
            raise TypeError(f"value must be str, got {type(value).__name__}: {value!r:.80}")
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
        if not isinstance(chunk, str):
            raise TypeError(f"chunk must be str, got {type(chunk).__name__}: {chunk!r:.80}")
        run, forget = self._stream_run(kwargs)
        pieces = run.stream.feed(chunk)
        if kwargs.get("remainder"):
            pieces += run.stream.close()
            forget()
        if not pieces:
            return None
        return self._merge(pieces, metadata, run.state)

    def _merge(self, pieces: list[Piece], metadata: dict[str, Any], state: Any) -> ValidationResult:
        return merge_results(
            pieces, lambda chunk: self.validate_chunk(chunk, metadata, state), self
        )

    # -- finding the stream a call belongs to --------------------------------------

    def _stream_run(self, kwargs: dict[str, Any]) -> tuple[_Run, Callable[[], None]]:
        context = kwargs.get("context")
        anchor: object | None
        if isinstance(context, Context) and kwargs.get("context_vars") is not None:
            # AsyncGuard copies one Context per stream.  A ContextVar inside it
            # could hold a dict inherited from the caller's context and shared
            # by every stream copied from it, so the Context itself is the key.
            anchor = context
        else:
            anchor = _calling_iteration()
        if anchor is None:
            return self._context_run()
        key = id(anchor)
        with self._runs_lock:
            run = self._runs.get(key)
            if run is None:
                run = self._runs[key] = self._new_run(anchor)
                while len(self._runs) > _MAX_OPEN_RUNS:
                    self._runs.popitem(last=False)

        def forget() -> None:
            with self._runs_lock:
                self._runs.pop(key, None)

        return run, forget

    def _context_run(self) -> tuple[_Run, Callable[[], None]]:
        """The run of the current context (``validate_stream`` called directly)."""
        runs = _RUNS.get()
        if runs is None:
            runs = {}
            _RUNS.set(runs)
        key = id(self)
        run = runs.get(key)
        if run is None:
            run = runs[key] = self._new_run(self)
        def forget() -> None:
            runs.pop(key, None)

        return run, forget

    def _new_run(self, anchor: object) -> _Run:
        return _Run(ChunkStream(self._chunker), self.new_stream_state(), anchor)


def _calling_iteration() -> Iteration | None:
    """The Guardrails ``Iteration`` whose stream is calling us, if any.

    Guardrails' sync runner passes no stream identity to ``validate_stream``;
    the iteration object its validator service holds as a local variable
    (``SequentialValidatorService.run_validator(iteration, ...)``) is the one
    object that is both unique to a stream and alive for exactly its length.
    """
    frame: FrameType | None = sys._getframe(2)
    for _ in range(_MAX_FRAMES):
        if frame is None:
            return None
        if "iteration" in frame.f_code.co_varnames:
            candidate = frame.f_locals.get("iteration")
            if isinstance(candidate, Iteration):
                return candidate
        frame = frame.f_back
    return None


def merge_results(
    pieces: list[Piece],
    validate: Callable[[str], ValidationResult],
    validator: Validator,
) -> ValidationResult:
    """Validate each piece's chunk and merge the results into one.

    All pass: ``PassResult`` whose ``validated_chunk`` is the pieces' segments
    joined (the text exactly as received).  Any fail: ``FailResult`` whose
    ``error_spans`` locate each failing chunk's spans in that text, whose
    ``fix_value`` is the segments joined with each failing chunk replaced by its
    fix (dropped if it has none) and passing chunks by their ``value_override``
    where the validator asks for it, and whose ``error_message`` joins the
    messages.  Separator-only pieces are released as they are.
    """
    received: list[str] = []
    fixed: list[str] = []
    spans: list[ErrorSpan] = []
    messages: list[str] = []
    offset = 0
    for piece in pieces:
        received.append(piece.segment)
        if piece.chunk is None:
            fixed.append(piece.segment)
            offset += len(piece.segment)
            continue
        result = validate(piece.chunk)
        before, after = piece.before, piece.after
        if isinstance(result, FailResult):
            messages.append(result.error_message)
            fix = result.fix_value if isinstance(result.fix_value, str) else ""
            fixed.append(before + fix + after)
            base = offset + len(before)
            for span in result.error_spans or [
                ErrorSpan(start=0, end=len(piece.chunk), reason=result.error_message)
            ]:
                spans.append(
                    ErrorSpan(start=base + span.start, end=base + span.end, reason=span.reason)
                )
        else:
            value = piece.chunk
            override = getattr(result, "value_override", PassResult.ValueOverrideSentinel)
            sentinel = PassResult.ValueOverrideSentinel
            if validator.override_value_on_pass and override is not sentinel:
                value = str(override)
            fixed.append(before + value + after)
        offset += len(piece.segment)
    text = "".join(received)
    if messages:
        return FailResult(
            error_message="; ".join(messages),
            fix_value="".join(fixed),
            error_spans=spans,
            validated_chunk=text,
        )
    fixed_text = "".join(fixed)
    if fixed_text != text:
        return PassResult(validated_chunk=text, value_override=fixed_text)
    return PassResult(validated_chunk=text)
