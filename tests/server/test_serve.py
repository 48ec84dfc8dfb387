"""``chunkwise serve`` and ``guardrails start`` + ``serve_validated()``, as real processes.

A local OpenAI-compatible upstream (``fake_openai_upstream.py``: SSE deltas of
1-7 characters, 2 ms apart) answers LiteLLM, pointed at it through
``OPENAI_BASE_URL`` in the servers' environment; the ``openai`` client (and
``httpx`` for the raw event stream) calls the servers as a user would.  Three
servers start once, in parallel, for the module:

* ``chunkwise serve --config config.py`` (one worker);
* ``chunkwise serve --config config.py --workers 2``;
* ``guardrails start --config opted_in.py``, whose config calls
  ``serve_validated()`` and opts in to raw text (``CHUNKWISE_RAW_LLM_OUTPUT``).

One test starts a fourth, ``guardrails start`` with a config that does not call
``serve_validated()`` (guardrails-api's own endpoint), to check what the README
says of it.

What each response must be is computed in this process with ``guarded_stream``
over the same guard and text (one delta: chunking is delta-invariant).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import openai
import pytest
from guardrails.errors import ValidationError
from guardrails_ai.types import ErrorSpan, FailResult
from helpers.fake_openai_upstream import USAGE, deltas
from helpers.guardrails import MESSAGES, llm, verdicts_by_release
from helpers.server import (
    free_port,
    server_env,
    start_server,
    start_upstream,
    stop,
    worker_pids,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrails_ai.chunkwise.adapters import guarded_stream
from guardrails_ai.chunkwise.chunkers import SentenceChunker
from guardrails_ai.chunkwise.chunkers.sentence.quotes import QUOTE_MAX
from guardrails_ai.chunkwise.cli import main
from guardrails_ai.chunkwise.server.completions import Verdicts, _text_of, coalesced
from guardrails_ai.chunkwise.server.events import guardrails_field

CONFIG = """\
from guardrails import Guard
from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII
from guardrails_ai.chunkwise.chunkers import limit

def _guard(on_fail):
    return Guard(name=on_fail).use(
        RedactPII(on_fail=on_fail), BannedPhrases(["free money"], on_fail="fix")
    )

exception, noop, fix, filter, refrain = map(
    _guard, ["exception", "noop", "fix", "filter", "refrain"]
)
# Four validators in a pipeline, every one with the same on_fail.
def _four(on_fail):
    return Guard(name=f"four_{on_fail}").use(
        RedactPII(on_fail=on_fail),
        BannedPhrases(["free money"], on_fail=on_fail),
        NoRepetition(on_fail=on_fail),
        MaxChunkLength(max_words=20, on_fail=on_fail),
    )

four_exception, four_noop, four_fix, four_filter, four_refrain = map(
    _four, ["exception", "noop", "fix", "filter", "refrain"]
)
# A size window of 400 characters (RedactPII keeps it entity-safe).
pii_window = Guard(name="pii_window").use(
    RedactPII(chunker=limit("sentence", max_chars=400), on_fail="fix")
)
# guardrails-api's own routes find a guard by id only
plain = Guard(id="plain", name="plain").use(RedactPII(on_fail="fix"))

# A validator whose messages quote the text it fails, as many hub validators' do.
from guardrails.validator_base import Validator, register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult
from guardrails_ai.chunkwise.adapters import with_chunker

@register_validator(name="serve-test/quoting", data_type="string")
class Quoting(Validator):
    def _validate(self, value, metadata):
        if "FORBIDDEN" not in value:
            return PassResult()
        at = value.index("FORBIDDEN")
        span = ErrorSpan(start=at, end=at + 9, reason=f"{value[at:at + 9]!r} in {value!r}")
        return FailResult(
            error_message=f"The following sentence is bad: {value}",
            fix_value="",
            error_spans=[span],
        )

quoting_filter, quoting_exception = (
    Guard(name=f"quoting_{on_fail}").use(with_chunker(Quoting(on_fail=on_fail), "sentence"))
    for on_fail in ("filter", "exception")
)
reask = Guard(name="reask").use(RedactPII(on_fail="reask"))
# Filtering a line must not join the lines around it into a banned phrase.
phrases_filter = Guard(name="phrases_filter").use(
    BannedPhrases(["get free", "secret sauce"], chunker="line", on_fail="filter")
)
handled = Guard(name="handled").use(RedactPII(on_fail=lambda value, result: "[mail]"))

# A custom validator left on Guardrails' own chunking: its fix (the chunk in
# capitals) shows a client where the chunks were cut.
@register_validator(name="serve-test/shout", data_type="string")
class Shout(Validator):
    def _validate(self, value, metadata):
        if "call" not in value:
            return PassResult()
        return FailResult(error_message="A chunk holds a banned word.", fix_value=value.upper())

shout_fix, shout_filter = (
    Guard(name=f"shout_{on_fail}").use(Shout(on_fail=on_fail)) for on_fail in ("fix", "filter")
)

# A structured output (README: a field of a pydantic model).
from pydantic import BaseModel, Field

class Reply(BaseModel):
    answer: str = Field(json_schema_extra={"validators": [RedactPII(on_fail="fix")]})

structured = Guard.for_pydantic(Reply, name="structured")

class Reasked(BaseModel):
    answer: str = Field(json_schema_extra={"validators": [RedactPII(on_fail="reask")]})

structured_reask = Guard.for_pydantic(Reasked, name="structured_reask")
"""
#: A validator that keeps its required argument from Validator.__init__: to_dict()
#: lacks it, so a guard using it cannot be rebuilt (``chunkwise serve`` refuses it).
UNBUILDABLE = """
@register_validator(name="serve-test/unbuildable", data_type="string")
class Unbuildable(Validator):
    def __init__(self, limit, on_fail=None):
        super().__init__(on_fail=on_fail)
        self.limit = limit

    def _validate(self, value, metadata):
        return PassResult()

unbuildable = Guard(name="unbuildable").use(Unbuildable(5, on_fail="fix"))
"""
OPTED_IN = (
    CONFIG
    + UNBUILDABLE
    + """
from guardrails_ai.chunkwise.server import serve_validated

serve_validated()
CHUNKWISE_RAW_LLM_OUTPUT = True
"""
)
ON_FAIL = ["exception", "noop", "fix", "filter", "refrain"]
#: Personal data in the middle and in the trailing fragment (no terminator).
TEXT = (
    "Hello there. Mail me at john@example.com now. Card 4111 1111 1111 1111 is on file. "
    "Free money for all. Bye jane@example.org"
)
#: What on_fail exception may release before the first failure: the text before it,
#: or less (the last validator may still hold the first sentence, by slicing).
OK_BEFORE_FAILURE = ["", "Hello there.", "Hello there. "]
PII = ["john@example.com", "4111 1111 1111 1111", "jane@example.org"]
MODEL = "gpt-4o-mini"


@dataclass
class Servers:
    upstream: int
    serve: int
    workers: int
    start: int
    serve_pid: int
    workers_pid: int
    logs: list[Path]


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    folder = tmp_path_factory.mktemp("serve")
    (folder / "config.py").write_text(CONFIG, encoding="utf-8")
    (folder / "opted_in.py").write_text(OPTED_IN, encoding="utf-8")
    upstream, upstream_port = start_upstream(delay_ms=2)
    env = server_env(upstream_port)
    chunkwise = [sys.executable, "-m", "guardrails_ai.chunkwise", "serve"]
    guardrails = str(Path(sys.executable).with_name("guardrails"))
    ports = [free_port() for _ in range(3)]
    commands = [
        [*chunkwise, "--config", "config.py", "--port", str(ports[0])],
        [*chunkwise, "--config", "config.py", "--port", str(ports[1]), "--workers", "2"],
        [guardrails, "start", "--config", "opted_in.py", "--port", str(ports[2])],
    ]
    logs = [folder / f"server{i}.log" for i in range(3)]
    procs = []
    try:
        with ThreadPoolExecutor(3) as pool:  # the three start at once
            futures = [
                pool.submit(start_server, cmd, port, env, folder, log.open("wb"))
                for cmd, port, log in zip(commands, ports, logs, strict=True)
            ]
            for future in futures:
                try:
                    procs.append(future.result())
                except Exception:
                    for other in futures:  # stop the ones that did start
                        if other.done() and other.exception() is None:
                            stop(other.result())
                    raise
        yield Servers(upstream_port, *ports, procs[0].pid, procs[1].pid, logs)
    finally:
        for proc in procs:
            stop(proc)
        stop(upstream)


def client(port: int, guard: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"http://127.0.0.1:{port}/guards/{guard}/openai/v1",
        api_key="unused",
        max_retries=0,
        timeout=60,
    )


@dataclass
class Expected:
    text: str
    passed: bool
    failed: bool  # raised (on_fail exception)


@pytest.fixture(scope="module")
def guards() -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(CONFIG, "config.py", "exec"), namespace)
    names = [*ON_FAIL, "quoting_filter", "phrases_filter", "pii_window", "plain"]
    names += ["shout_fix", "shout_filter"]
    names += [f"four_{on_fail}" for on_fail in ON_FAIL]
    return {name: namespace[name] for name in names}


def expected(guard: Any, text: str) -> Expected:
    """What chunkwise's pipeline releases for ``text`` through ``guard``, in process."""
    released, passed = [], True
    try:
        for outcome in guarded_stream(guard, llm([text]), messages=MESSAGES):
            released.append(outcome.validated_output or "")
            passed = outcome.validation_passed
    except ValidationError:
        return Expected("".join(released), False, True)
    return Expected("".join(released), passed, False)


