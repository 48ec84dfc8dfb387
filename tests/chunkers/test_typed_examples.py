"""The README's typed usage passes ``mypy --strict`` (issue 15: ``limit()`` was typed too loosely).

``limit("paragraph", max_chars=60).split_text(text)`` must type-check for a user
of the installed package: ``limit`` given an alias, a spec or a strategy
returns a ``ChunkingStrategy`` (``split_text``, ``split_spans``, ``locate``).
The package is laid out as installed (``guardrails_ai.chunkwise`` with
``chunkers/`` inside) by symbolic links to the source folders.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import REPO as ROOT

EXAMPLE = """\
from guardrails_ai.chunkwise.chunkers import ChunkingStrategy, limit
from guardrails_ai.chunkwise.chunkers.limits import limit as limit_again

text = "One. Two.\\n\\nThree."
chunks: list[str] = limit("paragraph", max_chars=60).split_text(text)
spans: list[tuple[int, int]] = limit("sentence", max_tokens=512).split_spans(text)
packed: ChunkingStrategy = limit_again({"chunker": "line"}, max_chars=80, fill=True)
filled: list[str] = packed.split_text(text)
"""


def test_limit_result_type_checks_strictly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    package = tmp_path / "tree" / "guardrails_ai" / "chunkwise"
    package.mkdir(parents=True)
    for name in ("__init__.py", "py.typed"):
        (package / name).symlink_to(ROOT / "validators" / name)
    (package / "chunkers").symlink_to(ROOT / "chunkers")
    example = tmp_path / "example.py"
    example.write_text(EXAMPLE)
    monkeypatch.setenv("MYPYPATH", str(tmp_path / "tree"))
    out, err, status = api.run(
        [
            "--strict",
            "--follow-imports=silent",
            "--no-incremental",
            "--config-file=",
            "--python-version=3.11",
            str(example),
        ]
    )
    assert status == 0, out + err
