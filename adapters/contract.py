"""Guardrails' ``_chunking_function`` contract, both ways.

Guardrails asks a validator's ``_chunking_function(text)`` for ``[]`` (need more
text) or ``[segment, remainder]``.  :func:`chunking_function` answers that
contract for any chunkwise strategy, losslessly (``segment + remainder ==
text``, the separator travelling with the segment).  :class:`GuardrailsChunker`
goes the other way: it turns any Guardrails-style chunking function, such as
Guardrails' default sentence splitter, into a :class:`ChunkingStrategy`, with
the whitespace that function drops put back where it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from guardrails.validator_base import Validator, split_sentence_word_tokenizers_jl_separator

from guardrails_ai.chunkwise.chunkers import ChunkerSpec, ChunkingStrategy, Cut, Scanner
from guardrails_ai.chunkwise.chunkers.params import described
from guardrails_ai.chunkwise.chunkers.registry import register_alias, resolve_chunker
from guardrails_ai.chunkwise.chunkers.stream import scanner_for

__all__ = ["ChunkingFunction", "GuardrailsChunker", "chunking_function"]

#: Guardrails' ``_chunking_function`` contract: ``text`` -> ``[]`` (no complete
#: segment yet) or ``[segment, remainder]`` with ``segment + remainder == text``.
ChunkingFunction = Callable[[str], list[str]]


def chunking_function(chunker: ChunkerSpec) -> ChunkingFunction:
    """Return a callable usable as a validator's ``_chunking_function``.

    It returns ``[]`` while ``text`` holds no complete chunk whose segment is
    final, else ``[segment, remainder]`` with ``segment + remainder == text``:
    the first chunk with any lead before it and the whole separator after it.
    A segment is final once no longer text can change it: for a chunker
    whose scanner says its last separator is over (word, paragraph, line,
    simple sentences once the next chunk has begun; a size limit's chunks at
    once, as their segments end with the chunk), else once a second chunk
    is complete (``"One. Two"`` gives ``[]``; ``"One. Two. Three"`` gives
    ``["One. ", "Two. Three"]``).  So an answer for a text stays the answer
    for every longer text, and what Guardrails validates never depends on
    how the stream was sliced.

    Guardrails asks again with the remainder alone, so the segments are the
    chunker's own chunks where chunking the rest on its own gives the chunks
    the whole text would: for every chunker without a size limit, and for a
    limited one while each unit fits.  After a size cut inside a unit, the
    rest is chunked as a text of its own: an open quotation or code fence is
    not known there, and a rest of whitespace may become a chunk.  Every
    segment still fits the ceiling.  ``with_chunker`` (and
    :class:`~guardrails_ai.chunkwise.adapters.ChunkedValidator`) validate the
    chunker's own chunks.  Costs O(len(text)) per call.  The function
    carries the resolved strategy as its ``chunker`` attribute.
    """
    strategy = resolve_chunker(chunker)
    foreign = not isinstance(strategy, ChunkingStrategy)

    def _chunking_function(text: str) -> list[str]:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        scanner = scanner_for(strategy)
        cuts = scanner.feed(text)
        if not cuts or (len(cuts) == 1 and not scanner.settled()):
            return []
        stop = cuts[0].stop
        if foreign:
            # Foreign chunkers may keep leading whitespace at the start of a
            # text: hand them a remainder that starts with content.
            stop = len(text) - len(text[stop:].lstrip())
        return [text[:stop], text[stop:]]

    _chunking_function.chunker = strategy  # type: ignore[attr-defined]
    _chunking_function.__qualname__ = f"chunking_function({strategy!r})"
    return _chunking_function


#: How much text a chunking function is shown past the end of the segment it
#: returns before that answer is taken.  Guardrails' default splitter reads at
#: most 251 characters past a sentence end, but for a bracket or quotation
#: holding no other bracket (no other rule of it looks further).
LOOKAHEAD = 320

#: Guardrails' default splitter answers ``[]`` for a text holding none of
#: these (its first test: a ``.``, ``!`` or ``?`` before whitespace or the end).
_DEFAULT_SPLITTER_ENDS = re.compile(r"[.!?]")


def _is_guardrails_default(function: ChunkingFunction) -> bool:
    """Whether ``function`` is Guardrails' default splitter, or a validator's
    ``_chunking_function`` that Guardrails' ``Validator`` defines as it."""
    return (
        function is split_sentence_word_tokenizers_jl_separator
        or getattr(function, "__func__", None) is Validator._chunking_function
    )


