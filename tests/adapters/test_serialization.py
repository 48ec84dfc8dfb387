"""Guards as dicts: chunker specs, and ``Guard.to_dict()`` -> JSON -> ``from_dict`` round trips.

Every chunker kind writes a spec that rebuilds an equal chunker chunking
identically; chunkwise validators and ``with_chunker`` overrides (on the PyPI
hub validator ``LowerCase``) survive ``to_dict`` -> ``json`` -> ``Guard.from_dict``
/ ``AsyncGuard.from_dict`` and stream exactly as before; what cannot be written
raises at ``to_dict()`` time.  The Guardrails facts the design relies on are
pinned first.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from typing import Any

import pytest
from guardrails import AsyncGuard, Guard
from guardrails_ai.lowercase import LowerCase
from helpers.chunking import SplitFlushOnly
from helpers.guardrails import MESSAGES, Record, arun, guard_with, joined, llm, run
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII
from guardrails_ai.chunkwise.adapters import GuardrailsChunker, with_chunker
from guardrails_ai.chunkwise.adapters.chunked import without_own_joins
from guardrails_ai.chunkwise.adapters.override import WITH_CHUNKER
from guardrails_ai.chunkwise.chunkers import (
    Bounded,
    ChunkingStrategy,
    ChunkStream,
    FixedSizeChunker,
    Grouped,
    LineChunker,
    ParagraphChunker,
    RegexChunker,
    SentenceChunker,
    SpecError,
    StructureChunker,
    WordChunker,
    limit,
    resolve_chunker,
    spec_of,
)

# -- the Guardrails facts the design relies on ----------------------------------------


def test_use_snapshots_get_args_sharing_its_values() -> None:
    # Guard.use copies get_args() into a ValidatorReference: a new dict, the same values.
    v = Record(chunker="word")
    guard = guard_with(v)
    assert guard.validators[0].kwargs is not v.get_args()
    assert guard.validators[0].kwargs["chunker"] is v.get_args()["chunker"]


def test_a_validator_whose_alias_is_not_its_id_is_built_again_on_every_call() -> None:
    # Guard._fill_validator_map keeps an instance only if rail_alias, on_fail and
    # get_args() match the recorded reference: why a with_chunker validator
    # reports the id it is written under.
    v = Record(on_fail="noop")
    guard = guard_with(v)
    v.rail_alias = "chunkwise-test/ban"
    guard.validate("One.")
    assert len(guard._validators) == 2


def test_from_dict_builds_the_registered_class_from_the_recorded_kwargs() -> None:
    rebuilt = Guard.from_dict(json.loads(json.dumps(guard_with(Record(chunker="word")).to_dict())))
    assert rebuilt is not None
    (v,) = rebuilt._validators
    assert type(v) is Record and v.chunker == WordChunker()


# -- chunker specs --------------------------------------------------------------------

_ABBREVIATIONS = st.lists(st.sampled_from(["Approx.", "Foo", "bar.", "Ph.D.", "Xyz.", "q.v"]))
_REGEXES = [
    (r"\n\s*\n", 0, None),
    (r"[;,]\s*", 0, None),
    (r"(?<=[.!?])\s+", 0, None),
    (r"^-{3,}$\n?", re.MULTILINE, None),
    (r"and|or", re.IGNORECASE, None),
    (r". ", re.DOTALL, None),
    (r"[^;]+;", 0, 40),
    (r"\s+ # blanks", re.VERBOSE | re.ASCII, None),
]
_leaves = st.one_of(
    st.builds(
        SentenceChunker,
        mode=st.just("accurate"),
        abbreviations=st.none() | _ABBREVIATIONS,
    ),
    st.just(SentenceChunker(mode="simple")),
    st.just(WordChunker()),
    st.builds(ParagraphChunker, crlf=st.booleans()),
    st.builds(LineChunker, crlf=st.booleans()),
    st.integers(1, 40).flatmap(
        lambda size: st.builds(
            FixedSizeChunker,
            st.just(size),
            st.integers(0, size - 1),
            boundary_preference=st.sampled_from(FixedSizeChunker.preferences),
        )
    ),
    st.sampled_from(_REGEXES).map(
        lambda r: (
            RegexChunker(re.compile(r[0], r[1]), max_match=r[2])
            if r[1]
            else RegexChunker(r[0], max_match=r[2])
        )
    ),
    st.builds(
        StructureChunker,
        respect_headings=st.booleans(),
        respect_numbered_sections=st.booleans(),
        double_newline_as_boundary=st.booleans(),
    ),
    st.builds(
        StructureChunker,
        split_on_transitions=st.just(True),
        transition_phrases=st.none() | st.lists(st.sampled_from(["Also,", "Next:", "Fin"])),
    ),
    st.just(GuardrailsChunker()),
)


@st.composite
def _bounded(draw: st.DrawFn, inner: st.SearchStrategy[Any]) -> ChunkingStrategy:
    fallback = draw(st.none() | st.lists(_leaves, max_size=2))
    return Bounded(draw(inner), draw(st.integers(1, 60)), fallback=fallback)


@st.composite
def _grouped(draw: st.DrawFn, inner: st.SearchStrategy[Any]) -> Any:
    size = draw(st.integers(1, 4))
    max_chars = draw(st.none() | st.integers(1, 80))
    fallback = draw(st.none() | st.lists(_leaves, max_size=2)) if max_chars else None
    return limit(
        draw(inner),
        chunk_size=size,
        max_chars=max_chars,
        overlap=draw(st.integers(0, size - 1)),
        fallback=fallback,
    )


chunkers = st.recursive(_leaves, lambda inner: _bounded(inner) | _grouped(inner), max_leaves=3)
texts = st.one_of(
    st.text(max_size=120),
    st.lists(
        st.sampled_from(
            [
                "Dr. Who",
                "Approx. 5",
                " ",
                "\n",
                "\n\n",
                "\r\n",
                "a;b",
                "# Head",
                "1. Item",
                "Also, x",
                "---",
                "and",
                "OR",
                "Ph.D. It",
                "e.g. this",
                "x" * 30,
                ". ",
                "!",
            ]
        ),
        max_size=30,
    ).map("".join),
)


def _streamed(chunker: ChunkingStrategy, text: str, step: int) -> list[Any]:
    stream = ChunkStream(chunker)
    pieces = []
    for i in range(0, len(text), step):
        pieces += stream.feed(text[i : i + step])
    return pieces + stream.close()


@given(chunkers, st.lists(texts, min_size=1, max_size=3), st.integers(1, 9))
def test_a_spec_rebuilds_an_equal_chunker_through_json(
    chunker: ChunkingStrategy, samples: list[str], step: int
) -> None:
    spec = chunker.spec()
    rebuilt = resolve_chunker(json.loads(json.dumps(spec)))
    assert rebuilt == chunker and type(rebuilt) is type(chunker)
    assert rebuilt.spec() == spec
    for text in samples:
        assert rebuilt.split_text(text) == chunker.split_text(text)
        assert rebuilt.segments(text) == chunker.segments(text)
        assert _streamed(rebuilt, text, step) == _streamed(chunker, text, step)


@pytest.mark.parametrize(
    ("chunker", "spec"),
    [
        (WordChunker(), {"chunker": "word"}),
        (FixedSizeChunker(30, 5), {"chunker": "fixed", "size": 30, "tolerance": 5}),
        (
            SentenceChunker(abbreviations={"Approx.", "Foo"}),
            {"chunker": "sentence", "mode": "accurate", "abbreviations": ["foo"]},
        ),
        (
            RegexChunker(re.compile(r"x+", re.I | re.M), max_match=9),
            {
                "chunker": "regex",
                "pattern": "x+",
                "flags": ["IGNORECASE", "MULTILINE"],
                "max_match": 9,
            },
        ),
        (
            limit("sentence", max_chars=200),
            {
                "chunker": "bounded",
                "inner": {"chunker": "sentence", "mode": "accurate"},
                "max_chars": 200,
                "fallback": [{"chunker": "line"}, {"chunker": "word"}],
            },
        ),
        (GuardrailsChunker(), {"chunker": "guardrails"}),
        (
            limit("sentence", max_tokens=64, tokenizer="cl100k_base"),
            {
                "chunker": "sized",
                "inner": {"chunker": "sentence", "mode": "accurate"},
                "max_tokens": 64,
                "tokenizer": "cl100k_base",
            },
        ),
        (
            limit("paragraph", max_chars=500, fill=True, overlap=50),
            {
                "chunker": "sized",
                "inner": {"chunker": "paragraph"},
                "max_chars": 500,
                "fill": True,
                "overlap": 50,
            },
        ),
    ],
    ids=repr,
)
def test_documented_specs(chunker: ChunkingStrategy, spec: dict[str, Any]) -> None:
    assert chunker.spec() == spec
    assert resolve_chunker(spec) == chunker


def test_an_alias_is_a_spec_without_parameters() -> None:
    assert resolve_chunker({"chunker": "fixed"}) == resolve_chunker("fixed")
    assert resolve_chunker({"chunker": "sentence-simple"}) == SentenceChunker(mode="simple")


def test_a_sized_spec_without_a_tokenizer_counts_tokens_as_limit_does() -> None:
    # Before: without a tokenizer, a "sized" spec's max_tokens counted characters
    # (the CLI's --chunker '{"chunker": "sized", ...}' cut a 34-letter word into
    # four chunks under max_tokens=10); limit(max_tokens=...) counts cl100k_base.
    spec = {"chunker": "sized", "inner": "sentence", "max_tokens": 10}
    assert resolve_chunker(spec) == limit("sentence", max_tokens=10)


def _custom(text: str) -> list[str]:
    return []


class _Subclass(SentenceChunker):
    pass


@pytest.mark.parametrize(
    ("chunker", "words"),
    [
        (
            SplitFlushOnly(WordChunker()),
            r"chunker=SplitFlushOnly\(WordChunker\(\)\) .*not a chunkwise",
        ),
        (limit(SplitFlushOnly(WordChunker()), max_chars=9), r"chunker\.inner=SplitFlushOnly"),
        (Bounded("word", 9, fallback=[SplitFlushOnly(WordChunker())]), r"chunker\.fallback\[0\]"),
        (GuardrailsChunker(_custom), r"chunker\.function=<function _custom"),
        (_Subclass(), r"rebuilds SentenceChunker"),
        # (Characters under max_tokens: its spec was read back as cl100k_base tokens.)
        (limit("word", max_tokens=9, tokenizer=len), r"chunker\.tokenizer=<built-in function len>"),
    ],
    ids=["foreign", "foreign-inner", "foreign-fallback", "function", "subclass", "tokenizer-len"],
)
def test_what_has_no_spec_raises_naming_it(chunker: Any, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        spec_of(chunker)


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ({"size": 3}, ValueError, "needs a 'chunker' key .* got keys \\['size'\\]"),
        ({"chunker": 5}, ValueError, "'chunker' key whose value, a str.* is of type int"),
        (
            {
                "chunker": "sized",
                "inner": "word",
                "max_chars": 9,
                "length": "chars",
                "tokenizer": "x",
            },
            ValueError,
            "tokenizer or length, not both",
        ),
        (
            {"chunker": "sized", "inner": "word", "max_chars": 9, "max_tokens": 3},
            ValueError,
            "needs one of max_tokens, max_chars or limit; got max_tokens, max_chars",
        ),
        (
            {"chunker": "nope"},
            ValueError,
            "chunker='nope', not a known kind; choose one of .*'regex'",
        ),
        (
            {"chunker": "sized", "inner": "word", "max_tokens": 9, "tokenizer": "nope"},
            ValueError,
            "^tokenizer='nope' is not a known encoding",
        ),
        (
            {"chunker": "sized", "inner": "word", "max_tokens": 9, "tokenizer": 3},
            TypeError,
            "^tokenizer must be a tokenizer name",
        ),
        (
            {"chunker": "sized", "inner": "word", "max_chars": 9, "length": "nope"},
            ValueError,
            "^length='nope' is not a known encoding",
        ),
        ({"chunker": "fixed", "sise": 3}, TypeError, "'fixed'.*sise"),
        ({"chunker": "fixed", "size": 0}, ValueError, "size must be >= 1, got 0"),
        ({"chunker": "regex", "pattern": "a", "flags": ["NOPE"]}, ValueError, "flags item 'NOPE'"),
        # (re.DEBUG prints the compiled pattern on stdout each time the guard is rebuilt.)
        (
            {"chunker": "regex", "pattern": "a", "flags": ["DEBUG"]},
            ValueError,
            "flags item 'DEBUG'",
        ),
        # (The alias's tolerance, 20, was named as if given.)
        ({"chunker": "fixed", "size": 10}, ValueError, "default tolerance=20.*pass a smaller"),
        ({"chunker": "regex", "pattern": "("}, ValueError, "pattern='\\(' is not a valid regex"),
        (
            {"chunker": "bounded", "inner": {"chunker": "x"}, "max_chars": 3},
            ValueError,
            "chunker.inner spec names chunker='x'",
        ),
    ],
)
def test_bad_specs_raise_naming_the_parameter(spec: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        resolve_chunker(spec)


# -- validators through Guard.to_dict -> JSON -> from_dict ----------------------------

TEXT = (
    "Hi. Free money now!\n\nMail john@example.com or call 555-123-4567. "
    "Hi. Free money now!\n\nA long sentence that goes on and on without a stop"
)
SLICINGS = [[TEXT], [TEXT[i : i + 4] for i in range(0, len(TEXT), 4)], [TEXT[:37], TEXT[37:]]]


def _validators() -> list[Any]:
    return [
        RedactPII(chunker=SentenceChunker(abbreviations=["Approx."]), on_fail="fix"),
        BannedPhrases(["free money"], chunker=FixedSizeChunker(30, 5), on_fail="fix"),
        NoRepetition(chunker=Grouped(SentenceChunker(abbreviations=["Hi"]), 2), on_fail="fix"),
        MaxChunkLength(
            max_chars=40, chunker=RegexChunker(re.compile(r"[!.]\s+", re.I)), on_fail="fix"
        ),
        NoRepetition(unit="paragraph", on_fail="fix"),
        RedactPII(on_fail="fix"),
    ]


def _round_trip(guard: Any, cls: type) -> Any:
    rebuilt = cls.from_dict(json.loads(json.dumps(guard.to_dict())))
    assert isinstance(rebuilt, cls)
    return rebuilt


def _logs(guard: Any) -> list[tuple[str, Any, Any]]:
    """What each validator saw and made of it in the last call."""
    logs = guard.history.last.iterations.last.validator_logs
    return [
        (log.registered_name, log.value_before_validation, log.value_after_validation)
        for log in logs
    ]


@pytest.mark.parametrize("index", range(len(_validators())))
def test_chunkwise_validators_survive_to_dict_and_stream_as_before(index: int) -> None:
    original = guard_with(_validators()[index])
    rebuilt = _round_trip(original, Guard)
    (v,), (w,) = original._validators, rebuilt._validators
    assert type(w) is type(v) and w.rail_alias == v.rail_alias
    assert w.chunker == v.chunker
    for deltas in SLICINGS:
        for guarded in (True, False):
            expected = joined(run(original, deltas, guarded=guarded))
            assert joined(run(rebuilt, deltas, guarded=guarded)) == expected
            assert _logs(rebuilt) == _logs(original)
    assert len(rebuilt._validators) == 1  # matched on every call, never built again
    assert rebuilt.validate(TEXT).validated_output == original.validate(TEXT).validated_output


def test_async_guards_survive_to_dict_and_stream_as_before() -> None:
    original = guard_with(*_validators()[:4], asynchronous=True)
    rebuilt = _round_trip(original, AsyncGuard)
    assert [w.chunker for w in rebuilt._validators] == [v.chunker for v in original._validators]
    for guarded in (True, False):
        expected = joined(asyncio.run(arun(original, SLICINGS[1], guarded=guarded)))
        assert joined(asyncio.run(arun(rebuilt, SLICINGS[1], guarded=guarded))) == expected
    assert len(rebuilt._validators) == 4


def test_the_dict_holds_each_chunker_as_its_spec() -> None:
    data = guard_with(*_validators()).to_dict()
    kwargs = [ref["kwargs"] for ref in data["validators"]]
    assert kwargs[0]["chunker"] == SentenceChunker(abbreviations=["Approx."]).spec()
    assert kwargs[1]["chunker"] == {"chunker": "fixed", "size": 30, "tolerance": 5}
    assert kwargs[4] == {"max_repeats": 1, "unit": "paragraph"}
    assert "chunker" not in kwargs[5]  # the default is not written: the class has it
    assert json.loads(json.dumps(data)) == data


def _set_by_attribute(validator: Any, chunker: Any) -> Any:
    validator.chunker = chunker
    return validator


#: The two ways to give a validator a chunker once it is built.
SET_CHUNKER = [
    pytest.param(with_chunker, id="with_chunker"),
    pytest.param(_set_by_attribute, id="setter"),
]


@pytest.mark.parametrize("set_chunker", SET_CHUNKER)
@pytest.mark.parametrize("after_use", [False, True], ids=["before-use", "after-use"])
def test_a_chunker_set_on_a_built_validator_is_what_to_dict_writes(
    set_chunker: Any, after_use: bool
) -> None:
    # Before: the setter changed the chunking but not get_args(), so to_dict()
    # wrote the chunker the validator was built with (or none) and the rebuilt
    # guard chunked differently.  After use, only a chunker recorded before
    # (chunker=) can change: Guardrails' record of the arguments is a copy.
    v = BannedPhrases(["free money"], chunker="sentence" if after_use else None, on_fail="fix")
    guard = guard_with(v) if after_use else None
    set_chunker(v, FixedSizeChunker(40, 8))
    guard = guard or guard_with(v)
    assert v.get_args()["chunker"] == FixedSizeChunker(40, 8)
    ref = json.loads(json.dumps(guard.to_dict()))["validators"][0]
    assert ref["kwargs"]["chunker"] == {"chunker": "fixed", "size": 40, "tolerance": 8}
    rebuilt = _round_trip(guard, Guard)
    for deltas in SLICINGS:
        assert joined(run(rebuilt, deltas)) == joined(run(guard, deltas))
        assert _logs(rebuilt) == _logs(guard)
    assert len(guard._validators) == len(rebuilt._validators) == 1


def test_a_with_chunker_subclass_of_a_chunkwise_validator_keeps_its_id() -> None:
    Words = with_chunker(BannedPhrases, "word")
    guard = guard_with(Words(["money"], on_fail="fix"))
    rebuilt = _round_trip(guard, Guard)
    (w,) = rebuilt._validators
    assert type(w) is BannedPhrases and w.chunker.inner == WordChunker()  # (joined: a phrase)
    assert joined(run(rebuilt, SLICINGS[1])) == joined(run(guard, SLICINGS[1]))


@pytest.mark.parametrize("set_chunker", SET_CHUNKER)
def test_a_chunker_set_on_no_repetition_replaces_its_unit(set_chunker: Any) -> None:
    v = set_chunker(NoRepetition(unit="paragraph", on_fail="fix"), "sentence")
    (w,) = _round_trip(guard_with(v), Guard)._validators
    assert without_own_joins(w.chunker) == SentenceChunker() and "unit" not in w.get_args()


# -- with_chunker on a hub validator (guardrails/lowercase) ----------------------------

HUB_TEXT = "Hello There. Some MORE text\n\nAnd A Second Paragraph. Last Words"
HUB_SLICINGS = [[HUB_TEXT], [HUB_TEXT[i : i + 3] for i in range(0, len(HUB_TEXT), 3)]]


def _lowercase_forms() -> dict[str, Any]:
    return {
        "instance": with_chunker(LowerCase(on_fail="fix"), limit("paragraph", max_chars=30)),
        "class": with_chunker(LowerCase, "word")(on_fail="fix"),
        "alias": with_chunker("guardrails/lowercase", FixedSizeChunker(10, 3))(on_fail="fix"),
    }


@pytest.mark.parametrize("form", ["instance", "class", "alias"])
def test_with_chunker_on_a_hub_validator_survives_to_dict(form: str) -> None:
    v = _lowercase_forms()[form]
    original = guard_with(v)
    data = json.loads(json.dumps(original.to_dict()))
    (ref,) = data["validators"]
    assert ref["id"] == WITH_CHUNKER
    assert ref["kwargs"]["validator"] == "guardrails/lowercase"
    assert ref["kwargs"]["chunker"] == spec_of(v._chunking_function.chunker)
    for cls in (Guard, AsyncGuard):
        rebuilt = cls.from_dict(data)
        (w,) = rebuilt._validators
        assert isinstance(w, LowerCase) and w.rail_alias == WITH_CHUNKER
        assert w._chunking_function.chunker == v._chunking_function.chunker
    rebuilt = Guard.from_dict(data)
    names = set()
    for deltas in HUB_SLICINGS:
        for guarded in (True, False):
            expected = joined(run(original, deltas, guarded=guarded))
            assert joined(run(rebuilt, deltas, guarded=guarded)) == expected
            assert _logs(rebuilt) == _logs(original)
            names |= {name for name, _, _ in _logs(rebuilt)}
    assert names == {WITH_CHUNKER}  # the id it is written under (see the module docstring)
    assert len(rebuilt._validators) == 1
    async_rebuilt = AsyncGuard.from_dict(data)
    assert joined(asyncio.run(arun(async_rebuilt, HUB_SLICINGS[1]))) == joined(
        run(original, HUB_SLICINGS[1])
    )


@pytest.mark.parametrize(
    "source",
    [
        lambda given: RedactPII(chunker=given),
        lambda given: BannedPhrases(["free money"], chunker=given),
        lambda given: NoRepetition(chunker=given),
    ],
    ids=["RedactPII", "BannedPhrases", "NoRepetition"],
)
@pytest.mark.parametrize("form", ["instance", "class"])
def test_a_hub_validator_given_a_chunkwise_validators_chunker_gets_the_one_it_was_given(
    source: Any, form: str
) -> None:
    # Before: it chunked with that validator's own joins (phrases, labels,
    # fences), which have no spec: to_dict() raised SpecError, where a
    # chunkwise validator given the same chunker takes the one it was given.
    given = limit("sentence", max_chars=400)
    taken = source(given).chunker
    v = with_chunker(LowerCase(on_fail="fix"), taken) if form == "instance" else None
    v = v or with_chunker(LowerCase, taken)(on_fail="fix")
    assert v._chunking_function.chunker == given
    guard = guard_with(v)
    (ref,) = json.loads(json.dumps(guard.to_dict()))["validators"]
    assert ref["kwargs"]["chunker"] == given.spec()
    rebuilt = _round_trip(guard, Guard)
    assert joined(run(rebuilt, HUB_SLICINGS[1])) == joined(run(guard, HUB_SLICINGS[1]))


def test_a_hub_validator_keeps_its_arguments_through_the_wrapper() -> None:
    v = with_chunker(LowerCase(on_fail="noop", extra="x"), "paragraph")
    (w,) = _round_trip(guard_with(v), Guard)._validators
    assert w._kwargs == {"extra": "x"} and w.on_fail_descriptor == "noop"
    assert w.get_args() == v.get_args()


def test_a_second_with_chunker_updates_what_to_dict_writes() -> None:
    v = with_chunker(LowerCase(on_fail="fix"), "word")
    guard = guard_with(v)
    with_chunker(v, "paragraph")  # after use: the recorded entry is shared
    (ref,) = guard.to_dict()["validators"]
    assert ref["kwargs"]["chunker"] == {"chunker": "paragraph"}
    run(guard, HUB_SLICINGS[0])
    assert len(guard._validators) == 1


def test_an_unknown_wrapped_validator_is_an_error_at_from_dict() -> None:
    data = guard_with(with_chunker(LowerCase(), "word")).to_dict()
    data["validators"][0]["kwargs"]["validator"] = "nobody/nothing"
    with pytest.warns(UserWarning), pytest.raises(ValueError, match="'nobody/nothing' is not a"):
        Guard.from_dict(data)
    data["validators"][0]["kwargs"]["validator"] = "chunkwise/redact_pii"
    with pytest.raises(ValueError, match="under its own id with a chunker= argument"):
        Guard.from_dict(data)


# -- what cannot be written fails at to_dict time -------------------------------------


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (
            lambda: RedactPII(chunker=SplitFlushOnly(SentenceChunker())),
            r"RedactPII: .*SplitFlushOnly",
        ),
        (
            lambda: BannedPhrases(["x"], chunker=limit(SplitFlushOnly(WordChunker()), max_chars=9)),
            r"BannedPhrases: .*chunker\.inner=SplitFlushOnly",
        ),
        (
            lambda: MaxChunkLength(max_chars=9, chunker=GuardrailsChunker(_custom)),
            r"MaxChunkLength: .*chunker\.function=<function _custom",
        ),
        (
            lambda: with_chunker(LowerCase(), SplitFlushOnly(WordChunker())),
            r"guardrails/lowercase: .*SplitFlushOnly",
        ),
        (
            lambda: with_chunker(LowerCase, GuardrailsChunker(_custom))(),
            r"guardrails/lowercase: .*function",
        ),
    ],
    ids=["foreign", "foreign-inner", "function", "hub-instance", "hub-class"],
)
def test_what_cannot_be_written_raises_at_to_dict(make: Any, words: str) -> None:
    guard = guard_with(make())  # building and using it is fine
    with pytest.raises(Exception, match=words) as raised:
        guard.to_dict()
    assert "cannot write this validator's chunker" in str(raised.value)


@pytest.mark.parametrize("name", ["sentence", " Sentence ", "bounded", "guardrails"])
def test_a_registered_name_is_replaced_only_when_asked(name: str) -> None:
    # Before: register_alias("sentence", ...) silently changed what every
    # validator's default "sentence" meant, and an alias "bounded" was never
    # reached (kinds are looked up first).
    from guardrails_ai.chunkwise.chunkers import register_alias, register_kind, resolve_chunker

    before = resolve_chunker({"chunker": "word"})
    for register in (register_alias, register_kind):
        with pytest.raises(ValueError, match="registered chunker already; pass replace=True"):
            register(name, WordChunker)
    assert resolve_chunker({"chunker": "word"}) == before


def test_a_registration_is_repeated_or_replaced() -> None:
    from guardrails_ai.chunkwise.chunkers import register_alias, resolve_chunker

    register_alias("test-words-again", WordChunker, replace=True)  # (the test may run again)
    register_alias("test-words-again", WordChunker)  # the same factory: a no-op
    register_alias("test-words-again", LineChunker, replace=True)
    assert resolve_chunker("test-words-again") == LineChunker()
    # The same definition made again (a module reloaded) takes the name over.
    register_alias("sentence-simple", functools.partial(SentenceChunker, mode="simple"))
    with pytest.raises(ValueError, match="registered chunker already"):
        register_alias("sentence-simple", functools.partial(SentenceChunker, mode="accurate"))
    with pytest.raises(ValueError, match="registered chunker already"):
        register_alias("test-words-again", lambda: LineChunker())


@pytest.mark.parametrize(
    ("name", "factory", "error", "words"),
    [
        ("test-five", 5, TypeError, "factory must be callable.*got int"),
        (5, WordChunker, TypeError, "name must be a str, got int"),
        ("  ", WordChunker, ValueError, "name must not be empty"),
    ],
)
def test_a_bad_registration_raises_naming_the_parameter(
    name: Any, factory: Any, error: type, words: str
) -> None:
    from guardrails_ai.chunkwise.chunkers import register_alias

    with pytest.raises(error, match=words):
        register_alias(name, factory)


@pytest.mark.parametrize("made", [None, "word", WordChunker, 5])
def test_a_factory_that_makes_no_chunker_is_refused_where_its_name_is_used(made: Any) -> None:
    # Before: the alias resolved to whatever its factory returned, and the
    # validator failed later with an AttributeError at its first split.
    from guardrails_ai.chunkwise.chunkers import register_alias, register_kind, resolve_chunker

    register_alias("test-makes-nothing", lambda: made, replace=True)
    register_kind("test-kind-makes-nothing", lambda **_: made, replace=True)
    words = r"chunker='test-makes-nothing': its registered factory returned a \w+, not a"
    with pytest.raises(TypeError, match=words):
        resolve_chunker("test-makes-nothing")
    with pytest.raises(TypeError, match=words):
        BannedPhrases(["x"], chunker="test-makes-nothing")
    with pytest.raises(TypeError, match="chunker='test-kind-makes-nothing': its registered"):
        resolve_chunker({"chunker": "test-kind-makes-nothing", "size": 3})


def _foreign_words() -> SplitFlushOnly:
    return SplitFlushOnly(WordChunker())


#: Every way to give a validator a chunker by an alias (the class forms
#: wrote the chunker the alias resolved to, which has no spec: SpecError).
BY_ALIAS = {
    "chunker=": lambda alias: BannedPhrases(["x"], chunker=alias),
    "instance": lambda alias: with_chunker(BannedPhrases(["x"]), alias),
    "class": lambda alias: with_chunker(BannedPhrases, alias)(["x"]),
    "hub-instance": lambda alias: with_chunker(LowerCase(), alias),
    "hub-class": lambda alias: with_chunker(LowerCase, alias)(),
    "hub-alias": lambda alias: with_chunker("guardrails/lowercase", alias)(),
}


@pytest.mark.parametrize("form", list(BY_ALIAS))
def test_an_alias_without_a_spec_is_written_as_the_alias(form: str) -> None:
    from guardrails_ai.chunkwise.chunkers import register_alias

    register_alias("test-foreign-words", _foreign_words)  # type: ignore[arg-type]
    guard = guard_with(BY_ALIAS[form]("test-foreign-words"))
    (ref,) = json.loads(json.dumps(guard.to_dict()))["validators"]
    assert ref["kwargs"]["chunker"] == "test-foreign-words"
    (w,) = Guard.from_dict(guard.to_dict())._validators
    chunker = getattr(w, "chunker", None) or w._chunking_function.chunker
    assert isinstance(getattr(chunker, "inner", chunker), SplitFlushOnly)  # (BannedPhrases joins)


def test_the_plain_stream_of_a_rebuilt_guard_releases_the_same_text() -> None:
    # guard(llm, stream=True) directly, as Guardrails documents it.
    original = guard_with(*_validators()[:2])
    rebuilt = _round_trip(original, Guard)
    outputs = [
        "".join(
            o.validated_output or "" for o in g(llm(SLICINGS[1]), messages=MESSAGES, stream=True)
        )
        for g in (original, rebuilt)
    ]
    assert outputs[0] == outputs[1]


# -- the Guardrails server lists such guards ------------------------------------------

_SERVER_CONFIG = """
from guardrails import Guard
from guardrails_ai.lowercase import LowerCase
from guardrails_ai.chunkwise import BannedPhrases, RedactPII
from guardrails_ai.chunkwise.adapters import with_chunker
from guardrails_ai.chunkwise.chunkers import FixedSizeChunker, SentenceChunker

