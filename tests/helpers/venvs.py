"""Fresh virtual environments, a wheel built from the checkout, offline pip.

Shared by the install tests (``test_packaging``, ``test_hub_install``).  One
pytest process builds at most one wheel and one fresh venv (``lru_cache``);
each test leaves the venv as it found it: guardrails-ai and its dependencies,
no chunkwise.

Offline by construction: every pip run here gets ``PIP_NO_INDEX=1`` and finds
packages only in local folders, and every process gets HTTP(S) proxies that
refuse connections (loopback excepted), so nothing but 127.0.0.1 is reachable.
The local folder for guardrails-ai's dependencies and the build backend is a
wheelhouse kept in the real user's cache (``CHUNKWISE_WHEELHOUSE`` overrides):
filled once with ``pip download`` (from the package index, the only download),
reused by later runs.  On an idle 2-core machine: the venv ~4 s, guardrails-ai
into it from the wheelhouse ~14 s (``--no-compile``), the download ~30 s.
"""

from __future__ import annotations

import atexit
import functools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DIST = "guardrails-ai-chunkwise"
GUARDRAILS = f"guardrails-ai=={version('guardrails-ai')}"
BUILD_BACKEND = ("setuptools>=77", "wheel")
#: A proxy nobody listens on: any connection that is not to loopback fails fast.
DEAD_PROXY = "http://127.0.0.1:9"
#: Ignored when the checkout is copied for a build: caches, builds, environments.
_NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv*",
    "venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    ".guardrails",
    "tests",
    "benchmarks",
)
PIP_TIMEOUT = 600


def _scratch() -> Path:
    path = Path(tempfile.mkdtemp(prefix="chunkwise-install-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def wheelhouse() -> Path:
    """Where guardrails-ai's wheels and the build backend's are kept between runs."""
    configured = os.environ.get("CHUNKWISE_WHEELHOUSE")
    if configured:
        return Path(configured)
    # conftest gives tests a private HOME; the cache belongs to the real one.
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    return cache / "chunkwise-tests" / f"wheelhouse-py{sys.version_info[0]}{sys.version_info[1]}"


def offline_env(
    find_links: Sequence[Path] = (), base: Mapping[str, str] | None = None, **extra: str
) -> dict[str, str]:
    """``os.environ`` (or ``base``) for a subprocess that can reach only loopback."""
    env = dict(os.environ if base is None else base)
    # PYTHONDONTWRITEBYTECODE goes too: the venv's .pyc files are written on
    # first import (pip installs with --no-compile), not compiled again each time.
    drop = (
        "VIRTUAL_ENV",
        "PYTHONPATH",
        "PYTHONHOME",
        "PIP_REQUIRE_VIRTUALENV",
        "PYTHONDONTWRITEBYTECODE",
    )
    for name in drop:
        env.pop(name, None)
    env.update(
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=" ".join(str(p) for p in find_links),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INPUT="1",
        PYTHONNOUSERSITE="1",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
    )
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[name] = env[name.lower()] = DEAD_PROXY
    env.update(extra)
    return env


def run(
    args: Sequence[str | Path],
    *,
    env: Mapping[str, str],
    cwd: Path | None = None,
    timeout: float = PIP_TIMEOUT,
    check: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run ``args``; on failure (when ``check``) fail the test with its output."""
    done = subprocess.run(
        [str(a) for a in args],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if check and done.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, args))} exited {done.returncode}\n"
            f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"
        )
    return done


@functools.lru_cache(maxsize=1)
def filled_wheelhouse() -> Path:
    """The wheelhouse, holding guardrails-ai, its dependencies and the build backend."""
    house = wheelhouse()
    house.mkdir(parents=True, exist_ok=True)
    wanted = [GUARDRAILS, *BUILD_BACKEND]
    pip = [sys.executable, "-m", "pip", "download", "-q", "-d", house, *wanted]
    if run(pip, env=offline_env([house]), check=False).returncode != 0:
        # Missing something: fetch it from the package index (with the caller's
        # own network settings), the one download.
        run(pip, env={**os.environ, "PIP_FIND_LINKS": str(house)})
    return house


@functools.lru_cache(maxsize=1)
def source_copy() -> Path:
    """A copy of the checkout's sources, taken once: what every build here builds.

    A copy, so that builds leave nothing in the working tree and read nothing
    stale from it (``build/``), and files added meanwhile do not race the tests.
    """
    target = _scratch() / "guardrails-ai-chunkwise"
    shutil.copytree(REPO, target, ignore=_NOT_SOURCES)
    return target


@functools.lru_cache(maxsize=1)
def built_wheel() -> Path:
    """A wheel of guardrails-ai-chunkwise built from :func:`source_copy`."""
    out = _scratch()
    env = offline_env([filled_wheelhouse()])
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, source_copy()], env=env
    )
    (wheel,) = out.glob("guardrails_ai_chunkwise-*.whl")
    return wheel


@dataclass(frozen=True)
class Venv:
    """A virtual environment made here, with guardrails-ai and no chunkwise."""

    root: Path

    @property
    def bin(self) -> Path:
        return self.root / ("Scripts" if os.name == "nt" else "bin")

    @property
    def python(self) -> Path:
        return self.bin / ("python.exe" if os.name == "nt" else "python")

    @property
    def site_packages(self) -> Path:
        found = sorted(self.root.glob("lib/python*/site-packages"))
        return found[0] if found else self.root / "Lib" / "site-packages"

    def env(self, find_links: Sequence[Path] = (), **extra: str) -> dict[str, str]:
        """Offline environment that runs this venv's commands first."""
        env = offline_env([*find_links, filled_wheelhouse()], **extra)
        env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH", "")])
        env["VIRTUAL_ENV"] = str(self.root)
        return env

    def pip(self, *args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
        return run([self.python, "-m", "pip", *args], env=self.env(), check=check)

    def python_code(
        self, code: str, *, cwd: Path, env: Mapping[str, str] | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        return run([self.python, "-c", code], env=env or self.env(), cwd=cwd, check=check)

    def has_chunkwise(self) -> bool:
        return self.pip("show", "-q", DIST, check=False).returncode == 0

    def remove_chunkwise(self) -> None:
        self.pip("uninstall", "-y", "-q", DIST)
        assert not self.has_chunkwise()


@functools.lru_cache(maxsize=1)
def fresh_venv() -> Venv:
    """A new venv (no system site-packages) with guardrails-ai from the wheelhouse.

    Skips the calling test only when ``python -m venv`` cannot make a venv here.
    """
    root = _scratch() / "venv"
    made = subprocess.run(
        [sys.executable, "-m", "venv", str(root)], capture_output=True, text=True, check=False
    )
    if made.returncode != 0:
        reason = f"python -m venv cannot create a virtual environment here: {made.stderr}"
        if os.environ.get("CHUNKWISE_REQUIRE_VENV"):  # set by .ci/run: CI never skips these
            pytest.fail(reason)
        pytest.skip(reason)
    env = Venv(root)
    # --no-compile: about half the install time; first imports compile instead.
    env.pip("install", "-q", "--no-compile", GUARDRAILS)
    assert not env.has_chunkwise()
    return env


def venv_without_chunkwise() -> Iterator[Venv]:
    """The shared fresh venv with chunkwise uninstalled before and after use."""
    env = fresh_venv()
    if env.has_chunkwise():
        env.remove_chunkwise()
    yield env
    if env.has_chunkwise():
        env.remove_chunkwise()
