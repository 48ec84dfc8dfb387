"""The validation pipeline behind every validated path: validators in guard order, chunk by chunk.

Semantics (the same streamed and at once, for every slicing of the text):

* Validators run as a **pipeline** in the order the guard lists them, each on
  the text the one before it released, as Guardrails' sequential validator
  service runs them on a whole value.  Each stage chunks its own input with its
  validator's chunker (a ``ChunkedValidator``'s own, the strategy behind a
  ``with_chunker`` override, or the validator's ``_chunking_function`` made
  lossless by ``GuardrailsChunker``) and validates every chunk exactly once,
  the trailing fragment included.
* Per failing chunk, the stage's on_fail decides what it releases: ``fix`` /
  ``fix_reask`` the fix (no string fix: nothing), a custom callable what it
  returns (``None``: nothing, as ``filter``; Guardrails' ``Refrain()`` or
  ``Filter()``: as ``refrain`` or ``filter``), ``noop`` the chunk unchanged,
  ``filter`` nothing but the line breaks around it (:meth:`Stage.drop`),
  ``refrain`` and ``exception`` stop the pipeline (:class:`Stop`).
* A text that holds no chunk for a stage (empty, or whitespace only) is
  validated once, whole, when it ends (:meth:`Stage.pieces`).
* ``validation_passed`` is false once a failure is left in the output or ends
  it (``noop``, ``refrain``, ``exception``, a custom on_fail's ``None``, a
  fix with no string fix); a
  fix, a custom on_fail's string or a filtered chunk leaves valid text, as
  Guardrails counts a fix.  While the stream runs, a failure counts once its
  text has been released by the last stage (:func:`released_passed`).
* On a stop, what is released is a function of the text alone: every chunk the
  stopping stage completed before the failing one, with the whole whitespace
  run after them (a chunker may have put part of it in the failing chunk's
  segment, depending on the slicing), passed through the later stages as a
  complete text (they flush their fragments).
* So is what the earlier stages report (:func:`trim_to_stop`): how far they
  validated past the failing chunk depends on the slicing (given the whole
  text at once, the first stage validates all of it before the second one
  starts), so each forgets its failures and output beyond the text that
  reached the failing chunk's end.

The pipeline is sans-I/O (:func:`advance` yields each chunk to validate and
takes its verdict back), so the sync and async drivers (:func:`run`,
:func:`arun`) share it.  Its cost is the chunkers' streaming cost plus the
validations; each stage keeps what it released (for the history) and nothing
else but its chunker's pending fragment.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Generator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from guardrails.actions.filter import Filter
from guardrails.actions.refrain import Refrain
from guardrails.classes.validation.validator_logs import ValidatorLogs
from guardrails.errors import ValidationError
from guardrails.types.on_fail import OnFailAction
from guardrails.validator_base import Validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.chunkers import ChunkStream, Piece

from .chunked import ChunkedValidator
from .override import validator_id
from .streams import chunker_of

__all__ = [
    "CHUNK_START",
    "ON_TRIM",
    "Stage",
    "Stop",
    "TextBuffer",
    "Trimmed",
    "advance",
    "arun",
    "check_streamable",
    "run",
    "stages_for",
    "trim_to_release",
    "trim_to_stop",
]

_FIXED = (OnFailAction.FIX, OnFailAction.FIX_REASK)

#: While a validator validates a chunk for :func:`advance`: where the chunk
#: starts in that validator's input (the response as it reaches that stage),
#: so that a watcher of the validator's calls (the server's summaries) can
#: place its ``error_spans`` as the pipeline's own records do; else 0.
CHUNK_START: ContextVar[int] = ContextVar("chunkwise_chunk_start", default=0)


class Trimmed(NamedTuple):
    """What one stage forgot after a stop or an early end (:data:`ON_TRIM`): its failures and
    chunks from offset ``end`` of its input on, ``chunks`` chunks in all."""

    end: int
    chunks: int


#: Called by :func:`trim_to_stop` (when set) with, for each stage before the
#: stopping one, ``id(validator)`` and what that stage forgot (:class:`Trimmed`),
#: and by :func:`trim_to_release` likewise for every stage:
#: a watcher of the validators' calls (the server's summaries, the command's
#: tallies) forgets the same.  Set it before the stream starts (a copied
#: context shares the callable).
ON_TRIM: ContextVar[Callable[[dict[int, Trimmed]], None] | None] = ContextVar(
    "chunkwise_on_trim", default=None
)


class Stop(Exception):
    """A ``refrain`` or ``exception`` validator failed: the output ends.

    ``error`` is the ``ValidationError`` to raise (``None`` for refrain);
    ``before`` the rest of the whitespace before the failing chunk, which its
    stage (``stage``) releases; ``end`` the offset in that stage's input where
    the failing chunk's text ends, trailing whitespace aside (set by
    :meth:`Stage.apply`); ``released`` the text the pipeline releases
    before it ends (set by :func:`advance`).
    """

    def __init__(self, error: ValidationError | None, before: str, stage: Stage) -> None:
        super().__init__(error)
        self.error = error
        self.before = before
        self.stage = stage
        self.end = 0
        self.released = ""


class TextBuffer:
    """Text appended in small pieces, joined on demand: O(1) amortised per append.

    Small pieces are joined into blocks of about 4 KB as they come, so a
    stream of 4-character deltas costs a few bytes of overhead per character,
    not a Python object per delta.
    """

    _BLOCK = 4096

    def __init__(self) -> None:
        self._blocks: list[str] = []
        self._small: list[str] = []
        self._size = 0
        self._length = 0

    def __len__(self) -> int:
        return self._length

    def append(self, text: str) -> None:
        self._length += len(text)
        if len(text) >= self._BLOCK:
            self._flush()
            self._blocks.append(text)
            return
        self._small.append(text)
        self._size += len(text)
        if self._size >= self._BLOCK:
            self._flush()

    def _flush(self) -> None:
        if self._small:
            self._blocks.append("".join(self._small))
            self._small, self._size = [], 0

    def value(self) -> str:
        """The whole text (the blocks are merged into one)."""
        self._flush()
        if len(self._blocks) > 1:
            self._blocks = ["".join(self._blocks)]
        return self._blocks[0] if self._blocks else ""

    def truncate(self, size: int) -> None:
        """Keep the first ``size`` characters."""
        if size < self._length:
            self._blocks, self._small, self._size = [self.value()[:size]], [], 0
            self._length = size


def _line_breaks(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _after_line_breaks(text: str, count: int) -> int:
    """The offset in ``text`` after its first ``count`` line breaks (``\r\n``
    counts once); ``len(text)`` when it holds fewer."""
    i = 0
    for _ in range(count):
        j = min((k for k in (text.find("\n", i), text.find("\r", i)) if k >= 0), default=-1)
        if j < 0:
            return len(text)
        i = j + (2 if text.startswith("\r\n", j) else 1)
    return i


def check_streamable(validators: Sequence[Validator]) -> None:
    """Raise ``ValueError`` for a validator whose on_fail a pipeline cannot honour."""
    for validator in validators:
        if validator.on_fail_descriptor == OnFailAction.REASK:
            raise ValueError(
                f"{validator_id(validator)} has on_fail='reask', which streaming cannot "
                "honour; use fix, fix_reask, filter, refrain, noop or exception"
            )
        if validator.on_fail_descriptor == OnFailAction.CUSTOM and validator.on_fail_method is None:
            # (As a guard rebuilt from to_dict() carries it.  Guardrails raises
            # only once a chunk fails, mid-stream, after releasing text.)
            raise ValueError(
                f"{validator_id(validator)} has on_fail='custom' without its callable "
                "(a callable does not survive to_dict()); give on_fail the callable, "
                "or fix, fix_reask, filter, refrain, noop or exception"
            )


@dataclass(slots=True)
class _Failure:
    """One failing chunk: what the history says of it, and where its text went."""

    message: str
    spans: list[ErrorSpan]
    #: Offset in the stage's output where what it released of the chunk starts
    #: (its first character that is not whitespace); -1 until released.
    at: int = -1
    #: Left in the output or ending it (noop, refrain, exception, custom ``None``).
    unresolved: bool = False


class Stage:
    """One validator of the pipeline: its chunk stream, its verdicts, what it released."""

    def __init__(self, validator: Validator, metadata: dict[str, Any]) -> None:
        self.validator = validator
        self.metadata = metadata
        self.state: Any = None
        if isinstance(validator, ChunkedValidator):
            chunker: Any = validator.chunker
            self.state = validator.new_stream_state()
        else:
            chunker = chunker_of(validator)
        self.stream = ChunkStream(chunker)
        self.chunks_validated = 0
        self._received = 0
        #: Where the last validated chunk ends in this stage's input.
        self.done = 0
        #: Failures left in the output or ending it (noop, refrain, exception).
        self.unresolved = 0
        #: Of those, the ones in text the last stage has released
        #: (:func:`released_passed`), and how many failures were looked at.
        self.shown = 0
        self._seen = 0
        self.released = TextBuffer()
        self._failures: list[_Failure] = []
        #: For each validated chunk that a later stage may still stop in or
        #: the last one not release yet: where its release starts in the
        #: output, where the chunk ends in the input; ``_kept`` their count
        #: after the last pruning (:meth:`forget_before`).
        self._starts = array("q")
        self._ends = array("q")
        self._kept = 0
        self.metadata_out: dict[str, Any] | None = None
        self.refrained = False
        #: Line breaks ending the released text; ``None`` before anything was released.
        self._breaks: int | None = None
        #: Whether the released text ends with whitespace; with a ``\r``.
        self._spaced = False
        self._ends_cr = False
        #: After filtered chunks: the strongest whole whitespace run around
        #: them so far (``None``: no chunk dropped since the last text kept)
        #: with its strength (line breaks, length; measured once, as a run
        #: may be long), and the run after the last one, in parts as it arrives.
        self._gap: str | None = None
        self._gap_strength = (0, 0)
        self._run: list[str] = []

    # -- chunking and validating ----------------------------------------------------

    def pieces(self, text: str, final: bool, whole: bool = True) -> list[Piece]:
        """The pieces ``text`` completes (with ``final``, the rest too).

        A ``whole`` text that ends without a chunk (empty, or whitespace only)
        becomes one chunk, so that every validator sees it once: a validator
        that refuses blank answers is asked, as Guardrails asks it at once.
        """
        self._received += len(text)
        pieces = self.stream.feed(text) if text else []
        if not final:
            return pieces
        pieces += self.stream.close()
        if whole and not self.chunks_validated and all(p.chunk is None for p in pieces):
            blank = "".join(p.segment for p in pieces)
            start = self._received - len(blank)
            return [Piece(blank, blank, start, self._received, start, self._received, True)]
        return pieces

    def validate(self, chunk: str) -> ValidationResult:
        self.chunks_validated += 1
        if isinstance(self.validator, ChunkedValidator):
            return self.validator.validate_chunk(chunk, self.metadata, self.state)
        return self.validator.validate(chunk, self.metadata)

    async def async_validate(self, chunk: str) -> ValidationResult:
        if isinstance(self.validator, ChunkedValidator):
            return self.validate(chunk)
        self.chunks_validated += 1
        return await self.validator.async_validate(chunk, self.metadata)

    # -- releasing --------------------------------------------------------------------

    def keep(self, text: str) -> str:
        """Release ``text``; after a filtered chunk, bridge the gap it left (:meth:`drop`)."""
        if self._gap is not None:
            body = text.lstrip()
            self._run.append(text[: len(text) - len(body)])
            if not body:
                return ""
            text = self._bridge() + body
        return self._record(text)

    def drop(self, piece: Piece) -> str:
        """Filter ``piece``'s chunk: release only the rest of the whitespace before it.

        The whitespace run before the chunk is released whole (the chunker
        may have put part of it in ``piece.before``, depending on the
        slicing).  The whitespace between the text released before and the
        text kept after is that run, plus the line breaks by which the
        strongest whole run around the dropped chunks (most line breaks, then
        the longest) exceeds it: dropping a sentence never merges two
        paragraphs, dropping a paragraph never doubles a blank line.  At the
        start of the output nothing is bridged.
        """
        released = ""
        if self._gap is None:
            released = self.complete_run(piece)
            self._gap, self._gap_strength = "", (0, 0)
        else:
            self._widen_gap("".join(self._run) + piece.before)
        self._run = [piece.after]
        return released

    def _widen_gap(self, run: str) -> None:
        """Make ``run`` the gap if it is at least as strong (more line breaks, then longer)."""
        strength = (_line_breaks(run), len(run))
        if strength >= self._gap_strength:
            self._gap, self._gap_strength = run, strength

    def complete_run(self, piece: Piece) -> str:
        """Release the rest of the whitespace run before ``piece``'s chunk
        (``piece.before``), unless nothing was released yet: what precedes a
        chunk that is dropped or ends the output never depends on the slicing."""
        return self._record(piece.before) if self._breaks is not None else ""

    def finish(self) -> str:
        """At the end of the text: release the bridge a final filtered chunk left."""
        return self._record(self._bridge()) if self._gap is not None else ""

    def _bridge(self) -> str:
        self._widen_gap("".join(self._run))
        gap = self._gap or ""
        self._gap, self._run = None, []
        if self._breaks is None:
            return ""
        if not self._spaced:
            return gap
        if _line_breaks(gap) <= self._breaks:
            return ""
        # Only the line breaks the released text lacks, with what follows them.
        return gap[_after_line_breaks(gap, self._breaks) :]

    def _record(self, text: str) -> str:
        if text:
            self.released.append(text)
            body = text.rstrip()
            tail = _line_breaks(text[len(body) :])
            if not body:
                # (A "\r\n" released in two parts, as a slicing may cut it, is one break.)
                split = self._ends_cr and text[0] == "\n"
                tail += (self._breaks or 0) - split
            self._breaks = tail
            self._spaced = len(body) < len(text) or (not body and self._spaced)
            self._ends_cr = text[-1] == "\r"
        return text

    def apply(self, piece: Piece, result: ValidationResult) -> str:
        """Release what this stage lets through of ``piece`` given its verdict.

        ``filter`` drops the chunk (see :meth:`drop`).  Raises :class:`Stop`
        for ``refrain`` and ``exception``.  Notes where the release starts in
        the output, for :meth:`trim`; tells a ``ChunkedValidator`` what took
        the place of a chunk it failed (``after_failure``).
        """
        start = len(self.released)
        # Where the chunk's text ends, trailing whitespace aside (a chunker may
        # keep some, depending on the slicing).
        end = piece.chunk_start + len((piece.chunk or "").rstrip())
        try:
            text = self._let_through(piece, result)
        except Stop as stop:
            stop.end = end
            self._place(len(self.released), end)
            raise
        if isinstance(result, FailResult) and isinstance(self.validator, ChunkedValidator):
            self.validator.after_failure(self.state, text)
        self._place(start + len(text) - len(text.lstrip()), end)
        return text

    def _let_through(self, piece: Piece, result: ValidationResult | None) -> str:
        chunk = piece.chunk or ""
        if result is None:  # (Guardrails reads a validator's None as no failure)
            result = PassResult()
        if result.metadata is not None:
            self.metadata_out = result.metadata
        if not isinstance(result, FailResult):
            override = getattr(result, "value_override", PassResult.ValueOverrideSentinel)
            if (
                self.validator.override_value_on_pass
                and override is not PassResult.ValueOverrideSentinel
            ):
                return self.keep(piece.before + str(override) + piece.after)
            return self.keep(piece.segment)
        self._note_failure(piece, result)
        action = self.validator.on_fail_descriptor
        if action in _FIXED:
            if isinstance(result.fix_value, str):
                return self.keep(piece.before + result.fix_value + piece.after)
            # No fix to release (Guardrails' value becomes None): nothing of
            # the chunk is released, and the failure stands.
            self._leave_failure()
            return self.drop(piece)
        if action == OnFailAction.CUSTOM and self.validator.on_fail_method is not None:
            value = self.validator.on_fail_method(chunk, result)
            if value is None:
                # Guardrails' value becomes None (a handler that only logs, say):
                # nothing of the chunk is released, and the failure stands.
                self._leave_failure()
                return self.drop(piece)
            if isinstance(value, str):
                return self.keep(piece.before + value + piece.after)
            if isinstance(value, Refrain):
                action = OnFailAction.REFRAIN
            elif isinstance(value, Filter):
                action = OnFailAction.FILTER
            else:
                raise TypeError(
                    f"the on_fail callable of {validator_id(self.validator)} returned "
                    f"{type(value).__name__}; a streamed string needs a str, Refrain, "
                    "Filter or None"
                )
        if action == OnFailAction.FILTER:
            return self.drop(piece)
        self._leave_failure()
        if action == OnFailAction.NOOP:
            return self.keep(piece.segment)
        before = self.complete_run(piece) if self._gap is None else ""
        if action == OnFailAction.REFRAIN:
            self.refrained = True
            raise Stop(None, before, self)
        raise Stop(
            ValidationError(
                "Validation failed for field with errors: " + (result.error_message or "")
            ),
            before,
            self,
        )

    def _note_failure(self, piece: Piece, result: FailResult) -> None:
        message = result.error_message or ""
        base = piece.chunk_start
        spans = [
            ErrorSpan(start=base + span.start, end=base + span.end, reason=span.reason)
            for span in result.error_spans
            or [ErrorSpan(start=0, end=len(piece.chunk or ""), reason=message)]
        ]
        self._failures.append(_Failure(message, spans))

    def _leave_failure(self) -> None:
        self.unresolved += 1
        self._failures[-1].unresolved = True

    def _place(self, at: int, end: int) -> None:
        if self._failures and self._failures[-1].at < 0:
            self._failures[-1].at = at
        self._starts.append(at)
        self._ends.append(end)
        self.done = end

    # -- after a stop ---------------------------------------------------------------

    @property
    def failures(self) -> int:
        return len(self._failures)

    def forget_before(self, at: int) -> None:
        """Drop the records of releases before output offset ``at`` but the last:
        the text up to there has been released by the last stage, so no stop
        and no verdict looks before it (O(1) amortised)."""
        if len(self._starts) < 2 * self._kept + 64:
            return
        gone = max(bisect_left(self._starts, at) - 1, 0)
        del self._starts[:gone], self._ends[:gone]
        self._kept = len(self._starts)

    def trim(self, end: int) -> int:
        """Forget what this stage did from output offset ``end`` on: the next
        stage stopped on a chunk that ends there.  Returns
        :meth:`released_before` ``end``."""
        self._failures = [f for f in self._failures if 0 <= f.at < end]
        self.unresolved = sum(f.unresolved for f in self._failures)
        self.shown = self._seen = 0
        self.released.truncate(end)
        return self.released_before(end)

    def chunks_from(self, end: int) -> int:
        """How many chunks validated here have their release start at or after
        output offset ``end`` (:meth:`trim` forgets them)."""
        return len(self._starts) - bisect_left(self._starts, end)

    def released_before(self, end: int) -> int:
        """The offset in this stage's input where the last chunk whose release
        starts before output offset ``end`` ends (0 if none).  ``end`` must not
        be below the last :meth:`forget_before`."""
        last = bisect_left(self._starts, end)
        return self._ends[last - 1] if last else 0

    def show_before(self, end: int) -> None:
        """Count in :attr:`shown` the failures left in text that starts before
        output offset ``end``.  ``end`` never decreases: O(1) amortised."""
        failures = self._failures
        i = self._seen
        while i < len(failures) and 0 <= failures[i].at < end:
            self.shown += failures[i].unresolved
            i += 1
        self._seen = i

    # -- the history --------------------------------------------------------------------

    @property
    def output(self) -> str:
        """Everything this stage released so far."""
        return self.released.value()

    def log(self, received: str, start: datetime) -> ValidatorLogs:
        """One ``ValidatorLogs`` for this stage over the whole text, as at once.

        ``value_before_validation`` is ``received`` (the stage's input),
        ``value_after_validation`` what it released (``received`` itself when
        its failures were left as they were, ``Refrain()`` when it refrained).
        The result is a ``PassResult`` or one ``FailResult`` with every
        failure's message and error spans (offsets in ``received``).
        """
        validator = self.validator
        result: ValidationResult
        after: Any = self.output
        failures = self._failures
        if not failures:
            result = PassResult(validated_chunk=received)
        else:
            result = FailResult(
                error_message="; ".join(f.message for f in failures),
                fix_value=after if validator.on_fail_descriptor in _FIXED else None,
                error_spans=[span for f in failures for span in f.spans],
                validated_chunk=received,
            )
            if self.refrained:
                after = Refrain()
            elif validator.on_fail_descriptor in (OnFailAction.NOOP, OnFailAction.EXCEPTION):
                after = received
        logs = ValidatorLogs(
            validatorName=type(validator).__name__,
            registeredName=validator.rail_alias,
            valueBeforeValidation=received,
            valueAfterValidation=after,
            validationResult=result,
            propertyPath="$",
            instanceId=id(validator),
            startTime=start,
            endTime=datetime.now(),
        )
        return logs


def stages_for(validators: Sequence[Validator], metadata: dict[str, Any]) -> list[Stage]:
    """A fresh pipeline for one text or stream (checked with :func:`check_streamable`)."""
    check_streamable(validators)
    return [Stage(v, metadata) for v in validators]


Step = Generator[tuple[Stage, str], ValidationResult, str]


def advance(stages: Sequence[Stage], text: str, final: bool, whole: bool = True) -> Step:
    """Push ``text`` through every stage; yields each chunk to be validated.

    The caller sends back each verdict (synchronously or after an ``await``).
    Returns the text the last stage releases.  With ``final`` every stage
    flushes its fragment (and validates a blank text whole, unless ``whole``
    is false: the rest of a text a stop ended).  Raises :class:`Stop` (its
    ``released`` set) when a refrain/exception validator fails.
    """
    for index, stage in enumerate(stages):
        released: list[str] = []
        for piece in stage.pieces(text, final, whole):
            if piece.chunk is None:
                released.append(stage.keep(piece.segment))
                continue
            CHUNK_START.set(piece.chunk_start)
            result = yield stage, piece.chunk
            CHUNK_START.set(0)
            try:
                released.append(stage.apply(piece, result))
            except Stop as stop:
                rest = "".join(released) + stop.before
                stop.released = yield from advance(stages[index + 1 :], rest, True, False)
                raise
        if final:
            released.append(stage.finish())
        text = "".join(released)
    return text


def released_passed(stages: Sequence[Stage]) -> bool:
    """Whether the text the last stage has released so far holds no failure
    left in it (noop, a custom on_fail's ``None``).

    A failure counts once text of the last stage's output at or after the
    failing text's place has been released: mapped back stage by stage, the
    failing chunk starts before the end of the chunks released.  How far the
    earlier stages (or the last one, in chunks that release nothing) ran
    ahead depends on the slicing; what the last one released does not.  A
    failure whose text was dropped later (or released nothing: a custom
    on_fail's ``None``) counts once text after it is released, and every one
    in the last outcome.  Also forgets the records no later call needs.
    """
    passed = True
    # In the output of the stage at hand: the end of what the last one released.
    end = len(stages[-1].released) if stages else 0
    for stage in reversed(stages):
        stage.show_before(end)
        passed = passed and not stage.shown
        stage.forget_before(end)
        end = stage.released_before(end)
    return passed


def trim_to_release(stages: Sequence[Stage], released: int) -> int:
    """After a stream ended before its end (its reader stopped reading, or an
    error), make every stage forget what it did beyond the first ``released``
    characters of the last one's output, the text its reader was given (see
    :meth:`Stage.trim`; a failure counts as in :func:`released_passed`), so
    that the history says what the reader was given, whatever the slicing.
    Returns that end as an offset in the pipeline's input.
    """
    return _trim_back(stages, released)


def trim_to_stop(stages: Sequence[Stage], stop: Stop) -> int:
    """After ``stop``, make every stage before the stopping one forget what it
    did beyond the text that reached the end of the failing chunk (see
    :meth:`Stage.trim`), so that the history and ``validation_passed`` depend
    on the text alone.  Returns that end as an offset in the pipeline's input.
    Stages after the stopping one validated only what it released.
    """
    return _trim_back(stages[: stages.index(stop.stage)], stop.end)


def _trim_back(stages: Sequence[Stage], end: int) -> int:
    """Each of ``stages``, the last first, forgets what it did beyond ``end``
    (an offset in the last one's output, then in each one's input), and
    :data:`ON_TRIM` is told; returns the end in the first one's input."""
    ends: dict[int, Trimmed] = {}
    for stage in reversed(stages):
        chunks = stage.chunks_from(end)
        end = stage.trim(end)
        ends[id(stage.validator)] = Trimmed(end, chunks)
    on_trim = ON_TRIM.get()
    if on_trim is not None and ends:
        on_trim(ends)
    return end


def run(step: Step) -> str:
    """Drive :func:`advance` with each stage's sync ``validate``."""
    try:
        stage, chunk = next(step)
        while True:
            stage, chunk = step.send(stage.validate(chunk))
    except StopIteration as done:
        return str(done.value)


async def arun(step: Step) -> str:
    """Drive :func:`advance` awaiting each stage's ``async_validate``."""
    try:
        stage, chunk = next(step)
        while True:
            stage, chunk = step.send(await stage.async_validate(chunk))
    except StopIteration as done:
        return str(done.value)
