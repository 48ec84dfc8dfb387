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

After the table, the validator level: ``validate_stream`` of a
``ChunkedValidator`` (and of a plain Validator given ``with_chunker``) called
directly on 100 KB of prose-plain, against the bare ``ChunkStream`` and a plain
Validator with Guardrails' default chunking (``--part validator``: that row
only).

``--part end-to-end`` streams whole responses (default 1, 4 and 10 MB of
prose in 4-character deltas) through a Guard on each path: the plain
``guard(llm, stream=True)`` with no validator (the reference),
``guarded_stream`` with no validator and with RedactPII, ``guard(stream=True)``
with RedactPII (a ``ChunkedValidator``) and, when the package has
``enable_validated_streaming``, the plain and AsyncGuard paths after enabling
it.  Each row runs in a fresh process and reports CPU s per MB, the child's
peak RSS and the per-delta cost over the reference's; then the growth of s per
MB from the smallest to the largest size.  The consumer checks each outcome
against the text as it comes and keeps none, so the memory is the path's.  A
row whose estimate exceeds ``--budget`` seconds is skipped (from a single
earlier size the estimate assumes quadratic growth: give a linear path such as
``guarded``, about 20 s per MB, ``--budget 2500`` to measure 10 MB).

Usage: ``python benchmarks/stream_cost.py [--part chunking|validator|end-to-end]
[--sizes 1KB,10KB,100KB,1MB] [--chunker sentence] [--paths guard,guarded]
[--budget 60] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _text import GENERATORS, deltas, fmt_size, offline, parse_size, prose

offline()  # before anything imports Guardrails

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
    # Imported here: importing this module (for run_chunkstream) stays light.
    from guardrails.validator_base import (
        split_sentence_word_tokenizers_jl_separator as guardrails_split,
    )

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--part",
        choices=("chunking", "validator", "end-to-end"),
        default="chunking",
        help="the chunking table and the validator level (default), the validator level "
        "only, or whole responses through a Guard",
    )
    parser.add_argument(
        "--sizes",
        default=None,
        help="comma-separated, e.g. 1KB,10KB,1MB (default 1KB,10KB,100KB,1MB; "
        "end-to-end: 1MB,4MB,10MB)",
    )
    parser.add_argument("--chunker", default="sentence", help="alias for (1) and (2)")
    parser.add_argument(
        "--paths", default=None, help="end-to-end: comma-separated paths (default: all)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="skip a run estimated over this many seconds (default 60; end-to-end 600)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes and a short budget (smoke run)"
    )
    parser.add_argument("--child", nargs=2, metavar=("PATH", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child[0], int(args.child[1]))))
        return 0
    end_to_end_part = args.part == "end-to-end"
    default_sizes = "1MB,4MB,10MB" if end_to_end_part else "1KB,10KB,100KB,1MB"
    quick_sizes = "20KB,40KB" if end_to_end_part else "1KB,10KB"
    args.sizes = args.sizes or (quick_sizes if args.quick else default_sizes)
    if args.budget is None:
        args.budget = (
            (30.0 if end_to_end_part else 5.0)
            if args.quick
            else (600.0 if end_to_end_part else 60.0)
        )
    sizes = sorted(parse_size(s) for s in args.sizes.split(",") if s.strip())
    level_size, rounds = (10_000, 3) if args.quick else (100_000, 7)
    if args.part == "validator":
        validator_level(level_size, rounds)
        return 0
    if end_to_end_part:
        known = available_paths()
        paths = known if args.paths is None else [p.strip() for p in args.paths.split(",")]
        unknown = [p for p in paths if p not in known]
        if unknown:
            parser.error(f"--paths: {unknown[0]!r} is none of {', '.join(known)}")
        end_to_end(sizes, paths, args.budget)
        return 0
    strategy = resolve_chunker(args.chunker, param="--chunker")
    if not isinstance(strategy, ChunkingStrategy):  # pragma: no cover - aliases are strategies
        parser.error(f"--chunker={args.chunker!r} has no split/flush core")
    run_guardrails([])  # import Guardrails before anything is timed
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
    print()
    validator_level(level_size, rounds)
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
        growth = (
            results[("boundary-free", b, "chunkstream")]
            / results[("boundary-free", a, "chunkstream")]
        )
        verdict = "met" if growth <= 2.0 else "MISSED"
        print(
            f"target 2: boundary-free, driver time per delta {fmt_size(a)} -> {fmt_size(b)}: "
            f"x{growth:.2f} (target: does not grow, at most x2: {verdict})"
        )


# -- the validator level: what finding and merging a stream cost per delta --------


