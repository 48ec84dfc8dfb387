"""The bodies the server sends: OpenAI chat completion chunks, completions and errors.

Pure functions over plain data: what a client receives is decided here, once,
for the streamed and the non-streamed response.  The text a client gets in
``delta.content`` / ``message.content`` is always a ``ValidationOutcome``'s
``validated_output``; ``raw_llm_output`` is left out of the ``guardrails``
field unless the server's config opts in (``raw`` below).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DONE",
    "Upstream",
    "chunk_event",
    "completion_body",
    "error_body",
    "guardrails_field",
    "sse",
    "usage_event",
]

#: The server-sent event that ends every stream.
DONE = "data: [DONE]\n\n"


@dataclass
class Upstream:
    """What the upstream LLM said about its response (not its text)."""

    id: str = "chatcmpl-chunkwise"
    created: int = 0
    model: str = ""
    finish_reason: str | None = None
    #: Whether the upstream's stream has ended.
    done: bool = False
    #: The upstream's non-streamed response, as a dict (``None`` when streamed).
    completion: dict[str, Any] | None = None
    #: Whether the client asked for the usage of a stream
    #: (``stream_options.include_usage``).
    include_usage: bool = False
    #: The token usage the upstream's stream reported, if any.
    usage: dict[str, Any] | None = None
    role_sent: bool = field(default=False, repr=False)


def sse(payload: dict[str, Any]) -> str:
    """One server-sent event carrying ``payload`` as JSON."""
    return f"data: {json.dumps(payload)}\n\n"


def guardrails_field(
    outcome: dict[str, Any], summaries: list[dict[str, Any]], *, raw: bool
) -> dict[str, Any]:
    """The ``guardrails`` field of an event or a completion.

    ``outcome`` is a ``ValidationOutcome.model_dump()``; its ``raw_llm_output``
    is dropped unless ``raw``; ``validation_summaries`` are the failures found
    while producing this event (streamed) or the whole response (not streamed).
    """
    shown = {k: v for k, v in outcome.items() if raw or k != "raw_llm_output"}
    shown["validation_summaries"] = summaries
    return shown


def chunk_event(
    upstream: Upstream, content: str, guardrails: dict[str, Any], finish: str | None = None
) -> dict[str, Any]:
    """A ``chat.completion.chunk`` whose ``delta.content`` is ``content`` (validated text)."""
    delta: dict[str, Any] = {"content": content}
    if not upstream.role_sent:
        delta = {"role": "assistant", **delta}
        upstream.role_sent = True
    event = _chunk(upstream, [{"index": 0, "delta": delta, "finish_reason": finish}])
    if upstream.include_usage:
        event["usage"] = None
    event["guardrails"] = guardrails
    return event


def usage_event(upstream: Upstream) -> dict[str, Any] | None:
    """The last chunk of a stream whose client asked for its usage: no choice,
    the upstream's ``usage`` (as OpenAI streams it); ``None`` when the client
    did not ask or the upstream reported none (no figure is made up)."""
    if not upstream.include_usage or upstream.usage is None:
        return None
    event = _chunk(upstream, [])
    event["usage"] = upstream.usage
    return event


def _chunk(upstream: Upstream, choices: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": upstream.id,
        "object": "chat.completion.chunk",
        "created": upstream.created,
        "model": upstream.model,
        "choices": choices,
    }


#: What of the upstream's ``chat.completion`` a response keeps besides its one
#: choice: fields that hold no text of the answer.
_KEPT = ("id", "object", "created", "model", "usage", "system_fingerprint", "service_tier")


def completion_body(upstream: Upstream, content: str, guardrails: dict[str, Any]) -> dict[str, Any]:
    """A ``chat.completion`` of one choice whose message is ``content``.

    Built from scratch but for the upstream's fields in ``_KEPT``: nothing
    else of the upstream's answer reaches the client (``logprobs`` spell out
    its tokens; tool and function call arguments, other choices of ``n > 1``
    are dropped too: what the guard validated is ``content``, the first choice).
    """
    completion = upstream.completion or {}
    body = {key: completion[key] for key in _KEPT if key in completion}
    body.setdefault("id", upstream.id)
    body.setdefault("object", "chat.completion")
    body.setdefault("created", upstream.created)
    body.setdefault("model", upstream.model)
    choices = completion.get("choices") or [{}]
    finish = choices[0].get("finish_reason") or "stop"
    body["choices"] = [
        {
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": finish,
            "logprobs": None,
        }
    ]
    body["guardrails"] = guardrails
    return body


def error_body(message: str, kind: str, code: str) -> dict[str, Any]:
    """An OpenAI-shaped error: ``{"error": {"message", "type", "param", "code"}}``."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}
