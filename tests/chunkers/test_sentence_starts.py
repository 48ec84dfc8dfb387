# ruff: noqa: RUF001
# (Sentences of other scripts, some of whose letters look Latin.)
"""Where a sentence may start: after a plain word before a lower-case word
(``Use npm. npm is great.``), and after a period glued to the next word
(``world.Today is``), while abbreviations, dotted forms, numbers, addresses
and code stay whole.  The cases are ``lower_case_starts`` and ``glued`` of
``sentence_cases.py`` plus a few of other languages, each checked whole,
streamed one character at a time and by the rules alone (searches that prove
nothing), and a grid of words, marks and next words glued or spaced checked
the same way in several languages."""

from __future__ import annotations

import itertools

import pytest
from helpers.chunking import stream
from helpers.sentence_cases import CASES
from helpers.sentence_checks import assert_streamed_as_the_rules_decide, rules_only_in

from guardrails_ai.chunkwise.chunkers import SentenceChunker

OWN: list[tuple[str, str, list[str]]] = [
    *(("auto", text, sentences) for text, sentences in CASES["lower_case_starts"]),
    *(("auto", text, sentences) for text, sentences in CASES["glued"]),
    ("en", "Run the script. it prints a line.", ["Run the script.", "it prints a line."]),
    # Inline code is no abbreviation: its end ends a sentence before a
    # lower-case word as a plain word does.
    (
        "auto",
        "Run `make`. make builds it. Open `app.yaml`. webpack reads it. Run `npm ci`. npm works.",
        [
            "Run `make`.",
            "make builds it.",
            "Open `app.yaml`.",
            "webpack reads it.",
            "Run `npm ci`.",
            "npm works.",
        ],
    ),
    ("en", "Edit `settings.py`. django reads it.", ["Edit `settings.py`.", "django reads it."]),
    ("de", "Nimm `make`. dann geht es.", ["Nimm `make`. dann geht es."]),
    # Other scripts: a lower-case word glued to an upper-case one.
    ("kk", "Біз үйге келдік.Олар күтті.", ["Біз үйге келдік.", "Олар күтті."]),
    ("auto", "Мы пришли домой.XX век начался.", ["Мы пришли домой.", "XX век начался."]),
    # ... but not an abbreviation of the language, nor a short word.
    ("ru", "Лекцию читал проф.Иванов вчера.", ["Лекцию читал проф.Иванов вчера."]),
    ("ru", "Мы жили на ул.Ленина долго.", ["Мы жили на ул.Ленина долго."]),
    # A plain lower-case word needs ASCII letters: other scripts go on.
    ("ru", "Он сказал да. но потом ушёл.", ["Он сказал да. но потом ушёл."]),
    # A German adverb, conjunction or preposition is no noun: capitalised
    # after an ordinal, it opens a sentence (not a word it begins: "Dortmunder").
    ("de", "Er wurde 3. Dort blieb er.", ["Er wurde 3.", "Dort blieb er."]),
    ("de", "Es war der 2. Deshalb freut er sich.", ["Es war der 2.", "Deshalb freut er sich."]),
    ("auto", "Er wurde 3. Außerdem lief er.", ["Er wurde 3.", "Außerdem lief er."]),
    ("de", "Er lief den 3. Dortmunder Lauf.", ["Er lief den 3. Dortmunder Lauf."]),
    ("de", "Er kam am 3. Über Nacht blieb er.", ["Er kam am 3.", "Über Nacht blieb er."]),
    # So in the languages that write nouns in lower case: a capitalised
    # adverb or conjunction after an abbreviation of an amount opens a sentence.
    ("nl", "Het kost 5 mln. Toch kopen we het.", ["Het kost 5 mln.", "Toch kopen we het."]),
    ("da", "Det koster 5 mio. Alligevel køber vi.", ["Det koster 5 mio.", "Alligevel køber vi."]),
    ("pl", "To kosztuje 5 mln. Jednak kupimy.", ["To kosztuje 5 mln.", "Jednak kupimy."]),
    ("ru", "Стоит 5 млн. Однако купим.", ["Стоит 5 млн.", "Однако купим."]),
    ("ru", "Это было в 1990 г. Впрочем, неважно.", ["Это было в 1990 г.", "Впрочем, неважно."]),
    ("sk", "Príďte o 10. hod. Potom obed.", ["Príďte o 10. hod.", "Potom obed."]),
    ("auto", "Стоит 5 млн. Однако купим.", ["Стоит 5 млн.", "Однако купим."]),
    ("es", "Llega el 5 de oct. Luego comemos.", ["Llega el 5 de oct.", "Luego comemos."]),
    ("pt", "Chega em out. Porém, volta logo.", ["Chega em out.", "Porém, volta logo."]),
    ("fr", "Il part en oct. Cependant, il revient.", ["Il part en oct.", "Cependant, il revient."]),
    ("it", "Parte a ott. Tuttavia torna presto.", ["Parte a ott.", "Tuttavia torna presto."]),
    ("el", "Κοστίζει 5 χιλ. Ωστόσο το αγοράζουμε.", ["Κοστίζει 5 χιλ.", "Ωστόσο το αγοράζουμε."]),
    ("bg", "Струва 5 млн. Обаче го купуваме.", ["Струва 5 млн.", "Обаче го купуваме."]),
    ("es", "Vive en la av. Central de Lima.", ["Vive en la av. Central de Lima."]),
    # ... but not a name, nor a word that only begins like one.
    ("ru", "Стоит 5 млн. Ивана это не пугает.", ["Стоит 5 млн. Ивана это не пугает."]),
    ("nl", "Het kost 5 mln. Tochtige dagen.", ["Het kost 5 mln. Tochtige dagen."]),
    # A label before the number makes it a count, also after another
    # abbreviation (the label ending at the number is read, not the first
    # match within reach: "bzw. Kap. 3").
    ("de", "Siehe bzw. Kap. 3. Bilder zeigen es.", ["Siehe bzw. Kap. 3.", "Bilder zeigen es."]),
    ("de", "Siehe ca. Nr. 3. Preise folgen.", ["Siehe ca. Nr. 3.", "Preise folgen."]),
    ("de", "Siehe bzw. Kapitel 3. Kurze Antwort.", ["Siehe bzw. Kapitel 3. Kurze Antwort."]),
    # Abbreviations of other languages stay whole before a lower-case word.
    ("de", "Wir kommen bzw. gehen morgen.", ["Wir kommen bzw. gehen morgen."]),
    ("it", "La centrale idraul. era ferma.", ["La centrale idraul. era ferma."]),
    ("es", "Son aprox. las diez.", ["Son aprox. las diez."]),
    # A sentence that opens with an elided word after an apostrophe (' or
    # \u2018): the word after it decides, capitalised as Dutch writes it
    # ('s Avonds, 't Is, 'k Denk); so in German, "auto", after a quotation mark.
    (
        "nl",
        "Het regent. 's Avonds blijven we thuis. Fijn! \u2018t Is gezellig. Ja. 'k Denk het.",
        [
            "Het regent.",
            "'s Avonds blijven we thuis.",
            "Fijn!",
            "\u2018t Is gezellig.",
            "Ja.",
            "'k Denk het.",
        ],
    ),
    ("auto", "Klar. 'ne Tasse Tee? Gern.", ["Klar.", "'ne Tasse Tee?", "Gern."]),
    ("de", 'Gut. "\'nen Kaffee, bitte." Sofort.', ["Gut.", '"\'nen Kaffee, bitte."', "Sofort."]),
    # ... but not before a lower-case word, nor after another word or an
    # abbreviation (the word after it is then not a sentence starter).
    ("nl", "Het is laat. 's avonds regent het.", ["Het is laat. 's avonds regent het."]),
    ("nl", "Het is laat. 'sa Avonds komt.", ["Het is laat. 'sa Avonds komt."]),
    ("nl", "Bel dr. 's Avonds thuis.", ["Bel dr. 's Avonds thuis."]),
]


