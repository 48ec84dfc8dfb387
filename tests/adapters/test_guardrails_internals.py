"""Pin the guardrails-ai internals that chunkwise relies on.

Each test states one fact about guardrails-ai 0.11 that adapters/ builds on
(see the docstrings of adapters/chunked.py and adapters/guarded.py).  If an
upgrade changes one of them, this file fails first, naming the fact.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any, ClassVar

import pytest
from guardrails import AsyncGuard, Guard, validator_service
from guardrails.classes.history import Iteration, Outputs
from guardrails.classes.llm.llm_response import LLMResponse
from guardrails.run.async_runner import AsyncRunner
from guardrails.run.async_stream_runner import AsyncStreamRunner
from guardrails.run.runner import Runner
from guardrails.run.stream_runner import StreamRunner
from guardrails.validator_base import Validator, register_validator
from guardrails.validator_service.sequential_validator_service import (
    SequentialValidatorService,
)
from guardrails_ai.types import PassResult, ValidationResult

MESSAGES = [{"role": "user", "content": "hi"}]


@register_validator(name="chunkwise-internals/probe", data_type="string")
class _Probe(Validator):
    """Records the keyword arguments Guardrails passes to validate_stream."""

    seen: ClassVar[list[dict[str, Any]]] = []

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        return PassResult()

    def validate_stream(self, chunk: Any, metadata: dict[str, Any], **kwargs: Any) -> Any:
        type(self).seen.append(dict(kwargs))
        return super().validate_stream(chunk, metadata, **kwargs)


def _llm(deltas: list[str]) -> Any:
    def llm(*, messages: Any = None, **kwargs: Any) -> Iterator[str]:
        yield from deltas

    return llm


def test_version_is_the_tested_range() -> None:
    assert version("guardrails-ai").startswith("0.11."), version("guardrails-ai")


def test_get_validators_reads_back_use() -> None:
    probe = _Probe(on_fail="noop")
    guard = Guard().use(probe)
    assert guard.get_validators("output") == [probe]
    assert [ref.on for ref in guard.validators] == ["$"]
    assert guard._validator_map == {"$": [probe]}


def test_a_copy_with_its_own_validator_map_shares_history_and_leaves_the_guard_alone() -> None:
    probe = _Probe(on_fail="noop")
    guard = Guard().use(probe)
    view = guard.model_copy()
    view._validator_map = dict(guard._validator_map)
    assert view.history is guard.history
    assert view.get_validators("output") == [probe]
    list(view(_llm(["a. ", "b"]), messages=MESSAGES, stream=True))
    assert len(guard.history) == 1
    assert view._validator_map is not guard._validator_map


_RUN = ["self", "call_log", "attempt_number", "messages", "prompt_params", "api"]
_VALIDATE = ["value", "metadata", "validator_map", "iteration", "disable_tracer", "path"]

#: What validated_streaming replaces (first four) and what validated_runs calls.
SIGNATURES = [
    (
        StreamRunner.step,
        [
            "self",
            "index",
            "api",
            "messages",
            "prompt_params",
            "output_schema",
            "call_log",
            "output",
        ],
    ),
    (
        AsyncStreamRunner.async_step,
        [
            "self",
            "index",
            "output_schema",
            "call_log",
            "api",
            "messages",
            "prompt_params",
            "output",
        ],
    ),
    (validator_service.validate, [*_VALIDATE, "kwargs"]),
    (validator_service.async_validate, [*_VALIDATE, "stream", "kwargs"]),
    (Runner.prepare, _RUN),
    (AsyncRunner.async_prepare, _RUN),
    (Runner.call, ["self", "messages", "api", "output"]),
    (AsyncRunner.async_call, ["self", "messages", "api", "output"]),
    (StreamRunner.get_chunk_text, ["self", "chunk", "api"]),
]


@pytest.mark.parametrize(
    ("function", "names"), SIGNATURES, ids=lambda f: getattr(f, "__qualname__", "")
)
def test_the_functions_validated_streaming_replaces_or_calls_keep_their_signatures(
    function: Any, names: list[str]
) -> None:
    assert list(inspect.signature(function).parameters) == names


def test_the_history_fields_validated_runs_fills() -> None:
    assert {"stream_output", "async_stream_output", "output"} <= set(LLMResponse.model_fields)
    assert {"raw_output", "parsed_output", "validation_response", "guarded_output"} <= set(
        Outputs.model_fields
    )


def test_call_status_and_guarded_output_are_properties_of_its_logs() -> None:
    # validated_streaming replaces both properties for calls the pipeline
    # validated: Guardrails guesses them from the validator logs
    # (Call._has_unresolved_failures compares the whole output with each
    # failed validator's whole input), which one log per validator cannot answer.
    from guardrails.classes.history import Call

    for name in ("status", "guarded_output"):
        assert isinstance(vars(Call)[name], property), name
    assert callable(vars(Call)["_has_unresolved_failures"])


def test_guards_hand_their_validator_map_to_the_runners() -> None:
    """The patched runner recognises a guarded_stream view by its map's identity,
    and Runner/AsyncRunner find validator_service.validate/async_validate on the
    module at call time (so replacing the module attribute reaches them)."""
    for exec_ in (Guard._exec, AsyncGuard._exec):
        assert "validation_map=self._validator_map" in inspect.getsource(exec_)
    assert "validator_service.validate(" in inspect.getsource(Runner.validate)
    assert "validator_service.async_validate(" in inspect.getsource(AsyncRunner.async_validate)
    assert "self.step(" in inspect.getsource(StreamRunner.__call__)
    assert "await self.async_step(" in inspect.getsource(AsyncStreamRunner.async_run)


def test_a_guard_without_validators_yields_each_delta_as_raw_output() -> None:
    deltas = ["Hel", "lo. ", "", "World"]
    outcomes = list(Guard()(_llm(deltas), messages=MESSAGES, stream=True))
    # Empty deltas are skipped; every other delta comes back unchanged.
    assert [o.raw_llm_output for o in outcomes] == ["Hel", "lo. ", "World"]
    assert [o.validated_output for o in outcomes] == ["Hel", "lo. ", "World"]


def test_an_async_guard_without_validators_yields_each_delta() -> None:
    deltas = ["Hel", "lo. ", "World"]

    class Response:
        def __init__(self) -> None:
            self.completion_stream = self._stream()

        async def _stream(self) -> Any:
            for delta in deltas:
                yield delta

    async def llm(*, messages: Any = None, **kwargs: Any) -> Response:
        return Response()

    async def collect() -> list[Any]:
        return [o async for o in await AsyncGuard()(llm, messages=MESSAGES, stream=True)]

    outcomes = asyncio.run(collect())
    assert "".join(o.raw_llm_output or "" for o in outcomes) == "".join(deltas)


def test_sync_stream_validation_runs_inside_an_iteration_frame() -> None:
    """ChunkedValidator finds its stream's identity as the local ``iteration``."""
    params = inspect.signature(SequentialValidatorService.run_validator).parameters
    assert list(params)[1] == "iteration"
    assert "iteration" in SequentialValidatorService.run_validator.__code__.co_varnames
    assert Iteration.__name__ == "Iteration"


