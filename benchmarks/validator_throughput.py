"""Throughput of the example validators, at once and streamed through a Guard.

Usage: ``python benchmarks/validator_throughput.py [--size 100KB] [--stream-size 10KB]
[--delta 16] [--repeat 3]``

Three tables, best of ``--repeat`` runs:

* ``validate``: ``validator.validate(text)`` on generated prose
  (``benchmarks/_text.py``), chunking included, in M characters per second;
* ``phrases``: ``BannedPhrases`` with 10, 1 000 and 10 000 phrases on the same
  text (one trie-shaped pattern: the cost should not grow with the count),
  and on text full of full-width letters and zero-width characters;
* ``adversarial``: ``RedactPII`` on near-misses (long digit runs, digit groups,
  ``+`` runs, hex-colon runs, card numbers one space apart) at two sizes: the
  time should double with the size, not quadruple;
* ``stream``: ``guarded_stream`` over a ``Guard`` holding the validator,
  ``--delta``-character deltas, in microseconds per delta (Guardrails' own
  per-delta overhead included).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _text import deltas, offline, parse_size, prose

offline()

from guardrails import Guard  # noqa: E402

from guardrails_ai.chunkwise import (  # noqa: E402
    BannedPhrases,
    MaxChunkLength,
    NoRepetition,
    RedactPII,
)
from guardrails_ai.chunkwise._pii import find_entities  # noqa: E402
from guardrails_ai.chunkwise.adapters import guarded_stream  # noqa: E402

MESSAGES = [{"role": "user", "content": "x"}]


def best(run: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``run`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def validators() -> dict[str, Callable[[], object]]:
    return {
        "BannedPhrases(3)": lambda: BannedPhrases(["bad word", "evil", "free money"]),
        "RedactPII()": lambda: RedactPII(),
        "NoRepetition()": lambda: NoRepetition(max_repeats=1000),
        "MaxChunkLength(40 words)": lambda: MaxChunkLength(max_words=40),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--size", default="100KB", help="characters validated at once")
    parser.add_argument("--stream-size", default="10KB", help="characters streamed")
    parser.add_argument("--delta", type=int, default=16, help="delta size when streaming")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    size, stream_size = parse_size(args.size), parse_size(args.stream_size)
    text = prose(size, seed=1)

    print(f"validate: {size} characters of prose, best of {args.repeat}")
    for name, make in validators().items():
        v: object = make()
        seconds = best(lambda v=v: v.validate(text, {}), args.repeat)  # type: ignore[attr-defined]
        print(f"  {name:<26} {size / seconds / 1e6:6.2f} M chars/s")

    print("phrases: BannedPhrases, same text")
    tricky = ("\uff22\uff41\uff44\u200b w\u00adord caf\u00e9 e\u0301 " * (size // 24 + 1))[:size]
    for count in (10, 1000, 10000):
        v = BannedPhrases([f"phrase number {i}" for i in range(count)] + ["bad word"])
        plain = best(lambda v=v: v.validate(text, {}), args.repeat)
        odd = best(lambda v=v: v.validate(tricky, {}), args.repeat)
        print(
            f"  {count:>6} phrases: prose {size / plain / 1e6:5.2f} M chars/s, "
            f"full-width/zero-width text {size / odd / 1e6:5.2f} M chars/s"
        )

    print("adversarial: RedactPII detectors (find_entities), ms at 1x and 2x size")
    cases = {
        "digit run": "1" * size,
        "digit groups '1234 '": ("1234 " * size)[:size],
        "'+1' runs": ("+1" * size)[:size],
        "hex colons 'a:'": ("a:" * size)[:size],
        "cards one space apart": ("4111 1111 1111 1111 " * size)[:size],
    }
    for name, sample in cases.items():
        one = best(lambda s=sample: find_entities(s), 1)
        two = best(lambda s=sample: find_entities(s + s), 1)
        print(f"  {name:<24} {one * 1e3:8.0f} ms {two * 1e3:8.0f} ms  x{two / one:4.2f}")

    print(f"stream: guarded_stream, {stream_size} characters in {args.delta}-character deltas")
    parts = deltas(prose(stream_size, seed=2), args.delta)

    def llm(*, messages: object = None, **kwargs: object) -> object:
        yield from parts

    warm_up = Guard().use(MaxChunkLength(max_words=40))
    list(guarded_stream(warm_up, llm, messages=MESSAGES))  # Guardrails' first call is slow
    for name, make in validators().items():
        guard = Guard().use(make())
        seconds = best(lambda g=guard: list(guarded_stream(g, llm, messages=MESSAGES)), 1)
        print(f"  {name:<26} {seconds / len(parts) * 1e6:8.0f} us per delta")


if __name__ == "__main__":
    main()
