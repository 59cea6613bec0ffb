"""HTTP without the resources: the app factory and the path of a request (app), endpoint
declarations (endpoint), parameters (params), records and their converter (records,
live_records, convert), the OpenAPI description (openapi), /docs (docs), the answer cache
(cache) and the per-process state handlers see (service)."""