class _ChunkingFunctionScanner(Scanner):
    """Rescanning scanner over a Guardrails-style chunking function.

    Each ``feed`` asks the function about the pending text until it answers
    ``[]``.  The segment the function returns is located in the pending text
    by its non-whitespace content (the function may drop or rewrite
    whitespace: Guardrails' default turns ``"One. Two. Three"`` into
    ``["One.", "Two.Three"]``, and drops ``"\\r"``), the whitespace after it
    travels with it, and the function's own remainder is ignored in favour of
    the exact text.  A segment that is not found at the start of the text it
    was given raises ``ValueError``.

    The function is shown a window of the pending text, from the last cut on,
    that holds at least ``LOOKAHEAD`` characters past the segment it returns
    (else the window doubles, up to the whole pending text): a text holding k
    segments costs O(k * (segment + LOOKAHEAD)) calls' worth of characters,
    not O(k * len(text)); a delta that completes no segment costs
    O(len(pending)), as Guardrails itself pays, except with Guardrails'
    default splitter, which is not asked while the pending text holds no
    ``.``, ``!`` or ``?`` (it would answer ``[]``): a response without them
    (code, a list, Chinese or Japanese) costs O(len(delta)) a delta.  The
    answer is the one the whole pending text would give unless the function
    reads further than ``LOOKAHEAD`` past a segment's end (Guardrails'
    default: a bracket that closes further on), as it would have when
    streamed in small deltas.  Where that default reads the word after a
    sentence end (after a ``"\\r"`` alone, see :meth:`_reads_on`), the cut
    waits for that word; at the end of the text (:meth:`close`) it is taken.
    """

    def __init__(self, function: ChunkingFunction) -> None:
        self._function = function
        self._pending = ""
        self._base = 0
        self._ends = _DEFAULT_SPLITTER_ENDS if _is_guardrails_default(function) else None
        self._no_end = 0  # (the pending text holds no _ends before this offset)
        # Where a cut waits for the word after a bare "\r" (see _reads_on): the
        # sentence end's offset in the pending text, or -1.  Until other
        # whitespace comes or LOOKAHEAD characters follow it, the function is
        # not asked again (asking it at every delta cost O(LOOKAHEAD) a delta).
        self._waits_at = -1

    def feed(self, delta: str) -> list[Cut]:
        pending = self._pending + delta
        if (
            self._waits_at >= 0
            and len(pending) - self._waits_at < LOOKAHEAD
            and _OTHER_SPACE.search(delta) is None
        ):
            self._pending = pending
            return []
        return self._cuts(pending, final=False)

    def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
        # A cut that waited for the word after it (see _reads_on) is taken now.
        cuts = self._cuts(self._pending, final=True) if self._pending else []
        return cuts, self.finish()

    def _cuts(self, pending: str, final: bool) -> list[Cut]:
        """The cuts in ``pending`` (the text from the last cut on); ``final``:
        the text has ended, so no answer waits for more."""
        self._waits_at = -1
        if pending[:1].isspace():
            # Whitespace before the first chunk (a response that opens with a
            # line break) is its lead: no function is shown it, as no later
            # window starts with any (a line splitter would cut a segment with
            # no content there).  Only the start of a text can hold it.
            space = _SPACE.match(pending)
            lead = space.end() if space else 0  # (it always matches)
            self._base += lead
            self._no_end = max(self._no_end - lead, 0)
            pending = pending[lead:]
            if not pending:
                self._pending = ""
                return []
        if self._ends is not None:
            found = self._ends.search(pending, self._no_end)
            if found is None:
                self._no_end = len(pending)
                self._pending = pending
                return []
            self._no_end = found.start()
        cuts: list[Cut] = []
        pos = 0
        width = 2 * LOOKAHEAD
        while True:
            end = min(len(pending), pos + width)
            window = pending[pos:end]
            answer = self._function(window)
            if answer:
                span = self._span(answer, window)
                if end < len(pending) and span[1] + LOOKAHEAD > len(window):
                    answer = []  # read further before taking it
            if not answer:
                if end == len(pending):
                    break
                width *= 2
                continue
            start, stop = pos + span[0], pos + span[1]
            space = _SPACE.match(pending, stop)
            after = space.end() if space else stop  # (it always matches)
            if after == len(pending):
                break  # the whitespace after it may continue: wait until it has ended
            if not final and self._reads_on(pending, stop, after):
                self._waits_at = stop - pos
                break
            cuts.append(Cut(self._base + start, self._base + stop, self._base + after))
            pos = after
            width = 2 * LOOKAHEAD
        self._base += pos
        self._pending = pending[pos:]
        self._no_end = max(self._no_end - pos, 0)
        return cuts

    def _reads_on(self, pending: str, stop: int, after: int) -> bool:
        """Whether Guardrails' default splitter may still change its answer
        about a sentence ending at ``stop`` when more text comes.

        It drops every ``"\\r"`` before its rules run, so after a whitespace
        run of ``"\\r"`` alone the next word touches the sentence end and its
        rules read that word (a lowercase word of three letters or more, a
        conjunction or a preposition joins the two sentences: ``"Call
        now.\\rc"`` is cut after ``now.``, ``"Call now.\\rcall me. "`` is
        not).  The answer is taken once other whitespace follows that word,
        or ``LOOKAHEAD`` characters follow the sentence end.
        """
        if self._ends is None or pending[stop:after].strip("\r"):
            return False
        if len(pending) - stop >= LOOKAHEAD:
            return False
        return _OTHER_SPACE.search(pending, after) is None

    def _span(self, answer: object, text: str) -> tuple[int, int]:
        """Where the segment of ``answer`` lies in ``text``, or ``ValueError``."""
        if not isinstance(answer, list) or len(answer) != 2:
            raise ValueError(
                f"{self._function!r} returned a {described(answer)}; the contract is [] "
                "or [segment, remainder]"
            )
        span = _locate(answer[0], text) if isinstance(answer[0], str) else None
        if span is None:
            raise ValueError(
                f"{self._function!r} returned a segment ({described(answer[0])}) that is "
                "not at the start of the text it was given"
            )
        return span

    def finish(self) -> tuple[int, int] | None:
        content = self._pending.strip()
        if not content:
            return None
        start = self._base + self._pending.find(content)
        return (start, start + len(content))


