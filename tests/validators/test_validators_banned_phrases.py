"""BannedPhrases: documented examples, Unicode tricks, fixes, bad arguments, streams."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from guardrails.errors import ValidationError
from guardrails_ai.types import FailResult, PassResult
from helpers.guardrails import (
    MESSAGES,
    arun,
    guard_with,
    joined,
    llm,
    run,
    slicings,
    validated_and_streamed,
)
from helpers.prose import BANNED_FOR_PROSE, PROSE
from helpers.validator_checks import assert_verdict
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise import BannedPhrases
from guardrails_ai.chunkwise._phrases import PhraseMatcher
from guardrails_ai.chunkwise.adapters import guarded_stream
from guardrails_ai.chunkwise.chunkers import limit

PHRASES = ["bad word", "evil", "guaranteed returns"]
FIX = BannedPhrases(PHRASES, on_fail="fix")
GUARD = guard_with(FIX)
ASYNC_GUARD = guard_with(BannedPhrases(PHRASES, on_fail="fix"), asynchronous=True)
RAISE_GUARD = guard_with(BannedPhrases(PHRASES, on_fail="exception"))


def check(text: str) -> Any:
    return FIX.validate(text, {})


# -- documented examples ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("A BAD word here.", "A *** **** here."),
        ("This is bad\n\t  word.", "This is ***\n\t  ****."),
        ("Evil, EVIL and eViL!", "****, **** and ****!"),
        # full-width letters
        ("\uff45\uff56\uff49\uff4c plans.", "**** plans."),
        # zero-width space, joiner, non-joiner, word joiner and soft hyphen inside
        ("e\u200bv\u200di\u200cl.", "*******."),
        ("e\u2060v\u00adil.", "******."),
        # a ligature and a compatibility form: "\ufb01" is "fi"
        ("Guaranteed returns \u2460.", "********** ******* \u2460."),
        # blank letters between the words, where a space would be, or inside them
        ("It is a bad\u2800word.", "It is a ********."),
        ("It is a bad\u3164word.", "It is a ********."),
        ("It is a bad\uffa0word and b\u3164ad word.", "It is a ******** and **** ****."),
        ("It is a bad\u115fword.", "It is a ********."),
        # a hyphen joining the words (before: passed), not a dash between clauses
        ("A bad-word here.", "A ******** here."),
        ("A bad \u2014 word; a BAD\u2011word.", "A bad \u2014 word; a ********."),
        ("Guaranteed-\nreturns!", "***********\n*******!"),
        ("**Bad**-word.", "************."),
        ("Guaranteed--returns, bad - word, bad -word.", None),
        # whole words only
        ("Evildoers and medieval bad words are fine.", None),
        ("bad_word, bad-words and badword are fine.", None),
    ],
)
def test_examples(text: str, fixed: str | None) -> None:
    assert_verdict(check(text), fixed)
    if fixed is not None:
        assert len(fixed) == len(text)  # a mask keeps every offset


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("这是免费的钱。", "这是****。"),
        ("请访问evil网站。然后走。", "请访问****网站。然后走。"),
        ("ただの免费的钱です。", "ただの****です。"),
        ("Evil免费的钱ok.", "********ok."),  # an edge next to Han: a boundary
        ("Medieval 免费 are fine.", None),
    ],
)
def test_scripts_without_spaces_have_no_word_edges(text: str, fixed: str | None) -> None:
    fix = BannedPhrases(["免费的钱", "evil"], on_fail="fix")
    assert_verdict(fix.validate(text, {}), fixed)
    for size in (1, 2):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert joined(run(guard_with(fix), deltas)) == (fixed or text)


def _on_every_path(fix: BannedPhrases, text: str, fixed: str | None) -> None:
    """``fix`` gives ``fixed`` (``None``: passes) at once, streamed by
    ``guarded_stream`` in deltas of 1, 2 and 5 characters, and by
    ``guard(..., stream=True)`` under the opt-in."""
    from guardrails_ai.chunkwise import disable_validated_streaming, enable_validated_streaming

    assert_verdict(fix.validate(text, {}), fixed)
    guard = guard_with(fix)
    for size in (1, 2, 5):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert validated_and_streamed(guard, text, deltas).validated_output == (fixed or text)
        enable_validated_streaming()
        try:
            assert joined(run(guard, deltas, guarded=False)) == (fixed or text)
        finally:
            disable_validated_streaming()


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: every combining mark was dropped, so a Hindi or Thai phrase
        # matched another word: "\u092a\u0932" (moment) for "\u092a\u0941\u0932"
        # (bridge), Thai "\u0e02\u0e48\u0e32\u0e27" (news) for "\u0e02\u0e49\u0e32\u0e27" (rice).
        ("\u092f\u0939 \u092a\u0932 \u0939\u0948\u0964", None),
        (
            "\u092f\u0939 \u092a\u0941\u0932 \u0939\u0948\u0964",
            "\u092f\u0939 *** \u0939\u0948\u0964",
        ),
        ("\u0e09\u0e31\u0e19\u0e2d\u0e48\u0e32\u0e19\u0e02\u0e48\u0e32\u0e27", None),
        (
            "\u0e09\u0e31\u0e19\u0e01\u0e34\u0e19\u0e02\u0e49\u0e32\u0e27",
            "\u0e09\u0e31\u0e19\u0e01\u0e34\u0e19****",
        ),
        # A mark of those scripts after a Latin letter is still no spelling.
        ("Get fre\u0e48e money.", "Get ***** *****."),
        ("Get fre\u0941e money.", "Get ***** *****."),
    ],
)
def test_the_vowel_signs_and_tones_of_a_script_spell_its_words(
    text: str, fixed: str | None
) -> None:
    fix = BannedPhrases(
        ["\u092a\u0941\u0932", "\u0e02\u0e49\u0e32\u0e27", "free money"], on_fail="fix"
    )
    _on_every_path(fix, text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: a mark was kept when the character just before it in the
        # source was of its block, so a second mark after a dropped one, or a
        # mark after a character reference, was kept inside "free"...
        ("Get fre\u0941\u0941e money.", "Get ****** *****."),
        ("Get fre\u0941&#2369;e money.", "Get ************ *****."),
        # ... and so was a mark after an invisible character after "e" ...
        ("Get fre\u200d\u0e48e money.", "Get ****** *****."),
        ("Get fre&#8205;\u094de money.", "Get ************ *****."),
        # ... while the vowel sign of a Hindi letter was dropped after a
        # joiner, a variation selector or a soft hyphen, or after the letter
        # written as a character reference: the phrase was missed.
        (
            "\u092f\u0939 \u092a\u200d\u0941\u0932 \u0939\u0948\u0964",
            "\u092f\u0939 **** \u0939\u0948\u0964",
        ),
        (
            "\u092f\u0939 \u092a\ufe0f\u0941\u0932 \u0939\u0948\u0964",
            "\u092f\u0939 **** \u0939\u0948\u0964",
        ),
        (
            "\u092f\u0939 \u092a\u00ad\u0941\u0932 \u0939\u0948\u0964",
            "\u092f\u0939 **** \u0939\u0948\u0964",
        ),
        (
            "\u092f\u0939 &#2346;\u0941\u0932 \u0939\u0948\u0964",
            "\u092f\u0939 ********* \u0939\u0948\u0964",
        ),
    ],
)
def test_a_mark_spells_with_the_letter_it_renders_on(text: str, fixed: str | None) -> None:
    fix = BannedPhrases(["\u092a\u0941\u0932", "free money"], on_fail="fix")
    _on_every_path(fix, text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: a vowel sign after the phrase's last letter (or a mark
        # before its first) was read as the end of a word, so "\u091c\u0932"
        # (water) was found in "\u091c\u0932\u0947\u092c\u0940" (jalebi),
        # "\u092a\u0941\u0932" (bridge) in "\u092a\u0941\u0932\u093f\u0938" (police).
        ("\u092e\u0941\u091d\u0947 \u091c\u0932\u0947\u092c\u0940 \u0939\u0948\u0964", None),
        ("\u092a\u0941\u0932\u093f\u0938 \u0906\u0908\u0964", None),
        ("\u0915\u0941\u091c\u0932 \u0939\u0948\u0964", None),
        ("\u092f\u0939 \u091c\u0932 \u0939\u0948\u0964", "\u092f\u0939 ** \u0939\u0948\u0964"),
        (
            "\u0909\u0938 \u092a\u0941\u0932 \u092a\u0930, \u091c\u0932\u0964",
            "\u0909\u0938 *** \u092a\u0930, **\u0964",
        ),
        # A spacing vowel sign after a Latin letter is no spelling either.
        ("Get free\u093e money.", "Get ***** *****."),
        ("Get fre\u0bc1e money.", "Get ***** *****."),
    ],
)
def test_a_vowel_sign_continues_the_word(text: str, fixed: str | None) -> None:
    fix = BannedPhrases(["\u091c\u0932", "\u092a\u0941\u0932", "free money"], on_fail="fix")
    _on_every_path(fix, text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: a mark was kept only after a letter of its 128-character
        # block, and Tibetan and Myanmar have two: the subjoined letters of
        # Tibetan (U+0F90...) and Shan's marks (U+1082...) were dropped, so
        # "\u0f66\u0f90\u0f51" was "\u0f66\u0f51".
        ("\u0f66\u0f51\u0f0b\u0f54\u0f0d", None),
        ("\u0f66\u0f90\u0f51\u0f0b\u0f54\u0f0d", "***\u0f0b\u0f54\u0f0d"),
        ("\u1010\u1075\u1004", None),
        ("\u1010\u1075\u1082\u1004", "\u1010***"),
    ],
)
def test_a_mark_of_the_second_block_of_a_script_spells(text: str, fixed: str | None) -> None:
    fix = BannedPhrases(["\u0f66\u0f90\u0f51", "\u1075\u1082\u1004"], on_fail="fix")
    _on_every_path(fix, text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: a vowel sign written as its two halves (Bengali U+09C7
        # U+09BE for U+09CB, Myanmar U+1025 U+102E for U+1026, Tamil U+0BC6
        # U+0BBE for U+0BCA) folded apart from the one character, and renders
        # the same: the phrase was missed, written either way.
        (
            "\u098f\u099f\u09be \u0995\u09c7\u09be\u09a8 \u09ac\u0987?",
            "\u098f\u099f\u09be **** \u09ac\u0987?",
        ),
        ("\u1026\u1038 \u1018\u1000\u1039\u1000\u102c", "** \u1018\u1000\u1039\u1000\u102c"),
        ("\u0b87\u0ba4\u0bc1 \u0b95\u0bca\u0b9f\u0bc1.", "\u0b87\u0ba4\u0bc1 ****."),
        ("\u0b87\u0ba4\u0bc1 \u0b95\u0bc6\u0bbe\u0b9f\u0bc1.", "\u0b87\u0ba4\u0bc1 *****."),
    ],
)
def test_a_vowel_sign_in_two_halves_is_the_one_character(text: str, fixed: str | None) -> None:
    # "\u0995\u09cb\u09a8" one character, "\u1025\u102e\u1038" two halves
    fix = BannedPhrases(
        ["\u0995\u09cb\u09a8", "\u1025\u102e\u1038", "\u0b95\u0bca\u0b9f\u0bc1"], on_fail="fix"
    )
    _on_every_path(fix, text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: the tatweel, a letter, split the word and hid the phrase.
        ("\u0645\u0627\u0644 \u0645\u062c\u0640\u0640\u0627\u0646\u064a!", "*** *******!"),
        ("\u0645\u0640\u0627\u0644 \u0645\u062c\u0627\u0646\u064a.", "**** *****."),
        ("Get fr\u0640ee money.", "Get ***** *****."),
        ("Get free\u0640money.", None),  # (not a space)
    ],
)
def test_a_tatweel_inside_a_word_does_not_hide_a_phrase(text: str, fixed: str | None) -> None:
    fix = BannedPhrases(
        ["\u0645\u0627\u0644 \u0645\u062c\u0627\u0646\u064a", "free money"], on_fail="fix"
    )
    _on_every_path(fix, text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: a backtick next to the gap between the words hid the phrase.
        ("Get `free` money now.", "Get `***** ***** now."),
        ("Get free `money` now.", "Get **** ******` now."),
        ("`Free`\n`money`!", "`*****\n******`!"),
        ("Get `free money` now.", "Get `**** *****` now."),
        ("Get `free`money now.", None),  # (no space: one word)
    ],
)
def test_inline_code_around_a_word_does_not_hide_a_phrase(text: str, fixed: str | None) -> None:
    _on_every_path(BannedPhrases(["free money"], on_fail="fix"), text, fixed)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: an HTML character reference, which renders as its letter or
        # space, hid the phrase.
        ("Get &#102;ree money.", "Get ********* *****."),
        ("Get fr&#x65;e MONEY.", "Get ********* *****."),
        ("Get free&nbsp;money.", "Get ***************."),
        ("Get free&#32;m&#X6F;ney.", "Get *******************."),
        ("Get &#xff46;ree mon&eacute;y.", "Get *********** ************."),
        # Not a reference without its ";", nor "&amp;" for a space.
        ("Get &#102ree money, free &amp; money, free&money.", None),
    ],
)
def test_an_html_character_reference_does_not_hide_a_phrase(text: str, fixed: str | None) -> None:
    _on_every_path(BannedPhrases(["free money"], on_fail="fix"), text, fixed)


@pytest.mark.parametrize(
    "text",
    [
        "Get free <b>money</b> now.",
        "Get free<br>money now.",
        "Get [free](x) money now.",
        "> Get free\n> money now.",
        "| free | money |",
    ],
)
def test_other_markup_between_the_words_is_not_read_through(text: str) -> None:
    # What the README says is out of scope: tags, a link's target, a
    # blockquote's marker and table cells between the words.
    _on_every_path(BannedPhrases(["free money"], on_fail="fix"), text, None)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # Before: passed. Capital eta, nu and upsilon imitate "H", "N" and
        # "Y", their small letters "n", "v" and "u": each case folded to
        # another letter, so a Greek phrase in capitals (or a phrase in
        # capitals, in small letters) was not found.
        ("\u039c\u0397\u039d \u03a4\u039f \u039a\u0391\u039d\u0395\u0399\u03a3.", "*** ** ******."),
        ("\u039c\u0389\u039d \u03c4\u03bf \u03ba\u03ac\u03bd\u03b5\u03b9\u03c2.", "*** ** ******."),
        (
            "\u0394\u03a9\u03a1\u0395\u0391\u039d\n\u03a7\u03a1\u0397\u039c\u0391\u03a4\u0391!",
            "******\n*******!",
        ),
        (
            "\u03b4\u03c9\u03c1\u03b5\u03ac\u03bd \u03c7\u03c1\u03ae\u03bc\u03b1\u03c4\u03b1.",
            "****** *******.",
        ),
        # (the look-alikes of "H", "N" and "Y" still spell Latin words)
        ("FREE \u039cO\u039dEY.", "**** *****."),
    ],
)
def test_greek_phrases_match_in_either_case(text: str, fixed: str | None) -> None:
    phrases = [
        "\u03bc\u03b7\u03bd \u03c4\u03bf \u03ba\u03ac\u03bd\u03b5\u03b9\u03c2",
        "\u0394\u03a9\u03a1\u0395\u0391\u039d \u03a7\u03a1\u0397\u039c\u0391\u03a4\u0391",
        "free money",
    ]
    _on_every_path(BannedPhrases(phrases, on_fail="fix"), text, fixed)
    _on_every_path(BannedPhrases(phrases, on_fail="fix", chunker="line"), text, fixed)


def test_a_hyphen_in_a_phrase_separates_its_words() -> None:
    fix = BannedPhrases(["e-mail me", "x\u2011ray", "-5%", "a--b"], on_fail="fix")
    for text in ("E-Mail me", "e mail me", "e\u2010mail  me", "x-ray", "X RAY", "-5%", "a--b"):
        masked = "".join(c if c.isspace() else "*" for c in text)
        assert_verdict(fix.validate(f"Do {text}.", {}), f"Do {masked}.")
    # (a hyphen not between two words is a character of the phrase)
    assert_verdict(fix.validate("Do email me, x-rays, 5%, a-b.", {}), None)


def test_an_apostrophe_matches_in_any_of_its_spellings() -> None:
    # Models write the typographic apostrophe (U+2019) as often as "'"; the
    # modifier letter U+02BC and the left quote U+2018 look the same.
    fix = BannedPhrases(["don't panic", "rock \u2019n\u2019 roll"], on_fail="fix")
    guard = guard_with(fix)
    spellings = ("DON\u2019T panic", "don\u02bct panic", "don\u2018t panic", "rock 'n' roll")
    # Typed for one: the acute accent (before: folded to a space), the primes.
    spellings += ("don\u00b4t panic", "Don\u2032t panic", "don\u02b9t panic")
    for text in (*spellings, "don't panic", "Rock \u2019n\u2019 Roll"):
        masked = "".join(c if c.isspace() else "*" for c in text)
        assert_verdict(fix.validate(f"So {text}.", {}), f"So {masked}.")
        sentence = f"So {text}."
        deltas = [sentence[i : i + 2] for i in range(0, len(sentence), 2)]
        assert joined(run(guard, deltas)) == f"So {masked}."
    assert_verdict(fix.validate("So dont panic, rock n roll.", {}), None)


@pytest.mark.parametrize("chunker", ["line", "word", "sentence", "paragraph"])
def test_a_hyphen_at_a_line_end_is_joined_in_any_slicing(chunker: str) -> None:
    # "free-" ends a line (a chunk of its own under "line" and "word"): the
    # chunk is held until the phrase is decided, as for a space.
    validator = BannedPhrases(["bad word"], on_fail="fix", chunker=chunker)
    guard, async_guard = guard_with(validator), guard_with(validator, asynchronous=True)
    text = "Say bad-\nword now.\nOr bad -word.\n"
    for size in (1, 2, 5, len(text)):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert joined(run(guard, deltas)) == "Say ****\n**** now.\nOr bad -word.\n"
        assert joined(asyncio.run(arun(async_guard, deltas))) == joined(run(guard, deltas))


def test_error_spans_locate_matches_in_the_original() -> None:
    text = "Oh. So \uff25\uff36\uff29\uff2c and bad \u200bword!"
    result = check(text)
    assert isinstance(result, FailResult)
    found = [(text[s.start : s.end], s.reason) for s in result.error_spans]
    assert found == [
        ("\uff25\uff36\uff29\uff2c", "banned phrase: phrases[1]"),
        ("bad \u200bword", "banned phrase: phrases[0]"),
    ]
    assert result.error_message == "Text contains banned phrases: phrases[1], phrases[0]"


def test_overlapping_phrases_one_span() -> None:
    validator = BannedPhrases(["foo bar", "bar baz"], mask="#")
    result = validator.validate("A foo bar baz!", {})
    assert isinstance(result, FailResult)
    assert result.fix_value == "A ### ### ###!"
    [span] = result.error_spans
    assert (span.start, span.end) == (2, 13)
    assert span.reason == "banned phrase: phrases[0], phrases[1]"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Get FREE money now!", [1, 0, 2]),
        ("Get **free** money.", [1, 0, 2]),
        ("Get free-money.", [1, 0, 2]),
        ("这是免费的钱。", [4, 3]),
        # A shorter phrase that does not end a word there is no match.
        ("Get freebies money.", [2]),
        ("So free now.", [0]),
    ],
)
def test_a_phrase_another_begins_with_is_reported_too(text: str, found: list[int]) -> None:
    # Before: from each position only the longest phrase was reported, so
    # "free" went unnamed wherever "free money" was found.
    validator = BannedPhrases(["free", "free money", "money", "免费", "免费的钱"])
    result = validator.validate(text, {})
    assert isinstance(result, FailResult)
    names = ", ".join(f"phrases[{i}]" for i in found)
    assert result.error_message == f"Text contains banned phrases: {names}"
    # Each phrase alone finds the same spans.
    spans = {(m.start, m.end, m.phrase) for m in validator._matcher.find(text)}
    alone = {
        (m.start, m.end, m.phrase)
        for phrase in validator.phrases
        for m in PhraseMatcher([phrase]).find(text)
    }
    assert spans == alone


def test_no_false_positives_on_prose() -> None:
    validator = BannedPhrases(list(BANNED_FOR_PROSE))
    assert isinstance(validator.validate(PROSE, {}), PassResult)
    # The words are there inside longer words, and as whole words they are found.
    assert "class" in PROSE and "Scunthorpe" in PROSE
    assert isinstance(validator.validate(PROSE + " What the hell.", {}), FailResult)


def test_other_chunkers_keep_phrases_whole() -> None:
    by_paragraph = BannedPhrases(["stop. now"], chunker="paragraph", on_fail="fix")
    result = by_paragraph.validate("Please stop.  Now!\n\nOk.", {})
    assert isinstance(result, FailResult) and result.fix_value == "Please *****  ***!\n\nOk."
    by_word = BannedPhrases(["evil"], chunker="word")
    assert isinstance(by_word.validate("so EVIL", {}), FailResult)


# -- bad arguments -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        # (Named by type and length: a phrase may be confidential.)
        (
            {"phrases": "evil"},
            TypeError,
            r"phrases must be a list of str, got str of 4 characters; wrap a single item in a "
            r"list: \[str item\]",
        ),
        ({"phrases": []}, ValueError, r"phrases must not be empty"),
        ({"phrases": ["ok", 3]}, TypeError, r"phrases must hold str only, got int\Z"),
        ({"phrases": {"free money": 1}}, TypeError, r"phrases must be a list of str, got dict"),
        ({"phrases": [" \u200b "]}, ValueError, r"phrases\[0\] has no visible characters"),
        ({"phrases": ["x"], "mask": ""}, ValueError, r"mask must be one non-space character"),
        ({"phrases": ["x"], "mask": "**"}, ValueError, r"got '\*\*'"),
        ({"phrases": ["x"], "mask": " "}, ValueError, r"mask must be one non-space"),
        ({"phrases": ["x"], "mask": 1}, TypeError, r"mask must be a str of one character, got int"),
        (
            {"phrases": ["ok", "bad word"], "chunker": limit("word", max_chars=5)},
            ValueError,
            r"phrases\[1\] would be cut into 2 chunks by chunker=Bounded\(.*a size limit that",
        ),
        ({"phrases": ["x"], "on_fail": "explode"}, ValueError, r"on_fail='explode' is not an"),
        ({"phrases": ["x"], "on_fail": 3}, TypeError, r"on_fail must be an on-fail action"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        BannedPhrases(**kwargs)


# -- adversarial streams ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("deltas", "expected"),
    [
        (["It is a b", "ad wo", "rd, really."], "It is a *** ****, really."),
        (["It is a bad", " ", "word"], "It is a *** ****"),  # at the end, no terminator
        (["e\u200d", "vil!"], "*****!"),  # a zero-width joiner, then the border
        (["\uff45\uff56", "\uff49\uff4c"], "****"),
        (["EVIL", "DOERS are fine."], "EVILDOERS are fine."),  # not a whole word after all
    ],
)
def test_phrase_across_delta_borders(deltas: list[str], expected: str) -> None:
    assert joined(run(GUARD, deltas)) == expected
    assert joined(run(GUARD, deltas, guarded=False)) == expected
    assert joined(asyncio.run(arun(ASYNC_GUARD, deltas))) == expected


def test_exception_raised_before_the_phrase_is_released() -> None:
    released: list[str] = []
    with pytest.raises(ValidationError, match=r"banned phrases: phrases\[1\]"):
        for outcome in guarded_stream(
            RAISE_GUARD, llm(["Fine. ", "So e", "vil", " it is. More."]), messages=MESSAGES
        ):
            released.append(outcome.validated_output or "")
    assert "".join(released) == "Fine. "


_PIECES = [
    "It is",
    "a",
    "BAD",
    "word",
    "e\u200bvil",
    "\uff45\uff56\uff49\uff4c",
    "evildoer",
    "guaranteed",
    "returns",
    ".",
    "!",
    "\n",
    "fine",
    "bad-",
    "-",
    "guaranteed-\n",
]


@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=14)
    .map(" ".join)
    .flatmap(lambda text: st.tuples(st.just(text), slicings(text)))
)
def test_streamed_equals_validated_at_once(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    # Plain guard(..., stream=True) loses the trailing fragment when the last
    # delta also completed a chunk (Guardrails then never asks for the
    # remainder): what it releases is a prefix.
    validated_and_streamed(GUARD, text, deltas)
    result = FIX.validate(text, {})
    if isinstance(result, FailResult):
        # The mask keeps the length, and nothing outside the spans changes.
        assert len(result.fix_value) == len(text)
        inside = {i for s in result.error_spans for i in range(s.start, s.end)}
        assert all(
            a == b
            for i, (a, b) in enumerate(zip(text, result.fix_value, strict=True))
            if i not in inside
        )
