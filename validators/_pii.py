"""Personal data by pattern plus checksum: the detectors behind ``RedactPII``.

Each detector is a compiled pattern that proposes candidates and a check that
accepts or rejects them:

* ``email``: ``local@domain.tld`` (ASCII), at most 64 characters before the
  ``@`` and 254 in all, every domain label at most 63 characters;
* ``phone``: international numbers written with ``+`` and a country code
  (8 to 15 digits in all, as E.164 allows), North American numbers
  (``(415) 555-0123``, ``415.555.0123``, ``+1 415 555 0123``) and national
  numbers with a trunk ``0`` (``020 7946 0958``); groups are separated by at
  most one space, ``-`` or ``.``, never by a ``.`` followed by a space;
* ``card``: 13 to 19 digits, compact or in groups of three or more separated
  by single spaces or by single hyphens (not both), not starting with 0,
  passing the Luhn check;
* ``iban``: two capital letters, two check digits and 11 to 30 letters or
  digits, compact or in groups of four, passing ISO 7064 mod 97-10;
* ``ipv4`` / ``ipv6``: addresses that :mod:`ipaddress` accepts (IPv4: four
  decimal octets 0-255 without leading zeros; IPv6 in every textual form,
  an embedded IPv4 tail included, with at least one hexadecimal digit).

A candidate that fails its check is tried again without what follows its last
space, and so on (a grouped number followed by another number or by a word of
capitals); if no prefix passes, the search goes on from the next character.
No entity contains a sentence terminator followed by whitespace, so the
sentence chunker never cuts one in two; the longest is an e-mail address
(:data:`LONGEST_ENTITY` characters).  Candidates never begin or end next to a
word character, so ``x4111...`` or ``user@example.comX`` are not cut out of
longer tokens.  Overlapping entities are merged (see :func:`find_entities`).
Every pattern uses bounded or deterministic repetition:
linear time in the length of the text.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = [
    "ENTITIES",
    "LONGEST_ENTITY",
    "PLACEHOLDERS",
    "Entity",
    "find_entities",
    "iban_valid",
    "luhn_valid",
]

#: Length of the longest entity accepted (an e-mail address, RFC 5321).
LONGEST_ENTITY = 254

#: Entity name -> the placeholder a fix puts in its place.
PLACEHOLDERS: dict[str, str] = {
    "email": "<EMAIL>",
    "phone": "<PHONE>",
    "card": "<CARD>",
    "iban": "<IBAN>",
    "ipv4": "<IP_ADDRESS>",
    "ipv6": "<IP_ADDRESS>",
}

#: Every entity name, in the order overlapping candidates are preferred.
ENTITIES: tuple[str, ...] = tuple(PLACEHOLDERS)


def _compile(pattern: str) -> re.Pattern[str]:
    # \d outside character classes means ASCII digits here (the checksums need them).
    return re.compile(pattern.replace(r"\d", "[0-9]"))


# Unicode letters and digits are allowed in addresses, "_" only before the "@".
_LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"
_EMAIL = _compile(
    r"(?<![\w.%+-])[\w.%+-]{1,64}@(?:" + _LABEL + r"\.){1,126}[^\W0-9_]{2,63}"
    r"(?![\w-]|\.[^\W_])"
)
_SEP = r"[ .-]"
_PHONE = _compile(
    r"(?<![\w+.-])(?:"
    # International: + country code, an optional area code in parentheses,
    # then digit groups; the digit count is checked afterwards.
    r"\+\d{1,3}(?:" + _SEP + r"?\(\d{1,4}\))?" + _SEP + r"?\d+(?:" + _SEP + r"\d+){0,5}"
    # North American: optional 1, area code NXX, then 3 + 4 digits.
    r"|(?:1" + _SEP + r"?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}" + _SEP + r"?)\d{3}" + _SEP
    + r"?\d{4}"
    # National with a trunk 0: 0 + 1-4 digits, then two groups of 3-4.
    r"|(?:\(0\d{1,4}\) ?|0\d{1,4}" + _SEP + r"?)\d{3,4}" + _SEP + r"?\d{3,4}"
    r")(?!\w|[.-]\d)"
)
_CARD = _compile(
    r"(?<![\w.-])[1-9]\d{2,18}(?:([ -])\d{3,18}(?:\1\d{3,18}){0,5})?(?!\w|[.,]\d)"
)
_IBAN = _compile(
    r"(?<!\w)[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)"
    r"(?!\w)"
)
_IPV4 = _compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)")
_IPV6 = _compile(
    r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4})"
    r"(?![\w:]|\.\d)"
)


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


def iban_valid(iban: str) -> bool:
    """ISO 7064 mod 97-10 check of a compact IBAN (letters upper-case)."""
    if not 15 <= len(iban) <= 34:
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


_NOT_DIGIT = re.compile("[^0-9]+")


def _digits(text: str) -> str:
    return _NOT_DIGIT.sub("", text)


def _email(candidate: str) -> bool:
    return len(candidate) <= LONGEST_ENTITY


def _phone(candidate: str) -> bool:
    count = len(_digits(candidate))
    return 8 <= count <= 15 if candidate.startswith("+") else 10 <= count <= 11


def _card(candidate: str) -> bool:
    digits = _digits(candidate)
    return 13 <= len(digits) <= 19 and luhn_valid(digits)


def _iban(candidate: str) -> bool:
    return iban_valid(candidate.replace(" ", ""))


def _ipv4(candidate: str) -> bool:
    try:
        ipaddress.IPv4Address(candidate)
    except ValueError:
        return False
    return True


def _ipv6(candidate: str) -> bool:
    if not any(c in "0123456789abcdefABCDEF" for c in candidate):
        return False
    try:
        ipaddress.IPv6Address(candidate)
    except ValueError:
        return False
    return True


_DETECTORS: dict[str, tuple[re.Pattern[str], Callable[[str], bool]]] = {
    "email": (_EMAIL, _email),
    "phone": (_PHONE, _phone),
    "card": (_CARD, _card),
    "iban": (_IBAN, _iban),
    "ipv4": (_IPV4, _ipv4),
    "ipv6": (_IPV6, _ipv6),
}


def _accepted_end(
    text: str, m: re.Match[str], pattern: re.Pattern[str], check: Callable[[str], bool]
) -> int | None:
    """End of the longest prefix of candidate ``m`` that is an entity, if any.

    A pattern for grouped numbers may swallow a number or a word that follows
    the entity ("... 1111 1111 10 times", "... 1332 CASH"): after the whole
    candidate, each prefix ending before a space inside it is tried, longest
    first, as long as the pattern still matches it exactly.
    """
    start = m.start()
    ends = [m.end()] + [i for i in range(m.end() - 1, start, -1) if text[i] == " "]
    for end in ends:
        if not check(text[start:end]):
            continue
        exact = m if end == m.end() else pattern.match(text, start, end)
        if exact is not None and exact.end() == end:
            return end
    return None


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
    found: list[tuple[int, int, int, str]] = []
    for name in entities:
        pattern, check = _DETECTORS[name]
        pos = 0
        while (m := pattern.search(text, pos)) is not None:
            end = _accepted_end(text, m, pattern, check)
            if end is not None:
                found.append((m.start(), -end, ENTITIES.index(name), name))
            pos = m.start() + 1
    found.sort()
    kept: list[Entity] = []
    for start, neg_end, _, name in found:
        if kept and start < kept[-1].end:
            if -neg_end > kept[-1].end:
                kept[-1] = Entity(kept[-1].start, -neg_end, kept[-1].name)
            continue
        kept.append(Entity(start, -neg_end, name))
    return kept
