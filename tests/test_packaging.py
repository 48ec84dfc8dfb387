"""Packaging: metadata, the hub manifest, the wheel, pip installs, the post-install check.

The hub manifest, ``[tool.guardrails]`` and the hub module's exports must agree;
the wheel must install ``guardrails_ai/chunkwise`` and nothing else at the top
(PyPI has packages named ``validators``, ``adapters`` and ``chunkers``, and
``guardrails_ai`` is a namespace other packages share); ``pip install .`` and
``pip install -e .`` must both give a working install.  The pip tests share one
fresh venv with ``test_hub_install`` (see ``venvs``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from email.parser import Parser
from importlib.metadata import requires
from pathlib import Path
from types import ModuleType
from typing import Any

import guardrails.hub
import pytest
from guardrails.hub.validator_package_service import ValidatorPackageService
from guardrails.validator_base import Validator, validators_registry
from guardrails_hub_types import Manifest, Tags
from helpers.venvs import (
    DIST,
    REPO,
    Venv,
    built_wheel,
    filled_wheelhouse,
    offline_env,
    run,
    source_copy,
    venv_without_chunkwise,
)

import guardrails_ai.chunkwise as chunkwise
from guardrails_ai.chunkwise import post_install

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
HUB = PYPROJECT["tool"]["guardrails"]
MANIFEST: dict[str, Any] = json.loads((REPO / "manifest.json").read_text(encoding="utf-8"))
#: The folders mapped into the import root, with where they land.
SOURCES = {
    folder: package.replace(".", "/")
    for package, folder in PYPROJECT["tool"]["setuptools"]["package-dir"].items()
}


def _camel(key: str) -> str:
    head, *rest = key.split("-")
    return head + "".join(word.title() for word in rest)


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement.strip())[0].lower().replace("_", "-")


def _beyond_guardrails(requirements: list[str]) -> list[str]:
    """The runtime requirements that installing guardrails-ai does not already bring."""
    brought = {_name(r) for r in requires("guardrails-ai") or [] if "extra ==" not in r}
    return [r for r in requirements if _name(r) not in {"guardrails-ai", *brought}]


def _exported_validators() -> list[str]:
    return [
        name
        for name in chunkwise.__all__
        if isinstance(getattr(chunkwise, name), type)
        and issubclass(getattr(chunkwise, name), Validator)
    ]


# --- the hub manifest and [tool.guardrails] ------------------------------------------


def test_manifest_is_accepted_by_the_hub_types_and_has_no_unknown_keys() -> None:
    manifest = Manifest.from_dict(MANIFEST)
    assert manifest is not None
    known = {field.alias or name for name, field in Manifest.model_fields.items()}
    assert set(MANIFEST) <= known  # from_dict drops unknown keys silently
    assert set(MANIFEST["tags"]) <= {f.alias or n for n, f in Tags.model_fields.items()}
    assert manifest.to_dict() == {**MANIFEST, "tags": manifest.tags.to_dict()}  # type: ignore[union-attr]


def test_manifest_names_what_guardrails_installs_and_imports() -> None:
    manifest = Manifest.from_dict(MANIFEST)
    assert manifest is not None
    assert manifest.id == "chunkwise/chunkwise"
    assert manifest.namespace == manifest.id.split("/")[0] == "chunkwise"
    # guardrails-ai 0.11 derives both from the id; the manifest must say the same.
    assert (
        manifest.package_name
        == ValidatorPackageService.get_normalized_package_name(manifest.id)
        == PROJECT["name"]
        == DIST
    )
    assert (
        manifest.module_name
        == ValidatorPackageService.get_import_path_from_validator_id(manifest.id)
        == "guardrails_ai.chunkwise"
    )
    assert manifest.requires_auth is False
    assert manifest.tags is not None and manifest.tags.has_guardrails_endpoint is False
    assert manifest.description == PROJECT["description"]
    assert manifest.repository.url == PROJECT["urls"]["Repository"]


def test_manifest_exports_every_validator_and_only_validators() -> None:
    assert sorted(MANIFEST["exports"]) == sorted(_exported_validators())
    assert set(MANIFEST["exports"]) == set(chunkwise.__all__) & set(MANIFEST["exports"])
    assert len(set(MANIFEST["exports"])) == len(MANIFEST["exports"])


def test_manifest_post_install_and_index_name_files_of_the_hub_module() -> None:
    hub_module_folder = next(f for f, p in SOURCES.items() if p == "guardrails_ai/chunkwise")
    # guardrails runs <site-packages>/guardrails_ai/chunkwise/<postInstall> and silently
    # skips it if the file is missing: the name must be right.
    assert (REPO / hub_module_folder / MANIFEST["postInstall"]).is_file()
    assert MANIFEST["postInstall"] == "post_install.py"
    assert (REPO / hub_module_folder / MANIFEST["index"]).is_file()


def test_tags_come_from_the_hub_vocabulary_and_are_all_set() -> None:
    tags = Tags.from_dict(MANIFEST["tags"])
    assert tags is not None
    for field in (
        "language",
        "content_type",
        "infrastructure_requirements",
        "risk_category",
        "use_cases",
    ):
        assert getattr(tags, field), field
    with pytest.raises(ValueError, match=r"contentType|content_type"):
        Tags.from_dict({**MANIFEST["tags"], "contentType": ["prose"]})


def test_tool_guardrails_says_what_the_manifest_says() -> None:
    assert HUB["display-name"] == MANIFEST["name"]
    assert HUB["module"] == MANIFEST["moduleName"]
    for key in ("id", "namespace", "exports", "post-install", "requires-auth"):
        assert HUB[key] == MANIFEST[_camel(key)], key
    assert {_camel(k): v for k, v in HUB["tags"].items()} == MANIFEST["tags"]
    assert set(HUB) == {
        "id",
        "display-name",
        "namespace",
        "module",
        "exports",
        "post-install",
        "requires-auth",
        "tags",
    }


def test_project_metadata() -> None:
    assert PROJECT["name"] == DIST
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert PROJECT["readme"] == "README.md"
    assert PROJECT["description"].startswith("Streaming validation for Guardrails AI")
    urls = PROJECT["urls"]
    assert {"Homepage", "Repository", "Documentation", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    assert _beyond_guardrails(PROJECT["dependencies"]) == []


# --- the post-install check, in process ----------------------------------------------


def _module(**exports: Any) -> ModuleType:
    module = ModuleType("fake_chunkwise")
    module.__all__ = list(exports)  # type: ignore[attr-defined]
    for name, value in exports.items():
        setattr(module, name, value)
    return module


def _validator(name: str, alias: str | None, monkeypatch: pytest.MonkeyPatch) -> type:
    cls = type(name, (Validator,), {})
    if alias is not None:
        cls.rail_alias = alias  # type: ignore[attr-defined]
        monkeypatch.setitem(validators_registry, alias, cls)
    return cls


def test_post_install_accepts_registered_validators_that_guardrails_hub_sees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cls = _validator("FakeGood", "chunkwise/fake_good", monkeypatch)
    monkeypatch.setattr(guardrails.hub, "FakeGood", cls, raising=False)
    module = _module(FakeGood=cls, helper=len, VERSION="1")
    expected = [post_install.Registered("FakeGood", "chunkwise/fake_good")]
    assert post_install.verify(module) == expected


@pytest.mark.parametrize(
    ("alias", "in_hub", "message"),
    [
        (None, True, "FakeBad is not registered with Guardrails"),
        ("other/fake_bad", True, "FakeBad is registered as 'other/fake_bad', outside 'chunkwise/'"),
        ("chunkwise/fake_bad", False, "guardrails.hub cannot see FakeBad"),
    ],
)
def test_post_install_names_what_is_broken(
    alias: str | None, in_hub: bool, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = _validator("FakeBad", alias, monkeypatch)
    if in_hub:
        monkeypatch.setattr(guardrails.hub, "FakeBad", cls, raising=False)
    with pytest.raises(post_install.InstallError, match=re.escape(message)):
        post_install.verify(_module(FakeBad=cls))


def test_post_install_rejects_an_inherited_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    parent = _validator("FakeParent", "chunkwise/fake_parent", monkeypatch)
    child = type("FakeChild", (parent,), {})
    monkeypatch.setattr(guardrails.hub, "FakeChild", child, raising=False)
    with pytest.raises(post_install.InstallError, match="FakeChild is not registered"):
        post_install.verify(_module(FakeChild=child))


def test_post_install_rejects_another_class_behind_the_hub_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cls = _validator("FakeTwin", "chunkwise/fake_twin", monkeypatch)
    monkeypatch.setattr(
        guardrails.hub, "FakeTwin", type("FakeTwin", (Validator,), {}), raising=False
    )
    with pytest.raises(post_install.InstallError, match=r"guardrails\.hub\.FakeTwin is "):
        post_install.verify(_module(FakeTwin=cls))


def test_post_install_rejects_exports_that_fail_or_no_validators() -> None:
    module = _module()
    module.__all__ = ["Missing"]  # type: ignore[attr-defined]

    def missing(name: str) -> Any:
        raise ImportError(f"no module for {name}")

    module.__getattr__ = missing  # type: ignore[method-assign]
    message = "fake_chunkwise.Missing does not import: ImportError: no module for Missing"
    with pytest.raises(post_install.InstallError, match=re.escape(message)):
        post_install.verify(module)
    no_validator = r"fake_chunkwise\.__all__ names no Validator class"
    with pytest.raises(post_install.InstallError, match=no_validator):
        post_install.verify(_module(helper=len))


def test_post_install_main_reports_on_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(module: ModuleType | None = None) -> list[post_install.Registered]:
        raise post_install.InstallError("something is off")

    monkeypatch.setattr(post_install, "verify", broken)
    assert post_install.main([]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "chunkwise post-install: FAILED: something is off\n")

    one = [post_install.Registered("A", "chunkwise/a")]
    monkeypatch.setattr(post_install, "verify", lambda: one)
    assert post_install.main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("chunkwise post-install: OK: 1 validators registered, all in guardrails")
    assert err == ""


# --- the wheel -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel() -> zipfile.ZipFile:
    return zipfile.ZipFile(built_wheel())


def test_wheel_installs_only_guardrails_ai_chunkwise(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    info = [n for n in names if n.split("/")[0].endswith(".dist-info")]
    files = [n for n in names if n not in info]
    dist_info = f"{DIST.replace('-', '_')}-{PROJECT['version']}.dist-info"
    assert {n.split("/")[0] for n in info} == {dist_info}
    # No top-level validators/adapters/chunkers, and no guardrails_ai/__init__.py:
    # guardrails_ai is a namespace package that other distributions share.
    assert files and all(n.startswith("guardrails_ai/chunkwise/") for n in files), files
    top_level = next(n for n in info if n.endswith("/top_level.txt"))
    assert wheel.read(top_level).decode().split() == ["guardrails_ai"]


def test_wheel_holds_every_source_file_and_nothing_else(wheel: zipfile.ZipFile) -> None:
    source = source_copy()  # what the wheel was built from
    expected = {
        f"{target}/{path.relative_to(source / folder).as_posix()}"
        for folder, target in SOURCES.items()
        for path in (source / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    files = {n for n in wheel.namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert files == expected
    assert "guardrails_ai/chunkwise/py.typed" in files
    assert f"guardrails_ai/chunkwise/{MANIFEST['postInstall']}" in files


def test_wheel_metadata(wheel: zipfile.ZipFile) -> None:
    path = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(wheel.read(path).decode())
    assert meta["Name"] == DIST
    assert meta["Version"] == PROJECT["version"]
    assert meta["License-Expression"] == "MIT"
    assert meta["Summary"] == PROJECT["description"]
    runtime = [r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert "guardrails-ai<0.12,>=0.11.0" in runtime
    assert _beyond_guardrails(runtime) == []
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert urls == PROJECT["urls"]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel.namelist())


# --- the source distribution ---------------------------------------------------------

#: What setuptools adds to every sdist, beside the files it is given.
_SDIST_GENERATED = ("PKG-INFO", "setup.cfg", f"{DIST.replace('-', '_')}.egg-info/")


def _tracked_files() -> set[str]:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: the files an sdist must hold are the tracked ones")
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return {name for name in listed.split("\0") if name and (REPO / name).is_file()}


def test_sdist_holds_the_tracked_tree_and_nothing_else(tmp_path: Path) -> None:
    # The sdist held the package, README, LICENSE and the seven tests/test_*.py
    # that setuptools adds by default: no tests/conftest.py, tests/helpers/ or
    # test folders (so its tests could not run), no manifest.json, no docs.
    tracked = _tracked_files()
    tree = tmp_path / "tree"
    for name in tracked:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tree / name)
    backend, out = tmp_path / "backend", tmp_path / "out"
    env = offline_env([filled_wheelhouse()])
    pip = [sys.executable, "-m", "pip", "install", "-q", "--target", backend]
    run([*pip, *PYPROJECT["build-system"]["requires"]], env=env)
    build = "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    done = run(
        [sys.executable, "-c", build, out], env={**env, "PYTHONPATH": str(backend)}, cwd=tree
    )
    sdist = out / done.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as archive:
        members = [m.name.split("/", 1)[1] for m in archive.getmembers() if m.isfile()]
    held = {n for n in members if not n.startswith(_SDIST_GENERATED)}
    assert sorted(held - tracked) == []
    assert sorted(tracked - held) == []


# --- pip install . and pip install -e . in a fresh venv ------------------------------

#: Run in the venv from a neutral folder: what got installed, and where from.
_PROBE = """
import importlib.util, json, pathlib
import guardrails_ai.types
import guardrails_ai.chunkwise as chunkwise
from guardrails_ai.chunkwise import BannedPhrases
from guardrails_ai.chunkwise.chunkers import ChunkStream
print(json.dumps({
    "top_level": {n: importlib.util.find_spec(n) is not None
                  for n in ("validators", "adapters", "chunkers")},
    "origin": chunkwise.__file__,
    "py_typed": (pathlib.Path(chunkwise.__file__).parent / "py.typed").is_file(),
    "registered": BannedPhrases.rail_alias,
}))
"""


@pytest.fixture
def venv() -> Iterator[Venv]:
    yield from venv_without_chunkwise()


def _probe(venv: Venv, cwd: Path) -> dict[str, Any]:
    done = venv.python_code(_PROBE, cwd=cwd)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


#: ``python -m guardrails_ai.chunkwise.post_install``, with every socket connection refused
#: and reported on stderr, whether or not the caller swallows the error.
_OFFLINE_POST_INSTALL = """
import runpy, socket, sys
def refuse(self, address):
    print(f"CONNECT ATTEMPTED: {address!r}", file=sys.stderr)
    raise OSError("no network in this test")
