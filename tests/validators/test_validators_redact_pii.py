"""RedactPII: entities by pattern plus checksum, placeholders, entities in streams."""

from __future__ import annotations

import asyncio
import functools
import sys
import unicodedata
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
    validated_and_streamed,
)
from helpers.prose import PROSE
from helpers.validator_checks import assert_fix_within_spans, texts_and_deltas
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise import RedactPII
from guardrails_ai.chunkwise._pii import AMBIGUOUS, FOLD
from guardrails_ai.chunkwise.adapters import guarded_stream
from guardrails_ai.chunkwise.chunkers import ChunkStream, limit
from guardrails_ai.chunkwise.redact_pii import MAX_CHARS

FIX = RedactPII(on_fail="fix")
GUARD = guard_with(FIX)
ASYNC_GUARD = guard_with(RedactPII(on_fail="fix"), asynchronous=True)
RAISE_GUARD = guard_with(RedactPII(on_fail="exception"))

#: One valid sample per entity, and what the fix puts in its place.
SAMPLES = {
    "john.doe@example.com": "<EMAIL>",
    "+44 20 7946 0958": "<PHONE>",
    "(415) 555-0123": "<PHONE>",
    "4111 1111 1111 1111": "<CARD>",
    "5555-5555-5555-4444": "<CARD>",
    "DE89 3704 0044 0532 0130 00": "<IBAN>",
    "GB82WEST12345698765432": "<IBAN>",
    "192.168.10.20": "<IP_ADDRESS>",
    "2001:db8::8a2e:370:7334": "<IP_ADDRESS>",
}
#: Look-alikes whose checksum or range fails: never redacted.
INVALID = [
    "4111 1111 1111 1112",
    "5555-5555-5555-4445",
    "DE89 3704 0044 0532 0130 01",
    "GB82WEST12345698765433",
    "256.168.10.20",
    "2001:db8::8a2e::7334",
    "+44 20",
]
#: Where an entity may stand in a sentence.
CONTEXTS = [
    "{}",
    "Contact {} today.",
    "Contact: {}. Then leave.",
    "Is it {}? Yes.",
    "Write to {}!\nThen wait.",
    "(see {})",
    "\u201cUse {}.\u201d She said so.",
    "Number\u2014{}\u2014and more.",
]


def check(text: str, validator: RedactPII = FIX) -> Any:
    return validator.validate(text, {})


@pytest.mark.parametrize(("entity", "placeholder"), SAMPLES.items())
@pytest.mark.parametrize("context", CONTEXTS)
def test_each_entity_replaced_in_every_context(entity: str, placeholder: str, context: str) -> None:
    text = context.format(entity)
    result = check(text)
    assert isinstance(result, FailResult)
    assert result.fix_value == context.format(placeholder)
    [span] = result.error_spans
    assert text[span.start : span.end] == entity
    assert_fix_within_spans(text, result)


@pytest.mark.parametrize("lookalike", INVALID)
def test_invalid_checksums_are_left_alone(lookalike: str) -> None:
    assert isinstance(check(f"Number {lookalike} here."), PassResult)


def test_reasons_and_message() -> None:
    result = check("Mail a@example.com, card 4111111111111111, host ::1.")
    assert isinstance(result, FailResult)
    assert [s.reason for s in result.error_spans] == [
        "e-mail address",
        "payment card number",
        "IPv6 address",
    ]
    assert result.error_message == (
        "Text contains personal data: e-mail address, payment card number, IPv6 address"
    )
    assert result.fix_value == "Mail <EMAIL>, card <CARD>, host <IP_ADDRESS>."