def events(port: int, guard: str, text: str) -> list[tuple[str, dict[str, Any]]]:
    """Each event's ``delta.content`` and ``guardrails`` field."""
    answer = client(port, guard).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": text}], stream=True
    )
    return [
        (event.choices[0].delta.content or "", (event.model_extra or {}).get("guardrails") or {})
        for event in answer
    ]


def stream(port: int, guard: str, text: str) -> tuple[str, list[dict[str, Any]]]:
    """The joined ``delta.content`` and each event's ``guardrails`` field."""
    received = events(port, guard, text)
    return "".join(content for content, _ in received), [field for _, field in received]


def raw_events(port: int, guard: str, text: str, **extra: Any) -> tuple[int, list[str]]:
    """The HTTP status and the ``data:`` payloads of a streamed completion
    (``extra``: more request parameters, ``seed=0`` for 1-character upstream deltas)."""
    body = {
        "model": MODEL,
        "stream": True,
        "messages": [{"role": "user", "content": text}],
        **extra,
    }
    url = f"http://127.0.0.1:{port}/guards/{guard}/openai/v1/chat/completions"
    with httpx.stream("POST", url, json=body, timeout=60) as answer:
        lines = [line for line in answer.iter_lines() if line.startswith("data: ")]
        return answer.status_code, [line[len("data: ") :] for line in lines]


def summaries(fields: list[dict[str, Any]]) -> list[Any]:
    return [summary for field in fields for summary in field.get("validation_summaries") or []]


# -- the command's own errors (no server started) -------------------------------------------


