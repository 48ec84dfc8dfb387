"""``chunkwise serve``: the Guardrails server for a config's guards, validated text only.

Runs guardrails-api's application (through
:func:`guardrails_ai.chunkwise.server.app.create_app`) with uvicorn in factory
mode, ``--workers N`` processes; each worker finds the config file in
``CHUNKWISE_SERVE_CONFIG``.  The process goes offline first (as the other
commands do), and every worker inherits that environment.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from .errors import CommandError
from .offline import go_offline

__all__ = ["FACTORY", "run_server"]

#: The app factory each uvicorn worker imports.
FACTORY = "guardrails_ai.chunkwise.server.app:create_app"


def run_server(config: Path, host: str, port: int, workers: int) -> None:
    """Serve ``config``'s guards on ``host:port`` with ``workers`` processes (blocks)."""
    if not config.is_file():
        raise CommandError(f"--config {config}: no such file")
    if workers < 1:
        raise CommandError(f"--workers {workers}: needs at least 1")
    if importlib.util.find_spec("guardrails_api") is None:
        raise CommandError(
            'chunkwise serve needs guardrails-api: pip install "guardrails-ai-chunkwise[server]"'
        )
    go_offline()
    os.environ["CHUNKWISE_SERVE_CONFIG"] = str(config.resolve())
    os.environ["PORT"] = str(port)
    import uvicorn

    uvicorn.run(FACTORY, factory=True, host=host, port=port, workers=workers)
