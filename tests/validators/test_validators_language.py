# ruff: noqa: RUF001, RUF003
"""``language=`` on the validators that chunk by sentences: short for
``chunker=SentenceChunker(language=...)``, checked early, and kept by
``Guard.to_dict()``."""

from __future__ import annotations

import pytest

from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition
from guardrails_ai.chunkwise.adapters.chunked import without_own_joins
from guardrails_ai.chunkwise.chunkers import SentenceChunker
from guardrails_ai.chunkwise.chunkers.sentence.quotes import QUOTE_MAX

GERMAN = "Wir kamen am 12. Juni an. Es regnete. Es regnete."


def chunks(validator: object, text: str) -> list[str]:
    chunker = validator.chunker  # type: ignore[attr-defined]
    return list(chunker.split(text) + chunker.flush(text))


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: NoRepetition(**kw),
        lambda **kw: BannedPhrases(["verboten"], **kw),
        lambda **kw: MaxChunkLength(max_words=30, **kw),
    ],
    ids=["no_repetition", "banned_phrases", "max_chunk_length"],
)
def test_language_picks_the_sentence_chunker(make: object) -> None:
    validator = make(language="de")  # type: ignore[operator]
    chunker = validator.chunker
    assert getattr(chunker, "inner", chunker) == SentenceChunker(language="de")
    assert chunks(validator, GERMAN) == ["Wir kamen am 12. Juni an.", "Es regnete.", "Es regnete."]
    # Recorded as the chunker, so a guard's spec rebuilds it.
    assert validator.get_args()["chunker"].json_value() == SentenceChunker(language="de").spec()
    with pytest.raises(ValueError, match=r"language='xx' is not a supported language"):
        make(language="xx")  # type: ignore[operator]
    with pytest.raises(TypeError, match=r"language must be a language code"):
        make(language=7)  # type: ignore[operator]
    with pytest.raises(ValueError, match=r"language=.* or chunker=.*not both"):
        make(language="de", chunker="paragraph")  # type: ignore[operator]


def test_no_repetition_counts_sentences_of_the_language() -> None:
    validator = NoRepetition(language="de", on_fail="fix")
    result = validator.validate(GERMAN, {})
    assert result.outcome == "fail"
    chunker = NoRepetition(unit="sentence", language="de").chunker
    assert without_own_joins(chunker) == SentenceChunker(language="de")
    with pytest.raises(ValueError, match=r"language='de' applies to sentences"):
        NoRepetition(unit="paragraph", language="de")


def test_a_guard_keeps_the_language_through_to_dict() -> None:
    from guardrails import Guard

    guard = Guard().use(NoRepetition(language="de", on_fail="fix"))
    rebuilt = Guard.from_dict(guard.to_dict())
    (validator,) = rebuilt._validators
    chunker = validator.chunker
    assert getattr(chunker, "inner", chunker) == SentenceChunker(language="de")


