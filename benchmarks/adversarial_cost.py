"""Cost of adversarial inputs: seconds per MB, and how it grows with the input.

Issue 12's attacks (and the runs of every character class the adversarial
test suite generates) through every chunker, through the chunkers the four
validators use by default, and through the four validators themselves
(``on_fail="fix"``: chunking, validating each chunk, merging), as a whole
document (``split_text``, ``validate``) and streamed in 4-character deltas
(``ChunkStream``, ``validate_stream``).  For each cell the
CPU seconds per MB (``time.process_time``) at each size, and the growth:
seconds per MB at the largest size over seconds per MB at the smallest.
Linear cost gives a growth near 1.0; the target is at most 1.2 per 4x input;
quadratic cost would give 4.0 per 4x.  A validator's default chunker that is
the same as a chunker's row is named, not measured twice.

Time on a shared machine is noisy, so the sizes of a cell are measured in
turns (smallest, ..., largest, again) and each keeps its best reading:
``--repeat`` turns, then up to ``--retry`` more while the cell is over the
target.  A cell still over the target is then counted exactly (unless
``--instructions off``): the machine instructions it executes, read by
Valgrind's cachegrind in a child process (the run's count less that of the
same child stopping just before the run, both after a warm-up run on 10 KB,
so start-up, first calls and building the input are not counted;
``PYTHONHASHSEED=0``), printed per MB with their growth
(``Ir/MB`` columns).  Instructions do not depend on the load, so a cell whose
time grows but whose instructions do not is noise; one whose instructions grow
is real.  ``--instructions all`` counts every cell (slow: cachegrind runs
Python about 20 times slower).

Usage: ``python benchmarks/adversarial_cost.py [--sizes 1MB,4MB] [--repeat 1]
[--retry 4] [--instructions over|all|off] [--attacks a-dot,spaces]
[--chunkers sentence,regex-readme] [--modes whole,stream]``
(``--sizes 50KB,200KB`` for a quick run).
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
        "brackets",
    )
}
ATTACKS["semicolons"] = ";"


VALIDATORS = ("BannedPhrases", "NoRepetition", "RedactPII", "MaxChunkLength")

#: A row's run of one input: (text, mode) -> the timed call.
Row = Callable[[str, str], Callable[[], object]]


def validator(name: str) -> Any:
    """Validator ``name`` as the table uses it (``on_fail="fix"``: the most work)."""
    from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII

    makers: dict[str, Callable[[], object]] = {
        "BannedPhrases": lambda: BannedPhrases(["free money"], on_fail="fix"),
        "NoRepetition": lambda: NoRepetition(on_fail="fix"),
        "RedactPII": lambda: RedactPII(on_fail="fix"),
        "MaxChunkLength": lambda: MaxChunkLength(max_chars=500, on_fail="fix"),
    }
    return makers[name]()


def chunker_row(strategy: ChunkingStrategy) -> Row:
    """``split_text`` of the whole text, or ``ChunkStream`` fed the deltas."""

    def row(text: str, mode: str) -> Callable[[], object]:
        if mode == "whole":
            return lambda: strategy.split_text(text)
        parts = deltas(text)
        run = run_chunkstream(strategy)
        return lambda: run(parts)

    return row


def validator_row(name: str) -> Row:
    """``validate`` of the whole text, or ``validate_stream`` of every delta and the end
    (chunking, validating every chunk and merging the results)."""
    checker = validator(name)

    def row(text: str, mode: str) -> Callable[[], object]:
        if mode == "whole":
            return lambda: checker.validate(text, {})
        parts = deltas(text)

        def run() -> None:
            for delta in parts:
                checker.validate_stream(delta, {})
            checker.validate_stream("", {}, remainder=True)

        return run

    return row


def rows() -> dict[str, Callable[[], Row]]:
    """Every chunker kind, the validators' default chunkers not already listed, then
    the validators themselves; each as a maker, so that a run builds only its own."""
    found: dict[str, Callable[[], Row]] = {}
    seen: dict[str, str] = {}
    for name, strategy in chunker_kinds().items():
        found[name] = functools.partial(chunker_row, strategy)
        seen[repr(strategy)] = name
    for name in VALIDATORS:
        try:
            strategy = validator(name).chunker
        except (TypeError, ValueError) as exc:  # a signature changed: say so, go on
            print(f"# {name}: skipped ({exc})", file=sys.stderr)
            continue
        if repr(strategy) in seen:
            print(f"# {name} default chunker: the same as {seen[repr(strategy)]}")
        else:
            found[f"{name} default"] = functools.partial(chunker_row, strategy)
        found[f"{name} fix"] = functools.partial(validator_row, name)
    return found


def deltas(text: str) -> list[str]:
    return [text[i : i + DELTA] for i in range(0, len(text), DELTA)]


def seconds(run: Callable[[], object]) -> float:
    began = time.process_time()
    run()
    return time.process_time() - began


def growth(per_mb: list[float]) -> float:
    return per_mb[-1] / max(per_mb[0], 1e-12)


def best_seconds_per_mb(
    row: Row, texts: list[str], mode: str, repeat: int, retry: int
) -> tuple[list[float], int]:
    """Best CPU s/MB of each text, measured in turns; and the number of turns."""
    runs = [row(text, mode) for text in texts]
    best = [float("inf")] * len(texts)
    turns = 0
    while turns < repeat or (turns < repeat + retry and growth(best) > TARGET):
        for i, run in enumerate(runs):
            best[i] = min(best[i], seconds(run) / len(texts[i]) * 1e6)
        turns += 1
    return best, turns


# -- exact work: instructions counted by cachegrind --------------------------------


def child(attack: str, name: str, mode: str, size: int, stop: bool) -> None:
    """Build one cell's input and run it once (or stop just before: ``stop``).

    A run on 10 KB first, either way: what a first call does once (imports,
    compiled patterns, caches) is not counted as the cell's work.
    """
    kinds = chunker_kinds()  # a chunker's child does not import Guardrails
    row = chunker_row(kinds[name]) if name in kinds else rows()[name]()
    row(repeat(ATTACKS[attack], 10_000), mode)()
    run = row(repeat(ATTACKS[attack], size), mode)
    if not stop:
        run()


def instructions(attack: str, name: str, mode: str, size: int) -> int:
    """Instructions one run of a cell executes (cachegrind), start-up excluded."""
    counts = []
    for stop in (False, True):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "cachegrind.out"
            command = [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out}",
                sys.executable,
                __file__,
                "--child",
                attack,
                name,
                mode,
                str(size),
                "stop" if stop else "run",
            ]
            env = {**os.environ, "PYTHONHASHSEED": "0"}
            subprocess.run(command, check=True, env=env, capture_output=True)
            summary = [ln for ln in out.read_text().splitlines() if ln.startswith("summary:")]
            counts.append(int(summary[0].split()[1]))
    return counts[0] - counts[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1MB,4MB", help="comma-separated, e.g. 50KB,200KB")
    parser.add_argument("--repeat", type=int, default=1, help="turns per cell, at least")
    parser.add_argument("--retry", type=int, default=4, help="more turns while over target")
    parser.add_argument("--instructions", choices=("over", "all", "off"), default="over")
    parser.add_argument("--attacks", default=",".join(ATTACKS))
    parser.add_argument("--chunkers", default="", help="names (default: all)")
    parser.add_argument("--modes", default="whole,stream")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        attack, name, mode, size, what = args.child
        child(attack, name, mode, int(size), what == "stop")
        return
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    table = rows()
    names = [n for n in args.chunkers.split(",") if n] or list(table)
    modes = args.modes.split(",")
    counting = args.instructions != "off" and shutil.which("valgrind") is not None
    if args.instructions != "off" and not counting:
        print("# valgrind not found: no instruction counts")
    labels = args.sizes.split(",")
    head = " ".join(f"{'s/MB@' + s:>11}" for s in labels)
    ir_head = " ".join(f"{'Ir/MB@' + s:>11}" for s in labels)
    print(
        f"sizes {sizes}; CPU seconds per MB (best of {args.repeat} turns, up to "
        f"{args.repeat + args.retry} while over target), deltas of {DELTA} characters when "
        f"streamed; growth = per MB at the largest / at the smallest (target <= {TARGET}); "
        f"Ir/MB = millions of instructions per MB (cachegrind)"
    )
    print(
        f"{'attack':12} {'chunker':22} {'mode':6} {head} {'turns':>5} {'growth':>6}  "
        f"{ir_head} {'Ir growth':>9}"
    )
    worst = worst_ir = 0.0
    for attack in args.attacks.split(","):
        texts = [repeat(ATTACKS[attack], n) for n in sizes]
        for name in names:
            for mode in modes:
                per_mb, turns = best_seconds_per_mb(
                    table[name](), texts, mode, args.repeat, args.retry
                )
                ratio = growth(per_mb)
                worst = max(worst, ratio)
                cells = " ".join(f"{v:11.3f}" for v in per_mb)
                line = f"{attack:12} {name:22} {mode:6} {cells} {turns:5} {ratio:6.2f}"
                if counting and (args.instructions == "all" or ratio > TARGET):
                    ir = [instructions(attack, name, mode, n) / n for n in sizes]
                    ir_ratio = growth(ir)
                    worst_ir = max(worst_ir, ir_ratio)
                    flag = "  <-- over target" if ir_ratio > TARGET else ""
                    counts = " ".join(f"{v:11.1f}" for v in ir)
                    line += f"  {counts} {ir_ratio:9.2f}{flag}"
                elif ratio > TARGET:
                    line += "  <-- over target"
                print(line, flush=True)
    print(
        f"worst time growth: {worst:.2f}; worst instruction growth (cells counted): {worst_ir:.2f}"
    )


if __name__ == "__main__":
    main()
