"""Line breaks, inline list items and footnote numbers (rules of
``chunkers/sentence/rules.py``): each line is its own chunk unless it is a
soft wrap, ``a) one b) two`` splits before each marker, and ``word.12 Next``
ends after the footnote numbers; in every path (whole, streamed a character
at a time, the rules alone) and wherever a delta ends.
"""

from __future__ import annotations

import itertools

import pytest
from helpers.sentence_cases import CASES, Case
from helpers.sentence_checks import assert_streamed_as_the_rules_decide
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import SentenceChunker
from guardrails_ai.chunkwise.chunkers.sentence.rules import WRAP_MIN

ACCURATE = SentenceChunker()


def check(cases: list[Case]) -> None:
    for text, sentences in cases:
        assert ACCURATE.split_text(text) == sentences, text
        # Streamed a character at a time, and with every candidate decided by
        # the rules alone: the same layout.
        assert_streamed_as_the_rules_decide(list(text))


def test_single_line_breaks_end_a_sentence_unless_they_are_a_soft_wrap() -> None:
    check(CASES["line_breaks"])


def test_inline_list_items_split_before_each_marker() -> None:
    check(CASES["inline_items"])


def test_numbered_inline_items_in_lower_case_split_before_each_number() -> None:
    # Before: a period after a digit and before a lower-case word was passed
    # by the searches, so "2." never reached the inline-item rule that splits
    # "a. one b. two" (and "1. One 2. Two").
    cases = {
        "1. buy milk 2. buy bread": ["1. buy milk", "2. buy bread"],
        "\u2022 9. check the key \u2022 10. restart it": [
            "\u2022 9. check the key",
            "\u2022 10. restart it",
        ],
        "1. it costs 5. dollars 2. done": ["1. it costs 5. dollars", "2. done"],
        # No list: a number and a period before a lower-case word go on.
        "I have 2. then 3. more": ["I have 2. then 3. more"],
        "See section 2. then go on.": ["See section 2. then go on."],
    }
    for text, chunks in cases.items():
        assert ACCURATE.split_text(text) == chunks
        assert_streamed_as_the_rules_decide(list(text))


def test_footnote_numbers_after_a_period_end_the_sentence_after_them() -> None:
    check(CASES["footnote_numbers"])


def test_a_hard_wrap_needs_a_long_line_before_a_lower_case_word() -> None:
    short = "x" * (WRAP_MIN - 1)
    assert ACCURATE.split_text(f"{short}\nnext") == [short, "next"]
    assert ACCURATE.split_text(f"{short}x\nnext") == [f"{short}x\nnext"]
    # A capital, a digit or a list marker after a long line still ends it.
    for after in ("Next", "7 more", "b) item", "iv. item", "- item"):
        assert ACCURATE.split_text(f"{short}x\n{after}") == [f"{short}x", after]
    # A space before the break wraps a short line; "(" wraps only after one.
    assert ACCURATE.split_text("cold \nnight") == ["cold \nnight"]
    assert ACCURATE.split_text("cold \n( 2 m )") == ["cold \n( 2 m )"]
    assert ACCURATE.split_text("cold\n( 2 m )") == ["cold", "( 2 m )"]
    assert ACCURATE.split_text("cold \n(a) item") == ["cold", "(a) item"]


def test_a_terminator_before_a_line_break_follows_the_line_rule() -> None:
    assert ACCURATE.split_text("See Dr.\nSmith") == ["See Dr.", "Smith"]
    assert ACCURATE.split_text("It said e.g.\nthe rest") == ["It said e.g.", "the rest"]
    long_line = "A long line that ends with an example e.g."
    assert ACCURATE.split_text(f"{long_line}\nthe rest") == [f"{long_line}\nthe rest"]
    # A heading line ends at its line break, unless a terminator and a soft
    # wrap end it (the terminator's rules decide).
    heading = "## A heading"
    assert ACCURATE.split_text(f"{heading}\nthe rest") == [heading, "the rest"]
    for text in (f"{heading}. \nthe rest", "# .\t\nb", f"{heading} \nthe rest"):
        assert_streamed_as_the_rules_decide(list(text))


