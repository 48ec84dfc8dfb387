"""The look-alike table is what Unicode's data gives; run this file to regenerate it.

``python tests/validators/test_validators_confusables.py`` rewrites
``validators/_confusables.py`` from the data the ``confusable-homoglyphs``
package ships (Unicode's ``confusables.txt``), offline.  The test checks that
the committed table is what the generator gives (skipped without the package).
"""

from __future__ import annotations

import json
import re
import unicodedata
from importlib import util
from pathlib import Path

import pytest

from guardrails_ai.chunkwise._confusables import SKELETON
from guardrails_ai.chunkwise._normalize import fold_text

# Run as a script too, so the path is the file's own (helpers are not on sys.path then).
MODULE = Path(__file__).resolve().parents[2] / "validators" / "_confusables.py"
SCRIPTS = ("LATIN ", "CYRILLIC ", "GREEK ", "ARMENIAN ")
#: Letters spoofers use that Unicode pairs with no ASCII prototype (Cyrillic pe,
#: Greek eta and omega), and capitals Unicode pairs with "l" only (Cyrillic
#: I and palochka, Greek iota), which imitate "I".
EXTRA = {"\u043f": "n", "\u03b7": "n", "\u03c9": "w", "\u0406": "i", "\u04c0": "i", "\u0399": "i"}


def _is_letter(char: str) -> bool:
    return len(char) == 1 and not char.isascii() and unicodedata.category(char).startswith("L")


def generate() -> dict[str, str]:
    """Look-alike -> ASCII letter (see ``validators/_confusables.py``)."""
    spec = util.find_spec("confusable_homoglyphs")
    assert spec is not None and spec.origin is not None
    data = json.loads((Path(spec.origin).parent / "confusables.json").read_text("utf-8"))
    table: dict[str, str] = {}
    for char, glyphs in sorted(data.items()):
        if not _is_letter(char) or not unicodedata.name(char, "").startswith(SCRIPTS):
            continue
        if unicodedata.normalize("NFKD", char).isascii():
            continue  # accents and compatibility forms: folding handles them
        ascii_letters = [
            g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalpha()
        ]
        # Same case first: capital iota imitates "I" (folding to "i"), not "l".
        ascii_letters.sort(key=lambda letter: letter.isupper() != char.isupper())
        if ascii_letters:
            table[char] = ascii_letters[0].lower()
    for code in range(0x80, 0x20000):
        m = re.fullmatch(r"LATIN LETTER SMALL CAPITAL ([A-Z])", unicodedata.name(chr(code), ""))
        if m and not unicodedata.normalize("NFKD", chr(code)).isascii():
            table.setdefault(chr(code), m.group(1).lower())
    # A letter whose other case imitates an ASCII letter imitates it too.
    for char, target in list(table.items()):
        for partner in (char.lower(), char.upper()):
            if _is_letter(partner):
                table.setdefault(partner, target)
    table.update(EXTRA)
    return dict(sorted(table.items()))


def render(table: dict[str, str]) -> str:
    """The module text with ``table`` as its data."""
    source = MODULE.read_text("utf-8")
    pairs = [f"\\u{ord(k):04x}{v}" for k, v in table.items()]
    lines = "\n".join(f'    "{"".join(pairs[i : i + 10])}"' for i in range(0, len(pairs), 10))
    return re.sub(
        r"_PAIRS = \(\n.*?\n\)", lambda _: f"_PAIRS = (\n{lines}\n)", source, flags=re.DOTALL
    )


@pytest.mark.skipif(
    util.find_spec("confusable_homoglyphs") is None,
    reason="confusable-homoglyphs not installed (only needed to regenerate)",
)
def test_table_is_generated() -> None:
    table = generate()
    assert {chr(k): v for k, v in SKELETON.items()} == table
    assert render(table) == MODULE.read_text("utf-8")


def test_table_shape() -> None:
    for code, target in SKELETON.items():
        assert not chr(code).isascii() and target.isascii() and target.islower()
        assert len(target) == 1
    for spoof, letter in [
        ("\u0430", "a"),
        ("\u0410", "a"),
        ("\u03bf", "o"),
        ("\u1d07", "e"),
        ("\u043c", "m"),
        ("\u03b7", "n"),
        ("\u0397", "h"),
        ("\u0406", "i"),
        ("\u0456", "i"),
    ]:
        assert SKELETON[ord(spoof)] == letter


def test_every_look_alike_folds_to_its_letter() -> None:
    # Mapped before compatibility decomposition too: NFKD turns the lunar
    # sigma (a look-alike of "c") into a sigma, and a sigma would become "o".
    for code, letter in SKELETON.items():
        assert fold_text(chr(code)) == letter, hex(code)
    assert fold_text("\u03f2ash \u03f9ASH") == "cash cash"


if __name__ == "__main__":
    MODULE.write_text(render(generate()), "utf-8")
