"""The world's fact files (svc/world/data/) read into typed records: the places (countries,
cities, halls), the events (series, hosts, calendars, tiers, para) and the people (nations' strengths,
stars, name pools), each module reading its own files with the readers of `reading`.

The tables the generated world keeps to, and the country names the BWF importer maps, are data,
not code: flat tables in CSV (a header row; a line starting with `#` is a comment, so each file
opens with its sources), nested ones in TOML (a `sources` key). These modules only read them; the
modules that own the facts (`facts`, `naming`, `sources.countries`) ask for what they need once,
at import, and keep the lookups over them. The readers live together, beside the modules that use
them rather than in the data folder, because the files refer to each other (hosts and venues name
cities, nations name countries, pools name pools) and one table serves two owners: the country
table is the generated world's and the importer's.

Row order is kept everywhere: the generator iterates these tables and what it writes follows
their order, so a file's row order is part of the world. A city's id is written in its
row, never taken from its position, so a row added anywhere leaves every other id as it was.
A file that does not read (a column or key missing or unknown, a value of the wrong kind, a
row twice, a code or city the other files do not hold) fails the import, naming the file and,
for a CSV row, its line.
"""