def _level_validators() -> tuple[type[Any], type[Any]]:
    """A ``ChunkedValidator`` and a plain ``Validator`` that pass every chunk."""
    from guardrails.validator_base import Validator, register_validator
    from guardrails_ai.types import PassResult

    from guardrails_ai.chunkwise.adapters import ChunkedValidator

    @register_validator(name="chunkwise-bench/chunked-pass", data_type="string")
    class ChunkedPass(ChunkedValidator):
        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            return PassResult()

    @register_validator(name="chunkwise-bench/plain-pass", data_type="string")
    class PlainPass(Validator):
        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            return PassResult()

    return ChunkedPass, PlainPass


def validator_level(size: int, rounds: int) -> None:
    """``validate_stream`` called directly, delta by delta, against the bare driver.

    (1) ``ChunkStream`` alone; (2) ``ChunkedValidator.validate_stream``; (3) a
    plain Validator given ``with_chunker`` (``exact_validate_stream``); (4) a
    plain Validator with Guardrails' default chunking.  All validators pass
    every chunk; (2)-(4) end the stream with ``remainder=True``.  Rounds are
    interleaved and the best of each is kept (CPU time), so that load on a
    shared machine spreads over all four.
    """
    from guardrails_ai.chunkwise.adapters import with_chunker

    chunked_pass, plain_pass = _level_validators()
    text = prose(size, 0, inner_periods=False)
    parts = deltas(text, DELTA)
    strategy = resolve_chunker("sentence")
    metadata: dict[str, Any] = {}

    def bare() -> None:
        stream = ChunkStream(strategy)
        for delta in parts:
            stream.feed(delta)
        stream.close()

    def through(make: Callable[[], Any], end: bool) -> Callable[[], None]:
        def run() -> None:
            validator = make()
            validate_stream = validator.validate_stream
            for delta in parts:
                validate_stream(delta, metadata)
            if end:
                validate_stream("", metadata, remainder=True)

        return run

    drivers = {
        "(1) ChunkStream": bare,
        "(2) ChunkedValidator": through(chunked_pass, True),
        "(3) with_chunker": through(lambda: with_chunker(plain_pass(), strategy), True),
        "(4) guardrails default": through(plain_pass, False),
    }
    best = dict.fromkeys(drivers, float("inf"))
    for _ in range(rounds):
        for name, run in drivers.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    one = best["(1) ChunkStream"]
    print(
        f"validator level: {fmt_size(size)} of prose-plain in {DELTA}-character deltas "
        f"({len(parts)} deltas), validate_stream called directly; CPU µs per delta, "
        f"best of {rounds} interleaved rounds"
    )
    for name, seconds in best.items():
        print(f"  {name:<24}{seconds / len(parts) * 1e6:>8.2f} µs  x{seconds / one:.2f} of (1)")
    ratio = best["(2) ChunkedValidator"] / one
    print(
        f"target: (2) within 2x of (1): x{ratio:.2f} ({'met' if ratio <= 2 else 'MISSED'}); "
        f"(4)/(2) = {best['(4) guardrails default'] / best['(2) ChunkedValidator']:.1f}x"
    )


# -- end to end: a whole Guard, one fresh process per row -------------------------

#: name -> what streams: built by the child, see ``_child``.
PATHS = {
    "guard": "guard(stream=True), no validator (the reference)",
    "guarded": "guarded_stream, no validator",
    "guarded+pii": "guarded_stream, RedactPII(fix)",
    "guard+chunked": "guard(stream=True), RedactPII(fix), a ChunkedValidator",
    "enabled+pii": "enable_validated_streaming(); guard(stream=True), RedactPII(fix)",
    "enabled-async+pii": "enable_validated_streaming(); AsyncGuard, RedactPII(fix)",
}
#: Rows through Guardrails' own runner, which may hold back the trailing fragment.
PLAIN = ("guard", "guard+chunked")
#: Rows that need ``guardrails_ai.chunkwise.enable_validated_streaming``.
ENABLED = ("enabled+pii", "enabled-async+pii")
MESSAGES = [{"role": "user", "content": "(benchmark)"}]


def available_paths() -> list[str]:
    import guardrails_ai.chunkwise as hub

    enabled = getattr(hub, "enable_validated_streaming", None) is not None
    return [p for p in PATHS if enabled or p not in ENABLED]


