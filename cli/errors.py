"""The one error type the command reports without a traceback."""

from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """A problem the user can fix; ``str(error)`` is one line for stderr.

    ``code`` is the exit status: 2 for bad usage or input (the default), 1 for
    text that failed validation.
    """

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(" ".join(message.split()))
        self.code = code
