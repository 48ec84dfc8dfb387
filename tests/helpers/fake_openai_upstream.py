"""A local OpenAI-compatible upstream for the server tests and benchmarks (stdlib only).

``python tests/helpers/fake_openai_upstream.py [--delay-ms 5]`` binds 127.0.0.1 on a free
port, prints ``PORT <n>`` on stdout once it accepts connections, and answers
``POST /v1/chat/completions`` by echoing the last user message back:

* ``"stream": true``: server-sent events, one ``chat.completion.chunk`` per delta
  of 1-7 characters (the slicing is seeded by the text, so it is repeatable; a
  request's ``"seed": k`` draws another slicing of the same text, and ``"seed": 0``
  sends one character per delta),
  ``--delay-ms`` between deltas, a last chunk with ``finish_reason: "stop"``
  and ``data: [DONE]``; with ``"stream_options": {"include_usage": true}``,
  every chunk has ``"usage": null`` and a chunk with no choice and the usage
  (:data:`USAGE`) comes before ``[DONE]``, as OpenAI streams it;
* otherwise one ``chat.completion`` holding the whole text.

With ``"n": k``, choice ``i > 0`` answers the text reversed (streamed, the chunks
of the choices alternate, one choice each, as OpenAI streams them); with
``"logprobs": true``, each choice carries its words as ``logprobs`` tokens.

The text ``<lone-surrogate>`` is answered as U+D83D alone; a text holding
``<status-NNN>`` (a 4xx or 5xx status) is answered with that HTTP status and an
OpenAI-shaped error, as a provider refuses a request (``<status-401>``: a bad key).

``GET /stats`` answers ``{"streams": n, "max_in_flight": m, "deltas": d}``: how
many streams were served, the most that were in flight at once and how many
deltas were sent since the previous ``GET /stats`` (which resets them).  Tests
use it to see that a server overlapped its streams without timing anything,
and that a request's slicing was the one asked for.

It is what LiteLLM talks to when the server runs with
``OPENAI_BASE_URL=http://127.0.0.1:<n>/v1``; no network, no API key checked.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "gpt-4o-mini"
#: The token usage every answer reports.
USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
#: Answered as a lone surrogate (legal in JSON, which a client cannot send
#: through an SDK that encodes UTF-8, but an upstream may answer).
LONE_SURROGATE = "<lone-surrogate>"
#: ``<status-NNN>`` in a text: answered with HTTP status NNN.
STATUS = re.compile(r"<status-([45][0-9][0-9])>")


def deltas(text: str, seed: int | None = None) -> list[str]:
    """``text`` cut into pieces of 1-7 characters, the same cut for the same text
    and ``seed``; with ``seed`` 0, one character per piece."""
    if seed == 0:
        return list(text)
    key = text.encode("utf-8", "surrogatepass")
    rng = random.Random(key if seed is None else key + b"\0" + str(seed).encode())
    pieces, at = [], 0
    while at < len(text):
        size = rng.randint(1, 7)
        pieces.append(text[at : at + size])
        at += size
    return pieces


def _last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):  # content parts
                return "".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


class Stats:
    """Streams served and the most in flight at once (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.in_flight = self.most = self.streams = self.deltas = 0

    def begin(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.streams += 1
            self.most = max(self.most, self.in_flight)

    def sent(self) -> None:
        with self.lock:
            self.deltas += 1

    def end(self) -> None:
        with self.lock:
            self.in_flight -= 1

    def take(self) -> dict[str, int]:
        with self.lock:
            taken = {"streams": self.streams, "max_in_flight": self.most, "deltas": self.deltas}
            self.streams, self.most, self.deltas = 0, self.in_flight, 0
            return taken


STATS = Stats()


def _logprobs(text: str) -> dict[str, Any]:
    """``text``'s words as the ``logprobs`` of a choice (each a token)."""
    return {
        "content": [
            {"token": word, "logprob": -0.5, "bytes": None, "top_logprobs": []}
            for word in text.split()
        ]
    }


class Handler(BaseHTTPRequestHandler):
    delay = 0.0
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        if self.path.rstrip("/") != "/stats":
            self.send_error(404)
            return
        self._json(STATS.take())

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self.send_error(404)
            return
        text = _last_user_text(body).replace(LONE_SURROGATE, "\ud83d")
        refused = STATUS.search(text)
        if refused:
            error = {"message": "refused", "type": "invalid_request_error", "code": None}
            self._json({"error": error}, int(refused.group(1)))
            return
        texts = [text if i == 0 else text[::-1] for i in range(int(body.get("n") or 1))]
        logprobs = bool(body.get("logprobs"))
        created = int(time.time())
        ident = f"chatcmpl-fake-{abs(hash(text)) % 10**12}"
        if body.get("stream"):
            STATS.begin()
            try:
                usage = bool((body.get("stream_options") or {}).get("include_usage"))
                seed = body.get("seed")
                self._stream(texts, ident, created, logprobs, usage, seed)
            finally:
                STATS.end()
        else:
            self._json(
                {
                    "id": ident,
                    "object": "chat.completion",
                    "created": created,
                    "model": MODEL,
                    "choices": [
                        {
                            "index": i,
                            "message": {"role": "assistant", "content": answer},
                            "finish_reason": "stop",
                            **({"logprobs": _logprobs(answer)} if logprobs else {}),
                        }
                        for i, answer in enumerate(texts)
                    ],
                    "usage": USAGE,
                }
            )

    def _json(self, payload: dict[str, Any], status: int = 200) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(
        self,
        texts: list[str],
        ident: str,
        created: int,
        logprobs: bool,
        usage: bool,
        seed: int | None = None,
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def send(choices: list[dict[str, Any]], **extra: Any) -> None:
            chunk = {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": MODEL,
                "choices": choices,
                **extra,
            }
            self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            self.wfile.flush()

        def event(index: int, delta: dict[str, Any], finish: str | None) -> None:
            choice = {"index": index, "delta": delta, "finish_reason": finish}
            if logprobs and delta.get("content"):
                choice["logprobs"] = _logprobs(delta["content"])
            send([choice], **({"usage": None} if usage else {}))

        for index in range(len(texts)):
            event(index, {"role": "assistant", "content": ""}, None)
        pieces = [deltas(text, seed) for text in texts]
        for step in range(max(map(len, pieces))):
            for index, own in enumerate(pieces):
                if step < len(own):
                    if self.delay:
                        time.sleep(self.delay)
                    event(index, {"content": own[step]}, None)
                    STATS.sent()
        for index in range(len(texts)):
            event(index, {}, "stop")
        if usage:
            send([], usage=USAGE)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # the benchmarks open hundreds of streams at once


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=float, default=0.0, help="pause before each delta")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    args = parser.parse_args(argv)
    Handler.delay = args.delay_ms / 1000
    server = Server(("127.0.0.1", args.port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
