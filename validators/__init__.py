"""chunkwise: streaming validation for Guardrails that never loses, skips or leaks text.

Exports are loaded lazily (PEP 562): ``import guardrails_ai.chunkwise`` does not
import Guardrails (about 3 s), so the ``chunkwise`` command starts fast and can
put Guardrails offline before it is first imported.  ``from
guardrails_ai.chunkwise import X`` works as usual and imports X's module, which
registers its validators; when Guardrails is already imported, importing the
package registers all of them at once, as hub modules do.  To export a name,
add it to ``_EXPORTS`` (name -> submodule) and to the ``TYPE_CHECKING`` block,
never as an eager import here.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Public name -> submodule that defines it.
_EXPORTS: dict[str, str] = {
    "BannedPhrases": ".banned_phrases",
    "MaxChunkLength": ".max_chunk_length",
    "NoRepetition": ".no_repetition",
    "RedactPII": ".redact_pii",
    "disable_validated_streaming": ".adapters.validated_streaming",
    "enable_validated_streaming": ".adapters.validated_streaming",
    "validated_streaming_enabled": ".adapters.validated_streaming",
}

if TYPE_CHECKING:  # the same names, eagerly, for type checkers only
    from .adapters.validated_streaming import (
        disable_validated_streaming as disable_validated_streaming,
    )
    from .adapters.validated_streaming import (
        enable_validated_streaming as enable_validated_streaming,
    )
    from .adapters.validated_streaming import (
        validated_streaming_enabled as validated_streaming_enabled,
    )
    from .banned_phrases import BannedPhrases as BannedPhrases
    from .max_chunk_length import MaxChunkLength as MaxChunkLength
    from .no_repetition import NoRepetition as NoRepetition
    from .redact_pii import RedactPII as RedactPII

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if "guardrails" in sys.modules:
    # Imported by a process that already uses Guardrails (for instance
    # ``get_validator_class`` importing a hub module to resolve a validator id):
    # register every validator now, as a hub module is expected to.
    for _name in _EXPORTS:
        __getattr__(_name)
