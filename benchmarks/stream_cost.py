"""Cost per delta of streaming chunking: chunkwise's driver against rescanning.

Streams prose, prose without abbreviations or decimals ("prose-plain": only
sentence ends hold periods), Markdown and boundary-free text (no terminator,
no whitespace) in 4-character deltas through

1. ``ChunkStream``: chunkwise's incremental driver;
2. rescan: ``split`` on the whole accumulated text at every delta (what a
   stateless ``split``/``flush`` orchestrator such as mellea's does);
3. guardrails: Guardrails 0.11's accumulate-and-call pattern with its default
   ``split_sentence_word_tokenizers_jl_separator``: join the pending deltas,
   call the function, keep the remainder it returns when it finds a sentence;

and prints the CPU time per delta (process time, best of a few runs, so that
other work on a shared machine does not count) and the ratios in one table.
(2) and (3) grow with the square of the stream length on some texts; a run
whose estimate exceeds ``--budget`` seconds is skipped and shown as such (the
estimate extrapolates the growth between the two previous sizes, assuming
quadratic growth when there is only one).

Usage: ``python benchmarks/stream_cost.py [--sizes 1KB,10KB,100KB,1MB]
[--chunker sentence] [--quick]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _text import GENERATORS, deltas, offline, parse_size, prose

offline()  # before anything imports Guardrails

from guardrails.validator_base import (  # noqa: E402
    split_sentence_word_tokenizers_jl_separator as guardrails_split,
)

from guardrails_ai.chunkwise.chunkers import ChunkStream, resolve_chunker  # noqa: E402
from guardrails_ai.chunkwise.chunkers.base import ChunkingStrategy  # noqa: E402

DELTA = 4
KINDS: dict[str, Callable[[int, int], str]] = {
    "prose": GENERATORS["prose"],
    "prose-plain": lambda size, seed: prose(size, seed, inner_periods=False),
    "markdown": GENERATORS["markdown"],
    "boundary-free": GENERATORS["boundary-free"],
}
DRIVERS = ("chunkstream", "rescan", "guardrails")
QUADRATIC = ("rescan", "guardrails")

Run = Callable[[list[str]], int]


def run_chunkstream(strategy: ChunkingStrategy) -> Run:
    def run(parts: list[str]) -> int:
        stream = ChunkStream(strategy)
        n = 0
        for delta in parts:
            n += len(stream.feed(delta))
        return n + len(stream.close())

    return run


def run_rescan(strategy: ChunkingStrategy) -> Run:
    def run(parts: list[str]) -> int:
        text = ""
        reported = 0
        for delta in parts:
            text += delta
            chunks = strategy.split(text)
            reported = len(chunks)  # the new chunks are chunks[previous:]
        return reported + len(strategy.flush(text))

    return run


def run_guardrails(parts: list[str]) -> int:
    pending: list[str] = []
    n = 0
    for delta in parts:
        pending.append(delta)
        answer = guardrails_split("".join(pending))
        if answer:
            n += 1
            pending = [answer[1]]
    return n


def best_per_delta(run: Run, parts: list[str], min_total: float, min_runs: int = 1) -> float:
    """Best CPU time per delta (µs) over at least ``min_runs`` runs lasting
    ``min_total`` s in all."""
    best = float("inf")
    spent = 0.0
    runs = 0
    while True:
        start = time.process_time()
        run(parts)
        elapsed = time.process_time() - start
        best = min(best, elapsed)
        spent += elapsed
        runs += 1
        if spent >= min_total and runs >= min_runs:
            return best / len(parts) * 1e6


def extrapolate(history: list[tuple[int, float]], size: int) -> float:
    """Seconds one run at ``size`` should take, from earlier (size, seconds) runs."""
    size1, total1 = history[-1]
    exponent = 2.0
    if len(history) >= 2:
        size0, total0 = history[-2]
        exponent = math.log(total1 / total0) / math.log(size1 / size0)
        exponent = min(2.0, max(1.0, exponent))
    return total1 * (size / size1) ** exponent


def fmt_size(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}MB"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}KB"
    return str(n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="1KB,10KB,100KB,1MB", help="comma-separated, e.g. 1KB,10KB,1MB"
    )
    parser.add_argument("--chunker", default="sentence", help="alias for (1) and (2)")
    parser.add_argument(
        "--budget", type=float, default=60.0, help="skip a quadratic run estimated over this (s)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="sizes 1KB,10KB and a 5 s budget (smoke run)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.budget = "1KB,10KB", 5.0
    sizes = sorted(parse_size(s) for s in args.sizes.split(",") if s.strip())
    strategy = resolve_chunker(args.chunker, param="--chunker")
    if not isinstance(strategy, ChunkingStrategy):  # pragma: no cover - aliases are strategies
        parser.error(f"--chunker={args.chunker!r} has no split/flush core")
    runners: dict[str, Run] = {
        "chunkstream": run_chunkstream(strategy),
        "rescan": run_rescan(strategy),
        "guardrails": run_guardrails,
    }
    min_total = 0.05 if args.quick else 0.3

    print(
        f"chunker {strategy!r}; {DELTA}-character deltas; CPU µs per delta, best run; "
        f"(3)/(1) and (2)/(1) are speed-ups of the driver"
    )
    header = (
        f"{'text':<14}{'size':>7}{'deltas':>9}{'(1) driver':>12}{'(2) rescan':>12}"
        f"{'(3) guardrails':>16}{'(2)/(1)':>9}{'(3)/(1)':>9}"
    )
    print(header)
    print("-" * len(header))
    results: dict[tuple[str, int, str], float] = {}
    for kind, make in KINDS.items():
        history: dict[str, list[tuple[int, float]]] = {d: [] for d in DRIVERS}
        for size in sizes:
            text = make(size, 0)
            parts = deltas(text, DELTA)
            expected = strategy.split_text(text)
            row: dict[str, str] = {}
            for driver in DRIVERS:
                if driver in QUADRATIC and history[driver]:
                    estimate = extrapolate(history[driver], size)
                    if estimate > args.budget:
                        row[driver] = f"skip~{estimate:.0f}s"
                        continue
                runs = 1 if driver in QUADRATIC else 3
                us = best_per_delta(runners[driver], parts, min_total, runs)
                results[(kind, size, driver)] = us
                history[driver].append((size, us * len(parts) / 1e6))
                row[driver] = f"{us:.2f}"
            if run_chunkstream(strategy)(parts) != len(expected):  # pragma: no cover
                raise SystemExit(f"ChunkStream disagrees with split_text on {kind} {size}")
            one = results[(kind, size, "chunkstream")]
            ratios = [
                f"{results[(kind, size, d)] / one:.1f}x" if (kind, size, d) in results else "-"
                for d in QUADRATIC
            ]
            print(
                f"{kind:<14}{fmt_size(size):>7}{len(parts):>9}{row['chunkstream']:>12}"
                f"{row['rescan']:>12}{row['guardrails']:>16}{ratios[0]:>9}{ratios[1]:>9}"
            )
    summary(results, sizes)
    return 0


def summary(results: dict[tuple[str, int, str], float], sizes: list[int]) -> None:
    """The issue's two targets, measured."""
    print()
    for kind in ("prose", "prose-plain"):
        key = (kind, 100_000)
        if (*key, "guardrails") in results:
            speedup = results[(*key, "guardrails")] / results[(*key, "chunkstream")]
            verdict = "met" if speedup >= 25 else "MISSED"
            print(
                f"target 1: at 100KB of {kind} the driver is {speedup:.1f}x faster than (3) "
                f"(target >= 25x: {verdict})"
            )
    small = [s for s in sizes if s >= 10_000]
    if len(small) >= 2:
        a, b = small[0], small[-1]
        growth = results[("boundary-free", b, "chunkstream")] / results[
            ("boundary-free", a, "chunkstream")
        ]
        verdict = "met" if growth <= 2.0 else "MISSED"
        print(
            f"target 2: boundary-free, driver time per delta {fmt_size(a)} -> {fmt_size(b)}: "
            f"x{growth:.2f} (target: does not grow, at most x2: {verdict})"
        )


if __name__ == "__main__":
    raise SystemExit(main())
