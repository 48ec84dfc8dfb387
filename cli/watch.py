"""Per-validator tallies for the command's summaries and exit status.

:func:`watch` wraps the method that chunkwise's pipeline calls once per
chunk on one validator instance (the instance only: its class and other
instances are untouched) so that every chunk it validates is counted, with its
verdict, whether a fix came with a failure, and the time spent.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Tally", "chunker_name", "forgetting_past_stops", "unfixed_message", "watch"]


@dataclass
class Tally:
    """What one validator did during one run."""

    name: str
    on_fail: str
    chunker: str
    chunks: int = 0
    seconds: list[float] = field(default_factory=list)  # one entry per chunk
    #: One entry per failure: where its chunk starts in the validator's input,
    #: and whether it was fixed (what a stop's trim needs: :meth:`forget_from`).
    failed_at: list[tuple[int, bool]] = field(default_factory=list)

    @property
    def failures(self) -> int:
        """Failing chunks."""
        return len(self.failed_at)

    @property
    def fixes(self) -> int:
        """Failures replaced by their fix (on_fail fix with a fix value)."""
        return sum(fixed for _, fixed in self.failed_at)

    def forget_from(self, end: int, chunks: int) -> None:
        """Forget what the pipeline forgot after a stop: the ``chunks`` chunks
        and the failures from offset ``end`` of the validator's input on,
        which the slicing decides whether it validated at all."""
        self.chunks -= chunks
        self.failed_at = [(at, fixed) for at, fixed in self.failed_at if at < end]

    @property
    def unfixed(self) -> int:
        """Failures whose text was not replaced by a fix."""
        return self.failures - self.fixes

    @property
    def micros_per_chunk(self) -> float:
        """Median time per chunk in µs (the first call may pay for set-up)."""
        return 1e6 * statistics.median(self.seconds) if self.seconds else 0.0


def chunker_name(strategy: object) -> str:
    """A short name: the alias that builds the chunker, with the limits of a
    ``Bounded``/``Grouped`` chunker.

    The alias is the registered one whose chunker equals ``strategy``
    (``sentence-simple``: a chunker's own ``alias`` names its kind only, and
    the simple sentence chunker's is ``sentence``); a chunker no alias builds
    (other parameters) is named by its ``repr``, one without an alias by its
    class.
    """
    alias = getattr(strategy, "alias", "")
    if alias:
        return _registered_as(strategy, str(alias)) or repr(strategy)
    inner = getattr(strategy, "inner", None)
    if inner is None:
        return type(strategy).__name__
    size, ceiling = getattr(strategy, "chunk_size", None), getattr(strategy, "max_chars", None)
    return chunker_name(inner) + (f" x{size}" if size else "") + (f" ≤{ceiling}" if ceiling else "")


def _registered_as(strategy: object, kind: str) -> str | None:
    """The alias (``kind`` tried first) whose chunker equals ``strategy``, if any."""
    from guardrails_ai.chunkwise.chunkers import aliases, resolve_chunker

    # (demo and guard, the commands that name chunkers, have gone offline)
    for name in (kind, *aliases()):
        try:
            if resolve_chunker(name) == strategy:
                return name
        except (ImportError, TypeError, ValueError):
            continue
    return None


def watch(validator: Any, on_fail: str, *, timed: bool = True) -> Tally:
    """Start counting ``validator``'s chunks; return the live tally.

    ``timed=False`` leaves ``Tally.seconds`` empty (it holds one entry per
    chunk otherwise, so it grows with the stream).
    """
    from guardrails_ai.chunkwise.adapters import ChunkedValidator  # (imports Guardrails)
    from guardrails_ai.chunkwise.adapters.override import validator_id
    from guardrails_ai.chunkwise.adapters.pipeline import CHUNK_START

    strategy = getattr(validator, "chunker", None)
    tally = Tally(
        name=validator_id(validator),
        on_fail=on_fail,
        chunker="guardrails default" if strategy is None else chunker_name(strategy),
    )
    # The method the pipeline calls once per chunk: a ChunkedValidator's
    # ``_validate`` (through ``validate_chunk``), any other validator's
    # ``validate`` (some hub validators override it, not ``_validate``).
    name = "_validate" if isinstance(validator, ChunkedValidator) else "validate"
    inner = getattr(validator, name)

    def counted(value: Any, metadata: dict[str, Any]) -> Any:
        if timed:
            began = time.perf_counter()
            try:
                result = inner(value, metadata)
            finally:
                tally.seconds.append(time.perf_counter() - began)
        else:
            result = inner(value, metadata)
        tally.chunks += 1
        if getattr(result, "outcome", "pass") == "fail":
            fixable = isinstance(getattr(result, "fix_value", None), str)
            fixed = fixable and tally.on_fail in ("fix", "fix_reask")
            tally.failed_at.append((CHUNK_START.get(), fixed))
        return result

    setattr(validator, name, counted)
    return tally


@contextmanager
def forgetting_past_stops(validators: Sequence[Any], tallies: Sequence[Tally]) -> Iterator[None]:
    """While streaming in this context, a ``refrain`` or ``exception`` stop
    makes each tally of an earlier validator forget what the pipeline forgot
    (:meth:`Tally.forget_from`): the verdicts past the text that stopped the
    stream, which depend on how it was sliced.  ``tallies[i]`` watches
    ``validators[i]``."""
    from guardrails_ai.chunkwise.adapters.pipeline import ON_TRIM, Trimmed

    by_id = {id(v): t for v, t in zip(validators, tallies, strict=True)}

    def forget(ends: dict[int, Trimmed]) -> None:
        for owner, trimmed in ends.items():
            if owner in by_id:
                by_id[owner].forget_from(trimmed.end, trimmed.chunks)

    token = ON_TRIM.set(forget)
    try:
        yield
    finally:
        ON_TRIM.reset(token)


#: What happened to a failing chunk's text, by on_fail action.
_FATE = {
    "noop": "released unchanged",
    "filter": "dropped from the output",
    "refrain": "the output was withheld",
    "fix": "released unchanged (no fix value)",
    "fix_reask": "released unchanged (no fix value)",
    "exception": "the output stopped before it",
}


def unfixed_message(tallies: list[Tally]) -> str | None:
    """One line saying which validators failed and what became of the text,
    or ``None`` when every failure was fixed (never quotes the text)."""
    failed = [t for t in tallies if t.unfixed]
    if not failed:
        return None
    parts = [
        f"{t.name} failed {t.unfixed} of {t.chunks} chunk{'s' if t.chunks != 1 else ''} "
        f"(on_fail={t.on_fail}: {_FATE.get(t.on_fail, 'not fixed')})"
        for t in failed
    ]
    return "validation failed: " + "; ".join(parts)
