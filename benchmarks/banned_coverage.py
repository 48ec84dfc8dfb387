"""How many disguised spellings of banned phrases BannedPhrases catches, and its false positives.

Usage: ``python benchmarks/banned_coverage.py``

Attack families (each applied to every phrase of :data:`PHRASES`, in a
sentence): Markdown emphasis and inline code, Cyrillic and Greek look-alike letters, small
capitals, invisible "letters" (Hangul fillers, Braille blank) and the Arabic
tatweel inside words, HTML character references (``&#102;``, ``&nbsp;``),
combining accents, strike-through and slash overlays, Turkish dotted ``İ``,
full-width letters and zero-width characters.  Benign near-misses
(:data:`BENIGN`) are sentences that hold something close to a phrase but not
the phrase: none may match.  Prints caught / total per family.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ATTACKS", "BENIGN", "PHRASES", "attacks"]

PHRASES = ["free money", "kill switch", "bad word", "wire transfer"]

# Look-alikes a spoofer picks (Cyrillic, Greek), by the Latin letter they imitate.
_CYRILLIC = {
    "a": "\u0430",
    "c": "\u0441",
    "e": "\u0435",
    "i": "\u0456",
    "o": "\u043e",
    "p": "\u0440",
    "s": "\u0455",
    "x": "\u0445",
    "y": "\u0443",
    "w": "\u051d",
    "d": "\u0501",
    "h": "\u04bb",
    "k": "\u043a",
    "m": "\u043c",
    "t": "\u0442",
    "r": "\u0433",
    "n": "\u043f",
}
_GREEK = {
    "a": "\u03b1",
    "i": "\u03b9",
    "k": "\u03ba",
    "n": "\u03b7",
    "o": "\u03bf",
    "p": "\u03c1",
    "t": "\u03c4",
    "u": "\u03c5",
    "v": "\u03bd",
    "x": "\u03c7",
    "y": "\u03b3",
    "e": "\u03b5",
    "b": "\u03b2",
    "z": "\u03b6",
    "w": "\u03c9",
}
_SMALL_CAPS = {
    "a": "\u1d00",
    "b": "\u0299",
    "c": "\u1d04",
    "d": "\u1d05",
    "e": "\u1d07",
    "f": "\ua730",
    "g": "\u0262",
    "h": "\u029c",
    "i": "\u026a",
    "j": "\u1d0a",
    "k": "\u1d0b",
    "l": "\u029f",
    "m": "\u1d0d",
    "n": "\u0274",
    "o": "\u1d0f",
    "p": "\u1d18",
    "r": "\u0280",
    "s": "\ua731",
    "t": "\u1d1b",
    "u": "\u1d1c",
    "v": "\u1d20",
    "w": "\u1d21",
    "y": "\u028f",
    "z": "\u1d22",
}
_INVISIBLE = ["\u3164", "\u115f", "\uffa0", "\u2800", "\u1160"]
_MARKS = ["\u0301", "\u0300", "\u0308", "\u0323", "\u0327", "\u030c"]
_OVERLAYS = ["\u0334", "\u0335", "\u0336", "\u0337", "\u0338"]


def _swap(table: dict[str, str], every: bool) -> Callable[[str], list[str]]:
    def variants(phrase: str) -> list[str]:
        if every:
            return ["".join(table.get(c, c) for c in phrase)]
        return [phrase[:i] + table[c] + phrase[i + 1 :] for i, c in enumerate(phrase) if c in table]

    return variants


def _inside(chars: list[str]) -> Callable[[str], list[str]]:
    def variants(phrase: str) -> list[str]:
        return [
            phrase[:i] + ch + phrase[i:]
            for ch in chars
            for i in range(1, len(phrase))
            if phrase[i - 1] != " " and phrase[i] != " "
        ]

    return variants


def _marked(marks: list[str]) -> Callable[[str], list[str]]:
    def variants(phrase: str) -> list[str]:
        return ["".join(c + m if c != " " else c for c in phrase) for m in marks] + [
            phrase[: i + 1] + m + phrase[i + 1 :]
            for m in marks[:2]
            for i in range(len(phrase))
            if phrase[i] != " "
        ]

    return variants


def _markdown(phrase: str) -> list[str]:
    first, _, rest = phrase.partition(" ")
    return [
        f"_{phrase}_",
        f"__{phrase}__",
        f"*{phrase}*",
        f"**{phrase}**",
        f"~~{phrase}~~",
        f"__{first}__ {rest}",
        f"**{first}** {rest}",
        f"{first} _{rest}_",
        f"_{first}_ _{rest}_",
        f"***{phrase}***",
        f"`{first}` {rest}",
        f"{first} `{rest}`",
    ]


def _turkish(phrase: str) -> list[str]:
    up = phrase.upper()
    return [up.replace("I", "\u0130"), phrase.replace("i", "\u0131")] if "i" in phrase else []


def _fullwidth(phrase: str) -> list[str]:
    return [
        "".join(chr(ord(c) + 0xFEE0) if c != " " else c for c in phrase),
        "\u200b".join(phrase),
        "\u00ad".join(phrase),
    ]


def _references(phrase: str) -> list[str]:
    """HTML character references, which a page renders as the character."""
    mid = len(phrase) // 2 if phrase[len(phrase) // 2] != " " else len(phrase) // 2 + 1
    return [
        f"&#{ord(phrase[0])};{phrase[1:]}",
        f"{phrase[:mid]}&#x{ord(phrase[mid]):x};{phrase[mid + 1 :]}",
        phrase.replace(" ", "&nbsp;"),
        phrase.replace(" ", "&#32;"),
    ]


def _hyphenated(phrase: str) -> list[str]:
    return [
        phrase.replace(" ", "-"),
        phrase.replace(" ", "\u2011"),  # non-breaking hyphen
        phrase.replace(" ", "-\n"),  # broken at a line end
        phrase.title().replace(" ", "-"),
    ]


ATTACKS: dict[str, Callable[[str], list[str]]] = {
    "markdown emphasis": _markdown,
    "cyrillic look-alikes (one letter)": _swap(_CYRILLIC, every=False),
    "cyrillic look-alikes (all letters)": _swap(_CYRILLIC, every=True),
    "greek look-alikes (one letter)": _swap(_GREEK, every=False),
    "greek look-alikes (all letters)": _swap(_GREEK, every=True),
    "small capitals": lambda p: (
        _swap(_SMALL_CAPS, every=True)(p) + _swap(_SMALL_CAPS, every=False)(p)
    ),
    "invisible letters inside words": _inside(_INVISIBLE),
    "arabic tatweel inside words": _inside(["\u0640"]),
    "combining accents": _marked(_MARKS),
    "strike-through overlays": _marked(_OVERLAYS),
    "turkish dotted/dotless i": _turkish,
    "full-width, zero-width, soft hyphen": _fullwidth,
    "words joined by a hyphen": _hyphenated,
    "html character references": _references,
}

SENTENCES = ["They promised {} to everyone.", "{}!", "Is this {}?"]

#: Sentences close to a phrase that must not match any of :data:`PHRASES`.
BENIGN = [
    "Carefree money management is a myth.",
    "The free moneybox app is gone.",
    "Freedom money was the slogan.",
    "It is free; money is another matter.",
    "free-range money? No: free range eggs.",
    "The killswitch_v2 flag is documented.",
    "A skill switch happens at level ten.",
    "Kill the switchboard noise, please.",
    "That was a badword_filter test.",
    "The badge word was printed.",
    "Bad wording made it unclear.",
    "Wire transfers_total rose.",
    "Wired transfer of heat is physics.",
    "The wire transferred the signal.",
    "freemoney.example is a domain.",
    "Москва — большой город.",
    "Καλημέρα σας, φίλοι.",
    "İzmir is on the coast.",
    "Café crème, s'il vous plaît.",
    "bad_word_count = 0",
    "free__money is one identifier.",
    "Money for free? Never.",
    "It was free \u2014 money came later.",
    "Free--money is an odd spelling of a dash.",
    "A kill -switch flag is a typo.",
    "A word that is bad is still a word.",
    "free\u0640money is one stretched word.",
    "The `free`money token is glued.",
    "free &amp; money, AT&T money and free&money differ.",
]


def attacks() -> dict[str, list[str]]:
    """Attack family -> the disguised sentences (each holds one phrase)."""
    out: dict[str, list[str]] = {}
    for family, make in ATTACKS.items():
        texts = []
        for phrase in PHRASES:
            for i, variant in enumerate(make(phrase)):
                texts.append(SENTENCES[i % len(SENTENCES)].format(variant))
        out[family] = texts
    return out


def main() -> None:
    from guardrails_ai.types import FailResult

    from guardrails_ai.chunkwise import BannedPhrases

    validator = BannedPhrases(PHRASES)
    total_caught = total = 0
    print(f"{'attack family':<40}{'caught':>8}{'total':>7}")
    for family, texts in attacks().items():
        caught = sum(isinstance(validator.validate(t, {}), FailResult) for t in texts)
        total_caught += caught
        total += len(texts)
        print(f"{family:<40}{caught:>8}{len(texts):>7}")
    print(f"{'all':<40}{total_caught:>8}{total:>7}")
    false = [t for t in BENIGN if isinstance(validator.validate(t, {}), FailResult)]
    print(f"benign near-misses flagged: {len(false)} of {len(BENIGN)}")
    for t in false:
        print(f"  {t!r}")


if __name__ == "__main__":
    main()
