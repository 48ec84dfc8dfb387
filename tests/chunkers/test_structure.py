"""StructureChunker: headings, numbered sections, thematic breaks, fences kept whole,
transitions; properties over random Markdown lines and linear work (counted).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.chunking import bad, check_stream, feed_work, linear, sliced
from helpers.cost import Work, count_work
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import (
    StructureChunker,
    resolve_chunker,
)
from guardrails_ai.chunkwise.chunkers.headings import headings_of
from guardrails_ai.chunkwise.chunkers.structure import DEFAULT_TRANSITIONS

# -- StructureChunker ---------------------------------------------------------


def sections(text: str, **kwargs: Any) -> list[str]:
    return StructureChunker(**kwargs).split_text(text)


def test_structure_atx_heading_starts_a_section() -> None:
    text = "Intro.\n# One\nbody one\n## Two\nbody two\n"
    assert sections(text) == ["Intro.", "# One\nbody one", "## Two\nbody two"]
    # Not headings: seven #, no space, four spaces of indentation.
    assert sections("a\n####### x\n#x\n    # x\n") == ["a\n####### x\n#x\n    # x"]


def test_structure_setext_heading_starts_a_section_at_its_paragraph() -> None:
    text = "Intro text.\n\nTitle\nline two\n=====\nbody\n\nSub\n---\nmore"
    assert sections(text) == [
        "Intro text.",
        "Title\nline two\n=====\nbody",
        "Sub\n---\nmore",
    ]


def test_structure_numbered_sections() -> None:
    text = "Intro.\n\n1. Home Page\nThe homepage.\n\n2.3 Details\nMore.\n\n4) Last\nEnd."
    assert sections(text) == [
        "Intro.",
        "1. Home Page\nThe homepage.",
        "2.3 Details\nMore.",
        "4) Last\nEnd.",
    ]


def test_structure_numbered_titles_only_at_a_paragraph_start() -> None:
    # A tight list stays in its section; a year is not a number title.
    text = "Steps.\n\n1. one\n2. two\n3. three\n\n2024. was a year\n"
    assert sections(text) == ["Steps.", "1. one\n2. two\n3. three\n\n2024. was a year"]
    assert sections(text, respect_numbered_sections=False) == [text.strip()]


def test_structure_thematic_break_ends_a_section_and_is_separator() -> None:
    text = "one\n\n---\n\ntwo\n* * *\nthree\n___"
    assert sections(text) == ["one", "two", "three"]
    assert StructureChunker().flush(text) == ["three"]  # a final break is stripped
    assert StructureChunker().segments(text) == ["one\n\n---\n", "\ntwo\n* * *\n", "three\n___"]


def test_structure_fenced_code_is_kept_whole() -> None:
    text = (
        "Intro.\n\n```python\n# not a heading\n\n\n\n1. nor a title\n---\n```\n"
        "after\n~~~\n# inside tildes\n```\n~~~~\n# Next\nx"
    )
    assert sections(text) == [
        "Intro.\n\n```python\n# not a heading\n\n\n\n1. nor a title\n---\n```\n"
        "after\n~~~\n# inside tildes\n```\n~~~~",
        "# Next\nx",
    ]


def test_structure_fence_closes_only_with_the_same_character_and_length() -> None:
    text = "a\n````\n```\n# in\n~~~~\n# in\n````\n# out\nb"
    assert sections(text) == ["a\n````\n```\n# in\n~~~~\n# in\n````", "# out\nb"]
    # A backtick fence's info string cannot hold a backtick: not a fence.
    assert sections("a\n``` x`y\n# out\nb") == ["a\n``` x`y", "# out\nb"]


def test_structure_unclosed_fence_runs_to_the_end() -> None:
    text = "a\n```\n# no\n\n\n\nstill code"
    assert sections(text) == [text]


def test_structure_blank_line_runs() -> None:
    text = "one\n\ntwo\n\n\nthree\n \n\t\n\n\nfour"
    assert sections(text) == ["one\n\ntwo", "three", "four"]
    assert sections(text, double_newline_as_boundary=False) == [text]


def test_structure_transitions_are_opt_in() -> None:
    text = "Results are good.\n\nHowever, costs rose.\n\nIn summary, fine.\nhowever, mid"
    assert sections(text) == [text]
    assert sections(text, split_on_transitions=True) == [
        "Results are good.",
        "However, costs rose.",
        "In summary, fine.\nhowever, mid",
    ]


def test_structure_transition_phrases_extend_the_defaults() -> None:
    text = "a.\n\nBy contrast, b.\n\nHowever, c.\n\nbeyond d."
    chunker = StructureChunker(split_on_transitions=True, transition_phrases=["By contrast", "Be"])
    assert chunker.split_text(text) == ["a.", "By contrast, b.", "However, c.\n\nbeyond d."]
    assert "However," in DEFAULT_TRANSITIONS


def test_structure_sections_are_never_headings_alone() -> None:
    text = "# Part\n## Chapter\n\n1. First\ntext\n# Next\n\nHowever, more"
    assert sections(text, split_on_transitions=True) == [
        "# Part\n## Chapter\n\n1. First\ntext",
        "# Next\n\nHowever, more",
    ]


def test_structure_options_off() -> None:
    text = "a\n# H\nb\nT\n===\nc\n---\nd"
    assert sections(text, respect_headings=False) == [text]


def test_structure_seed_example() -> None:
    text = (
        "\n# Intro\nWelcome to our proposal.\n\n1. Home Page\nThe homepage will act...\n\n"
        "2. About Us Page\nTo build credibility and trust.\n\n"
        "However, we must also consider costs.\n\n3. Services Page\nA detailed breakdown.\n"
    )
    assert sections(text, split_on_transitions=True) == [
        "# Intro\nWelcome to our proposal.",
        "1. Home Page\nThe homepage will act...",
        "2. About Us Page\nTo build credibility and trust.",
        "However, we must also consider costs.",
        "3. Services Page\nA detailed breakdown.",
    ]


def test_structure_a_heading_is_reported_as_soon_as_its_start_decides_it() -> None:
    chunker = StructureChunker()
    assert chunker.split("Intro.\n# Ti") == ["Intro."]
    assert chunker.split("Intro.\n#") == []  # "#x" would be no heading
    assert chunker.split("Intro.\n\n1. T") == ["Intro."]


def test_structure_unterminated_last_line() -> None:
    chunker = StructureChunker()
    # A Setext underline needs its "\n"; without it, it is text.
    assert chunker.split_text("a\n\nTitle\n===") == ["a\n\nTitle\n==="]
    assert chunker.split_text("a\n\nTitle\n===\n") == ["a", "Title\n==="]
    assert chunker.flush("a\n\n  ") == ["a"]


@pytest.mark.parametrize(
    ("transitions", "text", "expected"),
    [
        # A transition paragraph that is also a Setext heading: one break.
        (True, "a\n\nHowever, x\n===\nb", ["a", "However, x\n===\nb"]),
        # After headings only, a Setext heading does not start a section.
        (False, "# A\nFoo\n===\nbody", ["# A\nFoo\n===\nbody"]),
        # After a heading line "---" is a break, not an underline.
        (False, "text\n# A\n---\nx", ["text", "# A", "x"]),
        # Up to three spaces before "#"; a tab is too much.
        (False, "a\n  # H\nb\n\t# no\n", ["a", "  # H\nb\n\t# no"]),
        # At most five number levels.
        (
            False,
            "a\n\n1.1.1.1.1 Deep\nb\n\n1.1.1.1.1.1 Too deep\nc",
            ["a", "1.1.1.1.1 Deep\nb\n\n1.1.1.1.1.1 Too deep\nc"],
        ),
        # A fence closes only with its own character; nested fences are text.
        (False, "p\n~~~~\n```\n~~~\n~~~~\n# H\nq", ["p\n~~~~\n```\n~~~\n~~~~", "# H\nq"]),
        # The unterminated last line opens a section when its start decides it.
        (True, "a\n\nHowever, x", ["a", "However, x"]),
    ],
)
def test_structure_interactions(transitions: bool, text: str, expected: list[str]) -> None:
    assert sections(text, split_on_transitions=transitions) == expected


def test_structure_crlf_lines() -> None:
    text = "intro\r\n# H\r\nbody\r\n\r\n\r\nnext\r\n"
    assert sections(text) == ["intro", "# H\r\nbody", "next"]


@pytest.mark.parametrize(
    ("kwargs", "exc", "needles"),
    [
        ({"respect_headings": 1}, TypeError, ("respect_headings", "1")),
        ({"split_on_transitions": "no"}, TypeError, ("split_on_transitions", "'no'")),
        ({"double_newline_as_boundary": None}, TypeError, ("double_newline_as_boundary",)),
        ({"respect_numbered_sections": 0}, TypeError, ("respect_numbered_sections",)),
        (
            {"transition_phrases": ["So,"]},
            ValueError,
            ("transition_phrases", "split_on_transitions"),
        ),
        (
            {"split_on_transitions": True, "transition_phrases": "So,"},
            TypeError,
            ("transition_phrases", "str"),
        ),
        (
            {"split_on_transitions": True, "transition_phrases": ["So,", "  "]},
            ValueError,
            ("transition_phrases[1]", "'  '"),
        ),
        # (A phrase that is no string is a TypeError naming its index.)
        (
            {"split_on_transitions": True, "transition_phrases": ["So,", 3]},
            TypeError,
            ("transition_phrases[1]", "int", "3"),
        ),
        (
            {"split_on_transitions": True, "transition_phrases": {"So,": 1}},
            TypeError,
            ("transition_phrases", "dict"),
        ),
        # (A phrase is matched at the start of one line: one holding a line
        # break was accepted and never matched.)
        (
            {"split_on_transitions": True, "transition_phrases": ["So,", "In short\nthen,"]},
            ValueError,
            ("transition_phrases[1]", "line break"),
        ),
    ],
)
def test_structure_rejects_bad_parameters(kwargs: dict[str, Any], exc: type, needles: Any) -> None:
    with bad(exc, *needles):
        StructureChunker(**kwargs)


def test_structure_alias_and_equality() -> None:
    assert resolve_chunker("structure") == StructureChunker()
    chunker = StructureChunker(split_on_transitions=True, transition_phrases=["So,"])
    assert chunker == StructureChunker(split_on_transitions=True, transition_phrases=["So,"])
    assert chunker != StructureChunker(split_on_transitions=True)


LINES = [
    "# H",
    "## Sub",
    "####### no",
    "text",
    "more words",
    "",
    "",
    " ",
    "\t",
    "1. Title",
    "2.3 Sub",
    "2024. year",
    "However, x",
    "In summary, y",
    "---",
    "- - -",
    "***",
    "___",
    "===",
    "```",
    "````",
    "~~~",
    "```py",
    "``` a`b",
    "    # indented",
    "- item",
    "1. ",
    "#",
    "\r",
    "Title\r",
]
structure_texts = st.builds(
    lambda lines, ends, tail: (
        "".join(line + end for line, end in zip(lines, ends, strict=False)) + tail
    ),
    st.lists(st.sampled_from(LINES), max_size=12),
    st.lists(st.sampled_from(["\n", "\n", "\r\n", "\n\n"]), min_size=12, max_size=12),
    st.sampled_from(["", "x", "# T", "1. T", "---", "```", " "]),
)
STRUCTURE_CONFIGS = [
    StructureChunker(),
    StructureChunker(split_on_transitions=True, transition_phrases=["text"]),
    StructureChunker(respect_headings=False),
    StructureChunker(respect_numbered_sections=False, double_newline_as_boundary=False),
]


def fence_interiors(text: str) -> list[tuple[int, int]]:
    """Spans strictly inside closed fences (a plain restatement of the rule)."""
    spans, offset = [], 0
    opened: tuple[str, int, int] | None = None  # char, length, end of the opening line
    for line in text.split("\n"):
        body = line.strip()
        run = len(body) - len(body.lstrip(body[:1])) if body[:1] in ("`", "~") else 0
        if opened is None:
            if run >= 3 and not (body[0] == "`" and "`" in body[run:]):
                opened = (body[0], run, offset + len(line))
        elif run >= opened[1] and body[0] == opened[0] and run == len(body):
            spans.append((opened[2], offset))
            opened = None
        offset += len(line) + 1
    return spans


@pytest.mark.parametrize("chunker", STRUCTURE_CONFIGS, ids=repr)
@given(case=sliced(structure_texts))
def test_structure_properties(chunker: StructureChunker, case: tuple[str, list[str]]) -> None:
    text, deltas = case
    chunks = check_stream(chunker, text, deltas)
    assert all(c == c.strip("\n") and c == c.rstrip() for c in chunks)
    # No section boundary inside a closed backtick fence.
    layout = chunker.locate(text)
    for a, b in fence_interiors(text):
        assert not any(a < cut.end <= b and cut.stop <= b for cut in layout.cuts)


@pytest.mark.parametrize(
    "text",
    [
        "#" * 20_000,
        "`" * 20_000,
        "-" * 20_000,
        "- " * 10_000,
        "=" * 20_000,
        "~" * 20_000,
        "1" * 20_000,
        "1." * 10_000,
        " " * 20_000,
        "x" * 20_000,
        "```\n" * 5_000,  # fences opening and closing
        "#\n" * 10_000,
        "a\n===\n" * 3_000,
        "1. T\n\n" * 3_000,
        "\n\n\n#" * 5_000,
        "(" * 10_000 + ")" * 10_000,
        ("#" * 50 + "\n" + "-" * 50 + "\n" + "1.1.1.1.1.1 x\n") * 200,
    ],
    ids=lambda t: repr(t[:12]),
)
@pytest.mark.parametrize("config", [0, 1])
def test_structure_work_is_linear(monkeypatch: pytest.MonkeyPatch, text: str, config: int) -> None:
    from guardrails_ai.chunkwise.chunkers.structure import _StructureScanner

    work = count_work(monkeypatch, _StructureScanner)
    chunker = STRUCTURE_CONFIGS[config]

    def measure(n: int) -> Work:
        before = Work(work.examined, work.window, work.calls)
        feed_work(chunker, (text * 3)[:n], 4, work)
        return Work(
            work.examined - before.examined, work.window - before.window, work.calls - before.calls
        )

    linear(measure, 10_000)


#: Lines that read as a heading or a fence one way or another.
MARKDOWN_EDGES = [
    "Intro.\n\n    ```\n# Inside a fence\ntext\n    ```\n# After\nbody\n",  # a list item's fence
    "Intro.\n\n\t~~~\n# Inside\n~~~\n## After\nbody\n",
    "Intro.\n\nTitle\n=\nbody\n",  # an underline too short
    "Intro.\n\nTitle\n===\nbody\n\nSub\n---\nmore\n",
    "Intro.\n\n#\u00a0Title\nbody\n",  # no space or tab after "#"
    "Intro.\n\n#\tTitle\nbody\n#\n",
    "Intro.\n\n#\u00a0\nbody\n",  # (a no-break space after "#" at the line's end)
    "Intro.\n\n```js `x`\n# Heading\nbody\n",  # an inline code span, not a fence
    # A fence line indented deeper than the block's own fence is code (a
    # string that shows Markdown): it closes nothing.
    'Intro.\n\n```python\nDOC = """\n    ```\n"""\n# a comment\n```\n# Usage\nbody\n',
    "Intro.\n\n- item\n\n    ```sh\n    run\n        ```\n    # not a heading\n"
    "    ```\n# After\nbody\n",
]


