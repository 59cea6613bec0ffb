"""The change log of matches, the one owner of `live_changes`, the outbox `match_events`,
their NOTIFY channel and the webhook event types (changes), and the LISTEN connection
(listen). The live feed writes through it; the hub and the webhook scheduler read through it."""
