-- Webhook secret rotation (`hooks rotate`, svc_hooks.rotation): the new secret goes in `secret`,
-- the one it replaces in previous_secret until previous_secret_until; deliveries made before
-- that moment are signed with both, so a receiver still holding the old secret keeps verifying
-- while its owner deploys the new one. A rotation with no overlap leaves both NULL. After the
-- moment the previous secret signs nothing; the next rotation overwrites it.
--
-- The secret column keeps what it held: secrets made before Standard Webhooks (whsec_ and 48
-- hex digits) are valid base64 and serve both signatures unchanged (svc_hooks/signing.py).
ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS previous_secret text;
ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS previous_secret_until timestamptz;

ALTER TABLE webhook_endpoints DROP CONSTRAINT IF EXISTS webhook_endpoints_previous_secret;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_previous_secret
    CHECK ((previous_secret IS NULL) = (previous_secret_until IS NULL));
