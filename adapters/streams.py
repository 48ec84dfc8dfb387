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
  by the caller's ``contextvars`` context (a context copied from it, such as
  an asyncio task's, starts its own streams; a direct ``await
  validator.async_validate_stream(...)`` is the awaiting task's, see
  :meth:`StreamRuns.async_validate_direct`).  A stream keyed by a context or
  an iteration is forgotten when that object is (Guardrails keeps the
  iterations of its last calls in ``guard.history``), however many are open at
  once; a direct stream lasts until ``remainder=True`` or until its
  validator is gone.  A stream ends too
  when a call raises (its chunker or a validation did): the next call starts
  a new stream, with nothing of the one that raised.  A copy
  (``copy.deepcopy``, pickle) of a ``StreamRuns`` starts with no open streams.

Both :class:`~guardrails_ai.chunkwise.adapters.ChunkedValidator` and
:func:`~guardrails_ai.chunkwise.adapters.with_chunker` (for validators this
package did not write) stream through it.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
import weakref
from collections.abc import Callable, Coroutine, MutableMapping
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

__all__ = ["StreamRuns", "chunker_of", "merge_results", "merge_verdicts", "streams_of"]

Chunker = ChunkingStrategy | SplitFlush
#: ``validate(chunk, metadata, state)``: one chunk's verdict.
Validate = Callable[[str, dict[str, Any], Any], ValidationResult]

#: Runs of the streams of one ``contextvars.Context`` (no runner: direct calls),
#: with the token of the ``set`` that made them this context's (see :func:`_direct_runs`).
_RUNS: ContextVar[_DirectRuns | None] = ContextVar("chunkwise_runs", default=None)
#: How far up the call stack to look for the Guardrails iteration.
_MAX_FRAMES = 24
#: Where ``streams_of`` keeps a validator's ``StreamRuns``.
_ATTRIBUTE = "_chunkwise_streams"
#: Code flags of frames that can be suspended and resumed from another caller
#: (generators, coroutines): the frames above them change between calls.
_SUSPENDABLE = 0x20 | 0x80 | 0x100 | 0x200


def _no_state() -> None:
    return None


@dataclass(slots=True)
class _Run:
    """One stream through one validator."""

    stream: ChunkStream
    state: Any
    #: The object whose id keys this run (``None``: a direct stream); the
    #: run is forgotten when it is, before its id can be reused.
    anchor: weakref.ref[object] | None


@dataclass(slots=True)
class _DirectRuns:
    """The direct streams of one ``contextvars.Context``, by ``StreamRuns``,
    held weakly: an unfinished stream goes with its validator's ``StreamRuns``."""

    token: Any
    runs: weakref.WeakKeyDictionary[StreamRuns, _Run]


def _direct_runs() -> weakref.WeakKeyDictionary[StreamRuns, _Run]:
    """The direct streams of the current context.

    A context copied from another (an asyncio task, ``copy_context().run``)
    sees the value its parent had set: a ``ContextVar`` cannot tell whose it
    is, but the token of the ``set`` can (``reset`` refuses a token made in
    another context).  So the value is re-set on each use, and a context
    that did not set it starts with none of its parent's streams.
    """
    found = _RUNS.get()
    if found is not None:
        try:
            _RUNS.reset(found.token)
        except ValueError:  # made in another context: the parent's streams
            found = None
    if found is None:
        found = _DirectRuns(None, weakref.WeakKeyDictionary())
    found.token = _RUNS.set(found)
    return found.runs


class _Callers(threading.local):
    """Per thread: the last caller found with no Guardrails iteration above it.

    A frame that is not a generator or coroutine keeps the same frames above
    it for as long as it runs, so while it keeps calling ``validate_stream``
    (a direct caller's loop) the answer of its first call's stack walk holds.
    The reference keeps the frame object alive, so no other frame can take
    its identity; it is dropped when a stream of the thread ends directly or
    another caller replaces it.
    """

    direct: FrameType | None = None


_CALLERS = _Callers()


