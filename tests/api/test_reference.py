"""/v1/countries, /v1/series and /v1/calendar on the tiny world."""

from __future__ import annotations

import datetime as dt

import attrs
import orjson

from svc.api.reference import CountryItem
from svc.web.convert import to_json
from tests.support import NOON, sql

TODAY = NOON.date()


async def test_countries_list_titles_agree_with_finals(client, free, db_url):
    r = await client.get("/v1/countries", free)
    rows = r.json_body["data"]
    assert rows and all(len(c["code"]) == 3 for c in rows)
    for c in rows:
        assert c["titles"] == sum(c["titles_by_discipline"].values())
        assert set(c["titles_by_discipline"]) == {"MS", "WS", "MD", "WD", "XD"}
        assert 0 <= c["active_players"] <= c["players"]
    finals = sql(
        db_url,
        "SELECT count(*) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "WHERE m.round_code = 'F' AND NOT t.team AND m.winner IS NOT NULL",
    )[0]["n"]
    assert finals > 0
    assert sum(c["titles"] for c in rows) >= finals  # every final won counts for at least one nation


async def test_countries_list_as_postgresql_writes_it_is_what_the_records_give(client, free, db_url):
    """The list goes out as the JSON PostgreSQL writes for each row (svc.web.convert.rows_json):
    the same bytes the records of its table would give through the converter, in name order."""
    body = await (await client.get("/v1/countries", free)).get_data()
    rows = sql(db_url, "SELECT * FROM country_stats ORDER BY name")
    records = [CountryItem(**{f.name: r[f.name] for f in attrs.fields(CountryItem)}) for r in rows]
    expected = to_json(records)
    data = orjson.loads(body)["data"]
    assert orjson.dumps(data) == expected  # same values, same keys in the same order
    assert expected[1:-1] in body  # ... and the same bytes: no whitespace of PostgreSQL's own


async def test_series_list(client, free):
    rows = (await client.get("/v1/series", free)).json_body["data"]
    by_slug = {s["series"]: s for s in rows}
    assert by_slug["all-england"]["first_year"] == 1899
    for s in rows:
        assert set(s) >= {"series", "name", "level", "first_year", "last_year", "editions"}
        assert s["level"] in ("senior", "junior")
        assert s["last_year"] is None or s["first_year"] <= s["last_year"]


async def test_calendar_in_date_order_with_status(client, free):
    r = await client.get("/v1/calendar", free)
    assert r.json_body["meta"]["year"] == TODAY.year
    rows = r.json_body["data"]
    starts = [e["start"] for e in rows if e["start"]]
    assert starts == sorted(starts)
    for e in rows:
        start = e["start"] and dt.date.fromisoformat(e["start"])
        end = e["end"] and dt.date.fromisoformat(e["end"])
        expected = (
            "unknown"
            if not start
            else "upcoming"
            if start > TODAY
            else "finished"
            if (end or start) < TODAY
            else "in_progress"
        )
        assert e["status"] == expected
    assert "in_progress" in {e["status"] for e in rows}
    assert "upcoming" in {
        e["status"] for e in (await client.get("/v1/calendar", free, year=TODAY.year + 1)).json_body["data"]
    }
    para = (await client.get("/v1/calendar", free, level="para", year=2024)).json_body["data"]
    assert para and all(e["series"].startswith("para") or e["series"] == "paralympic-games" for e in para)
    one = (await client.get("/v1/calendar", free, series="all-england", year=TODAY.year)).json_body["data"]
    assert all(e["series"] == "all-england" for e in one)
