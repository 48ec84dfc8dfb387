"""The accurate sentence scanner's regex fast paths decide exactly as its rules do.

``chunkers/sentence/fast_path.py`` builds candidate searches whose named groups
(cuts, blank lines, lower-case continuations, list markers, line breaks before
a blank line) settle a candidate inside the search, without the rules in
Python, and a terminator at the end of the window that the text so far cannot
decide is left to the next delta without them (the "wait" groups).  Here a scanner whose
searches only find candidates (every decision taken by the rules) must give the
same layout, whole and streamed: on random texts (hypothesis) and on a grid of
every combination of a prefix, a word, a terminator, a gap and a next token.
"""

from __future__ import annotations

import itertools
import re

import pytest
from helpers.chunking import stream
from helpers.sentence_cases import FRAGMENTS
from helpers.sentence_checks import (
    GAPS,
    MARKS,
    WORDS,
    assert_streamed_as_the_rules_decide,
    grid,
    rules_only_in,
    streamed,
)
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import SentenceChunker
from guardrails_ai.chunkwise.chunkers.base import Cut
from guardrails_ai.chunkwise.chunkers.sentence import fast_path
from guardrails_ai.chunkwise.chunkers.sentence import scanner as scanning

# A token: a word, often a terminator (and closers), then a gap.
tokens = st.tuples(
    st.sampled_from(WORDS), st.sampled_from(["", *MARKS]), st.sampled_from(GAPS)
).map("".join)
texts = st.one_of(
    st.lists(tokens, max_size=25).map("".join),
    st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join),
)
ABBREVIATIONS = [None, ["Blk", "approx", "Dept.", "stra\u00dfe", "q"], ["x)", "A4"]]


@pytest.mark.parametrize("abbreviations", ABBREVIATIONS, ids=["default", "added", "odd-ends"])
@given(text=texts, cuts=st.lists(st.integers(min_value=0), max_size=20))
def test_fast_paths_agree_with_the_rules(
    abbreviations: list[str] | None, text: str, cuts: list[int]
) -> None:
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    parts = [text[a:b] for a, b in itertools.pairwise(bounds)]
    assert_streamed_as_the_rules_decide(parts, abbreviations)


def test_the_fast_paths_are_taken() -> None:
    # The property above compares something: the usual cases are settled by
    # the search itself (a match with a group), not by the rules.
    find = fast_path.searches(frozenset(), False)[0]
    text = (
        "It works. Next one! And é. Über alles. Then 'e.g.' this. Done.\n\nNew"
        " line\n1. Item\n\nMore text."
    )
    kinds = fast_path.group_proofs(find)
    proven = {kinds[m.lastindex or 0] for m in find.finditer(text)}
    assert {
        fast_path.CUT,
        fast_path.BLANK,
        fast_path.SKIP,
        fast_path.LINE_END,
        fast_path.WAIT,
    } <= proven, proven


def test_fast_paths_agree_with_the_rules_on_every_combination() -> None:
    # About 110 000 rows, 1.6 MB: a few seconds, mostly the rules in Python.
    text = grid()
    step = 997  # streamed in deltas of a prime size, so rows are cut everywhere
    assert_streamed_as_the_rules_decide([text[i : i + step] for i in range(0, len(text), step)])


# A line break after a short line, a long one (a soft wrap may follow) or
# trailing space, as "\n", "\r\n" or a lone "\r", before what goes on or
# ends the line; and runs of closers before a mark that may open a quotation.
LINE_AND_CLOSER_CASES = [
    f"{line}{brk}{following}"
    for line in ("Short line", "A line long enough to be wrapped right here", "Trailing space ")
    for brk in ("\n", "\r\n", "\r")
    for following in ("next word", "Next word", "  indented", "\nBlank", "(x) more", "- item")
] + [
    'He said "Stop."\u201cYes,\u201d she said.',
    "It ends.)\" 'Then' more.",
    "Run.)\u201d\u201cNext\u201d. Done.",
    "Odd! \u201cYes.\u201d (Smith 5). Then.",
]


