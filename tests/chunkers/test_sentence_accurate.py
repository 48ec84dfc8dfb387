"""SentenceChunker(mode="accurate"): one test per rule, properties, bad input, cost.

The labelled cases live in ``sentence_cases.py`` (written for this project);
each rule test checks its cases chunked at once and streamed one character at
a time.  The properties run on random texts built from the fragments the rules
care about, sliced into random deltas, with the scanner's window and piece
sizes shrunk so that trimming and piecewise scanning happen on short texts.
The cost test counts work (regex characters examined, Python lines executed in
the scanner, window size) instead of timing anything.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

import pytest
from helpers.chunking import stream as stream_pieces
from helpers.sentence_cases import CASES, FRAGMENTS, KNOWN_MISSES, Case
from helpers.sentence_checks import rules_only_in, setups_built
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    ChunkStream,
    SentenceChunker,
    resolve_chunker,
    sentence,
)
from guardrails_ai.chunkwise.chunkers.sentence import quotes, rules
from guardrails_ai.chunkwise.chunkers.sentence import scanner as scanning
from guardrails_ai.chunkwise.chunkers.sentence.abbreviations import (
    DEFAULT_ABBREVIATIONS,
    FINAL,
    MEDIAL,
    PREFIX,
    SENTENCE_STARTERS,
    abbreviation_table,
)
from guardrails_ai.chunkwise.chunkers.sentence.quotes import QUOTE_MAX

ACCURATE = SentenceChunker()


def streamed(chunker: SentenceChunker, text: str, size: int = 1) -> list[str]:
    """The chunks of ``text`` fed to a ChunkStream ``size`` characters at a time."""
    stream = ChunkStream(chunker)
    pieces = []
    for i in range(0, len(text), size):
        pieces += stream.feed(text[i : i + size])
    pieces += stream.close()
    assert "".join(p.segment for p in pieces) == text
    return [p.chunk for p in pieces if p.chunk is not None]


def check(cases: list[Case], chunker: SentenceChunker = ACCURATE) -> None:
    for text, sentences in cases:
        assert chunker.split_text(text) == sentences, text
        assert streamed(chunker, text) == sentences, text


# -- one test per rule ---------------------------------------------------------


def test_titles_never_end_a_sentence() -> None:
    check(CASES["titles"])


def test_latin_abbreviations() -> None:
    check(CASES["latin"])


def test_multi_period_abbreviations_and_times_of_day() -> None:
    check(CASES["multi_period"])


def test_abbreviation_that_ends_its_sentence() -> None:
    # MEDIAL abbreviations end a sentence before a sentence starter only.
    check(CASES["abbreviation_ends_sentence"])
    check([("Made in the U.S. Army depots.", ["Made in the U.S. Army depots."])])
    # The rules read no starter longer than STARTER_MAX letters.
    assert max(map(len, SENTENCE_STARTERS)) <= rules.STARTER_MAX


def test_initials() -> None:
    check(CASES["initials"])


def test_decimals_versions_money_and_times() -> None:
    check(CASES["numbers"])


def test_a_unit_symbol_closes_its_quantity() -> None:
    # A symbol with a capital after its first letter takes no period, so one
    # after "4 GB" ends the sentence before a number; an abbreviation there
    # ("ft.", "Abs.") or a label before the number ("Rs.") goes on.
    for text, chunks in [
        ("Use 4 GB. 8 GB is better.", ["Use 4 GB.", "8 GB is better."]),
        ("Add 5 mL. 3 mL more is too much.", ["Add 5 mL.", "3 mL more is too much."]),
        ("It runs at 3 GHz. 4 cores help.", ["It runs at 3 GHz.", "4 cores help."]),
        ("It is 5 ft. 3 in. tall.", ["It is 5 ft. 3 in. tall."]),
        ("Nach § 5 Abs. 3 gilt das.", ["Nach § 5 Abs. 3 gilt das."]),
        ("Pay Rs. 500 now.", ["Pay Rs. 500 now."]),
        ("Buy GB. 8 of them.", ["Buy GB. 8 of them."]),
    ]:
        assert ACCURATE.split_text(text) == chunks
        assert streamed(ACCURATE, text) == chunks


def test_a_common_word_before_a_number_is_no_label(monkeypatch: pytest.MonkeyPatch) -> None:
    # A short lower-case word before a period and a number may be a label
    # ("pag. 5"), but not one that opens sentences ("it", "all", "now"): the
    # sentence after it starts with a digit.
    cases = [
        ("I ran it. 3 checks failed.", ["I ran it.", "3 checks failed."]),
        ("That is all. 42 files changed.", ["That is all.", "42 files changed."]),
        ("Ship it now. 10 users wait.", ["Ship it now.", "10 users wait."]),
        ("Read ch. 3 and pag. 12 first.", ["Read ch. 3 and pag. 12 first."]),
        ("Pay Rs. 500 now.", ["Pay Rs. 500 now."]),
    ]
    check(cases)
    rules_only_in(monkeypatch)
    check(cases, SentenceChunker())


def test_email_addresses_and_urls() -> None:
    check(CASES["addresses"])


def test_numbered_and_lettered_list_items() -> None:
    check(CASES["lists"])


def test_bullets_and_headings() -> None:
    check(CASES["bullets"])


def test_ellipses_inside_and_at_the_end() -> None:
    check(CASES["ellipses"])


def test_quotations_parentheticals_and_footnote_marks() -> None:
    check(CASES["quotes_and_parentheses"])


def test_footnote_references_close_their_sentence() -> None:
    # "[^1]" (Markdown) and superscript digits after a terminator are closers,
    # like "[1]"; a bracket that is no footnote reference is the next
    # sentence's opener, or no sentence end at all when glued.
    check(
        [
            ("The cache helps.[^1] It is optional.", ["The cache helps.[^1]", "It is optional."]),
            ("Two notes.[^12][^3] Then more.", ["Two notes.[^12][^3]", "Then more."]),
            ("Cited.[^7]\n\n[^7]: A note.", ["Cited.[^7]", "[^7]: A note."]),
            ("Match it.[^a-z] Then stop.", ["Match it.[^a-z] Then stop."]),
            # The file citations of OpenAI's assistants are footnote marks too.
            (
                "Refunds take five days.\u30104:0\u2020source\u3011 Ask us if not.",
                ["Refunds take five days.\u30104:0\u2020source\u3011", "Ask us if not."],
            ),
            (
                "See the policy.\u301012\u2020refund rules.pdf\u3011\u30103\u2020faq\u3011"
                " Then apply.",
                [
                    "See the policy.\u301012\u2020refund rules.pdf\u3011\u30103\u2020faq\u3011",
                    "Then apply.",
                ],
            ),
            ("Noted.\u3010\u6ce8\u3011 Next.", ["Noted.\u3010\u6ce8\u3011 Next."]),
            (
                "It is proven.\u00b9\u00b2 Others agree.",
                ["It is proven.\u00b9\u00b2", "Others agree."],
            ),
            ("A note.\u2074 and more. Fine.", ["A note.\u2074 and more.", "Fine."]),
            ("It spans 5 m\u00b2. Good.", ["It spans 5 m\u00b2.", "Good."]),
        ]
    )


def test_markdown_emphasis_closes_its_sentence() -> None:
    check(CASES["emphasis"])
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        check(CASES["emphasis"], SentenceChunker())


def test_emoji_glued_to_a_terminator_close_its_sentence() -> None:
    check(CASES["emoji"])
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        check(CASES["emoji"], SentenceChunker())


def test_exclamation_and_question_runs() -> None:
    check(CASES["exclamations"])


def test_cjk_terminators_need_no_whitespace() -> None:
    check(CASES["cjk"])


def test_blank_lines_end_a_sentence_single_breaks_do_not() -> None:
    check(CASES["blank_lines"])


def test_plain_sentences() -> None:
    check(CASES["plain"])


@pytest.mark.xfail(strict=True, reason="documented limits of the MEDIAL and FINAL rules")
@pytest.mark.parametrize("case", KNOWN_MISSES, ids=["name-after-Inc", "p.m.-before-a-name"])
def test_known_misses(case: Case) -> None:
    check([case])


def test_whitespace_is_never_inside_a_chunk_edge() -> None:
    text = "  \n Hello there.  \t\n\n  Next one!\u3000 Last bit  \n"
    assert ACCURATE.split(text) == ["Hello there.", "Next one!"]
    assert ACCURATE.flush(text) == ["Last bit"]
    assert ACCURATE.segments(text)[0] == "  \n Hello there.  \t\n\n  "
    assert ACCURATE.split("   ") == [] and ACCURATE.flush("   ") == []


def test_end_of_stream_keeps_one_fragment() -> None:
    # Undecided candidates at the end belong to the fragment: one chunk at most.
    text = "He moved to the U.S. It"
    assert ACCURATE.split(text) == []
    assert ACCURATE.flush(text) == ["He moved to the U.S. It"]
    assert ACCURATE.split_text("Done. ") == ["Done."]


def test_withholds_until_the_next_word_decides() -> None:
    stream = ChunkStream(SentenceChunker())
    assert stream.feed("Our office is in the U.S.") == []
    assert stream.feed(" ") == []
    assert stream.feed("I") == []  # "I." (an initial) or "It"?
    assert stream.feed("t") == []  # "It" or "Italy"?
    (piece,) = stream.feed(" ")
    assert piece.chunk == "Our office is in the U.S."
    assert piece.segment == "Our office is in the U.S. "
    assert stream.feed("opens. ") == []
    assert [p.chunk for p in stream.feed("Then")] == ["It opens."]


# -- abbreviations= -------------------------------------------------------------


def test_user_abbreviations_extend_the_defaults() -> None:
    text = "Meet at Blk. Seven first. Dr. Lee runs it."
    assert SentenceChunker().split_text(text) == [
        "Meet at Blk.",
        "Seven first.",
        "Dr. Lee runs it.",
    ]
    for given_ in (["Blk."], {"blk"}, ("BLK",), frozenset({"Blk"}), (w for w in ["blk."])):
        chunker = SentenceChunker(abbreviations=given_)
        assert chunker.split_text(text) == ["Meet at Blk. Seven first.", "Dr. Lee runs it."]
    # Even abbreviations ending with a bracket or a digit are honoured.
    odd = SentenceChunker(abbreviations=["Fig)", "Tab2019"])
    assert odd.split_text("See Fig). Panel one. Tab2019. Rows agree.") == [
        "See Fig). Panel one.",
        "Tab2019. Rows agree.",
    ]
    # An added abbreviation still ends a sentence before a sentence starter.
    assert SentenceChunker(abbreviations=["Blk"]).split_text("Go to Blk. The end.") == [
        "Go to Blk.",
        "The end.",
    ]


def test_abbreviation_table() -> None:
    table = abbreviation_table(["Dr.", "Zz.Top.", "Approx"])
    assert table["dr"] == PREFIX and table["approx"] == PREFIX  # known kinds are kept
    assert table["zz.top"] == MEDIAL
    assert table["etc"] == FINAL
    assert set(DEFAULT_ABBREVIATIONS) <= set(table)
    assert abbreviation_table(None) == dict(DEFAULT_ABBREVIATIONS)


def test_mode_default_aliases_and_repr() -> None:
    assert SentenceChunker().mode == "accurate"
    assert resolve_chunker("sentence") == SentenceChunker()
    assert resolve_chunker("sentence-simple") == SentenceChunker(mode="simple")
    assert repr(SentenceChunker(abbreviations=["Blk."])) == (
        "SentenceChunker(mode='accurate', abbreviations=['blk'])"
    )
    assert SentenceChunker(abbreviations=["Dr"]) == SentenceChunker()
    assert SentenceChunker(mode="simple").split_text("Dr. Lee came.") == ["Dr.", "Lee came."]


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"abbreviations": "Dr."}, TypeError, ["abbreviations", "'Dr.'"]),
        ({"abbreviations": 5}, TypeError, ["abbreviations", "int"]),
        ({"abbreviations": [b"Dr."]}, TypeError, ["abbreviations", "bytes"]),
        ({"abbreviations": ["Dr.", None]}, TypeError, ["abbreviations", "None"]),
        ({"abbreviations": [""]}, ValueError, ["abbreviations", "''"]),
        ({"abbreviations": ["."]}, ValueError, ["abbreviations", "'.'"]),
        ({"abbreviations": ["et al."]}, ValueError, ["abbreviations", "'et al.'"]),
        # (A mapping's keys were taken and its values dropped, silently.)
        ({"abbreviations": {"Approx.": "approximately"}}, TypeError, ["abbreviations", "dict"]),
        ({"mode": "simple", "abbreviations": ["Dr."]}, ValueError, ["abbreviations", "simple"]),
        ({"mode": "smart"}, ValueError, ["mode", "'smart'"]),
    ],
)
def test_bad_input_names_the_parameter(
    kwargs: dict[str, Any], error: type[Exception], words: list[str]
) -> None:
    with pytest.raises(error) as caught:
        SentenceChunker(**kwargs)
    for word in words:
        assert word in str(caught.value)


# -- properties -----------------------------------------------------------------


texts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)


def slices(text: str, cuts: list[int]) -> list[str]:
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@pytest.mark.parametrize("window", ["default", "small"])
@given(text=texts, cuts=st.lists(st.integers(min_value=0), max_size=30))
def test_delta_invariance_and_lossless(window: str, text: str, cuts: list[int]) -> None:
    # "small": the window is trimmed after every delta, long deltas are
    # scanned in 5-character pieces.
    patch = {"_SLACK": 0, "_PIECE": 5, "_LONG": 5} if window == "small" else {}
    saved = {k: getattr(scanning, k) for k in patch}
    try:
        for k, v in patch.items():
            setattr(scanning, k, v)
        chunker = SentenceChunker(abbreviations=["Blk"])
        want = chunker.split(text) + chunker.flush(text)
        stream = ChunkStream(chunker)
        pieces = []
        for delta in slices(text, cuts):
            pieces += stream.feed(delta)
        pieces += stream.close()
        assert [p.chunk for p in pieces if p.chunk is not None] == want
        assert "".join(p.segment for p in pieces) == text
        assert chunker.split_text(text) == want
    finally:
        for k, v in saved.items():
            setattr(scanning, k, v)


@given(text=texts, at=st.integers(min_value=0))
def test_decisions_are_never_taken_back(text: str, at: int) -> None:
    # The cuts found in any prefix are the first cuts of the whole text.
    prefix = text[: at % (len(text) + 1)]
    early = ACCURATE.locate(prefix).cuts
    assert ACCURATE.locate(text).cuts[: len(early)] == early


@given(text=texts)
def test_chunks_are_stripped_and_flush_is_one_fragment(text: str) -> None:
    layout = ACCURATE.locate(text)
    for chunk in ACCURATE.split(text):
        assert chunk and chunk == chunk.strip()
    rest = ACCURATE.flush(text)
    assert len(rest) <= 1 and all(r and r == r.strip() for r in rest)
    if rest:
        assert rest[0] == text[layout.tail :].strip()
    else:
        assert not text[layout.tail :].strip()


# -- cost -----------------------------------------------------------------------


class _Counting:
    """A compiled pattern that adds the characters each call examines to a counter."""

    def __init__(self, pattern: Any, counter: list[int]) -> None:
        self._pattern = pattern
        self._counter = counter

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        m = self._pattern.search(string, pos, endpos)
        self._counter[0] += (m.start() if m else min(endpos, len(string))) - pos + 1
        return m

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        m = self._pattern.match(string, pos, endpos)
        self._counter[0] += (m.end() if m else pos) - pos + 1
        return m

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._counter[0] += min(endpos, len(string)) - pos + 1
        return self._pattern.fullmatch(string, pos, endpos)


def work(text: str, size: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """Regex characters examined + scanner lines executed + window kept, per stream.

    The window slack is made small so that a short text reaches the steady
    state of the window's size.
    """
    counter = [0]
    monkeypatch.setattr(scanning, "_SLACK", 16)
    for module in (scanning, rules, quotes):
        for name in dir(module):
            value = getattr(module, name)
            if hasattr(value, "pattern") and hasattr(value, "search"):
                monkeypatch.setattr(module, name, _Counting(value, counter))
    filenames = {scanning.__file__, rules.__file__, quotes.__file__}

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename not in filenames:
            return None
        if event == "line":
            counter[0] += 1
        return tracer

    scanner = SentenceChunker().scanner()
    sys.settrace(tracer)
    try:
        for i in range(0, len(text), size):
            scanner.feed(text[i : i + size])
            counter[0] += len(scanner._buf)  # type: ignore[attr-defined]  # (the next delta joins it)
        scanner.finish()
    finally:
        sys.settrace(None)
        monkeypatch.undo()
    return counter[0]


ADVERSARIAL = {
    "dots": ".",
    "spaced dots": ". ",
    "spaces": " ",
    "newlines": " \n",
    "digits": "7",
    "digit dots": "7.",
    "capitals": "A",
    "initials": "A. ",
    "dotted": "U.S.",
    "brackets": "([",
    "closers": '.)"',
    "footnotes": "x.[1",
    "bangs": "!?",
    "cjk": "\u3002",
    "abbreviation then spaces": "U.S." + " " * 50,
    "quoted sentences": '"A. B. ',
    "opening quotes": "'a. \u201cb. \u00abc. ",
    "quotes and line breaks": '"A.\n',
    "apostrophes": "it's. 'tis. ",
    "inline items": "a) x b) y ",
    "footnote numbers": "ab.1 2 ",
    "citations begun": "a.\u30101\u2020s",
    "citations": "a.\u30104:0\u2020s\u3011 ",
    "citations never closed": "a.\u30101\u2020" + "x" * 62 + " ",
    "soft wraps": "x" * 33 + "\nb",
    "carriage returns": " \r",
    "wrap then spaces": "x \n" + " " * 50,
    # Markdown emphasis closing a sentence, glued, in runs and around quotations.
    "emphasis runs": "a.**",
    "emphasis closing": "**A.** ",
    "emphasis then spaces": ".* ",
    "emphasis around quotations": '**"a."** ',
    # A label's number closed by the emphasis opening its chunk, block-quote
    # markers glued to a list marker, a common word before a number.
    "bold labels": "**Step 1.** ",
    "bold labels unclosed": "**" + "a " * 18 + "1.** ",
    "glued quote markers": ">>1. A. ",
    "spaced glued quote markers": "> >1. A. ",
    "common words before numbers": "it. 3 ",
    # Inline items numbered with digits before lower-case words.
    "numbered lower-case items": "1. a 2. b ",
    "numbers before lower-case words": "x 2. b ",
    # Rules that read ahead or back a bounded way: a glued period before the
    # rest of a local part (up to 64 characters), a full-width dot after "@"
    # and a domain (up to 32 back), invisible characters around a full-width dot.
    "glued local parts": "\u0430\u0431\u0432.\u0413\u0434",
    "full-width dots in an address": "\uff45\uff45\uff0e\uff23",  # (no "@": 32 back)
    "invisible around full-width dots": "e\u200b\uff0e\u200b\u200bC",
    # A full-width dot before a capital and the rest of a local part (up to
    # 64 ahead), ideographic full stops between digit groups (5 groups each way).
    "full-width dots in a local part": "Jo\uff0eA",
    "ideographic stops between digits": "12\u3002",
    "ideographic stops in a domain": "@b\u3002c",
}


@pytest.mark.parametrize("unit", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
@pytest.mark.parametrize("size", [1, 9])
def test_work_grows_linearly(unit: str, size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    n = 2 * QUOTE_MAX  # (past the longest quotation, whose marks a stream keeps)
    small = work(unit * (n // len(unit)), size, monkeypatch)
    large = work(unit * (4 * n // len(unit)), size, monkeypatch)
    assert large <= 4.4 * small + 200, (small, large)
    assert large <= 400 * 4 * n, large  # a bounded amount of work per character


def test_chunking_leaves_no_reference_cycle() -> None:
    """A scanner and its quotation layer refer to each other; the layer's
    reference is weak, so a text split or a stream ended frees both at once
    instead of leaving a cycle to the garbage collector (one per short text
    split, which cost about 3% of their instructions), also inside another
    chunker's scanner (``Bounded``, ``Grouped``) that never closes it."""
    import gc

    from guardrails_ai.chunkwise.chunkers import Bounded, Grouped

    text = 'He said "Stop. Now." Then left.\n\nDr. Lee came. ' * 5
    chunkers = [
        SentenceChunker(),
        SentenceChunker(language="hy"),
        Bounded(SentenceChunker(), max_chars=40),
        Grouped(SentenceChunker(), 2, max_chars=80),
    ]
    for chunker in chunkers:
        chunker.split_text(text)  # (setups built, caches filled)
    gc.collect()
    gc.disable()
    try:
        for chunker in chunkers:
            chunker.split_text(text)
            stream_pieces(chunker, [text[i : i + 7] for i in range(0, len(text), 7)])
            ChunkStream(chunker).feed(text)  # (a stream never closed)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_scanners_share_their_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scanner's setup (the abbreviation table read, the searches looked up:
    about 100 microseconds, more than splitting a short answer) is built once
    per configuration and shared by every scanner of every equal chunker: a
    constant per text would make every short ``split_text``, ``locate`` and
    stream pay it, and a chunker made per text (or a guard rebuilt per
    request) pay it again."""
    built = setups_built(monkeypatch)
    for _ in range(20):
        for chunker in (SentenceChunker(), SentenceChunker(language="de", quotes=False)):
            assert chunker.split_text("Hi. Ho.") == ["Hi.", "Ho."]
            assert [p.chunk for p in ChunkStream(chunker).feed("Hi. Ho.")] == ["Hi."]
            assert chunker.split("Am 12. Juni. Ja.") == ["Am 12. Juni."]
    assert len(built) == 2
    added = SentenceChunker(abbreviations=["Ho"])
    assert added.split_text("Hi. Ho. Ha.") == ["Hi.", "Ho. Ha."]
    assert SentenceChunker(mode="simple").split_text("Hi. Ho.") == ["Hi.", "Ho."]
    assert len(built) == 3  # (other abbreviations, another setup; the simple mode has none)
    assert SentenceChunker().split_text("Hi. Ho. Ha.") == ["Hi.", "Ho.", "Ha."]
    assert len(built) == 3
    # The cache is bounded: added abbreviations may vary without end.
    monkeypatch.setattr(sentence, "_SETUPS_MAX", 3)
    assert SentenceChunker(quotes=False).split_text("Hi. Ho.") == ["Hi.", "Ho."]
    assert len(sentence._SETUPS) == 1


# -- through a real Guard ---------------------------------------------------------


def test_validators_see_whole_sentences_through_a_guard() -> None:
    from helpers.guardrails import Record, cached_guard, joined, run

    guard, validator = cached_guard(Record, "sentence", "noop")
    validator.seen.clear()
    text = "Dr. Lee moved to the U.S. It was 3.14 p.m. Bye now."
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    assert joined(run(guard, deltas)) == text
    assert validator.seen == ["Dr. Lee moved to the U.S.", "It was 3.14 p.m.", "Bye now."]
