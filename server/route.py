"""guardrails-api's OpenAI-compatible route, answered with validated text only.

:func:`install` replaces the endpoint of
``POST /guards/{id}/openai/v1/chat/completions`` on guardrails-api's own
router (``guardrails_api.api.guards.router``) before an app includes it; every
other route of the application is guardrails-api's, unchanged.  The endpoint:

* finds the guard by id, else by name (guardrails-api keys its in-memory guards
  by ``guard.id``, while its start-up banner lists them by name);
* streams through an ``AsyncGuard`` rebuilt from the guard's ``to_dict()`` (as
  guardrails-api does before streaming), built once per worker, each request
  getting a copy with its own history;
* answers with :func:`~.completions.stream_events` or :func:`~.completions.complete`.

Raw LLM text (``guardrails.raw_llm_output``) is sent only when the config
module sets ``CHUNKWISE_RAW_LLM_OUTPUT = True``.
"""

import functools
import json
import logging
import sys
from collections import OrderedDict
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import unquote_plus

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from guardrails import AsyncGuard
from guardrails.classes import ValidationOutcome
from guardrails.classes.generic.stack import Stack
from guardrails_api.api import guards as guards_api
from guardrails_api.classes.create_chat_completion_request import CreateChatCompletionRequest
from guardrails_api.clients.get_guard_client import get_guard_client
from pydantic import TypeAdapter, ValidationError
from starlette.requests import ClientDisconnect

from guardrails_ai.chunkwise.adapters.pipeline import check_streamable

from .completions import complete, output_validators, stream_events, watch
from .events import error_body
from .rebuild import rebuilt

__all__ = [
    "PATH",
    "RAW_FLAG",
    "VALIDATE_PATH",
    "chat_completions",
    "install",
    "raw_allowed",
]

#: The route replaced.
PATH = "/guards/{id}/openai/v1/chat/completions"
#: The route whose answers lose their raw LLM text.
VALIDATE_PATH = "/guards/{id}/validate"
#: The config module attribute that lets raw LLM text reach clients.
RAW_FLAG = "CHUNKWISE_RAW_LLM_OUTPUT"

log = logging.getLogger("guardrails_ai.chunkwise.server")


def raw_allowed() -> bool:
    """Whether the loaded config (module ``config``) sets ``CHUNKWISE_RAW_LLM_OUTPUT = True``."""
    return getattr(sys.modules.get("config"), RAW_FLAG, False) is True


def _find(name: str) -> Any:
    """The guard (or guard struct) served under ``name``: by id, else by name; or None."""
    client = get_guard_client()  # type: ignore[no-untyped-call]
    try:
        found = client.get_guard(name)
    except Exception:  # the in-memory client raises HttpError(404) for an unknown id
        found = None
    if found is None:
        named = client.get_guards(guard_name=name)
        found = named[0] if named else None
    return found


def _rebuilt(found: Any) -> AsyncGuard[Any]:
    """:func:`rebuilt`, its output validators reporting to the current response (:func:`watch`)."""
    guard = rebuilt(found)
    watch(guard)
    return guard


#: id(found) -> (found, its rebuilt guard); the most recently used last.
_BUILT: OrderedDict[int, tuple[Any, AsyncGuard[Any]]] = OrderedDict()
_BUILT_MAX = 64


def _request_guard(found: Any) -> AsyncGuard[Any]:
    """The guard one request streams through: a copy of ``found`` rebuilt once per worker.

    Building a Guard costs about as much as streaming a short response
    (Guardrails creates an API client with TLS contexts), so each worker
    rebuilds a served guard once and gives every request a shallow copy with a
    history of its own.  The validators are shared: chunkwise's pipeline keeps
    each stream's state apart.
    """
    key = id(found)
    entry = _BUILT.get(key)
    if entry is None or entry[0] is not found:
        entry = (found, _rebuilt(found))
        _BUILT[key] = entry
        while len(_BUILT) > _BUILT_MAX:
            _BUILT.popitem(last=False)
    _BUILT.move_to_end(key)
    guard = entry[1].model_copy()
    guard.history = Stack(max_length=1)
    return guard


