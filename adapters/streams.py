"""Exact streaming for one validator: a ``ChunkStream`` per stream, every chunk validated.

Guardrails 0.11 calls ``validator.validate_stream(delta, metadata, **kwargs)``
once per delta (the async runner through ``async_validate_stream``, which runs
``self.validate_stream`` in a worker thread) and its default implementation
asks the validator's ``_chunking_function`` for at most one segment per call,
re-chunking what remains from scratch.  :class:`StreamRuns` replaces that: it
keeps one :class:`~guardrails_ai.chunkwise.chunkers.ChunkStream` per stream,
so the validator sees exactly the chunks its chunker yields for the whole
text, however it was sliced:

* every chunk a delta completes is validated in that same call, and the
  results merge into one ``ValidationResult`` (:func:`merge_results`);
* the withheld fragment is validated when Guardrails says the stream ended
  (``remainder=True``); Guardrails' noop path and ``AsyncGuard`` never say so,
  and then the fragment is never validated on those paths;
* streams never share state: under ``AsyncGuard`` the state is keyed by the
  stream's own ``contextvars.Context``; under ``Guard`` by the Guardrails
  iteration that drives the stream (found on the call stack); called directly,
  by the caller's ``contextvars`` context.  A copy (``copy.deepcopy``, pickle)
  of a ``StreamRuns`` starts with no open streams.

Both :class:`~guardrails_ai.chunkwise.adapters.ChunkedValidator` and
:func:`~guardrails_ai.chunkwise.adapters.with_chunker` (for validators this
package did not write) stream through it.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from contextvars import Context, ContextVar
from dataclasses import dataclass
from types import FrameType
from typing import Any

from guardrails.classes.history import Iteration
from guardrails.validator_base import Validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.chunkers import ChunkStream, Piece, SplitFlush
from guardrails_ai.chunkwise.chunkers.base import ChunkingStrategy

from .contract import GuardrailsChunker

__all__ = ["StreamRuns", "chunker_of", "merge_results", "streams_of"]

Chunker = ChunkingStrategy | SplitFlush

#: Runs of the streams of one ``contextvars.Context`` (no runner: direct calls).
_RUNS: ContextVar[dict[int, _Run] | None] = ContextVar("chunkwise_runs", default=None)

#: How many unfinished streams one validator remembers.  Guardrails' noop path
#: and AsyncGuard never signal the end of a stream: older runs are forgotten first.
_MAX_OPEN_RUNS = 256
#: How far up the call stack to look for the Guardrails iteration.
_MAX_FRAMES = 24
#: Where ``streams_of`` keeps a validator's ``StreamRuns``.
_ATTRIBUTE = "_chunkwise_streams"


def _no_state() -> None:
    return None


@dataclass
class _Run:
    """One stream through one validator."""

    stream: ChunkStream
    state: Any
    anchor: object  # keeps the object whose id keys this run alive


class StreamRuns:
    """The open streams of one validator, each with its ``ChunkStream`` and state.

    Thread-safe; O(len(delta)) amortised per call plus the validation itself
    (the chunker's streaming cost, see ``ChunkStream``).  At most 256 unfinished
    streams are remembered per validator, the oldest forgotten first.
    """

    def __init__(self) -> None:
        self._runs: OrderedDict[int, _Run] = OrderedDict()
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[type[StreamRuns], tuple[()]]:
        # Copies (deepcopy, pickle) start empty: open streams belong to the original.
        return (StreamRuns, ())

    def validate_stream(
        self,
        validator: Validator,
        chunk: Any,
        metadata: dict[str, Any],
        kwargs: dict[str, Any],
        *,
        chunker: Chunker,
        validate: Callable[[str, Any], ValidationResult],
        new_state: Callable[[], Any] = _no_state,
    ) -> ValidationResult | None:
        """The body of ``validator.validate_stream(chunk, metadata, **kwargs)``.

        Feeds ``chunk`` (a delta) to this stream's ``ChunkStream`` (a new
        stream starts with ``chunker`` and ``new_state()``) and validates each
        chunk it completes with ``validate(chunk, state)``; with
        ``remainder=True`` the withheld fragment too, and the stream is
        forgotten.  Returns ``None`` while no chunk is complete, else the merged
        result (see :func:`merge_results`).  Raises ``TypeError`` if ``chunk``
        is not a ``str``.
        """
        if not isinstance(chunk, str):
            raise TypeError(f"chunk must be str, got {type(chunk).__name__}: {chunk!r:.80}")
        run, forget = self._run(kwargs, chunker, new_state)
        pieces = run.stream.feed(chunk)
        if kwargs.get("remainder"):
            pieces += run.stream.close()
            forget()
        if not pieces:
            return None
        return merge_results(pieces, lambda text: validate(text, run.state), validator)

    # -- finding the stream a call belongs to --------------------------------------

    def _run(
        self, kwargs: dict[str, Any], chunker: Chunker, new_state: Callable[[], Any]
    ) -> tuple[_Run, Callable[[], None]]:
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
            return self._context_run(chunker, new_state)
        key = id(anchor)
        with self._lock:
            run = self._runs.get(key)
            if run is None:
                run = self._runs[key] = _Run(ChunkStream(chunker), new_state(), anchor)
                while len(self._runs) > _MAX_OPEN_RUNS:
                    self._runs.popitem(last=False)

        def forget() -> None:
            with self._lock:
                self._runs.pop(key, None)

        return run, forget

    def _context_run(
        self, chunker: Chunker, new_state: Callable[[], Any]
    ) -> tuple[_Run, Callable[[], None]]:
        """The run of the current context (``validate_stream`` called directly)."""
        runs = _RUNS.get()
        if runs is None:
            runs = {}
            _RUNS.set(runs)
        key = id(self)
        run = runs.get(key)
        if run is None:
            run = runs[key] = _Run(ChunkStream(chunker), new_state(), self)

        def forget() -> None:
            runs.pop(key, None)

        return run, forget


def streams_of(validator: Validator) -> StreamRuns:
    """The :class:`StreamRuns` of ``validator``, created on first use.

    Kept in the instance's ``__dict__``, so copies of the validator get their
    own (empty) one and the class is never touched.
    """
    state = vars(validator)
    streams = state.get(_ATTRIBUTE)
    if streams is None:
        streams = state.setdefault(_ATTRIBUTE, StreamRuns())  # atomic: one wins
    return streams  # type: ignore[no-any-return]


def chunker_of(validator: Validator) -> Chunker:
    """The chunker behind ``validator._chunking_function``.

    The strategy a ``chunking_function`` (so a ``with_chunker`` override)
    carries as its ``chunker`` attribute; for any other function, the function
    itself made lossless by :class:`GuardrailsChunker`.
    """
    function = validator._chunking_function
    chunker = getattr(function, "chunker", None)
    return chunker if chunker is not None else GuardrailsChunker(function)


def _calling_iteration() -> Iteration | None:
    """The Guardrails ``Iteration`` whose stream is calling us, if any.

    Guardrails' sync runner passes no stream identity to ``validate_stream``;
    the iteration object its validator service holds as a local variable
    (``SequentialValidatorService.run_validator(iteration, ...)``) is the one
    object that is both unique to a stream and alive for exactly its length.
    """
    # Skip StreamRuns._run and StreamRuns.validate_stream.
    frame: FrameType | None = sys._getframe(3)
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
