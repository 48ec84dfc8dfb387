"""The validators' pure helpers: Unicode folding, phrase matching, PII detectors."""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise._args import optional_positive_int, str_list
from guardrails_ai.chunkwise._confusables import SKELETON
from guardrails_ai.chunkwise._normalize import (
    MAX_NON_STARTERS,
    fold,
    fold_text,
    is_ignorable,
    is_ignorable_or_mark,
)
from guardrails_ai.chunkwise._phrases import PhraseMatch, PhraseMatcher, group_matches
from guardrails_ai.chunkwise._pii import (
    ENTITIES,
    LONGEST_ENTITY,
    find_entities,
    iban_valid,
    luhn_valid,
)

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u00ad\ufeff"

# -- folding -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "folded"),
    [
        ("Hello", "hello"),
        ("\uff28\uff45\uff4c\uff4c\uff4f", "hello"),  # full-width letters
        ("he\u200bl\u200cl\u200do\u2060", "hello"),  # zero-width characters
        ("hel\u00adlo", "hello"),  # soft hyphen
        ("\ufb01ne", "fine"),  # ligature
        ("Stra\u00dfe", "strasse"),  # casefold
        ("\u2460", "1"),  # circled digit
        ("cafe\u0301", "cafe"),  # accents dropped
        ("caf\u00e9", "cafe"),
        ("\u0130stanbul", "istanbul"),  # Turkish dotted capital I
        ("\u0455\u0441\u0430m", "scam"),  # Cyrillic look-alikes
        ("\ua730\u0280\u1d07\u1d07", "free"),  # small capitals
        ("f\u0336r\u0336e\u0336e\u0336", "free"),  # strike-through overlay
        ("fr\u3164e\u115fe\uffa0\u2800", "free"),  # blank letters
        ("\u2163", "iv"),  # roman numeral
    ],
)
def test_fold_examples(source: str, folded: str) -> None:
    assert fold_text(source) == folded


def test_ignorable_characters() -> None:
    for char in ZERO_WIDTH + "\ufe0f\u034f\u202e":
        assert is_ignorable(char), hex(ord(char))
    for char in "\u115f\u1160\u3164\uffa0\u2800":
        assert is_ignorable(char), hex(ord(char))
    for char in "a \n\u0301\u00e9":
        assert not is_ignorable(char)


@given(st.text(max_size=60))
def test_fold_map_covers_source_in_order(source: str) -> None:
    folded = fold(source)
    assert len(folded.starts) == len(folded.ends) == len(folded.text)
    assert list(folded.starts) == sorted(folded.starts)
    for i, (start, end) in enumerate(zip(folded.starts, folded.ends, strict=True)):
        assert 0 <= start < end <= len(source)
        # Each folded character comes from its cluster, folded after the letter
        # it renders on: a cluster that begins with a mark keeps it only after a
        # letter of the mark's script ("\u0904\u093e": U+093E, a vowel sign of
        # combining class 0, is a cluster of its own).
        letter = start
        while letter > 0 and is_ignorable_or_mark(source[letter]):
            letter -= 1
        assert folded.text[i] in fold_text(source[letter:end])
    # Folding is idempotent on what ignorables leave.
    assert fold_text(folded.text) == fold_text(fold_text(folded.text))


def _reference_fold(source: str) -> tuple[str, list[int], list[int]]:
    """Folding one cluster at a time, written plainly (no ASCII shortcuts)."""
    out, starts, ends = "", [], []
    i = 0
    while i < len(source):
        j = i + 1
        while j < len(source) and j - i <= MAX_NON_STARTERS and unicodedata.combining(source[j]):
            j += 1
        cluster = "".join(c for c in source[i:j] if not is_ignorable(c))
        nfkd = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", cluster).casefold())
        bare = "".join(c for c in nfkd if unicodedata.category(c) not in ("Mn", "Me"))
        folded = unicodedata.normalize("NFKC", bare).translate(SKELETON)
        out += folded
        starts += [i] * len(folded)
        ends += [j] * len(folded)
        i = j
    return out, starts, ends


_MIXED = st.text(
    alphabet=st.sampled_from(
        [
            "a",
            "B",
            " ",
            ".",
            "\u0301",
            "\u0308",
            "\u200b",
            "\u00ad",
            "\uff21",
            "\u00e9",
            "\ufb01",
            "\u00df",
            "\u4e00",
            "\U0001f600",
            "\ufe0f",
            "\u0130",
            "\u0430",
            "\u3164",
            "\u0336",
        ]
    ),
    max_size=40,
)


