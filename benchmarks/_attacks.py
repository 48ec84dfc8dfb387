"""Adversarial inputs shared by ``tests/test_adversarial.py`` and ``adversarial_cost.py``.

:data:`UNITS`: the character classes an attacker (or an unlucky LLM) repeats,
by name; :func:`repeat`: a unit repeated to an exact length;
:func:`chunker_kinds`: one chunker of every kind, with the size combinators.
"""

from __future__ import annotations

from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    FixedSizeChunker,
    LineChunker,
    ParagraphChunker,
    RegexChunker,
    SentenceChunker,
    StructureChunker,
    WordChunker,
    limit,
)

__all__ = ["UNITS", "chunker_kinds", "repeat"]

#: The character classes an attacker (or an unlucky LLM) repeats.
UNITS: dict[str, str] = {
    "spaces": " ",
    "newlines": "\n",
    "crlf": "\r\n",
    "tabs": "\t",
    "terminators": ".",
    "a-dot": "a.",
    "dot-space": ". ",
    "bangs": "!?",
    "ellipsis": "\u2026",
    "cjk-stop": "\u3002",
    "kana-bangs": "\u3042!",  # (an ASCII "!" after a kana opens a CJK run)
    "inverted": ".\u00bf",  # (a terminator glued to "¿" is decided as if spaced)
    "digits": "0123456789",
    "decimals": "1.1.1.",
    "combining": "a\u0301\u0323\u0301\u0323",
    "cjk": "\u4e2d\u6587\u5b57",
    "punctuation": ",;:-",
    "quotes": "\"')\u201d",
    "spaced-closers": "a.\u00a0\u00bb",  # (each delta ends on a closer that waits)
    "brackets": "a.[^",  # (a period before what may begin a footnote mark)
    "superscripts": ".\u00b9 \u2074",  # (a footnote mark before more superscript digits)
    "fences": "```\n",
    "hashes": "#",
    "bullets": "- ",
    "blank-lines": "\n\n",
    "json": '{"a":[1,2.5],"b":"x.y"},',
    "csv": 'x,1.5,"q"\r\n',
}


def repeat(unit: str, n: int, prefix: str = "") -> str:
    """``prefix`` then ``unit`` repeated, cut to exactly ``n`` characters."""
    text = prefix + unit * (n // len(unit) + 1)
    return text[:n]


def chunker_kinds() -> dict[str, ChunkingStrategy]:
    """Every kind of chunker (three user patterns), and the size combinators."""
    return {
        "sentence": SentenceChunker(),
        "sentence-simple": SentenceChunker(mode="simple"),
        "word": WordChunker(),
        "paragraph": ParagraphChunker(),
        "line": LineChunker(),
        "fixed": FixedSizeChunker(200, 20),
        "regex-readme": RegexChunker(r"(?<=[.!?])\s+"),
        "regex-semicolon": RegexChunker(r"\s*;\s*"),
        "regex-blank-line": RegexChunker(r"\n\s*\n"),
        "regex-spaces": RegexChunker(r"\s+"),
        "structure": StructureChunker(),
        "limit-sentence-500": limit("sentence", max_chars=500),
        "limit-paragraph-200": limit("paragraph", max_chars=200),
        "group-sentence-3": limit("sentence", chunk_size=3, max_chars=400),
        "limit-paragraph-tokens": limit("paragraph", max_tokens=64),
    }
