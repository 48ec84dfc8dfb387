"""The layer rule, enforced: data flows one way, chunkers -> adapters -> validators.

Read from the source tree with ``ast`` (no import runs), so a violation fails
here whatever is installed:

* ``chunkers/`` imports the standard library and itself only: never Guardrails,
  never a third-party package, never another layer;
* ``adapters/`` never imports the validators, the CLI or the server;
* the validators (``validators/`` without the ``__main__`` entry point) never
  import the CLI or the server;
* an import that crosses from one mapped folder to another is absolute
  (``from guardrails_ai.chunkwise.chunkers import ...``): a relative one names a
  path that does not exist in the source tree.

Imports inside ``if TYPE_CHECKING:`` blocks count too: a type checker follows
them, so they are dependencies all the same.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "guardrails_ai.chunkwise"

#: Source folder -> the import path it is mapped to (pyproject ``package-dir``).
FOLDERS = {
    "chunkers": f"{PACKAGE}.chunkers",
    "adapters": f"{PACKAGE}.adapters",
    "validators": PACKAGE,
    "cli": f"{PACKAGE}.cli",
    "server": f"{PACKAGE}.server",
}
#: Top-level modules of the validators' layer (the hub module and its helpers).
LAYER_ROOTS = ("chunkers", "adapters", "cli", "server")


def _modules(folder: str, *, skip: tuple[str, ...] = ()) -> Iterator[Path]:
    for path in sorted((ROOT / folder).rglob("*.py")):
        if not any(part in skip for part in path.relative_to(ROOT / folder).parts):
            yield path


def _imports(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """Absolute names of the modules ``path`` imports (relative ones resolved)."""
    relative = path.relative_to(ROOT).parts[1:]
    parts = package.split(".") + list(relative[:-1])  # the package of the module's folder
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            yield node.lineno, name
            for alias in node.names:  # "from . import x" imports module x
                yield node.lineno, f"{name}.{alias.name}"


def _layer(module: str) -> str | None:
    """The layer a module of ours belongs to, or ``None`` if it is not ours."""
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return None
    rest = module[len(PACKAGE) + 1 :].split(".", 1)[0]
    return rest if rest in LAYER_ROOTS else "validators"


def _violations(folder: str, allowed: set[str], *, skip: tuple[str, ...] = ()) -> list[str]:
    found = []
    for path in _modules(folder, skip=skip):
        for line, module in _imports(path, FOLDERS[folder]):
            layer = _layer(module)
            if layer is not None and layer not in allowed:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module} ({layer})")
    return found


#: Optional packages chunkers may import lazily, inside a function, behind an extra:
#: named OpenAI encodings for token sizes (``tokens`` extra).
OPTIONAL = {"bpe_openai"}


def _top_level_imports(path: Path) -> set[int]:
    """Lines of the imports that run when the module is imported (not in a function)."""
    lines: set[int] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                lines.add(child.lineno)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return lines


def test_chunkers_import_only_the_standard_library_and_themselves() -> None:
    stdlib = sys.stdlib_module_names
    found = []
    for path in _modules("chunkers"):
        eager = _top_level_imports(path)
        for line, module in _imports(path, FOLDERS["chunkers"]):
            top = module.split(".", 1)[0]
            if top in stdlib or top == "__future__":
                continue
            if top in OPTIONAL and line not in eager:
                continue
            if module.startswith(FOLDERS["chunkers"] + ".") or module == FOLDERS["chunkers"]:
                continue
            found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not found, "chunkers/ must import only the standard library:\n" + "\n".join(found)


def test_adapters_never_import_validators_cli_or_server() -> None:
    found = _violations("adapters", {"chunkers", "adapters"})
    assert not found, "adapters/ imports a layer above it:\n" + "\n".join(found)


def test_validators_never_import_cli_or_server() -> None:
    # __main__.py is the command's entry point (python -m guardrails_ai.chunkwise).
    found = _violations("validators", {"chunkers", "adapters", "validators"}, skip=("__main__.py",))
    assert not found, "validators/ imports the CLI or the server:\n" + "\n".join(found)


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_imports_across_folders_are_absolute(folder: str) -> None:
    found = []
    for path in _modules(folder):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            depth = len(path.relative_to(ROOT / folder).parts) - 1  # packages below the folder
            if node.level - 1 > depth:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"relative imports out of {folder}/ (use absolute ones):\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        (f"{PACKAGE}.chunkers.base", "chunkers"),
        (f"{PACKAGE}.adapters", "adapters"),
        (f"{PACKAGE}.redact_pii", "validators"),
        (PACKAGE, "validators"),
        (f"{PACKAGE}.cli.app", "cli"),
        ("guardrails.guard", None),
    ],
)
def test_layer_of_a_module(module: str, layer: str | None) -> None:
    assert _layer(module) == layer


def test_relative_imports_resolve_to_their_layer() -> None:
    # The resolver is what the three rules stand on: pin it on this tree's own files.
    names = {name for _, name in _imports(ROOT / "adapters" / "override.py", FOLDERS["adapters"])}
    assert f"{PACKAGE}.adapters.chunked" in names
    names = {name for _, name in _imports(ROOT / "validators" / "redact_pii.py", PACKAGE)}
    assert any(name.startswith(f"{PACKAGE}.") for name in names)


def test_no_test_module_imports_another() -> None:
    # Shared code lives in tests/helpers/; a test module is never a library.
    found = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
                for name in names
                if name.split(".")[-1].startswith("test_")
            ]
    assert not found, "\n".join(found)
