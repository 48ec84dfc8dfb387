"""RedactPII takes any size limit as its window and never splits an entity (issue 13).

``RedactPII(chunker=limit("sentence", max_tokens=512, tokenizer=...))`` keeps
the window's sentences and measure; its fallback chain becomes the word gap and
``EntityCuts`` (``_pii_cuts.entity_safe``), so a run with no sentence end is cut
only where no entity can be.  Properties on texts dense in entities, in runs
with no boundary (minified JSON, CSV, tables): every entity of the whole text
lies inside one chunk, the chunks streamed in random slicings equal the chunks
at once, and no entity is left in the fixed text, at once or streamed.  A window
that cannot hold an entity and what follows it is refused.
"""

from __future__ import annotations

from typing import Any

import bpe_openai
import pytest
from guardrails_ai.types import FailResult
from helpers.guardrails import guard_with, joined, run, slicings
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import RedactPII
from guardrails_ai.chunkwise._pii import find_entities
from guardrails_ai.chunkwise._pii_cuts import MIN_WINDOW, EntityCuts
from guardrails_ai.chunkwise.adapters import with_chunker
from guardrails_ai.chunkwise.chunkers import ChunkStream, limit, split_spans

CL100K = bpe_openai.get_encoding("cl100k_base")

ENTITIES = [
    "jo@example.com",
    "sam.o'neil+billing@example.co.uk",
    "4111 1111 1111 1111",
    "5555-5555-5555-4444",
    "DE89 3704 0044 0532 0130 00",
    "+44 20 7946 0958",
    "(415) 555-0123",
    "01 23 45 67 89",
    "192.168.10.20",
    "2001:db8::8a2e:370:7334",
    "536-22-1234",
]
FILLERS = ["x" * 40, "abc", ",", '","', "|", " | ", "1,2,3", "\n", ". ", " and then ", "日本語"]

#: Windows of every kind: tokens capped and filled, characters (Bounded,
#: Grouped, Sized filled), all at or just above the smallest window accepted.
WINDOWS = {
    "tokens 512": lambda: limit("sentence", max_tokens=512, tokenizer=CL100K),
    "tokens 400 fill": lambda: limit("paragraph", max_tokens=400, tokenizer=CL100K, fill=True),
    "chars bounded": lambda: limit("sentence", max_chars=MIN_WINDOW),
    "chars grouped": lambda: limit("sentence", max_chars=MIN_WINDOW + 50, chunk_size=3),
    "chars fill": lambda: limit("structure", max_chars=MIN_WINDOW + 9, fill=True),
}

texts = st.lists(st.sampled_from(ENTITIES + FILLERS), max_size=150).map(",".join)


def _make(name: str) -> RedactPII:
    return RedactPII(chunker=WINDOWS[name](), on_fail="fix")


@pytest.mark.parametrize("name", list(WINDOWS))
def test_every_window_gets_entity_safe_fallback(name: str) -> None:
    validator = _make(name)
    chunker: Any = validator.chunker
    units = getattr(chunker, "units", chunker)
    assert isinstance(units.fallback[-1], EntityCuts)


@pytest.mark.parametrize("name", list(WINDOWS))
@settings(max_examples=30, deadline=None)
@given(text=texts, data=st.data())
def test_no_entity_split_streamed_equals_at_once(name: str, text: str, data: Any) -> None:
    validator = _make(name)
    chunker = validator.chunker
    spans = split_spans(chunker, text)
    for e in find_entities(text):
        assert any(a <= e.start and e.end <= b for a, b in spans), (name, text[e.start : e.end])
    deltas = data.draw(slicings(text, max_deltas=12))
    stream = ChunkStream(chunker)
    pieces = []
    for delta in deltas:
        pieces += stream.feed(delta)
    pieces += stream.close()
    assert [p.chunk for p in pieces if p.chunk] == [text[a:b] for a, b in spans]