def test_serve_without_a_config_file_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--config", str(tmp_path / "missing.py")]) == 2
    assert capsys.readouterr().err.strip().endswith("missing.py: no such file")
    (tmp_path / "config.py").write_text(CONFIG, encoding="utf-8")
    assert main(["serve", "--config", str(tmp_path / "config.py"), "--workers", "0"]) == 2


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("this is not python (\n", "loading it raised SyntaxError at line 1"),
        ('token = "sk-secret"\nraise RuntimeError(token)\n', "raised RuntimeError at line 2"),
        ("import no_such_module_for_chunkwise\n", "raised ModuleNotFoundError at line 1"),
    ],
)
def test_a_config_that_fails_to_load_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, expected: str
) -> None:
    # Checked before any worker starts: no traceback, and neither the
    # exception's text nor the source line (a config may hold secrets).
    config = tmp_path / "config.py"
    config.write_text(source, encoding="utf-8")
    assert main(["serve", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.strip().endswith(expected)
    assert "secret" not in err and "Traceback" not in err


def test_a_guard_that_cannot_be_written_as_json_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # guardrails-api writes every guard as JSON when it starts: a chunker with
    # no spec was a traceback from inside uvicorn, after the server's banner.
    config = tmp_path / "config.py"
    config.write_text(
        "from guardrails import Guard\n"
        "from guardrails_ai.chunkwise import NoRepetition\n"
        "class OwnChunker:\n"
        "    def split(self, text):\n"
        "        return []\n"
        "    def flush(self, text):\n"
        "        return [text] if text else []\n"
        'fine = Guard(name="fine").use(NoRepetition(on_fail="fix"))\n'
        'own = Guard(name="own").use(NoRepetition(chunker=OwnChunker(), on_fail="fix"))\n',
        encoding="utf-8",
    )
    assert main(["serve", "--config", str(config), "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "guard 'own' cannot be served" in err and "NoRepetition" in err
    assert "has no spec" in err and "'fine'" not in err


def served_on_a_busy_port(config: Path) -> tuple[int, int]:
    """``chunkwise serve --config config`` on a port in use: its exit status
    and the port.  The port is checked after the guards, so a config they
    pass never starts serving here: it fails on the port."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        return main(["serve", "--config", str(config), "--port", str(port)]), port


def test_a_guard_that_cannot_be_rebuilt_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the server started, and every request to the guard was an HTTP 500
    # "Internal Server Error" (not OpenAI-shaped) and a traceback in the log.
    config = tmp_path / "config.py"
    config.write_text(CONFIG + UNBUILDABLE, encoding="utf-8")
    assert served_on_a_busy_port(config)[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.strip().endswith(
        "guard 'unbuildable' cannot be served: rebuilding it from Guard.to_dict() raised TypeError"
    )


@pytest.mark.parametrize(
    ("guards", "expected"),
    [
        (
            'a = Guard(name="twin").use(NoRepetition(on_fail="fix"))\n'
            'b = AsyncGuard(name="twin").use(NoRepetition(max_repeats=2, on_fail="fix"))\n',
            "2 guards are named 'twin'",
        ),
        (
            'a = Guard(name="left", id="shared")\nb = Guard(name="right", id="shared")\n',
            "2 guards have the id 'shared'",
        ),
        (
            'a = Guard(name="left", id="right")\nb = Guard(name="right")\n',
            "the name of guard 'right' is another guard's id",
        ),
    ],
)
def test_two_guards_served_under_one_name_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], guards: str, expected: str
) -> None:
    # Before: the server started; requests to /guards/twin/... reached one of the
    # two guards (guardrails-api keeps one guard per id), and nothing said so.
    config = tmp_path / "config.py"
    head = (
        "from guardrails import AsyncGuard, Guard\n"
        "from guardrails_ai.chunkwise import NoRepetition\n"
    )
    config.write_text(head + guards, encoding="utf-8")
    # (Before the fix: a port error, not a server that serves.)
    assert served_on_a_busy_port(config)[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert expected in err


def test_one_guard_under_two_variables_is_served_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.py"
    config.write_text(
        'from guardrails import Guard\nsupport = Guard(name="support")\nalias = support\n',
        encoding="utf-8",
    )
    status, port = served_on_a_busy_port(config)
    assert status == 2
    assert f"--port {port}: cannot listen" in capsys.readouterr().err


def uvicorn_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, list[dict[str, Any]]]:
    """A config serving one guard, and the keyword arguments of each
    ``uvicorn.run`` call, recorded instead of run (what the command passes)."""
    import uvicorn

    config = tmp_path / "config.py"
    config.write_text('from guardrails import Guard\nsupport = Guard(name="support")\n', "utf-8")
    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: ran.append(kwargs))
    for name in ("CHUNKWISE_SERVE_CONFIG", "PORT"):  # (what the command sets for its workers)
        monkeypatch.delenv(name, raising=False)
    return config, ran


def test_timeout_keep_alive_reaches_uvicorn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: no such option; uvicorn's 5 s default closed idle connections that a
    # proxy or load balancer in front (often 60 s idle) still reused: 502s.
    config, ran = uvicorn_recorded(tmp_path, monkeypatch)
    for extra, seconds in (([], 5), (["--timeout-keep-alive", "90"], 90)):
        port = str(free_port())
        assert main(["serve", "--config", str(config), "--port", port, *extra]) == 0
        assert ran.pop()["timeout_keep_alive"] == seconds
    for bad in ("0", "-3", "soon", "1.5"):
        assert main(["serve", "--config", str(config), "--timeout-keep-alive", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'--timeout-keep-alive'" in err, err
    assert not ran


def test_port_0_serves_on_a_free_port_the_banner_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: uvicorn picked the port, while guardrails-api's banner (PORT) listed
    # every guard at http://localhost:0/guards/...
    config, ran = uvicorn_recorded(tmp_path, monkeypatch)
    assert main(["serve", "--config", str(config), "--port", "0"]) == 0
    port = ran.pop()["port"]
    assert 0 < port <= 65535 and os.environ["PORT"] == str(port)


def test_a_directory_or_a_busy_port_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--config", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().endswith(": not a file")
    config = tmp_path / "config.py"
    config.write_text("guards = []\n", encoding="utf-8")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--config", str(config), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--port {port}: cannot listen on 127.0.0.1:{port}" in err


def test_a_host_not_of_this_machine_is_blamed_on_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: "--port 8000: cannot listen on 192.0.2.1:8000", naming the wrong option.
    config = tmp_path / "config.py"
    config.write_text("guards = []\n", encoding="utf-8")
    # (192.0.2.1: TEST-NET-1, documentation only, never a local address)
    assert main(["serve", "--config", str(config), "--host", "192.0.2.1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--host 192.0.2.1: not an address of this machine" in err
    assert "--port" not in err


def test_serve_validated_without_the_server_extra_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['fastapi'] = None  # (as if guardrails-api were not installed)\n"
        "from guardrails_ai.chunkwise.server import serve_validated\n"
        "try:\n"
        "    serve_validated()\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    out = done.stdout.decode()
    assert "needs guardrails-api" in out and "[server]" in out, done.stderr.decode()


# -- the response layer's parts, in process -------------------------------------------------


async def _source(texts: list[str], pauses: list[bool], error: bool) -> AsyncIterator[str]:
    for text, pause in zip(texts, pauses, strict=False):
        if pause:
            await asyncio.sleep(0)
        yield text
    if error:
        raise ConnectionError("upstream went away")


@settings(max_examples=60)
@given(
    texts=st.lists(st.text(min_size=1, max_size=5), max_size=20),
    pauses=st.lists(st.booleans(), min_size=20, max_size=20),
    error=st.booleans(),
)
def test_coalesced_deltas_lose_and_reorder_nothing(
    texts: list[str], pauses: list[bool], error: bool
) -> None:
    received: list[str] = []

    async def consume() -> None:
        async for text in coalesced(_source(texts, pauses, error)):
            received.append(text)

    if error:
        with pytest.raises(ConnectionError):
            asyncio.run(consume())
    else:
        asyncio.run(consume())
    assert "".join(received) == "".join(texts)
    assert all(received) and len(received) <= len(texts)


def test_raw_llm_output_is_shown_only_when_opted_in() -> None:
    outcome = {"raw_llm_output": "secret", "validated_output": "ok", "validation_passed": True}
    assert "raw_llm_output" not in guardrails_field(outcome, [], raw=False)
    assert guardrails_field(outcome, [], raw=True)["raw_llm_output"] == "secret"


def test_tool_call_arguments_are_the_same_text_whole_and_streamed() -> None:
    # Before: a whole message gave its last tool call's arguments only, and a
    # message with content "" beside its tool calls gave nothing.
    from openai.types.chat import ChatCompletionMessage, ChatCompletionMessageToolCall
    from openai.types.chat.chat_completion_chunk import (
        ChoiceDelta,
        ChoiceDeltaToolCall,
        ChoiceDeltaToolCallFunction,
    )
    from openai.types.chat.chat_completion_message_tool_call import Function

    calls = [
        ChatCompletionMessageToolCall(
            id=f"call_{i}", type="function", function=Function(name="send", arguments=args)
        )
        for i, args in enumerate(['{"to": "a@example.com"}', '{"to": "b@example.com"}'])
    ]
    whole = ChatCompletionMessage(role="assistant", content="", tool_calls=calls)
    deltas = [
        ChoiceDelta(
            content="" if i == 0 else None,
            tool_calls=[
                ChoiceDeltaToolCall(
                    index=i // 2, function=ChoiceDeltaToolCallFunction(arguments=piece)
                )
            ],
        )
        for i, piece in enumerate(['{"to": ', '"a@example.com"}', '{"to": ', '"b@example.com"}'])
    ]
    joined = '{"to": "a@example.com"}{"to": "b@example.com"}'
    assert _text_of(whole) == joined == "".join(_text_of(delta) for delta in deltas)
    assert _text_of(ChatCompletionMessage(role="assistant", content="Hi")) == "Hi"
    # Text and tool calls together: the text first, as the stream sends it.
    both = ChatCompletionMessage(role="assistant", content="Let me look.", tool_calls=calls)
    streamed = [ChoiceDelta(content="Let me look."), *deltas]
    assert _text_of(both) == "Let me look." + joined
    assert _text_of(both) == "".join(_text_of(delta) for delta in streamed)


@pytest.mark.parametrize("streamed", [False, True])
def test_an_answer_holding_a_lone_surrogate_is_served(servers: Servers, streamed: bool) -> None:
    # Legal in JSON, so an upstream may answer it; UTF-8 cannot encode it (the
    # whole answer was HTTP 400 before).
    text = "Hi <lone-surrogate>. Mail jo@example.com now. Bye \u00e9"
    want = "Hi \ud83d. Mail <EMAIL> now. Bye \u00e9"
    if streamed:
        assert stream(servers.serve, "fix", text)[0] == want
    else:
        whole = client(servers.serve, "fix").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": text}]
        )
        assert whole.choices[0].message.content == want


# The served guard is rebuilt from to_dict: its default sentence chunker keeps
# a table row and a line-ending emoji whole and takes "'90s" for no quotation;
# it ends a sentence after a contraction ("isn't."), takes "'til" for no
# quotation, ends one after an answer letter ("is B.", "A or B.") and keeps a
# Chinese quotation whole, and a footnote reference or superscript closes its
# sentence; so "filter" drops only the failing row and sentences.
SERVED_SENTENCES = {
    "tables_emoji_90s": (
        "| a | Slower. |\n| b | FORBIDDEN. |\nEmail us! \U0001f60a\n"
        "We loved the '90s. Music was FORBIDDEN. Yes.",
        "| a | Slower. |\nEmail us! \U0001f60a\nWe loved the '90s. Yes.",
    ),
    "contraction_elision_letter_chinese": (
        "It isn't. Try FORBIDDEN. We stayed 'til dawn. It was FORBIDDEN. The answer is B. "
        "Paris is FORBIDDEN. 他说\uff1a\u201c我来。FORBIDDEN。\u201d然后走了。",
        "It isn't. We stayed 'til dawn. The answer is B. 然后走了。",
    ),
    "dutch_elision": (
        "Het is 's avonds koud. Het is FORBIDDEN. Hoe gaat 't? Goed. 's Avonds FORBIDDEN. Ja.",
        "Het is 's avonds koud. Hoe gaat 't? Goed. Ja.",
    ),
    "footnotes_superscripts_options": (
        "It holds.[^1] It is FORBIDDEN.[^2] Proven.\u00b9 Also FORBIDDEN.\u00b2 Pick A or B. "
        "B is FORBIDDEN. Done.",
        "It holds.[^1] Proven.\u00b9 Pick A or B. Done.",
    ),
    # Adverbs of other languages open sentences ("auto" reads every language's starters).
    "starters_of_other_languages": (
        "Das kostet 5 Mio. Deshalb FORBIDDEN. Siehe Kap. Dort FORBIDDEN. Gut. "
        "Стоит 5 млн. Однако FORBIDDEN. Да. Llega el 5 de oct. Luego FORBIDDEN. Sí.",
        "Das kostet 5 Mio. Siehe Kap. Gut. Стоит 5 млн. Да. Llega el 5 de oct. Sí.",
    ),
    # Markdown emphasis after a terminator closes its sentence.
    "markdown_emphasis": (
        "- **Check the cable.** It is FORBIDDEN.\n- *Keep it short.* Also FORBIDDEN. Done.",
        "- **Check the cable.** \n- *Keep it short.* Done.",
    ),
    # Emoji glued to a terminator close its sentence.
    "emoji_closing_a_sentence": (
        "Thanks!\U0001f642 It is FORBIDDEN. Done.\U0001f389 Next.",
        "Thanks!\U0001f642 Done.\U0001f389 Next.",
    ),
    # The file citations of OpenAI's assistants close a sentence as footnote
    # marks do; other scripts' terminators end one with no space after them.
    "citation_and_unspaced_terminators": (
        "Refunds take five days.\u30104:0\u2020source\u3011 It is FORBIDDEN. Done. "
        "\u12db\u122c \u12d8\u1290\u1260\u1362\u1290\u1308 FORBIDDEN \u1290\u12cd\u1362"
        "\u12f0\u1205\u1293 \u1290\u129d\u1362",
        "Refunds take five days.\u30104:0\u2020source\u3011 Done. "
        "\u12db\u122c \u12d8\u1290\u1260\u1362\u12f0\u1205\u1293 \u1290\u129d\u1362",
    ),
    # (A quotation never closed expires while the text ends in "'til".)
    "quotation_expiring_at_an_elision": (
        ("'Ay. Go FORBIDDEN. " + "Bee. " * (QUOTE_MAX // 5 - 5)).ljust(QUOTE_MAX - 1) + "'til",
        ("'Ay. " + "Bee. " * (QUOTE_MAX // 5 - 5)).ljust(QUOTE_MAX - 15) + "'til",
    ),
}


@pytest.mark.parametrize("case", SERVED_SENTENCES)
def test_the_servers_chunk_tables_emoji_and_apostrophes_as_sentences(
    servers: Servers, guards: dict[str, Any], case: str
) -> None:
    text, want = SERVED_SENTENCES[case]
    assert expected(guards["quoting_filter"], text).text == want
    for port in (servers.serve, servers.start):
        assert stream(port, "quoting_filter", text)[0] == want


def test_withheld_text_is_scrubbed_from_messages_unless_raw() -> None:
    value = "Call 555-0100 now, it is FORBIDDEN."
    span = ErrorSpan(start=25, end=34, reason="'FORBIDDEN' is banned; so is 'it'")
    failure = FailResult(error_message=f"Bad: {value} (is)", error_spans=[span])
    scrubbed = Verdicts()
    scrubbed.note("v", failure, value)
    (summary,) = scrubbed.take()
    assert summary["failure_reason"] == "Bad: <withheld> (is)"
    assert summary["error_spans"][0]["reason"] == "'<withheld>' is banned; so is 'it'"
    assert scrubbed.scrub(f"Validation failed: {value}") == "Validation failed: <withheld>"
    raw = Verdicts(raw=True)
    raw.note("v", failure, value)
    assert raw.take()[0]["failure_reason"] == failure.error_message


@pytest.mark.parametrize(
    "quote",
    [
        lambda value: repr(value),  # escaped: \' for '
        lambda value: repr(value[:40]) + "...",  # cut short
        lambda value: value.upper(),
    ],
)
def test_quotes_of_withheld_text_that_are_no_exact_copies_are_scrubbed(
    quote: Callable[[str], str],
) -> None:
    value = "Don't tell: my \"code\" is 7805-1120, it's forbidden."
    failure = FailResult(error_message=f"Value {quote(value)} is not allowed")
    verdicts = Verdicts()
    verdicts.note("v", failure, value)
    reason = verdicts.take()[0]["failure_reason"]
    assert "7805" not in reason and "tell" not in reason.lower(), reason
    assert reason.startswith("Value ") and reason.endswith(" is not allowed")


# -- every on_fail, streamed and not -----------------------------------------------------


@pytest.mark.parametrize("on_fail", ["noop", "fix", "filter", "refrain"])
def test_streamed_and_whole_release_validated_text(
    servers: Servers, guards: dict[str, Any], on_fail: str
) -> None:
    want = expected(guards[on_fail], TEXT)
    streamed, fields = stream(servers.serve, on_fail, TEXT)
    whole = client(servers.serve, on_fail).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": TEXT}]
    )
    extra = whole.model_extra or {}
    assert streamed == want.text
    assert whole.choices[0].message.content == want.text
    assert fields[-1]["validation_passed"] is want.passed
    assert extra["guardrails"]["validation_passed"] is want.passed
    assert summaries(fields) == extra["guardrails"]["validation_summaries"]
    assert summaries(fields), "RedactPII fails on this text in every mode"
    assert all("raw_llm_output" not in field for field in [*fields, extra["guardrails"]])
    if on_fail != "noop":  # noop releases the failing text, as documented
        assert not any(pii in streamed for pii in PII)
    else:  # the trailing fragment was validated too: both e-mail addresses are reported
        reasons = [summary["failure_reason"] for summary in summaries(fields)]
        assert reasons.count("Text contains personal data: e-mail address") == 2


def test_error_spans_are_offsets_in_the_text_each_validator_validated(servers: Servers) -> None:
    # They were offsets in the failing chunk: two addresses got the same span.
    redacted = TEXT
    for pii, placeholder in zip(PII, ["<EMAIL>", "<CARD>", "<EMAIL>"], strict=True):
        redacted = redacted.replace(pii, placeholder)
    spans = [(TEXT.index(pii), TEXT.index(pii) + len(pii)) for pii in PII]
    spans.append((redacted.index("Free money"), redacted.index("Free money") + len("Free money")))
    for port in (servers.serve, servers.start):
        whole = client(port, "fix").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": TEXT}]
        )
        served = (whole.model_extra or {})["guardrails"]["validation_summaries"]
        for found in (served, summaries(stream(port, "fix", TEXT)[1])):
            placed = [(e["start"], e["end"]) for summary in found for e in summary["error_spans"]]
            assert sorted(placed) == sorted(spans)


def test_each_event_verdict_depends_on_the_text_released_alone(
    servers: Servers, guards: dict[str, Any]
) -> None:
    # Served, an event's validation_passed counts the failures in the text
    # released so far, as in process, whatever the upstream's slicing: the
    # verdicts at each released length agree with 1-character deltas.  (With
    # fix and filter every outcome passes: Guardrails counts a fixed or
    # filtered failure as passed.)
    on_fail = "noop"
    guard = guards[on_fail]
    reference = verdicts_by_release(list(guarded_stream(guard, llm(list(TEXT)), messages=MESSAGES)))
    assert True in reference.values() and False in reference.values()
    for _ in range(3):  # the upstream slices each answer anew
        received = events(servers.serve, on_fail, TEXT)
        outcomes = [
            SimpleNamespace(validated_output=content, validation_passed=field["validation_passed"])
            for content, field in received
        ]
        verdicts = verdicts_by_release(outcomes)
        shared = verdicts.keys() & reference.keys()
        assert shared and {k: verdicts[k] for k in shared} == {k: reference[k] for k in shared}
        assert received[-1][1]["validation_passed"] is expected(guard, TEXT).passed


#: Dialogue: a quotation holding sentence ends (one chunk for the sentence
#: chunker's quotation layer) and a banned phrase, then personal data.
DIALOGUE = (
    'She said "Wait. This is free money. Take it!" and left. Mail john@example.com now. "Ok." Bye'
)


@pytest.mark.parametrize("on_fail", ["fix", "filter"])
def test_quoted_dialogue_is_released_as_in_process(
    servers: Servers, guards: dict[str, Any], on_fail: str
) -> None:
    # The server rebuilds each guard from its config and streams the
    # upstream's 1-7 character deltas through the quotation layer.
    assert SentenceChunker().split_text(DIALOGUE)[0] == (
        'She said "Wait. This is free money. Take it!" and left.'
    )
    want = expected(guards[on_fail], DIALOGUE)
    streamed, fields = stream(servers.serve, on_fail, DIALOGUE)
    assert streamed == want.text
    assert fields[-1]["validation_passed"] is want.passed
    assert "free money" not in streamed and "john@example.com" not in streamed
    assert '"Wait. This is' in streamed  # (the quotation itself is released)


#: Texts through which RedactPII leaked (fixed in process): a label of several
#: words near a window's ceiling, superscript and full-width digits right after
#: a period, a full-width label in a run with no sentence end; the guard and the
#: pieces of the entity that must never reach a client.
FULL_WIDTH_PHONE = (
    "\uff11\uff13\uff18 \uff10\uff10\uff11\uff13 \uff18\uff10\uff10\uff10"  # 138 0013 8000
)
LEAKED = {
    "label_of_words": (
        "fix",
        ("word " * 300)[:990] + " Phone (home office): 612 345 678 and more words. Bye.",
        ["612 345 678"],
    ),
    "label_of_words_400": (
        "pii_window",
        ("word " * 80)[:380] + " Phone (home office): 612 345 678 and more words. Bye.",
        ["612 345 678"],
    ),
    "superscript_card": (
        "fix",
        "Call us today.\u2074\u00b9\u00b9\u00b9" + " \u00b9\u00b9\u00b9\u00b9" * 3 + ", or later.",
        ["\u00b9\u00b9\u00b9\u00b9"],
    ),
    "full_width_digits": (
        "fix",
        "Call us today." + FULL_WIDTH_PHONE + ", or later.",
        FULL_WIDTH_PHONE.split(),
    ),
    "full_width_label": (
        "fix",
        "," * 755 + "\u96fb\u8a71\uff1a2147483647" + "," * 300,
        ["2147483647"],
    ),
}
#: The upstream's slicings: one character per delta (seed 0), two random ones.
SEEDS = [0, 1, 2]


@pytest.mark.parametrize("case", LEAKED)
def test_pii_leaks_fixed_in_process_stay_fixed_when_served(
    servers: Servers, guards: dict[str, Any], case: str
) -> None:
    # Each text leaked part of its entity before (the chunker cut inside it);
    # served, the guard is rebuilt from to_dict and streamed through an
    # AsyncGuard in the upstream's slicings: the same text as in process.
    name, text, pieces = LEAKED[case]
    want = guards[name].validate(text).validated_output
    assert not any(piece in want for piece in pieces)
    assert expected(guards[name], text).text == want
    stats = f"http://127.0.0.1:{servers.upstream}/stats"
    httpx.get(stats)  # (resets the counters)
    streamed = streamed_in_every_slicing(servers, name, text, want)
    assert httpx.get(stats).json()["deltas"] == sum(len(deltas(text, seed)) for seed in SEEDS)
    whole = answered_whole(servers, name, text)
    assert whole["choices"][0]["message"]["content"] == want
    shown = json.dumps([whole, *streamed], ensure_ascii=False)  # (summaries included)
    assert not any(piece in shown for piece in pieces)


def streamed_in_every_slicing(servers: Servers, name: str, text: str, want: str) -> list[Any]:
    """The events of ``text`` streamed through the served guard ``name`` in
    each upstream slicing of ``SEEDS`` (at once: cheaper), each stream checked
    to release ``want``; every event's JSON, for what no event may show."""
    with ThreadPoolExecutor(len(SEEDS)) as pool:
        answers = list(
            pool.map(lambda seed: raw_events(servers.serve, name, text, seed=seed), SEEDS)
        )
    received: list[Any] = []
    for status, events in answers:
        assert status == 200 and events[-1] == "[DONE]"
        payloads = [json.loads(event) for event in events[:-1]]
        assert "".join(p["choices"][0]["delta"]["content"] for p in payloads) == want
        received += payloads
    return received


def answered_whole(servers: Servers, name: str, text: str) -> Any:
    """The served guard ``name``'s answer to ``text``, not streamed."""
    return httpx.post(
        f"http://127.0.0.1:{servers.serve}/guards/{name}/openai/v1/chat/completions",
        json={"model": MODEL, "messages": [{"role": "user", "content": text}]},
        timeout=60,
    ).json()


#: A sentence end and a bare CR before a lowercase word: one chunk for
#: Guardrails' splitter, which reads the word.  Two entities whose dot is an
#: ideographic full stop, where the sentence chunker ends a sentence.
BARE_CR = "Call now.\rcall me. Go on.\rcall us. Do it.\rcall them. Bye."
DOTTED = "Hi. Call +44 20\u30027946 0958 now. Bye. Mail jo@mail.example\u3002co\u3002uk today. End."
DOTTED_PIECES = ["7946 0958", "+44 20", "jo@mail", "example\u3002co", "co\u3002uk"]


@pytest.mark.parametrize(
    ("name", "text", "want", "pieces"),
    [
        ("shout_fix", BARE_CR, BARE_CR.upper()[:-4] + "Bye.", []),
        ("shout_filter", BARE_CR, "Bye.", []),
        ("fix", DOTTED, "Hi. Call <PHONE> now. Bye. Mail <EMAIL> today. End.", DOTTED_PIECES),
        ("filter", DOTTED, "Hi. Bye. End.", DOTTED_PIECES),
    ],
)
def test_cuts_that_wait_for_more_text_are_served_as_in_process(
    servers: Servers, guards: dict[str, Any], name: str, text: str, want: str, pieces: list[str]
) -> None:
    # In 1-character deltas, the cut after "now." was taken as soon as "c"
    # followed the "\r" (a37e072), and "Call +44 20\u3002" was released
    # before "7946 0958" came (29c2154); served, the guard is rebuilt from
    # to_dict and streams through an AsyncGuard: the in-process text in every
    # slicing, whole, and no piece of an entity in any event.
    assert expected(guards[name], text).text == want
    streamed = streamed_in_every_slicing(servers, name, text, want)
    whole = answered_whole(servers, name, text)
    assert whole["choices"][0]["message"]["content"] == want
    shown = json.dumps([whole, *streamed], ensure_ascii=False)  # (summaries included)
    assert not any(piece in shown for piece in pieces)


#: A banned phrase written across a line break that ends a sentence.
ACROSS_LINES = "Offers:\nGet FREE\n  MONEY now.\nMail john@example.com today."


LABELLED = "Cell. 612 345 678 is mine. Fone. (11) 2345-6789 works too."


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (ACROSS_LINES, "Offers:\nGet ****\n  ***** now.\nMail <EMAIL> today."),
        (LABELLED, "Cell. <PHONE> is mine. Fone. <PHONE> works too."),
    ],
)
def test_chunks_joined_by_a_validator_are_joined_when_served(
    servers: Servers, guards: dict[str, Any], text: str, shown: str
) -> None:
    # The server rebuilds the guard from its config (to_dict) and streams
    # through an AsyncGuard: BannedPhrases joins the two sentences a phrase
    # runs across, and RedactPII a label with its number ("Cell." ends a
    # sentence), there too.
    want = expected(guards["fix"], text)
    streamed, _ = stream(servers.serve, "fix", text)
    whole = client(servers.serve, "fix").chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": text}]
    )
    assert streamed == whole.choices[0].message.content == want.text == shown


#: Each of the four validators fails once, CR LF line ends, a trailing fragment.
FOUR = (
    "Hello there.\r\nSay it twice. Say it twice. Mail me at jo@example.com now. "
    + "Words " * 24
    + "end.\r\nFree money here. Caf\u00e9 \U0001f600 bye"
)


@pytest.mark.parametrize("on_fail", ON_FAIL)
def test_four_validators_are_served_as_in_process(
    servers: Servers, guards: dict[str, Any], on_fail: str
) -> None:
    # RedactPII, BannedPhrases, NoRepetition and MaxChunkLength run as a
    # pipeline in the guard the server rebuilds from to_dict: streamed in
    # 1-character deltas and whole, the text and verdict are the in-process ones.
    name = f"four_{on_fail}"
    want = expected(guards[name], FOUR)
    status, events = raw_events(servers.serve, name, FOUR, seed=0)
    payloads = [json.loads(event) for event in events[:-1]]
    chunks = [p for p in payloads if "error" not in p]
    streamed = "".join(p["choices"][0]["delta"]["content"] for p in chunks)
    whole = httpx.post(
        f"http://127.0.0.1:{servers.serve}/guards/{name}/openai/v1/chat/completions",
        json={"model": MODEL, "messages": [{"role": "user", "content": FOUR}]},
        timeout=60,
    )
    assert status == 200 and events[-1] == "[DONE]"
    if want.failed:
        assert "error" in payloads[-1] and want.text.startswith(streamed)
        assert whole.status_code == 400
    else:
        assert streamed == whole.json()["choices"][0]["message"]["content"] == want.text
        assert chunks[-1]["guardrails"]["validation_passed"] is want.passed
        assert whole.json()["guardrails"]["validation_passed"] is want.passed
    if on_fail in ("fix", "filter"):
        names = {s["validator_name"] for s in summaries([p["guardrails"] for p in chunks])}
        assert len(names) == 4
    if on_fail != "noop":
        assert "jo@example.com" not in json.dumps([payloads, whole.json()])


#: A banned phrase, then an e-mail address: RedactPII (first) validates the
#: address before BannedPhrases stops the pipeline on the phrase, or not, by slicing.
STOPPED = "Free money here. Mail me at jo@example.com now. Bye."


@pytest.mark.parametrize("on_fail", ["refrain", "exception"])
def test_summaries_after_a_stop_are_those_of_the_history(
    servers: Servers, guards: dict[str, Any], on_fail: str
) -> None:
    # Before: the summaries also reported RedactPII's failure on the address
    # after the phrase (whole always, streamed by slicing), which the pipeline
    # forgets after the stop: the history holds BannedPhrases' failure alone.
    name = f"four_{on_fail}"
    expected(guards[name], STOPPED)
    logs = guards[name].history.last.iterations.last.outputs.validator_logs
    want = [log.registered_name for log in logs if log.validation_result.outcome == "fail"]
    assert want == ["chunkwise/banned_phrases"]
    _, events = raw_events(servers.serve, name, STOPPED, seed=0)
    fields = [json.loads(event).get("guardrails") or {} for event in events[:-1]]
    whole = answered_whole(servers, name, STOPPED)
    names = [s["validator_name"] for s in summaries([whole["guardrails"]])]
    assert [s["validator_name"] for s in summaries(fields)] == names == want


def test_filtering_a_line_joins_no_phrase_when_served(
    servers: Servers, guards: dict[str, Any]
) -> None:
    # The validator's per-stream memory of what it released works in the
    # AsyncGuard the server rebuilds from its config, streamed and whole.
    text = "Get\nthe secret sauce here\nFREE stuff\nok"
    want = expected(guards["phrases_filter"], text)
    streamed, _ = stream(servers.serve, "phrases_filter", text)
    assert streamed == want.text == "Get\nok"


def test_exception_ends_the_stream_with_one_error_event(
    servers: Servers, guards: dict[str, Any]
) -> None:
    """HTTP 200, text released before the failure, ONE error event, ``[DONE]``."""
    assert expected(guards["exception"], TEXT).failed
    status, events = raw_events(servers.serve, "exception", TEXT)
    assert status == 200
    assert events[-1] == "[DONE]"
    payloads = [json.loads(event) for event in events[:-1]]
    errors = [p for p in payloads if "error" in p]
    assert len(errors) == 1 and payloads[-1] is errors[0]
    assert errors[0]["error"]["code"] == "validation_failed"
    released = "".join(p["choices"][0]["delta"]["content"] for p in payloads[:-1])
    assert released in OK_BEFORE_FAILURE  # what precedes the e-mail address, or less
    assert not any(pii in event for event in events for pii in PII)


def test_the_error_event_reports_the_failure_that_raised(servers: Servers) -> None:
    # Before: the pipeline may release the text before the failure after
    # finding it, and that chunk event (validation_passed true) took the
    # failure's summary: the error event said validation_summaries [].
    for guard in ("exception", "quoting_exception"):
        text = TEXT if guard == "exception" else "Hello there. This is FORBIDDEN text. Bye"
        status, events = raw_events(servers.serve, guard, text)
        payloads = [json.loads(event) for event in events[:-1]]
        error, chunks = payloads[-1], payloads[:-1]
        assert status == 200 and "error" in error
        assert summaries([p["guardrails"] for p in chunks]) == []
        whole = httpx.post(
            f"http://127.0.0.1:{servers.serve}/guards/{guard}/openai/v1/chat/completions",
            json={"model": MODEL, "messages": [{"role": "user", "content": text}]},
            timeout=60,
        )
        assert whole.status_code == 400
        names = [s["validator_name"] for s in error["guardrails"]["validation_summaries"]]
        assert names and names == [
            s["validator_name"] for s in whole.json()["guardrails"]["validation_summaries"]
        ]


def test_exception_through_the_openai_client(servers: Servers) -> None:
    received = []
    with pytest.raises(openai.APIError, match="Validation failed"):
        events = client(servers.serve, "exception").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": TEXT}], stream=True
        )
        for event in events:
            received.append(event.choices[0].delta.content or "")
    assert "".join(received) in OK_BEFORE_FAILURE
    with pytest.raises(openai.BadRequestError) as raised:
        client(servers.serve, "exception").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": TEXT}]
        )
    assert not any(pii in raised.value.response.text for pii in PII)


