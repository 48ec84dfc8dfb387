"""The accurate sentence scanner checked against its own rules.

:func:`rules_only_in` makes new scanners decide every candidate by the rules
(searches that prove nothing); :func:`assert_streamed_as_the_rules_decide`
compares a streamed layout with the whole text's and with the rules' alone;
:func:`grid` is every prefix, word, terminator, gap and next token in a row.
Shared by the fast-path differential suite and the one-source-per-rule suite.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from guardrails_ai.chunkwise.chunkers import SentenceChunker, sentence
from guardrails_ai.chunkwise.chunkers.base import Cut
from guardrails_ai.chunkwise.chunkers.sentence import fast_path
from guardrails_ai.chunkwise.chunkers.sentence import scanner as scanning

# Dense texts: words (lower, upper, Latin-1, roman, abbreviations, labels),
# terminators, closers, openers, whitespace and line starts.
WORDS = [
    "word", "Word", "the", "The", "It", "and", "\u00fcber", "\u00dcber", "caf\u00e9",
    "\u00e9l", "stra\u00dfe", "\u0130", "viii", "iv", "b", "B", "J", "Dr", "e.g", "U.S",
    "etc", "Approx", "Dept", "Blk", "Rs", "2024", "12", "3.14", "x)", "y]", "A4", "vs", "it", "p",
    "q", "Q", "5 hrs",
]  # fmt: skip
MARKS = [
    ".", ".", "!", "?", "...", "\u2026", "?!", "\u3002", '"', "\u201d", ")", "[2]", "**", '."',
    "!\u2019", ".[^3]", ".\u00b9",
]  # fmt: skip
GAPS = [
    " ",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "\r\n",
    " (",
    " \u201c",
    "\n- ",
    "\n# ",
    "\n1. ",
    "\r",
    " \n",
    "\n(",
    " b) ",
    " \u00bb ",
    " | ",
]


def rules_only(
    abbreviations: frozenset[str],
    odd_ends: bool,
    starters: frozenset[str] = frozenset(),
    continuations: frozenset[str] = frozenset(),
    quote_leads: tuple[tuple[str, str], ...] = (),
    compounds: frozenset[str] = frozenset(),
) -> tuple[re.Pattern[str], ...]:
    """Searches that find the same candidates (and quotation marks) and
    settle none of them."""
    numbers = itertools.count(1)
    marks = [
        *fast_path.mark_branches(quote_leads, numbers, wide=False),
        *fast_path.mark_branches(quote_leads, numbers, wide=True),
    ]
    find = re.compile("|".join([fast_path.LEAD + fast_path.AFTER, *marks]))
    find_all = re.compile("|".join([fast_path.LEAD + fast_path.AFTER_ALL, *marks]))
    return find, find_all, find, find_all


def rules_only_in(patch: pytest.MonkeyPatch) -> None:
    """Make new scanners decide every candidate by the rules: searches that
    settle none (not even that one at the window's end must wait)."""
    patch.setattr(scanning, "searches", rules_only)
    patch.setattr(sentence, "_SETUPS", {})  # (the setups built with the real searches)


def setups_built(patch: pytest.MonkeyPatch) -> list[object]:
    """From now on, the scanner setups built (one entry each), starting from
    none (the setups cached before are set aside)."""
    built: list[object] = []
    build = sentence.scanner_setup

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return build(*args, **kwargs)

    patch.setattr(sentence, "scanner_setup", counted)
    patch.setattr(sentence, "_SETUPS", {})
    return built


def streamed(chunker: SentenceChunker, parts: list[str]) -> Iterator[tuple[int, int, int]]:
    scanner = chunker.scanner()
    for part in parts:
        cuts: list[Cut] = scanner.feed(part)
        yield from ((c.start, c.end, c.stop) for c in cuts)
    yield (-1, *(scanner.finish() or (-1, -1)))


def layouts(
    chunker: SentenceChunker, text: str, parts: list[str]
) -> tuple[object, list[tuple[int, int, int]]]:
    return chunker.locate(text), list(streamed(chunker, parts))


def assert_streamed_as_the_rules_decide(
    parts: list[str], abbreviations: list[str] | None = None, language: str = "auto"
) -> None:
    """``parts`` streamed give the layout of the whole text, and the rules
    alone (``rules_only_in``) give the same, streamed and whole."""
    text = "".join(parts)
    chunker = SentenceChunker(abbreviations=abbreviations, language=language)
    fast = layouts(chunker, text, parts)
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        assert fast == layouts(chunker, text, parts)
    assert fast[1][:-1] == [(c.start, c.end, c.stop) for c in fast[0].cuts]  # type: ignore[attr-defined]


def grid() -> str:
    """Every prefix, word, terminator, gap and next token in a row, the rows
    separated by blank lines (which always end a chunk)."""
    prefixes = ["", "Word. ", "x "]
    following = [
        "The", "and", "\u00dcber", "\u00e9l", "b. x", "1. X", "\u201cIt", "7", "Theory", "I. x",
        ". . . The", ". . x", "(Smith 5).", "\U0001f60a", "\u2705 \U0001f44d\U0001f3fd",
        "\u00b9\u2074 x",
    ]  # fmt: skip
    gaps = [" ", "  ", "\n", "\n\n", " (", "\n- ", "\n1. ", "\u00bf"]
    rows = itertools.product(prefixes, WORDS, ["", *MARKS], gaps, following)
    return "\n\n".join("".join(row) for row in rows)
