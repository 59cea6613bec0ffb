"""Every endpoint as a tool for AI assistants: names, descriptions and input schemas, read from
the same endpoint declarations (through the OpenAPI description) as everything else.

A tool's name is its operation's operationId (svc.web.endpoint.operation_name makes both), which
says what it answers: `get_player` (/v1/players/{id}), `player_form` (/v1/players/{id}/form),
`rankings_number_ones`, `search`; a client generated from the description has the same names. Its
input schema holds the endpoint's path and query parameters with the OpenAPI schemas; the live
stream's tool adds `seconds`, how long to collect the stream's messages (at most 60).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

STREAM_SECONDS_MAX = 60
STREAM_SECONDS_DEFAULT = 10
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # what MCP clients accept as a tool's name


@attrs.frozen
class Tool:
    name: str
    path: str  # the endpoint's path, OpenAPI form (/v1/players/{id})
    title: str
    description: str
    input_schema: dict[str, Any]
    path_params: tuple[str, ...]
    stream: bool  # collects a Server-Sent Events stream for `seconds`


def tools(description: dict[str, Any]) -> list[Tool]:
    """One tool per GET operation of an OpenAPI description, in its order."""
    out = []
    for path, item in description["paths"].items():
        op = item.get("get")
        if op is None:
            continue
        properties: dict[str, Any] = {}
        required: list[str] = []
        path_params = []
        for p in op.get("parameters", []):
            if p["in"] not in ("path", "query"):
                continue
            schema = dict(p.get("schema", {}))
            if p.get("description"):
                schema["description"] = p["description"]
            properties[p["name"]] = schema
            if p.get("required"):
                required.append(p["name"])
            if p["in"] == "path":
                path_params.append(p["name"])
        stream = "text/event-stream" in op.get("responses", {}).get("200", {}).get("content", {})
        text = op.get("description") or op.get("summary", "")
        if stream:
            properties["seconds"] = {
                "type": "integer",
                "minimum": 1,
                "maximum": STREAM_SECONDS_MAX,
                "default": STREAM_SECONDS_DEFAULT,
                "description": "How long to collect the stream's messages, in seconds.",
            }
            text += (
                f" As a tool: collects the stream's messages for `seconds` (at most {STREAM_SECONDS_MAX}) "
                "and returns them as data, one item per message (event, id, data)."
            )
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            schema["required"] = required
        name = op["operationId"]
        assert NAME_PATTERN.match(name), name
        out.append(
            Tool(
                name=name,
                path=path,
                title=op.get("summary", name),
                description=text,
                input_schema=schema,
                path_params=tuple(path_params),
                stream=stream,
            )
        )
    names = [t.name for t in out]
    assert len(names) == len(set(names)), "two endpoints give one tool name"
    return out
