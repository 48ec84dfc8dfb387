"""Reference implementations of the documented default semantics.

Written for clarity, not speed: each rescans the whole text.  The chunkers are
checked against them on random text, so they state the documented rules once,
in the plainest code we could write.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile("[.!?][\"'\u201d\u2019)]?(?=\\s)")


def sentence_split(text: str) -> tuple[list[str], str]:
    """Complete sentences, and the withheld fragment (unstripped)."""
    chunks = []
    rest = text.lstrip()
    while True:
        m = _SENTENCE_END.search(rest)
        if m is None:
            return chunks, rest
        chunks.append(rest[: m.end()])
        rest = rest[m.end() :].lstrip()


def sentence_flush(text: str) -> list[str]:
    fragment = sentence_split(text)[1].strip()
    return [fragment] if fragment else []


def word_split(text: str) -> list[str]:
    words = text.split()
    if words and not text[-1].isspace():
        words.pop()
    return words


def word_flush(text: str) -> list[str]:
    if not text or text[-1].isspace():
        return []
    return [text.split()[-1]]


def paragraph_split(text: str, crlf: bool = False) -> list[str]:
    sep = r"(?:\r?\n){2,}" if crlf else r"\n{2,}"
    parts = re.split(sep, text)
    if not re.search(sep + r"\Z", text):
        parts = parts[:-1]
    return [p for p in parts if p]


def paragraph_flush(text: str, crlf: bool = False) -> list[str]:
    sep = r"(?:\r?\n){2,}" if crlf else r"\n{2,}"
    if not text or re.search(sep + r"\Z", text):
        return []
    last = re.split(sep, text)[-1]
    return [last] if last else []
