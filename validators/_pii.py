"""Personal data by pattern, checksum and context: the detectors behind ``RedactPII``.

Each detector is a compiled pattern that proposes candidates and a check that
accepts or rejects them, given the text before the candidate (its *context*:
the words since the last line break, at most :data:`CONTEXT` characters):

* ``email``: ``local@domain.tld`` where the local part is an RFC 5322
  dot-atom (letters, digits, ``!#$%&'*+/=?^_`{|}~-``, dots between them; not
  opening with a quote or backquote), at most 64 characters, and the domain
  has labels of letters, digits and inner hyphens, at most 16 labels and 253
  characters, ending in a top-level domain of letters or a punycode one
  (``xn--p1ai``); 254 characters in all at most (a word glued to the
  top-level domain that makes it longer than 63 letters leaves its first 63
  to the address: ``jo@example.com`` and 61 letters or more).  Prose and
  markup around an address do not hide it: it may follow ``...`` and end
  before ``_``,
  ``-``, ``--``, a digit, or a dot and what no top-level domain is
  (``us...jo@example.com--fast``, a footnote ``jo@example.com1``,
  ``jo@example.com.5``, ``jo@example.com.a1``), and an address joined to
  the one before it by one atext character is found too
  (``jo@example.com|ann@example.org``), and so is an address right after an
  ``@`` that is not inside another address (``jo@x@ann@example.org``,
  a fediverse handle ``@ann@example.social``).  A word of a script written
  without spaces, or a Hangul particle, glued to an address is no part of
  it (``请联系jo@example.com了解``, ``jo@example.com으로``), nor is the URL
  whose query it ends (``https://example.com/u?email=jo@example.com``; see
  ``_trimmed``); its "@" may be percent-encoded after a letter or digit, as
  in a URL (``?email=jo%40example.com``), or an HTML character reference
  (``jo&#64;example.com``);
* ``phone``: digit groups separated by at most one space, ``-``, ``.`` or
  ``/``, or by a hyphen or a slash between two spaces (``415 - 555 - 0123``,
  read as ``415-555-0123``; ``030 / 123 456 78``), an area code possibly in
  parentheses, 7 to 15 digits (an extension glued on with ``x`` may follow,
  and stays: ``415-555-0123x12``): international numbers (``+`` and a
  country code, E.164, the code possibly in parentheses:
  ``(+44) 20 7946 0958``; or ``00``, the code and groups:
  ``0049 30 1234567``), North American numbers
  (``(415) 555-0123``, ``(415)555-0123``, ``415.555.0123``, ``415/555-0123``;
  area code and exchange 2-9), national
  numbers with a trunk ``0`` written in groups (``020 7946 0958``,
  ``030/1234567``, ``01 23 45 67 89``, ``01512 3456789``), Indian mobiles
  ``98765 43210``, compact mobiles ``015123456789``/``07700900123``, Chinese
  mobiles ``138 0013 8000``/``13800138000``, Brazilian ``(11) 91234-5678``,
  Russian ones dialled with the trunk prefix 8 (``8 (495) 123-45-67``,
  ``8 800 555 35 35``; or without it, ``(495) 123-45-67``), Turkish ones with
  their trunk ``0`` apart (``0 (212) 123 45 67``, ``0 532 123 45 67``), Japanese
  ones with the exchange in parentheses (``03(3581)3111``); a trunk prefix
  ``1``, ``8`` or ``0`` may open any number before its area code in
  parentheses, and the number found holds it: ``1 (415) 555-0123``); any
  other digit run (``2147483647``, an order number) only after a phone label
  (``tel``, ``phone``, ``call``, ``mobile``, ``fax``, ...), and so are digits
  written one by one with a space between (``Phone: 4 1 5 5 5 5 0 1 2 3``), and not right after
  the groups of an IBAN (one whose checksum failed).  Never after a label
  that names another number (``order``, ``invoice``, ``ISBN``, ``ref``,
  ``version``, ``section``, ...), never with a last group of one digit (an
  ISBN; one joined by ``.`` or ``-`` is left out: ``+44 20 7946 0958.1``
  holds ``+44 20 7946 0958``; but a digit alone after a space and a group
  of two ends a number grouped in pairs, after a phone label or a ``+``:
  ``+49 30 12 34 56 7``), never a run of one repeated digit
  (``000 000 0000``);
* ``card``: 13 to 19 digits, compact or in groups of three or more separated
  by single spaces or by single hyphens (not both; a comma may follow, as in
  CSV ``Ann,4111111111111111,12/25``, or a dot and digits: ``...1111.0``),
  or, after a card label only, by single dots, underscores, slashes or tabs,
  passing the Luhn check and starting like a card of that length (Visa,
  Mastercard, American Express, Discover, JCB, Diners, UnionPay, Maestro);
  13 digits, or no known prefix, or digits one by one with a space between
  (``4 1 1 1 1 1 ...``), only after a card label (``card``, ``visa``,
  ``credit``, ...); never after a label for another number;
* ``iban``: a country code, two check digits and the country's length of
  letters or digits, compact or in groups of four (one or two spaces between
  them, or a hyphen), passing ISO 7064 mod 97-10; it may end before a
  capitalised word glued to it (``DE89 3704 0044 0532 0130 00Thanks``),
  though it is read in upper case (see ``_accepted_end``);
* ``ipv4`` / ``ipv6``: addresses that :mod:`ipaddress` accepts (IPv4: four
  decimal octets 0-255 without leading zeros, or each padded to three
  digits, ``192.168.001.001``, but not ending in ``.000``, a round number
  written with thousands separators; IPv6 in every textual form,
  an embedded IPv4 tail included, with at least one hexadecimal digit).  An
  IPv4 address after ``version``, ``section``, ``chapter``, ``v``, ``§``... is a
  number, not an address; one of four one-digit octets (``6.1.7.1``) only
  counts after an address label (``ip``, ``host``, ``server``, ...) or with a
  port or prefix length (``:8080``, ``/24``).  An IPv4 address after a digit
  and a dot is the rest of a longer dotted number (``1.3.6.1.2.1.1.0``); after
  a word and a dot it is not (``Server down.10.0.0.1``), nor is an IPv6 address
  (``today.2001:db8::1``).  An IPv6 address may follow a label and a colon
  (``ipv6:fe80::1``, ``addr:fe80::1``), not a group of hexadecimal digits and
  a colon (the rest of an address that failed).  One with no decimal digit
  needs three groups or more (``dead:beef::cafe``; not a path of code such as
  ``Add::add``);
* ``ssn``: a US Social Security number, ``123-45-6789``, with an area, group
  and serial that can be issued (not ``000`` or ``666``; not ``00``; not
  ``0000``); written with spaces or dots, as nine digits, or with an area
  ``9xx`` (an ITIN), only after an SSN label (``ssn``, ``social security``,
  ``itin``...); never after a label for a phone or another number; without
  an SSN label, not before ``.`` or ``-`` and a digit (``123-45-6789-01`` is
  a longer number).

No number (phone, card, IBAN, SSN) starts right after a letter or digit
and a ``-``, or a digit and a ``.``, nor a phone number after a digit and a
``/``: it would be the rest of a longer number or identifier
(``10-4111...``, ``0.4111...``, ``ID-4111...``, the last group of a UUID).
After a word and a ``.`` one may (a sentence's end with its space left out:
``Pay today.4111 1111 1111 1111``).  An em dash stands between words:
``card\u20144111 1111 1111 1111`` holds a card.

Characters that write an entity another way count as the ASCII ones they
stand for, one for one (see :data:`FOLD`): other spaces (no-break, narrow
no-break, thin, ideographic; em dashes, which stand between words:
``Write\u2014jo@example.com`` gives ``jo@example.com``), hyphens and en dashes
(``415\u2011555\u20110123``, the non-breaking hyphen models write), decimal digits of
every script (Thai, Tamil, mathematical bold...) and full-width forms
(``\uff14\uff11\uff15...``), ideographic full stops (U+3002, U+FF61: dots, as
IDNA reads them in a domain) and the one dot leader (U+2024); an IBAN may be
written in lower case.  Characters that may stand for a digit or a dot, or
be punctuation (:data:`AMBIGUOUS`: superscripts, subscripts, circled digits,
the hyphenation and raised dots, the en dash), are read both ways, and the entities of
both readings are redacted: ``\u2074\u00b9\u00b9\u00b9 \u00b9\u00b9...`` is a card
number, and ``jo@example.com\u00b9`` an address with a footnote mark.  An
en dash after a letter is also read as a space while the others join groups
(``at\u2013415\u2013555\u20130123`` holds a phone number).
Characters that render as nothing (format characters such as the soft hyphen,
zero-width space and joiners, bidirectional controls; variation selectors; see
:func:`._normalize.is_ignorable_or_mark`) and combining marks (accents of
decomposed text, NFD: ``ju\u0308rgen@example.de``) are read past:
``jo\u200b@exam\u00adple.com`` is an address, and the entity found covers them.
Markdown emphasis, strike-through and code marks inside a number are read
past too (``**415**-555-0123``, ``4111 1111 **1111** 1111``; see
:func:`_numbers_across_marks`): the number found covers the marks inside it.

A candidate that fails its check is tried again without what follows its last
space, and so on (a grouped number followed by another number or by a word of
capitals); if no prefix passes, the search goes on from the next character.

Shape of every entity (what lets a chunker cut without splitting one; tested):
no entity is longer than :data:`LONGEST_ENTITY` characters, not counting
the invisible characters it holds; none starts right
after or ends right before a letter or digit (a number or an e-mail address
may touch a letter of Han, kana, Thai or Hangul, which join words without
spaces: ``カード番号は4111111111111111です``, ``メールはjo@example.comです``;
a number may touch ``_`` in Markdown emphasis:
``_4111 1111 1111 1111_``; a phone, card or SSN number, an IBAN or an IPv4
address may end before a capitalised word glued to it, the next sentence with
its space left out: ``+44 20 7946 0958Thanks``; an e-mail address whose
top-level domain is a word's first 63 letters, see ``email``); no e-mail
address starts after ``_`` (one may end before it: ``_jo@example.com_``
gives ``_jo@example.com``, its local part holding the first ``_``); none
contains whitespace
other than single spaces (of any kind :data:`FOLD` reads as a space; an IBAN may
hold two between its groups, a card number a tab between each two), each with a
letter, digit or ``)`` before it and a digit, capital letter or ``(`` after it
(ASCII, once folded), or a phone number's hyphen or slash between two spaces
(``415 - 555 - 0123``, ``030 / 123 456 78``); none contains a sentence terminator followed by
whitespace (but a terminator with no whitespace after, which a chunk may end
with: ``+44 20\u30027946 0958``, see :func:`entity_open`).  An ideographic or
full-width full stop before a capitalised word ends an address whose domain
holds a dot already, as it ends the sentence (``jo@example.com\u3002Thanks``
holds ``jo@example.com``; see :func:`_domains_ended`).  Overlapping entities are merged (see
:func:`find_entities`).  Every pattern uses bounded or possessive repetition:
linear time in the length of the text.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from ._normalize import SPACELESS_LETTERS, is_ignorable_or_mark

__all__ = [
    "CONTEXT",
    "ENTITIES",
    "LONGEST_ENTITY",
    "PLACEHOLDERS",
    "READ_BACK",
    "Entity",
    "entity_open",
    "find_entities",
    "iban_valid",
    "label_open",
    "label_start",
    "luhn_valid",
]

#: Length of the longest entity accepted (an e-mail address, RFC 5321).
LONGEST_ENTITY = 254
#: How far before a candidate a label is looked for (same line only).
CONTEXT = 32


#: The zero of every run of ten decimal digits above ASCII (Unicode 14, as
#: Python 3.11 has it: Arabic-Indic, Devanagari, Thai, Tamil, Myanmar, full-width,
#: mathematical bold...); listed rather than found by a scan of every code point
#: at import (85 ms).  ``tests/validators`` checks it against ``unicodedata``.
DIGIT_ZEROS = (
    0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0,
    0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0,
    0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0,
    0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0,
    0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0,
    0x1E950, 0x1FBF0,
)  # fmt: skip


#: The other characters with a digit value (Numeric_Type=Digit, Unicode 14):
#: superscripts, subscripts, circled and parenthesized digits, Ethiopic...; as
#: (first code point, last code point, value of the first).  A number written
#: in them reads as that number (``\u2074\u00b9\u00b9...``, ``\u2463\u2460\u2460...``).
DIGIT_RUNS = (
    (0xB2, 0xB3, 2), (0xB9, 0xB9, 1), (0x1369, 0x1371, 1), (0x19DA, 0x19DA, 1),
    (0x2070, 0x2070, 0), (0x2074, 0x2079, 4), (0x2080, 0x2089, 0), (0x2460, 0x2468, 1),
    (0x2474, 0x247C, 1), (0x2488, 0x2490, 1), (0x24EA, 0x24EA, 0), (0x24F5, 0x24FD, 1),
    (0x24FF, 0x24FF, 0), (0x2776, 0x277E, 1), (0x2780, 0x2788, 1), (0x278A, 0x2792, 1),
    (0x10A40, 0x10A43, 1), (0x10E60, 0x10E68, 1), (0x11052, 0x1105A, 1), (0x1F100, 0x1F100, 0),
    (0x1F101, 0x1F10A, 0),
)  # fmt: skip


def _fold_table() -> dict[int, str]:
    table = {cp: " " for cp in (0xA0, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000)}
    table.update({cp: "-" for cp in (*range(0x2010, 0x2014), 0x2212, 0xFE63)})
    # Em dashes stand between words (card\u20144111..., Write\u2014jo@example.com):
    # read as spaces, where hyphens join the groups of a number (and en dashes,
    # read both ways: see AMBIGUOUS).
    table.update({cp: " " for cp in (0x2014, 0x2015, 0xFE58)})
    table.update({zero + d: str(d) for zero in DIGIT_ZEROS for d in range(10)})
    table.update({cp: chr(cp - 0xFEE0) for cp in range(0xFF01, 0xFF5F)})  # full-width ASCII
    table.update({0x3002: ".", 0xFF61: "."})  # ideographic full stops: dots of a domain (IDNA)
    table[0x2024] = "."  # one dot leader (NFKC reads it as ".")
    table.update({0xFE6B: "@", 0xFE52: "."})  # small commercial at, small full stop
    return table


#: What the detectors read each character as (one character for one: the
#: offsets of what they find are offsets in the text as written).
FOLD: dict[int, str] = _fold_table()
#: Characters read two ways, the text being searched once with each reading
#: (see :func:`_readings`): the other characters with a digit value
#: (:data:`DIGIT_RUNS`), which write a number (``\u2074\u00b9\u00b9...``) or mark
#: a footnote (``jo@example.com\u00b9``), the hyphenation and raised dots
#: (U+2027, U+2E33), a domain's dot or punctuation, and the en dash, which
#: joins the groups of a number (``415\u2013555\u20130123``) or stands between
#: words (``or\u2013(415) 555-0123``): as what they stand for, and as
#: punctuation that belongs to no entity.
AMBIGUOUS: dict[int, str] = {
    **{
        cp: str(value + cp - first)
        for first, last, value in DIGIT_RUNS
        for cp in range(first, last + 1)
    },
    0x2013: "-",
    0x2027: ".",
    0x2E33: ".",
}
_AS_WRITTEN = FOLD | AMBIGUOUS
_AS_PUNCTUATION = FOLD | dict.fromkeys(AMBIGUOUS, "\x00")
_HAS_AMBIGUOUS = re.compile("[" + "".join(map(chr, sorted(AMBIGUOUS))) + "]")
_UPPER_ASCII = {cp: chr(cp - 32) for cp in range(ord("a"), ord("z") + 1)}
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SMALL = frozenset("abcdefghijklmnopqrstuvwxyz")
_IBAN_CHARACTERS = _CAPITALS | frozenset("0123456789")

#: Entity name -> the placeholder a fix puts in its place.
PLACEHOLDERS: dict[str, str] = {
    "email": "<EMAIL>",
    "ssn": "<SSN>",  # (before phone: 078-05-1120 has the shape of both)
    "phone": "<PHONE>",
    "card": "<CARD>",
    "iban": "<IBAN>",
    "ipv4": "<IP_ADDRESS>",
    "ipv6": "<IP_ADDRESS>",
}

#: Every entity name, in the order overlapping candidates are preferred.
ENTITIES: tuple[str, ...] = tuple(PLACEHOLDERS)


def _compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    # \d outside character classes means ASCII digits here (the checksums need them).
    return re.compile(pattern.replace(r"\d", "[0-9]"), flags)


# Letters that join the next word with no space: those of the scripts written
# without spaces (Han, kana, Thai...) and Hangul, whose particles do
# (jo@example.com으로).  An address glued to such a word is cut off it where
# the script changes (see _trimmed).
_GLUED = f"{SPACELESS_LETTERS}\uac00-\ud7a3"
# RFC 5322 atext (with Unicode letters and digits, RFC 6531); "'" and "`" may
# not open a local part (they quote the address in prose: 'jo@example.com'),
# nor may "*", "~", "{" and "|", which mark it up (**jo@example.com**, a
# strike-through, a template, a table cell): they stay around the placeholder.
_ATEXT = r"\w!#$%&'*+/=?^`{|}~-"
_OPENS = r"\w!#$%&+/=?^}-"
_LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"
_EMAIL_BODY = (
    r"[" + _OPENS + r"][" + _ATEXT + r"]{0,63}+(?:\.[" + _ATEXT + r"]{1,63}+){0,31}+"
    r"@(?:" + _LABEL + r"\.){1,16}(?:(?:[Xx][Nn]--[A-Za-z0-9-]{1,59}|[^\W0-9_]{2,63})"
    # A letter may not follow (a punycode TLD may touch a _GLUED word); a digit
    # may: a top-level domain holds none (jo@example.com1, a footnote).  A dot
    # and a letter may: the longest domain the pattern reads is tried first, so
    # what follows is no top-level domain (jo@example.com.a1).
    r"(?![^\W0-9_" + _GLUED + r"])"
    # An address glued to a word that makes its last label longer than a label
    # may be: its 63 first letters (jo@example.com + 61 letters and more,
    # released whole before, or found after a chunk cut inside the word).
    r"|[^\W0-9_]{63}(?=[^\W0-9_]))"
)
# Not inside a local part: after no atext and no "atext." (each position is
# tried, and a suffix of a local part is no address of its own).  After "@" an
# address may start (in ``jo@x@ann@example.org`` the mangled text around it
# does not make ``ann@example.org`` less of an address), unless that "@" is
# inside an address found: a domain is no local part (see find_entities).
_EMAIL = _compile(r"(?<![" + _OPENS + r"])(?<![" + _ATEXT + r"]\.)" + _EMAIL_BODY)
# An address right after another one and one atext character that cannot end
# it (``a@x.com|b@y.org``, ``a@x.com/b@y.org``), which the lookbehind above
# refuses: matched only at the end of an address accepted.
_NEXT_EMAIL = _compile(_EMAIL_BODY)
_EMAIL_JOINERS = frozenset("!#$%&'*+/=?^`{|}~-")
_HAS_GLUED = re.compile(f"[{_GLUED}]")
_GLUED_LEAD = re.compile(f"[^@]*[{_GLUED}](?=[^\\W\\d_{_GLUED}])")
_GLUED_TAIL = re.compile(f"[^\\W\\d_{_GLUED}](?=[{_GLUED}])")
# A query key in a local part: the address ends a URL (?email=jo@example.com).
_QUERY_KEY = re.compile(r"[?&][^?&=]*=")
# A letter or digit that a number may not touch: any but the _GLUED ones
# (カード番号は4111111111111111です, 010-1234-5678로).  "_" may touch one
# (Markdown emphasis: _4111 1111 1111 1111_).
_W = f"[^\\W_{_GLUED}]"
# Not the rest of a longer number or identifier: after a letter or digit and
# a hyphen ("10-4111...", "ID-4111...", a UUID's last group) or a digit and a
# dot ("0.4111..."), nor, for a phone number, after a digit and a "/" (_CHAINS
# follows those).  A word and a dot before a number end a sentence whose
# space was left out ("Pay today.4111 1111 1111 1111"): no identifier goes on
# from a word with a dot and digits.  An em dash reads as a space:
# "card\u20144111 1111 1111 1111".
_NOT_INSIDE_A_WORD = r"(?<!" + _W + r"-)(?<![0-9]\.)"
# Digits one by one with a space between (an obfuscation: ``4 1 5 5 5 5 0 1 2 3``):
# a phone or card number only after its label (see _spaced), so never from
# inside such a run (each of its digits would be tried for nothing).
_SPACED = r"(?<![0-9] )\d(?: \d){6,18}"
_SPACED_ONLY = re.compile(r"[0-9](?: [0-9])+")
# A number ends before no letter or digit (it would be the start of an
# identifier: 4111111111111111abc), except a capitalised word glued to it: the
# next sentence with its space left out ("+44 20 7946 0958Thanks").
_GLUED_WORD = r"(?=[A-Z][a-z])"
_PHONE_BODY = (
    r"(?:" + _SPACED + r"(?:" + _GLUED_WORD + r"|(?!" + _W + r"|[.\-]\d))|"
    r"(?:(?:\+\d{1,3}(?: ?\(0\))?|00[1-9]\d{0,2} ?\(0\)|\(\+\d{1,3}\))[ .\-]?|[018][ \-]?(?=\(\d))?"
    r"(?:\((?:0 )?\d{1,5}\)(?: ?\d{1,12})?|0\d{1,4}\(\d{1,4}\)\d{4}|\d{1,12})"
    r"(?:(?:[ .\-/]| [\-/] )\d{1,12}){0,6}"
    r"(?:" + _GLUED_WORD + r"|(?!(?!x\d)" + _W + r"|[.\-]\d)))"  # (an extension: 0123x12)
)
# A number that opens with "+" or "(" is no rest of a longer one, whatever is
# before it: a period glued before it is a sentence's end with its space left
# out ("Call me today.+44 20 7946 0958").
_PHONE = _compile(
    r"(?<!\+)(?<![0-9]/)(?:(?=[+(])|" + _NOT_INSIDE_A_WORD + r")(?<!" + _W + r")" + _PHONE_BODY
)
# A number right after another one and a "/" (415-555-0123/415-555-0124), which
# the lookbehind above refuses: matched only at the end of a number accepted.
_NEXT_PHONE = _compile(_PHONE_BODY)
_CARD_BODY = (
    r"(?:\d{3,19}"
    r"(?:([ \t./_-])\d{3,18}(?:\1\d{3,18}){0,5})?(?:" + _GLUED_WORD + r"|(?!" + _W + r"))"
    r"|" + _SPACED + r"(?:" + _GLUED_WORD + r"|(?!" + _W + r")))"
)
_CARD = _compile(_NOT_INSIDE_A_WORD + r"(?<!" + _W + r")" + _CARD_BODY)
# A card number right after another one and one separator of groups
# (4111111111111111/5500000000000004): matched only at the end of a card found.
_NEXT_CARD = _compile(_CARD_BODY)
# What separates the groups of a card number written in the usual way.
_CARD_SEPARATORS = frozenset(" -")
_IBAN = _compile(
    _NOT_INSIDE_A_WORD + r"(?<!" + _W + r")[A-Z]{2}\d{2}"
    r"(?:[A-Z0-9]{11,30}|(?: {1,2}[A-Z0-9]{4}){2,7}(?: {1,2}[A-Z0-9]{1,3})?"
    r"|(?:-[A-Z0-9]{4}){2,7}(?:-[A-Z0-9]{1,3})?)(?:(?!" + _W + r")|(?=[A-Z]))"
)
_SSN = _compile(
    _NOT_INSIDE_A_WORD + r"(?<!" + _W + r")\d{3}([ .\-]?)\d{2}\1\d{4}"
    r"(?:" + _GLUED_WORD + r"|(?!" + _W + r"))"
)
_SSN_DASHED = re.compile(r"[0-9]{3}-[0-9]{2}-[0-9]{4}")
# Not the rest of a longer dotted number (1.2.3.4.5: after a digit and a dot);
# after a word and a dot an address may start ("Server down.10.0.0.1").
# It may end before a capitalised word glued to it, as a number may
# ("Connect to 10.0.0.1Then").
_IPV4 = _compile(
    r"(?<![0-9]\.)(?<!" + _W + r")(?:\d{1,3}\.){3}\d{1,3}"
    r"(?:" + _GLUED_WORD + r"|(?!" + _W + r"|\.\d))"
)
# Not after a digit and a dot (the rest of a longer dotted number, 1.2001:db8::1);
# after a word and a dot an address may start, as IPv4 may (today.2001:db8::1).
# Right after a ":", only after a label: a word whose last 8 characters hold a
# letter that is no hexadecimal digit (``ipv6:``, ``addr:``), not a group of a
# longer address that failed its check (``2001:db8::8a2e::7334``).
_AFTER_LABEL = "|".join(f"(?<=[g-zG-Z][0-9A-Za-z]{{{k}}}:)" for k in range(8))
_IPV6 = _compile(
    r"(?<![0-9]\.)(?<!" + _W + r")(?:(?<!:)|" + _AFTER_LABEL + r")"
    r"(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4})"
    r"(?!" + _W + r"|:|\.\d)"
)

# -- context -------------------------------------------------------------------------

_PHONE_LABELS = (
    "phone telephone tel ph call calls called mobile mob cell cellphone fax dial ring text sms "
    "whatsapp hotline contact reach handy telefon mobil anrufen t\u00e9l\u00e9phone t\u00e9l "
    "portable num\u00e9ro joignable "
    # Spanish, Portuguese, Italian, Dutch, Polish; Japanese, Chinese, Korean;
    # Arabic (with and without the article): where a mobile has no trunk 0
    # (612 345 678, 347 123 4567, 601 234 567), only the label tells.
    "tel\u00e9fono telefono telefone telefoon telefonu m\u00f3vil movil celular cellulare "
    "mobiel kom\u00f3rka kom\u00f3rki "
    "\u96fb\u8a71 \u96fb\u8a71\u756a\u53f7 \u643a\u5e2f \u7535\u8bdd "
    "\u7535\u8bdd\u53f7\u7801 \u624b\u673a \u624b\u673a\u53f7 \u624b\u6a5f "
    "\uc804\ud654 \uc804\ud654\ubc88\ud638 \ud734\ub300\ud3f0 \ud578\ub4dc\ud3f0 "
    "\u0647\u0627\u062a\u0641 \u0627\u0644\u0647\u0627\u062a\u0641 "
    "\u062c\u0648\u0627\u0644 \u0627\u0644\u062c\u0648\u0627\u0644 "
    # Russian and Ukrainian, Greek (accented, and as decomposed text reads
    # once its accents are passed over), German compounds.
    "\u0442\u0435\u043b\u0435\u0444\u043e\u043d \u0442\u0435\u043b \u043c\u043e\u0431 "
    "\u043c\u043e\u0431\u0438\u043b\u044c\u043d\u044b\u0439 "
    "\u0441\u043e\u0442\u043e\u0432\u044b\u0439 "
    "\u043c\u043e\u0431\u0456\u043b\u044c\u043d\u0438\u0439 "
    "\u03c4\u03b7\u03bb\u03ad\u03c6\u03c9\u03bd\u03bf "
    "\u03c4\u03b7\u03bb\u03b5\u03c6\u03c9\u03bd\u03bf \u03c4\u03b7\u03bb "
    "\u03ba\u03b9\u03bd\u03b7\u03c4\u03cc \u03ba\u03b9\u03bd\u03b7\u03c4\u03bf "
    "\u0442\u0435\u043b\u0435\u0444\u043e\u043d\u0430 telefonnummer handynummer rufnummer "
    # Hindi, as the detectors read it, its vowel signs and other marks dropped
    # (see find_entities): phone (fon, with the nukta precomposed or not),
    # telephone (durbhash), mobile, contact (sampark).
    "\u095e\u0928 \u092b\u0928 \u0926\u0930\u092d\u0937 \u092e\u092c\u0907\u0932 "
    "\u0938\u092a\u0930\u0915 "
    # Abbreviations and other words of Spanish, Portuguese, Italian, Dutch,
    # Polish, Turkish and Arabic (tfno., fone, GSM, tel. kom., "my phone").
    "tfno tlf telf telef fone telem\u00f3vel telemovel telefoonnummer gsm kom "
    "contato contacto contatto kontakt \u0647\u0627\u062a\u0641\u064a "
    "\u062c\u0648\u0627\u0644\u064a "
    # "Call (me)" of Spanish, Portuguese, Italian, French and Arabic.
    "ll\u00e1mame llame llamar ligue ligar chiamami chiamare appelez appeler "
    "\u0627\u062a\u0635\u0644 "
    # Polish "call" (zadzwo\u0144, dzwo\u0144, zadzwoni\u0107; "pod numer" may follow, see
    # _UNDER), as decomposed text reads once its accents are passed over too.
    "zadzwo\u0144 zadzwon dzwo\u0144 zadzwoni\u0107 zadzwonic dzwoni\u0107 dzwonic "
    # Chinese, Japanese and Korean "call", "dial", "contact", "hotline".
    "\u81f4\u7535 \u62e8\u6253 \u64a5\u6253 \u8054\u7cfb \u806f\u7d61 \u70ed\u7ebf "
    "\u71b1\u7dda \u9023\u7d61\u5148 \uc5f0\ub77d\ucc98"
)
_CARD_LABELS = (
    "card cards visa mastercard amex discover jcb diners maestro unionpay credit debit cc pan "
    "payment paid charged charge kreditkarte carte "
    # Spanish, Portuguese, Italian, Polish, Dutch, Turkish, Russian, Japanese,
    # Chinese, Korean and Arabic ("card", "credit").
    "tarjeta cart\u00e3o cartao carta karta kaart kart kredi kredyt cr\u00e9dito credito "
    "\u043a\u0430\u0440\u0442\u0430 \u043a\u0430\u0440\u0442\u044b \u30ab\u30fc\u30c9 "
    "\u5361 \u5361\u53f7 \uce74\ub4dc \u0628\u0637\u0627\u0642\u0629 "
    "\u0627\u0644\u0628\u0637\u0627\u0642\u0629"
)
_SSN_LABELS = "ssn ssns itin social security"
_IP_LABELS = (
    "ip ips ipv4 host hostname server gateway gw dns resolver router subnet ping ssh connect "
    "connected proxy client peer node lan wan vpn whitelisted blocked"
)
# Labels that name a number which is no personal data.
_OTHER_LABELS = (
    "order orders invoice inv receipt ref reference ticket case tracking isbn issn ean upc "
    "serial sku id po transaction txn item part model version release build revision rev v "
    "section sec chapter clause paragraph article art rule step figure fig table page "
    "\u00a7 customer member policy claim booking confirmation batch lot zip postcode patent "
    "doi rfc iso oid sn count "
    # The same in German, French, Spanish, Portuguese, Italian and Dutch.
    "kapitel abschnitt absatz artikel seite chapitre paragraphe cap\u00edtulo capitulo "
    "secci\u00f3n seccion art\u00edculo articulo p\u00e1gina pagina versi\u00f3n vers\u00e3o "
    "capitolo sezione articolo versione hoofdstuk"
)
# Abbreviations of another number that are also common words of other
# languages (Spanish and Portuguese "para", "to": ``Ligue para +55 11
# 91234-5678``; "ver", "see"): they name a section or a version only before
# what reads as one, an IPv4 address (``para 4.1.2.3``, ``ver 1.2.3.4``).
_SECTION_LABELS = "para ver"
#: Label word -> the kind of number it announces.
_LABELS: dict[str, str] = {
    word: kind
    for kind, words in (
        ("other", _OTHER_LABELS),
        ("section", _SECTION_LABELS),
        ("ip", _IP_LABELS),
        ("card", _CARD_LABELS),
        ("phone", _PHONE_LABELS),
        ("ssn", _SSN_LABELS),
    )
    for word in words.split()
}
# A label of a script written without spaces (or Hangul) is no word of its
# own: the words before it and a particle after it are in its run of letters
# (\u6211\u7684\u7535\u8bdd\u662f, "my phone is"; \u8054\u7cfb\u7535\u8bdd;
# \u643a\u5e2f\u756a\u53f7\u306f; \uc804\ud654\ubc88\ud638\ub294), which reads as that label
# when it ends with one, then possibly "number" and a particle ("is", topic,
# subject).  A run is at most CONTEXT characters long: linear.
_GLUED_LABEL = re.compile(
    "("
    + "|".join(sorted((w for w in _LABELS if re.fullmatch(f"[{_GLUED}]+", w)), key=len)[::-1])
    + ")(?:\u756a\u53f7|\u53f7\u7801|\u865f\u78bc|\ubc88\ud638)?"
    "[\u306f\u304c\u662f\u4e3a\u70ba\ub294\uc740\uc774\uac00]?\\Z"
)
#: Quotes around a key and its value in code (``{"phone": "2147483647"}``,
#: ``phone='2147483647'``) or in prose (``Phone: \u201c2147483647\u201d``).
_QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019")
#: Words and marks that may stand between a label and its number; Markdown's
#: too (``**SSN:** 078051120``, a table row ``| SSN | 078051120 |``), and
#: quotes (:data:`_QUOTES`).
_FILLERS = frozenset(
    "no number num nr is at on me us my our the with address of unter au".split()
    # "number" in Russian and Ukrainian, Greek, Turkish ("Telefon numaras\u0131").
    + (
        "\u043d\u043e\u043c\u0435\u0440 \u03b1\u03c1\u03b9\u03b8\u03bc\u03cc\u03c2 "
        "\u03b1\u03c1\u03b9\u03b8\u03bc\u03bf\u03c2 numara numaras\u0131 numarasi "
        # Hindi "number" (nambar, sankhya) and "do" (karen: "sampark karen",
        # contact us), their marks dropped.
        "\u0928\u092c\u0930 \u0938\u0916\u092f \u0915\u0930 "
        # "is", "the", "my", "at" and "number" of Spanish, Italian, Portuguese,
        # French, German, Dutch, Polish, Turkish ("numaram", my number),
        # Arabic (huwa, ala, bina, raqm) and Korean (beonho): "Mi tel\u00e9fono es el
        # 612 345 678" reads as "My phone is the ..." does.
        "es el la al mi n\u00famero numero \u00e8 il mio \u00e9 meu minha est le mon ma moi "
        "ist lautet mein meine nummer op mijn numer numerem jest numaram "
        "\u0647\u0648 \u0639\u0644\u0649 \u0628\u0646\u0627 \u0631\u0642\u0645 \ubc88\ud638"
    ).split()
    + list(":#.,()-=/|*`")
    + list(_QUOTES)
)
#: Words that say whose or which number a label names, in parentheses between
#: the label and its number (``Phone (work): 612 345 678``, ``Tel. (Büro)``):
#: English, German, French, Spanish, Portuguese, Italian, Dutch and Polish.
_QUALIFIERS = frozenset(
    "work home office private business personal main direct day daytime evening night "
    "emergency landline toll free "
    "arbeit b\u00fcro buero buro privat gesch\u00e4ftlich geschaftlich dienstlich zuhause "
    "travail bureau domicile priv\u00e9 prive perso pro professionnel "
    "trabajo oficina casa particular trabalho escrit\u00f3rio escritorio residencial comercial "
    "ufficio lavoro privato werk thuis kantoor "
    "praca dom biuro prywatny s\u0142u\u017cbowy s\u0142uzbowy sluzbowy domowy -".split()
)
#: At most this many words and marks in such parentheses.
_QUALIFIED = 4
#: Labels only when written as an abbreviation, a period then a colon after them:
#: Spanish and Portuguese "Cel.:" (celular) is Polish "Cel:" (goal) without its
#: period (``Cel: 100 000 000 u\u017cytkownik\u00f3w``).
_ABBREVIATED_LABELS = {"cel": "phone"}
#: Polish call verbs, after which "pod" ("at", of a number) stands before the
#: number (``Zadzwo\u0144 pod numer 600 123 456``, ``Dzwo\u0144 do nas pod nr ...``): only
#: there is "pod" a filler (elsewhere it is "under", and "to" in English).
_CALL_VERBS = frozenset(
    "zadzwo\u0144 zadzwon dzwo\u0144 zadzwoni\u0107 zadzwonic dzwoni\u0107 dzwonic".split()
)
_UNDER = "pod"


def _under_after_a_call(words: list[tuple[int, str]], i: int) -> int:
    """How many words read backward from ``words[i]`` stand between "pod" and
    a Polish call verb (none, or "do nas", "do mnie": "call us"); -1 if
    no call verb is there."""
    after = [w for _, w in words[i : i + 3]]
    if after[:1] and after[0] in _CALL_VERBS:
        return 0
    if len(after) == 3 and after[0] in ("nas", "mnie") and after[1] == "do":
        return 2 if after[2] in _CALL_VERBS else -1
    return -1


# An HTML tag with no attribute is one token, a filler: a label in an HTML
# table or in bold (``<td>Phone</td><td>2147483647</td>``, ``<b>SSN:</b> ...``),
# and an opening tag named by a label is that label (``<phone_number>``, see _words).
_TAG = r"</?[A-Za-z][A-Za-z0-9_]{0,30} ?/?>"
_IS_TAG = re.compile(_TAG)
_TOKEN = re.compile(_TAG + r"|[^\W\d_]+|\d+|[^\w\s]")


def _label_match(text: str, start: int) -> tuple[int, str]:
    """Offset and kind of the label right before ``text[start:]`` (``start, ""`` if none).

    The label is the last word before ``start`` on the same line, within
    :data:`CONTEXT` characters, with only filler words and marks
    (:data:`_FILLERS`, HTML tags with no attribute) after it.  A label for
    another number ("other", "section") counts only outside quotes: a quoted
    key in code is often one short word (``{"v": "4111111111111111"}``,
    ``"id": ...``) that says nothing of a value that has the shape of
    personal data on its own.
    """
    line_start = text.rfind("\n", max(0, start - CONTEXT), start) + 1
    offset = max(line_start, start - CONTEXT)
    quoted = False
    words = [
        (m.start(), word)
        for m in reversed(list(_TOKEN.finditer(text, offset, start)))
        for word in reversed(_words(m.group()))
    ]
    i = 0
    while i < len(words):
        at, word = words[i]
        i += 1
        kind = _LABELS.get(word)
        if kind is None and word in _ABBREVIATED_LABELS and i >= 3:
            if words[i - 2][1] == "." and words[i - 3][1] == ":":
                kind = _ABBREVIATED_LABELS[word]  # (Cel.: 612 345 678)
        if kind is not None:
            other = kind in ("other", "section")
            return (start, "") if quoted and other else (at, kind)
        if word == _UNDER and (between := _under_after_a_call(words, i)) >= 0:
            i += between
            continue  # (Zadzwo\u0144 pod numer ..., Zadzwo\u0144 do nas pod nr ...)
        if word == ")":  # (a qualifier in parentheses: "Phone (work): ...")
            inside = [w for _, w in words[i : i + _QUALIFIED + 1]]
            if "(" in inside[1:] and all(w in _QUALIFIERS for w in inside[: inside.index("(")]):
                i += inside.index("(") + 1
                continue
        if word not in _FILLERS and not _IS_TAG.fullmatch(word):
            return start, ""
        quoted = quoted or word in _QUOTES
    return start, ""


# The kinds of label that name personal data (a tag <section> or <table> is no label).
_PERSONAL = frozenset(("phone", "card", "ssn", "ip"))
# The words of a camelCase name (phoneNumber, creditCardNo, SSNValue).
_CAMEL_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _words(token: str) -> list[str]:
    """The words, in lower case, that a token of :data:`_TOKEN` holds: a
    camelCase name holds its parts (``"phoneNumber": ...`` is labelled by
    ``phone``) unless it is a label whole (``WhatsApp``, ``UnionPay``), and
    an opening HTML or XML tag its name (``<phone>``, ``<phone_number>``:
    read as a label when it names personal data, else as a filler, as a
    closing tag is: ``<section>``, ``<table>`` veto nothing); a run of a
    script written without spaces that ends with a label, that label (see
    :data:`_GLUED_LABEL`)."""
    if token[0] == "<" and len(token) > 1:  # (a tag; a lone "<" is a mark)
        names = [w for piece in token[1:].rstrip(" />").split("_") if piece for w in _words(piece)]
        if token[1] == "/" or not any(_LABELS.get(w) in _PERSONAL for w in names):
            return [token.lower()]
        return names
    if token.lower() in _LABELS:
        return [token.lower()]  # (a name written in camelCase: WhatsApp, UnionPay)
    if not token.isascii():
        glued = _GLUED_LABEL.search(token)
        if glued is not None:
            return [glued.group(1)]  # (电话是, 联系电话: see _GLUED_LABEL)
    parts = _CAMEL_PARTS.findall(token) if token.isascii() else []
    if len(parts) < 2 or len("".join(parts)) != len(token):
        return [token.lower()]
    return [part.lower() for part in parts]


def label_start(text: str, start: int) -> int:
    """Where the label read as the context of an entity at ``start`` begins
    (``start`` if none), read as the detectors read it: invisible characters
    passed over (``Pho\u200bne:``), :data:`FOLD` (``\u96fb\u8a71\uff1a`` is
    ``\u96fb\u8a71:``).  Reads at most ``8 * CONTEXT`` characters before ``start``."""
    offset = max(0, start - 8 * CONTEXT)
    shown, where = _without_invisible(text[offset:start])
    at = _label_match(shown.translate(FOLD), len(shown))[0]
    if at == len(shown):
        return start
    return offset + (at if where is None else where[at])


def label_open(text: str) -> bool:
    """Whether ``text`` ends with a label of personal data that a number
    after it (on the same line) would read as its context: a phone, card,
    SSN or address label, possibly followed by filler words and marks
    (``Cell.``, ``Call me``, ``Phone (work):``, ``\u96fb\u8a71\u3002``).  Read as the
    detectors read text (invisible characters passed over, :data:`FOLD` and
    its readings), its last :data:`CONTEXT` characters only."""
    shown = _without_invisible(text)[0][-CONTEXT:]
    return any(_ends_with_label(reading) for reading in _readings(shown))


#: Characters a sentence may end at with no whitespace after (ideographic and
#: full-width full stops, full-width "!" and "?"; the accurate sentence
#: chunker ends one there) that the detectors read as the dot, "!" or "?" an
#: entity may hold (see :data:`FOLD`, :data:`AMBIGUOUS`).
_GLUED_STOPS = frozenset(chr(cp) for cp, to in _AS_WRITTEN.items() if to in ".!?" and cp > 0x7F)
#: What an entity's word may end with before such a stop: a letter, digit or
#: atext mark, or the ")" of a phone number's area code (a letter of a script
#: written without spaces only in a word holding an "@", see :func:`entity_open`).
_ENTITY_CHARACTER = re.compile(r"[)" + _ATEXT + r"]")


def entity_open(text: str) -> bool:
    """Whether an entity may go on after the end of ``text``, with no
    whitespace between: ``text`` ends with characters of :data:`_GLUED_STOPS`
    right after a letter, digit or mark an entity holds, but a letter of a
    script written without spaces, which ends a sentence there
    (``\u3067\u3059\u3002``), unless they are inside a domain (an address's
    domain in that script: ``\u7528\u6237@\u4f8b\u5b50\u3002``; see
    :func:`_glued_stop_joins`, which reads back :data:`LONGEST_ENTITY`
    characters, as the detectors do).  So ``+44
    20\u3002`` (``+44 20\u30027946 0958``), ``jo@b\u00fccher\u3002``, ``Taro\u3002``
    (the local part ``Taro\u3002Yamada...@example.jp``) and ``jo\uff01`` (a
    full-width ``jo!ann@example.com``) are open.  Read as the detectors read
    text (invisible characters passed over, :data:`FOLD` and
    :data:`AMBIGUOUS` as written), its last :data:`CONTEXT` characters only
    but for that domain."""
    if not text or text[-1].isascii():
        return False  # (what most chunks end with: read no further)
    shown = _without_invisible(text[-CONTEXT:])[0]
    end = len(shown)
    while end and shown[end - 1] in _GLUED_STOPS:
        end -= 1
    if end == len(shown) or end == 0:
        return False
    last = _last_character(shown[:end].translate(_AS_WRITTEN))
    if last is None or _HAS_GLUED.fullmatch(last) is None:
        return last is not None
    # (After a letter of such a script: open only inside a domain, read back
    # as far as the detectors read, see _glued_stop_joins.)
    shown = _without_invisible(text[-READ_BACK:])[0]
    end = len(shown)
    while shown[end - 1] in _GLUED_STOPS:
        end -= 1
    return _glued_stop_joins(shown[:end].translate(_AS_WRITTEN))


def _last_character(before: str) -> str | None:
    """The last character of the last word of ``before`` (what a run of
    :data:`_GLUED_STOPS` follows, read as the detectors read it), if an entity
    may hold it (:data:`_ENTITY_CHARACTER`); else None: the run ends a
    sentence, as the sentence chunker reads it (``\u3001\uff01``, or a run at
    the start of a text)."""
    word = before.rsplit(None, 1)[-1] if before.strip() else ""
    return word[-1] if word and _ENTITY_CHARACTER.fullmatch(word[-1]) else None


#: How far back (in characters as written) :func:`entity_open` reads for the
#: domain before a full stop: the :data:`LONGEST_ENTITY` characters
#: :func:`_domains_ended` reads, and room for invisible characters among them.
READ_BACK = 2 * LONGEST_ENTITY
_SPACE = re.compile(r"\s")


def _glued_stop_joins(before: str) -> bool:
    """Whether a full stop (:data:`_GLUED_STOPS`) right after a letter of a
    script written without spaces is a dot of a domain, ``before`` being the
    text before it as the detectors read it: its last :data:`LONGEST_ENTITY`
    characters hold an ``@``, and what follows the last ``@`` holds no
    whitespace, nor, after a dot, a letter of another script right before such
    a letter (an address glued to a word, which :func:`_trimmed` cuts off:
    ``jo@example.com\u3067\u3059``): ``\u7528\u6237@\u4f8b\u5b50\u3002\u5e7f\u544a``,
    ``jo@example\u4f8b\u5b50\u3002\u5e7f\u544a``.  Elsewhere it ends a sentence,
    as the sentence chunker reads it (``\u3067\u3059\u3002``,
    ``\u7528\u6237\u3002\u540d@example.cn``, ``jo@example.com\u3067\u3059\u3002``)."""
    before = before[-LONGEST_ENTITY:]
    at = before.rfind("@")
    if at < 0 or _SPACE.search(before, at + 1) is not None:
        return False
    dot = before.find(".", at + 1)
    return dot < 0 or _GLUED_TAIL.search(before, dot + 1) is None


def _ends_with_label(text: str) -> bool:
    last = _TOKEN.findall(text.rsplit(None, 1)[-1] if text.strip() else "")
    if not last:
        return False
    word = _words(last[-1])[-1]
    if (word in _QUALIFIERS or word in _UNDER_OPENERS) and any(
        _label_match(t, len(t))[1] in _PERSONAL for t in _completed(text, word)
    ):
        # Inside a label of several words: read as the shortest text that
        # completes it would be (``Phone (home`` + ``)``, ``Zadzwo\u0144 do``
        # + `` nas pod``).
        return True
    if (
        word not in _LABELS
        and word not in _FILLERS
        and word not in _ABBREVIATED_LABELS
        and word not in (")", _UNDER)
        and not _IS_TAG.fullmatch(word)
    ):
        return False  # (what most chunks end with: read no further)
    if _label_match(text, len(text))[1] in _PERSONAL:
        return True
    # ``Cel.`` is a label once its colon follows (``Cel. : 612 345 678``).
    return word == "." and _ABBREVIATION_OPEN.search(text) is not None


#: Words that may stand between a Polish call verb and "pod" (see
#: :func:`_under_after_a_call`), and the shortest ends of the label after each.
_UNDER_OPENERS = {"do": (" nas pod",), "nas": (" pod",), "mnie": (" pod",)}
#: An abbreviated label (:data:`_ABBREVIATED_LABELS`) and its period, its colon still to come.
_ABBREVIATION_OPEN = re.compile(
    r"(?<![^\W_])(?:" + "|".join(_ABBREVIATED_LABELS) + r")\s*\.\s*\Z", re.IGNORECASE
)


def _completed(text: str, word: str) -> list[str]:
    """``text`` (ending with ``word``) with each shortest end that would make
    the label of several words it may be inside complete: a qualifier's
    closing parenthesis, "pod" after a Polish call verb and "do nas"."""
    ends = [")"] if word in _QUALIFIERS else []
    return [text + end for end in [*ends, *_UNDER_OPENERS.get(word, ())]]


def _verb_before(text: str, at: int, start: int) -> bool:
    """Whether the label at ``at`` (:func:`_label_match`) is a verb label
    (:data:`_VERB_LABELS`) right before ``text[start:]``, only whitespace
    between (``reach 2 500 000``, not ``call me on ...``)."""
    token = _TOKEN.match(text, at) if at < start else None
    return (
        token is not None
        and text[token.end() : start].isspace()
        and _words(token.group())[-1] in _VERB_LABELS
    )


def _label(text: str, start: int) -> str:
    """The kind of the label right before ``text[start:]``.

    One of phone, card, ip, ssn, other, section (another number, but only
    for an IPv4 address) or "".
    """
    return _label_match(text, start)[1]


@dataclass(frozen=True, slots=True)
class Entity:
    """One entity found: ``text[start:end]`` is of kind ``name``."""

    start: int
    end: int
    name: str

    @property
    def placeholder(self) -> str:
        return PLACEHOLDERS[self.name]


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) check of a string of decimal digits."""
    total = 0
    for i, char in enumerate(reversed(digits)):
        d = ord(char) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