guard = Guard(name="chunky").use(
    RedactPII(chunker=SentenceChunker(abbreviations=["Approx."]), on_fail="fix"),
    BannedPhrases(["free money"], chunker=FixedSizeChunker(30, 5), on_fail="fix"),
    with_chunker(LowerCase(on_fail="fix"), "paragraph"),
)
"""

_LIST_GUARDS = """
import json, sys
from fastapi.testclient import TestClient
from guardrails_api.app import create_app

response = TestClient(create_app(config=sys.argv[1])).get("/guards")
print(json.dumps({"status": response.status_code, "body": response.json()}))
"""


def test_the_guardrails_server_lists_the_guard_with_its_chunkers(tmp_path: Any) -> None:
    # guardrails-api's GET /guards answered 400 for every guard holding a chunker object.
    pytest.importorskip("guardrails_api")
    import subprocess
    import sys

    config = tmp_path / "config.py"
    config.write_text(_SERVER_CONFIG, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _LIST_GUARDS, str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["status"] == 200
    (guard,) = answer["body"]
    chunkers = [ref["kwargs"]["chunker"] for ref in guard["validators"]]
    assert chunkers == [
        SentenceChunker(abbreviations=["Approx."]).spec(),
        {"chunker": "fixed", "size": 30, "tolerance": 5},
        {"chunker": "paragraph"},
    ]
    assert Guard.from_dict(guard) is not None
