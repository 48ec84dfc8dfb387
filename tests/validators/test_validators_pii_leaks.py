"""RedactPII never releases an entity its chunker split: runs with no boundary, every offset.

The default chunker cuts a run with no sentence end and no word gap only where
no entity can be (``_pii_cuts``); these tests put an entity at every offset
around the ceiling, in minified JSON, CSV, Markdown tables and long runs, and
check that it is redacted whole, at once and streamed in random slicings.
"""

from __future__ import annotations

from typing import Any

import pytest
from guardrails_ai.types import FailResult
from helpers.guardrails import guard_with, joined, run, slicings
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import RedactPII
from guardrails_ai.chunkwise._pii import find_entities
from guardrails_ai.chunkwise._pii_cuts import MARGIN, EntityCuts, safe_cut
from guardrails_ai.chunkwise.chunkers import ChunkStream, limit, split_spans
from guardrails_ai.chunkwise.redact_pii import MAX_CHARS

FIX = RedactPII(on_fail="fix")
GUARD = guard_with(FIX)

#: Entities found without any label, one or more per kind and shape.
ENTITIES = [
    "jo@example.com",
    "sam.o'neil+billing@example.co.uk",
    "a{b}@example.com",
    "user@example.xn--p1ai",
    "4111111111111111",
    "4111 1111 1111 1111",
    "5555-5555-5555-4444",
    "378282246310005",
    "DE89370400440532013000",
    "DE89 3704 0044 0532 0130 00",
    "mt84 malt 0110 0001 2345 mtlc ast0 01s",  # (in lower case: gaps before letters)
    "GB82WEST12345698765432",
    "+44 20 7946 0958",
    "(415) 555-0123",
    "01 23 45 67 89",
    "030/1234567",
    "98765 43210",
    "192.168.10.20",
    "2001:db8::8a2e:370:7334",
    "536-22-1234",
]

#: (before, after) the entity in each structure; ``{pad}`` is the run with no boundary.
STRUCTURES = [
    ('{{"note":"{pad}","v":"', '"}}'),  # minified JSON
    ("{pad} to ", " and more words end."),  # a run-on sentence (with a word pad)
    ("{pad},", ",x,y\n"),  # CSV
    ("| {pad} | ", " |\n"),  # Markdown table row
    ("{pad} ", ""),  # a long run, then the entity
]
PADS = ["x", "ab", "1a", "-x_", "a.b", "word "]


def _text(structure: int, pad: str, length: int, entity: str) -> tuple[str, int]:
    before, after = STRUCTURES[structure]
    head = before.format(pad=(pad * length)[:length])
    return head + entity + after.format(pad=""), len(head)


def _covered(result: Any, start: int, end: int) -> bool:
    return isinstance(result, FailResult) and any(
        s.start <= start and end <= s.end for s in result.error_spans
    )


def _redacted_at_once_and_streamed(text: str, entity: str, data: st.DataObject) -> str:
    """What the guard streams of ``text`` in a drawn slicing, after checking
    that ``entity`` (in ``text``) is redacted whole at once and streamed alike."""
    fixed = FIX.validate(text, {})
    start = text.index(entity)
    assert _covered(fixed, start, start + len(entity))
    streamed = joined(run(GUARD, data.draw(slicings(text, max_deltas=8))))
    assert streamed == fixed.fix_value
    return streamed