@given(_MIXED)
def test_fold_agrees_with_reference(source: str) -> None:
    folded = fold(source)
    assert (folded.text, list(folded.starts), list(folded.ends)) == _reference_fold(source)


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=60))
def test_fold_ascii_is_lower(source: str) -> None:
    folded = fold(source)
    assert folded.text == source.lower()
    assert [folded.source_span(i, i + 1) for i in range(len(source))] == [
        (i, i + 1) for i in range(len(source))
    ]


# -- phrase matching -------------------------------------------------------------------


def spans(matcher: PhraseMatcher, text: str) -> list[tuple[str, str]]:
    return [(text[m.start : m.end], m.phrase) for m in matcher.find(text)]


def test_phrases_whole_word_case_insensitive() -> None:
    m = PhraseMatcher(["bad", "bad word", "C++"])
    # (Overlapping phrases are all reported: "bad" in "BAD word" too.)
    assert spans(m, "Bad, BAD word; badly abad bad_x x_bad c++ c++x") == [
        ("Bad", "bad"),
        ("BAD word", "bad word"),
        ("BAD", "bad"),
        ("c++", "C++"),
    ]


def test_phrases_whitespace_runs_and_unicode_tricks() -> None:
    m = PhraseMatcher(["bad word"])
    for text in [
        "a bad \n\t word",
        "a \uff42\uff41\uff44 \uff57\uff4f\uff52\uff44",
        "a b\u200ba\u200cd w\u00ador\u2060d!",
        "a BaD\u3000WoRd",  # ideographic space folds to a space
    ]:
        [(found, phrase)] = spans(m, text)
        assert phrase == "bad word"
        assert text.index(found) == 2
        assert found[0] not in " " and found[-1] not in ZERO_WIDTH


def test_phrases_overlapping_all_reported() -> None:
    m = PhraseMatcher(["foo bar", "bar baz"])
    assert spans(m, "foo bar baz") == [("foo bar", "foo bar"), ("bar baz", "bar baz")]
    found = [
        PhraseMatch(4, 11, "b"),
        PhraseMatch(0, 7, "a"),
        PhraseMatch(20, 22, "a"),
        PhraseMatch(22, 23, "c"),
        PhraseMatch(5, 6, "a"),
    ]
    assert group_matches(found) == [(0, 11, ["a", "b"]), (20, 23, ["a", "c"])]


def test_phrases_longest_from_each_start_then_those_it_begins_with() -> None:
    m = PhraseMatcher(["new", "new york", "new york city"])
    assert spans(m, "new york city") == [
        ("new york city", "new york city"),
        ("new", "new"),
        ("new york", "new york"),
    ]
    assert spans(m, "new yorkshire") == [("new", "new")]


def test_phrase_matcher_rejects_invisible_phrase() -> None:
    with pytest.raises(ValueError, match="empty once folded"):
        PhraseMatcher(["\u200b \u200d"])


def test_phrase_matching_linear_shape() -> None:
    # A thousand phrases share one trie-shaped pattern, no alternation of a
    # thousand branches at the root.
    words = [f"w{i:04d}" for i in range(1000)]
    m = PhraseMatcher(words)
    pattern = m._regex.pattern
    assert pattern.count("w") == 1 + pattern.count(r"\w")
    text = " ".join(words[::7])
    assert [p for _, p in spans(m, text)] == words[::7]


_TOKENS = ["bad", "word", "ok", "B\u200bAD", "\uff42ad", ".", "\n", "bad_", "\u00e9bad"]


@given(st.lists(st.sampled_from(_TOKENS), max_size=20))
def test_phrase_matches_are_whole_words_in_source(tokens: list[str]) -> None:
    text = " ".join(tokens)
    m = PhraseMatcher(["bad"])
    for match in m.find(text):
        assert fold_text(text[match.start : match.end]) == "bad"
        before = fold_text(text[: match.start])[-1:]
        after = fold_text(text[match.end :]).lstrip("_")[:1]
        assert not re.match(r"\w", before) and not re.match(r"[^\W_]", after)
    expected = sum(1 for t in tokens if fold_text(t).rstrip("_") == "bad")
    assert len(m.find(text)) == expected


# -- PII detectors ---------------------------------------------------------------------


def found(text: str, entities: tuple[str, ...] = ENTITIES) -> list[tuple[str, str]]:
    return [(e.name, text[e.start : e.end]) for e in find_entities(text, entities)]


