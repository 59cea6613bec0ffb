"""svc_hooks: the webhook scheduler (8 tries with backoff, in the same process). Built by the Webhooks issue."""
