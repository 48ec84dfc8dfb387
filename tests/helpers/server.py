"""Start and stop the processes the server tests and benchmarks talk to.

Real processes on 127.0.0.1, each in its own process group (stopped as a
group: a server with ``--workers N`` has children), with bounded waits:

* :func:`start_upstream`: ``tests/helpers/fake_openai_upstream.py`` on a free port;
* :func:`start_server`: any command serving HTTP on ``port`` (``chunkwise
  serve``, ``guardrails start``), ready when ``GET /health-check`` answers 200;
* :func:`stop`: SIGTERM to the group, SIGKILL after a grace period.

:func:`server_env` is the environment every server gets: offline (the
caller's private ``HOME`` and ``LITELLM_LOCAL_MODEL_COST_MAP``) and LiteLLM
pointed at the upstream through ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import IO

__all__ = [
    "UPSTREAM_SCRIPT",
    "free_port",
    "server_env",
    "start_server",
    "start_upstream",
    "stop",
    "worker_pids",
]

UPSTREAM_SCRIPT = Path(__file__).with_name("fake_openai_upstream.py")
#: Starting Guardrails, LiteLLM and FastAPI takes seconds on a busy machine.
START_TIMEOUT = 300.0


def free_port() -> int:
    """A port nothing listens on right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(upstream_port: int) -> dict[str, str]:
    """This process's (offline) environment, LiteLLM pointed at the upstream."""
    env = dict(os.environ)
    env.update(
        OPENAI_BASE_URL=f"http://127.0.0.1:{upstream_port}/v1",
        OPENAI_API_KEY="sk-local-fake",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        PYTHONUNBUFFERED="1",
        GUARDRAILS_LOG_LEVEL="WARNING",
    )
    return env


def _popen(command: Sequence[str], **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(list(command), start_new_session=True, **kwargs)  # type: ignore[call-overload, no-any-return]


def start_upstream(delay_ms: float = 0.0) -> tuple[subprocess.Popen[bytes], int]:
    """The fake upstream and its port (read from its ``PORT n`` line)."""
    proc = _popen(
        [sys.executable, str(UPSTREAM_SCRIPT), "--delay-ms", str(delay_ms)],
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    line = proc.stdout.readline().decode() if ready else ""
    if not line.startswith("PORT "):
        stop(proc)
        raise RuntimeError(f"the fake upstream did not start (said {line!r})")
    return proc, int(line.split()[1])


def start_server(
    command: Sequence[str], port: int, env: dict[str, str], cwd: Path, log: IO[bytes]
) -> subprocess.Popen[bytes]:
    """Run ``command`` (logging to ``log``) and wait until it serves ``port``."""
    proc = _popen(command, env=env, cwd=str(cwd), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT
    url = f"http://127.0.0.1:{port}/health-check"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{command[1:3]} exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return proc
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    stop(proc)
    raise RuntimeError(f"{command[1:3]} did not serve port {port} within {START_TIMEOUT:.0f} s")


def stop(proc: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """Stop ``proc`` and its process group: SIGTERM, then SIGKILL after ``grace`` s."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(grace)
    try:  # workers left behind by a parent that died first
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def worker_pids(pid: int) -> list[int]:
    """The children of ``pid`` that run a ``multiprocessing`` spawn (uvicorn's workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    found = []
    for child in children:
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            found.append(int(child))
    return found