class AsciiJSONResponse(JSONResponse):
    """JSON with every non-ASCII character escaped, as the streamed events are:
    an upstream's text may hold a lone surrogate (legal in JSON), which UTF-8
    cannot encode (Starlette's JSONResponse failed on it: a 400 instead of the
    answer)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")


#: The request body's schema (guardrails-api's: OpenAI's chat completion parameters).
_REQUEST = TypeAdapter(CreateChatCompletionRequest)
#: Pydantic error types whose message a validator writes (it may quote the input).
_OWN_MESSAGES = ("value_error", "assertion_error")


def _request_error(message: str, param: str | None = None) -> Response:
    body = error_body(message, "invalid_request_error", "invalid_request_body")
    body["error"]["param"] = param
    return AsciiJSONResponse(body, status_code=400)


#: The status of the answer to a client that hung up before sending its whole
#: body (nginx's "client closed request"): no one reads it, uvicorn drops it.
CLIENT_CLOSED = 499


async def _payload(request: Request) -> dict[str, Any] | Response:
    """The request's body checked against :data:`_REQUEST`, or an OpenAI-shaped
    400 naming the field at fault (the one every error is under) and what is
    wrong with it, never its value (FastAPI's own answer was a 422
    ``{"detail": [...]}`` quoting the input).  A client that hangs up before
    its body is read gets an empty :data:`CLIENT_CLOSED` answer: nothing
    logged (it was a traceback in the server log)."""
    try:
        raw = await request.body()
    except ClientDisconnect:
        return Response(status_code=CLIENT_CLOSED)
    try:
        body = json.loads(raw)
    except ValueError:
        return _request_error("the request body is not valid JSON")
    if isinstance(body, dict):  # (a null optional parameter is one not given, as OpenAI reads it)
        body = {key: value for key, value in body.items() if value is not None}
    try:
        return dict(_REQUEST.validate_python(body))
    except ValidationError as exc:
        return _invalid_body(exc)


def _invalid_body(exc: ValidationError, under: tuple[str, ...] = ()) -> Response:
    """The 400 for a body that does not fit :data:`_REQUEST`: the field every
    error is under (or the fields, when they differ) and the one error's
    message, or how many there are.  ``under`` is where the errors' locations
    start (a field pydantic validates lazily reports them from itself)."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    paths = [[*under, *_path(e["loc"])] for e in errors]
    if len(errors) == 1:
        kind = errors[0]["type"]
        what = kind if kind in _OWN_MESSAGES else errors[0]["msg"]
    else:  # (one field that fits no member of a union gives one error per member)
        what = f"does not fit the schema ({len(errors)} errors)"
    common = paths[0]
    for path in paths[1:]:
        n = 0
        while n < min(len(common), len(path)) and common[n] == path[n]:
            n += 1
        common = common[:n]
    param = ".".join(common) or None
    if param is None and len({path[0] for path in paths if path}) > 1:
        fields = ", ".join(sorted({path[0] for path in paths if path}))
        return _request_error(f"invalid request body: {fields}: {what}")
    return _request_error(f"invalid request body: {param or 'the body'}: {what}", param)


def _text_messages(messages: Any) -> list[dict[str, Any]] | Response:
    """``messages`` with each content given as parts (``[{"type": "text",
    "text": ...}]``, as many OpenAI clients send even plain text) joined into
    one string, parts apart by a line break: Guardrails takes string content
    only (it failed on parts, and the client got a 502).  A part of another
    type (an image, audio, a file) cannot pass through Guardrails: a 400
    naming the message, never its content.  Pydantic checks the parts only
    as they are read (a one-pass iterator): a part that fits no schema is the
    400 of a malformed body (:func:`_invalid_body`), never pydantic's own
    message, which quotes the part."""
    plain: list[dict[str, Any]] = []
    for i, message in enumerate(messages):
        message = dict(message)
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            try:
                parts = [dict(part) for part in content]
            except ValidationError as exc:
                return _invalid_body(exc, ("messages", str(i), "content"))
            kinds = sorted({str(part.get("type")) for part in parts} - {"text"})
            if kinds:
                return _request_error(
                    f"messages.{i}.content holds parts of type {', '.join(kinds)}: a guarded "
                    "completion takes text only (Guardrails validates string content)",
                    f"messages.{i}.content",
                )
            message["content"] = "\n".join(str(part.get("text", "")) for part in parts)
        plain.append(message)
    return plain


@functools.cache
def _field_names() -> frozenset[str]:
    """Every property name of the request's JSON schema, nested ones included."""
    names: set[str] = set()
    stack: list[Any] = [_REQUEST.json_schema()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                names.update(properties)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(names)


def _path(loc: tuple[int | str, ...]) -> list[str]:
    """An error's location as the parts a client may be shown: indexes and the
    schema's field names; a mapping's key (``logit_bias``, ``metadata``: the
    client's own text) shows as ``<key>``; the class names a union's members
    add are left out."""
    names = _field_names()
    parts = []
    for part in loc:
        if isinstance(part, int) or part in names:
            parts.append(str(part))
        elif not part[:1].isupper() and "[" not in part and part not in _TYPE_TAGS:
            parts.append("<key>")
    return parts


#: The tags pydantic puts in a location for the members of a union of plain types.
_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "bytes", "none", "dict", "list", "tuple"})


