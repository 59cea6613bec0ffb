"""GET /v1/usage: the check for a key; never counted."""

from __future__ import annotations

import attrs

from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint


@attrs.frozen
class Limits:
    per_minute: int
    per_day: int


@attrs.frozen
class Usage:
    """The key's plan, its calls and what is left."""

    plan: str = attrs.field(metadata=doc("free, archive, odds or live"))
    plan_name: str
    account: str
    key_prefix: str = attrs.field(metadata=doc("the public start of the key"))
    calls_this_minute: int
    calls_today: int
    calls_this_month: int
    limits: Limits
    remaining_this_minute: int
    remaining_today: int
    minute_resets_at: str = attrs.field(metadata=doc("ISO 8601 UTC"))
    day_resets_at: str = attrs.field(metadata=doc("ISO 8601 UTC: 00:00 UTC tomorrow"))


def _iso(ts) -> str:
    return ts.isoformat().replace("+00:00", "Z")


@endpoint(
    "/v1/usage",
    plan="free",
    summary="The key's plan, calls today and this month, limits and reset times",
    returns=Usage,
    counted=False,
)
async def usage(call: Call) -> Answer:
    caller = call.caller
    plan = caller.plan
    return Answer(
        Usage(
            plan=plan.name,
            plan_name=plan.title,
            account=caller.account,
            key_prefix=caller.prefix,
            calls_this_minute=caller.minute_calls,
            calls_today=caller.day_calls,
            calls_this_month=caller.month_calls,
            limits=Limits(per_minute=plan.per_minute, per_day=plan.per_day),
            remaining_this_minute=max(0, plan.per_minute - caller.minute_calls),
            remaining_today=max(0, plan.per_day - caller.day_calls),
            minute_resets_at=_iso(caller.windows.minute_reset),
            day_resets_at=_iso(caller.windows.day_reset),
        )
    )
