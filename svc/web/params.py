"""Query and path parameters, declared once as attrs classes.

The same declarations validate requests (400 for what cannot be read, 422 for a
well-formed value that is not acceptable, always naming the parameter) and produce
the OpenAPI parameter objects, so the description cannot drift from the checks. The
parameters every list takes (page, per_page, cursor) are declared with the rest of paging
(svc.web.paging).
"""

from __future__ import annotations

import datetime as dt
import re
import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs

from svc.core.errors import bad_request, invalid

DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
LEVELS = ("senior", "junior", "para")
ROUND_CODES = ("R128", "R64", "R32", "R16", "QF", "SF", "3P", "F")
MIN_YEAR = 1899  # interface.md: year parameters are integers of at least 1899
MAX_YEAR = 2100  # beyond any calendar we hold; keeps integers sane
IOC_CODE = r"^[A-Za-z]{3}$"


@attrs.frozen
class ParamInfo:
    doc: str
    location: str = "query"  # query | path
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    enum: tuple[str, ...] | None = None
    prefix: str | None = None  # ids: pl_, tr_, ...
    pattern: str | None = None  # a regex the raw text must match (400 otherwise)
    upper: bool = False  # normalise to capitals (IOC codes, disciplines)
    wire: str | None = None  # the name on the wire when it is a Python keyword (from -> from_)
    year: bool = False  # a year (from, to, year): a date given instead is told apart from other text


def param(doc: str, *, default: Any = None, **info: Any) -> Any:
    required = info.get("required", False) or info.get("location") == "path"
    meta = ParamInfo(doc=doc, **{**info, "required": required})
    if required:
        return attrs.field(metadata={"param": meta}, kw_only=True)
    return attrs.field(default=default, metadata={"param": meta}, kw_only=True)


def path_id(prefix: str, doc: str) -> Any:
    return param(doc, location="path", prefix=prefix)


def discipline_param(doc: str = "Discipline.", **info: Any) -> Any:
    return param(doc, enum=DISCIPLINES, upper=True, **info)


# Para badminton: one sport class (WH1, SL3 ...) or a pair for doubles (WH1-WH2), in either order;
# the classes in the interface's order (a pair is written in it: WH1-WH2, SL3-SU5).
SPORT_CLASS = r"^[A-Za-z]{2}[0-9](-[A-Za-z]{2}[0-9])?$"
SPORT_CLASSES = ("WH1", "WH2", "SL3", "SL4", "SU5", "SH6")


def sport_class_param(doc: str, **info: Any) -> Any:
    return param(doc, pattern=SPORT_CLASS, upper=True, **info)


def class_variants(sport_class: str) -> list[str]:
    """A pair may be written either way round: WH2-WH1 is the WH1-WH2 draw."""
    parts = sport_class.split("-")
    return ["-".join(parts), "-".join(reversed(parts))]


def year_param(doc: str, **info: Any) -> Any:
    """A year parameter (interface.md: integers of at least 1899); a date is refused as one."""
    return param(f"{doc} A year such as 2019, not a date.", minimum=MIN_YEAR, maximum=MAX_YEAR, year=True, **info)


# What a newcomer sends for a year: a day or a month (2019-05-01, 2019-05, 2019/05/01).
_DATE_LIKE = re.compile(r"[0-9]{4}[-/.][0-9]{1,2}([-/.][0-9]{1,2})?")


def _not_a_year(name: str, raw: str) -> str:
    if _DATE_LIKE.fullmatch(raw):
        return f"parameter `{name}` must be a year such as {raw[:4]}, not a date ({raw!r}): it takes whole years"
    return f"parameter `{name}` must be a year such as 2019, not {raw!r}"


@attrs.frozen
class NoParams:
    pass


def _base_type(tp: Any) -> tuple[Any, bool]:
    """(the type without None, whether None is allowed)."""
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return args[0], True
    return tp, False


def fields_of(cls: type) -> list[tuple[str, attrs.Attribute[Any], ParamInfo, Any]]:
    """(wire name, field, info, type without None) for each declared parameter."""
    attrs.resolve_types(cls)
    return [
        (f.metadata["param"].wire or f.name, f, f.metadata["param"], _base_type(f.type)[0]) for f in attrs.fields(cls)
    ]


_UNREADABLE = re.compile(
    r"[\x00-\x1f\x7f\ud800-\udfff\ufffd]"
)  # control characters, lone surrogates, undecodable bytes


