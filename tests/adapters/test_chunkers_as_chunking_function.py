"""The line, fixed, regex and structure chunkers called as Guardrails calls a
``_chunking_function``: each segment holds exactly one chunk, nothing is lost.
"""

from __future__ import annotations

import pytest
from helpers.chunking import sliced
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.adapters import chunking_function
from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    FixedSizeChunker,
    LineChunker,
    RegexChunker,
    StructureChunker,
)

# -- as Guardrails' _chunking_function ---------------------------------------------

#: Every chunker of this module in a few configurations.
CONFIGS: list[ChunkingStrategy] = [
    LineChunker(),
    LineChunker(crlf=False),
    FixedSizeChunker(6, 2),
    FixedSizeChunker(3),
    FixedSizeChunker(6, 2, boundary_preference="forward"),
    FixedSizeChunker(6, 2, boundary_preference="backward"),
    RegexChunker(r";\s*"),
    RegexChunker(r"\n\s*\n"),
    RegexChunker(r"(?<=[.!?])\s+"),
    RegexChunker(r"\ba\b"),
    RegexChunker(r"a(?:bc)?"),
    StructureChunker(),
    StructureChunker(split_on_transitions=True, transition_phrases=["ab"]),
]
contract_texts = st.lists(
    st.sampled_from(["# T", "ab", "a", "bc", ";", " ", "\n", "\n\n", "\r\n", "---", "1. T", "."]),
    max_size=14,
).map("".join)


@pytest.mark.parametrize("chunker", CONFIGS, ids=repr)
@given(case=sliced(contract_texts))
def test_as_a_guardrails_chunking_function(
    chunker: ChunkingStrategy, case: tuple[str, list[str]]
) -> None:
    # Called as Guardrails' validate_stream calls it: on the accumulated text
    # after each delta, the remainder kept.  Each segment holds exactly the
    # chunk the whole text has there; nothing is lost (scanners' settled()).
    text, deltas = case
    function = chunking_function(chunker)
    segments, rest = [], ""
    for delta in deltas:
        rest += delta
        while answer := function(rest):
            segment, rest = answer
            segments.append(segment)
    assert "".join(segments) + rest == text
    per_segment = [chunker.split_text(s) for s in segments]
    assert all(len(chunks) == 1 for chunks in per_segment)
    assert [c for chunks in per_segment for c in chunks] + chunker.split_text(rest) == (
        chunker.split_text(text)
    )
