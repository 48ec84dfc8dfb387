"""One source per rule: a rule added to the tables takes effect in every path.

The worked example of ``CONTRIBUTING.md`` ("Add a sentence rule"): a language
whose ``And`` never opens a sentence lists it in its ``continuations``
(``chunkers/sentence/languages.py``).  The rules (``SentenceRules._ends``) and
the searches that settle the common cases (``fast_path.searches``) both read
that table, so the sentence goes on before ``And`` whichever path decides the
candidate: a period after a long word, a short word, a number or a name (each
settled by a different proof of the searches), ``?!`` and an initial; whole,
streamed a character at a time, and with the searches made to prove nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.sentence_checks import assert_streamed_as_the_rules_decide, grid, rules_only_in
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import SentenceChunker
from guardrails_ai.chunkwise.chunkers.sentence import languages

# One case per path: the word before the period picks the proof that would
# settle the candidate without the rules.
BEFORE_AND = [
    "Our cats sleep all day. And they snore.",  # a word of four letters or more
    "We did it. And we won.",  # a word of two or three letters
    "That was in 1999. And it rained.",  # four digits
    "I met Bob. And he waved.",  # a name: decided by the rules
    "Did you see that?! And then it left.",  # a "!"/"?" run
    "They saw J. And they ran.",  # an initial before a sentence starter
    "It works (mostly). And it is fast.",  # ")" before the period
    '"Wait." And then she left.',  # a closing quote
    "We waited... And waited.",  # an ellipsis
    "Stop. AND go.",  # the upper-case form
]


@contextlib.contextmanager
def english_and_continues() -> Iterator[None]:
    """English with ``continuations="and"``, as a contributor would add it."""
    spec = languages._SPECS["en"]
    languages._SPECS["en"] = dataclasses.replace(spec, continuations="and")
    languages._build.cache_clear()
    try:
        yield
    finally:
        languages._SPECS["en"] = spec
        languages._build.cache_clear()


@pytest.fixture
def and_continues() -> Iterator[None]:
    with english_and_continues():
        yield


def decided(text: str) -> list[list[str]]:
    """The chunks of ``text`` whole, streamed one character at a time, and
    both again with every candidate decided by the rules alone."""
    chunker = SentenceChunker(language="en")

    def both() -> list[list[str]]:
        scanner = chunker.scanner()
        cuts = [cut for ch in text for cut in scanner.feed(ch)]
        stream = [text[c.start : c.end] for c in cuts]
        last = scanner.finish()
        if last is not None:
            stream.append(text[last[0] : last[1]])
        return [chunker.split_text(text), stream]

    fast = both()
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        return fast + both()


@pytest.mark.parametrize("text", BEFORE_AND)
def test_without_the_rule_and_opens_a_sentence(text: str) -> None:
    for chunks in decided(text):
        assert len(chunks) == 2, chunks


@pytest.mark.usefixtures("and_continues")
@pytest.mark.parametrize("text", BEFORE_AND)
def test_a_continuation_added_to_the_table_holds_in_every_path(text: str) -> None:
    for chunks in decided(text):
        assert chunks == [text], chunks


@pytest.mark.usefixtures("and_continues")
def test_a_continuation_leaves_other_words_and_blank_lines_alone() -> None:
    text = "It rained. Andrew stayed. We did it.\n\nAnd then we left. Android is here."
    want = ["It rained.", "Andrew stayed.", "We did it.", "And then we left.", "Android is here."]
    for chunks in decided(text):
        assert chunks == want


@pytest.mark.usefixtures("and_continues")
def test_with_a_continuation_the_searches_agree_with_the_rules_on_every_combination() -> None:
    # The differential test of tests/chunkers/test_sentence_fast_paths.py, with the rule on.
    text = grid().replace("The", "And")
    step = 997
    parts = [text[i : i + step] for i in range(0, len(text), step)]
    assert_streamed_as_the_rules_decide(parts, None, "en")


words = st.sampled_from(
    ["And", "AND", "Andrew", "and", "An", "The", "cats", "it", "1999", "J", "Bob"]
)
marks = st.sampled_from(["", ".", "?!", "...", '."', ".)", "!"])
gaps = st.sampled_from([" ", "  ", "\n", "\n\n", " (", ""])


@given(
    text=st.lists(st.tuples(words, marks, gaps).map("".join), max_size=20).map("".join),
    cuts=st.lists(st.integers(min_value=0), max_size=12),
)
def test_with_a_continuation_streams_agree_with_the_rules(text: str, cuts: list[int]) -> None:
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    parts = [text[a:b] for a, b in itertools.pairwise(bounds)]
    with english_and_continues():
        assert_streamed_as_the_rules_decide(parts, None, "en")


def test_a_continuation_must_be_a_short_lower_case_word() -> None:
    spec = dataclasses.replace(languages._SPECS["en"], continuations="And")
    with pytest.raises(ValueError, match="lower-case letters only"):
        languages._continuations(spec)


def test_the_language_example_of_contributing_is_the_shipped_table() -> None:
    # "Add a language" shows all of Kazakh: the block is the entry that ships.
    text = (Path(__file__).resolve().parents[2] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = re.search(r'```python\n("kk": _Spec\(.*?\n\)),?\n```', text, re.DOTALL)
    assert block is not None
    shown = eval("{" + block.group(1) + "}", {"_Spec": languages._Spec})
    assert shown == {"kk": languages._SPECS["kk"]}


def test_the_rule_example_of_contributing_is_the_tested_change() -> None:
    # "Add a sentence rule" shows English's entry with the new continuation:
    # it must be the shipped entry plus that one field (it once dropped
    # plain_words, which would have switched English's plain-word rule off).
    text = (Path(__file__).resolve().parents[2] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = re.search(r'```python\n("en": _Spec\(.*?\)),?\n```', text, re.DOTALL)
    assert block is not None
    shown = eval("{" + block.group(1) + "}", {"_Spec": languages._Spec})
    assert shown == {"en": dataclasses.replace(languages._SPECS["en"], continuations="and")}
