"""NoRepetition: normalised repeats, per-response state, isolation between streams."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from guardrails_ai.types import FailResult, PassResult
from helpers.chunking import sliced
from helpers.guardrails import (
    MESSAGES,
    arun,
    async_llm,
    guard_with,
    joined,
    llm,
    rebuilt_opt_in_outputs,
    run,
    validated_and_streamed,
)
from helpers.prose import PROSE
from helpers.validator_checks import assert_fix_within_spans, assert_verdict, texts_and_deltas
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import NoRepetition
from guardrails_ai.chunkwise import _fence_joins as fence_joins
from guardrails_ai.chunkwise.adapters import async_guarded_stream, guarded_stream, with_chunker
from guardrails_ai.chunkwise.chunkers import (
    Bounded,
    ChunkingStrategy,
    ChunkStream,
    ParagraphChunker,
    limit,
)

FIX = NoRepetition(on_fail="fix")
GUARD = guard_with(FIX)
NOOP_GUARD = guard_with(NoRepetition(on_fail="noop"))
ASYNC_GUARD = guard_with(NoRepetition(on_fail="fix"), asynchronous=True)


def check(text: str, validator: NoRepetition = FIX) -> Any:
    return validator.validate(text, {})


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("I am fine. I am fine. Bye.", "I am fine.  Bye."),
        ("I am fine. I AM   fine. I\tam fine.", "I am fine.  "),
        ("I am \uff26\uff29\uff2e\uff25. I am fine.", "I am \uff26\uff29\uff2e\uff25. "),
        ("Loop. Loop. Loop. Loop", "Loop.   Loop"),  # the last has no full stop
        ("Fine. Fine! Fine? Fine", None),  # punctuation counts
        ("It\u2019s fine. It's fine. Bye.", "It\u2019s fine.  Bye."),  # apostrophes fold
        ("One. Two. Three.", None),
    ],
)
def test_examples(text: str, fixed: str | None) -> None:
    result = assert_verdict(check(text), fixed)
    if result:
        assert_fix_within_spans(text, result)


def test_spans_and_message_name_the_occurrence() -> None:
    result = check("Again. Again. Again.")
    assert isinstance(result, FailResult)
    assert [(s.start, s.end) for s in result.error_spans] == [(7, 13), (14, 20)]
    assert [s.reason for s in result.error_spans] == [
        "occurrence 2 of a unit allowed 1 time(s)",
        "occurrence 3 of a unit allowed 1 time(s)",
    ]
    assert result.error_message.startswith("Repeated text: 6 characters, occurrence 2")
    assert "Again" not in result.error_message


def test_max_repeats() -> None:
    twice = NoRepetition(max_repeats=2, on_fail="fix")
    result = check("Yes. Yes. Yes. No. Yes.", twice)
    assert isinstance(result, FailResult) and result.fix_value == "Yes. Yes.  No. "


def test_paragraph_unit() -> None:
    by_paragraph = NoRepetition(unit="paragraph")
    assert isinstance(by_paragraph.chunker, ParagraphChunker)
    assert by_paragraph.get_args() == {"max_repeats": 1, "unit": "paragraph"}
    assert isinstance(NoRepetition(**by_paragraph.get_args()).chunker, ParagraphChunker)
    text = "Same line. Same line.\n\nA paragraph.\n\nA  PARAGRAPH."
    result = check(text, by_paragraph)
    assert isinstance(result, FailResult)
    [span] = result.error_spans
    assert text[span.start : span.end] == "A  PARAGRAPH."


def test_no_false_positives_on_prose() -> None:
    assert isinstance(check(PROSE), PassResult)
    assert isinstance(check(PROSE, NoRepetition(unit="paragraph")), PassResult)
    assert isinstance(check(PROSE + " " + PROSE.split(". ")[3] + "."), FailResult)


def test_a_greek_sentence_repeated_in_capitals_is_a_repeat() -> None:
    # Before: passed. Capital eta, nu and upsilon imitate "H", "N" and "Y",
    # their small letters "n", "v" and "u": each case folded to another letter.
    text = (
        "\u0397 \u03b6\u03c9\u03ae \u03b5\u03af\u03bd\u03b1\u03b9 \u03c9\u03c1\u03b1\u03af\u03b1. "
        "\u0397 \u0396\u03a9\u0397 \u0395\u0399\u039d\u0391\u0399 \u03a9\u03a1\u0391\u0399\u0391. "
        "\u0391\u03bd\u03c4\u03af\u03bf."
    )
    first, _repeat, last = text.split(". ")
    fixed = f"{first}.  {last}"
    assert_verdict(check(text), fixed)
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    assert joined(run(GUARD, deltas)) == fixed
    assert joined(asyncio.run(arun(ASYNC_GUARD, deltas))) == fixed


def test_words_a_vowel_sign_or_tone_tells_apart_are_no_repeats() -> None:
    # Before: every combining mark was dropped before comparing, so Thai
    # "\u0e02\u0e49\u0e32\u0e27" (rice), "\u0e02\u0e48\u0e32\u0e27" (news) and
    # "\u0e02\u0e32\u0e27" (white), or Hindi "\u092a\u0941\u0932" (bridge) and
    # "\u092a\u0932" (moment), were one item repeated and dropped under fix.
    for text in (
        "- \u0e02\u0e49\u0e32\u0e27\n- \u0e02\u0e48\u0e32\u0e27\n- \u0e02\u0e32\u0e27",
        "- \u092a\u0941\u0932\n- \u092a\u0932",
    ):
        assert isinstance(check(text), PassResult)
        assert joined(run(GUARD, [text[i : i + 3] for i in range(0, len(text), 3)])) == text
    # Accents are still dropped: "Caf\u00e9." repeats "Cafe.".
    assert isinstance(check("Cafe. Caf\u00e9."), FailResult)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_repeats": 0}, ValueError, r"max_repeats must be >= 1, got 0"),
        ({"max_repeats": True}, TypeError, r"max_repeats must be an int, got bool: True"),
        ({"max_repeats": "2"}, TypeError, r"max_repeats must be an int, got str: '2'"),
        ({"unit": "word"}, ValueError, r"unit='word' is not a unit; choose one of 'sentence', "),
        ({"unit": True}, TypeError, r"unit must be a str, got bool: True"),
        # (Before: a ValueError saying language= applies to sentences only.)
        ({"unit": True, "language": "de"}, TypeError, r"unit must be a str, got bool: True"),
        (
            {"unit": "sentence", "chunker": "paragraph"},
            ValueError,
            r"give unit='sentence' or chunker='paragraph', not both",
        ),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        NoRepetition(**kwargs)


# -- state per response ----------------------------------------------------------------


def test_each_call_starts_from_zero() -> None:
    for _ in range(3):
        assert isinstance(check("Hello. World."), PassResult)
        assert joined(run(GUARD, ["Hello. ", "World."])) == "Hello. World."
        assert "Hello. World.".startswith(joined(run(GUARD, ["Hello. ", "World."], guarded=False)))
        assert GUARD.validate("Hello. World.").validated_output == "Hello. World."


def test_repeat_across_delta_borders_and_at_the_end() -> None:
    deltas = ["Go on", ". Go", " o", "n. Stop", ". GO   ON."]
    assert joined(run(GUARD, deltas)) == "Go on.  Stop. "
    assert joined(asyncio.run(arun(ASYNC_GUARD, deltas))) == "Go on.  Stop. "
    outcomes = run(NOOP_GUARD, deltas)
    assert joined(outcomes) == "".join(deltas)
    assert not outcomes[-1].validation_passed


def test_interleaved_streams_never_share_state() -> None:
    # Two responses through one guard, advanced alternately: each repeats only
    # its own sentences.
    a = guarded_stream(GUARD, llm(["Alpha. ", "Beta. ", "Alpha."]), messages=MESSAGES)
    b = guarded_stream(GUARD, llm(["Beta. ", "Alpha. ", "Gamma."]), messages=MESSAGES)
    out: dict[str, list[str]] = {"a": [], "b": []}
    pending = {"a": a, "b": b}
    while pending:
        for name, stream in list(pending.items()):
            try:
                out[name].append(next(stream).validated_output or "")
            except StopIteration:
                del pending[name]
    assert "".join(out["a"]) == "Alpha. Beta. "
    assert "".join(out["b"]) == "Beta. Alpha. Gamma."


def test_concurrent_threads_never_share_state() -> None:
    results: dict[int, str] = {}

    def worker(i: int) -> None:
        deltas = [f"Line {i}. ", "Shared. ", f"Line {i}. ", "Shared."]
        results[i] = joined(run(GUARD, deltas, guarded=False))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i in range(4):
        assert results[i] == f"Line {i}. Shared.  "


def test_concurrent_async_tasks_never_share_state() -> None:
    guard = guard_with(NoRepetition(on_fail="fix"), asynchronous=True)

    async def one(i: int) -> str:
        deltas = [f"Task {i}. ", "Same. ", "Same. ", f"Task {i}."]
        stream = async_guarded_stream(guard, async_llm(deltas), messages=MESSAGES)
        return "".join([o.validated_output or "" async for o in stream])

    async def main() -> list[str]:
        return await asyncio.gather(*(one(i) for i in range(4)))

    for i, text in enumerate(asyncio.run(main())):
        assert text == f"Task {i}. Same.  "


_SENTENCES = [
    "Again.",
    "again.",
    "AGAIN!",
    "Once more, with  feeling.",
    "once more, with feeling.",
    "New thought",
    "Different?",
]


@given(texts_and_deltas(_SENTENCES))
def test_streamed_equals_validated_at_once(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    validated_and_streamed(GUARD, text, deltas)
    noop = run(NOOP_GUARD, deltas)
    result = check(text)
    assert all(o.validation_passed for o in noop) == isinstance(result, PassResult)
    if isinstance(result, FailResult):
        assert_fix_within_spans(text, result)


def test_unit_on_a_with_chunker_subclass_rebuilds_from_to_dict() -> None:
    # Before: to_dict() wrote the subclass's chunker beside unit=, and
    # Guard.from_dict refused the pair ("give unit= or chunker=, not both").
    from guardrails import Guard

    cls = with_chunker(NoRepetition, "paragraph")
    guard = Guard().use(cls(unit="sentence", on_fail="fix"))
    rebuilt = Guard.from_dict(guard.to_dict())
    assert rebuilt is not None
    (validator,) = rebuilt.get_validators("output")
    assert isinstance(validator, NoRepetition)
    assert validator.get_args()["unit"] == "sentence"
    assert validator.chunker.split_text("Yes. Yes.") == ["Yes.", "Yes."]


def test_paragraph_unit_reads_crlf_blank_lines() -> None:
    # Before: "\r\n\r\n" ended no paragraph, so the repeat passed.
    text = "Same para.\r\n\r\nSame para.\r\n\r\nEnd."
    result = NoRepetition(unit="paragraph", on_fail="fix").validate(text, {})
    assert isinstance(result, FailResult)
    assert NoRepetition(unit="paragraph").get_args()["unit"] == "paragraph"


_JS = """Like this:

```js
function up(x) {
  if (x) {
    return 1;
  }
  return 0;
}
function down(y) {
  if (y) {
    return 1;
  }
  return 0;
}
```

Then run it."""


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: the closing fence repeated the opening one and was dropped,
        # so "Then run it." (and all that follows) ended up inside the code block.
        ("Try this:\n```\nmake all\n```\nThen run it.", None),
        # Before: the second block lost both fences and its code went out bare.
        ("First:\n\n```sh\nls -a\n```\n\nSecond:\n\n```sh\npwd\n```\n", None),
        # Before: the second function lost its closing brace.
        (_JS, None),
        ("~~~\nA.\n~~~\n", None),
        ("  ```\r\n  make all\r\n  ```\r\n  ```\r\n  make all\r\n  ```\r\n", None),
        ("Part one.\n\n---\n\nPart two.\n\n---\n\nEnd.", None),
        # A setext heading's underline.  Before: the second was dropped, and
        # its title became a line of text.
        ("Install\n=======\n\nRun it.\n\nUse\n=======\n\nCall it.\n", None),
        ("A\n=\nB\n=\n> C\n> ===\n", None),
        ("Set x = 1. = = =\n= = =\n", "Set x = 1. = = =\n\n"),  # (no underline)
        ("| a | b |\n|---|:-:|\n\nAnd:\n\n| c | d |\n| --- | :-: |\n", None),
        # Prose around code is still compared, and a one-line code span is no block.
        ("Same.\n```\nx\n```\nSame.\n", "Same.\n```\nx\n```\n\n"),
        ("Use ```x```. Use ```x```.", "Use ```x```. "),
        ("Same.\n***\nSame.\n***\n", "Same.\n***\n\n***\n"),
        # Fence marks partway along a line open no block (a fence begins its
        # line): before, every repeat after them passed as code.
        (
            "Type it. ``` opens a block. Loop. Loop.\nLoop.",
            "Type it. ``` opens a block. Loop. \n",
        ),
        ("Done. ~~~ marks it.\nAgain. Again.", "Done. ~~~ marks it.\nAgain. "),
        # (A line separator or a form feed is no line ending of CommonMark's.)
        (
            "Type it.\u2028``` opens a block. Loop. Loop.",
            "Type it.\u2028``` opens a block. Loop. ",
        ),
        ("Type it.\x0c~~~ opens. Loop. Loop.", "Type it.\x0c~~~ opens. Loop. "),
        # (... nor close one: the code after them is still code, kept whole.)
        ("```\nx = 1\nDone. ```\nx = 1\nx = 1\n```\n", None),
        # Fenced code in a block quote is code too.  Before: its closing fence
        # repeated the opening one and was dropped, and the code after it.
        ("> ```\n> x = 1\n> ```\n", None),
        ("> Run:\n> ```sh\n> make\n> ```\n> Then:\n> ```sh\n> make\n> ```\n", None),
        ("> > ~~~\n> > a\n> > a\n> > ~~~\n", None),
        ("1. Build:\n   > ```\n   > go\n   > ```\n2. Test:\n   > ```\n   > go\n   > ```\n", None),
        ("> Same.\n> Same.\n", "> Same.\n\n"),  # (quoted prose is compared)
        # A blank quoted line (between two quoted paragraphs) is structure.
        # Before: the second was dropped, which split the quote in two.
        ("> One.\n>\n> Two.\n>\n> Three.\n", None),
        ("> > A.\n> >\n> > B.\n> >  \n> > C.\n", None),
        ("> Part one.\n>\n> ---\n>\n> Part two.\n>\n> ---\n", None),
    ],
)
def test_fenced_code_and_markdown_structure_are_no_units(text: str, fixed: str | None) -> None:
    assert_verdict(check(text), fixed)
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    assert joined(run(GUARD, deltas)) == (text if fixed is None else fixed)
    paragraphs = NoRepetition(unit="paragraph", on_fail="fix")
    if fixed is None:
        assert isinstance(check(text, paragraphs), PassResult)


def test_a_blank_letter_between_words_reads_as_a_space() -> None:
    # Before: U+2800 and U+3164 were dropped, so "I⠀can⠀help." (shown as
    # "I can help.") read "icanhelp." and passed, and "Hi⠀there." repeated "Hithere.".
    result = check("I can help. I\u2800can\u3164help. Bye.")
    assert_verdict(result, "I can help.  Bye.")
    assert joined(run(GUARD, ["I can help. I\u2800c", "an\u3164help. Bye."])) == "I can help.  Bye."
    assert isinstance(check("Hi\u2800there. Hithere."), PassResult)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: the numbers made each item its own sentence, so a model
        # looping down a numbered list passed.
        (
            "Tips:\n1. Cache the result.\n2. Cache the result.\n3) Cache the result.\n",
            "Tips:\n1. Cache the result.\n\n\n",
        ),
        ("- Ship it.\n* Ship it.\n+ Ship it.\n\u2022 Ship it.", "- Ship it.\n\n\n"),
        ("\uff11. Go now.\n2. Go now.", "\uff11. Go now.\n"),  # (a full-width digit folds)
        ("1. Open the file.\n2. Close the file.\n10. Open the file!", None),
        ("It was 1999. Then 2000. Then 1999 again.", None),
    ],
)
def test_a_list_marker_is_not_part_of_the_sentence(text: str, fixed: str | None) -> None:
    assert_verdict(check(text), fixed)
    deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
    assert joined(run(GUARD, deltas)) == (text if fixed is None else fixed)


_FENCE_TEXTS = st.lists(
    st.sampled_from(["Loop.", "```", "~~~", "``", "x = 1", " ", "\n", "\r\n", "  ", "a", ". "]),
    max_size=30,
).map("".join)


@pytest.mark.parametrize(
    "chunker", [None, "word", "line", "sentence-simple", limit("sentence", max_chars=40)]
)
@settings(max_examples=150, deadline=None)
@given(case=sliced(_FENCE_TEXTS))
def test_no_chunk_opens_with_fence_marks_inside_a_line(
    chunker: Any, case: tuple[str, list[str]]
) -> None:
    text, deltas = case
    strategy = NoRepetition(chunker=chunker).chunker
    assert isinstance(strategy, ChunkingStrategy)
    stream = ChunkStream(strategy)
    pieces = [p for d in deltas for p in stream.feed(d)] + stream.close()
    assert [p.chunk for p in pieces if p.chunk is not None] == strategy.split_text(text)
    assert "".join(p.segment for p in pieces) == text
    for piece in pieces if not isinstance(chunker, Bounded) else ():  # (a ceiling cuts)
        before = text[: piece.chunk_start].rstrip(" \t")
        if piece.chunk is not None and before:
            assert not piece.chunk.startswith(("```", "~~~")) or before[-1] in "\r\n", piece


@pytest.mark.parametrize("unit", ["Loop. ", "Go. ``` a. ", " " * 50 + "Go. ", "Go.\n`` "])
def test_fence_joins_read_linear_work(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The whitespace after a chunk is read once, and a chunk waits for three
    # characters after it: streamed a unit at a time or all at once.
    read = [0]
    init = fence_joins._FenceJoinScanner.__init__

    class Counted:
        def __init__(self, text: Any) -> None:
            self.text = text

        def __call__(self, a: int, b: int) -> str:
            read[0] += b - a
            return self.text(a, b)  # type: ignore[no-any-return]

        def __getattr__(self, name: str) -> Any:
            return getattr(self.text, name)

    def counted(self: Any, inner: Any) -> None:
        init(self, inner)
        self._text = Counted(self._text)

    monkeypatch.setattr(fence_joins._FenceJoinScanner, "__init__", counted)
    strategy = NoRepetition().chunker
    for whole in (False, True):
        totals = []
        for n in (1_000, 2_000):
            read[0] = 0
            stream = ChunkStream(strategy)
            for delta in [unit * n] if whole else [unit] * n:
                stream.feed(delta)
            stream.close()
            totals.append(read[0])
        assert 0 < totals[0] and totals[1] <= 2.2 * totals[0] + 100, totals
        assert totals[1] <= 4 * len(unit) * 2_000, totals


def test_every_guard_path_reads_fence_marks_inside_a_line_as_text() -> None:
    # guard(llm, stream=True) under the opt-in, sync and async, each rebuilt
    # from to_dict(), and async_guarded_stream: each joins the marks too.
    text = "Type it. ``` opens a block. Loop. Loop.\nLoop."
    deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
    plain, awaited = rebuilt_opt_in_outputs(GUARD, deltas)
    streamed = joined(asyncio.run(arun(ASYNC_GUARD, deltas)))
    assert plain == awaited == streamed == "Type it. ``` opens a block. Loop. \n"


def test_every_guard_path_reads_quoted_fences_as_code() -> None:
    # Before: the closing fence of a quoted code block repeated its opening
    # one and was dropped, on every path.
    text = "> ```\n> x = 1\n> x = 1\n> ```\nDone."
    deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
    plain, awaited = rebuilt_opt_in_outputs(GUARD, deltas)
    streamed = joined(asyncio.run(arun(ASYNC_GUARD, deltas)))
    assert plain == awaited == streamed == text