def test_only_the_first_choice_validated_reaches_a_client(
    servers: Servers, guards: dict[str, Any]
) -> None:
    # Before: a whole answer kept the upstream's logprobs (its raw tokens:
    # the e-mail address in clear), and with n=2 a stream interleaved both
    # choices' text, so no validator saw the address whole.
    want = expected(guards["fix"], TEXT).text
    ask = {"model": MODEL, "messages": [{"role": "user", "content": TEXT}], "n": 2}
    whole = client(servers.serve, "fix").chat.completions.create(**ask, logprobs=True)
    assert [c.message.content for c in whole.choices] == [want]
    assert whole.choices[0].logprobs is None
    assert not any(pii in whole.model_dump_json() for pii in PII)
    streamed = client(servers.serve, "fix").chat.completions.create(
        **ask, logprobs=True, stream=True
    )
    events = list(streamed)
    assert "".join(e.choices[0].delta.content or "" for e in events if e.choices) == want
    assert not any(pii in e.model_dump_json() for e in events for pii in PII)


#: A sentence a validator fails whose message quotes it, between two that pass.
QUOTED = "Hello there. My pin is 9999 FORBIDDEN ok. Bye."


def test_failure_messages_never_quote_withheld_text(servers: Servers) -> None:
    # Before: the filtered sentence reached the client in the summaries'
    # failure reason and error span reason, and in the exception's message.
    streamed, fields = stream(servers.serve, "quoting_filter", QUOTED)
    assert streamed == "Hello there. Bye."
    found = summaries(fields)
    assert [f["failure_reason"] for f in found] == ["The following sentence is bad: <withheld>"]
    assert found[0]["error_spans"][0]["reason"] == "'<withheld>' in '<withheld>'"
    status, events = raw_events(servers.serve, "quoting_exception", QUOTED)
    assert status == 200
    whole = client(servers.serve, "quoting_exception")
    with pytest.raises(openai.BadRequestError) as raised:
        whole.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": QUOTED}])
    for answer in [*events, raised.value.response.text]:
        # (" 9999": the upstream's random ids may hold "9999")
        assert " 9999" not in answer and "FORBIDDEN" not in answer
    assert "<withheld>" in events[-2]
    # Opted in to raw text, the messages are the validator's own.
    _, fields = stream(servers.start, "quoting_filter", QUOTED)
    assert "9999 FORBIDDEN" in summaries(fields)[0]["failure_reason"]


