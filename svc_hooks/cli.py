"""`python -m svc hooks add|list|resume|remove|test|rotate` -- the account operations for webhooks.

Each command opens the database through svc.core.db (Trio), runs, and prints; errors go to
stderr with exit status 2 (1 for a Test delivery that was not answered with a 2xx).

Who may act on an endpoint: whoever runs this CLI holds the database's URL, i.e. is the
operator acting for the account; the commands that take an endpoint id (resume, remove, test,
rotate) have no caller to check against the owning account, as the interface leaves these
operations to the account.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

if TYPE_CHECKING:
    from svc_hooks.catchup import Resumed
    from svc_hooks.rotation import Rotated

EXIT_REFUSED = 2  # as `python -m svc` uses for account errors
EXIT_TEST_FAILED = 1


def add_subcommands(subparsers: argparse._SubParsersAction) -> None:
    h = subparsers.add_parser("hooks", help="webhook endpoints of an account").add_subparsers(
        dest="hooks_command", required=True
    )
    a = h.add_parser("add", help="add an endpoint; prints its id and signing secret (shown once)")
    a.add_argument("--account", required=True)
    a.add_argument("--url", required=True, help="https://host/path (port 443, a public address)")
    a.add_argument("--events", required=True, help="comma-separated: match.started,match.finished,result.corrected")
    a.add_argument(
        "--email",
        default=None,
        help="where to send the notice if the endpoint is paused (default: the account name when it is an address)",
    )
    a.set_defaults(func=_command(_add))
    ls = h.add_parser("list", help="an account's endpoints: state, failures in a row, last delivery")
    ls.add_argument("--account", required=True)
    ls.set_defaults(func=_command(_list))
    for name, fn, text in (
        (
            "resume",
            _resume,
            "make a paused endpoint active; its pending deliveries and the events "
            "written during the pause (within the catch-up window) are "
            "delivered, in order",
        ),
        ("remove", _remove, "remove an endpoint and its deliveries"),
        ("test", _test, 'send a real recent match, signed, with "test": true'),
    ):
        p = h.add_parser(name, help=text)
        p.add_argument("id", help="whe_... endpoint id")
        p.set_defaults(func=_command(fn))
    r = h.add_parser(
        "rotate",
        help="a new signing secret for an endpoint (printed once); the old one signs beside it for the overlap",
    )
    r.add_argument("id", help="whe_... endpoint id")
    r.add_argument(
        "--overlap",
        default=None,
        help="how long deliveries carry the old secret's signature too: 24h (default), 90m, 2d, at most 7d; "
        "0 ends the old secret at once (a leaked secret)",
    )
    r.set_defaults(func=_command(_rotate))


def _command(fn: Callable[..., Awaitable[int]]) -> Callable[[Any, Any], int]:
    """A sync entry point for svc.__main__: a Trio run with the database open."""

    def run(args: Any, settings: Any) -> int:
        from svc.core import pgserver

        url = settings.database_url or pgserver.start(settings.home)
        return trio.run(_with_db, fn, args, url)

    return run


async def _with_db(fn: Callable[..., Awaitable[int]], args: Any, url: str) -> int:
    from svc.access.plans import prepare_database
    from svc.core.db import Database
    from svc_hooks.store import HookError

    db = Database(url, pool_size=2)
    await db.open()
    try:
        await db.run(prepare_database)
        return await fn(db, args)
    except HookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    finally:
        await db.close()


def _policy():
    from svc.core.settings import Settings
    from svc_hooks.addresses import Policy

    policy = Policy(allow_local=Settings.from_env().hooks_allow_local)
    if policy.allow_local:
        print(
            "WARNING: SVC_HOOKS_ALLOW_LOCAL=1 admits http:// and loopback URLs (tests and development only)",
            file=sys.stderr,
        )
    return policy


async def _add(db, args) -> int:
    from svc.core.clock import Clock
    from svc_hooks.store import add_endpoint, parse_events

    endpoint_id, secret = await add_endpoint(
        db,
        account=args.account,
        url=args.url,
        events=parse_events(args.events),
        now=Clock().now(),
        policy=_policy(),
        email=args.email,
    )
    print(endpoint_id)
    print(secret)
    print("endpoint added; the signing secret is shown only now: keep it", file=sys.stderr)
    return 0


async def _list(db, args) -> int:
    from svc_hooks.store import list_endpoints

    rows = await list_endpoints(db, args.account)
    if not rows:
        print(f"account {args.account!r} has no webhook endpoints", file=sys.stderr)
        return 0
    print(f"{'id':21} {'state':7} {'failures':>8}  {'last delivery':25} {'status':>6} {'pending':>7}  events  url")
    for r in rows:
        last = r["last_delivery_at"].isoformat(timespec="seconds") if r["last_delivery_at"] else "never"
        status = str(r["last_status"]) if r["last_status"] is not None else "-"
        print(
            f"{r['id']:21} {r['state']:7} {r['failures_in_row']:>8}  {last:25} {status:>6} {r['pending']:>7}  "
            f"{','.join(r['events'])}  {r['url']}"
        )
    return 0


async def _resume(db, args) -> int:
    from svc.core.clock import Clock
    from svc_hooks.catchup import resume

    print(resume_report(await resume(db, args.id, Clock().now())))
    return 0


def resume_report(r: Resumed) -> str:
    """What `hooks resume` prints for a svc_hooks.catchup.Resumed: the counts, and the events
    too old to send by name, so that nothing of the pause is lost without the owner being told."""
    pending = _count(r.pending, "pending delivery continues", "pending deliveries continue")
    if not r.was_paused:
        return f"{r.endpoint_id} was not paused: it stays active with its failure count reset; {pending}"
    lines = [
        f"resumed {r.endpoint_id}: {pending}, "
        f"{_count(r.caught_up, 'event', 'events')} written during the pause will be delivered"
        + (f" (oldest {_utc(r.oldest)})" if r.oldest else "")
        + ", all in outbox order"
    ]
    if r.too_old:
        lines.append(
            f"{_count(r.too_old, 'event', 'events')} written during the pause "
            f"{'is' if r.too_old == 1 else 'are'} older than the {r.window.days}-day window "
            f"and will not be delivered:"
        )
        lines += [f"  {event_id} written {_utc(at)}" for event_id, at in r.too_old_named]
        if r.too_old > len(r.too_old_named):
            lines.append(f"  and {r.too_old - len(r.too_old_named)} more")
    return "\n".join(lines)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _utc(at: dt.datetime) -> str:
    return at.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


async def _remove(db, args) -> int:
    from svc_hooks.store import remove

    await remove(db, args.id)
    print(f"{args.id} removed")
    return 0


async def _rotate(db, args) -> int:
    from svc.core.clock import Clock
    from svc_hooks.rotation import DEFAULT_OVERLAP, parse_overlap, rotate

    overlap = DEFAULT_OVERLAP if args.overlap is None else parse_overlap(args.overlap)
    rotated = await rotate(db, args.id, now=Clock().now(), overlap=overlap)
    print(rotated.secret)
    print(rotation_report(rotated), file=sys.stderr)
    return 0


def rotation_report(r: Rotated) -> str:
    """What `hooks rotate` tells on stderr (stdout holds the new secret only, for scripts)."""
    lines = [f"{r.endpoint_id} has a new signing secret, shown only now: keep it"]
    if r.previous_until is None:
        lines.append("the old secret signs nothing from now on")
    else:
        lines.append(
            f"until {_utc(r.previous_until)} every delivery is signed with the old secret too "
            "(two v1= in X-Svc-Signature, two v1, in webhook-signature); after that with the new one only"
        )
    if r.cut_short is not None:
        lines.append(
            f"the secret replaced by the rotation before, due to sign until {_utc(r.cut_short)}, has ended now"
        )
    return "\n".join(lines)


async def _test(db, args) -> int:
    from svc.core.clock import Clock
    from svc_hooks.sample import send_test

    result = await send_test(db, Clock(), args.id, policy=_policy())
    if result.status is not None and 200 <= result.status < 300:
        print(f"test delivery answered {result.status} in {result.latency_ms:.0f} ms")
        return 0
    print(
        f"test delivery failed: {result.error or f'answered {result.status}'} ({result.latency_ms:.0f} ms)",
        file=sys.stderr,
    )
    return EXIT_TEST_FAILED
