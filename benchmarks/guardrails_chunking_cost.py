"""A validator left with Guardrails' own chunking, given many sentences at once.

Usage: ``python benchmarks/guardrails_chunking_cost.py [--sizes 5KB,10KB,20KB]``

Under ``enable_validated_streaming()`` a hub or custom validator without
``with_chunker`` chunks with ``GuardrailsChunker`` (Guardrails' sentence
splitter made lossless).  ``guard.validate``, a non-streamed call or a server
burst hands it many sentences in one delta.  Side by side, in CPU seconds and
characters shown to the splitter:

* ``rescan``: the reference driver, which asks the splitter about the whole
  rest of the text after each sentence (what the scanner did before it showed
  a bounded window: quadratic);
* ``window``: ``GuardrailsChunker`` now (a window with ``LOOKAHEAD``
  characters past each sentence).

Both give the same chunks (checked).  Text: ``benchmarks/_text.py`` prose.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _text import offline, parse_size, prose


def rescan(function: Callable[[str], list[str]], text: str) -> list[str]:
    """Chunks by asking ``function`` about the whole rest of ``text`` each time
    (also the tests' reference for ``GuardrailsChunker``'s answers)."""
    chunks = []
    while (answer := function(text)) and (wanted := "".join(answer[0].split())):
        i = len(text) - len(text.lstrip())
        for _ in wanted:
            while text[i].isspace():
                i += 1
            i += 1
        if not text[i:].strip():
            break
        chunks.append(text[:i].strip())
        text = text[i:]
    return chunks + ([text.strip()] if text.strip() else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="5KB,10KB,20KB")
    args = parser.parse_args()
    offline()
    from guardrails.validator_base import split_sentence_word_tokenizers_jl_separator

    from guardrails_ai.chunkwise.adapters import GuardrailsChunker

    print("| size | rescan s | window s | rescan chars shown | window chars shown | speed-up |")
    print("|---:|---:|---:|---:|---:|---:|")
    for spec in args.sizes.split(","):
        text = prose(parse_size(spec), 0)
        rows = {}
        for name in ("rescan", "window"):
            shown = [0]

            def counting(part: str, shown: list[int] = shown) -> list[str]:
                shown[0] += len(part)
                return split_sentence_word_tokenizers_jl_separator(part)

            t0 = time.process_time()
            if name == "rescan":
                chunks = rescan(counting, text)
            else:
                chunks = GuardrailsChunker(counting).split_text(text)
            rows[name] = (time.process_time() - t0, shown[0], chunks)
        assert rows["rescan"][2] == rows["window"][2], "the two drivers disagree"
        (a, sa, _), (b, sb, _) = rows["rescan"], rows["window"]
        print(f"| {spec} | {a:.2f} | {b:.2f} | {sa:,} | {sb:,} | x{a / max(b, 1e-9):.1f} |")


if __name__ == "__main__":
    main()
