"""Whole-document splitting speed: chunkwise vs boundary-smart-splitter vs LangChain.

Usage: ``python benchmarks/batch_throughput.py [--size 1MB] [--kind markdown]
[--max-chars 1000] [--repeat 5]``  (needs the ``benchmark`` extra:
``pip install '.[benchmark]'``; a missing competitor is reported, not fatal).

One generated document (``benchmarks/_text.py``, deterministic) is split by
every splitter at comparable settings, rows of one level together:

* ``max_chars`` = ``--max-chars`` everywhere, and ``chunk_size`` in units as
  boundary-smart-splitter's defaults for the level (60 words, 5 sentences,
  2 paragraphs, 1 section), the same for chunkwise (``limit(level,
  max_chars=N, chunk_size=K)``) and boundary-smart-splitter (with
  ``length_function=len``, so that no tokenizer is downloaded);
* ``packed``: chunkwise units packed up to ``max_chars`` (``chunk_size=N``),
  which is what LangChain's ``RecursiveCharacterTextSplitter(chunk_size=N,
  chunk_overlap=0)`` does.

A second table (``benchmarks/_sized.py``) sizes chunks in characters and in
cl100k tokens, filled to the target (``limit(..., fill=True)``), beside
LangChain RCTS, semantic-text-splitter and chonkie: fill, largest chunk,
sentences and code blocks cut (``--max-tokens``, default 256;
``--sized-only`` for that table alone; ``--kind readmes`` for the installed
packages' Markdown READMEs).

Columns: best-of-``--repeat`` throughput in MB/s (rounds interleaved) (10^6 characters per
second), number of chunks, mean and largest chunk, and ``cut sentences``:
chunk ends strictly inside a sentence no longer than ``max_chars`` (sentences
as ``SentenceChunker(mode="simple")`` sees them within each line; ``n/a`` when
a splitter rewrites text so that its chunks cannot be located).
"""

from __future__ import annotations

import argparse
import bisect
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _sized import locate, print_sized, sentence_spans
from _text import GENERATORS, parse_size

from guardrails_ai.chunkwise.chunkers import (
    SentenceChunker,
    limit,
)

Splitter = Callable[[str], list[str]]


#: boundary-smart-splitter's default chunk_size (units per chunk) per level.
UNITS = {"word": 60, "sentence": 5, "line": 1, "paragraph": 2, "structure": 1}


def rows(n: int) -> list[tuple[str, str, Splitter]]:
    """(level, name, split function) of every splitter, competitors if installed."""
    found: list[tuple[str, str, Splitter]] = []
    simple = SentenceChunker(mode="simple")
    for level, k in UNITS.items():
        found.append((level, f"chunkwise {level} ({k}/chunk)", chunkwise(level, n, k)))
        if level == "sentence":
            found.append((level, f"chunkwise sentence simple ({k})", chunkwise(simple, n, k)))
        if level in ("line", "paragraph"):
            found.append((level, f"chunkwise {level} packed", chunkwise(level, n, n)))
    try:
        import boundary_smart_splitter as bss
    except ImportError:
        print("boundary-smart-splitter not installed: pip install '.[benchmark]'")
    else:
        for level, cls in (
            ("word", bss.WordSplitter),
            ("sentence", bss.SentenceSplitter),
            ("paragraph", bss.ParagraphSplitter),
        ):
            found.append(
                (
                    level,
                    f"bss {cls.__name__}",
                    cls(chunk_size=UNITS[level], max_chars=n, length_function=len).split,
                )
            )
        structure = bss.StructureSplitter(
            chunk_size=1, max_chars=n, max_tokens=None, min_tokens=0, length_function=len
        )
        found.append(("structure", "bss StructureSplitter", structure.split))
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        print("langchain-text-splitters not installed: pip install '.[benchmark]'")
    else:
        rcts = RecursiveCharacterTextSplitter(chunk_size=n, chunk_overlap=0)
        found.append(("paragraph", "LangChain RecursiveCharacterText", rcts.split_text))
    return found


def chunkwise(level: str | SentenceChunker, n: int, k: int) -> Splitter:
    return limit(level, max_chars=n, chunk_size=k).split_text


def cut_sentences(
    sentences: list[tuple[int, int]], spans: list[tuple[int, int]] | None, n: int
) -> str:
    """How many chunk ends fall strictly inside a sentence of at most ``n`` characters."""
    if spans is None:
        return "n/a"
    starts = [s for s, _ in sentences]
    count = 0
    for _, end in spans[:-1]:
        i = bisect.bisect_right(starts, end - 1) - 1
        if i >= 0:
            s, e = sentences[i]
            if s < end < e and e - s <= n:
                count += 1
    return str(count)


def measure(table: list[tuple[str, str, Splitter]], text: str, repeat: int) -> list[float]:
    """Best time of each splitter over ``repeat`` rounds, every splitter once per round
    (so that all of them see the same machine load); a splitter that takes over
    2 s runs in the first round only."""
    best = [float("inf")] * len(table)
    for round_ in range(repeat):
        for i, (_, _, split) in enumerate(table):
            if round_ and best[i] > 2:
                continue
            t0 = time.perf_counter()
            split(text)
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1MB", help="document size (default 1MB)")
    parser.add_argument("--kind", default="markdown", choices=sorted(GENERATORS))
    parser.add_argument("--max-chars", type=int, default=1000)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--sized-only",
        action="store_true",
        help="only the table of chunks sized in characters and tokens",
    )
    args = parser.parse_args()
    text = GENERATORS[args.kind](parse_size(args.size), 0)
    n = args.max_chars
    sentences = sentence_spans(text)
    order = list(UNITS)
    table = sorted(rows(n), key=lambda row: order.index(row[0]))
    if args.sized_only:
        print(f"{args.kind}, {len(text):,} characters, best of {args.repeat}")
        print_sized(text, n, args.max_tokens, args.repeat, measure)
        return

    print(f"{args.kind}, {len(text):,} characters, max_chars {n}, best of {args.repeat}")
    header = f"{'splitter':<36}{'MB/s':>8}{'chunks':>8}{'mean':>7}{'max':>7}  cut sentences"
    print(header)
    print("-" * len(header))
    times = measure(table, text, args.repeat)
    for (_, name, split), seconds in zip(table, times, strict=True):
        rate = len(text) / seconds / 1e6
        chunks = split(text)
        sizes = [len(c) for c in chunks] or [0]
        found = cut_sentences(sentences, locate(text, chunks), n)
        print(
            f"{name:<36}{rate:>8.1f}{len(chunks):>8}{sum(sizes) / len(sizes):>7.0f}"
            f"{max(sizes):>7}  {found}"
        )
    print_sized(text, n, args.max_tokens, args.repeat, measure)


if __name__ == "__main__":
    main()