@pytest.mark.parametrize("entity", ENTITIES)
def test_entity_at_every_offset_around_the_ceiling(entity: str) -> None:
    # Before: the 1016-character hard cut fell inside the entity for the
    # paddings that put it across the ceiling ('{"note":"' + 'x' * 990 + ...).
    for structure in range(len(STRUCTURES)):
        for length in range(MAX_CHARS - len(entity) - 40, MAX_CHARS + 10):
            text, start = _text(structure, "x", length, entity)
            result = FIX.validate(text, {})
            assert _covered(result, start, start + len(entity)), (structure, length)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, len(STRUCTURES) - 1),
    st.sampled_from(PADS),
    st.integers(0, 3 * MAX_CHARS),
    st.sampled_from(ENTITIES),
    st.data(),
)
def test_entity_never_leaks_at_once_or_streamed(
    structure: int, pad: str, length: int, entity: str, data: st.DataObject
) -> None:
    text, start = _text(structure, pad, length, entity)
    result = FIX.validate(text, {})
    assert _covered(result, start, start + len(entity))
    assert isinstance(result, FailResult) and entity not in result.fix_value
    deltas = data.draw(slicings(text, max_deltas=8))
    streamed = joined(run(GUARD, deltas))
    assert streamed == GUARD.validate(text).validated_output


#: Characters that render as nothing (an attacker's padding inside an entity).
INVISIBLE = "\u200b\u200c\u200d\u2060\u00ad\ufeff\u202a\u202c\u2066\u2069\ufe0f\u180e"


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(ENTITIES),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(INVISIBLE)), max_size=6),
    st.sampled_from(["Mail {} now.", "Note: {}", "{}", "| {} |\n", "[{}]"]),
    st.data(),
)
def test_invisible_characters_never_hide_an_entity(
    entity: str, inserts: list[tuple[int, str]], frame: str, data: st.DataObject
) -> None:
    # Invisible characters anywhere inside an entity: its visible characters
    # are all redacted, at once and streamed in any slicing.
    chars = list(entity)
    for at, c in inserts:
        chars.insert(min(at, len(chars) - 1) or 1, c)  # (strictly inside)
    padded = "".join(chars)
    streamed = _redacted_at_once_and_streamed(frame.format(padded), padded, data)
    shown = "".join(c for c in streamed if c not in INVISIBLE)
    assert entity not in shown and padded not in streamed


#: Entities whose dots are CJK full stops (the detectors read them as "."),
#: some before a capital or joining digits: no sentence may end inside them.
CJK_DOTTED = [
    "Jo\uff0eAnn@Example\uff0eCOM",
    "jo@mail\u3002example\u3002co\u3002uk",
    "Jo\uff61Ann@example.com",
    "taro\u3002yamada@example\u3002co\u3002jp",
    "Jo\u3002Ann@example.com",
    "192\u3002168\u300210\u300220",
    "415\u3002555\u30020123",
    "192.168\u300210.20",  # (ideographic and ASCII dots mixed)
    "415\u3002555.0123",
    "::ffff:192\u3002168\u30021\u30021",
    "jo@example" + "\u200b" * 8 + "\uff0eCOM",
    "jo@example\uff0e\u200dcom",  # (a joiner after the dot: read as a closer)
    "192\uff0e168\uff0e\ufe0f10.20",
    # Where the sentence chunker still ends a sentence (no whitespace needed):
    # a dot between two digit groups, after a domain's ASCII dot, in a domain
    # of other letters, before a long rest of a local part; a full-width "!".
    "+44 20\u30027946 0958",
    "020\u30027946 0958",
    "+33 1 23 45 67\u300289",
    "jo@mail.example\u3002co\u3002uk",
    "jo@b\u00fccher\u3002de",
    "\u7528\u6237@\u4f8b\u5b50\u3002\u5e7f\u544a",
    "Taro\u3002Yamada" + "x" * 20 + "@example.jp",
    "\uff4a\uff4f\uff01\uff41\uff4e\uff4e@example\uff0ecom",
]


@pytest.mark.parametrize("entity", CJK_DOTTED)
@settings(max_examples=6, deadline=None)
@given(
    st.sampled_from(["Mail {} now.", "{}", "メールは {} です。", "Note: {}。次へ。"]),
    st.data(),
)
def test_cjk_full_stops_never_split_an_entity(entity: str, frame: str, data: st.DataObject) -> None:
    # "+44 20\u30027946 0958" was released whole: the sentence chunker ended a
    # sentence at the ideographic full stop (two digit groups are no address
    # or number to it), and neither half is an entity.
    _redacted_at_once_and_streamed(frame.format(entity), entity, data)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([*ENTITIES, "x" * 40, ",", '","', "|", "1,2,3"]), max_size=120))
