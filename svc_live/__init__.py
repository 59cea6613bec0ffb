"""svc_live: the live hub (per-key stream slots, Server-Sent Events, heartbeats). Built by the Live issue."""