def _child(path: str, size: int) -> dict[str, Any]:
    """Stream ``size`` characters of prose in 4-character deltas through ``path``."""
    import asyncio
    import resource

    from guardrails import AsyncGuard, Guard

    import guardrails_ai.chunkwise as hub
    from guardrails_ai.chunkwise.adapters import guarded_stream

    source = [prose(200, 1)]  # a warm-up stream first: Guardrails' first call imports a lot

    def llm(*, messages: Any = None, **kwargs: Any) -> Any:
        text = source[0]
        for i in range(0, len(text), DELTA):
            yield text[i : i + DELTA]

    class Response:
        def __init__(self) -> None:
            self.completion_stream = self._stream()

        @staticmethod
        async def _stream() -> Any:
            text = source[0]
            for i in range(0, len(text), DELTA):
                yield text[i : i + DELTA]

    async def async_llm(*, messages: Any = None, **kwargs: Any) -> Response:
        return Response()

    validators = [] if path in ("guard", "guarded") else [hub.RedactPII(on_fail="fix")]
    if path in ENABLED:
        hub.enable_validated_streaming()
    # The consumer checks each outcome against the text as it comes and keeps
    # none: a list of every outcome (one per delta with no validator, a million
    # at 4 MB) would be the benchmark's memory and allocations, not the path's.
    released = [0, True]  # characters released so far; all of them equal to the text's

    def consume(outcome: Any) -> None:
        out = outcome.validated_output or ""
        released[1] = released[1] and source[0].startswith(out, released[0])
        released[0] += len(out)

    if path == "enabled-async+pii":
        guard: Any = AsyncGuard().use(*validators)

        async def drive() -> None:
            outcomes = await guard(async_llm, messages=MESSAGES, stream=True)
            async for outcome in outcomes:
                consume(outcome)

        def run() -> None:
            asyncio.run(drive())
    else:
        guard = Guard().use(*validators)

        def run() -> None:
            if path.startswith("guarded"):
                outcomes = guarded_stream(guard, llm, messages=MESSAGES)
            else:
                outcomes = guard(llm, messages=MESSAGES, stream=True)
            for outcome in outcomes:
                consume(outcome)

    run()
    text = source[0] = prose(size, 0)
    released[:] = [0, True]
    setup_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    run()
    cpu = time.process_time() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    matched, count = bool(released[1]), int(released[0])
    return {
        "cpu": cpu,
        "deltas": -(-len(text) // DELTA),
        "setup_mb": setup_kb / 1024,
        "peak_mb": peak_kb / 1024,
        # The plain runner may hold back the trailing fragment: a prefix is fine.
        "lossless": matched and (count == len(text) or path in PLAIN),
    }


def _run_child(path: str, size: int, timeout: float) -> dict[str, Any] | str:
    """One row in a fresh process (its own peak RSS); an error string on failure."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", path, str(size)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"timeout>{timeout:.0f}s"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return f"failed: {last[:60]}"
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def end_to_end(sizes: list[int], paths: list[str], budget: float) -> None:
    """s per MB and peak RSS of each path at each size, one subprocess per row."""
    print(
        f"end to end: prose in {DELTA}-character deltas through a Guard, one process per row; "
        "CPU s per MB of response; peak = the child's peak RSS, +stream = peak minus the "
        "RSS before streaming; x guard = per-delta cost over the no-validator guard's"
    )
    for path in paths:
        print(f"  {path:<19}{PATHS[path]}")
    header = (
        f"{'path':<19}{'size':>7}{'deltas':>10}{'s/MB':>9}{'peak MB':>9}{'+stream':>9}"
        f"{'x guard':>9}"
    )
    print(header)
    print("-" * len(header))
    results: dict[tuple[str, int], dict[str, Any]] = {}
    for path in paths:
        history: list[tuple[int, float]] = []
        for size in sizes:
            mb = size / 1e6
            row = f"{path:<19}{fmt_size(size):>7}"
            if history and (estimate := extrapolate(history, size)) > budget:
                print(f"{row}{'':>10}{f'skip~{estimate:.0f}s':>9}")
                continue
            got = _run_child(path, size, timeout=max(3 * budget, 60.0))
            if isinstance(got, str):
                print(f"{row}{'':>10}  {got}")
                continue
            results[(path, size)] = got
            history.append((size, got["cpu"]))
            reference = results.get(("guard", size))
            versus = f"{got['cpu'] / reference['cpu']:.2f}" if reference else "-"
            flag = "" if got["lossless"] else "  (output differs from input!)"
            print(
                f"{row}{got['deltas']:>10}{got['cpu'] / mb:>9.2f}{got['peak_mb']:>9.0f}"
                f"{got['peak_mb'] - got['setup_mb']:>9.0f}{versus:>9}{flag}"
            )
    print()
    for path in paths:
        measured = [s for s in sizes if (path, s) in results]
        if len(measured) < 2:
            continue
        a, b = measured[0], measured[-1]
        per_mb = [results[(path, s)]["cpu"] / (s / 1e6) for s in (a, b)]
        growth = per_mb[1] / per_mb[0]
        print(
            f"growth {path:<19} s/MB {fmt_size(a)} -> {fmt_size(b)}: x{growth:.2f} "
            f"(target <= 1.2: {'met' if growth <= 1.2 else 'MISSED'})"
        )


if __name__ == "__main__":
    raise SystemExit(main())
