"""One converter for records -> JSON bytes, and the JSON Schema of those records.

Response records are attrs classes; cattrs' orjson preset unstructures them and orjson
writes the bytes. The OpenAPI response schemas are derived from the same classes.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
from typing import Any

import attrs
import orjson
from cattrs.fns import identity
from cattrs.preconf.orjson import make_converter

converter = make_converter()
JSON_SCALARS = (str, int, float, bool)


def _written_as_is(tp: Any) -> bool:
    """A JSON scalar or null (`int | None`), or a dict of JSON scalars by name (titles by
    discipline): orjson writes it as it is, so cattrs need not look at it value by value -- its
    dispatch for an optional field and its copy of a dict were two thirds of unstructuring
    /v1/countries' items."""
    args = typing.get_args(tp)
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return all(a in JSON_SCALARS or a is type(None) for a in args)
    return typing.get_origin(tp) is dict and len(args) == 2 and args[0] is str and args[1] in JSON_SCALARS


converter.register_unstructure_hook_func(_written_as_is, identity)  # cattrs inlines it: no call at all


def to_json(value: Any) -> bytes:
    return orjson.dumps(converter.unstructure(value))


class JsonObjects(list[dict[str, Any]]):
    """Objects orjson writes as they are (rows_as): cattrs passes them through untouched."""


converter.register_unstructure_hook(JsonObjects, identity)


def rows_as(cls: type[attrs.AttrsInstance], rows: typing.Sequence[Any]) -> JsonObjects:
    """The rows as the JSON objects of records of `cls`, for a statement written for the record:
    its columns are the record's fields, in order (checked: a statement that differs is a mistake
    of ours, refused rather than answered wrong), and their values are JSON's as they are (scalars,
    null, dates, a dict of scalars: `_written_as_is`). Then a record would only copy the row, and
    unstructuring would copy it again -- four fifths of the time of a list like /v1/countries."""
    if rows:
        columns = tuple(rows[0].keys())
        fields = tuple(f.name for f in attrs.fields(cls))
        if columns != fields:
            raise TypeError(f"{cls.__name__}: the statement's columns {columns} are not its fields {fields}")
        return JsonObjects(dict(zip(fields, row, strict=True)) for row in rows)
    return JsonObjects()


def doc(text: str) -> dict[str, str]:
    """Field metadata: the description shown in the OpenAPI schema."""
    return {"doc": text}


def json_schema(tp: Any, components: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a record type; attrs classes go to `components` by name."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return {}
    if isinstance(tp, types.UnionType) or origin is typing.Union:
        parts = [json_schema(a, components) for a in typing.get_args(tp)]
        return {"anyOf": parts}
    if tp is type(None):
        return {"type": "null"}
    if tp is str:
        return {"type": "string"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is dt.date:
        return {"type": "string", "format": "date"}
    if tp is dt.datetime:
        return {"type": "string", "format": "date-time"}
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(tp))}
    if origin in (list, tuple):
        args = typing.get_args(tp)
        return {"type": "array", "items": json_schema(args[0], components) if args else {}}
    if origin is dict:
        return {"type": "object", "additionalProperties": json_schema(typing.get_args(tp)[1], components)}
    if attrs.has(tp):
        name = tp.__name__
        if name not in components:
            components[name] = {}  # placeholder: stops recursion on self-reference
            attrs.resolve_types(tp)
            props = {}
            for f in attrs.fields(tp):
                schema = json_schema(f.type, components)
                if "doc" in f.metadata:
                    schema = {**schema, "description": f.metadata["doc"]}
                props[f.name] = schema
            components[name] = {
                "type": "object",
                "properties": props,
                "required": list(props),
                **({"description": tp.__doc__.strip()} if tp.__doc__ else {}),
            }
        return {"$ref": f"#/components/schemas/{name}"}
    raise TypeError(f"no JSON Schema for {tp!r}")