@pytest.mark.parametrize(
    ("port", "name", "reason"),
    # A callable on_fail is lost in to_dict(), which each request's guard is rebuilt from.
    # A field's validator too (before: HTTP 502 "guard_failed" for structured_reask).
    # A guard that cannot be rebuilt at all: chunkwise serve refuses it at start-up
    # (test_a_guard_that_cannot_be_rebuilt_is_a_one_line_error), guardrails start serves
    # its config (before: HTTP 500 "Internal Server Error" and a traceback per request).
    [
        ("serve", "reask", "on_fail='reask'"),
        ("serve", "handled", "on_fail='custom' without its callable"),
        ("serve", "structured_reask", "on_fail='reask'"),
        ("start", "unbuildable", "rebuilding it from Guard.to_dict() raised TypeError"),
    ],
)
@pytest.mark.parametrize("streamed", [False, True])
def test_a_guard_the_route_cannot_serve_is_a_clear_error(
    servers: Servers, streamed: bool, port: str, name: str, reason: str
) -> None:
    # Before: 502 "the guarded completion failed: ValueError", nothing in the log
    # (reask); a stream stopped at the first failure as if on_fail were exception (custom).
    with pytest.raises(openai.BadRequestError, match=re.escape(reason)) as raised:
        client(getattr(servers, port), name).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": TEXT}], stream=streamed
        )
    assert f"guard '{name}' cannot be served" in raised.value.response.text
    log = servers.logs[["serve", "workers", "start"].index(port)]
    assert f"guard '{name}' cannot be served" in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("streamed", [False, True])
