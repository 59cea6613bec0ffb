"""Reading a generated bundle for the world's rule checks (tests/world/test_rules.py,
play_checks.py, realism_checks.py): its tables as rows of text, the arrays and times parsed, and the
seed and day the tiny bundle is made with."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from svc.world.bundle import TABLES, read_manifest

SEED = 7
AS_OF = dt.date(2026, 11, 18)
NOW = dt.datetime(2026, 11, 18, 12, tzinfo=dt.UTC)
KNOCKOUT = ("R128", "R64", "R32", "R16", "QF", "SF", "F")


# --------------------------------------------------------------------------- reading a bundle


def array(text: str) -> list[str]:
    inner = text.strip("{}")
    return inner.split(",") if inner else []


def int_array(text: str) -> list[int]:
    return [int(x) for x in array(text)]


def ts(text: str) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text) if text else None


class World:
    def __init__(self, path: Path):
        self.path = path
        self.manifest = read_manifest(path, verify_checksums=True)
        self.tables = {}
        for table, cols in TABLES:
            with open(path / f"{table}.csv", encoding="utf-8", newline="") as f:
                rows = list(csv.reader(f))
            assert tuple(rows[0]) == cols, table
            self.tables[table] = [dict(zip(cols, r)) for r in rows[1:]]
        self.tournaments = {t["id"]: t for t in self.tables["tournaments"]}
        self.matches = self.tables["matches"]
        for m in self.matches:
            m["s1"], m["s2"] = array(m["side1"]), array(m["side2"])
            m["G1"], m["G2"] = int_array(m["g1"]), int_array(m["g2"])
            m["W"] = int(m["winner"]) if m["winner"] else None
            m["P"] = int(m["position"])

    def match_day(self, m: dict) -> dt.date:
        if m["day"]:
            return dt.date.fromisoformat(m["day"])
        t = self.tournaments[m["tournament_id"]]
        if t["start_date"]:
            return dt.date.fromisoformat(t["start_date"])
        return dt.date(int(t["year"]), 7, 1)
