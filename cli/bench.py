"""``chunkwise bench``: run the benchmark scripts of a source checkout.

The scripts in ``benchmarks/`` are not package data: they are found next to
the package when it is installed from a checkout in editable mode, or in the
current directory when it is a checkout.  Each runs in its own process, with
its default sizes, its tables going straight to the terminal, offline.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import CommandError
from .offline import go_offline

__all__ = ["find_benchmarks", "run_benchmarks"]

_DISTRIBUTION = 'name = "guardrails-ai-chunkwise"'


def _is_checkout(root: Path) -> bool:
    try:
        return _DISTRIBUTION in (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return False


def _roots() -> list[Path]:
    """Where a checkout may be: the folder that holds this file's ``cli/``
    (the checkout, in an editable install), the cwd."""
    return [Path(__file__).resolve().parents[1], Path.cwd()]


def find_benchmarks(directory: Path | None) -> Path:
    """The benchmarks folder: ``directory``, else the checkout's."""
    if directory is not None:
        if not directory.is_dir():
            raise CommandError(f"--dir {directory}: no such directory")
        return directory
    for root in _roots():
        if _is_checkout(root) and (root / "benchmarks").is_dir():
            return root / "benchmarks"
    raise CommandError(
        "the benchmarks are not installed with the package: they need a source "
        "checkout; run `chunkwise bench` in one (or pass --dir PATH/benchmarks)"
    )


def run_benchmarks(directory: Path | None, only: Sequence[str]) -> int:
    """Run every ``benchmarks/*.py`` script (or those named); 1 if any failed."""
    folder = find_benchmarks(directory)
    scripts = {p.stem: p for p in sorted(folder.glob("*.py")) if not p.name.startswith("_")}
    unknown = [name for name in only if name not in scripts]
    if unknown:
        choices = ", ".join(scripts) or "none found"
        raise CommandError(f"unknown benchmark {unknown[0]!r} for --only; choose one of {choices}")
    chosen = [scripts[name] for name in only] if only else list(scripts.values())
    if not chosen:
        raise CommandError(f"no benchmark scripts in {folder}")
    go_offline()
    failed = []
    for script in chosen:
        print(f"== {script.stem}", flush=True)
        done = subprocess.run([sys.executable, str(script)], cwd=folder.parent, check=False)
        if done.returncode:
            failed.append(f"{script.stem} (exit status {done.returncode})")
    if failed:
        print(f"chunkwise: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