def test_a_structured_output_is_served_as_json_text(servers: Servers, streamed: bool) -> None:
    # Before: not streamed, an HTTP 500 and a traceback in the server log
    # (the outputs, dicts, were joined as text); streamed, delta.content was
    # a JSON object, which no OpenAI client takes for content.
    ask = {
        "model": MODEL,
        "messages": [{"role": "user", "content": '{"answer": "mail jane@example.org now"}'}],
    }
    if streamed:
        events = client(servers.serve, "structured").chat.completions.create(**ask, stream=True)
        contents = [event.choices[0].delta.content for event in events]
        assert all(isinstance(content, str) for content in contents)
        content = "".join(contents)
    else:
        whole = client(servers.serve, "structured").chat.completions.create(**ask)
        content = whole.choices[0].message.content or ""
        field = (whole.model_extra or {})["guardrails"]
        assert field["validated_output"] == {"answer": "mail <EMAIL> now"}
        assert [s["property_path"] for s in field["validation_summaries"]] == ["$.answer"]
    assert json.loads(content) == {"answer": "mail <EMAIL> now"}


def test_all_pass_is_lossless(servers: Servers) -> None:
    text = "Line one.\n\n  Line two has  spaces.\r\nAnd no terminator"
    streamed, fields = stream(servers.serve, "exception", text)
    assert streamed == text
    assert fields[-1]["validation_passed"] is True and not summaries(fields)


