"""Sentence chunking: :class:`SentenceChunker`.

The accurate mode is rules as data, read by one decision function:

* :mod:`.marks`: the characters (terminators of every script, closers,
  openers, bullets);
* :mod:`.abbreviations` and :mod:`.languages`: the tables of each language
  (abbreviations by kind, sentence starters, months, ordinals,
  continuations, terminators typed as other characters);
* :mod:`.rules`: :meth:`.rules.SentenceRules._ends`, whether a candidate ends a
  sentence, from the text around it (its docstring lists every rule);
* :mod:`.fast_path`: the candidate searches, generated from the same tables,
  which also prove the common decisions;
* :mod:`.scanner`: the incremental scanner that finds candidates and asks
  the rules;
* :mod:`.quotes`: the quotation layer over the scanner, which joins a cut
  inside a quotation to the next chunk (its marks are data in :mod:`.marks`).

``CONTRIBUTING.md`` shows how to add a rule and a language, with a worked
example tested in ``tests/chunkers/test_sentence_one_source.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..base import ChunkingStrategy, Cut, Scanner
from ..params import check_choice
from ..scanning import RegexScanner
from .abbreviations import abbreviation_table
from .languages import AUTO, Language
from .languages import language as language_tables
from .marks import SIMPLE_CLOSERS
from .quotes import QUOTE_LEADS, QuotationLayer
from .scanner import ScannerSetup, SentenceScanner, scanner_setup

__all__ = ["SentenceChunker"]

#: Characters that may close a sentence after its terminator (simple mode).
CLOSERS = SIMPLE_CLOSERS


class _PunctuationScanner(RegexScanner):
    # A terminator, at most one closing quote or parenthesis, then whitespace.
    boundary = re.compile(f"[.!?][{re.escape(CLOSERS)}]?\\s")
    boundary_span = 3
    boundary_lookahead = 1
    separator = re.compile(r"\s*")


class SentenceChunker(ChunkingStrategy):
    """Split on sentence boundaries.

    ``mode="accurate"`` (the default) ends sentences where a reader would:
    abbreviations (``Dr.``, ``e.g.``, ``U.S.A.``, ``a.m.``), initials, decimals,
    versions, money, times, e-mail addresses and URLs, list markers, ellipses,
    quotations (a sentence end inside one ends no chunk: see :mod:`.quotes`)
    and parentheticals, ``?!`` runs, CJK terminators (``。`` and
    full-width ``!``/``?``/``.``, no whitespace needed), inline list items
    (``a) one b) two``), footnote numbers (``a week.4 Some``), blank lines, and
    single line breaks (each line is a chunk unless the break is a soft wrap
    before a lower-case word); the rules are listed in :mod:`.rules`.
    A sentence whose end depends on what follows (is the word after ``U.S.``
    ``It`` or ``Army``?) is withheld until that text arrives, so the chunks
    do not depend on how a stream is sliced.
    ``abbreviations`` (any iterable of strings, with or without the final
    period, such as ``{"Approx.", "Dept"}``) extends the built-in list; an added
    abbreviation ends a sentence only before a word that typically opens one
    (``The``, ``It``, ``However``...).  Cost: amortised O(len(delta)).

    ``language`` (accurate mode) picks the abbreviations, sentence starters and
    number rules of a language (see :mod:`.languages`): ``"auto"``
    (the default, safe for mixed text: English plus every other language's
    unambiguous abbreviations, and the terminators of every script), or one of
    ``am ar bg da de el en es fa fr hi hy it ja kk mr my nl pl pt ru sk ur zh``; for
    example ``language="de"`` keeps ``am 12. Juni`` and ``z. B. Wasser``
    whole, ``language="hy"`` ends sentences at ``:`` as at the Armenian full stop.

    ``quotes`` (accurate mode, default ``True``): a sentence end inside a
    quotation ends no chunk (see :mod:`.quotes`); ``quotes=False`` cuts at
    every sentence end inside one too, and costs less (about a third fewer
    instructions on dialogue-dense prose, whole and streamed: see
    ``benchmarks/sentence_cost.py``).

    ``mode="simple"`` follows mellea's documented ``SentenceChunker`` rule.
    A sentence ends at ``.``, ``!`` or ``?``, optionally followed by one closing
    quote (straight or curly) or ``)``, once whitespace follows.  Abbreviations
    such as ``Dr.`` end a sentence in this mode.

    In both modes the whitespace between sentences is not part of any chunk (it
    travels with the segment of the sentence before it), and a chunk never
    begins or ends with whitespace.  A fragment not yet known to be complete is
    withheld; ``flush`` returns it with surrounding whitespace stripped, or
    ``[]`` when only whitespace is left.
    """

    alias = "sentence"
    modes = ("accurate", "simple")

    def __init__(
        self,
        *,
        mode: str = "accurate",
        abbreviations: Iterable[str] | None = None,
        language: str = AUTO,
        quotes: bool = True,
    ) -> None:
        check_choice("mode", mode, self.modes)
        if type(quotes) is not bool:
            raise TypeError(
                f"quotes must be True or False, got {type(quotes).__name__}: {quotes!r:.80}"
            )
        if not quotes and mode != "accurate":
            raise ValueError(
                f"quotes=False applies to mode='accurate' only; mode={mode!r} has no quotation rule"
            )
        if abbreviations is not None and mode != "accurate":
            raise ValueError(
                f"abbreviations={abbreviations!r:.80} applies to mode='accurate' only; "
                f"mode={mode!r} ends a sentence at every period"
            )
        self._language = language_tables(language)
        if self._language.code != AUTO and mode != "accurate":
            raise ValueError(
                f"language={language!r:.80} applies to mode='accurate' only; "
                f"mode={mode!r} ends a sentence at every period"
            )
        self.mode = mode
        self.quotes = quotes
        self.language = self._language.code
        base = self._language.abbreviations
        self._table = abbreviation_table(abbreviations, base=base)
        self.abbreviations: frozenset[str] = (
            frozenset()
            if abbreviations is None
            else frozenset(w for w in self._table if w not in base)
        )

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {"mode": self.mode}
        if self.abbreviations:
            params["abbreviations"] = sorted(self.abbreviations)
        if self.language != AUTO:
            params["language"] = self.language
        if not self.quotes:
            params["quotes"] = False
        return params

    def scanner(self) -> Scanner:
        if self.mode == "simple":
            return _PunctuationScanner()
        lang = self._language
        source = SentenceScanner(self._shared_setup())
        if self.quotes:
            # (Built at the first quotation mark found, and attached then:
            # the scanner's cuts go through it from there on.)
            source.attach_on_mark(QuotationLayer)
        if lang.translate:
            return _Translated(source, lang.translate)
        return source

    def _shared_setup(self) -> ScannerSetup:
        """The scanners' setup of this configuration, built by the first
        scanner of any equal chunker (a chunker that never scans compiles
        nothing) and shared by all: a scanner, a chunker made per text or a
        guard rebuilt per request builds none (about 200 microseconds each
        time otherwise)."""
        key = (self.language, self.quotes, self.abbreviations)
        lang = self._language
        built = _SETUPS.get(key)
        if built is not None and built[0] is lang:
            return built[1]
        setup = scanner_setup(
            self._table,
            lang.starters,
            lang.ordinals,
            lang.continuations,
            QUOTE_LEADS if self.quotes else (),
            typed=lang.code == AUTO,
            compounds=lang.compounds,
            plain_words=lang.plain_words,
            foreign=lang.foreign,
        )
        if len(_SETUPS) >= _SETUPS_MAX:
            _SETUPS.clear()  # (a bound for added abbreviations that vary without end)
        _SETUPS[key] = (lang, setup)
        return setup


#: Scanner setups by configuration (language code, quotes, added
#: abbreviations), each with the tables it was built from: tables rebuilt
#: (a language changed in place, as ``tests/chunkers/test_sentence_one_source.py``
#: does) are other tables, whose setup is built again.
_SETUPS: dict[tuple[str, bool, frozenset[str]], tuple[Language, ScannerSetup]] = {}
_SETUPS_MAX = 64


class _Translated(Scanner):
    """A scanner fed its deltas with some characters mapped one to one onto
    others (``Language.translate``): the lengths, and so every offset, stay
    those of the original text."""

    __slots__ = ("_table", "translated")

    def __init__(self, inner: Scanner, table: Mapping[int, int]) -> None:
        self.translated = inner
        self._table = table

    def feed(self, delta: str) -> list[Cut]:
        return self.translated.feed(delta.translate(self._table))

    def finish(self) -> tuple[int, int] | None:
        return self.translated.finish()
