"""The asyncpg-on-Trio bridge (svc.core.db) against a bare asyncpg loop on asyncio, same query,
same pool size, in one run: what awaiting PostgreSQL from Trio costs."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import trio

from svc.core.db import Database
from svc.core.sqlfiles import Statement

QUERY = "SELECT id, name, country FROM players ORDER BY id LIMIT 1 OFFSET 100"
STMT = Statement(name="bench-query", sql=QUERY, params=(), source="bench")


def _summary(latencies: list[float], seconds: float) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "qps": len(ordered) / seconds,
        "p50_us": ordered[len(ordered) // 2] * 1e6,
        "p99_us": ordered[int(len(ordered) * 0.99)] * 1e6,
    }


def bare_asyncpg(url: str, concurrency: int, seconds: float) -> dict[str, float]:
    async def main():
        pool = await asyncpg.create_pool(url, min_size=concurrency, max_size=concurrency)
        latencies: list[float] = []
        until = time.perf_counter() + seconds

        async def loop():
            while time.perf_counter() < until:
                t = time.perf_counter()
                await pool.fetch(QUERY)
                latencies.append(time.perf_counter() - t)

        started = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
        await pool.close()
        return _summary(latencies, elapsed)

    return asyncio.run(main())


def trio_bridge(url: str, concurrency: int, seconds: float) -> dict[str, float]:
    async def main():
        db = Database(url, pool_size=concurrency)
        await db.open()
        latencies: list[float] = []
        until = time.perf_counter() + seconds

        async def loop():
            while time.perf_counter() < until:
                t = time.perf_counter()
                await db.fetch(STMT)
                latencies.append(time.perf_counter() - t)

        started = time.perf_counter()
        async with trio.open_nursery() as nursery:
            for _ in range(concurrency):
                nursery.start_soon(loop)
        elapsed = time.perf_counter() - started
        await db.close()
        return _summary(latencies, elapsed)

    return trio.run(main)


def run(url: str, seconds: float) -> list[str]:
    lines = [
        "| concurrency | bare asyncpg q/s | bridge q/s | ratio "
        "| bare p50 µs | bridge p50 µs | bare p99 µs | bridge p99 µs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for concurrency in (1, 8, 32):
        bare = bare_asyncpg(url, concurrency, seconds)
        bridge = trio_bridge(url, concurrency, seconds)
        lines.append(
            f"| {concurrency} | {bare['qps']:.0f} | {bridge['qps']:.0f} | {bridge['qps'] / bare['qps']:.2f} "
            f"| {bare['p50_us']:.0f} | {bridge['p50_us']:.0f} | {bare['p99_us']:.0f} | {bridge['p99_us']:.0f} |"
        )
    return lines
