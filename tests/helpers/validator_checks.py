"""Checks and strategies shared by the example validators' tests."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from guardrails_ai.types import FailResult, PassResult
from hypothesis import strategies as st

from helpers.guardrails import slicings

__all__ = ["assert_fix_within_spans", "assert_verdict", "texts_and_deltas"]

#: What may separate two sentences of a generated text.
SEPARATORS = [" ", "  ", "\n", "\n\n", "\t", " \n "]


def assert_verdict(result: Any, fixed: str | None) -> FailResult | None:
    """``result`` passes when ``fixed`` is ``None``; else it fails with
    ``fixed`` as its fix, and is returned for further checks."""
    if fixed is None:
        assert isinstance(result, PassResult), result
        return None
    assert isinstance(result, FailResult), result
    assert result.fix_value == fixed
    return result


def assert_fix_within_spans(text: str, result: Any) -> None:
    """``result.fix_value`` is ``text`` with only the reported error spans replaced.

    The text between spans must appear unchanged, in order; what replaces
    each span is free (a mask, a placeholder, nothing).
    """
    assert isinstance(result, FailResult)
    spans = sorted((s.start, s.end) for s in result.error_spans)
    pattern, done = [], 0
    for start, end in spans:
        assert done <= start < end <= len(text), (spans, len(text))
        pattern += [re.escape(text[done:start]), "(.*?)"]
        done = end
    pattern.append(re.escape(text[done:]))
    assert re.fullmatch("".join(pattern), result.fix_value, re.DOTALL), (
        text,
        spans,
        result.fix_value,
    )


@st.composite
def texts_and_deltas(
    draw: st.DrawFn, sentences: Sequence[str], max_sentences: int = 8
) -> tuple[str, list[str]]:
    """A text of sentences from ``sentences`` with random separators (maybe
    trailing whitespace, maybe none), and a random slicing of it into deltas."""
    chosen = draw(st.lists(st.sampled_from(list(sentences)), min_size=1, max_size=max_sentences))
    parts = []
    for sentence in chosen:
        parts += [sentence, draw(st.sampled_from(SEPARATORS))]
    if draw(st.booleans()):
        parts.pop()
    text = "".join(parts)
    return text, draw(slicings(text))
