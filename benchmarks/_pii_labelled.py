"""A labelled set for RedactPII: sentences with personal data and hard negatives.

Written for this project: sentence templates (support mails, chat replies,
logs, tables, forms, in English with French, German and Indian numbers, and
addresses and cards glued to Japanese, Chinese and Korean words) filled
with generated entities whose checksums are right (Luhn cards with real brand
prefixes, mod-97 IBANs of the registry's lengths, phone numbers in each
country's usual groupings, e-mail addresses with RFC 5322 local parts, IPv4 and
IPv6 in their textual forms, US Social Security numbers that can be issued),
and hard negatives: numbers that look like
personal data and are not (order numbers, ``2147483647``, ISBN-10s,
``000 000 0000``, versions ``1.2.3.4``, ``section 4.1.2.3``, ``6.1.7.1``, dates,
random 13-digit strings that pass Luhn, checksum failures).

``labelled_set()`` is deterministic (a fixed seed): a list of
``(text, [(start, end, kind), ...])`` where ``kind`` is an entity name of
``RedactPII`` (``email``, ``phone``, ``card``, ``iban``, ``ipv4``, ``ipv6``, ``ssn``).
"""

from __future__ import annotations

import random
import string

__all__ = ["KINDS", "labelled_set"]

KINDS = ("email", "phone", "card", "iban", "ipv4", "ipv6", "ssn")
Labelled = tuple[str, list[tuple[int, int, str]]]


def _luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    for check in string.digits:
        digits = body + check
        total = 0
        for i, char in enumerate(reversed(digits)):
            d = int(char)
            if i % 2:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def _group(digits: str, sizes: list[int], sep: str) -> str:
    out, i = [], 0
    for size in sizes:
        out.append(digits[i : i + size])
        i += size
    if i < len(digits):
        out.append(digits[i:])
    return sep.join(out)


_CARD_BRANDS = [
    ("4", 16, [4, 4, 4, 4]),
    ("4", 19, [4, 4, 4, 4, 3]),
    ("51", 16, [4, 4, 4, 4]),
    ("55", 16, [4, 4, 4, 4]),
    ("2221", 16, [4, 4, 4, 4]),
    ("34", 15, [4, 6, 5]),
    ("37", 15, [4, 6, 5]),
    ("6011", 16, [4, 4, 4, 4]),
    ("65", 16, [4, 4, 4, 4]),
    ("3530", 16, [4, 4, 4, 4]),
    ("62", 16, [4, 4, 4, 4]),
    ("36", 14, [4, 6, 4]),
]


def card(rng: random.Random) -> str:
    prefix, length, sizes = rng.choice(_CARD_BRANDS)
    digits = _luhn_complete(prefix, length, rng)
    style = rng.random()
    if style < 0.4:
        return digits
    return _group(digits, sizes, " " if style < 0.75 else "-")


_IBAN_FORMATS = {
    "DE": 22,
    "GB": 22,
    "FR": 27,
    "ES": 24,
    "IT": 27,
    "NL": 18,
    "BE": 16,
    "CH": 21,
    "AT": 20,
    "PL": 28,
    "SE": 24,
    "IE": 22,
    "PT": 25,
    "NO": 15,
}


def iban(rng: random.Random) -> str:
    country = rng.choice(sorted(_IBAN_FORMATS))
    length = _IBAN_FORMATS[country]
    if country in ("GB", "NL", "IE"):
        bban = "".join(rng.choice(string.ascii_uppercase) for _ in range(4))
        bban += "".join(rng.choice(string.digits) for _ in range(length - 8))
    else:
        bban = "".join(rng.choice(string.digits) for _ in range(length - 4))
    number = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(number) % 97
    compact = f"{country}{check:02d}{bban}"
    if rng.random() < 0.5:
        return compact
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _d(rng: random.Random, n: int, first: str = string.digits) -> str:
    return rng.choice(first) + "".join(rng.choice(string.digits) for _ in range(n - 1))


