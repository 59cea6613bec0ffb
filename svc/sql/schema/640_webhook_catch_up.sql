-- Webhook catch-up after a pause (svc_hooks.catchup). The fan-out makes deliveries for active
-- endpoints only, so the events written while an endpoint is paused get none; `hooks resume`
-- makes them from the outbox. Two things make that exact:
--
-- webhook_endpoints.paused_after_seq: the fan-out cursor (webhook_fanout.last_seq) when the
-- endpoint was paused. Every event up to it was fanned out while the endpoint was still
-- active, so only events after it can lack a delivery. Set with the pause, cleared by resume.
--
-- webhook_deliveries.event_seq: the event's place in the outbox (match_events.seq), so that
-- due deliveries are claimed in outbox order (a resumed endpoint's backlog goes out oldest
-- first, the deliveries begun before the pause and the events of the pause in one order).
ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS paused_after_seq bigint;
-- NULL only for a delivery whose event was gone from the outbox before this column existed.
ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS event_seq bigint;

UPDATE webhook_deliveries d SET event_seq = ev.seq
FROM match_events ev
WHERE ev.id = d.event_id AND d.event_seq IS NULL;

-- An endpoint paused before this migration has no recorded cursor: its newest delivery is
-- where the fan-out stopped serving it (nothing after it was fanned out to it).
UPDATE webhook_endpoints e
SET paused_after_seq = greatest(e.from_seq, coalesce((SELECT max(d.event_seq) FROM webhook_deliveries d
                                                       WHERE d.endpoint_id = e.id), 0))
WHERE e.state = 'paused' AND e.paused_after_seq IS NULL;

ALTER TABLE webhook_endpoints DROP CONSTRAINT IF EXISTS webhook_endpoints_paused_after_seq;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_paused_after_seq
    CHECK ((state = 'paused') = (paused_after_seq IS NOT NULL));

-- The claim's order: due first, then the outbox's.
DROP INDEX IF EXISTS webhook_deliveries_due;
CREATE INDEX IF NOT EXISTS webhook_deliveries_due_in_order ON webhook_deliveries(next_try_at, event_seq, id)
    WHERE state = 'pending';
