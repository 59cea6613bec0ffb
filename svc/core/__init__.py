"""The bottom layer, knowing nothing of badminton and no web framework: the asyncpg-on-Trio bridge
(db), named SQL statements (sqlfiles, sqlrun), migrations (schema), the clock, the API's error
vocabulary (errors: each code with the HTTP status the interface gives it, so that every layer
above can refuse a call in the interface's terms), settings (every environment variable),
logging, the embedded PostgreSQL (pgserver), the collector settings of a serving worker (heap)
and the command line's progress bar."""
