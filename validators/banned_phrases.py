"""``BannedPhrases``: whole-word phrase blocking that Unicode tricks do not fool."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from guardrails.types.on_fail import OnFailAction
from guardrails.validator_base import register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.adapters import ChunkedValidator
from guardrails_ai.chunkwise.chunkers import ChunkerSpec, SplitFlush, split_spans
from guardrails_ai.chunkwise.chunkers.base import ChunkingStrategy

from ._args import check_on_fail, reject_unknown, sentence_chunker, str_list
from ._phrase_cuts import phrase_safe
from ._phrase_joins import most_words, open_in_last_words, phrase_joined
from ._phrases import PhraseMatch, PhraseMatcher, fold_phrase, group_matches

__all__ = ["BannedPhrases"]


#: Text around a phrase when checking that a chunker keeps it whole.
_AROUND = (("", ""), ("", " and more."), ("So ", " More."))


@dataclass
class _Released:
    """Per response, under ``on_fail="filter"`` (or a custom one): the beginning of a phrase
    that the text released so far ends with (``""``: none), and where in it
    the last chunk was filtered (``None``: after none of it)."""

    open: str = ""
    drop: int | None = None


#: The on_fail actions that may drop a failing chunk (a custom one when it
#: returns ``Filter()`` or ``None``): the text around it is then joined.
_DROPPING = (OnFailAction.FILTER, OnFailAction.CUSTOM)


def _dropped(state: _Released) -> None:
    """Note that the chunk after the text released so far was dropped."""
    state.drop = len(state.open) if state.open else None


@register_validator(name="chunkwise/banned_phrases", data_type="string")
class BannedPhrases(ChunkedValidator):
    """Fail on any of ``phrases``, matched as whole words whatever their spelling.

    **Key Properties**

    | Property                      | Description                                         |
    | ----------------------------- | --------------------------------------------------- |
    | Name for `format` attribute   | `chunkwise/banned_phrases`                          |
    | Supported data types          | `string`                                            |
    | Programmatic fix              | Masks each match in place, same length, with `mask` |

    Matching is case-insensitive and whole-word: a phrase matches only where
    the characters on either side of it are not letters or digits (Markdown
    emphasis ``_free money_``, ``__free__ money`` and ``**free** money``,
    and inline code ``"`free` money"``, match; ``bad_x`` is one word),
    except next to a letter of a script written without spaces (Chinese,
    Japanese, Thai...), where any edge is one
    (``免费的钱`` in ``这是免费的钱。``).  Both the phrases and the text are folded
    first (see ``_normalize``: NFKD + casefold, accents and overlays such as
    strike-through U+0336 dropped, NFKC, Cyrillic/Greek/small-capital
    look-alikes mapped to the ASCII letter they imitate, ``\\u2019`` and
    other apostrophes to ``'``, zero-width and other
    invisible characters removed, the Arabic tatweel U+0640 too, blank
    letters such as U+3164 and U+2800
    too, which are also read as a space between words: ``bad\\u2800word``;
    HTML character references read as the character they stand for:
    ``&#102;ree``, ``fr&#x65;e``, ``free&nbsp;money``),
    so ``BAD`` in full-width letters (``\\uff22\\uff21\\uff24``),
    ``b\\u200bad`` (zero-width space), ``B\\u00adAD`` (soft hyphen),
    ``\\ufb01x`` (ligature), ``b\\u0430d`` (Cyrillic a) and ``b\\u0336ad``
    all match ``bad``/``fix``; between the words of a phrase, a run of
    whitespace matches, or one hyphen that joins them (``free-money``,
    ``FREE\u2011money``, ``free-\nmoney``; a hyphen between words in a phrase
    separates them too); a dash between spaces or ``--`` does not (it
    separates clauses, as ``;`` does).
    Matches are located in the original text: the fix masks exactly the
    characters that spelled the phrase (invisible ones inside it included)
    and leaves every other character as it was.  Overlapping phrases are all
    reported.  Messages and error spans name phrases by their index in
    ``phrases`` (``phrases[0]``), never by their text, which may be
    confidential.  Matching is one pass with one compiled trie-shaped pattern,
    built iteratively (phrases of any length): O(chunk length x longest
    phrase).

    **Chunk**: by default a sentence.  No chunk boundary falls inside a
    phrase, whatever the chunker (:mod:`._phrase_joins`): where a chunk ends
    with the beginning of a phrase (``FREE\\nMONEY``: a line break ends a
    sentence after a short line; ``stop. Now``; a word chunker's every
    word), it is cut before that beginning instead, which goes on into the
    next chunk.  A phrase that a size limit would still split (one longer
    than its window), as given, folded, title-cased or upper-cased, could
    never match and is rejected at construction.  Under a size limit
    (``limit("sentence", max_chars=...)`` or ``max_tokens=``), a sentence
    longer than the window is cut only where no phrase is, nor the beginning
    of one that the window ends in (:mod:`._phrase_cuts`: the limit's
    fallback chain is replaced); a size limit with a ``fallback=`` of its own
    is refused.  A spelling of a phrase that is itself longer than the window
    (padded with invisible characters, or many tokens a letter) is cut: its
    halves pass.

    Under ``on_fail="filter"``, or a custom on_fail that drops the chunk
    (returns ``Filter()`` or ``None``), a chunk that would complete a phrase
    with the text released before a dropped chunk (``get`` and ``free`` once
    the line between them is dropped) fails too: dropping never joins a phrase.

    Args:
        phrases: The phrases to block (non-empty strings).
        mask: The character a fix writes over each character of a match.
        chunker: Chunking strategy or alias (default ``"sentence"``).
            For text in another language, pass its sentence chunker, e.g.
            ``SentenceChunker(language="de")``, or ``language=``.
        language: A sentence chunker's language (``"de"``, ``"auto"``...; see
            ``SentenceChunker``): short for ``chunker=SentenceChunker(language=...)``.
        on_fail: Any Guardrails on-fail action.
    """

    def __init__(
        self,
        phrases: list[str],
        *,
        mask: str = "*",
        chunker: ChunkerSpec | None = None,
        language: str | None = None,
        on_fail: Any = None,
        **kwargs: Any,
    ) -> None:
        reject_unknown(self, kwargs)
        check_on_fail(on_fail)
        chunker = sentence_chunker(language, chunker)
        items = str_list("phrases", phrases, secret=True)
        if not isinstance(mask, str):
            raise TypeError(
                f"mask must be a str of one character, got {type(mask).__name__}: {mask!r:.80}"
            )
        if len(mask) != 1 or mask.isspace():
            raise ValueError(f"mask must be one non-space character, got {mask!r:.80}")
        for i, phrase in enumerate(items):
            if not fold_phrase(phrase):
                raise ValueError(f"phrases[{i}] has no visible characters")
        self.phrases = tuple(items)  # before the chunker: _fit_chunker reads them
        self._matcher = PhraseMatcher(items)
        super().__init__(chunker=chunker, on_fail=on_fail, phrases=items, mask=mask)
        self.mask = mask
        self._index = {phrase: i for i, phrase in reversed(list(enumerate(items)))}
        self._words = most_words(self._matcher)

    def _fit_chunker(
        self, strategy: ChunkingStrategy | SplitFlush
    ) -> ChunkingStrategy | SplitFlush:
        """``strategy``, a size limit's fallback made phrase-safe
        (:func:`~._phrase_cuts.phrase_safe`) and its chunks joined across a
        phrase
        (:func:`~._phrase_joins.phrase_joined`); refused if it still cuts a
        phrase in two, however it was given (``chunker=``, ``with_chunker``,
        the ``chunker`` setter)."""
        given = strategy
        strategy = phrase_joined(phrase_safe(strategy, self._matcher), self._matcher)
        for i, phrase in enumerate(self.phrases):
            self._check_whole(strategy, given, i, phrase)
        return strategy

    @staticmethod
    def _check_whole(
        strategy: ChunkingStrategy | SplitFlush, given: object, index: int, phrase: str
    ) -> None:
        # The message names the chunker as given, not this validator's wrappers.
        # Matching ignores case and compatibility forms but a chunker may not
        # (is "Now" after "stop." a new sentence?): try the likely spellings,
        # alone and with text around (a sentence chunker ends "U.S. It" only
        # once more text follows).
        folded = fold_phrase(phrase)
        for spelling in dict.fromkeys((phrase.strip(), folded, folded.title(), folded.upper())):
            for before, after in _AROUND:
                start, end = len(before), len(before) + len(spelling)
                spans = split_spans(strategy, before + spelling + after)
                pieces = sum(a < end and start < b for a, b in spans)
                if pieces > 1:
                    raise ValueError(
                        f"phrases[{index}] would be cut into {pieces} chunks by "
                        f"chunker={given!r:.200}, so it could never match; give the chunker "
                        "a size limit that holds it whole"
                    )

    def _names(self, phrases: Iterable[str]) -> str:
        """The phrases by position in ``phrases=`` (a phrase may be confidential)."""
        return ", ".join(f"phrases[{self._index[p]}]" for p in phrases)

    def new_stream_state(self) -> _Released:
        return _Released()

    def _filtered_joins(self, value: str, matches: list[PhraseMatch]) -> list[PhraseMatch]:
        """Under ``on_fail="filter"``: ``matches``, or when there are none,
        the phrases that ``value`` completes with the text released before it
        across a filtered chunk (as in ``value``, from its start).  Notes
        what this chunk leaves released."""
        state = self.stream_state
        if not isinstance(state, _Released) or self.on_fail_descriptor not in _DROPPING:
            return matches
        # The chunks filtered leave whitespace at most (the pipeline's
        # bridge), which any run matches as one space; a phrase counts only
        # if it runs across the place of one.
        held = state.open + " " + value if state.open else value
        offset = len(held) - len(value)
        if not matches and state.drop is not None:
            drop = state.drop
            matches = [
                PhraseMatch(0, m.end - offset, m.phrase)
                for m in self._matcher.find(held)
                if m.start < drop and m.end > offset
            ]
        if matches:
            if self.on_fail_descriptor == OnFailAction.FILTER:
                _dropped(state)  # (a custom on_fail's outcome comes in after_failure)
            return matches
        opened = open_in_last_words(self._matcher, held, self._words)
        if opened is None:
            state.open, state.drop = "", None
        else:
            state.open = held[opened:]
            state.drop = None if state.drop is None or state.drop <= opened else state.drop - opened
        return matches

    def after_failure(self, state: Any, released: str) -> None:
        """Under a custom on_fail: a chunk it dropped (``Filter()``, ``None``,
        only whitespace) leaves a gap no phrase may be completed across, as
        under ``filter``; text it put in the chunk's place ends any phrase."""
        if not isinstance(state, _Released) or self.on_fail_descriptor != OnFailAction.CUSTOM:
            return
        if released.strip():
            state.open, state.drop = "", None
        else:
            _dropped(state)

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        matches = self._filtered_joins(value, self._matcher.find(value))
        if not matches:
            return PassResult()
        fixed = list(value)
        spans = []
        for start, end, phrases in group_matches(matches):
            for i in range(start, end):
                if not fixed[i].isspace():
                    fixed[i] = self.mask
            reason = "banned phrase: " + self._names(phrases)
            spans.append(ErrorSpan(start=start, end=end, reason=reason))
        found = self._names(dict.fromkeys(m.phrase for m in matches))
        return FailResult(
            error_message=f"Text contains banned phrases: {found}",
            fix_value="".join(fixed),
            error_spans=spans,
        )
