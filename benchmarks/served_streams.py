"""Concurrent streams through one server worker: `chunkwise serve` vs `guardrails start`.

Both servers run in this one benchmark, as real processes on 127.0.0.1, with
the same config (one guard: RedactPII + BannedPhrases, on_fail fix) and the
same local OpenAI-compatible upstream (``tests/helpers/fake_openai_upstream.py``:
deltas of 1-7 characters, 5 ms apart), LiteLLM pointed at it with
``OPENAI_BASE_URL``.  For each number of concurrent streams, every stream
starts at once (httpx, asyncio) and the table reports:

* req/s: streams / the wall time until the last one ended;
* p50 / p95: time from a stream's request to its last chunk, in seconds;
* RSS/stream: (the server's peak RSS during the batch - its RSS before) / streams;
* leaked: streams whose ``delta.content`` carried the raw e-mail address.

Then the ratios chunkwise / guardrails (target at 128 streams: req/s >= 4x,
p95 <= 1/4).  ``--streams 8 --chars 200`` for a quick run.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from helpers.server import free_port, server_env, start_server, start_upstream, stop  # noqa: E402

from guardrails_ai.chunkwise.cli.offline import go_offline  # noqa: E402

CONFIG = """\
from guardrails import Guard
from guardrails_ai.chunkwise import BannedPhrases, RedactPII

# guardrails-api finds in-memory guards by id: give it the name.
pii = Guard(id="pii", name="pii").use(
    RedactPII(on_fail="fix"), BannedPhrases(["free money"], on_fail="fix")
)
"""
SENTENCE = "Please write to support{i}@example.com about order {i}, it shipped today. "


@dataclass
class Row:
    server: str
    streams: int
    rps: float
    p50: float
    p95: float
    kb_per_stream: float
    leaked: int


def _text(i: int, chars: int) -> str:
    text = ""
    while len(text) < chars:
        text += SENTENCE.format(i=i)
    return text[:chars].rstrip() + "."


def _rss_kb(pid: int) -> int:
    """VmRSS of ``pid`` and its children, in KB."""
    total = 0
    pids = [pid]
    try:
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pass
    for each in pids:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class PeakRss:
    """Samples a process tree's RSS every 20 ms in a thread; ``peak`` is the largest."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._done = pid, _rss_kb(pid), threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            self.peak = max(self.peak, _rss_kb(self.pid))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


async def _one(client: httpx.AsyncClient, url: str, text: str, email: str) -> tuple[float, bool]:
    body = {"model": "gpt-4o-mini", "stream": True, "messages": [{"role": "user", "content": text}]}
    start = time.perf_counter()
    content = []
    async with client.stream("POST", url, json=body) as answer:
        async for line in answer.aiter_lines():
            if line.startswith("data: {"):
                event = json.loads(line[6:])
                for choice in event.get("choices") or []:
                    content.append((choice.get("delta") or {}).get("content") or "")
    return time.perf_counter() - start, email in "".join(content)


async def _batch(port: int, streams: int, chars: int) -> tuple[float, list[float], int]:
    url = f"http://127.0.0.1:{port}/guards/pii/openai/v1/chat/completions"
    limits = httpx.Limits(max_connections=streams + 8, max_keepalive_connections=streams + 8)
    async with httpx.AsyncClient(timeout=600, limits=limits) as client:
        start = time.perf_counter()
        results = await asyncio.gather(
            *(_one(client, url, _text(i, chars), f"support{i}@example.com") for i in range(streams))
        )
        wall = time.perf_counter() - start
    return wall, [latency for latency, _ in results], sum(leaked for _, leaked in results)


def _measure(name: str, port: int, pid: int, streams: int, chars: int) -> Row:
    asyncio.run(_batch(port, 2, chars))  # warm up
    before = _rss_kb(pid)
    with PeakRss(pid) as rss:
        wall, latencies, leaked = asyncio.run(_batch(port, streams, chars))
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))]
    return Row(
        name,
        streams,
        streams / wall,
        statistics.median(latencies),
        p95,
        max(0, rss.peak - before) / streams,
        leaked,
    )


def _print(rows: Sequence[Row], deltas_per_stream: float, delay_ms: float) -> None:
    print(
        f"each stream: ~{deltas_per_stream:.0f} upstream deltas, {delay_ms:g} ms apart "
        f"(>= {deltas_per_stream * delay_ms / 1000:.2f} s alone)"
    )
    print(
        f"{'server':<17} {'streams':>7} {'req/s':>8} {'p50 s':>7} {'p95 s':>7} "
        f"{'RSS/stream KB':>13} {'leaked':>7}"
    )
    for r in rows:
        print(
            f"{r.server:<17} {r.streams:>7} {r.rps:>8.2f} {r.p50:>7.2f} {r.p95:>7.2f} "
            f"{r.kb_per_stream:>13.0f} {r.leaked:>4}/{r.streams}"
        )
    by = {(r.server, r.streams): r for r in rows}
    for streams in sorted({r.streams for r in rows}):
        ours, theirs = by[("chunkwise serve", streams)], by[("guardrails start", streams)]
        print(
            f"{streams} streams: chunkwise serve / guardrails start: "
            f"req/s {ours.rps / theirs.rps:.1f}x, p95 {ours.p95 / theirs.p95:.2f}x"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[32, 128])
    parser.add_argument("--chars", type=int, default=300, help="characters per response")
    parser.add_argument("--delay-ms", type=float, default=5.0, help="between upstream deltas")
    args = parser.parse_args(argv)
    go_offline()
    folder = Path(tempfile.mkdtemp(prefix="chunkwise-served-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / "config.py").write_text(CONFIG, encoding="utf-8")
    upstream, upstream_port = start_upstream(args.delay_ms)
    env = server_env(upstream_port)
    commands = {
        "chunkwise serve": [
            sys.executable,
            "-m",
            "guardrails_ai.chunkwise",
            "serve",
            "--config",
            "config.py",
            "--workers",
            "1",
            "--port",
        ],
        "guardrails start": [
            str(Path(sys.executable).with_name("guardrails")),
            "start",
            "--config",
            "config.py",
            "--port",
        ],
    }
    rows = []
    try:
        for name, command in commands.items():
            port = free_port()
            with (folder / f"{name.split()[0]}.log").open("wb") as log:
                proc = start_server([*command, str(port)], port, env, folder, log)
                try:
                    rows += [_measure(name, port, proc.pid, n, args.chars) for n in args.streams]
                finally:
                    stop(proc)
    finally:
        stop(upstream)
    _print(rows, args.chars / 4, args.delay_ms)


if __name__ == "__main__":
    main()
