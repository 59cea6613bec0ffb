"""Webhooks: signed deliveries of match events to owners' endpoints.

addresses  which URLs and IP addresses may be sent to (SSRF guard)
signing    the body and the X-Svc-Signature header
http       one POST over a connection to a vetted address
schedule   what a try's outcome means and when the next try is due
store      the endpoint operations of the CLI (SQL in svc/sql/queries/hooks/)
fanout     deliveries for new outbox events
catchup    resume: a paused endpoint active again, with the events of its pause (7-day window)
scheduler  the long-running component: claim, send, record, reschedule
notify     the owner's notice when an endpoint is paused (SMTP or log)
cli        `python -m svc hooks ...`
openapi    the OpenAPI `webhooks` section
sample     the Test action: a real recent match sent once, signed, marked test
"""