@pytest.mark.parametrize(
    ("digits", "valid"),
    [
        ("4111111111111111", True),
        ("4111111111111112", False),
        ("5555555555554444", True),
        ("378282246310005", True),
        ("6011111111111117", True),
        ("79927398713", True),
        ("79927398710", False),
    ],
)
def test_luhn(digits: str, valid: bool) -> None:
    assert luhn_valid(digits) is valid


@pytest.mark.parametrize(
    ("iban", "valid"),
    [
        ("DE89370400440532013000", True),
        ("DE89370400440532013001", False),
        ("GB82WEST12345698765432", True),
        ("GB82WEST12345698765433", False),
        ("FR1420041010050500013M02606", True),
        ("NO9386011117947", True),
        ("DE8937040044", False),  # too short
    ],
)
def test_iban_mod97(iban: str, valid: bool) -> None:
    assert iban_valid(iban) is valid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mail john.doe+tag@example.co.uk.", [("email", "john.doe+tag@example.co.uk")]),
        ("jos\u00e9@exampl\u00e9.de", [("email", "jos\u00e9@exampl\u00e9.de")]),
        ("user@localhost or @handle or a@b.c", []),
        ("call (415) 555-0123 now", [("phone", "(415) 555-0123")]),
        ("call 415.555.0123.", [("phone", "415.555.0123")]),
        ("call +44 20 7946 0958", [("phone", "+44 20 7946 0958")]),
        ("call +1-415-555-0123", [("phone", "+1-415-555-0123")]),
        ("call 020 7946 0958", [("phone", "020 7946 0958")]),
        ("+12 345", []),  # too few digits
        ("card 4111 1111 1111 1111", [("card", "4111 1111 1111 1111")]),
        ("card 4111-1111-1111-1111", [("card", "4111-1111-1111-1111")]),
        ("card 4111 1111 1111 1112", []),  # Luhn fails
        ("card 378282246310005!", [("card", "378282246310005")]),
        ("DE89 3704 0044 0532 0130 00", [("iban", "DE89 3704 0044 0532 0130 00")]),
        ("GB82WEST12345698765432.", [("iban", "GB82WEST12345698765432")]),
        ("GB82WEST12345698765433", []),  # mod 97 fails
        (
            "ES91 2100 0418 4502 0005 1332 CASH",  # the next word is given back
            [("iban", "ES91 2100 0418 4502 0005 1332")],
        ),
        ("ip 192.168.0.1.", [("ipv4", "192.168.0.1")]),
        ("ip 256.1.1.1 or 1.2.3 or 01.2.3.4", []),
        ("ip 2001:db8::8a2e:370:7334", [("ipv6", "2001:db8::8a2e:370:7334")]),
        (
            "ip ::1 and fe80::1 and ::ffff:192.0.2.1",
            [
                ("ipv6", "::1"),
                ("ipv6", "fe80::1"),
                ("ipv6", "::ffff:192.0.2.1"),
            ],
        ),
        ("at 10:30:00 the MAC 00:1A:2B:3C:4D:5E and std::vector and ::", []),
        ("x4111111111111111 and 4111111111111111x", []),  # glued to words
        # US Social Security numbers: dashed alone, any other way after a label
        ("Her number 536-22-1234 is on file.", [("ssn", "536-22-1234")]),
        ("SSN: 536221234, ITIN 912-74-5678", [("ssn", "536221234"), ("ssn", "912-74-5678")]),
        ("social security no. 536 22 1234", [("ssn", "536 22 1234")]),
        ("SSN 078-05-1120", [("ssn", "078-05-1120")]),  # (not read as a phone number)
        # never issued, another number's label, other shapes
        ("SSN 000-12-3456, 666-12-3456, 536-00-1234, 536-22-0000 and 912-34-5678", []),
        ("Part 536-22-1234, 536 22 1234, 536221234, 1536-22-1234, 536-22-12345", []),
    ],
)
def test_entities(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_entities_filter_and_overlap() -> None:
    text = "a@example.com, 4111 1111 1111 1111 and 10.0.0.1"
    assert found(text, ("card",)) == [("card", "4111 1111 1111 1111")]
    assert [n for n, _ in found(text)] == ["email", "card", "ipv4"]
    # Entities one space apart: each is found, none is cut short.
    text = "+44 20 7946 0958 5555-5555-5555-4444 4111 1111 1111 1111 192.168.0.1"
    assert found(text) == [
        ("phone", "+44 20 7946 0958"),
        ("card", "5555-5555-5555-4444"),
        ("card", "4111 1111 1111 1111"),
        ("ipv4", "192.168.0.1"),
    ]
    # A chance match overlapping a real entity is merged into it: nothing of
    # either is left visible.
    text = "4111 4111 1111 1115 0002"  # "4111 1111 1115 0002" passes Luhn too
    assert found(text) == [("card", text)]


def test_longest_email_fits() -> None:
    local = "a" * 64
    domain = ".".join(["b" * 63] * 3) + ".com"
    address = f"{local}@{domain}"
    assert len(address) > LONGEST_ENTITY
    assert found(address) == []
    address = f"{local}@{'b' * 63}.{'c' * 63}.{'d' * 57}.com"
    assert len(address) == LONGEST_ENTITY
    assert found(address) == [("email", address)]


@given(st.text(alphabet="0123456789 .-+():@abcDE", max_size=200))
def test_entities_never_overlap_and_pass_checks(text: str) -> None:
    entities = find_entities(text)
    for a, b in itertools.pairwise(entities):
        assert a.end <= b.start
    for e in entities:
        value = text[e.start : e.end]
        assert value == value.strip()
        digits = "".join(c for c in value if c.isdigit())
        if e.name == "card":
            assert luhn_valid(digits) and 13 <= len(digits) <= 19
        if e.name == "phone":
            assert 8 <= len(digits) <= 15


def test_entities_linear_on_adversarial_runs() -> None:
    # Long runs that almost match: digits, separators, "+" and hex colons.
    for text in ["1" * 20000, "1 " * 10000, "+1" * 10000, "a:" * 10000, "a." * 10000 + "@"]:
        assert find_entities(text) == [] or text.startswith("+")


@pytest.mark.parametrize("joiner", ["'", "`", "|"])
def test_chained_addresses_are_read_once(joiner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Addresses joined by "'" or a backquote are also found by the search; each
    # walked the rest of the chain again (28,000 characters took 23 s).
    import guardrails_ai.chunkwise._pii as pii

    checks = 0
    accepted_end = pii._accepted_end

    def counted(*args: Any) -> Any:
        nonlocal checks
        checks += 1
        return accepted_end(*args)

    monkeypatch.setattr(pii, "_accepted_end", counted)
    readings = []
    for n in (500, 1000):
        checks = 0
        entities = find_entities(joiner.join(["a@x.co"] * n))
        assert len(entities) == n
        readings.append(checks)
    assert readings[1] <= 2.2 * readings[0], readings


def test_no_entity_holds_a_sentence_boundary() -> None:
    # The sentence chunker cuts after [.!?] + closer? + whitespace: no entity
    # any detector accepts contains that.
    boundary = re.compile("[.!?][\"'\u201d\u2019)]?\\s")
    samples = [
        "(415) 555-0123",
        "+44 (20) 7946 0958",
        "john.doe@example.co.uk",
        "DE89 3704 0044 0532 0130 00",
        "4111 1111 1111 1111",
        "::ffff:192.0.2.1",
    ]
    for sample in samples:
        assert found(sample) and not boundary.search(sample)


# -- argument checks -------------------------------------------------------------------


def test_argument_helpers() -> None:
    assert optional_positive_int("n", 3) == 3
    assert optional_positive_int("n", None) is None
    for bad, error in [(0, ValueError), (-1, ValueError), (True, TypeError), (1.5, TypeError)]:
        with pytest.raises(error, match=r"n must be (>= 1|an int), got"):
            optional_positive_int("n", bad)
    assert str_list("xs", ("a", "b")) == ["a", "b"]
    with pytest.raises(TypeError, match=r"xs must be a list of str, got str 'ab'.*\['ab'\]"):
        str_list("xs", "ab")
    with pytest.raises(TypeError, match="xs must hold str only, got int: 3"):
        str_list("xs", ["a", 3])
    with pytest.raises(ValueError, match="xs must not be empty"):
        str_list("xs", [])
    with pytest.raises(TypeError, match="xs must be a list of str, got int: 5"):
        str_list("xs", 5)


def test_nfkc_is_what_we_rely_on() -> None:
    # Guard against a Python whose unicodedata disagrees with these tests.
    assert unicodedata.normalize("NFKC", "\uff41") == "a"


@given(st.text(max_size=80))
def test_any_text_matches_fold_back_to_their_phrase(text: str) -> None:
    matcher = PhraseMatcher(["bad word", "evil", "\u00df"])
    for match in matcher.find(text):
        assert " ".join(fold_text(text[match.start : match.end]).split()) == " ".join(
            fold_text(match.phrase).split()
        )
    for entity in find_entities(text):
        assert 0 <= entity.start < entity.end <= len(text)