def test_default_chunks_hold_every_entity_of_the_text(parts: list[str]) -> None:
    # Dense entities with no whitespace or sentence end between them: every
    # entity of the whole text lies inside one chunk.
    text = ",".join(parts)
    spans = split_spans(FIX.chunker, text)
    assert all(b - a <= MAX_CHARS for a, b in spans)
    for e in find_entities(text):
        assert any(a <= e.start and e.end <= b for a, b in spans), text[e.start : e.end]


def test_chunks_streamed_equal_chunks_at_once_on_runs() -> None:
    text = "".join(_text(0, "x", n, "jo@example.com")[0] for n in range(900, 1100, 37))
    whole = [text[a:b] for a, b in split_spans(FIX.chunker, text)]
    stream = ChunkStream(FIX.chunker)
    pieces = []
    for i in range(0, len(text), 4):
        pieces += stream.feed(text[i : i + 4])
    pieces += stream.close()
    assert [p.chunk for p in pieces if p.chunk] == whole


def test_safe_cut_stays_outside_entities_and_labels() -> None:
    window = "y" * 300 + ",Phone: 4155550123," + "z" * 200 + ",jo@example.com," + "w" * MARGIN
    p = safe_cut(window)
    assert p is not None and p <= len(window) - MARGIN
    for e in find_entities(window):
        assert not e.start < p < e.end
    # Inside the label and number: never.
    label = window.index("Phone")
    for q in range(label + 1, window.index("4155550123") + 10):
        cut = safe_cut(window[: q + MARGIN])
        assert cut is None or not label < cut < label + 18
    assert safe_cut("x" * MARGIN) is None
    assert repr(EntityCuts()) == "EntityCuts()"


def test_fallback_cut_count_is_linear() -> None:
    # A run with no boundary: each fallback cut moves on by about
    # MAX_CHARS - MARGIN characters, so the number of detector passes grows
    # with the length, not its square.
    calls = []
    import guardrails_ai.chunkwise._pii_cuts as cuts

    real = cuts.find_entities

    def counting(text: str, *args: Any) -> Any:
        calls.append(len(text))
        return real(text, *args)

    cuts.find_entities = counting  # type: ignore[assignment]
    try:
        for n in (20_000, 80_000):
            calls.clear()
            split_spans(FIX.chunker, "x" * n)
            assert len(calls) <= n // (MAX_CHARS - MARGIN) + 1
            assert all(c == MAX_CHARS + 1 for c in calls)
    finally:
        cuts.find_entities = real  # type: ignore[assignment]


@pytest.mark.parametrize("window", [None, limit("sentence", max_chars=400)], ids=["default", "400"])
def test_a_word_gap_cut_never_falls_after_a_label(window: Any) -> None:
    # A run-on sentence over the ceiling is cut at its last gap before a
    # lower-case word: that gap fell between "phone" and "number 612 345 678",
    # and the number, which needs its label, was validated without it.
    validator = RedactPII(chunker=window, on_fail="fix")
    ceiling = MAX_CHARS if window is None else 400
    guard = guard_with(RedactPII(chunker=window, on_fail="fix"))
    for n in range(ceiling - 100, ceiling + 10):
        text = ("word " * 300)[:n] + "call my phone number 612 345 678 and more words. " * 2
        result = validator.validate(text, {})
        assert isinstance(result, FailResult) and "612 345 678" not in result.fix_value, n
        if n % 20 == 0:
            deltas = [text[i : i + 7] for i in range(0, len(text), 7)]
            assert joined(run(guard, deltas)) == result.fix_value, n


