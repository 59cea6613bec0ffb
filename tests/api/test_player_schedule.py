"""A player's schedule on the tiny world: events newest first as on a chosen day, rest between
events, back-to-back runs, and meta as on that day; checked against the match rows (SQL), stats
and titles."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.support import NOON, sql

TODAY = NOON.date()


@pytest.fixture(scope="module")
def traveller(db_url):
    """The player who played in the most editions, up to 100 (so that `last=100` shows the
    whole career, which the agreements below compare with career totals)."""
    return sql(
        db_url,
        """
        SELECT p FROM matches m, unnest(m.side1 || m.side2) p GROUP BY p
        HAVING count(DISTINCT m.tournament_id) <= 100
        ORDER BY count(DISTINCT m.tournament_id) DESC, p LIMIT 1""",
    )[0]["p"]


def d(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


async def test_schedule_rows_chain_rest_and_runs(client, traveller, key):
    r = await client.get(f"/v1/players/{traveller}/schedule", key, last=100)
    assert r.status_code == 200
    rows = r.json_body["data"][::-1]  # oldest first
    assert len(rows) > 3
    assert rows[0]["rest_days"] is None and rows[0]["back_to_back"] is False and rows[0]["week_run"] == 1
    for prev, row in zip(rows, rows[1:]):
        assert d(row["start"]) >= d(prev["start"])
        gap = (d(row["start"]) - d(prev["end"])).days
        assert row["rest_days"] == max(0, gap - 1)
        assert row["back_to_back"] == (gap <= 7)
        assert row["week_run"] == (prev["week_run"] + 1 if row["back_to_back"] else 1)
    assert all(d(x["start"]) <= TODAY for x in rows)
    newest_first = [x["start"] for x in r.json_body["data"]]
    assert newest_first == sorted(newest_first, reverse=True)
    one = (await client.get(f"/v1/players/{traveller}/schedule", key, last=1)).json_body["data"]
    assert one == [r.json_body["data"][0]]


async def test_schedule_agrees_with_stats_and_titles(client, traveller, key):
    rows = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100)).json_body["data"]
    stats = (await client.get(f"/v1/players/{traveller}/stats", key)).json_body["data"][0]
    titles = (await client.get(f"/v1/players/{traveller}/titles", key)).json_body["data"]
    assert sum(x["matches"] for x in rows) == stats["matches"]
    assert sum(x["wins"] for x in rows) == stats["wins"]
    won = {t["tournament"]["id"] for t in titles if t["result"] == "W"}
    assert {x["tournament"]["id"] for x in rows if x["title"]} == won
    assert all(x["furthest"] == "F" for x in rows if x["title"])
    reached = {t["tournament"]["id"] for t in titles}
    assert all(x["furthest"] == "F" for x in rows if x["tournament"]["id"] in reached)


async def test_schedule_as_on_an_earlier_day(client, db_url, key):
    # A final won: the day before it, the event shows no title and one match fewer played by then.
    f = sql(
        db_url,
        """
        SELECT m.tournament_id, m.day, CASE m.winner WHEN 1 THEN m.side1[1] ELSE m.side2[1] END AS p
        FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE m.round_code = 'F' AND NOT t.team AND m.status = 'finished' AND m.day > t.start_date
          AND NOT EXISTS (SELECT 1 FROM matches o WHERE o.tournament_id = m.tournament_id AND o.day = m.day
            AND o.id <> m.id
                          AND (CASE m.winner WHEN 1 THEN m.side1[1] ELSE m.side2[1] END) = ANY(o.side1 || o.side2))
        ORDER BY m.day DESC, m.id LIMIT 1""",
    )[0]
    on = (await client.get(f"/v1/players/{f['p']}/schedule", key, date=f["day"].isoformat(), last=100)).json_body
    before = (
        await client.get(
            f"/v1/players/{f['p']}/schedule", key, date=(f["day"] - dt.timedelta(days=1)).isoformat(), last=100
        )
    ).json_body
    row_on = next(x for x in on["data"] if x["tournament"]["id"] == f["tournament_id"])
    row_before = next(x for x in before["data"] if x["tournament"]["id"] == f["tournament_id"])
    assert row_on["title"] is True and row_before["title"] is False
    assert row_on["matches"] == row_before["matches"] + 1 and row_on["wins"] == row_before["wins"] + 1
    assert row_before["furthest"] == "F"  # the semi-final was won, so the final was reached
    assert on["meta"]["date"] == f["day"].isoformat() and on["meta"]["days_since_last_event"] == 0
    assert all(d(x["start"]) <= f["day"] for x in on["data"])
    later = sql(
        db_url,
        """SELECT count(DISTINCT m.tournament_id) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                           WHERE $1 = ANY(m.side1 || m.side2) AND t.start_date > $2""",
        f["p"],
        f["day"],
    )[0]["n"]
    now = (await client.get(f"/v1/players/{f['p']}/schedule", key, last=100)).json_body
    assert len(now["data"]) >= len(on["data"]) + later


async def test_schedule_meta_windows(client, db_url, traveller, key):
    r = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100)).json_body
    meta = r["meta"]
    assert meta["date"] == TODAY.isoformat()
    for n in (30, 60, 90):
        since = TODAY - dt.timedelta(days=n)
        played = sql(
            db_url,
            """SELECT count(*) AS n FROM matches WHERE $1 = ANY(side1 || side2) AND status = 'finished'
                                AND day > $2 AND day <= $3""",
            traveller,
            since,
            TODAY,
        )[0]["n"]
        events = sum(1 for x in r["data"] if d(x["end"]) > since)
        assert meta[f"last_{n}_days"] == {"events": events, "matches": played}
    newest_end = max(min(d(x["end"]), TODAY) for x in r["data"])
    assert meta["days_since_last_event"] == (TODAY - newest_end).days
    early = (await client.get(f"/v1/players/{traveller}/schedule", key, date="1800-01-01")).json_body
    assert early["data"] == [] and early["meta"]["days_since_last_event"] is None
    for edge in ("0001-01-01", "9999-12-31"):
        r = await client.get(f"/v1/players/{traveller}/schedule", key, date=edge)
        assert r.status_code == 200 and r.json_body["meta"]["date"] == edge


async def test_schedule_discipline_filter(client, traveller, key):
    rows = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100)).json_body["data"]
    discipline = rows[0]["disciplines"][0]
    only = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100, discipline=discipline)).json_body[
        "data"
    ]
    assert only and all(x["disciplines"] == [discipline] for x in only)
    assert {x["tournament"]["id"] for x in only} == {
        x["tournament"]["id"] for x in rows if discipline in x["disciplines"]
    }
    stats = (await client.get(f"/v1/players/{traveller}/stats", key, discipline=discipline)).json_body["data"][0]
    assert sum(x["matches"] for x in only) == stats["matches"]