class StreamRuns:
    """The open streams of one validator, each with its ``ChunkStream`` and state.

    Thread-safe; O(len(delta)) amortised per call plus the validation itself
    (the chunker's streaming cost, see ``ChunkStream``): finding the stream
    looks at most 24 frames up the call stack, and a direct caller's repeated
    calls from one loop look at none after the first.  An unfinished stream
    is remembered while the context or iteration that keys it lives (see the
    module docstring), whatever the number of streams open at once.
    """

    def __init__(self) -> None:
        self._runs: dict[int, _Run] = {}
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
        chunker: Chunker,
        validate: Validate | None = None,
        new_state: Callable[[], Any] = _no_state,
    ) -> ValidationResult | None:
        """The body of ``validator.validate_stream(chunk, metadata, **kwargs)``.

        Feeds ``chunk`` (a delta) to this stream's ``ChunkStream`` (a new
        stream starts with ``chunker`` and ``new_state()``) and validates each
        chunk it completes with ``validate(chunk, metadata, state)`` (default:
        ``validator.validate(chunk, metadata)``); with ``remainder=True`` the
        withheld fragment too, and the stream is forgotten.  Returns ``None``
        while no chunk is complete (nothing else is built then), else the
        merged result (see :func:`merge_verdicts`).  Raises ``TypeError`` if
        ``chunk`` is not a ``str`` (the stream goes on); whatever the chunker
        or a validation raises ends the stream, which is forgotten first.
        Must be called directly by the validator's ``validate_stream``: the
        stream is found from the frame that called that one.
        """
        _check_chunk(chunk)
        context = kwargs.get("context") if kwargs else None
        if (
            context is not None
            and isinstance(context, Context)
            and kwargs.get("context_vars") is not None
        ):
            # AsyncGuard copies one Context per stream.  A ContextVar inside it
            # could hold a dict inherited from the caller's context and shared
            # by every stream copied from it, so the Context itself is the key.
            anchor: object | None = context
        elif sys._getframe(2) is _CALLERS.direct:  # the caller of validator.validate_stream
            anchor = None
        else:
            anchor = _calling_iteration(sys._getframe(1))
        if anchor is None:
            runs, direct = self._direct_run(chunker, new_state)
            return self._advance(direct, runs, self, validator, chunk, metadata, kwargs, validate)
        key = id(anchor)
        with self._lock:
            run = self._runs.get(key)
            if run is None:
                ref = weakref.ref(anchor, _forgetter(self._runs, key))
                run = self._runs[key] = _Run(ChunkStream(chunker), new_state(), ref)
        return self._advance(run, self._runs, key, validator, chunk, metadata, kwargs, validate)

    def async_validate_direct(
        self,
        validator: Validator,
        chunk: Any,
        metadata: dict[str, Any],
        kwargs: dict[str, Any],
        chunker: Chunker,
        validate: Validate | None = None,
        new_state: Callable[[], Any] = _no_state,
    ) -> Coroutine[Any, Any, ValidationResult | None]:
        """:meth:`validate_stream` for a direct ``await validator.async_validate_stream(...)``.

        The stream is the direct stream of the caller's context, found now,
        when the call is made (not when the coroutine first runs: wrapped in
        a task of its own, such as Python 3.11's ``asyncio.wait_for`` makes, it
        would find a fresh context each time); only the chunking and the
        validations run in the loop's default executor, as Guardrails runs
        ``validate_stream`` (whose worker threads' contexts, shared by every
        task, must not key a stream).  Same arguments, result and errors as
        :meth:`validate_stream` (a ``TypeError`` at once); a call cancelled
        (a timeout) ends its stream too.
        """
        _check_chunk(chunk)
        runs, run = self._direct_run(chunker, new_state)
        step = functools.partial(
            self._advance, run, runs, self, validator, chunk, metadata, kwargs, validate
        )
        return self._in_executor(step, runs, run)

    def _direct_run(
        self, chunker: Chunker, new_state: Callable[[], Any]
    ) -> tuple[weakref.WeakKeyDictionary[StreamRuns, _Run], _Run]:
        """The current context's direct streams and this one's run in them
        (a new stream, with ``chunker`` and ``new_state()``, if none is open)."""
        runs = _direct_runs()
        run = runs.get(self)
        if run is None:
            run = runs[self] = _Run(ChunkStream(chunker), new_state(), None)
        return runs, run

    async def _in_executor(
        self,
        step: Callable[[], ValidationResult | None],
        runs: MutableMapping[Any, _Run],
        run: _Run,
    ) -> ValidationResult | None:
        try:
            return await asyncio.get_running_loop().run_in_executor(None, step)
        except BaseException:
            # Raised, or cancelled (a timeout) while the worker thread may
            # still feed this stream: it is over, the next call starts anew.
            self._end(runs, self, run)
            raise

    def _advance(
        self,
        run: _Run,
        runs: MutableMapping[Any, _Run],
        key: object,
        validator: Validator,
        chunk: str,
        metadata: dict[str, Any],
        kwargs: dict[str, Any],
        validate: Validate | None,
    ) -> ValidationResult | None:
        """Feed ``chunk`` to ``run`` (kept in ``runs`` under ``key``) and validate
        the chunks it completes; the run is forgotten when the stream ends
        (``remainder=True``) or when a call raises."""
        try:
            pieces = run.stream.feed(chunk)
            if kwargs and kwargs.get("remainder"):
                pieces += run.stream.close()
                self._end(runs, key, run)
            if not pieces:
                return None
            state = run.state
            verdicts: list[ValidationResult | None] = [
                None
                if piece.chunk is None
                else validator.validate(piece.chunk, metadata)
                if validate is None
                else validate(piece.chunk, metadata, state)
                for piece in pieces
            ]
            return merge_verdicts(pieces, verdicts, validator)
        except BaseException:
            # The stream is over: its chunker may have taken part of the delta
            # (a broken ChunkStream refuses every later call) and the chunks cut
            # before a validation raised were never validated.  Left in place,
            # its held text would open the next direct stream of this context.
            self._end(runs, key, run)
            raise

    def _end(self, runs: MutableMapping[Any, _Run], key: object, run: _Run) -> None:
        """Forget ``run``, kept in ``runs`` under ``key``: a direct stream's (its
        context's runs, keyed by this ``StreamRuns``, its caller forgotten too)
        or one keyed by its anchor's id.  A run that has already been replaced
        there (a worker thread ending a stream its awaiting task gave up) is
        not the one forgotten."""
        with self._lock:
            if runs.get(key) is run:
                del runs[key]
        if key is self:
            _CALLERS.direct = None