#: Labels of several words, the number after them: a gap between their words
#: (inside a qualifier in parentheses, between a Polish call verb and "pod")
#: is no place to cut either.
_OPEN_LABELS = [
    "Phone (home office): 612 345 678",
    "Tel (work day) 612 345 678",
    "phone (toll free) 612 345 678",
    "Zadzwo\u0144 do nas pod numer 600 123 456",
]


@pytest.mark.parametrize("window", [None, limit("sentence", max_chars=400)], ids=["default", "400"])
@pytest.mark.parametrize("phrase", _OPEN_LABELS)
def test_a_word_gap_cut_never_falls_inside_a_label(window: Any, phrase: str) -> None:
    # The last gap before a lower-case word fell between "home" and
    # "office" (or "do" and "nas"): the label read so far was no label yet, so
    # the number was validated without it and released.
    validator = RedactPII(chunker=window, on_fail="fix")
    guard = guard_with(RedactPII(chunker=window, on_fail="fix"))
    number = phrase[-11:]
    ceiling = MAX_CHARS if window is None else 400
    for n in range(ceiling - 70, ceiling + 5):
        text = ("word " * 300)[:n] + " " + phrase + " and more words here. Bye."
        result = validator.validate(text, {})
        assert isinstance(result, FailResult) and number not in result.fix_value, n
        if n % 15 == 0:
            deltas = [text[i : i + 5] for i in range(0, len(text), 5)]
            assert joined(run(guard, deltas)) == result.fix_value, n


@pytest.mark.parametrize("chunker", ["sentence-simple", "guardrails"])
def test_a_sentence_cut_never_falls_inside_an_abbreviated_label(chunker: str) -> None:
    # "Cel." is a label only with its colon ("Cel.:"); a space before the
    # colon let a sentence chunker cut after "Cel." and release the number.
    guard = guard_with(RedactPII(chunker=chunker, on_fail="fix"))
    text = "Cel. : 612 345 678. Bye."
    assert guard.validate(text).validated_output == "Cel. : <PHONE>. Bye."
    assert joined(run(guard, list(text))) == "Cel. : <PHONE>. Bye."


_SUPERSCRIPT_CARD = "\u2074" + "\u00b9" * 3 + (" " + "\u00b9" * 4) * 3  # 4111 1111 1111 1111


_SUPERSCRIPT_PHONE = "\u2079\u2078\u2077\u2076\u2075 \u2074\u00b3\u00b2\u00b9\u2070"  # 98765 43210


#: Numbers right after a sentence end whose first group the sentence chunker
#: read as a footnote mark, and their placeholders: in digits of other scripts
#: (full-width, Arabic-Indic: footnote numbers glued to a period) and in
#: superscript digits (closers after any terminator run).
_AFTER_A_SENTENCE_END = [
    ("\uff11\uff13\uff18 \uff10\uff10\uff11\uff13 \uff18\uff10\uff10\uff10", "<PHONE>"),
    ("\uff10\uff12\uff10 \uff17\uff19\uff14\uff16 \uff10\uff19\uff15\uff18", "<PHONE>"),
    ("\u0660\u0661 \u0662\u0663 \u0664\u0665 \u0666\u0667 \u0668\u0669", "<PHONE>"),
    (_SUPERSCRIPT_CARD, "<CARD>"),
    (_SUPERSCRIPT_PHONE, "<PHONE>"),
]


@pytest.mark.parametrize("mark", [".", "!", ".)"])
@pytest.mark.parametrize("chunker", [None, "sentence", limit("sentence", max_chars=400)])
@pytest.mark.parametrize(("number", "placeholder"), _AFTER_A_SENTENCE_END)
def test_a_number_after_a_sentence_end_is_never_split(
    mark: str, chunker: Any, number: str, placeholder: str
) -> None:
    # "today.138 0013 8000" was one sentence, but in full-width digits the
    # sentence chunker ended one after "today.\uff11\uff13\uff18" (footnote
    # numbers before a digit, as ASCII ones are not), and after
    # "today.\u2074\u00b9\u00b9\u00b9" in superscript digits (a footnote mark):
    # the rest of the number was no entity and was released.
    guard = guard_with(RedactPII(chunker=chunker, on_fail="fix"))
    text = f"Call us today{mark}{number}, or later. It is proven.\u00b9 Done."
    fixed = f"Call us today{mark}{placeholder}, or later. It is proven.\u00b9 Done."
    assert guard.validate(text).validated_output == fixed
    assert joined(run(guard, list(text))) == fixed


