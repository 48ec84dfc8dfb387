"""Sentence scanners' streaming cost in counted events, not seconds (needs valgrind).

Usage: ``python benchmarks/sentence_cost.py [--size 200KB] [--delta 16] [--kind markdown]``
(``--delta 0``: the whole document as one delta)

On a shared machine whose speed drifts by 10-30% from one run to the next,
``sentence_speed.py`` resolves differences of a few percent only with many
rounds.  This script counts instead: it runs each mode's scanner over the same
stream under ``valgrind --tool=cachegrind`` (branch simulation on, address
randomisation off, a fixed hash seed, so a run repeats to the event), once
building the scanner only and once also feeding it, and reports the
difference: the instructions and the mispredicted branches that feeding the
stream costs, for each mode and for the accurate one with ``quotes=False``
(no quotation layer).  The last column weighs them as a rough cycle estimate (a
quarter of a cycle per instruction, 15 per mispredicted branch; in the
interpreter and the regex engine, indirect jumps mispredict often).  It does
not model the memory system, so it complements the timed benchmark, it does
not replace it.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _text import GENERATORS, parse_size

HERE = Path(__file__).resolve().parent

# What the child process runs: build one mode's scanner, then feed it or not.
CHILD = """
import sys
sys.path.insert(0, {here!r})
from _text import GENERATORS, deltas
from guardrails_ai.chunkwise.chunkers import SentenceChunker
text = GENERATORS[{kind!r}]({size}, 0)
parts = list(deltas(text, {delta})) if {delta} else [text]
scanner = SentenceChunker(**{options!r}).scanner()
if {feed}:
    feed = scanner.feed
    for part in parts:
        feed(part)
"""


#: The scanners compared: each mode, and the accurate one without its
#: quotation layer.
CHUNKERS: dict[str, dict[str, object]] = {
    "simple": {"mode": "simple"},
    "accurate": {},
    "quotes=False": {"quotes": False},
}


def count(
    kind: str, size: int, delta: int, options: dict[str, object], feed: bool
) -> tuple[int, int]:
    """Instructions and mispredicted branches of one child run."""
    code = CHILD.format(
        here=str(HERE), kind=kind, size=size, delta=delta, options=options, feed=feed
    )
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
        "--cachegrind-out-file=/dev/null", sys.executable, "-c", code,
    ]  # fmt: skip
    if shutil.which("setarch"):
        command = ["setarch", platform.machine(), "-R", *command]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = {}
    for name in ("I refs", "Mispredicts"):
        match = re.search(rf"{name.replace(' ', ' +')}:\s+([\d,]+)", done.stderr)
        if match is None:
            raise SystemExit(f"no {name!r} in valgrind's report:\n{done.stderr[-2000:]}")
        found[name] = int(match.group(1).replace(",", ""))
    return found["I refs"], found["Mispredicts"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="200KB", help="characters streamed (default 200KB)")
    parser.add_argument(
        "--delta", type=int, default=16, help="characters per delta (0: the whole text at once)"
    )
    parser.add_argument("--kind", default="markdown", choices=sorted(GENERATORS))
    args = parser.parse_args()
    if args.delta < 0:
        parser.error(f"--delta must be 0 (the whole text) or more, got {args.delta}")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this benchmark counts events under it")
    size = parse_size(args.size)
    how = f"in {args.delta}-character deltas" if args.delta else "at once"
    print(f"{args.kind}, {size:,} characters {how}, scanner only")
    print(f"{'chunker':12} {'instructions':>14} {'mispredicted':>14} {'~cycles':>12}")
    cycles = {}
    for name, options in CHUNKERS.items():
        base = count(args.kind, size, args.delta, options, False)
        fed = count(args.kind, size, args.delta, options, True)
        instructions, missed = fed[0] - base[0], fed[1] - base[1]
        cycles[name] = instructions / 4 + 15 * missed
        print(f"{name:12} {instructions:>14,} {missed:>14,} {cycles[name]:>12,.0f}")
    for name in ("accurate", "quotes=False"):
        print(f"{name}/simple estimated speed: {cycles['simple'] / cycles[name]:.3f}")


if __name__ == "__main__":
    main()
