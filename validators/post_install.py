"""Check that this install of guardrails-ai-chunkwise works with Guardrails.

Run as ``python -m guardrails_ai.chunkwise.post_install``, or by path, which is
how ``guardrails hub install hub://chunkwise/chunkwise`` runs the script that
the hub manifest names (``postInstall``).  It checks that

1. ``guardrails_ai.chunkwise`` imports;
2. it exports at least one validator, and every exported ``Validator`` class
   imports and is registered with Guardrails under the name it declares
   (``rail_alias``, e.g. ``chunkwise/banned_phrases``), in the ``chunkwise/``
   namespace;
3. ``guardrails.hub`` resolves every exported validator name to that same
   class (through the project's ``.guardrails/hub_registry.json`` when it names
   them, otherwise through the installed ``guardrails_ai`` namespace).

Exit status 0 with a short summary on stdout when all holds; otherwise 1 with
one line on stderr naming the first thing that is broken.  Nothing is
downloaded, written or sent: litellm is told to use its bundled price map
before Guardrails is imported, and no ``Guard`` is run.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = ["MODULE", "NAMESPACE", "InstallError", "Registered", "main", "verify"]

#: The hub module that ``guardrails hub install`` imports.
MODULE = "guardrails_ai.chunkwise"
#: Every validator of this package registers as ``chunkwise/<snake_name>``.
NAMESPACE = "chunkwise/"


class InstallError(Exception):
    """The install is broken; the message says how, on one line."""


@dataclass(frozen=True)
class Registered:
    """One exported validator as Guardrails sees it."""

    export: str
    alias: str


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except Exception as exc:
        raise InstallError(f"cannot import {name}: {_describe(exc)}") from exc


def _off_namespace(module: ModuleType) -> str:
    """A hint when ``module`` is not on ``guardrails_ai.__path__`` (an editable install)."""
    namespace = sys.modules.get("guardrails_ai")
    paths = {Path(p).resolve() for p in getattr(namespace, "__path__", ())}
    origin = getattr(module, "__file__", None)
    if origin is None or Path(origin).resolve().parent.parent in paths:
        return ""
    return (
        " (this install is not on guardrails_ai.__path__, which guardrails.hub scans,"
        " as after `pip install -e`: list it in .guardrails/hub_registry.json,"
        " or import from guardrails_ai.chunkwise)"
    )


def verify(module: ModuleType | None = None) -> list[Registered]:
    """Check the install as the module docstring says; raise InstallError if broken.

    ``module`` defaults to the installed ``guardrails_ai.chunkwise``; returns
    its exported validators in ``__all__`` order.
    """
    if module is None:
        module = _import(MODULE)
    validator_base = _import("guardrails.validator_base")
    hub = _import("guardrails.hub")
    base: type = validator_base.Validator
    registry: dict[str, type] = validator_base.validators_registry

    found: list[Registered] = []
    for export in getattr(module, "__all__", ()):
        try:
            value = getattr(module, export)
        except Exception as exc:
            raise InstallError(
                f"{module.__name__}.{export} does not import: {_describe(exc)}"
            ) from exc
        if not (isinstance(value, type) and issubclass(value, base)):
            continue
        alias = value.__dict__.get("rail_alias")
        if not isinstance(alias, str) or registry.get(alias) is not value:
            raise InstallError(
                f"{export} is not registered with Guardrails under a name of its own "
                f"(rail_alias {alias!r}); decorate it with register_validator"
            )
        if not alias.startswith(NAMESPACE) or alias == NAMESPACE:
            raise InstallError(f"{export} is registered as {alias!r}, outside {NAMESPACE!r}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                seen = getattr(hub, export)
        except Exception as exc:
            raise InstallError(
                f"guardrails.hub cannot see {export}: {_describe(exc)}{_off_namespace(module)}"
            ) from exc
        if seen is not value:
            where = getattr(seen, "__module__", "?")
            raise InstallError(
                f"guardrails.hub.{export} is {where}.{export}, not {module.__name__}'s: "
                "check .guardrails/hub_registry.json and other guardrails_ai packages"
            )
        found.append(Registered(export, alias))
    if not found:
        raise InstallError(f"{module.__name__}.__all__ names no Validator class")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m guardrails_ai.chunkwise.post_install",
        description="Check that guardrails-ai-chunkwise is installed and visible to Guardrails.",
    )
    parser.parse_args(argv)
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"  # this process only
    try:
        found = verify()
    except InstallError as exc:
        print(f"chunkwise post-install: FAILED: {exc}", file=sys.stderr)
        return 1
    names = ", ".join(f"{r.export} ({r.alias})" for r in found)
    print(f"chunkwise post-install: OK: {len(found)} validators registered, all in guardrails.hub:")
    print(f"  {names}")
    return 0


if __name__ == "__main__":
    if not __package__:
        # Run by path, this file's folder is sys.path[0], where its sibling
        # modules would shadow top-level ones (``chunkers``, ``adapters``...).
        _here = Path(__file__).resolve().parent
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here]
    sys.exit(main())
