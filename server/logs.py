"""Keep one known, harmless OpenTelemetry error out of the server's log.

When a stream stops early (on_fail ``exception`` or ``refrain``, or a client
that hangs up), Guardrails' traced async generators are left suspended and
asyncio finalises them later in another task; OpenTelemetry then cannot reset
its context token there and logs "Failed to detach context" with a traceback
(opentelemetry-python issue 2606).  Nothing is wrong with the response or the
trace.  :func:`quiet_detach_errors` drops exactly those records: the
``opentelemetry.context`` logger's "Failed to detach context" whose exception
is the ``ValueError`` "... was created in a different Context".
"""

from __future__ import annotations

import logging

__all__ = ["quiet_detach_errors"]


class _DetachFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (
            record.getMessage() == "Failed to detach context"
            and isinstance(error, ValueError)
            and "was created in a different Context" in str(error)
        )


def quiet_detach_errors() -> None:
    """Install the filter on the ``opentelemetry.context`` logger; idempotent."""
    logger = logging.getLogger("opentelemetry.context")
    if not any(isinstance(f, _DetachFilter) for f in logger.filters):
        logger.addFilter(_DetachFilter())