def test_a_numbered_heading_keeps_its_number() -> None:
    # "## 1. Title" numbers a heading as "1. Title" numbers a list item: the
    # marker after the heading marker opens the chunk and ends nothing.
    text = "### 1. Install the tool\nRun it twice. Then stop.\n## iv. Wrap up\n###### 12. Last one"
    assert ACCURATE.split_text(text) == [
        "### 1. Install the tool",
        "Run it twice.",
        "Then stop.",
        "## iv. Wrap up",
        "###### 12. Last one",
    ]
    # A sentence after the numbered title on the same line still ends there.
    assert ACCURATE.split_text("# 2. Usage. It is short.") == ["# 2. Usage.", "It is short."]
    # Not a heading: a number after seven marks, or glued to them.
    assert ACCURATE.split_text("####### 1. Then go") == ["####### 1.", "Then go"]
    assert ACCURATE.split_text("#1. Then go") == ["#1.", "Then go"]
    for part in (text, "# 2. Usage. It is short.", "## 3) Set up\n# b. Two\n#\t4. Four"):
        assert_streamed_as_the_rules_decide(list(part))


def test_a_number_inside_a_heading_ends_nothing() -> None:
    # "### Step 1. Install" numbers a step in its title: the heading is one
    # chunk up to its line's end, as "### 1. Install" is.
    text = "### Step 1. Install the tool\nRun it. Then stop.\n## Part 12. Wrap up"
    assert ACCURATE.split_text(text) == [
        "### Step 1. Install the tool",
        "Run it.",
        "Then stop.",
        "## Part 12. Wrap up",
    ]
    # Outside a heading the number still ends the sentence; so do a year, a
    # "!" and a word in a heading.
    assert ACCURATE.split_text("Step 1. Install it.") == ["Step 1.", "Install it."]
    assert ACCURATE.split_text("## In 2024. Now") == ["## In 2024.", "Now"]
    assert ACCURATE.split_text("## Top 10! Next") == ["## Top 10!", "Next"]
    assert ACCURATE.split_text("# 2. Usage. It is short.") == ["# 2. Usage.", "It is short."]
    for part in (text, "## Step 2. Go\r\n# Tip 3.\tUse it"):
        assert_streamed_as_the_rules_decide(list(part))


def test_a_number_inside_a_bold_label_ends_nothing() -> None:
    # "**Step 1.** Install" numbers a step in a label: the emphasis that opens
    # the chunk closes right after the number's period, as a heading's line
    # ends after it.
    text = (
        "**Phase 2.** Copy the files. Check them.\n"
        "- __Task 14.__ Sign in.\n"
        "Done. *Round 3.* Start over."
    )
    assert ACCURATE.split_text(text) == [
        "**Phase 2.** Copy the files.",
        "Check them.",
        "- __Task 14.__ Sign in.",
        "Done.",
        "*Round 3.* Start over.",
    ]
    # A label that is no number, a bold sentence, or emphasis opened
    # elsewhere still ends its sentence.
    for other, chunks in [
        ("**Careful.** Back up first.", ["**Careful.**", "Back up first."]),
        ("We got 3 **of 5.** Next round.", ["We got 3 **of 5.**", "Next round."]),
        ("**Rule 5.**) Then go.", ["**Rule 5.**)", "Then go."]),
        ("**Rule** number 5.** Then go.", ["**Rule** number 5.**", "Then go."]),
    ]:
        assert ACCURATE.split_text(other) == chunks
    for part in (text, "**Rule 5.**) Then go.", "* _Item 7._\tGo"):
        assert_streamed_as_the_rules_decide(list(part))


def test_a_numbered_item_in_a_block_quote_keeps_its_number() -> None:
    # "> 1. Item" is a list inside a quote: the marker after the quote marks
    # opens the chunk as after a bullet, at any depth and after a bullet.
    text = "> 1. Check the key.\n> 2. Retry. It works.\n> > b. Nested item\n> - 3. Last"
    assert ACCURATE.split_text(text) == [
        "> 1. Check the key.",
        "> 2. Retry.",
        "It works.",
        "> > b. Nested item",
        "> - 3. Last",
    ]
    # A ">" inside a sentence opens nothing.
    assert ACCURATE.split_text("Load > 1. Then stop.") == ["Load > 1.", "Then stop."]
    # Markdown needs no space after ">": the markers glued to the number are
    # a lead too.
    tight = ">1. Pick a region\n>2. Save it. Then wait.\n>>3. Deeper item\n> >4. Spaced marks"
    assert ACCURATE.split_text(tight) == [
        ">1. Pick a region",
        ">2. Save it.",
        "Then wait.",
        ">>3. Deeper item",
        "> >4. Spaced marks",
    ]
    for part in (text, tight, "> 1. Check the key.\r\n>\t2) Go"):
        assert_streamed_as_the_rules_decide(list(part))