#: Text around an entity that once hid it: (text, its fix).
SURROUNDED = [
    ("Ann,4111111111111111,12/25", "Ann,<CARD>,12/25"),  # a CSV row
    ("[4111111111111111,5500000000000004]", "[<CARD>,<CARD>]"),  # a JSON array
    ("Call (415)555-0123 now.", "Call <PHONE> now."),
    ("Mail _jo@example.com_ now.", "Mail <EMAIL>_ now."),  # Markdown emphasis
    ("Mail __jo@example.com__ now.", "Mail <EMAIL>__ now."),
    # ... but "*", "~", "{" and "|" open no local part: the markup stays whole.
    ("Mail **jo@example.com** now.", "Mail **<EMAIL>** now."),
    ("Mail *jo@example.com* or ~~ann@example.org~~.", "Mail *<EMAIL>* or ~~<EMAIL>~~."),
    ("| {jo@example.com} |jo@example.com|", "| {<EMAIL>} |<EMAIL>|"),
    ("Mail jo*ann@example.com now.", "Mail <EMAIL> now."),
    ("Mail jo@example.com--it is fastest.", "Mail <EMAIL>--it is fastest."),
    ("Mail us...jo@example.com today.", "Mail us...<EMAIL> today."),
    ("ipv6:fe80::1 is up.", "ipv6:<IP_ADDRESS> is up."),
    # Addresses joined by a character that may open a local part.
    ("| jo@example.com|ann@example.org |", "| <EMAIL>|<EMAIL> |"),  # a Markdown table
    ("To: jo@example.com/ann@example.org+bo@example.net", "To: <EMAIL>/<EMAIL>+<EMAIL>"),
    ("inet6 addr:fe80::1/64 Scope:Link", "inet6 addr:<IP_ADDRESS>/64 Scope:Link"),
    # A local part with a title glued to a word (no sentence ends inside it).
    ("Write to contact.Dr.Jones@clinic.com today.", "Write to <EMAIL> today."),
    # A label of two abbreviations, in the number's sentence.
    ("Tel. No. 2147483647 ok", "Tel. No. <PHONE> ok"),
    ("Reach us: Tel. Nr. 2147483647.", "Reach us: Tel. Nr. <PHONE>."),
    # Spaces, hyphens and digits written another way (models write U+2011).
    ("Call 01\u00a023\u00a045\u00a067\u00a089 now.", "Call <PHONE> now."),
    ("Call (415)\u202f555\u20110123 now.", "Call <PHONE> now."),
    ("Call 415\u2011555\u20110123 now.", "Call <PHONE> now."),
    ("Card \uff14\uff11\uff11\uff11" + "\uff11" * 12 + " here.", "Card <CARD> here."),
    ("Card 4111\u20091111\u20091111\u20091111 ok", "Card <CARD> ok"),
    ("Phone: \u0664\u0661\u0665 555 0123.", "Phone: <PHONE>."),
    # Digits of the other scripts (only four were read as digits, and one Thai
    # digit in a card number hid all of it).
    ("Card \u0e54\u0e51\u0e51\u0e51 " + "\u0e51" * 4 + " 1111 111\u0e51 ok.", "Card <CARD> ok."),
    ("Call (\u0bea\u0be7\u0beb) \u0beb\u0beb\u0beb-\u0be6\u0be7\u0be8\u0be9.", "Call <PHONE>."),
    ("SSN \U0001d7cf\U0001d7d0\U0001d7d1-45-6789 ok.", "SSN <SSN> ok."),
    ("Mail jo@example\u2024com now.", "Mail <EMAIL> now."),  # one dot leader
    # Superscript and circled digits, middle and raised dots (the number or
    # address written in them was released).
    ("Card \u2074\u00b9\u00b9\u00b9 " + "\u00b9" * 12 + " ok.", "Card <CARD> ok."),
    (
        "Call \u2463\u2460\u2464-\u2464\u2464\u2464-\u24ea\u2460\u2461\u2462 now.",
        "Call <PHONE> now.",
    ),
    ("Mail jo@example\u2e33com or ann@example\u2027org now.", "Mail <EMAIL> or <EMAIL> now."),
    ("Host 192\u2e33168\u2e3310\u2e3320 up", "Host <IP_ADDRESS> up"),
    # ... which may as well be punctuation: a footnote mark, a separator (once
    # read as digits or dots, they hid the entity before them).
    ("Write to jo@example.com\u00b9 (note 1).", "Write to <EMAIL>\u00b9 (note 1)."),
    # ... or a footnote in plain digits, or a number after a dot: a top-level
    # domain holds no digit (the whole address was released).
    ("Write to jo@example.com1 (note 1).", "Write to <EMAIL>1 (note 1)."),
    ("Mail jo@example.co.uk23 now.", "Mail <EMAIL>23 now."),
    ("See jo@example.com.5 and ann@example.org2fa.", "See <EMAIL>.5 and <EMAIL>2fa."),
    # ... or a dot and a word that is no top-level domain (released whole).
    ("See jo@example.com.a1 and ann@example.org.v2_b.", "See <EMAIL>.a1 and <EMAIL>.v2_b."),
    ("Card 4111 1111 1111 1111\u00b2 ok.", "Card <CARD>\u00b2 ok."),
    ("Server\u2027192.168.10.20 is up.", "Server\u2027<IP_ADDRESS> is up."),
    # A dash inside an address (only an em dash ends the word before one).
    ("Mail jo@my\u2013company.com now.", "Mail <EMAIL> now."),
    ("Mail jo\u2212ann@example.com now.", "Mail <EMAIL> now."),
    ("Card 4111\u20141111\u20141111\u20141111 ok", "Card <CARD> ok"),
    # An en dash joins a number's groups or stands between words: both readings.
    ("Call me or\u2013(415) 555-0123 today.", "Call me or\u2013<PHONE> today."),
    ("SSN 536\u201322\u20131234 ok", "SSN <SSN> ok"),
    # ... both at once: a dash after a word, then the number's groups (released).
    ("Call me at\u2013415\u2013555\u20130123 ok", "Call me at\u2013<PHONE> ok"),
    (
        "Card\u20134111\u20131111\u20131111\u20131111, SSN\u2013536\u201322\u20131234.",
        "Card\u2013<CARD>, SSN\u2013<SSN>.",
    ),
    ("IBAN de89 3704 0044 0532 0130 00 ok", "IBAN <IBAN> ok"),
    ("Mail \uff4a\uff4f\uff20\uff45\uff58\uff0e\uff43\uff4f\uff4d now.", "Mail <EMAIL> now."),
    # Upper case around a full-width dot (the sentence chunker cut before the top-level domain),
    # and the ideographic full stop as a domain's dot (IDNA reads it so).
    ("Mail \uff2a\uff2f\uff20\uff25\uff38\uff0e\uff23\uff2f\uff2d now.", "Mail <EMAIL> now."),
    ("Mail jo@EXAMPLE\uff0eCOM now.", "Mail <EMAIL> now."),
    ("Mail JO@EXAMPLE\u3002COM now.", "Mail <EMAIL> now."),
    # Characters that render as nothing, inside an entity (they were read as
    # letters, so the entity was missed): zero-width space, soft hyphen,
    # word joiner, zero-width joiner, byte-order mark, a bidirectional control,
    # a variation selector; next to a full-width dot too.
    ("Mail jo\u200b@example.com now.", "Mail <EMAIL> now."),
    ("Mail jo@exam\u00adple.com now.", "Mail <EMAIL> now."),
    ("Mail \u200bjo@example.com\u200b now.", "Mail \u200b<EMAIL>\u200b now."),
    ("Call 415\u2060555\u200d0123 now.", "Call <PHONE> now."),
    ("Card 4111\ufeff1111\u202a1111\u202c1111 ok", "Card <CARD> ok"),
    ("Host 10.0\ufe0f.0.12 up", "Host <IP_ADDRESS> up"),
    ("Mail \uff4a\uff4f\uff20\uff45\uff58\uff0e\u200b\uff43\uff4f\uff4d now.", "Mail <EMAIL> now."),
    ("Email john.doe\ufe6bexample.com now.", "Email <EMAIL> now."),  # small commercial at
    # Decomposed accents (NFD) inside an address: part of it, or all, leaked.
    ("Schreib an ju\u0308rgen.mu\u0308ller@example.de bitte.", "Schreib an <EMAIL> bitte."),
    ("Mail juergen@mu\u0308ller-bau.de bitte.", "Mail <EMAIL> bitte."),
    ("Mail andre\u0301@exemple.fr.", "Mail <EMAIL>."),
    # An IBAN's groups joined by hyphens (released whole).
    ("IBAN: DE89-3704-0044-0532-0130-00.", "IBAN: <IBAN>."),
    ("Pay GB82-WEST-1234-5698-7654-32 now", "Pay <IBAN> now"),
    # Two spaces between an IBAN's groups (its bank code was released).
    ("IBAN DE89  3704 0044 0532 0130 00 ok", "IBAN <IBAN> ok"),
    # Two numbers joined by "/" (read as one of 20 digits: neither was found).
    ("Phone: 415-555-0123/415-555-0124", "Phone: <PHONE>/<PHONE>"),
    ("Lines 415-555-0123/415-555-0124/415-555-0125", "Lines <PHONE>/<PHONE>/<PHONE>"),
    ("Tel 030/1234567 ok", "Tel <PHONE> ok"),
    # Card numbers joined the same way, or by "-" or "." (the first, or all but
    # the first, was released).
    (
        "Cards 4111111111111111/5500000000000004, 4111111111111111-5500000000000004.",
        "Cards <CARD>/<CARD>, <CARD>-<CARD>.",
    ),
    # A label in Markdown: bold, or the cell before in a table row (the
    # number was released: only words and a few marks were read between).
    ("**SSN:** 078051120 on file.", "**SSN:** <SSN> on file."),
    ("| SSN | 078051120 |\n| Phone | 2147483647 |", "| SSN | <SSN> |\n| Phone | <PHONE> |"),
    ("Phone: **2147483647** today.", "Phone: **<PHONE>** today."),
    # Phone labels of other languages, before mobiles with no trunk 0 (Spain,
    # Italy, Poland, Saudi Arabia...): only the label tells (they were released).
    (
        "Tel\u00e9fono: 612 345 678. Cellulare: 347 123 4567.",
        "Tel\u00e9fono: <PHONE>. Cellulare: <PHONE>.",
    ),
    (
        "Numer telefonu: 601 234 567, telefoon 612345678",
        "Numer telefonu: <PHONE>, telefoon <PHONE>",
    ),
    (
        "\u96fb\u8a71\uff1a612345678\u3002\u7535\u8bdd: 612345678",
        "\u96fb\u8a71\uff1a<PHONE>\u3002\u7535\u8bdd: <PHONE>",
    ),
    (
        "\uc804\ud654: 612345678 \u0627\u0644\u0647\u0627\u062a\u0641: 0501234567",
        "\uc804\ud654: <PHONE> \u0627\u0644\u0647\u0627\u062a\u0641: <PHONE>",
    ),
    # ... and of Russian, Ukrainian, Greek and Turkish, and German compounds
    # (released: a mobile with no trunk 0, or a number in groups after "8").
    (
        "\u0422\u0435\u043b\u0435\u0444\u043e\u043d: 8 495 123 45 67. "
        "\u03a4\u03b7\u03bb\u03ad\u03c6\u03c9\u03bd\u03bf: 210 123 4567.",
        "\u0422\u0435\u043b\u0435\u0444\u043e\u043d: <PHONE>. "
        "\u03a4\u03b7\u03bb\u03ad\u03c6\u03c9\u03bd\u03bf: <PHONE>.",
    ),
    (
        "Telefon numaras\u0131: 532 123 45 67, Telefonnummer: 612345678",
        "Telefon numaras\u0131: <PHONE>, Telefonnummer: <PHONE>",
    ),
    # Abbreviations and other words for a phone of Spanish, Portuguese,
    # Dutch, Polish, Turkish and Arabic (released: only the label tells).
    (
        "Tfno.: 912 345 678, tlf: 612 34 56 78. Fone: (11) 3456-7890.",
        "Tfno.: <PHONE>, tlf: <PHONE>. Fone: <PHONE>.",
    ),
    (
        "Telem\u00f3vel: 912 345 678. Contato: 912 345 678. Contacto: 612 345 678.",
        "Telem\u00f3vel: <PHONE>. Contato: <PHONE>. Contacto: <PHONE>.",
    ),
    (
        "GSM: 532 123 45 67, Telefoonnummer: 612345678, tel. kom.: 601 234 567",
        "GSM: <PHONE>, Telefoonnummer: <PHONE>, tel. kom.: <PHONE>",
    ),
    (
        "\u0647\u0627\u062a\u0641\u064a: 0501234567 \u062c\u0648\u0627\u0644\u064a: 0501234567",
        "\u0647\u0627\u062a\u0641\u064a: <PHONE> \u062c\u0648\u0627\u0644\u064a: <PHONE>",
    ),
    # "Is", "the", "my", "at" and "number" of other languages between a label
    # and its number, and their "call me" (released: only English ones were read).
    (
        "Mi tel\u00e9fono es el 612 345 678. Il mio cellulare \u00e8 347 123 4567.",
        "Mi tel\u00e9fono es el <PHONE>. Il mio cellulare \u00e8 <PHONE>.",
    ),
    (
        "O meu telem\u00f3vel \u00e9 912 345 678. Le portable est le 612345678.",
        "O meu telem\u00f3vel \u00e9 <PHONE>. Le portable est le <PHONE>.",
    ),
    (
        "Meine Handynummer ist 612345678, mijn telefoonnummer is 612345678.",
        "Meine Handynummer ist <PHONE>, mijn telefoonnummer is <PHONE>.",
    ),
    (
        "Telefon numaram 532 123 45 67. \ud734\ub300\ud3f0 \ubc88\ud638: 612345678",
        "Telefon numaram <PHONE>. \ud734\ub300\ud3f0 \ubc88\ud638: <PHONE>",
    ),
    (
        "Ll\u00e1mame al 612 345 678 o chiamami al 347 123 4567.",
        "Ll\u00e1mame al <PHONE> o chiamami al <PHONE>.",
    ),
    (
        "\u0627\u062a\u0635\u0644 \u0628\u0646\u0627 \u0639\u0644\u0649 0501234567",
        "\u0627\u062a\u0635\u0644 \u0628\u0646\u0627 \u0639\u0644\u0649 <PHONE>",
    ),
    # A label of Chinese, Japanese or Korean inside a run of letters (the
    # words before it, a particle after it): the run was read as no label.
    (
        "\u6211\u7684\u7535\u8bdd\u662f612345678\u3002\u8054\u7cfb\u7535\u8bdd\uff1a612345678",
        "\u6211\u7684\u7535\u8bdd\u662f<PHONE>\u3002\u8054\u7cfb\u7535\u8bdd\uff1a<PHONE>",
    ),
    (
        "\u304a\u96fb\u8a71\u306f612345678\u3067\u3059\u3002\u643a\u5e2f\u756a\u53f7\uff1a612345678",
        "\u304a\u96fb\u8a71\u306f<PHONE>\u3067\u3059\u3002\u643a\u5e2f\u756a\u53f7\uff1a<PHONE>",
    ),
    (
        "\uc81c \uc804\ud654\ubc88\ud638\ub294 612345678\uc785\ub2c8\ub2e4. "
        "\uc5f0\ub77d\ucc98: 612345678",
        "\uc81c \uc804\ud654\ubc88\ud638\ub294 <PHONE>\uc785\ub2c8\ub2e4. "
        "\uc5f0\ub77d\ucc98: <PHONE>",
    ),
    ("\u8bf7\u81f4\u7535612345678\u3002", "\u8bf7\u81f4\u7535<PHONE>\u3002"),
    # Card labels of other languages, before a number that needs one (13
    # digits, or groups joined by dots or slashes): it was released.
    (
        "Tarjeta: 4111.1111.1111.1111. Carta di credito: 4222222222222.",
        "Tarjeta: <CARD>. Carta di credito: <CARD>.",
    ),
    (
        "Karta: 4111/1111/1111/1111, "
        "\u041d\u043e\u043c\u0435\u0440 \u043a\u0430\u0440\u0442\u044b: 4222222222222",
        "Karta: <CARD>, \u041d\u043e\u043c\u0435\u0440 \u043a\u0430\u0440\u0442\u044b: <CARD>",
    ),
    (
        "\u4fe1\u7528\u5361\u53f7\uff1a4222222222222\u3002\u30ab\u30fc\u30c9\u756a\u53f7\uff1a4222222222222",
        "\u4fe1\u7528\u5361\u53f7\uff1a<CARD>\u3002\u30ab\u30fc\u30c9\u756a\u53f7\uff1a<CARD>",
    ),
    ("\uce74\ub4dc \ubc88\ud638: 4222222222222", "\uce74\ub4dc \ubc88\ud638: <CARD>"),
    # Russian numbers without the trunk prefix 8, and Turkish ones (their trunk
    # 0 before the parentheses): released without a phone label.
    (
        "\u041e\u0444\u0438\u0441: (495) 123-45-67, 495 123-45-67, (3812) 12-34-56.",
        "\u041e\u0444\u0438\u0441: <PHONE>, <PHONE>, <PHONE>.",
    ),
    # ... with their trunk 0 (left in sight before the parentheses; released,
    # the area code apart from it without parentheses).
    ("Merkez ofis 0 (212) 123 45 67 veya (532) 123-45-67.", "Merkez ofis <PHONE> veya <PHONE>."),
    (
        "Merkez 0 212 555 12 34, cep 0 532 123 45 67, faks 0(212) 555 12 35, 0-532-123-45-68.",
        "Merkez <PHONE>, cep <PHONE>, faks <PHONE>, <PHONE>.",
    ),
    # A label that is a name written in camelCase (read as its parts, "whats"
    # and "app": the number was released).
    (
        "WhatsApp: 612 345 678, UnionPay 4222222222222.",
        "WhatsApp: <PHONE>, UnionPay <CARD>.",
    ),
    # Japanese numbers with the exchange in parentheses (released, after a
    # label too: a "(" ended the number).
    (
        "TEL 03(3581)3111\u3001\u5927\u962a 06\uff086123\uff094567\u3067\u3059\u3002",
        "TEL <PHONE>\u3001\u5927\u962a <PHONE>\u3067\u3059\u3002",
    ),
    # "para" and "ver" name a paragraph or a version only before an IPv4
    # address: in Spanish and Portuguese they are "to" and "see" (released).
    (
        "Ligue para +55 11 91234-5678 ou para (11) 91234-5678.",
        "Ligue para <PHONE> ou para <PHONE>.",
    ),
    ("Ver 020 7946 0958 o escriba para ana@example.es", "Ver <PHONE> o escriba para <EMAIL>"),
    # Digits one by one, spaced (an obfuscation), after a phone or card label
    # (released: a one-digit group ended no phone number, none began a card).
    ("Phone: 4 1 5 5 5 5 0 1 2 3.", "Phone: <PHONE>."),
    ("Card: " + " ".join("4111111111111111") + " exp 12/27", "Card: <CARD> exp 12/27"),
    # A label in HTML: a table's cell before, bold (the tags were read as words).
    (
        "<tr><td>Phone</td><td>2147483647</td></tr><p><b>SSN:</b> 078051120<br/>",
        "<tr><td>Phone</td><td><PHONE></td></tr><p><b>SSN:</b> <SSN><br/>",
    ),
    # A label in code: a JSON or YAML key, a Python keyword argument, quoted
    # (the quotes were read as words: a number that needs its label was released).
    ('{"ssn": "078051120", "phone": "2147483647"}', '{"ssn": "<SSN>", "phone": "<PHONE>"}'),
    ("phone='2147483647' ip: '6.1.7.1'", "phone='<PHONE>' ip: '<IP_ADDRESS>'"),
    ('{"card": "4111.1111.1111.1111"}', '{"card": "<CARD>"}'),
    ("Phone: \u201c2147483647\u201d today.", "Phone: \u201c<PHONE>\u201d today."),
    # A qualifier in parentheses between a phone label and a number that needs
    # it (released: the qualifier was read as a word that ends the label's reach).
    (
        "Phone (work): 612 345 678, Mobile (private) 699 111 222, Tel. (office) 601 234 567.",
        "Phone (work): <PHONE>, Mobile (private) <PHONE>, Tel. (office) <PHONE>.",
    ),
    ("Tel\u00e9fono (casa): 612 345 678", "Tel\u00e9fono (casa): <PHONE>"),
    # Polish "call ... at (number)": "pod" stands between the verb and the
    # number (released: neither the verb nor "pod" was read as a label).
    (
        "Zadzwo\u0144 pod numer 600 123 456 lub dzwo\u0144 do nas pod nr 601 234 567.",
        "Zadzwo\u0144 pod numer <PHONE> lub dzwo\u0144 do nas pod nr <PHONE>.",
    ),
    (
        "Prosz\u0119 zadzwoni\u0107 pod numerem 600 123 456.",
        "Prosz\u0119 zadzwoni\u0107 pod numerem <PHONE>.",
    ),
    # Spanish and Portuguese "Cel.:" (celular) with its period and colon (released).
    ("Tel./Cel.: 612 345 678 o Cel.: 699 111 222", "Tel./Cel.: <PHONE> o Cel.: <PHONE>"),
    # Dialled from abroad with "00" (found only after a phone label).
    ("Our Berlin office is on 0049 30 1234567.", "Our Berlin office is on <PHONE>."),
    ("Paris: 0033 1 23 45 67 89, or 001-415-555-0123", "Paris: <PHONE>, or <PHONE>"),
    # ... with the trunk "(0)" after the country code, as after "+" (released).
    ("Call 0049 (0)30 1234567 or 0044(0)20 7946 0958.", "Call <PHONE> or <PHONE>."),
    # Mobiles of China and Brazil (found only after a phone label).
    ("Beijing: 138 0013 8000 or 13800138000.", "Beijing: <PHONE> or <PHONE>."),
    ("In S\u00e3o Paulo (11) 91234-5678 answers.", "In S\u00e3o Paulo <PHONE> answers."),
    # A country code in parentheses (never found).
    ("Tel: (+44) 20 7946 0958", "Tel: <PHONE>"),
    ("Call (+1) 415 555 0123 now.", "Call <PHONE> now."),
    # An extension glued on with "x" (the number was never found).
    ("Call 415-555-0123x12 today.", "Call <PHONE>x12 today."),
    # Numbers in Markdown underscore emphasis (never found).
    ("Your card: _4111 1111 1111 1111_.", "Your card: _<CARD>_."),
    ("Call __(415) 555-0123__ now.", "Call __<PHONE>__ now."),
    ("Server _192.168.1.1_ is down.", "Server _<IP_ADDRESS>_ is down."),
    ("Host __2001:db8::1__ is up.", "Host __<IP_ADDRESS>__ is up."),
    # Numbers joined to words of scripts written without spaces (never found).
    ("カード番号は4111111111111111です。", "カード番号は<CARD>です。"),
    ("電話番号は03-1234-5678です。", "電話番号は<PHONE>です。"),
    ("IP是192.168.1.1。", "IP是<IP_ADDRESS>。"),
    # ... their groups joined by the katakana long vowel mark (released).
    (
        "電話\uff1a03\u30fc1234\u30fc5678、携帯090\uff701234\uff705678です。",
        "電話\uff1a<PHONE>、携帯<PHONE>です。",
    ),
    ("カードは4111ー1111ー1111ー1111です。", "カードは<CARD>です。"),
    ("전화번호는 010-1234-5678로 주세요.", "전화번호는 <PHONE>로 주세요."),
    # Addresses glued to such words (the words were redacted with them).
    ("メールはjo@example.comです。", "メールは<EMAIL>です。"),
    ("请联系ann.lee@example.co.uk了解详情。", "请联系<EMAIL>了解详情。"),
    ("메일은 jo@example.com으로 보내 주세요.", "메일은 <EMAIL>으로 보내 주세요."),
    ("ติดต่อjo@example.comครับ", "ติดต่อ<EMAIL>ครับ"),
    ("メールはsam@example.xn--p1aiです。", "メールは<EMAIL>です。"),
    ("陈先生chen@example.org\uff0c谢谢。", "陈先生<EMAIL>\uff0c谢谢。"),
    # An address that ends a URL's query (the URL was redacted with it).
    (
        "Unsubscribe at https://example.com/u?email=jo@example.com&t=1 now.",
        "Unsubscribe at https://example.com/u?email=<EMAIL>&t=1 now.",
    ),
    (
        "See example.com/contact?a=1&to=ann.lee@example.org today.",
        "See example.com/contact?a=1&to=<EMAIL> today.",
    ),
    # ... its "@" percent-encoded, as a URL writes it (released whole).
    (
        "Unsubscribe: https://example.com/u?email=jo%40example.com&t=1 or mailto:ann%40example.org",
        "Unsubscribe: https://example.com/u?email=<EMAIL>&t=1 or mailto:<EMAIL>",
    ),
    # ... or written as an HTML character reference (released whole).
    ("<p>Mail jo&#64;example.com or ann&#x40;example.org</p>", "<p>Mail <EMAIL> or <EMAIL></p>"),
    # Equals signs with no query (an SRS bounce address), a slash: one address.
    ("From SRS0=ab=CD=example.com=jo@bounce.example.net ok.", "From <EMAIL> ok."),
    ("Mail sales/eu@example.com now.", "Mail <EMAIL> now."),
    # All in such a script, or a top-level domain left too short: kept whole.
    ("请写信给用户@例子.广告谢谢。", "<EMAIL>。"),
    ("Mail jo@example.c了 now.", "Mail <EMAIL> now."),
    # A local part with a period glued to a capital of another script (the
    # sentence chunker cut there and released "\u0438\u0432\u0430\u043d.").
    (
        "Write to \u0438\u0432\u0430\u043d.\u041f\u0435\u0442\u0440\u043e\u0432@example.ru now.",
        "Write to <EMAIL> now.",
    ),
    ("Host dead:beef::cafe is up.", "Host <IP_ADDRESS> is up."),
    # An IPv4 address after a word and a period (a space left out: released).
    (
        "Server down.192.168.1.1 now; see app.10.0.0.1.nip.io",
        "Server down.<IP_ADDRESS> now; see app.<IP_ADDRESS>.nip.io",
    ),
    # ... or glued to a capitalised word after it (released).
    ("Connect to 10.0.0.1Then restart.", "Connect to <IP_ADDRESS>Then restart."),
    # An IPv4 address with its octets padded to three digits (released).
    (
        "Host 192.168.001.001 is down; try 172.016.254.001:8080.",
        "Host <IP_ADDRESS> is down; try <IP_ADDRESS>:8080.",
    ),
    # An ideographic full stop after a whole address ends its sentence.
    ("Mail jo@example.com\u3002Thanks a lot.", "Mail <EMAIL>\u3002Thanks a lot."),
    ("Mail jo@example.com\uff0eThanks a lot.", "Mail <EMAIL>\uff0eThanks a lot."),
    # An address after an "@" that is not inside another address.
    ("From jo@x@ann@example.org today.", "From jo@x@<EMAIL> today."),
    ("Follow @ann@example.social now.", "Follow @<EMAIL> now."),
    ("jo@example.com@ann@example.org", "<EMAIL>@<EMAIL>"),
    ("Mail a@b.com@c.org now.", "Mail <EMAIL>@c.org now."),
    # US Social Security numbers (before: passed, or "<PHONE>" for an area 0xx)
    ("My SSN is 536-22-1234.", "My SSN is <SSN>."),
    ("SSN: 078-05-1120, ITIN 912 74 5678.", "SSN: <SSN>, ITIN <SSN>."),
    (
        "| Ann | 536221234 |\nSocial security no. 536221234",
        "| Ann | 536221234 |\nSocial security no. <SSN>",
    ),
    ("社会保障番号は536-22-1234です。", "社会保障番号は<SSN>です。"),
    # A dash after a word (models write em dashes with no spaces): read as "-",
    # it hid every number after it, and an address took the word in.
    ("My card\u20144111 1111 1111 1111 works.", "My card\u2014<CARD> works."),
    (
        "Call me\u2014+44 20 7946 0958 or\u2014(415) 555-0123.",
        "Call me\u2014<PHONE> or\u2014<PHONE>.",
    ),
    ("My SSN\u2014536-22-1234.", "My SSN\u2014<SSN>."),
    ("IBAN\u2014DE89 3704 0044 0532 0130 00 ok", "IBAN\u2014<IBAN> ok"),
    ("Card -4111111111111111 ok", "Card -<CARD> ok"),
    ("Write\u2014jo@example.com\u2014soon.", "Write\u2014<EMAIL>\u2014soon."),
    # A separator and a digit glued after a number (a phone number's last group
    # was left in sight; a card, or a labelled SSN, was not found at all).
    ("Call +44 20 7946 0958.1 now.", "Call <PHONE>.1 now."),
    ("Call (415) 555-0123-9 now.", "Call <PHONE>-9 now."),
    ("Card 4111 1111 1111 1111.0 now.", "Card <CARD>.0 now."),
    # Groups joined another way, after a card label (released before).
    ("Card 4111.1111.1111.1111 ok.", "Card <CARD> ok."),
    ("Visa: 4111_1111_1111_1111, card 4111/1111/1111/1111.", "Visa: <CARD>, card <CARD>."),
    ("Card\t4111\t1111\t1111\t1111\tok", "Card\t<CARD>\tok"),
    ("Card 4111111111111111.25 now.", "Card <CARD>.25 now."),
    ("SSN 536-22-1234.1 and SSN 536-22-1234-5 ok.", "SSN <SSN>.1 and SSN <SSN>-5 ok."),
    # A number that opens with "+" or "(" glued to the period before it (a
    # space left out after a sentence's end) is no rest of a longer number.
    ("Call me today.+44 20 7946 0958 works.", "Call me today.<PHONE> works."),
    ("Call me today.(415) 555-0123 or later.", "Call me today.<PHONE> or later."),
    ("Reach us on.+1 415 555 0123 today.", "Reach us on.<PHONE> today."),
    # ... nor one that opens with a digit after a word and a period (only a
    # digit or a hyphen before makes it the rest of a longer one).
    ("Pay today.4111 1111 1111 1111 now.", "Pay today.<CARD> now."),
    ("Call us today.020 7946 0958 or.4111111111111111", "Call us today.<PHONE> or.<CARD>"),
    (
        "Filed today.536-22-1234 and e.g.DE89 3704 0044 0532 0130 00",
        "Filed today.<SSN> and e.g.<IBAN>",
    ),
    # ... nor an IPv6 address after a word and a period (it was released).
    (
        "Down today.2001:db8::8a2e:370:7334 and since.fe80::1 now.",
        "Down today.<IP_ADDRESS> and since.<IP_ADDRESS> now.",
    ),
    # A number glued to the capitalised word after it (the next sentence with
    # its space left out): its last group was left in sight, or all of it.
    ("Call +44 20 7946 0958Thanks a lot.", "Call <PHONE>Thanks a lot."),
    (
        "Card 4111 1111 1111 1111Expires soon, SSN 536-22-1234Ok.",
        "Card <CARD>Expires soon, SSN <SSN>Ok.",
    ),
    ("Phone: 4 1 5 5 5 5 0 1 2 3Bye. Or (415) 555-0123Bye.", "Phone: <PHONE>Bye. Or <PHONE>Bye."),
    # An IBAN glued to the capitalised word after it: read in upper case, the
    # word was more of the IBAN, and the IBAN was released.
    (
        "IBAN DE89 3704 0044 0532 0130 00Thanks, or DE89370400440532013000Bye.",
        "IBAN <IBAN>Thanks, or <IBAN>Bye.",
    ),
    ("Pay de89-3704-0044-0532-0130-00Now.", "Pay <IBAN>Now."),
    # A US number with a slash after its area code, or hyphens between spaces
    # (released with no phone label).
    ("Office 415/555-0123, home 415 - 555 - 0123.", "Office <PHONE>, home <PHONE>."),
    ("Fax (415) 555 - 0123 ok", "Fax <PHONE> ok"),
    # A German number with a slash between spaces after its area code (DIN 5008's old style).
    ("Tel.: 030 / 123 456 78, Büro 0221 / 1234567.", "Tel.: <PHONE>, Büro <PHONE>."),
    # Hindi labels, read as the detectors read them (vowel signs dropped):
    # phone (with and without the nukta), telephone, mobile number, contact us.
    (
        "फ़ोन: 2147483647, फोन नंबर 9876543210, दूरभाष: 2147483646",
        "फ़ोन: <PHONE>, फोन नंबर <PHONE>, दूरभाष: <PHONE>",
    ),
    ("मोबाइल संख्या: 2147483647, संपर्क करें: 9876543210", "मोबाइल संख्या: <PHONE>, संपर्क करें: <PHONE>"),
    ("\u095e\u094b\u0928: 2147483647", "\u095e\u094b\u0928: <PHONE>"),  # (a precomposed nukta)
    # A German area code in parentheses with a space after its trunk 0 (an
    # older DIN 5008 style), with a label and without.
    ("Tel: (0 30) 1234567, Büro (0 221) 123 45 67.", "Tel: <PHONE>, Büro <PHONE>."),
    # A number dialled with a trunk prefix before its area code in parentheses:
    # a Russian one (8), with and without a label, and a US one (1).
    ("Телефон: 8 (495) 123-45-67, офис 8 (812) 123-45-67.", "Телефон: <PHONE>, офис <PHONE>."),
    ("Звоните 8-800-555-35-35 или 8 (3812) 12-34-56.", "Звоните <PHONE> или <PHONE>."),
    ("Dial 1 (415) 555-0123 or 1 (415) 555 - 0123 ok", "Dial <PHONE> or <PHONE> ok"),
    # A label written as a camelCase key or as an XML tag's name.
    (
        '{"phoneNumber": "2147483647", "ssnNo": "078051120"}',
        '{"phoneNumber": "<PHONE>", "ssnNo": "<SSN>"}',
    ),
    (
        "<phone>2147483647</phone><creditCardNumber>4111.1111.1111.1111</creditCardNumber>",
        "<phone><PHONE></phone><creditCardNumber><CARD></creditCardNumber>",
    ),
    # A number split by Markdown emphasis, strike-through or code marks.
    ("Call **415**-555-0123 or `415`-555-0124 now.", "Call **<PHONE> or `<PHONE> now."),
    (
        "Card: 4111 1111 **1111** 1111, IBAN DE89 ~~3704~~ 0044 0532 0130 00.",
        "Card: <CARD>, IBAN <IBAN>.",
    ),
    # A lone "<" before a number is a mark, not a tag (it raised IndexError).
    ("If x < 415-555-0123 or <4111 1111 1111 1111> then", "If x < <PHONE> or <<CARD>> then"),
]

