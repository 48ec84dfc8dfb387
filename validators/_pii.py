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
* ``card``: 13 to 19 digits, optionally grouped by single spaces or hyphens,
  not starting with 0, passing the Luhn check (a group after the number that
  the pattern swallowed is given back, as for IBANs);
* ``iban``: two capital letters, two check digits and 11 to 30 letters or
  digits, compact or in groups of four, passing ISO 7064 mod 97-10; a group
  after the IBAN that the pattern swallowed is given back;
* ``ipv4`` / ``ipv6``: addresses that :mod:`ipaddress` accepts (IPv4: four
  decimal octets 0-255 without leading zeros; IPv6 in every textual form,
  an embedded IPv4 tail included, with at least one hexadecimal digit).

No entity contains a sentence terminator followed by whitespace, so the
sentence chunker never cuts one in two; the longest is an e-mail address
(:data:`LONGEST_ENTITY` characters).  Candidates never begin or end next to a
word character, so ``x4111...`` or ``user@example.comX`` are not cut out of
longer tokens.  Where entities overlap, the one that starts first wins, then
the longer one.  Every pattern uses bounded or deterministic repetition:
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
_CARD = _compile(r"(?<![\w.-])(?<!\d )[1-9](?:[ -]?\d){12,18}(?!\w)")
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


def _digits(text: str) -> str:
    return "".join(c for c in text if "0" <= c <= "9")


def _email(text: str, m: re.Match[str]) -> int | None:
    return m.end() if m.end() - m.start() <= LONGEST_ENTITY else None


def _phone(text: str, m: re.Match[str]) -> int | None:
    count = len(_digits(m.group()))
    if m.group().startswith("+"):
        return m.end() if 8 <= count <= 15 else None
    return m.end() if 10 <= count <= 11 else None


def _card(text: str, m: re.Match[str]) -> int | None:
    # A grouped number may be followed by another number ("... 1111 10
    # times"): try the whole match, then up to each separator before it.
    candidate = m.group()
    ends = [len(candidate)] + [i for i in range(len(candidate) - 1, 0, -1)
                               if candidate[i] in " -"]
    for end in ends:
        digits = _digits(candidate[:end])
        if len(digits) >= 13 and luhn_valid(digits):
            return m.start() + end
    return None


def _iban(text: str, m: re.Match[str]) -> int | None:
    # The grouped form may have swallowed a four-character word after the
    # IBAN ("... 0000 CASH"): try the whole match, then one group less, ...
    groups = m.group().split(" ")
    while groups:
        if iban_valid("".join(groups)):
            return m.start() + len(" ".join(groups))
        groups.pop()
    return None


def _ipv4(text: str, m: re.Match[str]) -> int | None:
    try:
        ipaddress.IPv4Address(m.group())
    except ValueError:
        return None
    return m.end()


def _ipv6(text: str, m: re.Match[str]) -> int | None:
    candidate = m.group()
    if not any(c in "0123456789abcdefABCDEF" for c in candidate):
        return None
    try:
        ipaddress.IPv6Address(candidate)
    except ValueError:
        return None
    return m.end()


_Check = Callable[[str, "re.Match[str]"], "int | None"]
_DETECTORS: dict[str, tuple[re.Pattern[str], _Check]] = {
    "email": (_EMAIL, _email),
    "phone": (_PHONE, _phone),
    "card": (_CARD, _card),
    "iban": (_IBAN, _iban),
    "ipv4": (_IPV4, _ipv4),
    "ipv6": (_IPV6, _ipv6),
}


def find_entities(text: str, entities: Iterable[str] = ENTITIES) -> list[Entity]:
    """Non-overlapping entities of the kinds ``entities`` in ``text``, by offset.

    Each candidate must pass its check (see the module docstring).  Of two
    overlapping entities the earlier one is kept, then the longer, then the
    one listed first in :data:`ENTITIES`.
    """
    found: list[tuple[int, int, int, str]] = []
    for name in entities:
        pattern, check = _DETECTORS[name]
        for m in pattern.finditer(text):
            end = check(text, m)
            if end is not None:
                found.append((m.start(), -end, ENTITIES.index(name), name))
    found.sort()
    kept: list[Entity] = []
    for start, neg_end, _, name in found:
        if kept and start < kept[-1].end:
            continue
        kept.append(Entity(start, -neg_end, name))
    return kept
