"""``chunkwise serve``: the Guardrails server for a config's guards, validated text only.

Runs guardrails-api's application (through
:func:`guardrails_ai.chunkwise.server.app.create_app`) with uvicorn in factory
mode, ``--workers N`` processes; each worker finds the config file in
``CHUNKWISE_SERVE_CONFIG``.  The process goes offline first (as the other
commands do), and every worker inherits that environment.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import socket
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from guardrails_ai.chunkwise.chunkers import SpecError

from .errors import CommandError
from .offline import go_offline

__all__ = ["FACTORY", "run_server"]

#: The app factory each uvicorn worker imports.
FACTORY = "guardrails_ai.chunkwise.server.app:create_app"


def run_server(
    config: Path, host: str, port: int, workers: int, *, timeout_keep_alive: int = 5
) -> None:
    """Serve ``config``'s guards on ``host:port`` with ``workers`` processes (blocks),
    closing a keep-alive connection idle for ``timeout_keep_alive`` seconds.

    Before any worker starts, the config is run once here, as guardrails-api
    runs it, each of its guards written as JSON, and the port is bound and
    released: a config that fails to load, a guard that cannot be written
    (guardrails-api writes every guard when it starts), two guards of one name
    or id (one would never be served) or a port in use is one line on stderr
    (``CommandError``), not a traceback per worker.
    """
    if not config.exists():
        raise CommandError(f"--config {config}: no such file")
    if not config.is_file():
        raise CommandError(f"--config {config}: not a file")
    if workers < 1:
        raise CommandError(f"--workers {workers}: needs at least 1")
    if timeout_keep_alive < 1:
        raise CommandError(f"--timeout-keep-alive {timeout_keep_alive}: needs at least 1 second")
    if importlib.util.find_spec("guardrails_api") is None:
        raise CommandError(
            'chunkwise serve needs guardrails-api: pip install "guardrails-ai-chunkwise[server]"'
        )
    go_offline()
    _check_config(config.resolve())
    port = _check_port(host, port)
    os.environ["CHUNKWISE_SERVE_CONFIG"] = str(config.resolve())
    os.environ["PORT"] = str(port)
    import uvicorn

    uvicorn.run(
        FACTORY,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_keep_alive=timeout_keep_alive,
    )


def _check_config(path: Path) -> None:
    """Run the config file as guardrails-api does; ``CommandError`` if it raises.

    The message names the exception's type and the config's line, never the
    exception's text or the source line (a config may hold secrets).
    """
    spec = importlib.util.spec_from_file_location("config", path)
    if spec is None or spec.loader is None:
        raise CommandError(f"--config {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        line = exc.lineno if isinstance(exc, SyntaxError) else _line_in(exc, path)
        where = f" at line {line}" if line else ""
        raise CommandError(
            f"--config {path}: loading it raised {type(exc).__name__}{where}"
        ) from None
    _check_guards(module, path)


def _check_guards(module: object, path: Path) -> None:
    """Write each guard of the config as JSON, as guardrails-api does when it
    starts, and rebuild it from that, as each worker does to stream
    (:func:`~guardrails_ai.chunkwise.server.rebuild.rebuilt`); ``CommandError``
    naming the guard if one cannot be written (a validator's chunker with no
    spec, say) or rebuilt (a validator that keeps a required argument from
    ``Validator.__init__``: every request was an HTTP 500).

    The message gives chunkwise's own reason (``SpecError``: which validator,
    which chunker), never the text of another exception.
    """
    from guardrails import AsyncGuard, Guard

    from guardrails_ai.chunkwise.server.rebuild import rebuilt

    guards = {id(v): v for v in vars(module).values() if isinstance(v, (Guard, AsyncGuard))}
    _check_unique(list(guards.values()), path)
    for value in guards.values():
        try:
            value.to_dict()
        except Exception as exc:
            _, found, reason = str(exc).partition(f"{SpecError.__name__}: ")
            why = f": {reason}" if found else ""
            raise CommandError(
                f"--config {path}: guard {value.name!r} cannot be served: Guard.to_dict() "
                f"raised {type(exc).__name__}{why}"
            ) from None
        try:
            rebuilt(value)
        except Exception as exc:
            raise CommandError(
                f"--config {path}: guard {value.name!r} cannot be served: rebuilding it from "
                f"Guard.to_dict() raised {type(exc).__name__}"
            ) from None


def _check_unique(guards: list[Any], path: Path) -> None:
    """``CommandError`` naming the first id or name that two of ``guards`` share.

    guardrails-api keeps one guard per id (the last one), and a request finds a
    guard by its id, else by its name (one of those so named): a second guard
    of the same id or name was never served, and nothing said so.
    """
    ids = Counter(str(guard.id) for guard in guards)
    names = Counter(str(guard.name) for guard in guards)
    for key, count in ids.items():
        if count > 1:
            raise CommandError(
                f"--config {path}: {count} guards have the id {key!r}; guardrails-api serves "
                "one guard per id: give each guard its own id"
            )
    for key, count in names.items():
        if count > 1:
            raise CommandError(
                f"--config {path}: {count} guards are named {key!r}; a request finds one guard "
                "by its name: give each guard its own name"
            )
    for guard in guards:
        if guard.name != guard.id and guard.name in ids:
            raise CommandError(
                f"--config {path}: the name of guard {guard.name!r} is another guard's id, "
                "which a request finds first: give each guard its own name"
            )


def _line_in(exc: BaseException, path: Path) -> int | None:
    """The last line of ``path`` that ``exc``'s traceback passes through."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == str(path):
            line = frame.lineno
    return line


def _check_port(host: str, port: int) -> int:
    """The port to serve on: ``port``, or a free one for ``0`` (so that the
    server's banner names the port it listens on, never ``:0``); ``CommandError``
    unless ``host:port`` can be bound now."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        raise CommandError(f"--host {host}: not an address this machine resolves") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            if exc.errno == errno.EADDRNOTAVAIL:  # (the host's fault: no port binds there)
                raise CommandError(
                    f"--host {host}: not an address of this machine, cannot listen on it ({reason})"
                ) from None
            raise CommandError(
                f"--port {port}: cannot listen on {host}:{port} ({reason})"
            ) from None
        return int(probe.getsockname()[1])