def phone(rng: random.Random) -> str:
    area = _d(rng, 3, "23456789")
    exchange = _d(rng, 3, "23456789")
    line = _d(rng, 4)
    forms = [
        f"({area}) {exchange}-{line}",
        f"{area}-{exchange}-{line}",
        f"{area}.{exchange}.{line}",
        f"{area} {exchange} {line}",
        f"+1 {area} {exchange} {line}",
        f"+1-{area}-{exchange}-{line}",
        f"+1 ({area}) {exchange}-{line}",
        # UK
        f"020 {_d(rng, 4, '378')} {_d(rng, 4)}",
        f"07{_d(rng, 3)} {_d(rng, 6)}",
        f"+44 20 {_d(rng, 4, '378')} {_d(rng, 4)}",
        f"+44 (0)20 {_d(rng, 4, '378')} {_d(rng, 4)}",
        f"+44 7{_d(rng, 3)} {_d(rng, 6)}",
        # France: paired digits
        "0" + _d(rng, 1, "123456789") + " " + " ".join(_d(rng, 2) for _ in range(4)),
        "0" + _d(rng, 1, "67") + "." + ".".join(_d(rng, 2) for _ in range(4)),
        "+33 " + _d(rng, 1, "1234567") + " " + " ".join(_d(rng, 2) for _ in range(4)),
        # Germany: area code with a slash or a space, 12-digit mobiles
        f"030/{_d(rng, 7, '123456789')}",
        f"089 {_d(rng, 7, '123456789')}",
        f"0{rng.choice(['151', '160', '170', '176'])}{_d(rng, 1)} {_d(rng, 7)}",
        f"0{rng.choice(['151', '160', '170', '176'])}{_d(rng, 8)}",
        f"+49 30 {_d(rng, 7, '123456789')}",
        f"+49 {rng.choice(['151', '160', '176'])} {_d(rng, 8)}",
        # India: 5 + 5
        f"{_d(rng, 5, '6789')} {_d(rng, 5)}",
        f"+91 {_d(rng, 5, '6789')} {_d(rng, 5)}",
        f"+91-{_d(rng, 5, '6789')}-{_d(rng, 5)}",
        # Elsewhere
        f"+61 2 {_d(rng, 4)} {_d(rng, 4)}",
        f"+81 3-{_d(rng, 4)}-{_d(rng, 4)}",
        f"+34 {_d(rng, 3, '6789')} {_d(rng, 3)} {_d(rng, 3)}",
    ]
    return rng.choice(forms)


_NAMES = ["jo", "anna", "sam", "li.wei", "maria", "o'neil", "j.smith", "dev-ops", "x", "noreply"]
_DOMAINS = [
    "example.com",
    "example.co.uk",
    "mail.example.org",
    "example.de",
    "example.io",
    "sub.example.travel",
    "example.xn--p1ai",
    "exa-mple.net",
]


def email(rng: random.Random) -> str:
    local = rng.choice(_NAMES)
    extra = rng.random()
    if extra < 0.2:
        local += "+" + rng.choice(["billing", "news", "tag1"])
    elif extra < 0.3:
        local += rng.choice(["!", "#", "&", "=", "{x}", "_", "%"]) + "ab"
    elif extra < 0.45:
        local += str(rng.randint(1, 99))
    address = f"{local}@{rng.choice(_DOMAINS)}"
    return address.upper() if rng.random() < 0.05 else address


def ipv4(rng: random.Random) -> str:
    first = rng.choice([10, 172, 192, 8, 34, 52, 100, 203, 81])
    return ".".join(
        str(x) for x in [first, rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254)]
    )


def ipv6(rng: random.Random) -> str:
    groups = [f"{rng.randint(0, 0xFFFF):x}" for _ in range(8)]
    style = rng.random()
    if style < 0.35:
        return "2001:db8::" + ":".join(groups[:3])
    if style < 0.5:
        return "fe80::" + ":".join(groups[:2])
    if style < 0.6:
        return f"::ffff:192.0.2.{rng.randint(1, 254)}"
    return ":".join(["2001", "db8", *groups[2:]])