@pytest.mark.parametrize("text", LINE_AND_CLOSER_CASES)
def test_line_breaks_and_closer_runs_agree_with_the_rules(text: str) -> None:
    for step in (1, 4, len(text)):
        assert_streamed_as_the_rules_decide([text[i : i + step] for i in range(0, len(text), step)])


def test_line_break_proofs_are_taken_after_crlf_and_long_lines() -> None:
    # The cases above compare something: the search itself ends a short line
    # and a line before a capital after "\r\n" too, and proves a soft wrap
    # after a long line.
    find = fast_path.searches(frozenset(), False)[0]
    kinds = fast_path.group_proofs(find)

    def proof(text: str) -> int:
        m = find.search(text)
        assert m is not None
        return kinds[m.lastindex or 0]

    long_line = "A line long enough to be wrapped right here"
    assert proof("Short\r\nnext") == fast_path.LINE_END
    assert proof(f"{long_line}\r\nNext") == fast_path.LINE_END
    assert proof(f"{long_line}\nNext") == fast_path.LINE_END
    assert proof(f"{long_line}\nnext") == fast_path.WRAP


# Words, marks and next tokens that the language rules decide (ordinals,
# months, other scripts' terminators, closing quotes, CJK closers, elisions).
LANGUAGE_WORDS = [
    "12", "3", "Juni", "N\u00b0", "\uff13", "Det", "z", "B", "bzw", "\u043f\u0440\u043e\u0444",
    "\u0574\u057f", "\u0939\u0948", "[", "word", "U.S", "etc", "Nr. 5", "p. m", "p. ex",
    "3. 10", "z. B", "x. y", "u. s", "\u00e9.t", "\u00c9.U", "Lindenstr", "Orchestr", "Parkstr. 14",
    "segg", "det", "Dr.-Ing", "isn't", "I\u2019d", "is B", "Plan B", "Answer: C", "is J", "(is B",
    "\u884c\u3053\u3046", "kr", "es", "EE", "Mo.\u2013Fr", "Sa./so", "1.\u20133", "63 a",
    "o. \u00c4", "44 v. Chr", "f. Kr", "f. eks", "44 f", "zum 2", "I am 12",
]  # fmt: skip
LANGUAGE_MARKS = [
    ".", "...", "...]", "\u0964", "\u0589", ":", ";", "?\u201c", ".\u201c", ".\u00ab",
    "\u3002\u300d", "\uff01\u300b", "\uff0e", "\u061f", "!", ".\u00a0\u00bb", "!\u202f\u00bb",
]  # fmt: skip
LANGUAGE_GAPS = [" ", "", "\n", " - ", " \u2014 ", "\u00a1"]
LANGUAGE_NEXT = [
    "Juni", "Det", "The", "and", "\uff12", "\u3068", "B. x", "7", "\u0548\u0579", "m. x", "Ma",
    "1990 x", "10. x", "Okt. x", "per", "UU. x", "C. x", "Kr. x",
]  # fmt: skip


def language_grid() -> str:
    rows = itertools.product(LANGUAGE_WORDS, LANGUAGE_MARKS, LANGUAGE_GAPS, LANGUAGE_NEXT)
    return "\n\n".join("".join(row) for row in rows)


@pytest.mark.parametrize("language", ["auto", "de", "da", "hy", "el", "ru", "ja", "en", "es", "it"])
def test_fast_paths_agree_with_the_rules_in_every_language(language: str) -> None:
    text = language_grid()
    step = 211
    parts = [text[i : i + step] for i in range(0, len(text), step)]
    assert_streamed_as_the_rules_decide(parts, None, language)


language_tokens = st.tuples(
    st.sampled_from(LANGUAGE_WORDS + WORDS),
    st.sampled_from(["", *LANGUAGE_MARKS, *MARKS]),
    st.sampled_from(LANGUAGE_GAPS + GAPS),
).map("".join)


