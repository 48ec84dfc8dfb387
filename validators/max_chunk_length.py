"""``MaxChunkLength``: every chunk within a word and/or character budget."""

from __future__ import annotations

import re
from typing import Any

from guardrails.validator_base import register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.adapters import ChunkedValidator
from guardrails_ai.chunkwise.chunkers import ChunkerSpec
from guardrails_ai.chunkwise.chunkers.clusters import cluster_start

from ._args import check_on_fail, optional_positive_int, reject_unknown, sentence_chunker

__all__ = ["ELLIPSIS", "MaxChunkLength"]

#: Appended where a fix cut text off.
ELLIPSIS = "\u2026"
_WORD = re.compile(r"\S+")


@register_validator(name="chunkwise/max_chunk_length", data_type="string")
class MaxChunkLength(ChunkedValidator):
    """Fail on a chunk longer than ``max_words`` words or ``max_chars`` characters.

    **Key Properties**

    | Property                      | Description                                      |
    | ----------------------------- | ------------------------------------------------ |
    | Name for `format` attribute   | `chunkwise/max_chunk_length`                     |
    | Supported data types          | `string`                                         |
    | Programmatic fix              | Keeps the whole words within bounds, appends "…" |

    Words are runs of non-whitespace characters; characters are code points.
    A value of whitespace only (a response with no sentence at all, which a
    guard validates whole when it ends) passes: whitespace between chunks is
    never counted, and there is nothing a fix could keep.
    The fix keeps the longest run of whole words from the start of the chunk
    that, with ``"…"`` appended, is within both bounds; when even the first
    word does not fit ``max_chars``, it is cut inside that word, between
    grapheme clusters (never before an accent or inside an emoji sequence or
    a flag; a single cluster longer than the room is cut where the room ends).
    Why this fix:
    the start of a sentence usually carries its point, whole words stay
    readable, the ellipsis tells the reader text was removed, and the fixed
    chunk is itself within bounds (the ellipsis is counted), so validating the
    fix passes.  The error span is the part removed.

    **Chunk**: by default a sentence (``"paragraph"`` to bound paragraphs).

    Args:
        max_words: Most words a chunk may have (int >= 1, or ``None``).
        max_chars: Most characters a chunk may have (int >= 1, or ``None``).
            At least one of the two is required.
        chunker: Chunking strategy or alias (default ``"sentence"``).
            For text in another language, pass its sentence chunker, e.g.
            ``SentenceChunker(language="de")``, or ``language=``.
        language: A sentence chunker's language (``"de"``, ``"auto"``...; see
            ``SentenceChunker``): short for ``chunker=SentenceChunker(language=...)``.
        on_fail: Any Guardrails on-fail action.
    """

    def __init__(
        self,
        max_words: int | None = None,
        max_chars: int | None = None,
        *,
        chunker: ChunkerSpec | None = None,
        language: str | None = None,
        on_fail: Any = None,
        **kwargs: Any,
    ) -> None:
        reject_unknown(self, kwargs)
        check_on_fail(on_fail)
        chunker = sentence_chunker(language, chunker)
        words = optional_positive_int("max_words", max_words)
        chars = optional_positive_int("max_chars", max_chars)
        if words is None and chars is None:
            raise ValueError("give max_words or max_chars (or both); got neither")
        bounds = {k: v for k, v in (("max_words", words), ("max_chars", chars)) if v is not None}
        super().__init__(chunker=chunker, on_fail=on_fail, **bounds)
        self.max_words = words
        self.max_chars = chars

    def _cut(self, value: str) -> int:
        """Where the fix cuts ``value`` (the ellipsis follows)."""
        room = None if self.max_chars is None else self.max_chars - len(ELLIPSIS)
        cut = 0
        for count, word in enumerate(_WORD.finditer(value), 1):
            if (self.max_words is not None and count > self.max_words) or (
                room is not None and word.end() > room
            ):
                break
            cut = word.end()
        if cut == 0 and room is not None:
            cut = cluster_start(value, room)  # not even one word fits: cut inside it
        return cut

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        if value.isspace():  # (no chunker gives one: the blank response, validated whole)
            return PassResult()
        too_long = []
        words = len(value.split()) if self.max_words is not None else 0
        if self.max_words is not None and words > self.max_words:
            too_long.append(f"{words} words (at most {self.max_words})")
        if self.max_chars is not None and len(value) > self.max_chars:
            too_long.append(f"{len(value)} characters (at most {self.max_chars})")
        if not too_long:
            return PassResult()
        cut = self._cut(value)
        reason = "chunk too long: " + " and ".join(too_long)
        return FailResult(
            error_message=f"{reason}; the fix keeps the first {cut} characters",
            fix_value=value[:cut] + ELLIPSIS,
            error_spans=[ErrorSpan(start=cut, end=len(value), reason=reason)],
        )