#: Numbers that are the rest, or the start, of a longer one: nothing to redact.
LONGER_NUMBERS = [
    "Range 10-4111111111111111 here.",
    "Value 0.4111111111111111 here.",
    "Code 536-22-1234-5678 here.",
    "Key 123e4567-e89b-12d3-a5bf-015123456789 here.",  # a UUID's last group
    "Part ab-4111111111111111 here.",
    "Build 4111.1111.1111.1111 here.",  # (without a card label)
    "Up 50%40 and %40example.com, =%40example.org, &#64;example.net here.",  # (no local part)
    "Budget 100.000.000.000 or 200.100.000.000 here.",  # (thousands separators)
    "Walk OID 1.3.6.1.2.1.1.0 here.",  # (a longer dotted number)
    "Clock 10.12:30:45 and build 1.2001:db8::1 here.",  # (after a digit and a period)
    "Host 192.168.1.10ab here.",  # (the start of an identifier)
    "Ref 4111111111111111-0001 here.",  # (a card-sized number and a suffix)
    "Order (work) 612 345 678, Phone (work) and 612 345 678 here.",  # (no label before it)
    # ("pod" is no filler after another word: "under", and "to" in English.)
    "Dom pod numer 600 123 456, phone pod 612 345 678 here.",
    # (Polish "Cel:" is "goal": "cel" is a label only written "Cel.:".)
    "Cel: 100 000 000 u\u017cytkownik\u00f3w, cel 1 000 000 z\u0142, cel. 100 000 000 here.",
    "CEP: 01310-100 here.",  # (a Brazilian postal code: "cep" is no phone label)
    "Hash 4111111111111111abc here.",  # (the start of an identifier)
    "Token 4111111111111111ABC here.",
    "Token DE89370400440532013000ABC, DE89 3704 0044 0532 0130 00AB here.",
    "Pages 100 - 200 - 300 and 1999 - 2005 - 2010 here.",  # (ranges)
    "Scores 100 / 200 / 300 and 1999 / 2005 / 2010 here.",
    "Compute 2**31-1, 10**9 and 4111**1111 here.",  # (powers)
    '{"orderNumber": "2147483647", "userId": "078051120"} <id>2147483647</id>',
]


