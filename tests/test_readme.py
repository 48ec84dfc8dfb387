"""The README's Python examples run, in order, and show what the README says.

The examples are doctests (``>>>``), run by the standard library's ``doctest``
in one namespace, top to bottom, as a reader would paste them: each printed or
returned value must be what the README shows (whitespace normalised; ``...``
stands for text the README leaves out).  Blocks marked ``py`` instead of
``python`` need a running server and are left out (``tests/server/test_serve.py``
runs them as real processes).
"""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run_and_show_what_the_readme_says() -> None:
    try:
        result = doctest.testfile(
            str(README),
            module_relative=False,
            optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
            globs={"__name__": "readme_example"},
        )
    finally:  # the README turns the opt-in on; leave the process as it was
        from guardrails_ai.chunkwise import disable_validated_streaming

        disable_validated_streaming()
    assert result.attempted >= 60, result  # every block was found
    assert result.failed == 0, f"{result.failed} README example(s) failed: see the output above"
