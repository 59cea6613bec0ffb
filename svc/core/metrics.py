"""The service's metrics (prometheus-client), for a Prometheus server to scrape.

`serve --metrics-port N` serves them at http://127.0.0.1:N/metrics (never on the API's port;
another address with `--metrics-host`). With several workers every worker writes its numbers
to files in a directory of the supervisor's (the client's multiprocess mode) and the
supervisor answers for all of them on that one port: counters and histograms add up over the
workers, the gauges of what a worker holds (open streams, slots, connections in use) add up
over the living workers, and the webhook queue (one number for the whole database) is the
largest any worker saw last.

Without a metrics port the same objects count in memory and nothing serves them.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"  # the client's own variable: set, it writes to files there

REQUESTS = Counter(
    "svc_requests",
    "Requests answered, by endpoint (its path template; `unmatched` for no endpoint) and status code",
    ["endpoint", "status"],
)
LATENCY = Histogram(
    "svc_request_seconds",
    "Time to answer a request, by endpoint (a stream: until its head is sent)",
    ["endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
CACHE = Counter("svc_answer_cache", "Answer-cache look-ups of cacheable endpoints, by result (hit, miss)", ["result"])
REFUSALS = Counter(
    "svc_limit_refusals",
    "Calls refused by a limit, by error code (rate_limited, quota_exceeded, too_many_streams)",
    ["code"],
)
STREAMS = Gauge("svc_live_streams_open", "Live streams open in this process", multiprocess_mode="livesum")
SLOTS = Gauge(
    "svc_live_slots_held", "Stream slots (two per key) held by this process's streams", multiprocess_mode="livesum"
)
FANNED = Counter("svc_live_messages_fanned_out", "Live changes handed to stream subscribers (one per subscriber)")
HOOK_DELIVERIES = Counter(
    "svc_webhook_deliveries",
    "Webhook delivery tries, by outcome (succeeded; retry: failed, "
    "tried again later; ended: failed for good or nothing left to send)",
    ["outcome"],
)
HOOK_QUEUE = Gauge(
    "svc_webhook_queue",
    "Webhook deliveries pending (due now or later) over the whole database",
    multiprocess_mode="max",
)
DB_IN_USE = Gauge(
    "svc_db_connections_in_use",
    "Database operations in flight, each holding one pooled connection",
    multiprocess_mode="livesum",
)
DB_BRIDGE_WAIT = Histogram(
    "svc_db_bridge_wait_seconds",
    "From a Trio task handing work to the database thread to the work starting there",
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1),
)
DB_STATEMENTS = Counter(
    "svc_db_statements",
    "Named statements run one at a time through the pools (fetch, fetchrow, fetchval, execute; not those of "
    "a transaction or a dedicated connection), by where they ran (primary, replica)",
    ["target"],
)
REPLICA_FALLBACKS = Counter(
    "svc_db_replica_fallbacks",
    "Replica reads answered by the primary instead, by reason (down: every replica left alone after a failure; "
    "failed: the replica tried failed; behind: no replica has reached the request's data version)",
    ["reason"],
)


_children: dict[tuple[Any, tuple[str, ...]], Any] = {}


def labelled(family: Any, *values: str) -> Any:
    """`family.labels(*values)`, kept for the next time: labels() takes a lock and checks its values
    on every call, three times per request on the request path (its label values are few: the
    endpoints, their statuses, hit or miss)."""
    child = _children.get((family, values))
    if child is None:
        child = _children[family, values] = family.labels(*values)
    return child


# Every known label value from the start, so a family shows (at 0) before its first event.
for _result in ("hit", "miss"):
    CACHE.labels(_result)
for _code in ("rate_limited", "quota_exceeded", "too_many_streams"):
    REFUSALS.labels(_code)
for _outcome in ("succeeded", "retry", "ended"):
    HOOK_DELIVERIES.labels(_outcome)
for _target in ("primary", "replica"):
    DB_STATEMENTS.labels(_target)
for _reason in ("down", "failed", "behind"):
    REPLICA_FALLBACKS.labels(_reason)


def serve(port: int, host: str = "127.0.0.1") -> None:
    """Serve /metrics on host:port from this process: every worker's numbers when they write to
    the multiprocess directory, this process's own otherwise (a thread of the client's)."""
    if os.environ.get(MULTIPROCESS_DIR):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(port, addr=host, registry=registry)
    else:
        start_http_server(port, addr=host)


def worker_gone(pid: int) -> None:
    """A worker process ended: its live gauges leave the sums (multiprocess mode only)."""
    if os.environ.get(MULTIPROCESS_DIR):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