@pytest.mark.parametrize("port", ["serve", "start"])
def test_a_stream_reports_its_usage_when_asked(servers: Servers, port: str) -> None:
    # Before: the upstream's usage chunk (no choice) was dropped: clients that
    # count tokens (stream_options.include_usage) got none.
    text = "Usage is counted. The answer stays whole"
    answer = client(getattr(servers, port), "fix").chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": text}],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(answer)
    assert "".join(c.choices[0].delta.content or "" for c in chunks[:-1]) == text
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-1].usage.model_dump(exclude_none=True) == USAGE
    assert all(c.usage is None for c in chunks[:-1])
    unasked = client(servers.serve, "fix").chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": text}], stream=True
    )
    assert all(c.choices and c.usage is None for c in unasked)


#: Request bodies that do not fit, and the field each answer names.
MALFORMED = [
    (b'{"model": "m", "messages": [', None),  # no JSON
    (b'["a list"]', None),
    (b'{"messages": [{"role": "user", "content": "Card 4111 1111 1111 1111"}]}', "model"),
    (b'{"model": "m", "messages": "Card 4111 1111 1111 1111"}', "messages"),
    (b'{"model": "m", "messages": [{"role": "x", "content": "Card 4111 1111 1111 1111"}]}',
     "messages.0"),
    (b'{"model": "m", "temperature": "Card 4111", "messages": [{"role": "user", "content": "hi"}]}',
     "temperature"),
    # A mapping's keys are the client's own text (they were quoted).
    (b'{"model": "m", "logit_bias": {"card 4111 1111 1111 1111": "x"}, "messages": []}',
     "logit_bias.<key>"),
    (b'{"model": "m", "metadata": {"card 4111 1111 1111 1111": 5}, "messages": []}',
     "metadata.<key>"),
    # Content parts are checked as they are read: pydantic's own message (a
    # 400 {"message": ...}) quoted the part, text included.
    (b'{"model": "m", "messages": [{"role": "user", "content": '
     b'[{"type": "txt", "text": "Card 4111 1111 1111 1111"}]}]}', "messages.0.content.0"),
    (b'{"model": "m", "messages": [{"role": "user", "content": ["Card 4111 1111 1111 1111"]}]}',
     "messages.0.content.0"),
    (b'{"model": "m", "messages": [{"role": "user", "content": '
     b'[{"type": "text", "text": "Card 4111 1111 1111 1111"}, {"type": "text"}]}]}',
     "messages.0.content.1"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "param"), MALFORMED)
@pytest.mark.parametrize("port", ["serve", "start"])
def test_a_malformed_request_gets_an_openai_error(
    servers: Servers, port: str, body: bytes, param: str | None
) -> None:
    # Before: FastAPI's 422 {"detail": [...]}, quoting the input (the card).
    url = f"http://127.0.0.1:{getattr(servers, port)}/guards/fix/openai/v1/chat/completions"
    answer = httpx.post(url, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["type"] == "invalid_request_error" and error["param"] == param
    assert "4111" not in answer.text and error["message"].startswith(
        ("invalid request body: ", "the request body is not valid JSON")
    )


@pytest.mark.parametrize("port", ["serve", "start"])
def test_a_client_that_hangs_up_before_its_body_leaves_no_traceback(
    servers: Servers, port: str
) -> None:
    # Before: starlette's ClientDisconnect, "Exception in ASGI application" and
    # a traceback in the server log (the route reads the body itself).
    number = getattr(servers, port)
    log = servers.logs[["serve", "workers", "start"].index(port)]
    head = b"POST /guards/fix/openai/v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
    body = b'{"model": "m", "messages": [{"role": "user", "content": "Card 4111'
    with socket.create_connection(("127.0.0.1", number)) as hanging:
        hanging.sendall(head + b"Content-Length: 500\r\n\r\n" + body)
        # (the server is reading the body when a request after it is answered)
        assert stream(number, "fix", "Still served.")[0] == "Still served."
    # (one worker: the hang-up is handled before the request after it is answered)
    assert stream(number, "fix", "Served again.")[0] == "Served again."
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "ClientDisconnect" not in text and "4111" not in text


@pytest.mark.parametrize("streamed", [False, True])
def test_content_given_as_text_parts_is_served(servers: Servers, streamed: bool) -> None:
    # Before: Guardrails refused content parts (it takes strings) and the
    # client got a 502; many OpenAI clients send parts even for plain text.
    parts = [
        {"type": "text", "text": "Mail me at"},
        {"type": "text", "text": "jo@example.com now."},
    ]
    answer = client(servers.serve, "fix").chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": parts}], stream=streamed
    )
    if streamed:
        text = "".join(chunk.choices[0].delta.content or "" for chunk in answer)
    else:
        text = answer.choices[0].message.content or ""
    assert text == "Mail me at\n<EMAIL> now."