@pytest.mark.parametrize(("text", "fixed"), SURROUNDED)
def test_entities_found_whatever_surrounds_them(text: str, fixed: str) -> None:
    result = check(text)
    assert isinstance(result, FailResult) and result.fix_value == fixed
    for size in (1, 3):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert joined(run(GUARD, deltas)) == fixed


@pytest.mark.parametrize("text", LONGER_NUMBERS)
def test_a_number_inside_a_longer_one_is_left_alone(text: str) -> None:
    assert isinstance(check(text), PassResult)


@pytest.mark.parametrize("text", ["Phone < 2147483647", "p <0.05 at 10 <20", "a <"])
def test_a_lone_less_than_sign_is_no_tag(text: str) -> None:
    # Read as an opening tag, "<" alone raised IndexError before any number.
    assert isinstance(check(text), PassResult)


def test_rest_of_a_failed_address_is_no_address() -> None:
    # Right after a colon, an IPv6 address must follow a label, not the
    # groups of a longer address that failed its check.
    assert isinstance(check("Route 2001:db8::8a2e::7334 and cafe::1::2 here."), PassResult)
    assert isinstance(check("Mail first.jo@example.com"), FailResult)
    assert check("Mail first.jo@example.com").fix_value == "Mail <EMAIL>"


def test_a_number_of_both_shapes_is_redacted_by_either_detector() -> None:
    # 078-05-1120 is both an SSN and a trunk-0 phone number: named <SSN> when
    # both look, and still redacted when only phone numbers are (a first fix
    # made the phone detector give that shape up, which leaked it there, and
    # left 066-60-0000, no SSN, to no detector at all).
    assert check("Mail 078-05-1120 now.").fix_value == "Mail <SSN> now."
    assert check("Mail 066-60-0000 now.").fix_value == "Mail <PHONE> now."
    phones = RedactPII(entities=["phone"], on_fail="fix")
    assert check("Mail 078-05-1120 now.", phones).fix_value == "Mail <PHONE> now."


