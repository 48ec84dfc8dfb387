"""Seconds per MB and peak RSS of a validated stream, before and after the pipeline runner.

Streams prose in 4-character deltas through

* ``guarded_stream`` as it was at commit ``0e295e1`` (``--before``, loaded
  from git: Guardrails' StreamRunner on a copy of the guard without output
  validators, chunkwise's pipeline on top),
* ``guarded_stream`` now (the pipeline inside the runner),
* ``guard(llm, stream=True)`` plain (Guardrails' runner) and with
  ``enable_validated_streaming()``,

with no validator and with ``RedactPII(on_fail="fix")``; each case runs in a
fresh process (so peak RSS is its own) and prints CPU seconds per MB.  A short
stream goes through the same path first, untimed: Guardrails' first call
imports LiteLLM and more (about 3.5 CPU seconds here), which ``guard(...)``
pays when called and a generator such as ``guarded_stream`` at its first
outcome, so only the warmed-up stream is timed (as in ``stream_cost.py``).

Usage: ``python benchmarks/validated_stream_cost.py [--sizes 1MB,4MB]
[--validators none,redact_pii] [--before 0e295e1]``.
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _text import deltas, fmt_size, offline, parse_size, prose

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("guarded_stream before", "none"),
    ("guarded_stream now", "none"),
    ("guard(stream=True) plain", "none"),
    ("guard(stream=True) enabled", "none"),
    ("guarded_stream before", "redact_pii"),
    ("guarded_stream now", "redact_pii"),
    ("guard(stream=True) enabled", "redact_pii"),
]


def _old_guarded_stream(commit: str) -> Any:
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:adapters/guarded.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    folder = tempfile.mkdtemp(prefix="chunkwise-bench-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = Path(folder) / "guarded_before.py"
    path.write_text(source, encoding="utf-8")
    name = "guardrails_ai.chunkwise.adapters._guarded_before"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.guarded_stream


def _one(case: str, validator: str, size: int, commit: str) -> dict[str, float]:
    offline()
    from guardrails import Guard

    from guardrails_ai.chunkwise import RedactPII, enable_validated_streaming
    from guardrails_ai.chunkwise.adapters import guarded_stream

    guard = Guard()
    if validator == "redact_pii":
        guard = guard.use(RedactPII(on_fail="fix"))
    # A warm-up stream first: Guardrails' first call imports a lot.
    source = [deltas(prose(200, 1), 4)]

    def llm(*, messages: Any = None, **kwargs: Any) -> Any:
        yield from source[0]

    messages = [{"role": "user", "content": "x"}]
    if case.endswith("enabled"):
        enable_validated_streaming()
    old = _old_guarded_stream(commit) if case == "guarded_stream before" else None

    def run() -> int:
        if old is not None:
            stream = old(guard, llm, messages=messages)
        elif case == "guarded_stream now":
            stream = guarded_stream(guard, llm, messages=messages)
        else:
            stream = guard(llm, messages=messages, stream=True)
        return sum(len(o.validated_output or "") for o in stream)

    run()
    source[0] = deltas(prose(size), 4)
    start = time.process_time()
    released = run()
    seconds = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"s_per_mb": seconds / (size / 1e6), "peak_mb": peak, "released": released}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1MB,4MB")
    parser.add_argument("--before", default="0e295e1")
    parser.add_argument("--validators", default="none,redact_pii")
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        case, validator, size = args.one
        print(json.dumps(_one(case, validator, int(size), args.before)))
        return
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    print(f"{'path':28} {'validator':11} " + " ".join(f"{fmt_size(s):>7} s/MB  RSS" for s in sizes))
    wanted = args.validators.split(",")
    for case, validator in [c for c in CASES if c[1] in wanted]:
        cells = []
        for size in sizes:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--before",
                    args.before,
                    "--one",
                    case,
                    validator,
                    str(size),
                ],
                capture_output=True,
                text=True,
            )
            if out.returncode:
                cells.append(f"{'error':>18}")
                print(out.stderr[-400:], file=sys.stderr)
                continue
            row = json.loads(out.stdout.strip().splitlines()[-1])
            cells.append(f"{row['s_per_mb']:>11.2f} {row['peak_mb']:>5.0f}")
        print(f"{case:28} {validator:11} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