def test_null_optional_parameters_are_taken_as_not_given(servers: Servers) -> None:
    # Before: "tools": null, "user": null... got a 400 (FastAPI's 422 before
    # that); clients that write every parameter send them.
    body = {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Mail jo@example.com now."}],
        **dict.fromkeys(["tools", "tool_choice", "user", "response_format", "stop"]),
    }
    url = f"http://127.0.0.1:{servers.serve}/guards/fix/openai/v1/chat/completions"
    answer = httpx.post(url, json=body, timeout=60)
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["message"]["content"] == "Mail <EMAIL> now."


def test_content_parts_other_than_text_are_a_client_error(servers: Servers) -> None:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/jo.png"}}
    with pytest.raises(openai.BadRequestError) as raised:
        client(servers.serve, "fix").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": [image]}]
        )
    error = raised.value.response.json()["error"]
    assert error["param"] == "messages.0.content" and "image_url" in error["message"]
    assert "example.com" not in raised.value.response.text


@pytest.mark.parametrize("streamed", [False, True])
def test_no_messages_is_a_client_error(servers: Servers, streamed: bool) -> None:
    # Before: 502, the guard failing with a RuntimeError.
    with pytest.raises(openai.BadRequestError, match="messages is required"):
        client(servers.serve, "fix").chat.completions.create(
            model=MODEL, messages=[], stream=streamed
        )


def test_unknown_guard_is_an_openai_error(servers: Servers) -> None:
    with pytest.raises(openai.NotFoundError, match="no guard named"):
        client(servers.serve, "nope").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}]
        )


@pytest.mark.parametrize("streamed", [False, True])
def test_an_upstream_refusal_names_its_error_and_status(servers: Servers, streamed: bool) -> None:
    # Before: "the guarded completion failed: PromptCallableException" (Guardrails
    # wraps the error of the LLM call): a bad key, a rate limit or an unknown
    # model all read the same, to the client and in the server log.
    text = "Mail jo@example.com now. <status-401>"
    if streamed:
        status, events = raw_events(servers.serve, "fix", text)
        assert status == 200 and events[-1] == "[DONE]"
        answer = events[-2]
    else:
        url = f"http://127.0.0.1:{servers.serve}/guards/fix/openai/v1/chat/completions"
        body = {"model": MODEL, "messages": [{"role": "user", "content": text}]}
        reply = httpx.post(url, json=body, timeout=60)
        assert reply.status_code == 502
        answer = reply.text
    error = json.loads(answer)["error"]
    assert error["code"] == "guard_failed"
    assert error["message"] == (
        "the guarded completion failed: AuthenticationError (upstream status 401)"
    )
    assert "jo@example.com" not in answer
    log = servers.logs[0].read_text(encoding="utf-8")
    assert "completion failed: AuthenticationError (upstream status 401)" in log


def test_validate_route_keeps_raw_text_from_clients(servers: Servers) -> None:
    """guardrails-api's own ``/validate`` (the LLM called by the server) loses ``rawLlmOutput``."""
    body = {"model": MODEL, "messages": [{"role": "user", "content": TEXT}]}
    answers = {
        port: httpx.post(f"http://127.0.0.1:{port}/guards/plain/validate", json=body, timeout=60)
        for port in (servers.serve, servers.start)
    }
    assert answers[servers.serve].status_code == 200
    assert answers[servers.serve].json().get("rawLlmOutput") is None
    assert not any(pii in answers[servers.serve].text for pii in PII)
    assert answers[servers.start].json()["rawLlmOutput"] == TEXT  # opted in


# -- concurrency and workers ---------------------------------------------------------------


def _text(i: int) -> str:
    return f"Stream {i} says hello. Mail {i} at user{i}@example.com now. Bye {i}"


def test_32_concurrent_streams_overlap_and_never_mix(servers: Servers) -> None:
    httpx.get(f"http://127.0.0.1:{servers.upstream}/stats")  # reset the counters
    with ThreadPoolExecutor(32) as pool:
        results = list(pool.map(lambda i: stream(servers.serve, "fix", _text(i))[0], range(32)))
    assert results == [_text(i).replace(f"user{i}@example.com", "<EMAIL>") for i in range(32)]
    stats = httpx.get(f"http://127.0.0.1:{servers.upstream}/stats").json()
    assert stats["streams"] == 32
    # One worker had several upstream streams open at once (a server that
    # streams inside its event loop, as guardrails-api 0.4.4 does, has one).
    assert stats["max_in_flight"] >= 4


def test_workers_2_runs_two_processes(servers: Servers) -> None:
    assert len(worker_pids(servers.workers_pid)) == 2
    assert len(worker_pids(servers.serve_pid)) <= 1
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: stream(servers.workers, "fix", _text(i))[0], range(8)))
    assert results == [_text(i).replace(f"user{i}@example.com", "<EMAIL>") for i in range(8)]


# -- guardrails start with serve_validated() in its config -----------------------------------


def test_guardrails_start_with_serve_validated(servers: Servers, guards: dict[str, Any]) -> None:
    want = expected(guards["fix"], TEXT)
    streamed, fields = stream(servers.start, "fix", TEXT)
    assert streamed == want.text
    # this config opted in: raw text is in the guardrails field, never in delta.content
    assert "".join(field.get("raw_llm_output") or "" for field in fields) == TEXT
    status, events = raw_events(servers.start, "exception", TEXT)
    assert status == 200 and events[-1] == "[DONE]" and "error" in json.loads(events[-2])


# -- guardrails-api's own endpoint (no serve_validated()), as the README describes it -------

#: The config as is, streaming validated by chunkwise in process, and a guard that raises,
#: found by id (guardrails-api finds a guard by id only).
PLAIN = (
    CONFIG
    + """
from guardrails_ai.chunkwise import enable_validated_streaming

enable_validated_streaming()
raising = Guard(id="raising", name="raising").use(RedactPII(on_fail="exception"))
"""
)


@pytest.fixture(scope="module")
def plain_start(
    servers: Servers, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, Path]]:
    """``guardrails start --config`` with :data:`PLAIN`: its port and its log."""
    folder = tmp_path_factory.mktemp("plain")
    (folder / "config.py").write_text(PLAIN, encoding="utf-8")
    port, log = free_port(), folder / "server.log"
    command = [str(Path(sys.executable).with_name("guardrails")), "start"]
    command += ["--config", "config.py", "--port", str(port)]
    proc = start_server(command, port, server_env(servers.upstream), folder, log.open("wb"))
    try:
        yield port, log
    finally:
        stop(proc)


def test_without_serve_validated_guardrails_api_sends_raw_text(
    plain_start: tuple[int, Path], guards: dict[str, Any]
) -> None:
    # What the README says of guardrails-api 0.4.4's own endpoint, which no
    # chunkwise validator nor enable_validated_streaming() changes.
    port, log = plain_start
    ask = {"model": MODEL, "messages": [{"role": "user", "content": TEXT}]}
    with pytest.raises(openai.NotFoundError):  # by id only; "fix" is a name
        client(port, "fix").chat.completions.create(**ask)
    want = expected(guards["plain"], TEXT).text
    assert not any(pii in want for pii in PII)
    whole = client(port, "plain").chat.completions.create(**ask)
    assert whole.choices[0].message.content == TEXT  # raw, the PII in clear
    assert (whole.model_extra or {})["guardrails"]["validated_output"] == want
    received = events(port, "plain", TEXT)
    contents = [content for content, _ in received]
    assert all(content in TEXT for content in contents) and "".join(contents) != want
    assert "".join(field["validated_output"] or "" for _, field in received) == want
    assert "".join(field["raw_llm_output"] or "" for _, field in received) == TEXT
    with pytest.raises(httpx.RemoteProtocolError):  # cut off: no error event, no [DONE]
        raw_events(port, "raising", TEXT)
    assert "Traceback" in log.read_text(encoding="utf-8", errors="replace")


def test_no_server_printed_a_traceback(servers: Servers) -> None:
    """Runs last: every request above, failures included, left no traceback in the logs."""
    for log in servers.logs:
        text = log.read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in text, f"{log.name}:\n{text[-3000:]}"
        assert "Exception in ASGI application" not in text
        assert not any(pii in text for pii in PII), log.name