def test_every_digit_is_read_as_its_ascii_digit() -> None:
    # FOLD lists the runs of digits rather than scanning every code point at
    # import: the lists must hold every character with a digit value Python
    # knows (decimal digits, superscripts, circled digits...).
    digits = {
        cp: str(value)
        for cp in range(0x80, sys.maxunicode + 1)
        if (value := unicodedata.digit(chr(cp), -1)) >= 0
    }
    read = FOLD | AMBIGUOUS
    assert {cp: read[cp] for cp in digits if cp in read} == digits


def test_entities_subset() -> None:
    only_email = RedactPII(entities=["email"], on_fail="fix")
    result = check("a@example.com 4111111111111111", only_email)
    assert isinstance(result, FailResult) and result.fix_value == "<EMAIL> 4111111111111111"
    assert only_email.entities == ("email",)
    assert RedactPII(entities=("card", "card", "iban")).entities == ("card", "iban")


def test_no_false_positives_on_prose() -> None:
    assert isinstance(check(PROSE), PassResult)


@pytest.mark.parametrize(
    "text",
    [
        "In Rust, call Add::add(a, b) for sums.",  # paths of code, not IPv6 addresses
        "The Fab::Cafe type.",
        "Use ace::bed in the tests.",
    ],
)
def test_no_false_positives_on_code(text: str) -> None:
    assert isinstance(check(text), PassResult)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"entities": ["email", "passport"]},
            ValueError,
            r"entities: unknown 'passport'; valid names are 'email', 'ssn', 'phone', 'card', "
            r"'iban', 'ipv4', 'ipv6'",
        ),
        ({"entities": "email"}, TypeError, r"entities must be a list of str, got str 'email'"),
        ({"entities": []}, ValueError, r"entities must not be empty"),
        ({"entities": {"email": False}}, TypeError, r"entities must be a list of str, got dict"),
        ({"entities": [None]}, TypeError, r"entities must hold str only, got NoneType"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        RedactPII(**kwargs)


@pytest.mark.parametrize("entity", SAMPLES)
@pytest.mark.parametrize("context", CONTEXTS)
def test_default_chunker_never_splits_an_entity(entity: str, context: str) -> None:
    chunks = FIX.chunker.split(context.format(entity)) + FIX.chunker.flush(context.format(entity))
    assert any(entity in chunk for chunk in chunks), chunks


def test_ceiling_bounds_the_hold_back() -> None:
    # No sentence ever ends: chunks still come, none over the ceiling.
    text = "and then we walked on " * 200
    stream = ChunkStream(FIX.chunker)
    chunks = []
    for i in range(0, len(text), 7):
        chunks += [p.chunk for p in stream.feed(text[i : i + 7]) if p.chunk]
        assert len(stream.pending) <= MAX_CHARS
    assert chunks and all(len(c) <= MAX_CHARS for c in chunks)


_WORDS = ["and", "then", "the", "money", "went", "to", "account", "or", "card", "call"]


@settings(max_examples=25)
@given(
    st.lists(
        st.one_of(st.sampled_from(_WORDS), st.sampled_from(sorted(SAMPLES))),
        min_size=MAX_CHARS // 5,
        max_size=MAX_CHARS // 2,
    )
)
def test_long_unpunctuated_text_keeps_entities_whole(words: list[str]) -> None:
    # Sentences longer than the ceiling are cut, but between two lower-case
    # words, never inside an entity written with spaces; entities one space
    # apart may be redacted as one, but no character of one stays visible and
    # no ordinary word is touched.
    text = " ".join(words)
    chunks = FIX.chunker.split(text) + FIX.chunker.flush(text)
    assert all(len(c) <= MAX_CHARS for c in chunks)
    result = check(text)
    spans = result.error_spans if isinstance(result, FailResult) else []
    redacted = {i for s in spans for i in range(s.start, s.end)}
    start = 0
    for word in words:
        inside = [i in redacted for i in range(start, start + len(word))]
        assert all(inside) if word in SAMPLES else not any(inside), word
        start += len(word) + 1


# -- streams -----------------------------------------------------------------------------


@pytest.mark.parametrize(("entity", "placeholder"), SAMPLES.items())
def test_entity_straddling_every_delta_border(entity: str, placeholder: str) -> None:
    text = f"Reach me at {entity}. Thanks"
    expected = f"Reach me at {placeholder}. Thanks"
    start = text.index(entity)
    for cut in range(start + 1, start + len(entity)):
        deltas = [text[:cut], text[cut:]]
        assert joined(run(GUARD, deltas)) == expected, deltas


@pytest.mark.parametrize(("entity", "placeholder"), SAMPLES.items())
def test_entity_ends_the_stream_without_terminator(entity: str, placeholder: str) -> None:
    text = f"Sure. It is {entity}"
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    expected = f"Sure. It is {placeholder}"
    assert joined(run(GUARD, deltas)) == expected
    assert joined(run(GUARD, deltas, guarded=False)) == expected
    assert joined(asyncio.run(arun(ASYNC_GUARD, deltas))) == expected


def test_exception_before_release() -> None:
    released = []
    deltas = ["All good so far. ", "My card is 4111 ", "1111 1111 1111", " ok?"]
    with pytest.raises(ValidationError, match="payment card number"):
        for outcome in guarded_stream(RAISE_GUARD, llm(deltas), messages=MESSAGES):
            released.append(outcome.validated_output)
    assert "".join(released).rstrip() == "All good so far."


_SENTENCES = [
    *(f"Reach me at {e}." for e in SAMPLES),
    *(f"Not PII: {e}!" for e in INVALID),
    "Plain text with no data.",
    "Card 4111 1111 1111 1111 expires soon, IBAN DE89370400440532013000 too",
    "Call +1 415 555 0123 or mail x@example.org",
    "Version 3.12 shipped at 10:30 on 2024-11-05.",
]


@given(texts_and_deltas(_SENTENCES))
def test_streamed_equals_validated_at_once(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    once = validated_and_streamed(GUARD, text, deltas)
    result = check(text)
    if isinstance(result, FailResult):
        assert_fix_within_spans(text, result)
        assert result.fix_value == once.validated_output
    else:
        assert once.validated_output == text


def test_label_words_are_written_as_the_detectors_read_text() -> None:
    # Marks are dropped before labels are read (Hindi vowel signs, decomposed
    # accents): a label holding one could never match.
    from guardrails_ai.chunkwise._pii import _FILLERS, _LABELS, _without_invisible

    unreadable = [w for w in [*_LABELS, *_FILLERS] if _without_invisible(w)[0] != w]
    assert unreadable == []


# A phone label written as an abbreviation (Spanish "Tfno.", "Telf.") whose
# period a sentence chunker took for the end of a sentence: the number, which
# needs its label, was validated without it.
_LABEL_ABBREVIATIONS = [
    ("Tfno. 912 345 678", "Tfno. <PHONE>"),
    ("Telf. 912 345 678 o escribe.", "Telf. <PHONE> o escribe."),
    ("Ll\u00e1menos. Telef. 912 345 678.", "Ll\u00e1menos. Telef. <PHONE>."),
]


@pytest.mark.parametrize(("text", "fixed"), _LABEL_ABBREVIATIONS)
def test_a_label_abbreviation_shares_its_numbers_chunk(text: str, fixed: str) -> None:
    assert validated_and_streamed(GUARD, text, list(text)).validated_output == fixed
    async_guard = guard_with(RedactPII(on_fail="fix"), asynchronous=True)
    assert joined(asyncio.run(arun(async_guard, [text[:6], text[6:]]))) == fixed


# A round quantity grouped by thousands right after a label that is also a
# verb taking a quantity: "reach 2 500 000 users" is no phone number.
@pytest.mark.parametrize(
    "text",
    [
        "We want to reach 100 000 000 users.",
        "Sales could reach 2 500 000 units.",
        "Text 5 000 000 people today.",
        "Calls reached 3 400 000 last year.",
    ],
)
def test_a_round_quantity_after_a_verb_label_is_no_phone(text: str) -> None:
    assert validated_and_streamed(GUARD, text, list(text)).validated_output == text


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("Call 912 345 000 now.", "Call <PHONE> now."),  # (not a round hundred before 000)
        ("Call me on 600 100 000.", "Call me on <PHONE>."),  # (words between)
        ("Phone: 100 000 000", "Phone: <PHONE>"),  # (no verb)
        ("It was called 12 345 678 times.", "It was called <PHONE> times."),
    ],
)
def test_a_number_after_a_verb_label_is_still_a_phone_otherwise(text: str, fixed: str) -> None:
    assert validated_and_streamed(GUARD, text, list(text)).validated_output == fixed


