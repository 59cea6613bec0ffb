"""The live hub: per-key stream slots, Server-Sent Events, heartbeats, fan-out of the change
log to every stream of this worker (hub, slots, sse, stream), the component that runs it
(components), its own endpoints /v1/live and /v1/live/stream (endpoints) and the /live page
(pages). See svc_live/README.md."""

"""svc_live: the live hub (per-key stream slots, Server-Sent Events, heartbeats). Its own
endpoints: /v1/live and /v1/live/stream (endpoints.py), the /live page (pages.py)."""
