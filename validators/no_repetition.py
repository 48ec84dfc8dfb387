"""``NoRepetition``: catch the loops LLMs fall into, per response."""

from __future__ import annotations

from collections import Counter
from typing import Any

from guardrails.validator_base import register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.adapters import ChunkedValidator
from guardrails_ai.chunkwise.chunkers import ChunkerSpec, ParagraphChunker
from guardrails_ai.chunkwise.chunkers.params import check_int

from ._args import check_on_fail, reject_unknown, sentence_chunker
from ._normalize import fold_text

__all__ = ["NoRepetition"]

#: Each ``unit=`` and the chunker it names (a paragraph ends at a blank line,
#: ``\r\n`` line breaks included).
UNITS: dict[str, ChunkerSpec] = {"sentence": "sentence", "paragraph": ParagraphChunker(crlf=True)}


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
    not count) and their whitespace runs collapsed:
    ``"I am   FINE."`` repeats ``"i am fine."``; punctuation counts
    (``"Fine."`` and ``"Fine!"`` differ).  Occurrences are counted per
    response: each stream, and each ``validate()`` call, starts from zero, and
    two responses streamed at once through one instance never see each other's
    text.  Dropped repeats still count; the fix removes the repeated unit
    only, so the whitespace around it stays (``"Yes. Yes. No."`` -> ``"Yes.  No."``).
    Memory: the folded text of the distinct chunks of the response.  Messages
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
        if language is not None and unit in (None, "sentence"):
            unit = None  # the sentence chunker of the language is the unit
            chunker = sentence_chunker(language, chunker)
        elif language is not None:
            raise ValueError(
                f"language={language!r:.40} applies to sentences; unit={unit!r:.40} is not one"
            )
        if unit is not None:
            if not isinstance(unit, str):
                raise TypeError(f"unit must be a str, got {type(unit).__name__}: {unit!r:.80}")
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
            self.chunker = UNITS[unit]
            self._kwargs.pop("chunker", None)  # (a with_chunker subclass's default)
        self.max_repeats = limit

    def record_chunker(self, chunker: ChunkerSpec) -> None:
        """As :meth:`ChunkedValidator.record_chunker`; the chunker replaces ``unit``."""
        self._kwargs.pop("unit", None)
        super().record_chunker(chunker)

    def new_stream_state(self) -> Counter[str]:
        """Occurrences so far of each folded unit of the response."""
        return Counter()

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        key = " ".join(fold_text(value).split())
        if not key:
            return PassResult()
        counts = self.stream_state
        if not isinstance(counts, Counter):  # called outside a response: nothing before it
            counts = Counter()
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