#: IBAN length by country (ISO 13616 registry).
_IBAN_LENGTHS = dict(
    (item[:2], int(item[2:]))
    for item in (
        "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 "
        "DE22 DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 "
        "GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 "
        "LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 "
        "PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 "
        "SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30"
    ).split()
)


def iban_valid(iban: str) -> bool:
    """Country length and ISO 7064 mod 97-10 check of a compact IBAN (upper case)."""
    if _IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


_GROUPS = re.compile("[0-9]+")
# Number candidates hold digits and these separators only.
_SEPARATORS = str.maketrans("", "", " \t.-/_()+")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The address ``text[start:end]`` without what the pattern took in around it:

    * the URL it ends: a local part that starts with ``//`` or holds a query
      key (``?email=``, ``&to=``) starts after its last ``/``, ``?``, ``&``
      or ``=`` (``https://example.com/unsubscribe?email=jo@example.com``);
    * a word of a script written without spaces (or Hangul) glued to it:
      before its local part (``メールはjo@example.com``, up to the last
      letter of that script that a letter of another script follows) and
      after its top-level domain (``jo@example.comです``, from the first
      letter of that script after a letter of another one), when at least
      two letters of the top-level domain are left.  An address all in such
      a script (``用户@例子.广告``) is kept whole: nothing tells where its
      words end.

    O(len(address))."""
    candidate = text[start:end]
    at = candidate.rindex("@")
    local = candidate[:at]
    if local.startswith("//") or _QUERY_KEY.search(local):
        cut = max(map(local.rfind, "/?&=")) + 1
        if cut < at:
            start += cut
            candidate = candidate[cut:]
            at -= cut
    if _HAS_GLUED.search(candidate) is None:
        return start, end
    lead = _GLUED_LEAD.match(candidate, 0, at)
    tld = candidate.rindex(".") + 1
    tail = _GLUED_TAIL.search(candidate, tld)
    if tail is not None and tail.end() - tld >= 2:
        end = start + tail.end()
    return (start + lead.end() if lead else start), end


def _digits(candidate: str) -> str:
    return candidate.translate(_SEPARATORS)


Check = Callable[[str, str, int], bool]


def _email(candidate: str, text: str, start: int) -> bool:
    local, _, domain = candidate.rpartition("@")
    return len(candidate) <= LONGEST_ENTITY and len(local) <= 64 and len(domain) <= 253


# (A slash may follow the area code: 415/555-0123.)
_NANP = re.compile(
    (
        r"(?:\+?1[ .\-]?)?(?:\([2-9]\d\d\) ?|[2-9]\d\d(?:([ .\-])|/))"
        r"[2-9]\d\d(?(1)\1|[ .\-])\d{4}"
    ).replace(r"\d", "[0-9]")
)
# Trunk-0 national numbers in groups: 0 + area code, then one to four groups.
# In parentheses, a space may follow the 0 (DIN 5008's old style: (0 30) 1234567).
_TRUNK = re.compile(
    r"(?:\(0 ?[1-9][0-9]{0,4}\) ?|0[1-9][0-9]{0,4}[ .\-/])[0-9]{2,8}(?:[ .\-][0-9]{2,8}){0,3}"
)
_FRENCH = re.compile(r"0[1-9](?:([ .\-])[0-9]{2})(?:\1[0-9]{2}){3}")
_INDIAN = re.compile(r"(?:\+91[ \-]?)?[6-9][0-9]{4}[ \-][0-9]{5}")
_IBAN_HEAD = re.compile(r"(?<![\w.-])[A-Z]{2}[0-9]{2}(?: [A-Z0-9]{4})+ \Z")
_FOURS = re.compile(r"[0-9]{4}(?:[ \-][0-9]{4})+")
#: A round quantity grouped by thousands (``2 500 000``, ``100 000 000``): no
#: leading 0, groups of three apart by a space, the last ``000`` and the one
#: before it a round hundred.
_ROUND = re.compile(
    r"[1-9][0-9]{0,2}(?:[ \u00a0\u202f][0-9]{3})*[ \u00a0\u202f][0-9]00[ \u00a0\u202f]000"
)
#: Phone labels that are verbs also taking a quantity (``reach 2 500 000 users``).
_VERB_LABELS = frozenset("reach call calls called text ring dial contact".split())
_COMPACT_MOBILE = re.compile(r"01[5-7][0-9]{8,9}|07[0-9]{9}")
# Russian numbers dialled with the trunk prefix 8: an area code of three or
# four digits (in parentheses or not), then the local number in groups, its
# last two of two digits (8 (495) 123-45-67, 8 800 555 35 35, 8 (3812) 12-34-56).
_RUSSIAN_TRUNK = re.compile(
    r"8[ \-]?(?:\([3-9][0-9]{2}\) ?[0-9]{3}|\([3-9][0-9]{3}\) ?[0-9]{2}"
    r"|[3-9][0-9]{2}([ \-])[0-9]{3}|[3-9][0-9]{3}([ \-])[0-9]{2})"
    r"([ \-])[0-9]{2}\3[0-9]{2}"
)
# The same numbers without the trunk prefix, and Turkish ones without their
# trunk 0 ((532) 123 45 67; with it, see _TURKISH): an area code of three
# digits in parentheses, or of four, or of three joined by hyphens, then the
# local number with its last two groups of two digits ((495) 123-45-67,
# (212) 123 45 67, (3812) 12-34-56, 495 123-45-67).
_TWO_TWO = re.compile(
    r"\([2-9][0-9]{2}\) ?[0-9]{3}([ \-])[0-9]{2}\1[0-9]{2}"
    r"|\([3-9][0-9]{3}\) ?[0-9]{2}([ \-])[0-9]{2}\2[0-9]{2}"
    r"|[3-9][0-9]{2} [0-9]{3}-[0-9]{2}-[0-9]{2}"
)
# Turkish numbers with their trunk 0 apart from the area code (in parentheses
# or not): 0 (212) 555 12 34, 0(212) 555 12 34, 0 532 123 45 67, 0-532-123-45-67.
_TURKISH = re.compile(
    r"0(?: ?\([2-58][0-9]{2}\) ?|([ \-])[2-58][0-9]{2}\1)[0-9]{3}([ \-])[0-9]{2}\2[0-9]{2}"
)
# Japanese numbers with the exchange in parentheses: 03(3581)3111.
_JAPANESE = re.compile(r"0[1-9][0-9]{0,3}\([0-9]{1,4}\)[0-9]{4}")
# Mobiles of China (138 0013 8000, 13800138000) and Brazil ((11) 91234-5678).
_CHINESE_MOBILE = re.compile(r"1[3-9][0-9](?:([ \-]?)[0-9]{4}\1[0-9]{4})")
_BRAZILIAN_MOBILE = re.compile(r"\([1-9][0-9]\) ?9[0-9]{4}-[0-9]{4}")
# Dialled from abroad: "00" and a country code, then groups (0049 30 1234567),
# possibly the trunk "(0)" first (0049 (0)30 1234567), as after "+".
# Written compact, or with a space after "00", it reads as often as an
# identifier or a hex dump.
_DIALLED_ABROAD = re.compile(
    r"00[1-9][0-9]{0,2}(?: ?\(0\)[ .\-]?[0-9]{1,12}(?:[ .\-][0-9]{1,12}){0,5}"
    r"|(?:[ .\-][0-9]{1,12}){1,6})"
)


def _spaced(candidate: str, text: str, start: int, label: str) -> bool | None:
    """Whether ``candidate``, if written one digit at a time with a space
    between (``4 1 1 1 ...``), is a number of the kind ``label`` names; None
    for any other candidate.  A run of one-digit numbers is a list (bits,
    scores) unless a label says which number it spells."""
    if not _SPACED_ONLY.fullmatch(candidate):
        return None
    return _label(text, start) == label


def _phone(candidate: str, text: str, start: int) -> bool:
    digits = _digits(candidate)
    if not 7 <= len(digits) <= 15 or len(set(digits)) == 1:
        return False  # 000 000 0000
    spaced = _spaced(candidate, text, start, "phone")
    if spaced is not None:
        return spaced
    groups = _GROUPS.findall(candidate)
    at, label = _label_match(text, start)
    if label == "other":
        return False
    if len(groups) > 1 and len(groups[-1]) == 1:
        # An ISBN's check digit, but for a number grouped in pairs from the
        # left, its last digit alone (+49 30 12 34 56 7, Tel. 030 12 34 56 7),
        # where a phone label or a "+" opens it: the digit was left in sight.
        paired = len(groups[-2]) == 2 and candidate[-4:] == groups[-2] + " " + groups[-1]
        if not (paired and (label == "phone" or candidate.startswith(("+", "(+")))):
            return False
    if candidate.startswith(("+", "(+")):
        return 8 <= len(digits) <= 15 and digits[0] != "0"
    if label != "phone" and _IBAN_HEAD.search(text, max(0, start - 40), start):
        return False  # the tail of an IBAN in groups (one whose checksum failed)
    if label == "phone":
        if _ROUND.fullmatch(candidate) and _verb_before(text, at, start):
            return False  # a quantity: "reach 2 500 000 users"
        # Not an IPv4 address, not groups of four digits (a card number cut short).
        return not _IPV4.fullmatch(candidate) and not _FOURS.fullmatch(candidate)
    if len(digits) < 9:
        return False
    patterns = (
        *(_NANP, _TRUNK, _FRENCH, _INDIAN, _COMPACT_MOBILE),
        *(_DIALLED_ABROAD, _CHINESE_MOBILE, _BRAZILIAN_MOBILE, _RUSSIAN_TRUNK, _TWO_TWO),
        *(_TURKISH, _JAPANESE),
    )
    # Groups joined by a hyphen or a slash between spaces (415 - 555 - 0123,
    # 030 / 123 456 78) are read as joined by the hyphen or the slash.
    shape = candidate.replace(" - ", "-").replace(" / ", "/")
    return any(p.fullmatch(shape) for p in patterns)


# Card brands: (prefix ranges, lengths).
_BRANDS: tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...] = (
    (((4, 4),), (16, 19)),  # Visa (13-digit Visa only with a label)
    (((51, 55), (2221, 2720)), (16,)),  # Mastercard
    (((34, 34), (37, 37)), (15,)),  # American Express
    (((6011, 6011), (644, 649), (65, 65)), (16, 17, 18, 19)),  # Discover
    (((3528, 3589),), (16, 17, 18, 19)),  # JCB
    (((300, 305), (36, 36), (38, 39)), (14, 15, 16)),  # Diners Club
    (((62, 62),), (16, 17, 18, 19)),  # UnionPay
    (((50, 50), (56, 69)), (16, 17, 18, 19)),  # Maestro
)


def _branded(digits: str) -> bool:
    for ranges, lengths in _BRANDS:
        if len(digits) in lengths:
            for low, high in ranges:
                width = len(str(low))
                if low <= int(digits[:width]) <= high:
                    return True
    return False


def _card(candidate: str, text: str, start: int) -> bool:
    digits = _digits(candidate)
    if not (13 <= len(digits) <= 19 and luhn_valid(digits)) or digits[0] == "0":
        return False
    spaced = _spaced(candidate, text, start, "card")
    if spaced is not None:
        return spaced
    label = _label(text, start)
    if label == "card":
        return True
    if not _CARD_SEPARATORS.issuperset(candidate.strip("0123456789")[:1]):
        return False  # (groups joined by ".", "_", "/" or a tab: only after a card label)
    return label != "other" and len(digits) > 13 and _branded(digits)


def _iban(candidate: str, text: str, start: int) -> bool:
    return iban_valid(candidate.replace(" ", "").replace("-", ""))


# A separator and a digit right after a number: the rest of a longer one.
_GROUP_AFTER = re.compile(r"[.\-][0-9]")


def _ssn(candidate: str, text: str, start: int) -> bool:
    digits = _digits(candidate)
    if digits[:3] in ("000", "666") or digits[3:5] == "00" or digits[5:] == "0000":
        return False  # never issued (area, group, serial)
    if len(set(digits)) == 1:
        return False
    label = _label(text, start)
    if label == "ssn":
        return True  # (an area 9xx: an ITIN, the taxpayer number of the same shape)
    return (
        label not in ("other", "phone")
        and _GROUP_AFTER.match(text, start + len(candidate)) is None
        and digits[0] != "9"
        and _SSN_DASHED.fullmatch(candidate) is not None
    )


_PORT_OR_PREFIX = re.compile(r"(?::[0-9]{1,5}|/[0-9]{1,2})(?![0-9])")


# Four octets each padded to three digits (192.168.001.001, as fixed-width
# logs and some routers print them), not ending in ".000": a round number
# with thousands separators (100.000.000.000) is no address.
_PADDED_IPV4 = re.compile(r"(?:[0-9]{3}\.){3}(?!000)[0-9]{3}")


def _ipv4(candidate: str, text: str, start: int) -> bool:
    if _PADDED_IPV4.fullmatch(candidate):
        candidate = ".".join(str(int(octet)) for octet in candidate.split("."))
    try:
        ipaddress.IPv4Address(candidate)
    except ValueError:
        return False
    label = _label(text, start)
    if label in ("other", "section"):
        return False
    if all(len(octet) == 1 for octet in candidate.split(".")):
        # 6.1.7.1 reads as a version or a section number as often as an address.
        end = start + len(candidate)
        return label == "ip" or _PORT_OR_PREFIX.match(text, end) is not None
    return True


def _ipv6(candidate: str, text: str, start: int) -> bool:
    if not any(c in "0123456789abcdefABCDEF" for c in candidate):
        return False
    if (
        not any(c.isdigit() for c in candidate)
        and len(candidate.replace("::", ":").strip(":").split(":")) < 3
    ):
        return False  # a path of code (Add::add, ace::bed), not an address
    try:
        ipaddress.IPv6Address(candidate)
    except ValueError:
        return False
    return True


_DETECTORS: dict[str, tuple[re.Pattern[str], Check]] = {
    "email": (_EMAIL, _email),
    "phone": (_PHONE, _phone),
    "card": (_CARD, _card),
    "iban": (_IBAN, _iban),
    "ipv4": (_IPV4, _ipv4),
    "ipv6": (_IPV6, _ipv6),
    "ssn": (_SSN, _ssn),
}


_ONE_DIGIT_GROUP = re.compile(r"[.\-][0-9]\Z")


# Two card-sized numbers joined by a separator of groups
# (4111111111111111/5500000000000004), which the card pattern reads as one
# candidate of two groups: the first is tried alone.
_JOINED_CARDS = re.compile(r"([0-9]{13,19})[\t./_-][0-9]{13}")


def _iban_before_a_word(scan: str, cased: str, start: int, end: int) -> int | None:
    """End of the IBAN of its country's length that starts at ``start`` in
    ``scan`` (read in upper case) and ends before ``end``, if ``cased`` (the
    same text in its own case) has a capitalised word glued to it there (the
    next sentence with its space left out: ``DE89 3704 0044 0532 0130
    00Thanks``); else None.  O(end - start)."""
    length = _IBAN_LENGTHS.get(scan[start : start + 2])
    if length is None:
        return None
    count = 0
    for i in range(start, end):
        if scan[i] in _IBAN_CHARACTERS:
            count += 1
            if count == length:
                after = cased[i + 1 : i + 3]
                glued = len(after) == 2 and after[0] in _CAPITALS and after[1] in _SMALL
                return i + 1 if glued and i + 1 < end else None
    return None


def _accepted_end(
    text: str, m: re.Match[str], pattern: re.Pattern[str], check: Check, cased: str | None = None
) -> int | None:
    """End of the longest prefix of candidate ``m`` that is an entity, if any.

    A pattern for grouped numbers may swallow a number or a word that follows
    the entity ("... 1111 1111 10 times", "... 1332 CASH"): after the whole
    candidate, each prefix ending before a space inside it (or a ``/``, for a
    phone number: two joined by one) is tried, longest first, as long as the
    pattern still matches it exactly.  A phone number is first tried without
    each last group of one digit joined by ``.`` or ``-`` (no phone number
    ends in one, see ``_phone``): ``+44 20 7946 0958.1`` is the number
    ``+44 20 7946 0958``, not ``+44 20 7946`` with ``0958`` left in sight.
    Two card numbers joined by one separator (``/``, ``-``, ``.``...) are a
    candidate whose first number is tried last (:data:`_JOINED_CARDS`).  An
    IBAN (``text`` read in upper case, ``cased`` as written) is tried last
    at its country's length when a capitalised word is glued after it there
    (:func:`_iban_before_a_word`): in upper case the word reads as more of
    the IBAN.
    """
    start = m.start()
    ends = [m.end()]
    cuts = " "
    if pattern is _PHONE or pattern is _NEXT_PHONE:
        cuts = " /"
        while _ONE_DIGIT_GROUP.match(text, ends[-1] - 2, ends[-1]) and ends[-1] - 2 > start:
            ends.append(ends[-1] - 2)
    ends += [i for i in range(ends[-1] - 1, start, -1) if text[i] in cuts]
    if (pattern is _CARD or pattern is _NEXT_CARD) and (
        joined := _JOINED_CARDS.match(text, start, m.end())
    ) is not None:
        ends.append(joined.end(1))  # (then the second, by _CHAINS)
    if cased is not None and (glued := _iban_before_a_word(text, cased, start, m.end())):
        ends.append(glued)
    for end in ends:
        if not check(text[start:end], text, start):
            continue
        exact = m if end == m.end() else pattern.match(text, start, end)
        if exact is not None and exact.end() == end:
            return end
    return None


#: Entity name -> (what may join two of them, the pattern of the next one): a
#: chain the search does not find, since each pattern refuses to start there.
_CHAINS: dict[str, tuple[frozenset[str], re.Pattern[str]]] = {
    "email": (_EMAIL_JOINERS, _NEXT_EMAIL),  # a@x.com|b@y.org|c@z.net
    "phone": (frozenset("/"), _NEXT_PHONE),  # 415-555-0123/415-555-0124
    "card": (frozenset("\t./_-"), _NEXT_CARD),  # 4111111111111111-5500000000000004
}


#: An entity found: ``(start, -end, rank in ENTITIES, name)``, so that
#: sorting puts the first, then the longest, then the one listed first, first.
_Found = tuple[int, int, int, str]


def _chained(name: str, text: str, end: int, found: list[_Found], chained: set[int]) -> None:
    """Add to ``found`` the entities of kind ``name`` joined to the one ending
    at ``end`` by one joiner each (:data:`_CHAINS`), and their starts to
    ``chained``: O(their length).  The search finds an address joined by
    ``'`` or a backquote too; it skips those in ``chained``, so that each
    chain is read once (``a@x.co'a@x.co'...`` was quadratic)."""
    joiners, pattern = _CHAINS[name]
    check = _DETECTORS[name][1]
    rank = ENTITIES.index(name)
    while end + 1 < len(text) and text[end] in joiners:
        m = pattern.match(text, end + 1)
        if m is None or (next_end := _accepted_end(text, m, pattern, check)) is None:
            return
        if name == "email":
            next_end = _trimmed(text, m.start(), next_end)[1]
        found.append((m.start(), -next_end, rank, name))
        chained.add(m.start())
        end = next_end


@lru_cache(maxsize=64)
def _shown_runs(hidden: str) -> re.Pattern[str]:
    return re.compile(f"[^{re.escape(hidden)}]+")


def _without_invisible(text: str) -> tuple[str, list[int] | None]:
    """``text`` without the characters that render as nothing and the
    combining marks, and the offset in ``text`` of each character kept
    (``None`` when nothing is dropped).  O(len(text)); ASCII text costs one
    check."""
    if text.isascii():
        return text, None
    hidden = "".join(sorted(c for c in set(text) if is_ignorable_or_mark(c)))
    if not hidden:
        return text, None
    return _kept(text, (m.span() for m in _shown_runs(hidden).finditer(text)))


def _kept(text: str, spans: Iterable[tuple[int, int]]) -> tuple[str, list[int]]:
    """The characters of ``text`` in ``spans`` (in order, not overlapping),
    and the offset in ``text`` of each."""
    where: list[int] = []
    for start, end in spans:
        where.extend(range(start, end))
    return "".join(map(text.__getitem__, where)), where


def _search(name: str, scan: str, found: list[_Found], cased: str | None = None) -> None:
    """Add to ``found`` the entities of kind ``name`` in ``scan`` (a reading of
    the text; for an IBAN, read in upper case, ``cased`` being that reading
    in its own case)."""
    pattern, check = _DETECTORS[name]
    pos = reach = 0
    chained: set[int] = set()
    while (m := pattern.search(scan, pos)) is not None:
        pos = m.start() + 1
        if m.start() < reach and scan[m.start() - 1] == "@":
            continue  # the domain of an address found
        if m.start() in chained:
            continue  # found, with the rest of its chain
        end = _accepted_end(scan, m, pattern, check, cased)
        if end is not None:
            start = m.start()
            if name == "email":
                start, end = _trimmed(scan, start, end)
            found.append((start, -end, ENTITIES.index(name), name))
            if name in _CHAINS:
                _chained(name, scan, end, found, chained)
            if name == "email":
                reach = max(reach, -found[-1][1])  # (the end of its chain)


def find_entities(text: str, entities: Iterable[str] = ENTITIES) -> list[Entity]:
    """The entities of the kinds ``entities`` in ``text``, by offset, never overlapping.

    Each candidate must pass its check (see the module docstring).  A
    candidate is tried at every position a pattern can start at, so entities
    found by different detectors, or a chance checksum match that begins inside
    a real entity, may overlap: overlapping entities are merged into one that
    covers them all (redacting a few characters too many never leaks one), named
    after the one that starts first (the longer, then the one listed first in
    :data:`ENTITIES`, if tied).
    """
    shown, where = _without_invisible(text)
    kept = _merged(_found(shown, entities) + _numbers_across_marks(shown, entities))
    if where is None:
        return kept
    return [Entity(where[e.start], where[e.end - 1] + 1, e.name) for e in kept]


#: Markdown emphasis, strike-through or code marks inside a number
#: (``**415**-555-0123``, ``4111 1111 **1111** 1111``): a run of ``*``,
#: ``__``, ``~~`` or backquotes after a digit and before a digit, a separator
#: of groups possibly between.
_MARKS_IN_A_NUMBER = re.compile(
    r"(?<=[0-9])(?:\*{1,3}|_{2,3}|~~|`{1,3})(?=[ .\-/]?[0-9])"
    r"|(?<=[0-9][ .\-/])(?:\*{1,3}|_{2,3}|~~|`{1,3})(?=[0-9])"
)
#: The entities that are numbers, which such marks may split.
_NUMBERS = frozenset(("ssn", "phone", "card", "iban"))


def _numbers_across_marks(text: str, entities: Iterable[str]) -> list[_Found]:
    """The numbers that Markdown marks split (:data:`_MARKS_IN_A_NUMBER`),
    looked for in ``text`` without those marks, each covering the marks
    inside it (to merge with the rest, :func:`_merged`).  Only a text holding
    ``*``, ``__``, ``~~`` or a backquote is searched for marks, and only a
    text holding some is read again (by the number detectors alone)."""
    if not ("*" in text or "__" in text or "~~" in text or "`" in text):
        return []
    numbers = [name for name in entities if name in _NUMBERS]
    bounds = [0]
    for m in _MARKS_IN_A_NUMBER.finditer(text) if numbers else ():
        bounds += m.span()
    if len(bounds) == 1:
        return []
    bounds.append(len(text))
    bare, where = _kept(text, zip(bounds[::2], bounds[1::2], strict=True))
    return [
        (where[start], -(where[-neg_end - 1] + 1), rank, name)
        for start, neg_end, rank, name in _found(bare, numbers)
    ]


#: An en dash after a letter: a dash between words, before a number whose
#: groups en dashes may join too (``at\u2013415\u2013555\u20130123``).
_EN_DASH_AFTER_A_LETTER = re.compile(r"(?<=[^\W\d_])\u2013")


#: The katakana long vowel mark (full and half width), which Japanese text
#: often puts for a hyphen between the groups of a number
#: (``03\u30fc1234\u30fc5678``): read as "-" between two digits (anywhere
#: else it is a letter).
_HAS_LONG_VOWEL_MARK = re.compile("[\u30fc\uff70]")
_LONG_VOWEL_MARK_BETWEEN_DIGITS = re.compile("(?<=[0-9])[\u30fc\uff70](?=[0-9])")


def _readings(text: str) -> list[str]:
    """``text`` as the detectors read it: folded by :data:`FOLD`, once per
    reading of its :data:`AMBIGUOUS` characters if it holds any (twice the
    work then, and only then); a text with an en dash after a letter is read
    once more with that dash as a space and the others as hyphens (three
    times the work then, and only then).  A katakana long vowel mark between
    two digits is read as "-" in every reading."""
    if _HAS_AMBIGUOUS.search(text) is None:
        readings = [text.translate(FOLD)]
    else:
        readings = [text.translate(_AS_WRITTEN), text.translate(_AS_PUNCTUATION)]
        if "\u2013" in text and _EN_DASH_AFTER_A_LETTER.search(text) is not None:
            readings.append(_EN_DASH_AFTER_A_LETTER.sub(" ", text).translate(_AS_WRITTEN))
    if _HAS_LONG_VOWEL_MARK.search(text) is not None:
        readings = [_LONG_VOWEL_MARK_BETWEEN_DIGITS.sub("-", r) for r in readings]
    return readings


#: An "@" percent-encoded (a URL's query: ``?email=jo%40example.com``) or
#: written as an HTML character reference (``jo&#64;example.com``,
#: ``&#x40;``), after a letter or digit.  The e-mail detector reads it as
#: "%" or "&" repeated, then "@" (characters of the local part, then its
#: "@"), so that the address found covers the whole of it.
_ENCODED_AT = re.compile(r"(?<=\w)(?:%40|&#64;|&#[xX]40;)")


def _decoded_at(m: re.Match[str]) -> str:
    return m.group()[0] * (len(m.group()) - 1) + "@"


#: An ideographic or full-width full stop before a capitalised word
#: (``\u3002Thanks``) or a letter of a script written without spaces
#: (``\u3002\u6b21\u306f``): a sentence's end after a domain that holds a dot
#: already (see :func:`_domains_ended`).
_STOP_BEFORE_A_CAPITAL = re.compile(
    "[\u3002\uff61\uff0e\ufe52](?=[A-Z\uff21-\uff3a][a-z\uff41-\uff5a]|[" + _GLUED + "])"
)


#: A run of :data:`_GLUED_STOPS` (see :func:`_domains_ended`).
_STOP_RUNS = re.compile(f"[{re.escape(''.join(sorted(_GLUED_STOPS)))}]+")


def _domains_ended(text: str, folded: str) -> str:
    """``folded`` (a reading of ``text``) with each full stop of
    :data:`_STOP_BEFORE_A_CAPITAL` after an ``@`` and a domain that holds a
    dot already (no whitespace between) read as no dot: a sentence ends there,
    as the sentence chunker reads it, and the address with it
    (``jo@example.com\u3002Thanks`` holds ``jo@example.com``, and
    ``jo@example.com\u3002\u6b21\u306fann@example.org`` both addresses); a domain's
    first dot (``Jo@Example\u3002Com``) and one before a lower-case label
    (``jo@mail.example\u3002co\u3002uk``) are dots of the domain.  So is each
    run of :data:`_GLUED_STOPS` that :func:`entity_open` ends a chunk at (after
    no character an entity holds, ``\uff01ann@example.com`` holds
    ``ann@example.com``; after a letter of a script written without spaces
    outside a domain, :func:`_glued_stop_joins`: ``\u7528\u6237\u3002\u540d@example.cn``
    holds ``\u540d@example.cn``, ``jo@example.com\u3067\u3059\u3002ann@example.org``
    both addresses): at once as streamed.  Each stop reads back at most
    :data:`LONGEST_ENTITY` characters."""
    ends = []
    for m in _STOP_BEFORE_A_CAPITAL.finditer(text):
        before = folded[max(0, m.start() - LONGEST_ENTITY) : m.start()]
        domain = before[before.rfind("@") + 1 :] if "@" in before else ""
        if "." in domain and not any(c.isspace() for c in domain):
            ends.append(m.start())
    for m in () if text.isascii() else _STOP_RUNS.finditer(text):
        # (Where entity_open ends a chunk, the stops end a sentence.)
        before = folded[max(0, m.start() - LONGEST_ENTITY) : m.start()]
        last = _last_character(before[len(before) - max(0, CONTEXT - len(m.group())) :])
        if last is None or (_HAS_GLUED.fullmatch(last) and not _glued_stop_joins(before)):
            ends.extend(range(*m.span()))
    if not ends:
        return folded
    chars = list(folded)
    for i in ends:
        chars[i] = "\x00"
    return "".join(chars)


def _found(text: str, entities: Iterable[str]) -> list[_Found]:
    """The entities of every reading of ``text`` (:func:`_readings`), a text
    holding no invisible character, unmerged (see :func:`_merged`).  An
    address whose "@" is encoded is looked for once more, in the first
    reading with :data:`_ENCODED_AT` read as an "@" (only then: one more
    pass of the e-mail detector over the text).  Addresses are looked for
    with a full stop that ends a sentence after a domain read as no dot
    (:func:`_domains_ended`)."""
    found: list[_Found] = []
    for i, folded in enumerate(_readings(text)):
        for name in entities:
            if name == "iban":
                _search(name, folded.translate(_UPPER_ASCII), found, folded)
            elif name == "email":
                scan = _domains_ended(text, folded)
                _search(name, scan, found)
                if i == 0 and ("%40" in scan or "&#" in scan):
                    _search(name, _ENCODED_AT.sub(_decoded_at, scan), found)
            else:
                _search(name, folded, found)
    return found


def _merged(found: list[_Found]) -> list[Entity]:
    """``found`` by offset, overlapping entities merged into one that covers
    them all, named after the one sorted first (see :func:`find_entities`)."""
    found.sort()
    kept: list[Entity] = []
    for start, neg_end, _, name in found:
        if kept and start < kept[-1].end:
            if -neg_end > kept[-1].end:
                kept[-1] = Entity(kept[-1].start, -neg_end, kept[-1].name)
            continue
        kept.append(Entity(start, -neg_end, name))
    return kept