def ssn(rng: random.Random) -> str:
    area = rng.choice([n for n in range(1, 900) if n != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def ssn_written(rng: random.Random) -> str:
    """An SSN written without dashes (only after an SSN label)."""
    return ssn(rng).replace("-", rng.choice(["", " "]))


_GENERATORS = {
    "email": email,
    "phone": phone,
    "card": card,
    "iban": iban,
    "ipv4": ipv4,
    "ipv6": ipv6,
    "ssn": ssn,
    "ssn_written": ssn_written,
}

# Templates: each "{kind}" is filled with a generated entity of that kind.
_TEMPLATES = [
    "Please send the signed form to {email} before Friday.",
    "You can reach me on {phone} most afternoons.",
    "Call {phone} if the delivery is late.",
    "Contact: {email}, {phone}",
    "Her card number is {card}, expiry 09/27.",
    "Paid with {card} on 3 March.",
    "Transfer the deposit to {iban} (reference: flat 4).",
    "IBAN: {iban}",
    "The server at {ipv4} stopped answering pings.",
    "Blocked requests from {ipv4} and {ipv6} overnight.",
    "Connect to {ipv6} on port 443.",
    "| Anna | {email} | {phone} |",
    '{{"user":"{email}","ip":"{ipv4}"}}',
    "name,email,phone\nAnna,{email},{phone}",
    "Tel. {phone} / Fax {phone}",
    "Mobile: {phone}. Email: {email}.",
    "Je suis joignable au {phone} après 18 h.",
    "Rufen Sie mich unter {phone} an.",
    "My number is {phone}, text me.",
    "Charge the remaining balance to card {card}.",
    "Wire it to {iban}; the bank needs two days.",
    "Logged in from {ipv4} at 09:14 using {email}.",
    "Refund goes back to {card}.",
    "Reply to {email} or ring {phone}.",
    "Whitelisted {ipv6} for the VPN.",
    "Customer {email} paid from {iban}.",
    "Write to {email}!",
    "Is {phone} still your number?",
    "The DNS resolver is {ipv4}.",
    "(backup contact: {email})",
    "メールは{email}です。",
    "请联系{email}了解详情。",
    "메일은 {email}으로 보내 주세요.",
    "カード番号は{card}です。",
    "My SSN is {ssn}, please keep it private.",
    "Applicant: Anna Berg, SSN {ssn_written}, born 1990.",
    "Social Security number: {ssn_written}",
    "| Anna | {ssn} | {email} |",
    "Tax form filed under {ssn} last April.",
]

# Hard negatives: nothing here is personal data.
_NEGATIVES = [
    "Your order number is 1234567890 and it ships tomorrow.",
    "Order #4820193746 was cancelled.",
    "The maximum value of a signed 32-bit integer is 2147483647.",
    "ISBN 0-306-40615-2 is out of print.",
    "See ISBN 0306406152 for the first edition.",
    "Dial 000 000 0000 to test the line.",
    "Upgrade to version 1.2.3.4 before Monday.",
    "As stated in section 4.1.2.3, the tenant pays.",
    "Release 6.1.7.1 fixes the crash.",
    "We moved from 6.1.7.1 to 6.2.0.0 last week.",
    "Invoice 2024-000123-77 is overdue.",
    "Tracking ID 9400111899223817436 shows it in transit.",
    "The meeting is on 12/05/2024 at 10:30.",
    "Population: 1 234 567 people in 2020.",
    "Lot 4532015112830366 of the batch passed QA.",
    "Reference 1234 5678 9012 is on the letter.",
    "Serial number 4716 2049 1938 failed the test.",
    "The build id is 20240512.1733 on the dashboard.",
    "It costs 1,299.99 and ships in 3-5 days.",
    "Pi is 3.14159265358979 to fifteen digits.",
    "Coordinates 48.8566, 2.3522 point at Paris.",
    "Call me at noon, not at 9.",
    "User @handle wrote in #general about a@b.",
    "The file is report.v2.final.pdf, 3.4 MB.",
    "The time was 10:30:00 and the MAC 00:1A:2B:3C:4D:5E.",
    "Use std::vector and std::map here.",
    "The card 4111 1111 1111 1112 was declined as invalid.",
    "Account GB82WEST12345698765433 fails its checksum.",
    "Ticket 1000000000001 was closed.",
    "Case number 5000 1234 5678 is pending.",
    "Chapter 10.2.3.1 covers the edge cases.",
    "Model v2.10.3.4 is the default.",
    "Step 1.1.1.1 of the runbook restarts the service.",
    "The ratio was 192.168 to 1 in that test.",
    "Lines 120-145 and 200-230 changed.",
    "Count: 0123456789 items scanned.",
    "Part 123-45-6789 is back in stock.",
    "SSN 000-12-3456 and 666-45-6789 were never issued.",
    "The range 100 20 3000 is a guess.",
    "Ship 553221234 units by Monday.",
]


def _random_luhn_13(rng: random.Random) -> str:
    return _luhn_complete(rng.choice("123456789"), 13, rng)


def labelled_set(seed: int = 20261201, rounds: int = 14) -> list[Labelled]:
    """The labelled texts (see the module docstring)."""
    rng = random.Random(seed)
    out: list[Labelled] = []
    for _ in range(rounds):
        for template in _TEMPLATES:
            text, labels, rest = "", [], template
            while True:
                i = rest.find("{")
                if i < 0 or rest[i : i + 2] == "{{":
                    if i >= 0:  # a literal brace
                        text += rest[: i + 1]
                        rest = rest[i + 2 :]
                        continue
                    text += rest.replace("}}", "}")
                    break
                j = rest.index("}", i)
                generator = rest[i + 1 : j]
                kind = generator.split("_")[0]
                text += rest[:i].replace("}}", "}")
                value = _GENERATORS[generator](rng)
                labels.append((len(text), len(text) + len(value), kind))
                text += value
                rest = rest[j + 1 :]
            out.append((text, labels))
    for text in _NEGATIVES:
        out.append((text, []))
    for _ in range(40):
        number = _random_luhn_13(rng)
        out.append((rng.choice(["Code {} accepted.", "Batch {} done.", "{}"]).format(number), []))
    return out
