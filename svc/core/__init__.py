"""The bottom layer, knowing nothing of badminton or HTTP: the asyncpg-on-Trio bridge (db),
named SQL statements (sqlfiles, sqlrun), migrations (schema), the clock, errors, settings
(every environment variable), logging, the embedded PostgreSQL (pgserver), the collector
settings of a serving worker (heap) and the command line's progress bar."""
