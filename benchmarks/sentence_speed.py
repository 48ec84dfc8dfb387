"""Sentence chunking speed: mode="simple" vs mode="accurate", side by side.

Usage: ``python benchmarks/sentence_speed.py [--size 1MB] [--repeat 5] [--delta 16]``

For each generated text (``benchmarks/_text.py``: prose, Markdown, and a
boundary-free stream) and each mode, three measurements in millions of
characters per CPU second (``time.process_time``, so that other processes on a
shared machine count less), the best of ``--repeat`` rounds, the two modes
run one after the other in each round:

* ``whole``: ``split_text(text)`` (one scanner over the whole document);
* ``stream``: a ``ChunkStream`` fed ``--delta``-character deltas, then closed
  (what a streaming validator pays);
* ``stream/1``: the same on the first 100 000 characters in 1-character deltas;
* ``short``: ``split_text`` of each 300-character piece of the first 100 000
  characters, one call per piece (what validating many short answers pays:
  the per-call constant shows here).

The ``acc/simple`` column is accurate / simple speed (above 1.00: accurate
is faster per character): the median over the rounds of each round's own
ratio, with the lowest and highest.  The last column is the accurate mode
without its quotation layer (``SentenceChunker(quotes=False)``).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _text import GENERATORS, deltas, parse_size

from guardrails_ai.chunkwise.chunkers import ChunkStream, SentenceChunker


def paired_rates(
    runs: dict[str, Callable[[], object]], chars: int, repeat: int
) -> tuple[dict[str, float], float, float, float]:
    """Best throughput of each run (M chars/CPU s) and the accurate/simple
    speed ratio of each round, summarised as (median, lowest, highest).

    The runs of one round follow each other, with the garbage collector off
    (as ``timeit`` does), and each round's ratio comes from its own two runs:
    on a shared machine whose speed drifts, the median of these paired ratios
    is steadier than the ratio of two best times.
    """
    best = dict.fromkeys(runs, float("inf"))
    ratios = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            took = {}
            for name, run in runs.items():
                t0 = time.process_time()
                run()
                took[name] = max(time.process_time() - t0, 1e-9)
                best[name] = min(best[name], took[name])
            ratios.append(took["simple"] / took["accurate"])
    finally:
        if enabled:
            gc.enable()
    rates = {name: chars / max(t, 1e-9) / 1e6 for name, t in best.items()}
    return rates, statistics.median(ratios), min(ratios), max(ratios)


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
    modes["quotes=False"] = SentenceChunker(quotes=False)  # (accurate, no quotation layer)
    for chunker in modes.values():
        # (The first scanner of a configuration compiles its searches: once
        # per process, not per character, so no round times it.)
        chunker.split_text('Warm up. It\'s "done."')
    print(
        f"size {size} characters, {args.repeat} rounds; M chars per CPU second (best);"
        " acc/simple: median of the rounds' paired speed ratios [lowest-highest]"
    )
    print(
        f"{'text':14s} {'measure':9s} {'simple':>8s} {'accurate':>9s} {'acc/simple':>11s}"
        f"                {'quotes=False':>12s}"
    )
    for name, generate in GENERATORS.items():
        text = generate(size, 0)
        parts = list(deltas(text, args.delta))
        small = text[:100_000]
        ones = list(small)
        pieces = [small[i : i + 300] for i in range(0, len(small), 300)]
        jobs: dict[str, tuple[int, Callable[[SentenceChunker], object]]] = {
            "whole": (len(text), lambda c, text=text: c.split_text(text)),  # type: ignore[misc]
            "stream": (len(text), lambda c, parts=parts: stream(c, parts)),  # type: ignore[misc]
            "stream/1": (len(small), lambda c, ones=ones: stream(c, ones)),  # type: ignore[misc]
            "short": (len(small), lambda c, pieces=pieces: [c.split_text(p) for p in pieces]),  # type: ignore[misc]
        }
        for label, (chars, job) in jobs.items():
            rates, median, low, high = paired_rates(
                {m: partial(job, c) for m, c in modes.items()}, chars, args.repeat
            )
            print(
                f"{name:14s} {label:9s} {rates['simple']:8.2f} {rates['accurate']:9.2f}"
                f" {median:11.2f} [{low:.2f}-{high:.2f}]".ljust(56)
                + f" {rates['quotes=False']:12.2f}"
            )


if __name__ == "__main__":
    main()
