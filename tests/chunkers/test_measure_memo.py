"""A measure counts each text once while it is in use (issue 13: no chunk
counted twice as it is decided and emitted), and its batch form agrees with
calling it text by text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers.sizing import measure_for


def counting() -> tuple[list[str], object]:
    calls: list[str] = []

    def length(text: str) -> int:
        calls.append(text)
        return len(text.split())

    return calls, length


def test_a_long_text_measured_again_is_not_counted_again() -> None:
    calls, length = counting()
    measure = measure_for(length)
    chunk = "word " * 200
    assert measure(chunk) == measure(chunk) == 200
    assert calls == [chunk]


def test_only_the_last_few_long_texts_are_remembered() -> None:
    calls, length = counting()
    measure = measure_for(length)
    texts = [f"{i} " + "word " * 100 for i in range(9)]
    for text in texts:
        measure(text)
    measure(texts[0])  # pushed out by the eight after it
    measure(texts[-1])  # still remembered
    assert calls == [*texts, texts[0]]


@given(st.lists(st.text(max_size=64), max_size=30))
def test_sizes_is_the_measure_text_by_text(texts: list[str]) -> None:
    calls, length = counting()
    measure = measure_for(length)
    assert measure.sizes(texts) == [len(text.split()) for text in texts]
    assert len(calls) == len(set(texts))  # each distinct short text counted once


def test_a_measure_shared_by_threads_stays_exact() -> None:
    # One chunker (and so one measure) may serve streams on several threads.
    from concurrent.futures import ThreadPoolExecutor

    measure = measure_for(lambda text: len(text.split()))

    def run(seed: int) -> bool:
        texts = [f"{seed} {i} " + "word " * 60 for i in range(300)]
        return all(measure(text) == 62 for text in texts + texts[::-1])

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(run, range(16)))
