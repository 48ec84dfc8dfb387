"""Concurrent streams through one Guard and one validator instance never mix.

16 threads through one ``Guard`` and 64 asyncio tasks through one
``AsyncGuard``, each with its own text, every one of them sharing a single
validator instance: on ``guarded_stream`` / ``async_guarded_stream`` and on
Guardrails' plain streaming paths (the sync iteration-keyed path and the
AsyncGuard ``context_vars`` path).  Every output is its own (fixed) input, and
a stateful validator's per-stream state only ever holds one stream's chunks.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from helpers.guardrails import Ban, History, arun, guard_with, joined, run

THREADS = 16
TASKS = 64


def text_of(name: str) -> str:
    return f"{name} opens. {name} is bad! Is {name} fine? {name} ends"


def fixed(text: str) -> str:
    return text.replace("bad", "***")


def deltas_of(text: str, n: int) -> list[str]:
    size = 2 + n % 5  # a different slicing per stream
    return [text[i : i + size] for i in range(0, len(text), size)]


def chunks_of(name: str) -> list[str]:
    return [f"{name} opens.", f"{name} is bad!", f"Is {name} fine?", f"{name} ends"]


def in_threads(work: Callable[[int], str]) -> list[str]:
    barrier = threading.Barrier(THREADS)
    results: list[Any] = [None] * THREADS

    def target(n: int) -> None:
        barrier.wait()
        try:
            results[n] = work(n)
        except BaseException as error:  # surfaced below, in the test's thread
            results[n] = error

    threads = [threading.Thread(target=target, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_threads_share_one_guard_and_one_validator(guarded: bool) -> None:
    validator = Ban(on_fail="fix")
    guard = guard_with(validator)
    names = [f"Thread{n}" for n in range(THREADS)]

    def work(n: int) -> str:
        return joined(run(guard, deltas_of(text_of(names[n]), n), guarded=guarded))

    assert in_threads(work) == [fixed(text_of(name)) for name in names]
    expected = sorted(chunk for name in names for chunk in chunks_of(name))
    assert sorted(validator.seen) == expected


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_threads_stateful_validator_keeps_each_streams_state(guarded: bool) -> None:
    validator = History(on_fail="fix")
    guard = guard_with(validator)
    names = [f"Thread{n}" for n in range(THREADS)]
    in_threads(lambda n: joined(run(guard, deltas_of(text_of(names[n]), n), guarded=guarded)))
    assert sorted(map(tuple, validator.states)) == sorted(tuple(chunks_of(n)) for n in names)


async def in_tasks(work: Callable[[int], Any]) -> list[str]:
    return list(await asyncio.gather(*(work(n) for n in range(TASKS))))


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_async_tasks_share_one_async_guard_and_one_validator(guarded: bool) -> None:
    validator = Ban(on_fail="fix")
    guard = guard_with(validator, asynchronous=True)
    names = [f"Task{n}" for n in range(TASKS)]
    # A direct call leaves an open stream in the caller's context, which every
    # task's context is copied from: it must not leak into any of them.
    validator.validate_stream("Leftover. Text", {})

    async def work(n: int) -> str:
        return joined(await arun(guard, deltas_of(text_of(names[n]), n), guarded=guarded))

    outputs = asyncio.run(in_tasks(work))
    if guarded:
        assert outputs == [fixed(text_of(name)) for name in names]
    else:
        # AsyncGuard never validates the trailing fragment (regression 8).
        assert outputs == [fixed(text_of(name)).rsplit(" ", 2)[0] + " " for name in names]


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain"])
def test_async_tasks_stateful_validator_keeps_each_streams_state(guarded: bool) -> None:
    validator = History(on_fail="fix")
    guard = guard_with(validator, asynchronous=True)
    names = [f"Task{n}" for n in range(TASKS)]

    async def work(n: int) -> str:
        return joined(await arun(guard, deltas_of(text_of(names[n]), n), guarded=guarded))

    asyncio.run(in_tasks(work))
    complete = 4 if guarded else 3  # plain AsyncGuard drops the last chunk
    expected = sorted(tuple(chunks_of(name)[:complete]) for name in names)
    assert sorted(map(tuple, validator.states)) == expected