@pytest.mark.parametrize("language", ["auto", "de", "hy", "el", "ja"])
@given(text=st.lists(language_tokens, max_size=25).map("".join), cuts=st.lists(st.integers(0)))
def test_fast_paths_agree_with_the_rules_on_random_text_in_every_language(
    language: str, text: str, cuts: list[int]
) -> None:
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts[:20])})
    parts = [text[a:b] for a, b in itertools.pairwise(bounds)]
    assert_streamed_as_the_rules_decide(parts, None, language)


def latin1_grid() -> str:
    """The rows of the grid whose characters are all of Latin-1."""
    return "\n\n".join(row for row in grid().split("\n\n") if fast_path.latin1(row))


@pytest.mark.parametrize("latin1", [False, True], ids=["any", "latin1"])
@pytest.mark.parametrize(
    "before", ["", "Stop\u3002", "Wait\u2026 "], ids=["none", "cjk", "ellipsis"]
)
def test_a_long_delta_after_a_pending_candidate_agrees(before: str, latin1: bool) -> None:
    # A long delta (every row of the grid, in pieces when longer than _PIECE;
    # with the narrow searches when it and the window are of Latin-1) after
    # text that leaves a candidate undecided gives the layout that the rules
    # give and that short deltas give.
    text = "Then " + (latin1_grid() if latin1 else grid())  # a capital decides before it
    assert fast_path.latin1(text) == latin1
    whole = list(streamed(SentenceChunker(), [before, text]))
    step = 997
    parts = [before] + [text[i : i + step] for i in range(0, len(text), step)]
    assert whole == list(streamed(SentenceChunker(), parts))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scanning, "_PIECE", 4099)
        assert whole == list(streamed(SentenceChunker(), [before, text]))
        rules_only_in(patch)
        assert whole == list(streamed(SentenceChunker(), [before, text]))


# Stretches no candidate begins in (no terminator, no line break), of one-,
# two- and four-byte characters, and short pieces with candidates.
PLAIN = [
    "x" * 700, "word " * 150, "\u00e9t\u00e9 " * 120, "\u4e2d\u6587" * 400, "\U0001f600 " * 300,
    " The" + "y" * 600,
]  # fmt: skip
CANDIDATES = [
    "Intro. ", "It ends. Then", "\n\n# Head ", "\n- item ", "U.S. ", "e.g. ", "Wait\u2026 ",
    "Stop\u3002", " Dr.", "\n", "  ", "\n\n",
]  # fmt: skip
long_texts = st.lists(st.sampled_from(PLAIN + CANDIDATES), min_size=1, max_size=12).map("".join)


def fed_long(parts: list[str]) -> tuple[list[tuple[int, int, int]], int]:
    """The layout of ``parts`` fed whole with pieces of 512 characters (long
    deltas above 256), and how many pieces were fed without a search."""
    plain = [0]
    feed_plain = scanning.SentenceScanner._feed_plain

    def counted(self: scanning.SentenceScanner, piece: str) -> list[Cut]:
        plain[0] += 1
        return feed_plain(self, piece)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scanning, "_PIECE", 512)
        patch.setattr(scanning, "_LONG", 256)
        patch.setattr(scanning.SentenceScanner, "_feed_plain", counted)
        return list(streamed(SentenceChunker(), parts)), plain[0]


@given(
    before=st.sampled_from(["", "One. ", "It is U.S.", "# Title", "Wait. ", "It ends."]),
    text=long_texts,
)
def test_long_deltas_skip_what_holds_no_candidate_and_agree(before: str, text: str) -> None:
    # Pieces of a long delta that hold no candidate are fed without a search;
    # the layout is that of short deltas and of the rules alone.
    small = [before] + [text[i : i + 7] for i in range(0, len(text), 7)]
    expected = list(streamed(SentenceChunker(), small))
    assert fed_long([before, text])[0] == expected
    assert fed_long([before + text])[0] == expected
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        assert list(streamed(SentenceChunker(), [before + text])) == expected


