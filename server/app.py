"""The application ``chunkwise serve`` runs: guardrails-api's, with validated responses.

``create_app()`` is a factory for uvicorn (``uvicorn --factory
guardrails_ai.chunkwise.server.app:create_app``); each worker process calls it.
It reads the config path from ``CHUNKWISE_SERVE_CONFIG`` (else guardrails-api's
``GR_CONFIG_FILE_PATH``, else ``./config.py``), calls :func:`serve_validated`
and returns guardrails-api's own ``create_app(...)``.
"""

from __future__ import annotations

import os
from typing import Any

from . import serve_validated

__all__ = ["CONFIG_ENV", "create_app"]

#: The environment variable naming the config file for every worker.
CONFIG_ENV = "CHUNKWISE_SERVE_CONFIG"


def create_app() -> Any:
    """guardrails-api's FastAPI application serving the config's guards, validated."""
    serve_validated()
    from guardrails_api.app import create_app as guardrails_app

    config = os.environ.get(CONFIG_ENV) or os.environ.get("GR_CONFIG_FILE_PATH")
    port = int(os.environ.get("PORT", "8000"))
    return guardrails_app(os.environ.get("GR_ENV_FILE"), config, port)