_SPACE = re.compile(r"\s*")
#: Whitespace that Guardrails' default splitter keeps (it drops ``"\\r"``).
_OTHER_SPACE = re.compile(r"[^\S\r]")


def _locate(segment: str, text: str) -> tuple[int, int] | None:
    """The span of ``segment``'s content at the start of ``text``, or ``None``.

    Matched by non-whitespace characters only: Guardrails' default splitter
    rewrites whitespace inside the segments it returns (it drops every ``"\\r"``
    and turns some boundaries into an extra space: ``"U.S. ."`` comes back as
    ``"U.S.  ."``) but never any other character.  O(length of the span).
    """
    wanted = "".join(segment.split())
    if not wanted:
        return None
    start = i = len(text) - len(text.lstrip())
    for char in wanted:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text) or text[i] != char:
            return None
        i += 1
    return start, i


class GuardrailsChunker(ChunkingStrategy):
    """A Guardrails-style chunking function as a :class:`ChunkingStrategy`.

    ``function(text)`` must return ``[]`` or ``[segment, remainder]`` as a
    validator's ``_chunking_function`` does; a bound ``_chunking_function`` of
    any validator works.  Chunks are the segments it finds with surrounding
    whitespace stripped; ``flush`` returns the rest stripped, or ``[]`` (with,
    before it, a chunk that ends a sentence before a bare ``"\r"`` and waited
    for the word after it, which only the end completes).  The
    default is Guardrails' own sentence splitter
    (``split_sentence_word_tokenizers_jl_separator``), registered as the alias
    ``"guardrails"`` for side-by-side comparison.  Rescanning: O(n) per delta
    that completes no segment (see ``LOOKAHEAD`` for one that completes many),
    but none for Guardrails' default while the pending text holds no ``.``,
    ``!`` or ``?``.
    """

    alias = "guardrails"

    def __init__(
        self, function: ChunkingFunction = split_sentence_word_tokenizers_jl_separator
    ) -> None:
        if not callable(function):
            raise TypeError(f"function must be callable, got {function!r:.80}")
        self.function = function

    def _params(self) -> dict[str, object]:
        if self.function is split_sentence_word_tokenizers_jl_separator:
            return {}
        return {"function": self.function}

    def scanner(self) -> Scanner:
        return _ChunkingFunctionScanner(self.function)


register_alias("guardrails", GuardrailsChunker)