def test_sync_fix_path_passes_remainder_only_after_a_withheld_last_delta() -> None:
    """The fix path asks for the remainder only of validators that returned None
    for the last delta; the noop path never does.  So a ChunkedValidator's last
    fragment is validated on the plain fix path only when the last delta
    completed no chunk (or the LLM marks its last chunk with finish_reason)."""
    _Probe.seen = []
    list(Guard().use(_Probe(on_fail="fix"))(_llm(["a. b", "c"]), messages=MESSAGES, stream=True))
    assert [bool(kw.get("remainder")) for kw in _Probe.seen] == [False, False, True]
    _Probe.seen = []
    list(Guard().use(_Probe(on_fail="fix"))(_llm(["a", "b. c"]), messages=MESSAGES, stream=True))
    assert not any(kw.get("remainder") for kw in _Probe.seen)
    _Probe.seen = []
    list(Guard().use(_Probe(on_fail="noop"))(_llm(["a. b"]), messages=MESSAGES, stream=True))
    assert not any(kw.get("remainder") for kw in _Probe.seen)


def test_async_stream_passes_context_and_context_vars() -> None:
    _Probe.seen = []

    class Response:
        def __init__(self) -> None:
            self.completion_stream = self._stream()

        async def _stream(self) -> Any:
            yield "a. b"

    async def llm(*, messages: Any = None, **kwargs: Any) -> Response:
        return Response()

    guard = AsyncGuard().use(_Probe(on_fail="noop"))

    async def collect() -> list[Any]:
        return [o async for o in await guard(llm, messages=MESSAGES, stream=True)]

    asyncio.run(collect())
    assert _Probe.seen and all("context" in kw and "context_vars" in kw for kw in _Probe.seen)


def test_validator_exposes_on_fail_descriptor_and_method() -> None:
    def handler(value: Any, result: Any) -> str:
        return "x"

    assert _Probe(on_fail="filter").on_fail_descriptor.value == "filter"
    custom = _Probe(on_fail=handler)
    assert custom.on_fail_descriptor.value == "custom"
    assert custom.on_fail_method is handler