@pytest.mark.parametrize("lead", list(fast_path.LEADS))
def test_a_piece_holding_any_one_candidate_is_searched(lead: str) -> None:
    text = "It begins, e.g. " + "x" * 1000 + f" Stop{lead} Next " + "y" * 1000
    small = list(streamed(SentenceChunker(), [text[i : i + 7] for i in range(0, len(text), 7)]))
    assert fed_long([text])[0] == small
    # (The lead ends a sentence here; a line break does before a capital, and
    # a ")" after a word is no list marker.)
    assert len(small) == (1 if lead == ")" else 2)


def test_a_long_delta_without_candidates_is_fed_without_a_search() -> None:
    text = "It begins. Here " + "x" * 3000 + " and ends. Now " + "y " * 900
    layout, plain = fed_long([text])
    assert plain >= 8  # (the first 256 characters and the piece with ". N" are searched)
    assert layout == [(0, 10, 11), (11, 3026, 3027), (-1, 3027, 4830)]


def test_the_four_searches_number_their_groups_alike() -> None:
    # One table of what each group proves serves all four (_group_kinds).
    for abbreviations, odd_ends in ((frozenset(), False), (frozenset({"approx"}), True)):
        kinds = [fast_path.group_proofs(p) for p in fast_path.searches(abbreviations, odd_ends)]
        assert kinds[0] == kinds[1]
        assert kinds[2] == kinds[3] == kinds[0][: len(kinds[2])]


def test_the_narrow_searches_find_what_the_wide_ones_find_in_latin1_text() -> None:
    wide, wide_all, narrow, narrow_all = fast_path.searches(frozenset(), False)
    text = latin1_grid()
    for a, b in ((wide, narrow), (wide_all, narrow_all)):
        assert [(m.span(), m.lastindex) for m in a.finditer(text)] == [
            (m.span(), m.lastindex) for m in b.finditer(text)
        ]


TAILS = [
    ".", ". ", ".)", '." ', ".\n", ".\n\n", ".\n\n(", ".\n (", ". (", ". \u201c", "?! \u201c",
    ". " + "(" * 8, ". " + "(" * 9, ".[1", ".[12]", ".[12] ", ".[^", ".[^1", ".[^12]", ".[^12] ",
    ".[a", ".[^a", "![b", ".)[1x", ". a", ". i", ".\n b", ". ab",
    "... ", "\u2026\n\n\u201c", ".)**", "\n", "\n ", "\n\n", "\n \t", "\nx", "\n-", "\n #",
    "\n(", "\n7", "\n\u00e9", "\n *",
    # Either side of the distance from the window's end at which a run or line
    # break is left to the next delta (_DEFER) rather than made pending.
    "." + " " * 30, "." + " " * 31, "." + " " * 32, '."' + " " * 29, '."' + " " * 30,
    ". " + " " * 27 + "((", ". " + " " * 29 + "((", "\n" + " " * 30, "\n" + " " * 31,
    "\n" + " " * 29 + "-", "\n" + " " * 30 + "-",
]  # fmt: skip


@pytest.mark.parametrize("follow", ["", "Next one.", "- item", "\nNew"])
@pytest.mark.parametrize("word", ["works", "etc", "Dr"])
@pytest.mark.parametrize("tail", [*TAILS, " A", ". A", ". Ab"])
def test_a_terminator_at_the_end_of_a_delta_is_decided_as_the_rules_do(
    tail: str, word: str, follow: str
) -> None:
    # The second delta reaches the scanner's first search (see the "wait" groups of _searches): a
    # run or line break the text so far cannot decide is deferred, any other
    # is decided now; the third delta decides what was deferred.
    assert_streamed_as_the_rules_decide(["First one. It ", word + tail, follow])


@pytest.mark.parametrize(
    "text",
    [
        "Plan b. Theory holds. Then x b. The end. And x B. See it. Or x q. It is. Use p. The",
        "Go a.  \u201cThe x. Z. I. So a.\tWhy a. Yesterday a. Meanwhile a. Therefore x",
    ],
)
def test_an_initial_is_decided_as_the_rules_do_wherever_a_delta_ends(text: str) -> None:
    # The next word decides (a whole sentence starter or not): a delta that
    # ends inside it leaves the initial to the next one.
    for i in range(len(text) + 1):
        assert_streamed_as_the_rules_decide([text[:i], text[i:]], ["q"])


