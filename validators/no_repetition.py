"""``NoRepetition``: catch the loops LLMs fall into, per response."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from guardrails.validator_base import register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.adapters import ChunkedValidator
from guardrails_ai.chunkwise.chunkers import (
    ChunkerSpec,
    ChunkingStrategy,
    LineChunker,
    ParagraphChunker,
    SentenceChunker,
    SplitFlush,
)
from guardrails_ai.chunkwise.chunkers.markdown import Fence, closes_fence, opened_fence
from guardrails_ai.chunkwise.chunkers.params import check_int

from ._args import check_on_fail, reject_unknown, sentence_chunker
from ._fence_joins import FenceJoins
from ._normalize import fold
from ._windows import wrap_units

__all__ = ["NoRepetition"]

#: Each ``unit=`` and the chunker it names (a paragraph ends at a blank line,
#: ``\r\n`` line breaks included).
UNITS: dict[str, ChunkingStrategy] = {
    "sentence": SentenceChunker(),
    "paragraph": ParagraphChunker(crlf=True),
}
#: A list item's marker opening a folded unit (CommonMark: a bullet, or 1-9
#: digits and ``.`` or ``)``; the space after it).  Anchored, no nesting: linear.
_LIST_MARKER = re.compile(r"(?:[-*+\u2022]|[0-9]{1,9}[.)]) ")
#: A fence line (``FENCE_LINE`` of ``chunkers.markdown``, same groups), in a
#: block quote too: its ``>`` markers (``> ```py``, ``> > ~~~``) come first.
#: Possessive and anchored at a line start: linear.
_FENCE_LINE = re.compile(r"^(?:[ \t]*+>)*+([ \t]*+)(`{3,}+|~{3,}+)([^\n]*+)\n", re.MULTILINE)


@dataclass
class Seen:
    """One response's state: occurrences so far of each folded unit, and the
    fence of the code block open after the last unit (``None``: none)."""

    counts: Counter[str] = field(default_factory=Counter)
    fence: Fence | None = None

    def read_fences(self, unit: str) -> bool:
        """Follow the fence lines of ``unit``, the next unit; whether any of
        its lines is code (in a fenced block, or a fence line; in a block
        quote too).  O(len(unit))."""
        code = self.fence is not None
        for line in _FENCE_LINE.finditer(unit + "\n"):
            if self.fence is None:
                self.fence = opened_fence(line)
                code = code or self.fence is not None
            else:
                if closes_fence(self.fence, line):
                    self.fence = None
                code = True
        return code


@register_validator(name="chunkwise/no_repetition", data_type="string")
class NoRepetition(ChunkedValidator):
    """Fail when one sentence (or paragraph) comes back more than ``max_repeats`` times.

    **Key Properties**

    | Property                      | Description                                         |
    | ----------------------------- | --------------------------------------------------- |
    | Name for `format` attribute   | `chunkwise/no_repetition`                           |
    | Supported data types          | `string`                                            |
    | Programmatic fix              | Drops each occurrence after the first `max_repeats` |

    Two chunks are the same when they are equal once folded (as ``BannedPhrases``
    folds: case, width, accents, look-alike letters and invisible characters do
    not count; a blank letter such as U+2800 standing alone is read as the
    space it shows) and their whitespace runs collapsed:
    ``"I am   FINE."`` repeats ``"i am fine."``; punctuation counts
    (``"Fine."`` and ``"Fine!"`` differ), but a list item's marker does not
    (``"2. Use a cache."`` repeats ``"1. Use a cache."``, as ``"- Yes."``
    repeats ``"* Yes."``).  Occurrences are counted per
    response: each stream, and each ``validate()`` call, starts from zero, and
    two responses streamed at once through one instance never see each other's
    text.  Dropped repeats still count; the fix removes the repeated unit
    only, so the whitespace around it stays (``"Yes. Yes. No."`` -> ``"Yes.  No."``).
    Code is not compared: a unit with a line of a fenced code block in it (a
    fence line included; in a block quote too: ``> ```py``) is no unit, nor
    is a line of Markdown structure alone (a thematic break, ``---``; a
    table's delimiter row, ``|---|:-:|``; a setext heading's underline,
    ``===``; a block quote's ``>`` alone, or before one of those).
    Code repeats lines by design (a closing brace, ``return 0;``), and
    dropping one would change the program or leave the rest of the answer
    inside a code block.
    Memory: the folded text of the distinct chunks of the response (and the
    fence of the code block open).  Messages
    give the repeated unit's length and count, never its text.

    **Chunk**: the unit compared, ``unit="sentence"`` (default) or
    ``"paragraph"`` (ends at a blank line, ``\r\n`` line breaks included); or
    any ``chunker=`` instead, each of whose chunks is one unit.

    Args:
        max_repeats: How many times a unit may appear (int >= 1).
        unit: ``"sentence"`` or ``"paragraph"``; not together with ``chunker``.
        chunker: Chunking strategy or alias (default: the one ``unit`` names).
            For text in another language, pass its sentence chunker, e.g.
            ``SentenceChunker(language="de")``, or ``language=``.
        language: A sentence chunker's language (``"de"``, ``"auto"``...; see
            ``SentenceChunker``): with ``unit`` unset or ``"sentence"``, short for
            ``chunker=SentenceChunker(language=...)``.
        on_fail: Any Guardrails on-fail action.
    """

    def __init__(
        self,
        max_repeats: int = 1,
        unit: str | None = None,
        *,
        chunker: ChunkerSpec | None = None,
        language: str | None = None,
        on_fail: Any = None,
        **kwargs: Any,
    ) -> None:
        reject_unknown(self, kwargs)
        check_on_fail(on_fail)
        limit = check_int("max_repeats", max_repeats, 1)
        if unit is not None and not isinstance(unit, str):
            raise TypeError(f"unit must be a str, got {type(unit).__name__}: {unit!r:.80}")
        if language is not None and unit in (None, "sentence"):
            unit = None  # the sentence chunker of the language is the unit
            chunker = sentence_chunker(language, chunker)
        elif language is not None:
            raise ValueError(
                f"language={language!r:.40} applies to sentences; unit={unit!r:.40} is not one"
            )
        if unit is not None:
            if unit not in UNITS:
                raise ValueError(
                    f"unit={unit!r} is not a unit; choose one of {', '.join(map(repr, UNITS))}"
                )
            if chunker is not None:
                raise ValueError(
                    f"give unit={unit!r} or chunker={chunker!r}, not both: the unit is the chunk"
                )
            kwargs["unit"] = unit
        super().__init__(chunker=chunker, on_fail=on_fail, max_repeats=limit, **kwargs)
        if unit is not None:
            # (Recorded as unit= only, so get_args() rebuilds it.)
            self._use(UNITS[unit])
            self._kwargs.pop("chunker", None)  # (a with_chunker subclass's default)
        self.max_repeats = limit

    def _fit_chunker(
        self, strategy: ChunkingStrategy | SplitFlush
    ) -> ChunkingStrategy | SplitFlush:
        """``strategy`` with a chunk that a fence's marks follow on the same
        line joined with it (:class:`~._fence_joins.FenceJoins`: such marks
        open no code block); as it is when it cuts only at line breaks
        (paragraphs, lines), where every chunk begins a line."""
        if isinstance(strategy, (ParagraphChunker, LineChunker)):
            return strategy
        return wrap_units(strategy, FenceJoins)

    def record_chunker(self, chunker: ChunkerSpec) -> None:
        """As :meth:`ChunkedValidator.record_chunker`; the chunker replaces ``unit``."""
        self._kwargs.pop("unit", None)
        super().record_chunker(chunker)

    def new_stream_state(self) -> Seen:
        """What the response has shown so far."""
        return Seen()

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        seen_so_far = self.stream_state
        if not isinstance(seen_so_far, Seen):  # called outside a response: nothing before it
            seen_so_far = Seen()
        code = seen_so_far.read_fences(value)
        key = " ".join(fold(value, blanks_as_spaces=True, lower_first=True).text.split())
        if not key or code or _markdown_structure(value):
            return PassResult()
        marker = _LIST_MARKER.match(key)
        if marker is not None:
            key = key[marker.end() :]
        counts = seen_so_far.counts
        counts[key] += 1
        seen = counts[key]
        if seen <= self.max_repeats:
            return PassResult()
        reason = f"occurrence {seen} of a unit allowed {self.max_repeats} time(s)"
        return FailResult(
            error_message=f"Repeated text: {len(value)} characters, {reason}",
            fix_value="",
            error_spans=[ErrorSpan(start=0, end=len(value), reason=reason)],
        )


def _markdown_structure(unit: str) -> bool:
    """Whether ``unit`` is one line of Markdown structure and nothing else: a
    thematic break (three or more of one of ``*-_``), a setext heading's
    underline (``=`` only), a table's delimiter row (``|``, ``-`` and ``:``
    only), or a block quote's markers alone
    (``>``, the blank line between two quoted paragraphs) or before one of
    these.  Spaces and tabs around the marks do not count.  O(len(unit)),
    no pattern."""
    if "\n" in unit or "\r" in unit:
        return False
    line = unit.strip(" \t")
    rest = line.lstrip("> \t")
    if not rest:
        return bool(line)  # (a blank quoted line)
    if not rest.strip("="):
        return True  # (a setext heading's underline: no space inside)
    marks = rest.replace(" ", "").replace("\t", "")
    if len(marks) >= 3 and len(set(marks)) == 1 and marks[0] in "*-_":
        return True
    return "|" in marks and "-" in marks and not set(marks) - set("|-:")
