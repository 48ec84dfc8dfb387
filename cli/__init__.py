"""The ``chunkwise`` command: ``demo``, ``split``, ``guard``, ``serve`` and ``bench``.

Entry point :func:`main` (console script ``chunkwise`` and
``python -m guardrails_ai.chunkwise``).
"""

from .app import main

__all__ = ["main"]