socket.socket.connect = socket.socket.connect_ex = refuse
sys.argv = ["post_install"]
runpy.run_module("guardrails_ai.chunkwise.post_install", run_name="__main__")
"""


def _post_install(venv: Venv, cwd: Path) -> Any:
    done = venv.python_code(_OFFLINE_POST_INSTALL, cwd=cwd, check=False)
    assert "CONNECT ATTEMPTED" not in done.stderr, done.stderr
    return done


def test_pip_install_from_the_source_tree(venv: Venv, tmp_path: Path) -> None:
    venv.pip("install", "-q", source_copy())
    found = _probe(venv, tmp_path)
    assert found["top_level"] == {"validators": False, "adapters": False, "chunkers": False}
    assert Path(found["origin"]).is_relative_to(venv.site_packages)
    assert found["py_typed"] and found["registered"] == "chunkwise/banned_phrases"
    # Installed normally, guardrails.hub finds the validators in the guardrails_ai namespace.
    checked = _post_install(venv, tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(f"chunkwise post-install: OK: {len(MANIFEST['exports'])} ")


def test_pip_install_editable(venv: Venv, tmp_path: Path) -> None:
    source = source_copy()
    venv.pip("install", "-q", "-e", source)
    found = _probe(venv, tmp_path)
    assert found["top_level"] == {"validators": False, "adapters": False, "chunkers": False}
    assert Path(found["origin"]) == source / "validators" / "__init__.py"
    assert found["py_typed"] and found["registered"] == "chunkwise/banned_phrases"
    # An editable install is not on guardrails_ai.__path__, which guardrails.hub scans:
    # the check says so, and passes once the project's hub registry lists the package.
    unlisted = _post_install(venv, tmp_path)
    assert unlisted.returncode == 1
    assert "as after `pip install -e`" in unlisted.stderr
    assert len(unlisted.stderr.strip().splitlines()) == 1
    registry = tmp_path / ".guardrails" / "hub_registry.json"
    registry.parent.mkdir()
    entry = {"import_path": MANIFEST["moduleName"], "exports": MANIFEST["exports"]}
    registry.write_text(json.dumps({"version": 1, "validators": {MANIFEST["id"]: entry}}))
    listed = _post_install(venv, tmp_path)
    assert listed.returncode == 0, listed.stderr
