"""Deterministic text for the benchmarks (and the cost tests).

Every generator takes a length in characters and a seed and returns exactly
that many characters; the same arguments always give the same text, on every
machine and Python version (only ``random.Random`` with an explicit seed is
used).  API:

* :func:`prose`: English-like sentences ending in ``.``, ``!``, ``?`` (some
  with closing quotes or parentheses, some with abbreviations and decimals,
  unless ``inner_periods=False``), grouped into paragraphs separated by blank
  lines;
* :func:`markdown`: headings, paragraphs, bullet and numbered lists, block
  quotes and fenced code blocks;
* :func:`boundary_free`: no sentence terminator and no whitespace at all (no
  built-in chunker ever finds a boundary in it);
* :data:`GENERATORS`: the three above by name (``"prose"``, ``"markdown"``,
  ``"boundary-free"``);
* :func:`deltas`: a text cut into fixed-size deltas, as a stream would be;
* :func:`parse_size`: ``"1KB"``/``"2MB"``/``"500"`` to a character count
  (decimal: 1 KB = 1000 characters);
* :func:`offline`: make Guardrails importable offline; call it before
  ``import guardrails`` in a script.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

__all__ = [
    "GENERATORS",
    "boundary_free",
    "deltas",
    "markdown",
    "offline",
    "parse_size",
    "prose",
]

_WORDS = (
    "the a model stream token text chunk answer user reply system check guard "
    "value result river mountain city morning evening quickly slowly because "
    "however although every never always sometimes validator output input "
    "sentence word paragraph careful simple bright quiet heavy light green "
    "blue number signal data field report market report engine window table "
    "question reason story garden letter voice music paper change problem "
    "naïve café über façade résumé coöperate"
).split()
_ABBREVIATIONS = ("Dr.", "Mr.", "e.g.", "etc.", "U.S.", "No.")
_ENDINGS = (".", ".", ".", ".", "!", "?", '."', ".\u201d", ".)", "?'", "!\u2019")


def _sentence(rng: random.Random, inner_periods: bool = True) -> str:
    words = rng.choices(_WORDS, k=rng.randint(4, 22))
    if rng.random() < 0.15 and inner_periods:
        words.insert(rng.randrange(len(words)), rng.choice(_ABBREVIATIONS))
    if rng.random() < 0.1 and inner_periods:
        words.insert(rng.randrange(len(words)), f"{rng.randint(0, 99)}.{rng.randint(0, 99)}")
    if rng.random() < 0.3:
        i = rng.randrange(1, len(words))
        words[i - 1] += ","
    words[0] = words[0].capitalize()
    ending = rng.choice(_ENDINGS)
    if ending[-1] == ")":
        words[0] = "(" + words[0]
    elif ending[-1] in "\"'\u201d\u2019":
        words[0] = {'"': '"', "'": "'", "\u201d": "\u201c", "\u2019": "\u2018"}[ending[-1]] + words[
            0
        ]
    return " ".join(words) + ending


def _fill(size: int, seed: int, block: Callable[[random.Random], str]) -> str:
    if not isinstance(size, int) or size < 0:
        raise ValueError(f"size must be a non-negative int, got {size!r}")
    rng = random.Random(seed)
    parts: list[str] = []
    n = 0
    while n < size:
        part = block(rng)
        parts.append(part)
        n += len(part)
    return "".join(parts)[:size]


def _prose_paragraph(rng: random.Random, inner_periods: bool = True) -> str:
    seps = (" ", " ", " ", "  ", "\n")
    sentences = [_sentence(rng, inner_periods) for _ in range(rng.randint(2, 8))]
    text = sentences[0]
    for s in sentences[1:]:
        text += rng.choice(seps) + s
    return text + "\n\n"


def prose(size: int, seed: int = 0, *, inner_periods: bool = True) -> str:
    """``size`` characters of sentences in paragraphs (see module docstring).

    ``inner_periods=False`` leaves out the abbreviations (``Dr.``, ``e.g.``)
    and decimals (``3.14``), the periods that do not end a sentence.
    """
    if inner_periods:
        return _fill(size, seed, _prose_paragraph)
    return _fill(size, seed, lambda rng: _prose_paragraph(rng, False))


def _markdown_block(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.12:
        level = rng.randint(1, 3)
        title = " ".join(rng.choices(_WORDS, k=rng.randint(2, 6))).capitalize()
        return f"{'#' * level} {title}\n\n"
    if kind < 0.3:
        items = [_sentence(rng) for _ in range(rng.randint(2, 6))]
        if rng.random() < 0.5:
            return "".join(f"- {s}\n" for s in items) + "\n"
        return "".join(f"{i}. {s}\n" for i, s in enumerate(items, 1)) + "\n"
    if kind < 0.38:
        return "> " + _sentence(rng) + " " + _sentence(rng) + "\n\n"
    if kind < 0.46:
        lines = [
            f"{rng.choice(_WORDS)} = {rng.choice(_WORDS)}({rng.randint(0, 9)})\n"
            for _ in range(rng.randint(2, 6))
        ]
        return "```python\n" + "".join(lines) + "```\n\n"
    sentences = [_sentence(rng) for _ in range(rng.randint(2, 6))]
    if rng.random() < 0.3:
        sentences[0] = f"**{sentences[0]}**"
    if rng.random() < 0.3:
        sentences[-1] = f"See [the {rng.choice(_WORDS)}](https://example.com/x). " + sentences[-1]
    return " ".join(sentences) + "\n\n"


def markdown(size: int, seed: int = 0) -> str:
    """``size`` characters of Markdown (see module docstring)."""
    return _fill(size, seed, _markdown_block)


_NO_BOUNDARY = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_,;:éü"


def boundary_free(size: int, seed: int = 0) -> str:
    """``size`` characters with no ``.``/``!``/``?`` and no whitespace at all."""
    return _fill(size, seed, lambda rng: "".join(rng.choices(_NO_BOUNDARY, k=4096)))


#: The generators by name.
GENERATORS: dict[str, Callable[[int, int], str]] = {
    "prose": prose,
    "markdown": markdown,
    "readmes": lambda size, seed: package_readmes(size, seed),
    "boundary-free": boundary_free,
}


def deltas(text: str, size: int = 4) -> list[str]:
    """``text`` cut into consecutive deltas of ``size`` characters (the last may be shorter)."""
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"size must be a positive int, got {size!r}")
    return [text[i : i + size] for i in range(0, len(text), size)]


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(kb|mb|k|m|b)?\s*", re.IGNORECASE)
_UNITS = {None: 1, "b": 1, "k": 1000, "kb": 1000, "m": 1_000_000, "mb": 1_000_000}


def parse_size(spec: str) -> int:
    """``"1KB"`` -> 1000, ``"1.5MB"`` -> 1500000, ``"300"`` -> 300."""
    m = _SIZE.fullmatch(spec)
    if m is None:
        raise ValueError(f"size must look like 10KB, 1MB or 500, got {spec!r}")
    unit = m.group(2).lower() if m.group(2) else None
    return int(float(m.group(1)) * _UNITS[unit])


def fmt_size(n: int) -> str:
    """``n`` characters as a size ``parse_size`` reads back (``250KB``, ``1MB``)."""
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}MB"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}KB"
    return str(n)


def offline() -> None:
    """Keep Guardrails off the network: call before ``import guardrails``.

    The command's own :func:`~guardrails_ai.chunkwise.cli.offline.go_offline`:
    a private ``HOME`` (removed at exit) whose ``.guardrailsrc`` disables
    metrics, unless the user's already does, and litellm's bundled price map.
    """
    from guardrails_ai.chunkwise.cli.offline import go_offline

    go_offline()


def package_readmes(size: int, seed: int = 0) -> str:
    """About ``size`` characters of real Markdown: the long descriptions
    (``text/markdown``) in the ``METADATA`` of the installed distributions,
    sorted by name, repeated if needed (``seed`` is unused: the text is what is
    installed).  Empty when no distribution ships a Markdown description."""
    from importlib.metadata import distributions

    found: dict[str, str] = {}
    for dist in distributions():
        meta = dist.metadata
        if meta is None or "markdown" not in (meta.get("Description-Content-Type") or ""):
            continue
        body = meta.get_payload() or meta.get("Description") or ""  # type: ignore[attr-defined]
        if isinstance(body, str) and body.strip():
            found.setdefault(meta.get("Name") or "", body.strip() + "\n\n\n")
    docs = [found[name] for name in sorted(found)]
    if not docs:
        return ""
    parts: list[str] = []
    total = 0
    while total < size:
        for doc in docs:
            parts.append(doc)
            total += len(doc)
            if total >= size:
                break
    return "".join(parts)[:size]
