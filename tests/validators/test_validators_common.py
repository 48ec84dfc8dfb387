"""What every example validator promises: registration, hub docstring, arguments, chunker."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest
from guardrails import Guard
from guardrails.types.on_fail import OnFailAction
from guardrails.validator_base import Validator, validators_registry
from helpers.guardrails import arun, guard_with, joined, rebuilt_opt_in_outputs, run

import guardrails_ai.chunkwise as hub
from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII
from guardrails_ai.chunkwise.adapters import ChunkedValidator, with_chunker
from guardrails_ai.chunkwise.adapters.chunked import OwnJoins
from guardrails_ai.chunkwise.chunkers import (
    Bounded,
    ParagraphChunker,
    SentenceChunker,
    limit,
    split_spans,
)

#: Class, its registered name, and keyword arguments that build one.
CASES: list[tuple[type[ChunkedValidator], str, dict[str, Any]]] = [
    (BannedPhrases, "chunkwise/banned_phrases", {"phrases": ["bad word"]}),
    (RedactPII, "chunkwise/redact_pii", {"entities": ["email", "card"]}),
    (NoRepetition, "chunkwise/no_repetition", {"max_repeats": 2}),
    (MaxChunkLength, "chunkwise/max_chunk_length", {"max_words": 5}),
]
IDS = [case[0].__name__ for case in CASES]


def custom_on_fail(value: Any, fail_result: Any) -> str:
    return "custom"


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
def test_registered_and_exported(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any]
) -> None:
    assert cls.rail_alias == name
    assert validators_registry[name] is cls
    assert issubclass(cls, ChunkedValidator) and issubclass(cls, Validator)
    assert cls.__name__ in hub.__all__
    assert getattr(hub, cls.__name__) is cls


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
def test_docstring_has_key_properties(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any]
) -> None:
    doc = cls.__doc__ or ""
    assert "| Property" in doc and "| Description" in doc
    assert f"| Name for `format` attribute   | `{name}`" in doc
    assert "| Supported data types          | `string`" in doc
    assert "| Programmatic fix              |" in doc
    assert "**Chunk**" in doc  # what a chunk is by default, and why


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
def test_arguments_forwarded(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any]
) -> None:
    validator = cls(**kwargs)
    assert kwargs.items() <= validator.get_args().items()
    prompt = validator.to_prompt()
    assert prompt.startswith(f"{name}: ")
    for key in kwargs:
        assert f"{key}=" in prompt
    with_chunker = cls(**kwargs, chunker="paragraph")
    assert with_chunker.get_args() == {**validator.get_args(), "chunker": "paragraph"}
    # The arguments rebuild an equivalent validator (as Guardrails does from them).
    for original in (validator, with_chunker):
        rebuilt = cls(**original.get_args())
        assert rebuilt.get_args() == original.get_args()
        assert repr(rebuilt.chunker) == repr(original.chunker)


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
@pytest.mark.parametrize(
    "on_fail",
    [*OnFailAction, *(a.value for a in OnFailAction), custom_on_fail, None],
    ids=str,
)
def test_every_on_fail_accepted(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any], on_fail: Any
) -> None:
    validator = cls(**kwargs, on_fail=on_fail)
    if on_fail is custom_on_fail:
        assert validator.on_fail_method is custom_on_fail
    elif on_fail is None:
        assert validator.on_fail_descriptor == OnFailAction.EXCEPTION
    else:
        assert validator.on_fail_descriptor == OnFailAction(on_fail)


def unjoined(chunker: Any) -> Any:
    """The chunker given, without the joins a validator adds (BannedPhrases'
    phrases, RedactPII's labels, NoRepetition's fence marks)."""
    return chunker.inner if isinstance(chunker, OwnJoins) else chunker


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
def test_chunker_alias_instance_and_default(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any]
) -> None:
    default = unjoined(cls(**kwargs).chunker)
    if cls is RedactPII:  # sentences under a ceiling (see its tests)
        assert isinstance(default, Bounded) and isinstance(unjoined(default.inner), SentenceChunker)
    else:
        assert isinstance(default, SentenceChunker)
    assert isinstance(unjoined(cls(**kwargs, chunker="paragraph").chunker), ParagraphChunker)
    mine = ParagraphChunker(crlf=True)
    assert unjoined(cls(**kwargs, chunker=mine).chunker) is mine
    with pytest.raises(ValueError, match="chunker='nope' is not a known chunker"):
        cls(**kwargs, chunker="nope")
    with pytest.raises(TypeError, match="chunker"):
        cls(**kwargs, chunker=42)


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
def test_a_chunker_taken_from_another_validator_is_written_without_its_joins(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any]
) -> None:
    # (BannedPhrases and RedactPII wrap the chunker they are given in joins of
    # their own, which have no spec: to_dict() raised for a guard that reused one.)
    other = cls(**kwargs, chunker="paragraph").chunker
    for validator in (cls(**kwargs, chunker=other), with_chunker(cls(**kwargs), other)):
        guard = Guard().use(validator)
        data = json.loads(json.dumps(guard.to_dict()))
        rebuilt = Guard.from_dict(data)
        assert rebuilt is not None
        (again,) = rebuilt.get_validators("output")
        assert isinstance(again, ChunkedValidator)
        assert isinstance(unjoined(again.chunker), ParagraphChunker)
        assert isinstance(unjoined(validator.chunker), ParagraphChunker)


def _under_a_limit(cls: type[ChunkedValidator], kwargs: dict[str, Any], chunker: Any) -> Any:
    return cls(**kwargs, chunker=chunker, on_fail="fix")


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
@pytest.mark.parametrize(("source", "source_name", "source_kwargs"), CASES, ids=IDS)
def test_a_size_limit_taken_from_another_validator_is_the_one_it_was_given(
    cls: type[ChunkedValidator],
    name: str,
    kwargs: dict[str, Any],
    source: type[ChunkedValidator],
    source_name: str,
    source_kwargs: dict[str, Any],
) -> None:
    # (A validator wraps a size limit's inner chunker in joins of its own and
    # may replace its fallback chain with cuts of its own; only an outer join
    # was taken off, so to_dict() raised SpecError, BannedPhrases refused the
    # limit as one with a fallback= chain, and phrase cuts carried over.)
    def given() -> Any:
        return limit("sentence", max_chars=400)

    taken = source(**source_kwargs, chunker=given()).chunker
    mine = _under_a_limit(cls, kwargs, given())
    setter = cls(**kwargs, on_fail="fix")
    setter.chunker = taken
    text = (
        "Write to me at jo@example.com, then. "
        + "A bad word and ```fenced``` text and more words, " * 12
        + "The end. The end."
    )
    deltas = [text[i : i + 7] for i in range(0, len(text), 7)]
    assert split_spans(setter.chunker, text) == split_spans(mine.chunker, text)
    for validator in (
        _under_a_limit(cls, kwargs, taken),
        with_chunker(cls(**kwargs, on_fail="fix"), taken),
    ):
        assert split_spans(validator.chunker, text) == split_spans(mine.chunker, text)
        data = json.loads(json.dumps(Guard().use(validator).to_dict()))
        rebuilt = Guard.from_dict(data)
        assert rebuilt is not None
        (again,) = rebuilt.get_validators("output")
        assert split_spans(again.chunker, text) == split_spans(mine.chunker, text)
    expected = joined(run(guard_with(mine), deltas))
    assert joined(run(guard_with(_under_a_limit(cls, kwargs, taken)), deltas)) == expected
    again = _under_a_limit(cls, kwargs, taken)
    assert joined(asyncio.run(arun(guard_with(again, asynchronous=True), deltas))) == expected
    opt_in = rebuilt_opt_in_outputs(guard_with(_under_a_limit(cls, kwargs, taken)), deltas)
    assert opt_in == rebuilt_opt_in_outputs(guard_with(mine), deltas)
    if cls is not BannedPhrases:  # (its own cuts, for its own phrases)
        assert repr(_under_a_limit(cls, kwargs, taken).chunker) == repr(mine.chunker)


def test_one_guard_uses_them_all() -> None:
    guard = Guard().use(*(cls(**kwargs, on_fail="fix") for cls, _, kwargs in CASES))
    text = "A short and ordinary sentence. Another one follows"
    outcome = guard.validate(text)
    assert outcome.validation_passed and outcome.validated_output == text
    outcome = guard.validate("Mail a@example.com now. Mail a@example.com now. Bad  WORD")
    assert outcome.validated_output == "Mail <EMAIL> now. Mail <EMAIL> now. ***  ****"


def test_importing_the_hub_module_stays_light() -> None:
    code = (
        "import sys, guardrails_ai.chunkwise as c; "
        "assert 'guardrails' not in sys.modules, 'guardrails imported'; "
        "assert {'BannedPhrases', 'MaxChunkLength', 'NoRepetition', 'RedactPII'} <= set(c.__all__)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


#: Validators that refuse a chunker that would hide what they look for.
REFUSING = [
    pytest.param(
        lambda: RedactPII(on_fail="fix"), "word", "cuts a payment card number", id="RedactPII"
    ),
    pytest.param(
        lambda: BannedPhrases(["secret sauce"], on_fail="fix"),
        limit("word", max_chars=6),
        "would be cut",
        id="BannedPhrases",
    ),
]


@pytest.mark.parametrize(("build", "refused", "message"), REFUSING)
def test_every_way_to_set_a_chunker_is_checked(build: Any, refused: Any, message: str) -> None:
    from guardrails_ai.chunkwise.adapters import with_chunker

    # Before: only chunker= was checked; with_chunker and the setter let "word"
    # through, and a card number or a phrase split over words went unseen.
    validator = build()
    before = validator.chunker
    with pytest.raises(ValueError, match=message):
        with_chunker(validator, refused)
    with pytest.raises(ValueError, match=message):
        validator.chunker = refused
    # Refused: the validator still chunks, and records, what it had.
    assert validator.chunker is before
    assert "chunker" not in validator.get_args()
    with pytest.raises(ValueError, match=message):
        with_chunker(type(validator), refused)(**validator.get_args())


@pytest.mark.parametrize(("build", "refused", "message"), REFUSING)
def test_a_refused_chunker_is_named_as_given(build: Any, refused: Any, message: str) -> None:
    # Before: the message showed the validator's own wrappers around it
    # ("chunker=LabelJoins(inner=WordChunker())", "PhraseJoins(...)").
    from guardrails_ai.chunkwise.chunkers import resolve_chunker

    with pytest.raises(ValueError, match=message) as raised:
        build().chunker = refused
    assert f"chunker={resolve_chunker(refused)!r}" in str(raised.value)
    assert "Joins" not in str(raised.value)


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=IDS)
def test_a_misspelt_argument_is_named(
    cls: type[ChunkedValidator], name: str, kwargs: dict[str, Any]
) -> None:
    # Before: Guardrails' Validator kept any keyword, so RedactPII(entites=...)
    # silently redacted every kind of entity.
    first = next(iter(kwargs))
    misspelt = first[:-1] + first[-1] * 2
    if cls is BannedPhrases:  # (its phrases are required: misspell the mask)
        kwargs, first, misspelt = {**kwargs, "mask": "#"}, "mask", "mmask"
    with pytest.raises(
        TypeError, match=rf"unexpected keyword argument '{misspelt}'; did you mean '{first}'"
    ):
        cls(**{k: v for k, v in kwargs.items() if k != first}, **{misspelt: kwargs[first]})
