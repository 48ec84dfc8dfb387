"""The README's Python examples run, in order, and show what the README says.

The blocks run one after another in one namespace, as a reader would paste
them.  A top-level expression followed by ``# ...`` comment lines (or with a
``  # ...`` comment on its own line) states its result: ``repr`` of the value,
or for a ``print(...)`` what it printed; compared with whitespace collapsed.
Inline remarks inside such comments (two spaces, ``#``) are not part of it.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
_REMARK = re.compile(r"\s{2,}#\s.*$")


def _claims(block: str, tree: ast.Module) -> dict[int, str]:
    """Statement index -> expected text, for each expression whose result is stated."""
    lines = block.split("\n")
    claims = {}
    for i, stmt in enumerate(tree.body):
        if not isinstance(stmt, ast.Expr):
            continue
        end = stmt.end_lineno or stmt.lineno
        inline = re.search(r"\)\s{2,}#\s(.*)$", lines[end - 1])
        stop = tree.body[i + 1].lineno - 1 if i + 1 < len(tree.body) else len(lines)
        comment = []
        for line in lines[end:stop]:
            if not line.startswith("#"):
                break
            comment.append(_REMARK.sub("", line[1:]))
        expected = inline.group(1) if inline else " ".join(comment)
        if expected.strip():
            claims[i] = expected
    return claims


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_readme_examples_run_and_show_what_the_readme_says() -> None:
    assert BLOCKS, "no python blocks found in README.md"
    try:
        _run_blocks()
    finally:  # the README turns the opt-in on; leave the process as it was
        from guardrails_ai.chunkwise import disable_validated_streaming

        disable_validated_streaming()


def _run_blocks() -> None:
    namespace: dict[str, Any] = {"__name__": "readme_example"}
    checked = 0
    for number, block in enumerate(BLOCKS):
        tree = ast.parse(block)
        claims = _claims(block, tree)
        for index, stmt in enumerate(tree.body):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                if isinstance(stmt, ast.Expr):
                    code = compile(ast.Expression(stmt.value), "README.md", "eval")
                    value = eval(code, namespace)
                else:
                    exec(compile(ast.Module([stmt], []), "README.md", "exec"), namespace)
                    value = None
            if index in claims:
                is_print = (
                    isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Call)
                    and getattr(stmt.value.func, "id", "") == "print"
                )
                shown = out.getvalue() if is_print else repr(value)
                checked += 1
                assert _norm(shown) == _norm(claims[index]), (
                    f"README python block {number}, line {stmt.lineno}"
                )
    # The README states results for its chunker, limit and validator examples.
    assert checked >= 8, checked  # 10 when written