# A phone label written as a word and a period ("Cell.", "Fone.", "Call me."):
# the sentence chunker took the period for a sentence's end and cut there, and
# the number, which needs its label, was validated without it and released,
# under the default chunker and every chunker that cuts sentences.
_LABEL_AND_PERIOD = [
    ("Cell. 612 345 678", "Cell. <PHONE>"),
    ("Telefon. 1234567 bitte.", "Telefon. <PHONE> bitte."),
    ("Fone. (11) 2345-6789", "Fone. <PHONE>"),
    ("Call me. 2147483647 is best.", "Call me. <PHONE> is best."),
    ("Host. 6.1.7.1 is down.", "Host. <IP_ADDRESS> is down."),
]
_SENTENCE_CHUNKERS = {
    "default": None,
    "sentence-simple": "sentence-simple",
    "limit": limit("sentence", max_chars=400),
}


@functools.cache
def _guards(chunker: str) -> tuple[Any, Any]:
    make = functools.partial(RedactPII, chunker=_SENTENCE_CHUNKERS[chunker], on_fail="fix")
    return guard_with(make()), guard_with(make(), asynchronous=True)


@pytest.mark.parametrize(("text", "fixed"), _LABEL_AND_PERIOD)
@pytest.mark.parametrize("chunker", list(_SENTENCE_CHUNKERS))
def test_a_label_and_its_period_share_the_numbers_chunk(
    text: str, fixed: str, chunker: str
) -> None:
    guard, async_guard = _guards(chunker)
    for deltas in (list(text), [text[:6], text[6:]]):
        assert validated_and_streamed(guard, text, deltas).validated_output == fixed
    assert joined(asyncio.run(arun(async_guard, [text[:5], text[5:]]))) == fixed