def _check_chunk(chunk: object) -> None:
    """Raise ``TypeError`` (naming the type, never the content) unless ``chunk`` is a ``str``."""
    if type(chunk) is not str and not isinstance(chunk, str):
        raise TypeError(f"chunk must be str, got {type(chunk).__name__}")


def _forgetter(runs: dict[int, _Run], key: int) -> Callable[[weakref.ref[object]], None]:
    """The callback that forgets the run keyed ``key`` when its anchor dies
    (a plain ``dict.pop``, atomic: it may run in any thread, inside a
    collection, while a lock is held)."""

    def forget(ref: weakref.ref[object]) -> None:
        run = runs.get(key)
        if run is not None and run.anchor is ref:
            runs.pop(key, None)

    return forget


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


def _calling_iteration(below: FrameType) -> Iteration | None:
    """The Guardrails ``Iteration`` whose stream is calling us, if any.

    ``below`` is the validator's ``validate_stream`` frame; the walk starts
    there and looks at most ``_MAX_FRAMES`` frames up.  Guardrails' sync
    runner passes no stream identity to ``validate_stream``; the iteration
    object its validator service holds as a local variable
    (``SequentialValidatorService.run_validator(iteration, ...)``) is the one
    object that is both unique to a stream and alive for exactly its length.
    When there is none, the caller (``below``'s caller) is remembered for its
    thread if it is an ordinary function frame (see :class:`_Callers`).
    """
    frame: FrameType | None = below
    for _ in range(_MAX_FRAMES):
        if frame is None:
            break
        if "iteration" in frame.f_code.co_varnames:
            candidate = frame.f_locals.get("iteration")
            if isinstance(candidate, Iteration):
                return candidate
        frame = frame.f_back
    caller = below.f_back
    if caller is not None and not caller.f_code.co_flags & _SUSPENDABLE:
        _CALLERS.direct = caller
    return None


def merge_results(
    pieces: list[Piece],
    validate: Callable[[str], ValidationResult],
    validator: Validator,
) -> ValidationResult:
    """Validate each piece's chunk with ``validate`` and merge the results into one.

    See :func:`merge_verdicts` for the merged result.
    """
    verdicts = [None if piece.chunk is None else validate(piece.chunk) for piece in pieces]
    return merge_verdicts(pieces, verdicts, validator)


def merge_verdicts(
    pieces: list[Piece],
    verdicts: list[ValidationResult | None],
    validator: Validator,
) -> ValidationResult:
    """Merge the verdicts on ``pieces`` (``None`` for a separator-only piece) into one.

    All pass: ``PassResult`` whose ``validated_chunk`` is the pieces' segments
    joined (the text exactly as received).  Any fail: ``FailResult`` whose
    ``error_spans`` locate each failing chunk's spans in that text, whose
    ``fix_value`` is the segments joined with each failing chunk replaced by its
    fix (dropped if it has none) and passing chunks by their ``value_override``
    where the validator asks for it, and whose ``error_message`` joins the
    messages.  Separator-only pieces are released as they are.
    """
    if (
        len(pieces) == 1
        and type(verdicts[0]) is PassResult
        and (
            verdicts[0].value_override is PassResult.ValueOverrideSentinel
            or not validator.override_value_on_pass
        )
    ):
        return PassResult(validated_chunk=pieces[0].segment)  # the usual case: one chunk passed
    received: list[str] = []
    fixed: list[str] = []
    spans: list[ErrorSpan] = []
    messages: list[str] = []
    offset = 0
    for piece, result in zip(pieces, verdicts, strict=True):
        received.append(piece.segment)
        if piece.chunk is None or result is None:
            fixed.append(piece.segment)
            offset += len(piece.segment)
            continue
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
