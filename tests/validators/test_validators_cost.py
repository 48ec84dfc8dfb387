"""The validators' own work stays linear on adversarial runs (issue 12, "what stops
the class"): counted, never timed.

``test_adversarial.py`` counts the work of every chunker; this file counts the
work of the four validators themselves, chunking included: ``validate`` of a
whole text and ``validate_stream`` of it in 4-character deltas, with
``on_fail="fix"`` (fix values are built), on a run of every character class
of ``benchmarks/_attacks.py`` (and runs of e-mail addresses, numbers and
phrases, what the validators look for) at n and 2n characters.

Work is the sum of two exact counts: Python steps (function calls entered and
lines executed, under ``sys.settrace``) and the characters handed to every
regular expression of the package (module-level patterns of every
``guardrails_ai.chunkwise`` module and the phrase matcher's own; each call
counts ``endpos - pos``, except an anchored ``match``, which counts what it
consumed and one more character: the package uses ``match`` on runs of a
character class, and counting the rest of the string would make a fold that
steps over CJK text one character at a time look quadratic while its time is
linear).  Doubling the text may at most about double the
work; a rescan of the held text per delta, or per chunk, would about
quadruple it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
from _attacks import UNITS, repeat
from helpers.cost import CountingPattern, Work

import guardrails_ai.chunkwise as chunkwise
from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII

N = 3000
#: Doubling the text may cost at most this factor more (and a constant).
MAX_DOUBLING = 2.3
#: Validators measured on longer texts: RedactPII's window holds 1,016
#: characters, and a size limit reads the text before each window for code
#: fences, never the last window's, so at 3,000 characters (three windows) the
#: unread tail bends the doubling (whitespace runs: 2.48 from 3,000 to 6,000,
#: 2.19 to 12,000, 2.09 to 24,000: linear).
LONGER = {"RedactPII": 2 * N}

VALIDATORS: dict[str, Callable[[], Any]] = {
    "BannedPhrases": lambda: BannedPhrases(["free money", "a.a"], on_fail="fix"),
    "NoRepetition": lambda: NoRepetition(on_fail="fix"),
    "RedactPII": lambda: RedactPII(on_fail="fix"),
    "MaxChunkLength": lambda: MaxChunkLength(max_chars=500, on_fail="fix"),
}

RUNS = {
    **UNITS,
    "emails": "jo@example.com,",
    "joined emails": "jo@example.com|",
    "at-joined emails": "jo@x.io@",
    "phones": "+1 415 555 0123 ",
    "slash-joined phones": "415-555-0123/",
    "grouped": "4111 1111 1111 1111 ",
    "phrases": "free money ",
    "hyphenated phrases": "free-money ",
    "phrase starts at line ends": "free-\n",
    "emphasis runs": " ____free mo x____",
    "character references": "&#102;ree&nbsp;mo&#x6e;ey &am&#1 x&",
    "ssns": "536-22-1234 ",
    "labelled ssns": "SSN 536221234 ",
    "addresses and dotted words": "jo@example.com.a1.",
    "full stops after domains": "jo@x.io\u3002Ab@x.io\u3002",
    "full stops after latin words": "Taro\u300220\u3002\uff4a\uff01",
    "full stops after han words": "\u7528\u6237\u3002\u540d@\u4f8b\u5b50\u3002\uff01",
    "full stops after glued domains": "jo@example.com\u3067\u3059\u3002\u6b21@",
    "long domains of han words": "@" + "\u4f8b\u3002" * 120,
    "addresses glued to long words": "jo@example.com" + "x" * 80 + "@",
    "encoded addresses": "jo%40example.com%40",
    "joined cards": "4111111111111111/4111111111111111-",
    "html-encoded addresses": "jo&#64;example.com&#64;",
    "en dashes after words": "at\u2013415\u2013555\u20130123\u2013",
    "long vowel marks": "03\u30fc1234\u30fc5678\u30fc\u30fc",
    "glued numbers": "today.4111 1111 1111 1111Ab.0958Ab ",
    "exchanges in parentheses": "03(3581)3111(",
    "open parentheses after digits": "01(",
    "two-two groups": "(495) 123-45-67-",
    "turkish trunks": "0 (212) 555 12 34 0 532 123 45 67-0(",
    "labels in runs of han": "\u6211\u7684\u7535\u8bdd\u662f612345678",
    "camelcase labels": "WhatsApp 612 345 678 ",
    "trunks after 00": "0049 (0)30 1234567 (0)0049(0)",
    "qualifiers in parentheses": "Phone (work) ((home)) (- 612 345 678 ",
    "polish calls": "zadzwo\u0144 do nas pod pod do nas pod nr 600 123 456 ",
    "abbreviated labels": "Cel.: cel.:: Cel. 612 345 678 ",
    "quote markers": "> >\t>>",
    "quoted fences": "> ```\n> x\n>> ~~~ ``\n",
    "vowel signs and tones": "\u092a\u0941\u0941\u094d\u0e02\u0e49\u0e48x\u0941\u0e48 ",
    "vowel signs in halves": "\u0995\u09c7\u09be\u09be\u200d\u0941\u1025\u102e\u0f66\u0f90 ",
    # (read again with case folded first: capital eta, nu and upsilon)
    "greek capitals": "\u039c\u0397\u039d \u03a4\u039f \u039a\u0391\u039d\u0395\u0399\u03a3 &Eta;",
}


class Steps:
    """Python calls entered and lines executed while counting."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, frame: Any, event: str, arg: Any) -> Any:
        self.count += 1
        return self