# What the default chunker ("auto") hands a validator, the text as written,
# through every Guard path: Armenian written with ":" for its full stop, as
# LLMs often do (a full stop after an Armenian letter); a Markdown table row
# (one chunk), an emoji that ends a line (with its sentence), "'90s" (no
# quotation) and a unit after a number (it ends its sentence); a contraction
# before a period (a plain word), an elided word after a mark (no quotation)
# and a letter that an answer names (no initial); Dutch elided words after a
# mark (no quotation), one opening a sentence (the capital after it decides).
ARMENIAN = "Ես տուն եմ գնում: Դու ինչ ես անում: Ratio 3:1 here."
MIXED = "| a | Slower. |\nEmail us! 😊\nWe loved the '90s. It took 2 hrs. Too long."
ENGLISH = "It isn't. Try again. We stayed 'til dawn. Then we left. The answer is B. Paris won."
DUTCH = "Het is 's avonds koud. We blijven binnen. Hoe gaat 't? Goed. 's Avonds eten we."
# Markdown footnote references and superscripts close their sentence, as
# "[1]" does; "or" before a letter names an option.
FOOTNOTED = "The cache helps.[^1] It is optional.\u00b2 Pick A or B. B is fine."
# Markdown emphasis after a terminator closes its sentence, as a closing quote
# does (a bold lead sentence is a chunk of its own).
EMPHASIS = "- **Check the cable.** Then restart it.\n- *Keep it short.* Readers skim."
# Emoji glued to a terminator close its sentence too.
GLUED_EMOJI = "Thanks!\U0001f642 Let me know. It compiles now.\U0001f389 Ship it."
# The file citations of OpenAI's assistants close a sentence as footnote marks do.
CITED = "Refunds take five days.\u30104:0\u2020source\u3011 Ask us if not. Done."
# Other scripts' terminators end a sentence with no space after them.
UNSPACED = (
    "\u12db\u122c \u12d8\u1290\u1260\u1362\u1290\u1308 \u1340\u1210\u12ed\u1367"
    "\u092e\u0948\u0902 \u0918\u0930 \u0917\u092f\u093e\u0964\u0935\u0939 \u0917\u0908\u0964"
)
# A quotation never closed, whose limit passes while the text ends in a word
# that may still be an elided one: its sentences are released all the same.
BEES = QUOTE_MAX // 5 - 2
LONG_OPEN = ("'Ay. " + "Bee. " * BEES).ljust(QUOTE_MAX - 1) + "'til"
# German and Russian adverbs open sentences ("auto" reads every language's
# sentence starters).
STARTERS = (
    "Das kostet 5 Mio. Deshalb sparen wir. Siehe Kap. Dort steht es. Стоит 5 млн. Однако купим. "
    "Llega el 5 de oct. Luego comemos. Κοστίζει 5 χιλ. Ωστόσο το αγοράζουμε."
)
# Japanese and Chinese: a particle after a closed quotation keeps it in its
# sentence, any other word does not; a full-width list number opens its item;
# half-width corner brackets quote; a parenthetical ending in "。" stays inside
# its sentence; an ASCII "!"/"?" after kana ends a sentence as "！"/"？" do.
CJK_QUOTES = "「行くよ。」しかし誰も来なかった。｢待って。｣と言った。１．紙を切る。２．糊を塗る。"
CJK_MARKS = "雨が降った（予定通り。）。すごい!次は何?「行こう!」「うん。」"
# Spanish marks glued to the previous sentence open a new one; a corner
# bracket closes an English sentence as a quotation mark does.
GLUED_OPENERS = "Llegó tarde.¿Por qué?¡Qué pena! He said 「OK.」 Then we left."
THROUGH_A_GUARD = {
    "cjk_quotes_particles_list_numbers": (
        CJK_QUOTES,
        [
            "「行くよ。」",
            "しかし誰も来なかった。",
            "｢待って。｣と言った。",
            "１．紙を切る。",
            "２．糊を塗る。",
        ],
    ),
    "cjk_parenthetical_and_ascii_marks": (
        CJK_MARKS,
        ["雨が降った（予定通り。）。", "すごい!", "次は何?", "「行こう!」", "「うん。」"],
    ),
    "glued_inverted_marks_and_corner_closer": (
        GLUED_OPENERS,
        ["Llegó tarde.", "¿Por qué?", "¡Qué pena!", "He said 「OK.」", "Then we left."],
    ),
    "starters_of_other_languages": (
        STARTERS,
        [
            "Das kostet 5 Mio.",
            "Deshalb sparen wir.",
            "Siehe Kap.",
            "Dort steht es.",
            "Стоит 5 млн.",
            "Однако купим.",
            "Llega el 5 de oct.",
            "Luego comemos.",
            "Κοστίζει 5 χιλ.",
            "Ωστόσο το αγοράζουμε.",
        ],
    ),
    "armenian": (ARMENIAN, ["Ես տուն եմ գնում:", "Դու ինչ ես անում:", "Ratio 3:1 here."]),
    "tables_emoji_units": (
        MIXED,
        ["| a | Slower. |", "Email us! 😊", "We loved the '90s.", "It took 2 hrs.", "Too long."],
    ),
    "contraction_elision_letter": (
        ENGLISH,
        [
            "It isn't.",
            "Try again.",
            "We stayed 'til dawn.",
            "Then we left.",
            "The answer is B.",
            "Paris won.",
        ],
    ),
    "dutch_elision": (
        DUTCH,
        [
            "Het is 's avonds koud.",
            "We blijven binnen.",
            "Hoe gaat 't?",
            "Goed.",
            "'s Avonds eten we.",
        ],
    ),
    "footnotes_options": (
        FOOTNOTED,
        ["The cache helps.[^1]", "It is optional.\u00b2", "Pick A or B.", "B is fine."],
    ),
    "markdown_emphasis": (
        EMPHASIS,
        ["- **Check the cable.**", "Then restart it.", "- *Keep it short.*", "Readers skim."],
    ),
    "emoji_closing_a_sentence": (
        GLUED_EMOJI,
        ["Thanks!\U0001f642", "Let me know.", "It compiles now.\U0001f389", "Ship it."],
    ),
    "assistant_citation": (
        CITED,
        ["Refunds take five days.\u30104:0\u2020source\u3011", "Ask us if not.", "Done."],
    ),
    "unspaced_script_terminators": (
        UNSPACED,
        [
            "\u12db\u122c \u12d8\u1290\u1260\u1362",
            "\u1290\u1308 \u1340\u1210\u12ed\u1367",
            "\u092e\u0948\u0902 \u0918\u0930 \u0917\u092f\u093e\u0964",
            "\u0935\u0939 \u0917\u0908\u0964",
        ],
    ),
    "quotation_expiring_at_an_elision": (
        LONG_OPEN,
        ["'Ay."] + ["Bee."] * (BEES - 1) + [LONG_OPEN[LONG_OPEN.rindex("Bee.") :]],
    ),
}