@pytest.mark.parametrize(
    "second",
    [
        "\n\nNext",
        "\n\n**Bold**",
        "\n\n### Head\nText",
        "\n\n1. Item",
        "\n \n- x",
        "\n\n",
        "\nx y",
        "\nx",
        "\n-",
        "\n",
    ],
)
@pytest.mark.parametrize("first", ["It works", "It works ", "# Title", "- item"])
@pytest.mark.parametrize("last", [" and more.", ""])
def test_a_line_break_opening_a_delta_is_decided_as_the_rules_do(
    first: str, second: str, last: str
) -> None:
    # The search of the second delta begins at the line break (see "line" in
    # _searches; a line break the text so far cannot decide is deferred, see
    # its "wait" group): the chunk ends where the rules end it, also when the
    # stream ends there.
    assert_streamed_as_the_rules_decide(["Intro here. ", first, second, last])


# -- the regex helpers the searches are spelled with ----------------------------------

words = st.text(alphabet="ab.\u00e9\u4e00", min_size=1, max_size=4)


@given(chosen=st.sets(words, min_size=1, max_size=12), others=st.lists(words, max_size=12))
def test_one_of_matches_exactly_its_words(chosen: set[str], others: list[str]) -> None:
    pattern = re.compile(fast_path.one_of(chosen))
    for word in [*chosen, *others, ""]:
        assert (pattern.fullmatch(word) is not None) == (word in chosen), word


@given(chosen=st.sets(st.text(alphabet="abc-]^\\", min_size=3, max_size=3), min_size=1))
def test_one_of_words_of_one_length_fit_a_lookbehind(chosen: set[str]) -> None:
    # (A lookbehind needs a fixed width: each word of the fork is as long.)
    behind = re.compile(f"(?<={fast_path.one_of(chosen)})!")
    for word in chosen:
        assert behind.search(f"x{word}!") is not None


@given(
    excluded=st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=12),
    below=st.sampled_from([0x80, 0x100, 0x300]),
)
def test_any_but_is_the_characters_below_its_bound_but_those_excluded(
    excluded: str, below: int
) -> None:
    pattern = re.compile(fast_path.any_but(excluded, below))
    for code in range(0x300):
        char = chr(code)
        assert (pattern.match(char) is not None) == (code < below and char not in excluded), code


def test_a_bracket_that_begins_no_footnote_mark_is_passed_by_the_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A terminator before "[" that begins no footnote mark ends nothing: the
    # searches prove it, so a run of them ("a.[b", "x![", "q.[^z") never
    # reaches the rules, whole or streamed (it took them 20 times as long).
    decided = [0]
    ends = scanning.SentenceScanner._ends

    def counted(self: scanning.SentenceScanner, *args: object) -> bool:
        decided[0] += 1
        return ends(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(scanning.SentenceScanner, "_ends", counted)
    text = "a.[b x![ q.[^z " * 300
    chunker = SentenceChunker()
    assert chunker.split_text(text) == [text.strip()]
    assert [
        p.chunk for p in stream(chunker, [text[i : i + 3] for i in range(0, len(text), 3)])
    ] == [text.strip()]
    assert decided[0] == 0
    # A footnote mark is still a closer: "a.[^1] Next" ends after it.
    assert chunker.split_text("It holds.[^1] Next one.") == ["It holds.[^1]", "Next one."]


def test_the_rules_alone_reach_chunkers_made_before() -> None:
    # The differential tests compare the searches with the rules alone: a
    # scanner setup built before (and shared by equal chunkers) must not
    # bring the real searches back in.
    chunker = SentenceChunker()
    assert chunker.split_text("Hi. Ho.") == ["Hi.", "Ho."]
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        for made in (chunker, SentenceChunker()):
            proofs = set(made.scanner()._proofs)  # type: ignore[attr-defined]
            assert proofs <= {0, fast_path.MARK}, proofs
    assert fast_path.CUT in set(chunker.scanner()._proofs)  # type: ignore[attr-defined]
