"""``chunkwise guard``: validate a stream from a file or a pipe as it arrives.

Standard input (or the file) is read with ``os.read`` as data arrives and
decoded incrementally; each decoded piece is one delta of a simulated LLM
streaming through a real ``Guard`` via ``guarded_stream``, and the validated
text is written to stdout, and flushed, as soon as it is released.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from ..chunkers import ChunkerSpec
from .errors import CommandError
from .inputs import iter_text, opened

__all__ = ["collect_options", "find_validator", "run_guard"]

#: The messages every simulated LLM call receives (Guardrails requires some).
MESSAGES = [{"role": "user", "content": "(text from the chunkwise command)"}]
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def collect_options(
    pairs: Sequence[str], options_file: Path | None, phrases: Sequence[str]
) -> dict[str, Any]:
    """Validator keyword arguments from ``--options``, ``--option`` and ``--phrases``.

    Later sources win: the file, then each ``KEY=VALUE`` (``VALUE`` read as
    JSON when it parses, else kept as text), then ``--phrases`` (each value
    split at commas) as ``phrases``.
    """
    options: dict[str, Any] = _read_options(options_file) if options_file else {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not _KEY.match(key):
            raise CommandError(f"--option {pair!r}: expected KEY=VALUE, e.g. max_repeats=2")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    if phrases:
        options["phrases"] = [p.strip() for item in phrases for p in item.split(",") if p.strip()]
    return options


def _read_options(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read --options {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(
            f"--options {path}: invalid UTF-8 at byte offset {exc.start}"
        ) from None
    try:
        if path.suffix.lower() == ".toml":
            data = _toml(text)
        else:
            data = json.loads(text)
    except ValueError as exc:  # json.JSONDecodeError and tomllib.TOMLDecodeError
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON"
        raise CommandError(f"--options {path}: invalid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise CommandError(f"--options {path}: expected a table of KEY = VALUE options")
    return data


def _toml(text: str) -> Any:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads(text)
    raise CommandError("--options: TOML files need Python 3.11 or later; use JSON")


def find_validator(name: str) -> type[Any]:
    """The registered validator class called ``name``.

    ``name`` is a registered name (``chunkwise/banned_phrases``), its part
    after the ``/`` (``banned_phrases``) or a class name (``BannedPhrases``).
    A hub validator installed as ``guardrails_ai.<name>`` (``pip install
    guardrails-ai-lowercase``: ``lowercase``) is imported, which registers it.
    """
    import importlib
    import importlib.util

    from guardrails.validator_base import validators_registry

    import guardrails_ai.chunkwise as hub

    for export in hub.__all__:
        getattr(hub, export)  # importing a validator registers it
    registry: dict[str, type[Any]] = validators_registry
    short = name.rsplit("/", 1)[-1]
    if short.isidentifier() and short not in hub.__all__:
        module = f"guardrails_ai.{short}"
        try:
            if importlib.util.find_spec(module) is not None:
                importlib.import_module(module)
        except ImportError:
            pass
    for key, cls in registry.items():
        if name in (key, key.rsplit("/", 1)[-1], cls.__name__):
            return cls
    ours = sorted(k.split("/", 1)[1] for k in registry if k.startswith("chunkwise/"))
    raise CommandError(
        f"unknown validator {name!r} for --validator; choose one of {', '.join(ours)}, "
        "or name an installed hub validator"
    )


def build_validator(
    cls: type[Any], options: dict[str, Any], chunker: ChunkerSpec | None, on_fail: str
) -> Any:
    """``cls(**options, on_fail=on_fail)``, with ``chunker`` when given."""
    params = inspect.signature(cls.__init__).parameters
    named = {
        n for n, p in params.items()
        if n != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
    }
    for key in options:
        if key not in named or key in ("on_fail", "chunker"):
            allowed = ", ".join(sorted(named - {"on_fail", "chunker"})) or "none"
            raise CommandError(
                f"unknown option {key!r} for validator {cls.__name__}; "
                f"its options are: {allowed}"
                + ("; use --chunker / --on-fail" if key in ("on_fail", "chunker") else "")
            )
    missing = [
        n for n in named
        if params[n].default is inspect.Parameter.empty and n not in options
    ]
    if missing:
        raise CommandError(
            f"validator {cls.__name__} needs option {missing[0]!r} "
            f"(--option {missing[0]}=... or --options FILE"
            + (", or --phrases" if missing[0] == "phrases" else "") + ")"
        )
    kwargs = dict(options)
    if chunker is not None:
        if "chunker" not in named:
            raise CommandError(f"--chunker: validator {cls.__name__} takes no chunker")
        kwargs["chunker"] = chunker
    try:
        return cls(on_fail=on_fail, **kwargs)
    except (TypeError, ValueError) as exc:
        raise CommandError(f"validator {cls.__name__}: {exc}") from None


def run_guard(
    path: str,
    name: str,
    options: dict[str, Any],
    chunker: ChunkerSpec | None,
    on_fail: str,
    out: BinaryIO,
) -> int:
    """Stream ``path`` through a Guard with one validator; return the exit status.

    0: everything released passed or was fixed; 1: validation failed and the
    failure was not fixed (noop, filter, refrain, a fix with no fix value, or
    exception, which stops the stream before the failing text is released).
    """
    with opened(path) as fd:
        cls = find_validator(name)
        validator = build_validator(cls, options, chunker, on_fail)
        return _stream(fd, path, validator, on_fail, out)


def _stream(fd: int, path: str, validator: Any, on_fail: str, out: BinaryIO) -> int:
    from guardrails import Guard
    from guardrails.errors import ValidationError

    from ..adapters import guarded_stream
    from .offline import skip_litellm
    from .watch import watch

    skip_litellm()
    tally = watch(validator, on_fail)
    guard = Guard().use(validator)

    def llm(*, messages: Any = None, **kwargs: Any) -> Iterator[str]:
        for text, _ in iter_text(fd, path):
            if text:
                yield text

    try:
        for outcome in guarded_stream(guard, llm, messages=MESSAGES):
            text = outcome.validated_output
            if isinstance(text, str) and text:
                out.write(text.encode("utf-8", "surrogatepass"))
                out.flush()
    except ValidationError as exc:
        raise CommandError(str(exc) or "validation failed", code=1) from None
    return 1 if tally.unfixed else 0