@pytest.mark.parametrize("doc", MARKDOWN_EDGES)
def test_headings_of_names_the_sections_structure_cuts(doc: str) -> None:
    # Before: headings_of read fences indented by up to three blanks only,
    # Setext underlines of one "=", and no NBSP after "#": a chunk's heading
    # path named sections StructureChunker never cut, or missed its own.
    chunker = StructureChunker(respect_numbered_sections=False, double_newline_as_boundary=False)
    section_starts = [a for a, _ in chunker.locate(doc).spans()[1:]]
    assert section_starts == [start for start, _, _ in headings_of(doc)]


def test_a_setext_heading_of_several_lines_starts_where_its_paragraph_does() -> None:
    # Before: headings_of put the heading on the paragraph's last line, past
    # the section start StructureChunker cuts at (the first line): the
    # section's chunk was put under the heading before it.
    doc = "Opening words.\n\nA title that\n  runs over two lines\n---\nbody\n"
    assert headings_of(doc) == [(16, 2, "A title that runs over two lines")]
    section_starts = [a for a, _ in StructureChunker().locate(doc).spans()[1:]]
    assert section_starts == [16]


@pytest.mark.parametrize("doc", ["# Top\n\nSome text.\n#", "# Top\n\nSome text.\n==="])
def test_an_unterminated_last_line_is_a_heading_only_as_structure_reads_it(doc: str) -> None:
    # Before: headings_of read the last line as if a "\n" ended it: a bare
    # "#" or a "===" under the paragraph made a heading that StructureChunker
    # (which reads a last line only through what its start decides) never cut.
    assert StructureChunker().split_text(doc) == [doc]
    assert headings_of(doc) == [(0, 1, "Top")]
    assert headings_of(doc + "\n") != [(0, 1, "Top")]


def test_a_fence_line_deeper_than_the_open_fence_is_code() -> None:
    # Before: the string's fence closed the block, "# a comment" became a
    # heading and the block's own closing fence opened one to the end.
    doc = MARKDOWN_EDGES[-2]
    assert [title for _, _, title in headings_of(doc)] == ["Usage"]
    chunks = StructureChunker(double_newline_as_boundary=False).split_text(doc)
    assert chunks[-1] == "# Usage\nbody"
