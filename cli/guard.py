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
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from guardrails_ai.chunkwise.chunkers import ChunkerSpec

from .errors import CommandError, write_out
from .inputs import iter_text, opened

__all__ = [
    "Setting",
    "assign_options",
    "build_validator",
    "collect_options",
    "find_validator",
    "run_guard",
]

#: The messages every simulated LLM call receives (Guardrails requires some).
MESSAGES = [{"role": "user", "content": "(text from the chunkwise command)"}]
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Setting:
    """One validator option: ``key = value`` for ``target`` (a validator as
    named on the command line) or, when ``target`` is ``None``, for every
    validator that takes ``key``.  ``source``: the ``--options`` file it was
    read from (``None``: the command line)."""

    target: str | None
    key: str
    value: Any
    source: Path | None = None


def collect_options(
    pairs: Sequence[str], options_file: Path | None, phrases: Sequence[str]
) -> list[Setting]:
    """Validator options from ``--options``, ``--option`` and ``--phrases``, in order.

    Later settings win: the file (``KEY = VALUE``, or a table named after a
    validator), then each ``[VALIDATOR:]KEY=VALUE`` (``VALUE`` read as JSON
    when it parses, else kept as text), then ``--phrases`` (each value split
    at commas) as ``phrases``.  The file's settings carry it as their
    ``source`` (:func:`assign_options` skips the tables of validators not
    selected).
    """
    settings: list[Setting] = []
    if options_file:
        for key, value in _read_options(options_file).items():
            if isinstance(value, dict):
                if not value:  # (it sets nothing, but its name must still be known)
                    _table_validator(options_file, key)
                settings += [Setting(key, k, v, options_file) for k, v in value.items()]
            else:
                settings.append(Setting(None, key, value, options_file))
    for pair in pairs:
        key, sep, value = pair.partition("=")
        target, colon, name = key.strip().rpartition(":")
        if not sep or not _KEY.match(name) or (colon and not target.strip()):
            raise CommandError(
                f"--option {pair!r}: expected [VALIDATOR:]KEY=VALUE, e.g. max_repeats=2 "
                "or no_repetition:max_repeats=2"
            )
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        settings.append(Setting(target.strip() or None, name, parsed))
    if phrases:
        split = [p.strip() for item in phrases for p in item.split(",") if p.strip()]
        settings.append(Setting(None, "phrases", split))
    return settings


