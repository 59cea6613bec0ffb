"""Team events (Thomas, Uber and Sudirman Cups): nations' line-ups, groups then knockout,
ties of several matches."""

from __future__ import annotations

import datetime as dt

from svc.world import facts, record
from svc.world.generate.calendar import Edition
from svc.world.generate.champions import champion_of
from svc.world.generate.context import Context
from svc.world.generate.draws import ROUND_NAMES, Event, Match, edition_days, side_strength
from svc.world.generate.ids import make_id, sub_rng
from svc.world.generate.people import Player


class TeamEvent:
    """Thomas / Uber / Sudirman Cup: groups then knockout, ties of several matches."""

    def __init__(self, ctx: Context, ed: Edition):
        self.ctx = ctx
        self.ed = ed
        self.rng = sub_rng(ctx.seed, ed.id, "teams")
        self.ties_out: list[tuple] = []  # the ties rows, in the order played

    def rubbers(self) -> list[str]:
        slug, year = self.ed.series.slug, self.ed.year
        if slug == "thomas-cup":
            return (
                ["MS", "MD", "MS", "MD", "MS", "MD", "MS", "MD", "MS"]
                if year < 1984
                else ["MS", "MD", "MS", "MD", "MS"]
            )
        if slug == "uber-cup":
            return ["WS", "WD", "WS", "WD", "WS", "WD", "WD"] if year < 1984 else ["WS", "WD", "WS", "WD", "WS"]
        return ["XD", "WS", "MS", "WD", "MD"]

    def lineup(self, nation: str, rubbers: list[str]) -> list[tuple[Player, ...]] | None:
        """Players for each rubber, or None when the nation cannot field a team.

        At most three singles players and two pairs per discipline; in the long early ties the
        best of them play twice (first singles twice, first pair twice ...), and a singles
        player may also play doubles.
        """
        year = self.ed.play_year
        people = self.ctx.people
        free = people.bookings.free_for(self.ed.id, self.ed.start, self.ed.end)

        def squad(g: str, disc: str) -> list[Player]:
            # those who play the discipline first, the strongest first; others only to make up a team
            pool = [p for p in people.active("senior", g, year) if p.country == nation and free(p)]
            pool.sort(key=lambda p: (disc not in p.events, -p.strength(year), p.idx))
            return pool

        singles: dict[str, list[tuple[Player, ...]]] = {}
        doubles: dict[str, list[tuple[Player, ...]]] = {}
        for disc in sorted(set(rubbers)):
            n = rubbers.count(disc)
            if disc in ("MS", "WS"):
                pool = squad("M" if disc == "MS" else "W", disc)
                k = min(3, n, len(pool))  # a small nation's best play more than one singles
                if k == 0:
                    return None
                singles[disc] = [(p,) for p in pool[:k]]
            else:
                g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[disc]
                a_pool = squad(g1, disc)
                k = min(2, n, len(a_pool) // 2 if g1 == g2 else len(a_pool))
                if g1 == g2:
                    if k == 0:
                        return None
                    doubles[disc] = [(a_pool[2 * i], a_pool[2 * i + 1]) for i in range(k)]
                else:
                    b_pool = squad(g2, disc)
                    k = min(k, len(b_pool))
                    if k == 0:
                        return None
                    doubles[disc] = [(a_pool[i], b_pool[i]) for i in range(k)]
        seen: dict[str, int] = {}
        out = []
        for disc in rubbers:
            i = seen.get(disc, 0)
            seen[disc] = i + 1
            options = singles.get(disc) or doubles[disc]
            out.append(options[i % len(options)])
        people.bookings.book([p for entry in out for p in entry], self.ed.id, self.ed.start, self.ed.end)
        return out

    def play(self) -> list[Match]:
        """The whole event: the teams, then groups and knockout, played out until the record's
        champion nation wins it where the record names one (champions.champion_of)."""
        ed = self.ed
        rubbers = self.rubbers()
        year = ed.play_year
        champion = record.champion_nation(ed.series.slug, ed.year, record.TEAM)
        nations = [n for n, _s in facts.nation_strengths(year)]
        teams = []
        for n in nations:
            lu = self.lineup(n, rubbers)
            if lu:
                teams.append((sum(side_strength(s, year) for s in lu) / len(lu), n, lu))
        teams.sort(key=lambda t: (-t[0], t[1]))
        n_groups = 4 if year >= 2004 and len(teams) >= 16 else 2
        field = teams[: n_groups * 4]
        if len(field) < n_groups * 4:  # too few nations can field a team: fewer groups
            n_groups = 2 if len(field) >= 8 else 1 if len(field) >= 4 else 0
            field = field[: n_groups * 4]
        if n_groups < 1:
            return []
        if champion is not None and champion not in {n for _s, n, _lu in field}:
            # the record's champion was there: it takes the last place
            field[-1:] = [t for t in teams if t[1] == champion][:1] or field[-1:]
            field.sort(key=lambda t: (-t[0], t[1]))
        self.champion = champion if champion in {n for _s, n, _lu in field} else None
        self.form = 0.0
        self.attempt = 0
        probe = Event(self.ctx, ed, "team", None)
        probe.champion = self.champion
        return champion_of(
            self.ctx, probe, lambda: self.contest(probe, field, n_groups, rubbers), lambda _matches: self.winner
        )

    def contest(self, probe: Event, teams, n_groups: int, rubbers: list[str]) -> list[Match]:
        """Groups then knockout between `teams` (strongest first), one try (probe.rng and
        probe.champion_form set by champion_of)."""
        self.attempt += 1
        self.form = probe.champion_form
        self.ties_out = []
        self.winner: str | None = None
        lineups = {n: lu for _s, n, lu in teams}
        groups: dict[str, list[str]] = {chr(65 + g): [] for g in range(n_groups)}
        for i, (_s, n, _lu) in enumerate(teams):  # snake seeding into groups
            row, col = divmod(i, n_groups)
            gname = chr(65 + (col if row % 2 == 0 else n_groups - 1 - col))
            groups[gname].append(n)
        matches: list[Match] = []
        self.number = 0
        standings = {}
        for g in sorted(groups):
            members = groups[g]
            score = {n: [0, 0] for n in members}
            k = 0
            for i in range(len(members)):
                for j in range(i + 1, len(members)):
                    res = self.tie(
                        f"Group {g}",
                        None,
                        members[i],
                        members[j],
                        lineups,
                        rubbers,
                        k % 3,
                        k,
                        matches,
                        stop_when_decided=False,
                    )
                    k += 1
                    w = members[i] if res[0] > res[1] else members[j]
                    score[w][0] += 1
                    score[members[i]][1] += res[0] - res[1]
                    score[members[j]][1] += res[1] - res[0]
            standings[g] = sorted(members, key=lambda n: (-score[n][0], -score[n][1], n))
        if n_groups == 4:
            ko = [
                (standings["A"][0], standings["B"][1]),
                (standings["C"][0], standings["D"][1]),
                (standings["B"][0], standings["A"][1]),
                (standings["D"][0], standings["C"][1]),
            ]
            stages = [("QF", 4), ("SF", 5), ("F", 6)]
        elif n_groups == 2:
            ko = [(standings["A"][0], standings["B"][1]), (standings["B"][0], standings["A"][1])]
            stages = [("SF", 5), ("F", 6)]
        else:
            ko = [(standings["A"][0], standings["A"][1])]
            stages = [("F", 6)]
        for code, day in stages:
            winners = []
            for p, (t1, t2) in enumerate(ko):
                res = self.tie(
                    ROUND_NAMES[code], code, t1, t2, lineups, rubbers, day, p, matches, stop_when_decided=True
                )
                winners.append(t1 if res[0] > res[1] else t2)
            ko = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
            if len(winners) == 1:
                self.winner = winners[0]
        return matches

    def tie(
        self,
        stage: str,
        code: str | None,
        t1: str,
        t2: str,
        lineups,
        rubbers,
        day_index: int,
        index_in_stage: int,
        matches: list[Match],
        stop_when_decided: bool,
    ) -> tuple[int, int]:
        ed = self.ed
        self.number += 1
        tie_id = make_id("ti_", ed.id, stage, index_in_stage)
        need = len(rubbers) // 2 + 1
        s = [0, 0]
        for order, disc in enumerate(rubbers, 1):
            if stop_when_decided and max(s) >= need:
                break
            ev = Event(self.ctx, ed, disc, None)
            # the first try plays each rubber from its own stream; a try again, from another
            ev.rng = sub_rng(self.ctx.seed, tie_id, order, *(("again", self.attempt) if self.attempt > 1 else ()))
            ev.champion, ev.champion_form = self.champion, self.form
            m = ev.new_match(
                code,
                stage,
                index_in_stage * len(rubbers) + order,
                lineups[t1][order - 1],
                lineups[t2][order - 1],
                tie_id=tie_id,
                tie_order=order,
            )
            ev.play(m, min(day_index, edition_days(ed) - 1))
            s[m.winner - 1] += 1
            matches.append(m)
        day = ed.start + dt.timedelta(days=min(day_index, edition_days(ed) - 1)) if ed.start else None
        self.ties_out.append(
            (tie_id, ed.id, stage, code, self.number, t1, t2, s[0], s[1], 1 if s[0] > s[1] else 2, day, ed.venue_name)
        )
        return s[0], s[1]