@pytest.mark.parametrize(
    "label",
    [
        "\u96fb\u8a71\uff1a",
        "\uff30\uff48\uff4f\uff4e\uff45: ",
        "Pho\u200bne: ",
        "Ph\u00adone\u200d: ",
    ],
)
def test_a_fallback_cut_never_falls_after_a_label_written_another_way(label: str) -> None:
    # In a run with no boundary the last safe position fell between a label
    # written with full-width forms or invisible characters and its number:
    # the label was read as written (no label), the number was validated
    # without it and released.
    validator = RedactPII(on_fail="fix")
    for n in range(MAX_CHARS - MARGIN - 30, MAX_CHARS - MARGIN + 5):
        text = "," * n + label + "2147483647" + "," * 600
        result = validator.validate(text, {})
        assert isinstance(result, FailResult) and "2147483647" not in result.fix_value, n


#: Labels and the numbers only they make entities, and entities of every kind.
_LABELLED = [
    ("Cell. ", "612 345 678"),
    ("Call me. ", "2147483647"),
    ("Phone (work): ", "347 123 4567"),
    ("Tel. ", "+49 30 12 34 56 7"),
    ("Card. ", "4222222222222"),
    ("SSN. ", "078051120"),
    ("Host. ", "6.1.7.1"),
    ("\u96fb\u8a71\u3002", "2147483647"),
]
_SENTENCES = ["It is fine.", "See Dr. Smith at the U.S. office!", "Done", "- item one", "# Notes"]
_CHUNKERS = [
    None,
    "sentence",
    "sentence-simple",
    "line",
    "paragraph",
    limit("sentence", max_chars=400),
]
_GUARDS: dict[int, Any] = {}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_SENTENCES),
            st.sampled_from([*ENTITIES[:4], "4111 1111 1111 1111", "+44 20 7946 0958"]),
            st.sampled_from(_LABELLED).map("".join),
        ),
        min_size=1,
        max_size=6,
    ),
    st.lists(st.sampled_from([" ", "\n", "\n\n", "  "]), min_size=6, max_size=6),
    st.integers(0, len(_CHUNKERS) - 1),
    st.data(),
)
def test_no_entity_of_the_whole_text_leaks_under_any_chunker(
    parts: list[str], gaps: list[str], chunker: int, data: st.DataObject
) -> None:
    # Every entity the detectors find in the whole text (read as one chunk) is
    # redacted under each chunker RedactPII accepts, at once and streamed.
    text = "".join(p + g for p, g in zip(parts, gaps, strict=False))
    guard = _GUARDS.get(chunker)
    if guard is None:
        guard = _GUARDS[chunker] = guard_with(RedactPII(chunker=_CHUNKERS[chunker], on_fail="fix"))
    once = guard.validate(text).validated_output
    for e in find_entities(text):
        assert text[e.start : e.end] not in once
    assert joined(run(guard, data.draw(slicings(text, max_deltas=8)))) == once