@pytest.mark.parametrize("name", ["tokens 512", "chars bounded"])
@settings(max_examples=15, deadline=None)
@given(text=texts.filter(str.strip), data=st.data())
def test_no_entity_leaks_through_a_guard(name: str, text: str, data: Any) -> None:
    result = _make(name).validate(text, {})
    found = find_entities(text)
    if found:  # every entity of the whole text is redacted whole
        assert isinstance(result, FailResult)
        for e in found:
            assert any(s.start <= e.start and e.end <= s.end for s in result.error_spans)
    once = guard_with(_make(name)).validate(text).validated_output
    deltas = data.draw(slicings(text, max_deltas=8))
    assert joined(run(guard_with(_make(name)), deltas)) == once


def test_a_window_of_many_entities_in_a_run_is_cut_outside_them() -> None:
    text = '{"note":"' + ",".join(["jo@example.com", "x" * 30, "4111 1111 1111 1111"] * 200)
    for name in WINDOWS:
        chunker = _make(name).chunker
        spans = split_spans(chunker, text)
        assert len(spans) > 3
        for e in find_entities(text):
            assert any(a <= e.start and e.end <= b for a, b in spans), name


@pytest.mark.parametrize(
    ("window", "param"),
    [
        (lambda: limit("sentence", max_tokens=24, tokenizer=CL100K), "max_tokens=24"),
        (lambda: limit("sentence", max_tokens=256, tokenizer=CL100K), "max_tokens=256"),
        (lambda: limit("sentence", max_chars=MIN_WINDOW - 1), f"max_chars={MIN_WINDOW - 1}"),
        (lambda: limit("word", max_chars=100, chunk_size=4), "max_chars=100"),
        (lambda: limit("sentence", max_chars=200, fill=True), "max_chars=200"),
    ],
)
def test_a_window_too_small_for_an_entity_is_refused(window: Any, param: str) -> None:
    with pytest.raises(ValueError, match=rf"{param} is too small a window for RedactPII"):
        RedactPII(chunker=window())


def test_with_chunker_on_an_instance_is_made_entity_safe_too() -> None:
    validator = with_chunker(
        RedactPII(on_fail="fix"), limit("sentence", max_tokens=512, tokenizer=CL100K)
    )
    assert isinstance(validator.chunker.fallback[-1], EntityCuts)  # type: ignore[union-attr]


@pytest.mark.parametrize("tokenizer", ["cl100k_base", CL100K], ids=["name", "object"])
def test_a_token_window_survives_to_dict_and_streams_redacted_on_every_guard_path(
    tokenizer: object,
) -> None:
    # The server rebuilds every guard from to_dict() (JSON) before it streams: the
    # rebuilt window must still keep entities whole, on the plain and async paths.
    import asyncio
    import json

    from guardrails import AsyncGuard, Guard
    from helpers.guardrails import arun

    from guardrails_ai.chunkwise import disable_validated_streaming, enable_validated_streaming

    # (An Encoding object of a shipped encoding is written by its name; before,
    # to_dict() failed on it.)
    window = limit("sentence", max_tokens=512, tokenizer=tokenizer)
    data = json.loads(json.dumps(guard_with(RedactPII(chunker=window, on_fail="fix")).to_dict()))
    text = "Mail jo@example.com now. Card 4111 1111 1111 1111 ok. Bye"
    deltas = ["Mail jo", "@exam", "ple.com now. Card 4111 11", "11 1111 1111 ok.", " Bye"]
    want = "Mail <EMAIL> now. Card <CARD> ok. Bye"
    enable_validated_streaming()
    try:
        assert Guard.from_dict(data).validate(text).validated_output == want
        assert joined(run(Guard.from_dict(data), deltas, guarded=False)) == want
        rebuilt = AsyncGuard.from_dict(data)
        assert joined(asyncio.run(arun(rebuilt, deltas, guarded=False))) == want
    finally:
        disable_validated_streaming()