# A number grouped in pairs from the left ends with a digit alone: read as an
# ISBN's check digit, it was cut off the number and released, even after a
# phone label or a "+".
@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("Tel. +49 30 12 34 56 7", "Tel. <PHONE>"),
        ("Ruf an: +49 30 12 34 56 7.", "Ruf an: <PHONE>."),
        ("Telefon 030 12 34 56 7 bitte.", "Telefon <PHONE> bitte."),
        ("ISBN 978 3 16 148410 0", "ISBN 978 3 16 148410 0"),  # (still no phone)
        ("Call 612 345 678 5 times.", "Call <PHONE> 5 times."),  # (not in pairs)
    ],
)
def test_a_last_digit_alone_stays_with_its_number(text: str, fixed: str) -> None:
    assert validated_and_streamed(GUARD, text, list(text)).validated_output == fixed
    assert joined(asyncio.run(arun(ASYNC_GUARD, [text[:-1], text[-1:]]))) == fixed


# A label whose period is an ideographic or full-width full stop, or that
# holds an invisible character, read by the detectors as a label and a
# period: the chunk held back with a label was read as written, so the
# sentence chunker's cut after it stayed and the number was released.
@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("**\u96fb\u8a71\u3002612345678 ok.", "**\u96fb\u8a71\u3002<PHONE> ok."),
        ("Cell\uff0e 612 345 678", "Cell\uff0e <PHONE>"),
        ("Ph\u200bone. 612 345 678", "Ph\u200bone. <PHONE>"),
    ],
)
def test_a_label_held_back_is_read_as_the_detectors_read_it(text: str, fixed: str) -> None:
    assert validated_and_streamed(GUARD, text, list(text)).validated_output == fixed
    assert joined(asyncio.run(arun(ASYNC_GUARD, [text[:4], text[4:]]))) == fixed


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("Use https://user:secret@host.example.com/ now.", "Use https://user:<EMAIL>/ now."),
        ("Use https://user:secret@localhost:8080/ now.", None),
        ("Use https://user:secret@10.0.0.1/x now.", "Use https://user:secret@<IP_ADDRESS>/x now."),
    ],
)
def test_url_credentials_are_redacted_only_as_far_as_they_read_as_an_entity(
    text: str, fixed: str | None
) -> None:
    # What the docstring and README promise of a URL's user name and password:
    # no entity of their own (a password stays in sight before localhost).
    result = check(text)
    if fixed is None:
        assert isinstance(result, PassResult)
        fixed = text
    else:
        assert isinstance(result, FailResult) and result.fix_value == fixed
    assert joined(run(GUARD, [text[i : i + 3] for i in range(0, len(text), 3)])) == fixed