#: Full stops of CJK text next to an address, and what every chunker releases.
_GLUED_STOP_CASES = [
    # The domain read back more than 32 characters: the sentence chunker cut at
    # the full stop (no "@" in its last 32 characters) and released the address.
    (
        "\u8bf7\u5bc4\u5230jo@" + "\u4f8b\u5b50" * 19 + "\u3002\u5e7f\u544a",
        "\u8bf7\u5bc4\u5230<EMAIL>",
    ),
    # A full stop after a word glued to a domain ends the sentence: the next
    # address's domain was released ("<EMAIL>@example.org").
    (
        "\u9023\u7d61\u306fjo@example.com\u3067\u3059\u3002ann@example.org\u3078\u3002",
        "\u9023\u7d61\u306f<EMAIL>\u3067\u3059\u3002<EMAIL>\u3078\u3002",
    ),
    (
        "\u9023\u7d61\u306fjo@example.com\u3002\u6b21\u306fann@example.org\u3067\u3059\u3002",
        "\u9023\u7d61\u306f<EMAIL>\u3002\u6b21\u306f<EMAIL>\u3067\u3059\u3002",
    ),
    # ... and so under a line or paragraph chunker with a long glued word
    # (the sentence chunker's 32 characters held no "@": the chunks differed).
    (
        "jo@example.com"
        + "\u307e\u3067" * 20
        + "\u3002\u6b21\u306fann@example.org\u3067\u3059\u3002",
        "<EMAIL>" + "\u307e\u3067" * 20 + "\u3002\u6b21\u306f<EMAIL>\u3067\u3059\u3002",
    ),
    # A sentence's end before a local part: read so at once too (a line or a
    # paragraph redacted it with the address, a sentence chunker released it).
    ("\u7528\u6237\u3002\u540d@example.cn", "\u7528\u6237\u3002<EMAIL>"),
    ("\uff01ann.lee@example.co.uk", "\uff01<EMAIL>"),
    ("\u3001\uff01ann@example.com", "\u3001\uff01<EMAIL>"),
    # Inside a domain of that script, or after a Latin letter: one address.
    ("\u7528\u6237@\u4f8b\u5b50\u3002\u5e7f\u544a", "<EMAIL>"),
    ("jo@example\u4f8b\u5b50\u3002\u5e7f\u544a", "<EMAIL>"),
    ("Taro\u3002Yamada@example.jp", "<EMAIL>"),
]


@pytest.mark.parametrize("chunker", _CHUNKERS[:2] + _CHUNKERS[3:])
@pytest.mark.parametrize(("text", "fixed"), _GLUED_STOP_CASES)
def test_a_cjk_full_stop_next_to_an_address_reads_alike_on_every_path(
    text: str, fixed: str, chunker: Any
) -> None:
    guard = _GUARDS.get(_CHUNKERS.index(chunker))
    if guard is None:
        guard = guard_with(RedactPII(chunker=chunker, on_fail="fix"))
        _GUARDS[_CHUNKERS.index(chunker)] = guard
    result = FIX.validate(text, {})
    assert isinstance(result, FailResult) and result.fix_value == fixed
    assert guard.validate(text).validated_output == fixed
    assert joined(run(guard, list(text))) == fixed


