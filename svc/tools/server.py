"""The MCP server (the official `mcp` SDK, on anyio, so under Trio): the catalog's tools, each
answered by the HTTP call it stands for (svc.tools.calls).

Two transports:
- streamable HTTP at /mcp in the same process as the API (`Mounted`): stateless, one HTTP
  request per MCP request, the key in `Authorization: Bearer` or `X-API-Key` as for the API
  and never in the URL; listing tools needs no key, calling one is a call of the key's;
- stdio (`python -m svc mcp`, `serve_stdio`): the key from SVC_API_KEY.

A refusal (no key, a plan too low, a limit reached, a bad parameter) comes back as a tool
result marked as an error whose text is the API's error (code, message, the plan needed, the
seconds to wait), so the assistant can act on it; an unknown tool is a protocol error. An
error's `docs` link is the service's own /docs: over HTTP at the host the MCP request was sent
to, over stdio at the public URL the settings give (SVC_PUBLIC_URL).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import mcp_types as types
import orjson
import trio
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from werkzeug.datastructures import Headers

from svc.access.caller import QUERY_KEY_NAMES, key_from_headers
from svc.core.errors import ApiError
from svc.tools import calls
from svc.tools.calls import ArgumentError, ASGIApp
from svc.tools.catalog import Tool, tools

MOUNT = "/mcp"
INSTRUCTIONS = (
    "World badminton data: results and draws since 1899, players, head to head, rankings, "
    "ratings and win chances, odds, live scores. Each tool is one endpoint of the HTTP API "
    "(/v1/openapi.json) and answers its JSON {data, meta}; each call counts against the key's "
    "plan and limits like an HTTP call."
)

# The key of the HTTP request an MCP request came in, and the scheme and host it was sent to
# (set per request by `Mounted`).
REQUEST_KEY: contextvars.ContextVar[str | None] = contextvars.ContextVar("svc_tools_request_key", default=None)
REQUEST_ORIGIN: contextvars.ContextVar[str] = contextvars.ContextVar("svc_tools_request_origin", default="")


def build(
    app: ASGIApp,
    description: dict[str, Any],
    key: Callable[[], str | None],
    origin: Callable[[], str],
    version: str = "",
) -> Server:
    """An MCP server whose tools call `app` with the key `key()` gives for the request, as a call
    to the service at `origin()` (scheme://host[:port])."""
    catalog: dict[str, Tool] = {t.name: t for t in tools(description)}
    listed = types.ListToolsResult(
        tools=[
            types.Tool(
                name=t.name,
                title=t.title,
                description=t.description,
                input_schema=t.input_schema,
                annotations=types.ToolAnnotations(
                    read_only_hint=True, idempotent_hint=not t.stream, open_world_hint=False
                ),
            )
            for t in catalog.values()
        ]
    )

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = catalog.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"no tool named {params.name!r}; tools/list names all {len(catalog)}")
        try:
            outcome = await calls.call(app, tool, params.arguments or {}, key(), origin())
        except ArgumentError as exc:
            err = ApiError("bad_request", str(exc))
            return _error({**err.body(origin() + "/docs"), "status": err.status})
        return result(tool, outcome)

    return Server(
        "badminton-data", version=version, instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool
    )


def result(tool: Tool, outcome: calls.Outcome) -> types.CallToolResult:
    """The tool's result: the answer's {data, meta}, or the API's error as a tool error."""
    if outcome.ok and tool.stream:
        messages = calls.stream_messages(outcome.body)
        answer = {"data": messages, "meta": {"messages": len(messages)}}
        return types.CallToolResult(
            content=[types.TextContent(text=orjson.dumps(answer).decode())], structured_content=answer
        )
    try:
        body = orjson.loads(outcome.body) if outcome.body else {}
    except orjson.JSONDecodeError:
        body = {"error": {"code": "internal_error", "message": outcome.body[:200].decode("utf-8", "replace")}}
    if outcome.ok:
        return types.CallToolResult(content=[types.TextContent(text=outcome.body.decode())], structured_content=body)
    body = dict(body)
    body["status"] = outcome.status
    if "retry-after" in outcome.headers:
        body["retry_after_s"] = int(outcome.headers["retry-after"])
    return _error(body)


def _error(body: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=orjson.dumps(body).decode())], structured_content=body, is_error=True
    )


# -- streamable HTTP, in the API's process -------------------------------------------------


class Mounted:
    """The API app with MCP's streamable HTTP at /mcp, its tools calling that app. Its session
    manager runs as a component of the API app (`component`, which svc.assembly starts beside
    it), started and stopped with it."""

    def __init__(self, api: ASGIApp, description: Callable[[], dict[str, Any]], version: str = "") -> None:
        self.api = api
        self._description = description
        self._version = version
        self.manager: StreamableHTTPSessionManager | None = None

    async def component(self, service: Any, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """The session manager for the app's lifetime (`service`, the app's, is not needed: the
        tools reach the app over ASGI, as a client would)."""
        server = build(self.api, self._description(), REQUEST_KEY.get, REQUEST_ORIGIN.get, self._version)
        # a new manager each start: one can run only once (a restarted component makes another)
        manager = StreamableHTTPSessionManager(app=server, json_response=True, stateless=True)
        async with manager.run():
            self.manager = manager
            try:
                task_status.started()
                await trio.sleep_forever()
            finally:
                self.manager = None

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not (path == MOUNT or path.startswith(MOUNT + "/")):
            await self.api(scope, receive, send)
            return
        origin = request_origin(scope)
        try:
            key = _request_key(scope)
        except ApiError as err:  # a key in the URL, two keys, a malformed Authorization: as the API answers
            await _json(send, err.status, err.body(origin + "/docs"))
            return
        if self.manager is None:
            starting = ApiError("unavailable", "the tools are starting; retry shortly")
            await _json(send, starting.status, starting.body(origin + "/docs"))
            return
        token, origin_token = REQUEST_KEY.set(key), REQUEST_ORIGIN.set(origin)
        try:
            await self.manager.handle_request(scope, receive, send)
        finally:
            REQUEST_KEY.reset(token)
            REQUEST_ORIGIN.reset(origin_token)


def request_origin(scope: dict) -> str:
    """scheme://host[:port] of the service as this request reached it: its Host header, as the API
    makes its own docs links (svc.web.responses), else the address it came in on."""
    host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"host"), "")
    if not host:
        name, port = scope.get("server") or ("localhost", 80)
        host = f"{name}:{port}"
    return f"{scope.get('scheme', 'http')}://{host}"


def _request_key(scope: dict) -> str | None:
    """The key the request sends, read as the API reads it (svc.access.caller); None for none:
    listing the tools needs no key, and a call without one is answered `unauthorized`."""
    headers = Headers([(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])])
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    if "Authorization" not in headers and "X-API-Key" not in headers and not set(query) & set(QUERY_KEY_NAMES):
        return None
    return key_from_headers(headers, query)


async def _json(send: Any, status: int, body: dict[str, Any]) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": orjson.dumps(body)})


# -- stdio ---------------------------------------------------------------------------------


async def serve_stdio(
    app: ASGIApp, description: dict[str, Any], key: str | None, public_url: str, version: str = ""
) -> None:
    """Serves MCP over this process's stdin and stdout until stdin closes; the answers' links are
    those of the service at `public_url` (scheme://host[:port])."""
    from mcp.server.stdio import stdio_server

    server = build(app, description, lambda: key, lambda: public_url, version)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
