"""New results as a feed delivers them: a folder of match files in the format of
bwf-world-tour/ (any of ms.csv ... xd.csv) and/or ranking weeks in the format of
bwf-world-ranking/ (<YYYY-MM-DD>/MS.csv ...), added to the world a database holds.

In one transaction, while the service serves:
- players already held keep their ids (a new spelling of one is that player); new ones are added;
- a doubles side two (the files keep one of its players) takes the partner the increment shows,
  else the one the database holds for that player in the edition, else in the nearest one;
- editions, series and host cities not held are added; a held edition's dates widen to its days;
- a match not held is added (with its rallies); a match held (same edition, discipline, round and
  players) whose score or winner differs is corrected: the corrections table keeps the score first
  published, and the change goes through the change log as `corrected` -- exactly as the live
  feed's corrections, so `result.corrected` webhooks fire;
- ranking rows not held are added;
- only the derived tables that read what changed are rebuilt.
The same increment applied twice changes nothing the second time.

A row with any fault (too few or too many columns, no name, a country the mapping does not know,
a date, score, winner or round that does not read, the same match twice in a file ...: the
checks are the readers', svc.world.sources.rows) is refused: nothing of it is applied -- no
player, country, edition or match comes from it -- and the report lists it with its file and
line; the rest of the increment applies. Refusing rather than keeping what is certain, as the
full import does: an increment changes a world that serves, and a match or correction built on a
guess would overwrite what is held.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from pathlib import Path
from typing import Any

import asyncpg
import attrs

from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc.world import derived
from svc.world.feed.publish import publish
from svc.world.sources.bundle_rows import edition_row, match_row, player_row, rally_rows
from svc.world.sources.bwf import Builder
from svc.world.sources.countries import IOC
from svc.world.sources.import_report import Report


@attrs.define
class IncrementReport:
    matches_added: int = 0
    matches_corrected: int = 0
    matches_unchanged: int = 0
    editions_added: int = 0
    players_added: int = 0
    ranking_rows_added: int = 0
    derived_rebuilt: list[str] = attrs.field(factory=list)
    source: Report = attrs.field(factory=Report)  # what reading the files found (problems, partners ...)

    def lines(self) -> list[str]:
        out = [
            f"matches added: {self.matches_added}, corrected: {self.matches_corrected}, "
            f"unchanged: {self.matches_unchanged}",
            f"editions added: {self.editions_added}; players added: {self.players_added}; "
            f"ranking rows added: {self.ranking_rows_added}",
            f"derived tables rebuilt: {', '.join(self.derived_rebuilt) or 'none (nothing changed)'}",
        ]
        d = self.source.as_dict()
        out.append(f"doubles side two partner: {d['doubles_side_two_partner']}; retirements: {d['retirements']}")
        out.append(
            f"rows refused (nothing of them applied): {self.source.rows_refused}; "
            f"problems, each with its file and line: {len(self.source.problems)}"
        )
        out += [f"  {p}" for p in self.source.problems]
        return out


def _folders(path: Path) -> tuple[Path, Path | None]:
    """Where the match files and the ranking weeks are: the folder itself, or its bwf-world-tour/
    and bwf-world-ranking/ sub-folders."""
    tour = path / "bwf-world-tour" if (path / "bwf-world-tour").is_dir() else path
    ranking = path / "bwf-world-ranking" if (path / "bwf-world-ranking").is_dir() else path
    return tour, ranking


def _sides(m: dict[str, Any]) -> frozenset[str]:
    return frozenset(p.id for p in m["side1"]) | frozenset(p.id for p in m["side2"])


async def apply_increment(conn: asyncpg.Connection, path: Path, now: dt.datetime) -> IncrementReport:
    """Add the increment in `path` to the world in the database (see the module)."""
    report = IncrementReport()
    held = [(r["id"], r["name"], r["country"]) for r in await Tx(conn).fetch(Q.increment.players)]
    pairs = [
        (r["tournament_id"], r["discipline"], r["day"], list(r["pair"]))
        for r in await Tx(conn).fetch(Q.increment.pairs)
    ]
    builder = Builder(path, report.source, held, pairs)
    tour, ranking = _folders(Path(path))
    matches, rankings = builder.read(tour, ranking, all_files=False, strict=True)
    changed: set[str] = set()
    async with conn.transaction():
        held_ids = {r[0] for r in held}
        new_people = [p for p in builder.people.values() if p.id not in held_ids]
        for code in sorted(
            {p.country for p in new_people if p.country}
            | {ed["country"] for ed in builder.editions.values() if ed["country"]}
        ):
            # IOC[code], never the code as a name: every code here passed the readers' check against
            # the country mapping, so one it does not know is a fault of ours and stops the increment
            await Tx(conn).execute(Q.increment.country_add, code=code, name=IOC[code])
        rows = [player_row(p)[:5] for p in new_people]
        await Tx(conn).execute(
            Q.increment.players_add,
            ids=[x[0] for x in rows],
            names=[x[1] for x in rows],
            slugs=[x[2] for x in rows],
            countries=[x[3] for x in rows],
            genders=[x[4] for x in rows],
        )
        report.players_added = len(new_people)
        if new_people:
            changed.add("players")
        for ed in builder.editions.values():
            if await _edition(conn, ed):
                report.editions_added += 1
                changed.add("tournaments")
        held_matches: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
        for h in await Tx(conn).fetch(
            Q.increment.matches_of_editions, tournaments=sorted({m["edition"]["id"] for m in matches})
        ):
            held_matches[(h["tournament_id"], h["discipline"], h["round_name"])].append(dict(h))
        rallies: list[tuple] = []
        for m in matches:
            outcome = await _match(
                conn, m, held_matches[(m["edition"]["id"], m["discipline"], m["round_name"])], rallies, now
            )
            setattr(report, f"matches_{outcome}", getattr(report, f"matches_{outcome}") + 1)
            if outcome != "unchanged":
                changed.update(("matches", "rallies", "corrections"))
        await conn.executemany(Q.increment.rally_add.sql, rallies)  # rows in the statement's parameter order
        if rankings:
            columns = list(zip(*rankings))
            added = await Tx(conn).fetch(
                Q.increment.rankings_add,
                weeks=list(columns[0]),
                disciplines=list(columns[1]),
                ranks=list(columns[2]),
                names=list(columns[3]),
                player1s=list(columns[4]),
                player2s=list(columns[5]),
                points=list(columns[6]),
                fulls=list(columns[7]),
            )
            report.ranking_rows_added = len(added)
            if added:
                changed.add("rankings")
        if changed:
            report.derived_rebuilt = await derived.rebuild(conn, changed)
    return report


async def _edition(conn: asyncpg.Connection, ed: dict[str, Any]) -> bool:
    """The edition (its series and host city too) when not held; a held one's dates widened.
    Whether it was added."""
    await Tx(conn).execute(Q.increment.series_add, slug=ed["series"], name=ed["series_name"], year=ed["year"])
    city = await Tx(conn).fetchval(Q.increment.city, name=ed["city"], country=ed["country"]) if ed["city"] else None
    row = edition_row(ed, city, None)
    added = await Tx(conn).fetchval(
        Q.increment.edition_add,
        id=row[0],
        series=row[1],
        name=row[2],
        year=row[3],
        level=row[4],
        tier=row[7],
        first=row[8],
        last=row[9],
        city_id=row[10],
        cancelled=row[15],
    )
    if not added:
        await Tx(conn).execute(Q.increment.edition_days, id=ed["id"], first=min(ed["days"]), last=max(ed["days"]))
    return bool(added)


async def _match(
    conn: asyncpg.Connection, m: dict[str, Any], held: list[dict[str, Any]], rallies: list[tuple], now: dt.datetime
) -> str:
    """added, corrected or unchanged. `held`: the matches held in the match's round (a match added
    joins it); `rallies`: where a match added puts its rallies."""
    values = match_row(m)
    same = next((h for h in held if frozenset(h["side1"]) | frozenset(h["side2"]) == _sides(m)), None)
    if same is None:
        position = m["position"]
        taken = {h["position"] for h in held}
        while position in taken:  # a place of the rebuilt draw that another match holds
            position += 1
        values = match_row(m, position)
        await Tx(conn).execute(
            Q.increment.match_add,
            id=values[0],
            event_id=values[1],
            tournament_id=values[2],
            discipline=values[3],
            round_code=values[5],
            round_name=values[6],
            position=values[7],
            side1=values[10],
            side2=values[11],
            g1=values[14],
            g2=values[15],
            winner=values[16],
            outcome=values[17],
            day=values[19],
        )
        held.append(
            {
                "id": values[0],
                "position": position,
                "side1": values[10],
                "side2": values[11],
                "g1": values[14],
                "g2": values[15],
                "winner": values[16],
            }
        )
        if m["row"].rallies:
            rallies.extend(rally_rows(values[0], m["row"].rallies))
        return "added"
    g1, g2, winner = values[14], values[15], values[16]
    if m["side1"][0].id not in same["side1"]:  # told the other way round: turn it
        g1, g2, winner = g2, g1, (3 - winner if winner else None)
    if list(same["g1"]) == g1 and list(same["g2"]) == g2 and same["winner"] == winner:
        return "unchanged"
    await Tx(conn).execute(
        Q.increment.correction_add,
        match_id=same["id"],
        at=now,
        old_g1=list(same["g1"]),
        old_g2=list(same["g2"]),
        old_winner=same["winner"],
    )
    await Tx(conn).execute(Q.increment.match_correct, id=same["id"], g1=g1, g2=g2, winner=winner)
    same.update(g1=g1, g2=g2, winner=winner)  # a second row of the same match in this increment compares with it
    await publish(Tx(conn), same["id"], "corrected", now)
    return "corrected"
