"""The live-stream benchmark's report (ops/bench/stream.py): one Markdown table, ours and the peer
side by side per N with ratios (ours / peer), or the memory per stream by layer."""

from __future__ import annotations

import importlib.util
import math


def ratio(a: float, b: float) -> str:
    if math.isnan(a) or math.isnan(b) or b == 0:
        return "–"
    return f"{a / b:.1f}×"


FIGURES = [  # key, label, format
    ("ok", "streams opened", "{:.0f}"),
    ("open_s", "open all (s)", "{:.1f}"),
    ("rss_per_stream_kb", "memory/stream (KiB)", "{:.1f}"),
    ("xacts_per_stream", "database transactions per stream opened", "{:.2f}"),
    ("idle_cpu_pct", "idle CPU, heartbeats only (%)", "{:.1f}"),
    ("reached", "change reached (subscribers)", "{:.0f}"),
    ("p50_ms", "change to every subscriber p50 (ms)", "{:.0f}"),
    ("p99_ms", "change to every subscriber p99 (ms)", "{:.0f}"),
    ("gc_full", "full garbage collections in the run", "{:.0f}"),
    ("gc_max_ms", "longest full collection (ms)", "{:.0f}"),
]


def table(pairs: list[tuple[dict, dict]]) -> str:
    lines = [
        "| streams | figure | ours (Hypercorn, Quart-Trio app) | peer (sse-starlette, uvicorn) | ours / peer |",
        "|---|---|---|---|---|",
    ]
    for ours, peer in pairs:
        for key, label, fmt in FIGURES:
            r = "–" if key in ("ok", "reached", "gc_full", "xacts_per_stream") else ratio(ours[key], peer[key])
            mine, theirs = (
                "–" if math.isnan(side.get(key, math.nan)) else fmt.format(side[key]) for side in (ours, peer)
            )
            lines.append(f"| {ours['streams']} | {label} | {mine} | {theirs} | {r} |")
    return "\n".join(lines)


def layer_table(pairs: list[tuple[dict, dict]]) -> str:
    """Traced bytes alive per stream, by layer, ours beside the peer's."""
    lines = ["| streams | layer | ours: KiB per stream (share) | peer: KiB per stream (share) |", "|---|---|---|---|"]
    for ours, peer in pairs:
        n = ours["streams"]
        totals = {side: sum(r["heap_layers"].values()) or 1 for side, r in (("ours", ours), ("peer", peer))}
        names = sorted(
            set(ours["heap_layers"]) | set(peer["heap_layers"]),
            key=lambda k: -(ours["heap_layers"].get(k, 0) + peer["heap_layers"].get(k, 0)),
        )
        for name in names + ["all"]:
            cells = []
            for side, r in (("ours", ours), ("peer", peer)):
                b = totals[side] if name == "all" else r["heap_layers"].get(name, 0)
                cells.append(f"{b / n / 1024:.1f} ({100 * b / totals[side]:.0f} %)")
            lines.append(f"| {n} | {name} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