def test_a_table_row_keeps_the_cells_that_end_a_sentence() -> None:
    # A terminator before a cell's "|" ends nothing: the row is one chunk.
    row = "| accurate | Slower. | Keeps quotes! |"
    assert ACCURATE.split_text(f"{row}\n| simple | Fast. | - |") == [row, "| simple | Fast. | - |"]
    # Sentences inside one cell still split.
    assert ACCURATE.split_text("| Fast. Cheap. |") == ["| Fast.", "Cheap. |"]
    for text in (row, "| a. |\n| b! |", "Done. | next"):
        assert_streamed_as_the_rules_decide(list(text))


def test_emoji_that_end_a_line_end_its_sentence() -> None:
    text = "Email us! \U0001f60a\nThat is all. \u2705 \U0001f44d\U0001f3fd\r\nBye. \U0001f389"
    assert ACCURATE.split_text(text) == [
        "Email us! \U0001f60a",
        "That is all. \u2705 \U0001f44d\U0001f3fd",
        "Bye. \U0001f389",
    ]
    # Before more text on the line, an emoji opens the next sentence.
    assert ACCURATE.split_text("Thanks! \U0001f60a Bye.") == ["Thanks!", "\U0001f60a Bye."]
    assert_streamed_as_the_rules_decide(list(text))


def test_a_lone_carriage_return_is_a_line_break() -> None:
    assert ACCURATE.split_text("a\r\rb") == ["a", "b"]
    assert ACCURATE.split_text("a\r\nb") == ["a", "b"]
    assert ACCURATE.split_text("Title\r(note)\rThe end.") == ["Title", "(note)", "The end."]


@pytest.mark.parametrize(
    "text",
    [
        "word. " + " " * 40 + "\n" + " " * 50 + "next line",
        "A line long enough to be a hard wrap here" + " " * 45 + "\n" + "\t" * 45 + "b) x",
        "short" + "\n" + " " * 60 + "lower",
        "x" * 40 + " it ends.\r" + " " * 50 + "\nlower",
        "cold \n" + " " * 70 + "(a) item",
    ],
)
def test_a_long_gap_after_a_line_break_keeps_what_decides_it(text: str) -> None:
    # The text before the break may be dropped from the window while the gap
    # arrives: what it says is read before (the decision does not change).
    for step in (1, 3, 7, 40):
        parts = [text[i : i + step] for i in range(0, len(text), step)]
        assert_streamed_as_the_rules_decide(parts)


@pytest.mark.parametrize(
    "text",
    [
        "a) The first b) The second c) The third",
        "1) one 2) two 10) ten 3) three",
        "\u2022 9. Nine \u2022 10. Ten \u20439. Nine a. One b. Two",
        "It grew fast.12 13 Then it slowed. Back in 1999.1234 Nothing. See it.12",
        "Stop (here).3 Now. Pi 3.14 Is. v1.2 Out.",
        "Title\r(note)\rThe end.\r\rNext",
        "one\r\ntwo\r\n\r\nthree \r\nfour",
        "A line ending in a return\r",
        "It was cold \r\nnight came. Then\rmore",
    ],
)
def test_lines_items_and_footnotes_are_decided_alike_wherever_a_delta_ends(text: str) -> None:
    for i in range(len(text) + 1):
        assert_streamed_as_the_rules_decide([text[:i], text[i:]])


WORDS = ["word", "Word", "a)", "b)", "1)", "2)", "10.", "x.12", "(y).3", "z", "ab.4 5", "\u2022"]
GAPS = [" ", "\n", " \n", "\r", "\r\n", "\n\n", "\n  ", " \t\n", "\n("]
LONG = "a line of thirty-two characters or more"


@given(
    st.lists(st.sampled_from([*WORDS, LONG]), max_size=20),
    st.lists(st.sampled_from(GAPS), max_size=20),
    st.lists(st.integers(min_value=0), max_size=12),
)
def test_lines_and_lists_agree_with_the_rules_however_streamed(
    words: list[str], gaps: list[str], cuts: list[int]
) -> None:
    text = "".join(w + g for w, g in zip(words, itertools.cycle(gaps or [" "]), strict=False))
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    parts = [text[a:b] for a, b in itertools.pairwise(bounds)]
    assert_streamed_as_the_rules_decide(parts)