class Counting(CountingPattern):
    """A :class:`CountingPattern` that also counts ``sub`` and ``split``."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        super().__init__(pattern, work)
        self._work = work
        self.match = self._anchored  # the base class sets its own per instance

    def _anchored(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        # Anchored: it examines what it consumes and the character that stops it
        # (the package matches runs of a character class this way), not the rest.
        self._work.calls += 1
        found = self._pattern.match(string, pos, endpos)
        self._work.examined += (found.end() - pos if found else 0) + 1
        return found

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        self._work.examined += len(string)
        return self._pattern.sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[Any]:
        self._work.examined += len(string)
        return self._pattern.split(string, maxsplit)


def package_patterns() -> list[tuple[Any, str, re.Pattern[str]]]:
    """(owner, name, pattern) for every module-level pattern of the package."""
    found = []
    prefix = chunkwise.__name__ + "."
    for name, module in list(sys.modules.items()):
        if module is None or not (name == chunkwise.__name__ or name.startswith(prefix)):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                found.append((module, attr, value))
    return found


def work_of(monkeypatch: pytest.MonkeyPatch, validator: Any, text: str, streamed: bool) -> int:
    """Python steps plus regex characters of one validation of ``text``."""
    work = Work()
    with monkeypatch.context() as patch:
        for owner, name, pattern in package_patterns():
            patch.setattr(owner, name, Counting(pattern, work))
        matcher = getattr(validator, "_matcher", None)
        if matcher is not None:
            patch.setattr(matcher, "_regex", Counting(matcher._regex, work))
        steps = Steps()
        sys.settrace(steps)
        try:
            if streamed:
                for i in range(0, len(text), 4):
                    validator.validate_stream(text[i : i + 4], {})
                validator.validate_stream("", {}, remainder=True)
            else:
                validator.validate(text, {})
        finally:
            sys.settrace(None)
    return steps.count + work.examined


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("unit", list(RUNS), ids=list(RUNS))
@pytest.mark.parametrize("name", list(VALIDATORS))
def test_validator_work_is_linear_on_runs(
    monkeypatch: pytest.MonkeyPatch, name: str, unit: str, streamed: bool
) -> None:
    validator = VALIDATORS[name]()
    validator.validate("Warm up. Mail jo@example.com now.", {})  # compiled, imported
    one, two = (
        work_of(monkeypatch, validator, repeat(RUNS[unit], n), streamed)
        for n in (LONGER.get(name, N), 2 * LONGER.get(name, N))
    )
    assert two <= MAX_DOUBLING * one + 2000, (one, two)


def test_a_guard_builds_its_sentence_setup_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Values validated one after another, at once and streamed, through a
    real ``Guard`` and ``AsyncGuard``: the validator's sentence chunker builds
    its scanners' setup once (about 100 microseconds each time, before it was
    shared), whatever the number of values and streams, and a guard rebuilt
    from ``to_dict()`` builds none."""
    import asyncio

    from guardrails import AsyncGuard
    from helpers.guardrails import arun, guard_with, joined, run
    from helpers.sentence_checks import setups_built

    from guardrails_ai.chunkwise.chunkers import SentenceChunker

    built = setups_built(monkeypatch)
    text = "Dr. Lee is here. Free money is not. Bye now."
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    chunker = SentenceChunker()
    guard = guard_with(BannedPhrases(["free money"], chunker=chunker, on_fail="noop"))
    async_guard = guard_with(
        BannedPhrases(["free money"], chunker=chunker, on_fail="noop"), asynchronous=True
    )
    for _ in range(5):
        assert guard.validate(text).validation_passed is False
        assert joined(run(guard, deltas)) == text
        assert joined(run(guard, deltas, guarded=False)) == text
        assert joined(asyncio.run(arun(async_guard, deltas))) == text
        # (A guard rebuilt from its dict, as the server does per request.)
        rebuilt = AsyncGuard.from_dict(async_guard.to_dict())
        assert joined(asyncio.run(arun(rebuilt, deltas))) == text
    assert len(built) == 1


def test_a_long_phrase_list_compiles_in_linear_work() -> None:
    """Building a matcher for many phrases (a word list of thousands) costs
    work linear in their characters: the class of spaceless letters, whose
    compiling steps over some 30,000 code points, is written a fixed number
    of times, not once per phrase (2,000 phrases took 5 seconds to build)."""
    from guardrails_ai.chunkwise._normalize import SPACELESS_LETTERS
    from guardrails_ai.chunkwise._phrases import PhraseMatcher

    def classes(count: int) -> int:
        phrases = [f"word{i} number {i}" if i % 2 else f"w{i}" for i in range(count)]
        matcher = PhraseMatcher(phrases)
        return sum(p.pattern.count(SPACELESS_LETTERS) for p in (matcher._regex, matcher._partial))

    assert classes(1) == classes(500)