@pytest.mark.parametrize("case", THROUGH_A_GUARD)
@pytest.mark.parametrize("guarded", [True, False], ids=["guarded_stream", "guard_stream"])
@pytest.mark.parametrize("size", [1, 3, None], ids=["1", "3", "whole"])
def test_auto_sentences_reach_the_validator_as_written_through_a_guard(
    case: str, guarded: bool, size: int | None
) -> None:
    from helpers.guardrails import Record, guard_with, joined, run

    text, sentences = THROUGH_A_GUARD[case]
    record = Record()
    guard = guard_with(record)
    step = size or len(text)
    deltas = [text[i : i + step] for i in range(0, len(text), step)]
    released = joined(run(guard, deltas, guarded=guarded))
    if guarded:
        assert [c.strip() for c in record.seen] == sentences
        assert released == text
    else:  # (Guardrails' own runner never validates the trailing fragment)
        assert [c.strip() for c in record.seen] == sentences[:-1]
        assert text.startswith(released)


@pytest.mark.parametrize("case", THROUGH_A_GUARD)
def test_auto_sentences_reach_the_validator_as_written_through_an_async_guard(case: str) -> None:
    import asyncio

    from guardrails import AsyncGuard
    from helpers.guardrails import Record, arun, guard_with, joined

    text, sentences = THROUGH_A_GUARD[case]
    guard = guard_with(Record(), asynchronous=True)
    rebuilt = AsyncGuard.from_dict(guard.to_dict())  # (as the Guardrails server does)
    assert rebuilt is not None
    for each in (guard, rebuilt):
        (seen,) = [v.seen for v in each.get_validators("output")]  # type: ignore[attr-defined]
        deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
        released = joined(asyncio.run(arun(each, deltas)))  # type: ignore[arg-type]
        assert [c.strip() for c in seen] == sentences
        assert released == text


# A named language's tables through a Guard: German and Polish abbreviations
# before a sentence that opens with a pronoun or a name, a Russian year.
NAMED_THROUGH_A_GUARD = {
    "de": (
        "Das war im 19. Jh. Niemand wusste es. Am 3. Okt. Wir feiern.",
        ["Das war im 19. Jh.", "Niemand wusste es.", "Am 3. Okt.", "Wir feiern."],
    ),
    "pl": (
        "Zob. rozdz. 3 i pkt 4. Ks. Jan przyszedł. Był to r. Wszyscy wiedzieli.",
        ["Zob. rozdz. 3 i pkt 4.", "Ks. Jan przyszedł.", "Był to r.", "Wszyscy wiedzieli."],
    ),
    "ru": ("Это было в 1999 г. Никто не знал.", ["Это было в 1999 г.", "Никто не знал."]),
}


@pytest.mark.parametrize("language", NAMED_THROUGH_A_GUARD)
@pytest.mark.parametrize("size", [1, 3, None], ids=["1", "3", "whole"])
def test_named_language_sentences_reach_the_validator_through_a_guard(
    language: str, size: int | None
) -> None:
    from helpers.guardrails import Record, guard_with, joined, run

    text, sentences = NAMED_THROUGH_A_GUARD[language]
    record = Record(chunker=SentenceChunker(language=language))
    step = size or len(text)
    deltas = [text[i : i + step] for i in range(0, len(text), step)]
    released = joined(run(guard_with(record), deltas))
    assert [c.strip() for c in record.seen] == sentences
    assert released == text


@pytest.mark.parametrize("language", NAMED_THROUGH_A_GUARD)
def test_named_language_survives_an_async_guard_rebuilt_from_its_dict(language: str) -> None:
    import asyncio

    from guardrails import AsyncGuard
    from helpers.guardrails import Record, arun, guard_with, joined

    text, sentences = NAMED_THROUGH_A_GUARD[language]
    guard = guard_with(Record(chunker=SentenceChunker(language=language)), asynchronous=True)
    rebuilt = AsyncGuard.from_dict(guard.to_dict())
    assert rebuilt is not None
    (seen,) = [v.seen for v in rebuilt.get_validators("output")]  # type: ignore[attr-defined]
    deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
    released = joined(asyncio.run(arun(rebuilt, deltas)))  # type: ignore[arg-type]
    assert [c.strip() for c in seen] == sentences
    assert released == text
