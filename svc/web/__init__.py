"""HTTP without the resources: the app put together (app), the path of one request (pipeline),
paging (paging), what no endpoint answers (refusals), CORS (cors), /healthz (health), JSON
answers (responses), the components beside the app (supervisor), endpoint declarations
(endpoint), parameters (params), records and their converter (records, live_records, convert),
the OpenAPI description (openapi), /docs (docs), the answer cache (cache), the connection's end
(connection) and what every request of a worker shares (service)."""