def _convert(name: str, raw: str, info: ParamInfo, tp: Any) -> Any:
    if raw == "":
        raise bad_request(f"parameter `{name}` is empty; give a value or leave it out", name)
    if _UNREADABLE.search(raw):
        raise bad_request(f"parameter `{name}` holds control characters or bytes that are not UTF-8", name)
    if info.pattern and not re.match(info.pattern, raw):
        raise bad_request(f"parameter `{name}` is malformed: {raw!r}", name)
    if tp is int:
        if not re.fullmatch(r"[+-]?[0-9]{1,9}", raw):
            whole = f"parameter `{name}` must be a whole number, not {raw!r}"
            raise bad_request(_not_a_year(name, raw) if info.year else whole, name)
        value: Any = int(raw)
        if info.minimum is not None and value < info.minimum or info.maximum is not None and value > info.maximum:
            raise invalid(f"parameter `{name}` must be between {info.minimum} and {info.maximum}, not {value}", name)
        return value
    if tp is float:
        if not re.fullmatch(r"[+-]?[0-9]{1,6}(\.[0-9]{1,6})?", raw):
            raise bad_request(f"parameter `{name}` must be a decimal number like 1.5, not {raw!r}", name)
        value = float(raw)
        if info.minimum is not None and value < info.minimum or info.maximum is not None and value > info.maximum:
            raise invalid(f"parameter `{name}` must be between {info.minimum} and {info.maximum}, not {value}", name)
        return value
    if tp is bool:
        if raw not in ("true", "false"):
            raise bad_request(f"parameter `{name}` must be true or false, not {raw!r}", name)
        return raw == "true"
    if tp is dt.date:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", raw):
            raise bad_request(f"parameter `{name}` must be a date written YYYY-MM-DD, not {raw!r}", name)
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            raise bad_request(f"parameter `{name}` is not a real day: {raw!r}", name) from None
    value = raw.upper() if info.upper else raw
    if info.prefix and not (value.startswith(info.prefix) and re.fullmatch(r"[a-z]+_[A-Za-z0-9-]{1,64}", value)):
        raise bad_request(f"parameter `{name}` must be an id starting with {info.prefix}, not {raw!r}", name)
    if info.enum and value not in info.enum:
        raise invalid(f"parameter `{name}` must be one of {', '.join(info.enum)}, not {raw!r}", name)
    if len(value) > 200:
        raise invalid(f"parameter `{name}` is longer than 200 characters", name)
    return value


def parse(cls: type, query: Mapping[str, list[str]], path: Mapping[str, str]) -> Any:
    """Build `cls` from the query (name -> values) and path parameters, or raise ApiError."""
    declared = fields_of(cls)
    query_names = {wire for wire, _, info, _ in declared if info.location == "query"}
    unknown = sorted(set(query) - query_names)
    if unknown:
        known = ", ".join(sorted(query_names)) or "none"
        raise bad_request(f"unknown parameter `{unknown[0]}`; this endpoint takes: {known}", unknown[0])
    values: dict[str, Any] = {}
    for wire, field, info, tp in declared:
        raws = [path[wire]] if info.location == "path" else query.get(wire, [])
        if len(raws) > 1:
            raise bad_request(f"parameter `{wire}` is given more than once", wire)
        if not raws:
            if info.required:
                raise bad_request(f"parameter `{wire}` is required", wire)
            continue
        values[field.name] = _convert(wire, raws[0], info, tp)
    return cls(**values)


def check_range(p: Any, low: str = "from_", high: str = "to") -> None:
    a, b = getattr(p, low), getattr(p, high)
    if a is not None and b is not None and a > b:
        raise invalid(f"parameter `{low.rstrip('_')}` ({a}) is after `{high}` ({b})", low.rstrip("_"))


def openapi_parameters(cls: type) -> list[dict[str, Any]]:
    out = []
    for wire, field, info, tp in fields_of(cls):
        schema: dict[str, Any] = {"type": {int: "integer", float: "number", bool: "boolean"}.get(tp, "string")}
        if tp is dt.date:
            schema["format"] = "date"
        if info.minimum is not None:
            schema["minimum"] = info.minimum
        if info.maximum is not None:
            schema["maximum"] = info.maximum
        if info.enum:
            schema["enum"] = list(info.enum)
        if info.prefix:
            schema["pattern"] = f"^{info.prefix}[A-Za-z0-9-]+$"
        elif info.pattern:
            schema["pattern"] = info.pattern
        if schema["type"] == "string":
            # an empty value is refused (400) for every parameter; the longest accepted is 200 characters
            schema["minLength"] = 1
            if not (info.enum or tp is dt.date):
                schema["maxLength"] = 200
        if field.default is not attrs.NOTHING and field.default is not None:
            schema["default"] = field.default
        out.append(
            {"name": wire, "in": info.location, "required": info.required, "description": info.doc, "schema": schema}
        )
    return out
