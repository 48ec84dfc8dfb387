"""Sentence chunking speed: mode="simple" vs mode="accurate", side by side.

Usage: ``python benchmarks/sentence_speed.py [--size 1MB] [--repeat 5] [--delta 16]``

For each generated text (``benchmarks/_text.py``: prose, Markdown, and a
boundary-free stream) and each mode, three measurements in millions of
characters per CPU second (``time.process_time``, so that other processes on a
shared machine count less), the best of ``--repeat`` runs, the two modes
interleaved run by run:

* ``whole``: ``split_text(text)`` (one scanner over the whole document);
* ``stream``: a ``ChunkStream`` fed ``--delta``-character deltas, then closed
  (what a streaming validator pays);
* ``stream/1``: the same on the first 100 000 characters in 1-character deltas.

The last column is accurate / simple throughput (above 1.00: accurate is
faster per character).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _text import GENERATORS, deltas, parse_size

from guardrails_ai.chunkwise.chunkers import ChunkStream, SentenceChunker


def best_rates(runs: dict[str, Callable[[], object]], chars: int, repeat: int) -> dict[str, float]:
    """Best throughput of each run over ``repeat`` interleaved rounds, M chars/CPU s."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, run in runs.items():
            t0 = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - t0)
    return {name: chars / max(t, 1e-9) / 1e6 for name, t in best.items()}


def stream(chunker: SentenceChunker, parts: list[str]) -> int:
    cs = ChunkStream(chunker)
    count = 0
    for part in parts:
        count += len(cs.feed(part))
    return count + len(cs.close())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1MB", help="characters per text (default 1MB)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--delta", type=int, default=16, help="delta size for 'stream'")
    args = parser.parse_args()
    size = parse_size(args.size)
    modes = {m: SentenceChunker(mode=m) for m in ("simple", "accurate")}
    print(f"size {size} characters, best of {args.repeat}, M chars per CPU second")
    print(f"{'text':14s} {'measure':9s} {'simple':>8s} {'accurate':>9s} {'acc/simple':>11s}")
    for name, generate in GENERATORS.items():
        text = generate(size, 0)
        parts = list(deltas(text, args.delta))
        small = text[:100_000]
        ones = list(small)
        jobs: dict[str, tuple[int, Callable[[SentenceChunker], object]]] = {
            "whole": (len(text), lambda c, text=text: c.split_text(text)),  # type: ignore[misc]
            "stream": (len(text), lambda c, parts=parts: stream(c, parts)),  # type: ignore[misc]
            "stream/1": (len(small), lambda c, ones=ones: stream(c, ones)),  # type: ignore[misc]
        }
        for label, (chars, job) in jobs.items():
            rates = best_rates(
                {m: partial(job, c) for m, c in modes.items()}, chars, args.repeat
            )
            ratio = rates["accurate"] / rates["simple"]
            print(
                f"{name:14s} {label:9s} {rates['simple']:8.2f} {rates['accurate']:9.2f}"
                f" {ratio:11.2f}"
            )


if __name__ == "__main__":
    main()
