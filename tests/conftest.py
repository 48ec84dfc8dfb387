"""Test session set-up: Guardrails offline, in a private HOME, before it is imported.

guardrails-ai reads ``~/.guardrailsrc`` when it is first imported and sends
telemetry unless that file says ``enable_metrics=false``; litellm downloads a
price map unless ``LITELLM_LOCAL_MODEL_COST_MAP=True``.  Both are settled here,
for this process and every subprocess it starts, before any test module runs.
"""

from __future__ import annotations

import atexit
import faulthandler
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_HOME = Path(tempfile.mkdtemp(prefix="chunkwise-test-home-"))
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
(_HOME / ".guardrailsrc").write_text(
    "id=chunkwise-tests\nenable_metrics=false\nuse_remote_inferencing=false\n",
    encoding="utf-8",
)
os.environ["HOME"] = str(_HOME)
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["GUARDRAILS_RUN_SYNC"] = "true"
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
assert "guardrails" not in sys.modules, "guardrails was imported before conftest"

# The tests import their shared helpers (tests/helpers/) and the benchmarks' text
# generators (benchmarks/_text.py) by top-level name, from whichever layer folder.
_TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(_TESTS), str(_TESTS.parent / "benchmarks")]

# CI draws the same examples every run (derandomize): a run passes or fails on
# the code, not on the draw; "dev" explores new examples each time.
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


# A test that hangs (a pattern gone exponential, a subprocess that never answers)
# must end the run with every thread's stack, not run into CI's time limit with
# nothing to show where.  The limit is per test; the slowest (the hub install in
# a fresh venv) takes about two minutes.
TEST_TIME_LIMIT = float(os.environ.get("CHUNKWISE_TEST_TIME_LIMIT", "900"))
_stderr: int | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _stderr
    # Output capture has not taken fd 2 yet here, and will while tests run.
    _stderr = os.dup(2)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    assert _stderr is not None
    faulthandler.dump_traceback_later(TEST_TIME_LIMIT, exit=True, file=_stderr)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