def chunks(chunker: SentenceChunker, text: str) -> list[str]:
    pieces = stream(chunker, [text[i : i + 1] for i in range(len(text))])
    return [p.chunk for p in pieces if p.chunk is not None]


@pytest.mark.parametrize(("language", "text", "sentences"), OWN, ids=[c[1][:30] for c in OWN])
def test_sentence_starts(language: str, text: str, sentences: list[str]) -> None:
    chunker = SentenceChunker(language=language)
    assert chunker.split_text(text) == sentences
    assert chunks(chunker, text) == sentences
    with pytest.MonkeyPatch.context() as patch:
        rules_only_in(patch)
        assert SentenceChunker(language=language).split_text(text) == sentences


def test_the_issue_example_feeds_a_repetition_check() -> None:
    # Each repeated sentence is a chunk of its own, so a validator of
    # repeated sentences sees two equal ones.
    text = "ann says hi. ann says hi."
    assert SentenceChunker().split_text(text) == ["ann says hi.", "ann says hi."]


def test_user_abbreviations_keep_a_lower_case_word_joined() -> None:
    text = "Bring the kit. incl. the tools. Read the spec. then build."
    assert SentenceChunker().split_text(text) == [
        "Bring the kit.",
        "incl. the tools.",
        "Read the spec.",
        "then build.",
    ]
    assert SentenceChunker(abbreviations=["spec."]).split_text(text) == [
        "Bring the kit.",
        "incl. the tools.",
        "Read the spec. then build.",
    ]


# Words before the period, what follows it, and the next word: glued or
# spaced, plain or not, so that the searches meet every form of both rules.
_BEFORE = ["npm", "Tuesday", "world", "NASA", "it", "approx", "iv", "1,000", "2024", "жағдайы",
           "self", "DateTime", "e.g", "www", "`make`", "ci`", "`"]  # fmt: skip
_AFTER = [".", ". ", ".  ", "! ", ".) ", "..", ".\n"]
_NEXT = ["npm is", "Today is", "Mr. Li", "Now()", "Once here", "The cat", "XVIII ғасыр", "b. x",
         "iv) x", "Foo", "ok", "(see", "Dr.Li@x.org", "'s Avonds", "\u2018t is"]  # fmt: skip


@pytest.mark.parametrize("language", ["auto", "en", "kk", "it"])
def test_the_searches_decide_as_the_rules(language: str) -> None:
    rows = ["".join(row) for row in itertools.product(_BEFORE, _AFTER, _NEXT)]
    text = "\n\n".join(f"Say {row} now." for row in rows)
    for size in (1, 5, 64):
        parts = [text[i : i + size] for i in range(0, len(text), size)]
        assert_streamed_as_the_rules_decide(parts, language=language)
