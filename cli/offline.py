"""Keep the ``chunkwise`` process offline before Guardrails is imported.

guardrails-ai reads ``~/.guardrailsrc`` when it is imported and sends usage
metrics unless that file says ``enable_metrics=false``; litellm downloads a
price map on import unless ``LITELLM_LOCAL_MODEL_COST_MAP=True``.  The command
never needs either, so :func:`go_offline` settles both for this process (and
any process it starts): when the user's own rc file does not turn metrics off,
the process runs with a private ``HOME`` holding one that does.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["go_offline", "metrics_disabled", "skip_litellm", "untraced"]

_FALSE = frozenset({"false", "0", "no", "n", "f", "off"})
_RC = "id=chunkwise-cli\nenable_metrics=false\nuse_remote_inferencing=false\n"


def metrics_disabled(rc_file: Path) -> bool:
    """Whether ``rc_file`` exists and says ``enable_metrics=false``.

    The last line that sets ``enable_metrics`` counts, as Guardrails reads the
    file (a later ``enable_metrics=true`` turns metrics back on).
    """
    try:
        lines = rc_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    disabled = False
    for line in lines:
        key, sep, value = line.partition("=")
        if sep and key.strip() == "enable_metrics":
            disabled = value.strip().strip("'\"").lower() in _FALSE
    return disabled


def go_offline() -> None:
    """Make Guardrails and litellm work without the network; idempotent."""
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    os.environ.setdefault("OTEL_SDK_DISABLED", "true")
    if not metrics_disabled(Path.home() / ".guardrailsrc"):
        home = tempfile.mkdtemp(prefix="chunkwise-home-")
        atexit.register(shutil.rmtree, home, ignore_errors=True)
        (Path(home) / ".guardrailsrc").write_text(_RC, encoding="utf-8")
        os.environ["HOME"] = os.environ["USERPROFILE"] = home
    if "guardrails" in sys.modules:  # imported already: re-read the rc file
        from guardrails.classes.rc import RC
        from guardrails.settings import settings

        settings.rc = RC.load()


def skip_litellm() -> None:
    """Keep litellm out of this process, unless it is imported already.

    The command's LLM is a local callable.  Guardrails imports litellm on
    every call only to check whether the callable is ``litellm.completion``
    (``llm_providers.get_llm_ask``, which treats ``ImportError`` as "no"), and
    that import doubles the command's start-up time.
    """
    sys.modules.setdefault("litellm", None)  # type: ignore[arg-type]


@contextmanager
def untraced() -> Iterator[None]:
    """Guardrails' tracing wrappers off inside the block, when OpenTelemetry is.

    With ``OTEL_SDK_DISABLED=true`` (which :func:`go_offline` sets unless the
    environment says otherwise) every span is a no-op, yet Guardrails, unless
    ``settings.disable_tracing``, still computes the spans' attributes: for
    each streamed outcome, and when a stream ends a JSON serialization of the
    whole iteration (``telemetry/runner_tracing.py``, ``add_step_attributes``),
    which holds several copies of the response at once (a peak of about 15
    times its size).  Nothing observable changes; the previous setting is
    restored on exit.
    """
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() != "true":
        yield
        return
    from guardrails.settings import settings

    before = settings.disable_tracing
    settings.disable_tracing = True
    try:
        yield
    finally:
        settings.disable_tracing = before
