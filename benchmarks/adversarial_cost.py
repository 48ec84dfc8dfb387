"""Cost of adversarial inputs: seconds per MB, and how it grows with the input.

Issue 12's attacks (and the runs of every character class the adversarial
test suite generates) through every chunker, and through the chunkers the
four validators use by default, as a whole document (``split_text``) and
streamed in 4-character deltas through ``ChunkStream``.  For each cell the
CPU seconds per MB (``time.process_time``, best of ``--repeat``) at each size,
and the growth: seconds per MB at the largest size over seconds per MB at the
smallest.  Linear cost gives a growth near 1.0; the target is at most 1.2
per 4x input; quadratic cost would give 4.0 per 4x.  Rows over 1.2 are marked.

Usage: ``python benchmarks/adversarial_cost.py [--sizes 1MB,4MB] [--repeat 1]
[--attacks a-dot,spaces] [--chunkers sentence,regex-readme] [--modes whole,stream]``
(``--sizes 50KB,200KB`` for a quick run).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _text import offline, parse_size

offline()  # before anything imports Guardrails

from _attacks import UNITS, chunker_kinds, repeat  # noqa: E402
from stream_cost import run_chunkstream  # noqa: E402

from guardrails_ai.chunkwise.chunkers import ChunkingStrategy  # noqa: E402

DELTA = 4
TARGET = 1.2

#: Issue 12's attacks first, then runs of other character classes.
ATTACKS: dict[str, str] = {
    name: UNITS[name]
    for name in (
        "a-dot",
        "decimals",
        "fences",
        "spaces",
        "newlines",
        "dot-space",
        "combining",
        "cjk",
        "digits",
        "json",
        "csv",
    )
}
ATTACKS["semicolons"] = ";"


def chunkers() -> dict[str, ChunkingStrategy]:
    """Every chunker kind, then the validators' default chunkers."""
    found = chunker_kinds()
    from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII

    validators = {
        "BannedPhrases": lambda: BannedPhrases(["free money"]),
        "NoRepetition": NoRepetition,
        "RedactPII": RedactPII,
        "MaxChunkLength": lambda: MaxChunkLength(max_chars=500),
    }
    for name, make in validators.items():
        try:
            strategy = make().chunker
        except (TypeError, ValueError) as exc:  # a signature changed: say so, go on
            print(f"# {name}: skipped ({exc})", file=sys.stderr)
            continue
        if isinstance(strategy, ChunkingStrategy):
            found[f"{name} default"] = strategy
    return found


def runner(strategy: ChunkingStrategy, text: str, mode: str) -> Callable[[], object]:
    if mode == "whole":
        return lambda: strategy.split_text(text)
    parts = [text[i : i + DELTA] for i in range(0, len(text), DELTA)]
    run = run_chunkstream(strategy)
    return lambda: run(parts)


def seconds(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        run()
        best = min(best, time.process_time() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1MB,4MB", help="comma-separated, e.g. 50KB,200KB")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--attacks", default=",".join(ATTACKS))
    parser.add_argument("--chunkers", default="", help="names (default: all)")
    parser.add_argument("--modes", default="whole,stream")
    args = parser.parse_args()
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    table = chunkers()
    names = [n for n in args.chunkers.split(",") if n] or list(table)
    modes = args.modes.split(",")
    head = " ".join(f"{'s/MB@' + s:>12}" for s in args.sizes.split(","))
    print(
        f"sizes {sizes}; CPU seconds per MB (best of {args.repeat}), deltas of {DELTA} "
        f"characters when streamed; growth = s/MB at the largest / at the smallest "
        f"(target <= {TARGET})"
    )
    print(f"{'attack':12} {'chunker':22} {'mode':7} {head} {'growth':>7}")
    worst = 0.0
    for attack in args.attacks.split(","):
        texts = [repeat(ATTACKS[attack], n) for n in sizes]
        for name in names:
            for mode in modes:
                per_mb = [
                    seconds(runner(table[name], text, mode), args.repeat) / len(text) * 1e6
                    for text in texts
                ]
                ratio = per_mb[-1] / max(per_mb[0], 1e-9)
                worst = max(worst, ratio)
                flag = "  <-- over target" if ratio > TARGET else ""
                cells = " ".join(f"{v:12.3f}" for v in per_mb)
                print(f"{attack:12} {name:22} {mode:7} {cells} {ratio:7.2f}{flag}", flush=True)
    print(f"worst growth: {worst:.2f}")


if __name__ == "__main__":
    main()