def _read_options(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read --options {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"--options {path}: invalid UTF-8 at byte offset {exc.start}") from None
    try:
        if path.suffix.lower() == ".toml":
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except ValueError as exc:  # json.JSONDecodeError and tomllib.TOMLDecodeError
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON (a file not named .toml is JSON)"
        raise CommandError(f"--options {path}: invalid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise CommandError(f"--options {path}: expected a table of KEY = VALUE options")
    return data


def find_validator(name: str) -> type[Any]:
    """The registered validator class called ``name``.

    ``name`` is a registered name (``chunkwise/banned_phrases``), its part
    after the ``/`` (``banned_phrases``) or the class name of a registered
    validator (``BannedPhrases``).  A hub validator installed as
    ``guardrails_ai.<name>`` (``pip install guardrails-ai-lowercase``:
    ``lowercase``) is imported, which registers it; its class name alone
    (``LowerCase``) finds it only once it is imported, as a module's name
    cannot be told from its class's.
    """
    import importlib
    import importlib.util

    from guardrails.validator_base import validators_registry

    import guardrails_ai.chunkwise as hub
    from guardrails_ai.chunkwise.adapters.override import WITH_CHUNKER

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
    # (with_chunker's id only rebuilds an override from a guard's dict: it
    # validates nothing by itself.)
    usable = {k: cls for k, cls in registry.items() if k != WITH_CHUNKER}
    for key, cls in usable.items():
        if name in (key, key.rsplit("/", 1)[-1], cls.__name__):
            return cls
    raise CommandError(
        f"unknown validator {name!r} for --validator; choose one of {', '.join(_ours())}, "
        "or name an installed hub validator"
    )


def _ours() -> list[str]:
    """The short names of this package's validators, sorted (after :func:`find_validator`)."""
    from guardrails.validator_base import validators_registry

    from guardrails_ai.chunkwise.adapters.override import WITH_CHUNKER

    return sorted(
        k.split("/", 1)[1]
        for k in validators_registry
        if k.startswith("chunkwise/") and k != WITH_CHUNKER
    )


def _option_names(cls: type[Any]) -> set[str]:
    params = inspect.signature(cls.__init__).parameters
    return {
        n
        for n, p in params.items()
        if n != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
    }


def _names_of(given: str, cls: type[Any]) -> set[str]:
    """Every way a ``--option VALIDATOR:`` prefix may name this validator."""
    alias = str(getattr(cls, "rail_alias", "") or "")
    return {given, given.rsplit("/", 1)[-1], cls.__name__, alias, alias.rsplit("/", 1)[-1]}


def assign_options(
    validators: Sequence[tuple[str, type[Any]]], settings: Sequence[Setting]
) -> list[dict[str, Any]]:
    """Each validator's keyword arguments (same order as ``validators``).

    A setting without a target goes to every validator that takes its key; a
    setting whose target or key matches no validator is an error, except the
    table of an ``--options`` file (``source``) for a validator not selected:
    one file may serve several commands, so it is skipped, once its target
    names a known validator (:func:`find_validator`) that takes its key.
    """
    assigned: list[dict[str, Any]] = [{} for _ in validators]
    for setting in settings:
        if setting.key in ("on_fail", "chunker"):
            raise CommandError(
                f"unknown option {setting.key!r}: use --{setting.key.replace('_', '-')}"
            )
        if setting.target is None:
            takers = [
                i for i, (_, cls) in enumerate(validators) if setting.key in _option_names(cls)
            ]
            if not takers:
                raise _unknown_option(setting.key, [cls for _, cls in validators])
        else:
            takers = [
                i
                for i, (given, cls) in enumerate(validators)
                if setting.target in _names_of(given, cls)
            ]
            if not takers and setting.source is not None:
                _check_unselected(setting.source, setting.target, setting.key)
                continue
            if not takers:
                raise CommandError(
                    f"--option {setting.target}:{setting.key}: no --validator "
                    f"named {setting.target!r}"
                )
            for i in takers:
                if setting.key not in _option_names(validators[i][1]):
                    raise _unknown_option(setting.key, [validators[i][1]])
        for i in takers:
            assigned[i][setting.key] = setting.value
    return assigned


def _check_unselected(source: Path, target: str, key: str) -> None:
    """``CommandError`` unless ``target`` (a table of the ``--options`` file
    ``source``, for no selected validator) names a known validator that takes
    ``key``: a misspelt table or key is an error, never dropped."""
    cls = _table_validator(source, target)
    if key not in _option_names(cls):
        raise _unknown_option(key, [cls])


def _table_validator(source: Path, target: str) -> type[Any]:
    """The validator a table of the ``--options`` file ``source`` names, or a
    ``CommandError``."""
    try:
        return find_validator(target)
    except CommandError:
        raise CommandError(
            f"--options {source}: table {target!r} names no known validator; choose "
            f"one of {', '.join(_ours())}, or name an installed hub validator"
        ) from None


def _unknown_option(key: str, classes: Sequence[type[Any]]) -> CommandError:
    described = "; ".join(
        f"{cls.__name__} takes "
        + (", ".join(sorted(_option_names(cls) - {"on_fail", "chunker"})) or "none")
        for cls in classes
    )
    return CommandError(f"unknown option {key!r}: {described}")


#: Validator options that choose the validator's chunker themselves
#: (``language="de"``: the German sentence chunker; ``unit="paragraph"``).
_PICKS_CHUNKER = ("language", "unit")


def build_validator(
    cls: type[Any], options: dict[str, Any], chunker: ChunkerSpec | None, on_fail: str
) -> Any:
    """``cls(**options, on_fail=on_fail)``, chunking with ``chunker`` when given
    (through ``with_chunker`` for a validator without a ``chunker`` option)."""
    named = _option_names(cls)
    params = inspect.signature(cls.__init__).parameters
    missing = [
        n for n in named if params[n].default is inspect.Parameter.empty and n not in options
    ]
    if missing:
        raise CommandError(
            f"validator {cls.__name__} needs option {missing[0]!r} "
            f"(--option {missing[0]}=... or --options FILE"
            + (", or --phrases" if missing[0] == "phrases" else "")
            + ")"
        )
    kwargs = dict(options)
    if chunker is not None and "chunker" in named:
        picks = next((k for k in _PICKS_CHUNKER if kwargs.get(k) is not None), None)
        if picks is not None:
            raise CommandError(
                f"--option {picks}={kwargs[picks]!r:.40} picks the chunker of {cls.__name__}, "
                "as --chunker, --max-chars and --max-tokens do: give one or the other (for "
                'the sentences of a language under a window: --chunker \'{"chunker": '
                '"sentence", "language": "de"}\' --max-chars N)'
            )
        kwargs["chunker"] = chunker
    try:
        validator = cls(on_fail=on_fail, **kwargs)
    except Exception as exc:  # a hub validator may raise anything (re.error, ...)
        raise CommandError(f"validator {cls.__name__}: {type(exc).__name__}: {exc}") from None
    if chunker is not None and "chunker" not in named:
        from guardrails_ai.chunkwise.adapters import with_chunker

        try:
            validator = with_chunker(validator, chunker)
        except (TypeError, ValueError) as exc:
            raise CommandError(f"--chunker for validator {cls.__name__}: {exc}") from None
    return validator


def run_guard(
    path: str,
    names: Sequence[str],
    settings: Sequence[Setting],
    chunker: ChunkerSpec | None,
    on_fail: str,
    out: BinaryIO,
) -> int:
    """Stream ``path`` through a Guard with the validators ``names``, in order.

    Returns 0 when everything released passed or was fixed; raises
    :class:`CommandError` with status 1 saying which validator failed and
    what became of the text when a failure was not fixed (noop, filter,
    refrain, a fix with no fix value, or exception, which stops the stream
    before the failing text is released).  A failed write to ``out`` is
    :class:`~.errors.OutputError` (exit status 1; quiet for a closed pipe),
    never reported as a validator's failure.
    """
    with opened(path) as fd:
        classes = [(name, find_validator(name)) for name in names]
        kwargs = assign_options(classes, settings)
        validators = [
            build_validator(cls, options, chunker, on_fail)
            for (_, cls), options in zip(classes, kwargs, strict=True)
        ]
        return _stream(fd, path, validators, on_fail, out)


def _stream(fd: int, path: str, validators: list[Any], on_fail: str, out: BinaryIO) -> int:
    from guardrails import Guard
    from guardrails.errors import ValidationError

    from guardrails_ai.chunkwise.adapters import guarded_stream

    from .offline import skip_litellm, untraced
    from .watch import forgetting_past_stops, unfixed_message, watch

    skip_litellm()
    tallies = [watch(v, on_fail, timed=False) for v in validators]  # only the verdicts count
    guard = Guard().use(*validators)

    def llm(*, messages: Any = None, **kwargs: Any) -> Iterator[str]:
        for text, _ in iter_text(fd, path):
            if text:
                yield text

    try:
        with untraced(), forgetting_past_stops(validators, tallies):
            for outcome in guarded_stream(guard, llm, messages=MESSAGES):
                text = outcome.validated_output
                if isinstance(text, str) and text:
                    write_out(out, text.encode("utf-8", "surrogatepass"), flush=True)
    except ValidationError:  # (its message may quote the text: the tallies name the validator)
        raise CommandError(unfixed_message(tallies) or "validation failed", code=1) from None
    except CommandError:  # (OutputError too: a failed write is no validator's fault)
        raise
    except Exception as exc:  # a validator that crashes: say which kind, not the text
        raise CommandError(
            f"a validator raised {type(exc).__name__} while validating the stream"
        ) from None
    message = unfixed_message(tallies)
    if message:
        raise CommandError(message, code=1)
    return 0