#: Entities of every kind, some in other scripts or written another way.
_MIXED_ENTITIES = [
    *ENTITIES[:4],
    "\u7528\u6237@example.com",
    "\u043f\u043e\u0447\u0442\u0430@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444",
    "\u7528\u6237@\u4f8b\u5b50\u3002\u5e7f\u544a",
    "Taro\u3002Yamada@example.jp",
    "+44 20\u30027946 0958",
    "0 (212) 555 12 34",
    "0 532 123 45 67",
    "8 (495) 123-45-67",
    "(415) 555-0123",
    "\uff14\uff11\uff11\uff11" + " \uff11\uff11\uff11\uff11" * 3,
    "DE89 3704 0044 0532 0130 00",
    "192.168.10.20",
    "2001:db8::1",
    "536-22-1234",
    "Phone: 612 345 678",
]
#: Words of several scripts, CJK full stops and marks, glued or apart.
_MIXED_WORDS = [
    "Hello",
    "the",
    "\u9023\u7d61\u306f",
    "\u307e\u3067",
    "\u3067\u3059\u3002",
    "\u3002",
    "\uff01",
    "\u3001",
    "\u8bf7\u8054\u7cfb",
    "\u8c22\u8c22",
    "\u041f\u0440\u0438\u0432\u0435\u0442",
    "\u0e01\u0e23\u0e38\u0e13\u0e32",
    "\uc73c\ub85c",
    "\u0645\u0631\u062d\u0628\u0627",
    "\u0939\u0948\u0932\u094b\u0964",
    "Tel.",
    "Dr.",
    ".",
    "!",
    "(",
]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.sampled_from(_MIXED_ENTITIES), st.sampled_from(_MIXED_WORDS)),
            st.sampled_from(["", "", " ", "\n", "\n\n"]),
        ),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([0, 1, 3, 4, 5]),
    st.data(),
)
def test_entities_in_mixed_scripts_read_alike_on_every_chunker(
    parts: list[tuple[str, str]], chunker: int, data: st.DataObject
) -> None:
    # Entities glued to words of other scripts and to CJK full stops: every
    # chunker RedactPII accepts releases, at once and streamed in any slicing,
    # what validate() of the whole text gives ("jo@example.com\u3067\u3059\u3002
    # ann@example.org" released "@example.org"; "\u7528\u6237\u3002\u540d@example.cn"
    # lost "\u7528\u6237\u3002" on a line chunker only).
    text = "".join(p + g for p, g in parts)
    result = FIX.validate(text, {})
    fixed = result.fix_value if isinstance(result, FailResult) else text
    guard = _GUARDS.get(chunker)
    if guard is None:
        guard = _GUARDS[chunker] = guard_with(RedactPII(chunker=_CHUNKERS[chunker], on_fail="fix"))
    assert guard.validate(text).validated_output == fixed
    assert joined(run(guard, data.draw(slicings(text, max_deltas=8)))) == fixed


@pytest.mark.parametrize("chunker", [*_CHUNKERS[:2], *_CHUNKERS[3:]])
@pytest.mark.parametrize("glued", ["x" * 61, "thanks" * 20, "\u200bx" * 400])
def test_an_address_glued_to_a_long_word_is_redacted_on_every_path(
    glued: str, chunker: Any
) -> None:
    # A word glued to the top-level domain made it longer than a label may be:
    # no address at once (released on every path), but one after a fallback
    # cut inside the word (the paths differed).
    text = "Mail jo@example.com" + glued + " now. " + "y" * 300 + ",ann@example.org," + glued
    result = FIX.validate(text, {})
    assert isinstance(result, FailResult)
    assert "jo@example.com" not in result.fix_value and "ann@example.org" not in result.fix_value
    guard = guard_with(RedactPII(chunker=chunker, on_fail="fix"))
    assert guard.validate(text).validated_output == result.fix_value
    assert joined(run(guard, [text[i : i + 9] for i in range(0, len(text), 9)])) == result.fix_value


@pytest.mark.parametrize("shift", range(0, 18, 3))
def test_a_long_entity_at_a_small_windows_start_forces_no_hard_cut(shift: int) -> None:
    # An address longer than a 330-character window's bound for a safe cut
    # (330 - 256) left no safe position: the hard cut at 330 split the next
    # address ("ann@" or "example.org" released).
    long = "firstname.lastname.department.team.unit@subdomain.company-name.division.example.co.uk"
    head = '{"a":"' + long + '","b":"'
    text = head + "x" * (336 - len(head) - shift) + '","c":"ann@example.org","d":"'
    text += "y" * 400 + '"}'
    validator = RedactPII(chunker=limit("sentence", max_chars=330), on_fail="fix")
    result = FIX.validate(text, {})
    assert isinstance(result, FailResult) and "ann@" not in result.fix_value
    spans = split_spans(validator.chunker, text)
    assert all(b - a <= 330 for a, b in spans)
    for e in find_entities(text):
        assert any(a <= e.start and e.end <= b for a, b in spans)
    guard = guard_with(validator)
    assert (
        joined(run(guard, [text[i : i + 11] for i in range(0, len(text), 11)])) == result.fix_value
    )
