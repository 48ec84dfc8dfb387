"""Work counted in characters examined by regular expressions (never in seconds).

Shared by the cost tests (see ``test_stream_cost.py`` for the measure):
:class:`Work`, :class:`CountingPattern`, :func:`count_work` (route a
scanner's patterns through one ``Work``), :func:`stream_work` (stream a
text in deltas and read the work at given offsets) and :func:`python_calls`
(the Python function calls a callable makes).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
from _text import deltas

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy, ChunkStream, RescanScanner

__all__ = [
    "MAX_DOUBLING",
    "MAX_WORK_PER_CHAR",
    "CountingPattern",
    "Reads",
    "Work",
    "count_work",
    "inner_scanner",
    "python_calls",
    "stream_work",
]

#: Doubling the stream may cost at most this factor more.
MAX_DOUBLING = 2.3
#: Work per character streamed, at most: a bounded number of passes, whatever
#: the length.  (The accurate sentence scanner keeps 72 characters of
#: look-behind, rebuilt with each 4-character delta: about 20 per character.)
MAX_WORK_PER_CHAR = 32


class Work:
    """Work counted so far: see the module docstring."""

    __slots__ = ("calls", "examined", "longest", "max_window", "window")

    def __init__(self, examined: int = 0, window: int = 0, calls: int = 0) -> None:
        self.examined = examined
        self.window = window
        self.calls = calls
        self.longest = 0  # longest string seen during the current delta
        self.max_window = 0

    def end_delta(self) -> None:
        self.window += self.longest
        if self.longest > self.max_window:
            self.max_window = self.longest
        self.longest = 0

    @property
    def total(self) -> int:
        return self.examined + self.window

    def __repr__(self) -> str:
        return (
            f"Work(examined={self.examined}, window={self.window}, calls={self.calls}, "
            f"max_window={self.max_window})"
        )


def _counting(work: Work, method: Any) -> Any:
    def call(string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        n = len(string)
        work.calls += 1
        work.examined += (endpos if endpos < n else n) - pos
        if n > work.longest:
            work.longest = n
        return method(string, pos, endpos)

    return call


class Reads:
    """Characters read by patched functions: ``reads.patch(monkeypatch, owner,
    name, arg)`` makes ``owner.name`` add the length of its ``arg``-th
    positional argument (``1`` for a method's text) to ``reads.count``."""

    def __init__(self) -> None:
        self.count = 0

    def patch(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, arg: int = 0) -> None:
        real = getattr(owner, name)

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.count += len(args[arg])
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)


class CountingPattern:
    """Stands in for a compiled pattern; reports each call to ``work``."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self._pattern = pattern
        for name in ("search", "match", "fullmatch", "finditer", "findall"):
            setattr(self, name, _counting(work, getattr(pattern, name)))

    def __getattr__(self, name: str) -> Any:
        if name in ("split", "sub", "subn"):
            raise AssertionError(f"uncounted pattern method {name}: add it to CountingPattern")
        return getattr(self._pattern, name)


def count_work(monkeypatch: pytest.MonkeyPatch, scanner: Any) -> Work:
    """Route every pattern ``scanner`` (a scanner type, or a scanner) can reach
    through one :class:`Work`: those of its class and modules, and those a
    scanner holds itself (compiled per scanner, alone, in tuples, or as their
    bound ``search``/``match`` methods)."""
    return _route(monkeypatch, scanner, Work())


def _route(monkeypatch: pytest.MonkeyPatch, scanner: Any, work: Work) -> Work:
    scanner_type = scanner if isinstance(scanner, type) else type(scanner)
    owners: list[Any] = list(scanner_type.__mro__)
    owners += [sys.modules[c.__module__] for c in scanner_type.__mro__]
    for owner in owners:
        for name, value in list(vars(owner).items()):
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(owner, name, CountingPattern(value, work))
    if scanner is scanner_type:
        return work
    slots = [n for c in scanner_type.__mro__ for n in getattr(c, "__slots__", ())]
    for name in [*slots, *getattr(scanner, "__dict__", {})]:
        value = getattr(scanner, name, None)
        if isinstance(value, re.Pattern):
            setattr(scanner, name, CountingPattern(value, work))
        elif isinstance(value, tuple) and value and all(isinstance(v, re.Pattern) for v in value):
            setattr(scanner, name, tuple(CountingPattern(v, work) for v in value))
        elif isinstance(getattr(value, "__self__", None), re.Pattern):
            method = getattr(CountingPattern(value.__self__, work), value.__name__)
            setattr(scanner, name, method)
    # A scanner that wraps another (the sentence chunker's character-mapping
    # layer) or hands its cuts to one (its quotation layer): their patterns
    # count too.
    for layer in ("inner", "translated", "layer"):
        wrapped = getattr(scanner, layer, None)
        if wrapped is not None:
            _route(monkeypatch, wrapped, work)
    # A layer built later (the sentence scanner's quotation layer, at the
    # first mark found): the patterns of its type and module.
    later = getattr(scanner, "layer_on_mark", None)
    if isinstance(later, type):
        _route(monkeypatch, later, work)
    return work


def stream_work(
    monkeypatch: pytest.MonkeyPatch,
    chunker: ChunkingStrategy | Any,
    text: str,
    marks: tuple[int, ...],
    size: int = 4,
) -> list[Work]:
    """Stream ``text`` in ``size``-character deltas; the work done at each mark (chars)."""
    stream = ChunkStream(chunker)
    work = count_work(monkeypatch, inner_scanner(stream))
    readings = []
    pending = sorted(marks)
    position = 0
    for delta in deltas(text, size):
        stream.feed(delta)
        work.end_delta()
        position += len(delta)
        if pending and position >= pending[0]:
            reading = Work(work.examined, work.window, work.calls)
            reading.max_window = work.max_window
            readings.append(reading)
            pending.pop(0)
    stream.close()
    return readings


def inner_scanner(stream: ChunkStream) -> Any:
    """The scanner whose patterns do the work (a foreign object's own, if rescanned)."""
    scanner = stream._scanner
    if isinstance(scanner, RescanScanner):
        inner = scanner._strategy._inner  # the SplitFlushOnly wrapper below
        return inner.scanner()
    return scanner


def python_calls(function: Callable[[], object]) -> int:
    """Python function calls made while ``function`` runs (a count, not a time)."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        function()
    finally:
        sys.setprofile(None)
    return count
