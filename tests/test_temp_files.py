"""A test run and a benchmark leave no temporary directory behind.

Each makes a private ``HOME`` (and the benchmarks a scratch folder) in the
system's temporary directory; run after run they would pile up there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], tmp: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp), "HOME": str(tmp / "user")}
    (tmp / "user").mkdir()
    subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)


def _left(tmp: Path) -> list[str]:
    return sorted(path.name for path in tmp.iterdir() if path.name != "user")


def test_a_test_session_removes_its_private_home(tmp_path: Path) -> None:
    _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--co",
            "tests/test_layers.py",
        ],
        tmp_path,
    )
    assert _left(tmp_path) == []


def test_a_benchmark_removes_its_private_home(tmp_path: Path) -> None:
    script = "import _text; _text.offline(); import guardrails"
    _run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, 'benchmarks'); {script}"], tmp_path
    )
    assert _left(tmp_path) == []