async def chat_completions(id: str, request: Request) -> Response:
    """OpenAI-compatible chat completion through guard ``id``: validated text only.

    The body is a chat completion request (:data:`_REQUEST`); one that is no
    JSON or does not fit gets an OpenAI-shaped 400 (:func:`_payload`)."""
    payload = await _payload(request)
    if isinstance(payload, Response):
        return payload
    name = unquote_plus(id)
    found = _find(name)
    if found is None:
        body = error_body(f"no guard named {name!r}", "invalid_request_error", "guard_not_found")
        return AsciiJSONResponse(body, status_code=404)
    if not payload.get("messages"):
        body = error_body(
            "messages is required and must hold at least one message",
            "invalid_request_error",
            "missing_messages",
        )
        return AsciiJSONResponse(body, status_code=400)
    messages = _text_messages(payload["messages"])
    if isinstance(messages, Response):
        return messages
    payload["messages"] = messages
    try:
        guard = _request_guard(found)
    except Exception as exc:  # (named by its type: its text may quote the config)
        return _not_served(name, f"rebuilding it from Guard.to_dict() raised {type(exc).__name__}")
    try:
        check_streamable(output_validators(guard))
    except ValueError as exc:  # (its message names the validator, never user text)
        return _not_served(name, str(exc))
    stream = bool(payload.pop("stream", False))
    if stream:
        events = stream_events(guard, payload, name=name, raw=raw_allowed())
        return StreamingResponse(events, media_type="text/event-stream")
    status, body = await complete(guard, payload, name=name, raw=raw_allowed())
    return AsciiJSONResponse(body, status_code=status)


def _not_served(name: str, why: str) -> Response:
    """HTTP 400 ``guard_not_served``: guard ``name`` cannot be served, because ``why``
    (which names a validator or an exception's type, never user text); one log line."""
    log.error("guard %r cannot be served: %s", name, why)
    body = error_body(
        f"guard {name!r} cannot be served: {why}", "invalid_request_error", "guard_not_served"
    )
    return AsciiJSONResponse(body, status_code=400)


def _without_raw(original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """guardrails-api's ``/validate`` endpoint, its ``raw_llm_output`` removed unless opted in."""

    @functools.wraps(original)  # FastAPI reads the original's parameters
    async def validate(*args: Any, **kwargs: Any) -> Any:
        result = await original(*args, **kwargs)
        if raw_allowed():
            return result
        if isinstance(result, StreamingResponse):
            result.body_iterator = _lines_without_raw(result.body_iterator)
            return result
        if isinstance(result, ValidationOutcome):
            return result.model_copy(update={"raw_llm_output": None})
        return result

    return validate


async def _lines_without_raw(lines: AsyncIterable[Any]) -> AsyncIterator[str]:
    """``/validate``'s streamed JSON lines without their ``rawLlmOutput``."""
    async for line in lines:
        text = line.decode() if isinstance(line, bytes) else str(line)
        try:
            item = json.loads(text)
        except ValueError:
            yield text
            continue
        if isinstance(item, dict):
            item.pop("rawLlmOutput", None)
            item.pop("raw_llm_output", None)
        yield json.dumps(item) + "\n"


def _replace(target: APIRouter, path: str, make: Callable[[Any], Any]) -> bool:
    """Replace the endpoint of ``POST path`` by ``make(old endpoint)``; False if absent."""
    for index, route in enumerate(target.routes):
        if isinstance(route, APIRoute) and route.path == path and "POST" in (route.methods or ()):
            if getattr(route.endpoint, "_chunkwise_route", False):
                return True  # installed already
            endpoint = make(route.endpoint)
            endpoint._chunkwise_route = True
            target.add_api_route(path, endpoint, methods=["POST"], response_model=None)
            target.routes[index] = target.routes.pop()
            return True
    return False


def install(router: APIRouter | None = None) -> None:
    """Put :func:`chat_completions` in place of guardrails-api's route; idempotent.

    Also strips ``raw_llm_output`` from guardrails-api's ``/guards/{id}/validate``
    answers unless the config opts in.  ``router`` defaults to guardrails-api's
    guards router, which its ``create_app`` includes: call this before the app
    is created (for example from the config file, which guardrails-api loads
    first).
    """
    target = guards_api.router if router is None else router
    if not _replace(target, PATH, lambda _old: chat_completions):
        raise RuntimeError(f"guardrails-api has no POST {PATH} route to replace")
    _replace(target, VALIDATE_PATH, _without_raw)
