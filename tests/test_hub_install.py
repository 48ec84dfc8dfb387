"""End to end: the real ``guardrails hub install hub://chunkwise/chunkwise``.

In a fresh virtual environment (see ``venvs``), with the hub service played by
an HTTP server on 127.0.0.1 that serves ``manifest.json`` exactly where
guardrails-ai 0.11 asks for it (``GR_VALIDATOR_HUB_SERVICE`` +
``/validator/<namespace>/<name>/manifest``) and the package coming from a wheel
built from the checkout (``PIP_FIND_LINKS``, no index).  Takes about a minute,
most of it installing guardrails-ai into the venv.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.venvs import DIST, REPO, Venv, built_wheel, run, venv_without_chunkwise

pytestmark = pytest.mark.hub

MANIFEST = json.loads((REPO / "manifest.json").read_text(encoding="utf-8"))
URI = f"hub://{MANIFEST['id']}"
MANIFEST_PATH = f"/validator/{MANIFEST['id']}/manifest"
CLI_TIMEOUT = 300


class Hub(ThreadingHTTPServer):
    """The hub service's manifest endpoint; records every request it gets."""

    def __init__(self, manifest: dict[str, Any]) -> None:
        super().__init__(("127.0.0.1", 0), _HubHandler)
        self.manifest = json.dumps(manifest).encode()
        self.requests: list[tuple[str, str]] = []

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class _HubHandler(BaseHTTPRequestHandler):
    server: Hub

    def do_GET(self) -> None:
        self.server.requests.append(("GET", self.path))
        if self.path == MANIFEST_PATH:
            self._answer(200, self.server.manifest)
        else:
            self._answer(404, json.dumps({"message": "Not Found"}).encode())

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def hub() -> Iterator[Hub]:
    server = Hub(MANIFEST)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def venv() -> Iterator[Venv]:
    yield from venv_without_chunkwise()


def _guardrails(venv: Venv, hub: Hub, project: Path, home: Path, *args: str) -> Any:
    env = venv.env(
        [built_wheel().parent],
        HOME=str(home),
        GR_VALIDATOR_HUB_SERVICE=hub.url,
        GUARDRAILS_INSTALLER="pip",
        OTEL_SDK_DISABLED="true",
    )
    return run(
        [venv.bin / "guardrails", "hub", *args],
        env=env,
        cwd=project,
        timeout=CLI_TIMEOUT,
        check=False,
    )


#: Run in the venv after the install, from the project folder.
_USE = """
import json, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import guardrails.hub as hub
import guardrails_ai.chunkwise as chunkwise
from guardrails import Guard
from guardrails.hub import BannedPhrases, RedactPII
from guardrails_ai.chunkwise import BannedPhrases as Direct
from guardrails_ai.chunkwise.adapters import guarded_stream

exports = {name: getattr(hub, name) is getattr(chunkwise, name) for name in EXPORTS}
guard = Guard().use(BannedPhrases(["secret plan"], on_fail="fix"), RedactPII(on_fail="fix"))
text = "The SECRET plan is ready. Write to ops@example.com today. Fine."
outcome = guard.validate(text)

def llm(messages=None, **kwargs):
    yield from [text[i:i + 7] for i in range(0, len(text), 7)]

streamed = "".join(
    part.validated_output or ""
    for part in guarded_stream(guard, llm, messages=[{"role": "user", "content": "x"}])
)
print(json.dumps({
    "same_class": BannedPhrases is Direct,
    "exports": exports,
    "passed": outcome.validation_passed,
    "validated": outcome.validated_output,
    "streamed": streamed,
}))
"""


def test_hub_install_registers_imports_validates_and_uninstalls(
    venv: Venv, hub: Hub, tmp_path: Path
) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    # What the hub CLI needs from HOME: metrics off; no token (it sends none then).
    (home / ".guardrailsrc").write_text(
        "id=chunkwise-hub-test\nenable_metrics=false\nuse_remote_inferencing=false\n",
        encoding="utf-8",
    )
    registry_file = project / ".guardrails" / "hub_registry.json"

    # 1. A stale registry entry sends guardrails.hub's BannedPhrases elsewhere: the
    #    post-install check (named by the manifest) must run and fail the install.
    registry_file.parent.mkdir()
    stale = {"import_path": "guardrails_ai.gone", "exports": ["BannedPhrases"]}
    registry_file.write_text(json.dumps({"version": 1, "validators": {"old/gone": stale}}))
    broken = _guardrails(venv, hub, project, home, "install", URI)
    assert broken.returncode != 0, broken.stdout
    assert "post install" in broken.stdout + broken.stderr
    assert "guardrails.hub cannot see BannedPhrases" in broken.stderr
    registry_file.unlink()

    # 2. The real install: manifest from the hub, wheel from the checkout.
    done = _guardrails(venv, hub, project, home, "install", URI)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert f"Successfully installed {MANIFEST['id']}" in done.stdout
    assert venv.has_chunkwise()

    registry = json.loads(registry_file.read_text())
    entry = registry["validators"][MANIFEST["id"]]
    assert entry["import_path"] == MANIFEST["moduleName"] == "guardrails_ai.chunkwise"
    assert entry["exports"] == MANIFEST["exports"]
    assert entry["package_name"] == DIST
    used = venv.python_code(f"EXPORTS = {MANIFEST['exports']!r}\n{_USE}", cwd=project)
    result = json.loads(used.stdout.strip().splitlines()[-1])
    assert result["same_class"]
    assert result["exports"] == dict.fromkeys(MANIFEST["exports"], True)
    assert result["passed"] is True
    assert result["validated"] == "The ****** **** is ready. Write to <EMAIL> today. Fine."
    assert result["streamed"] == result["validated"]
    stub = venv.site_packages / "guardrails" / "hub" / "__init__.pyi"  # what editors read
    for name in MANIFEST["exports"]:
        assert f"from guardrails_ai.chunkwise import {name} as {name}" in stub.read_text()

    # 3. Uninstall: the package, its registry entry and its stub imports go.
    gone = _guardrails(venv, hub, project, home, "uninstall", URI)
    assert gone.returncode == 0, f"{gone.stdout}\n{gone.stderr}"
    assert not venv.has_chunkwise()
    assert MANIFEST["id"] not in json.loads(registry_file.read_text())["validators"]
    after = venv.python_code(
        "import importlib.util as u; print(u.find_spec('guardrails_ai.chunkwise') is None)",
        cwd=project,
    )
    assert after.stdout.strip() == "True"
    assert "guardrails_ai.chunkwise" not in stub.read_text()

    # The hub was asked for the manifest once per command, and for nothing else.
    assert hub.requests == [("GET", MANIFEST_PATH)] * 3
