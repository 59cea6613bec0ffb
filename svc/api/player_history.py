"""A player's history, one endpoint per sub-resource of /v1/players/{id}: matches, partners,
opponents, titles, form, schedule and stats. Partners, opponents and titles read the tables
built at import from one row per player per match (svc/sql/derived/70_player_match.sql); stats
sums the per-player, per-discipline, per-year table (svc/sql/derived/71_player_stats.sql)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.api.players import PlayerPath, Result, player_ref, player_refs, rate, require_player, result, sided_games
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import DISCIPLINES, ROUND_CODES, check_range, discipline_param, param, path_id, year_param
from svc.web.records import Discipline, DrawMatch, PlayerRef, TournamentRef, draw_match_from_row, told_from

OPPONENTS_LIMIT = 20  # interface.md: opponents limit 1 to 100, default 20
OPPONENTS_MAX = 100


# -- /v1/players/{id}/matches ------------------------------------------------------------


@attrs.frozen
class PlayerMatchesParams(Paging):
    id: str = path_id("pl_", "Player id (pl_...).")
    year: int | None = year_param("Tournament year (the edition's year label).")
    discipline: str | None = discipline_param()


@endpoint(
    "/v1/players/{id}/matches",
    plan="archive",
    summary="A player's draw matches, newest first",
    params=PlayerMatchesParams,
    returns=DrawMatch,
    many=True,
    description="Every draw match the player stood in (finished, under way or scheduled), newest first, "
    "shaped as /v1/matches/{id} but told from the player's side: the player's side is side 1, "
    "so games, winner and prices read from it first. Filters: `year` (the "
    "edition's year) and `discipline`. Walkovers and matches not finished are listed, so `meta.total` "
    "unfiltered is more than the profile's `matches` (played only) by those: the profile's "
    "`meta.match_list` gives the split.",
)
async def player_matches(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(
        Q.player_history.matches, id=p.id, year=p.year, discipline=p.discipline, offset=call.offset, limit=call.limit
    )
    if not rows:
        await require_player(call.db, p.id)  # an empty list for a known player, 404 otherwise
    return call.page(
        rows, lambda r: told_from(draw_match_from_row(r, with_odds=call.sees_odds), 1 if call.p.id in r["side1"] else 2)
    )


# -- /v1/players/{id}/partners -------------------------------------------------------------


@attrs.frozen
class PartnerRow:
    partner: PlayerRef | None = attrs.field(metadata=doc("null in singles"))
    discipline: Discipline
    matches: int = attrs.field(metadata=doc("finished matches together, walkovers included"))
    wins: int
    titles: int = attrs.field(metadata=doc("finals of individual events won together"))
    first_year: int
    last_year: int


@attrs.frozen
class DisciplineParams(PlayerPath):
    discipline: str | None = discipline_param()


@endpoint(
    "/v1/players/{id}/partners",
    plan="archive",
    summary="A player's partners, most matches together first",
    params=DisciplineParams,
    returns=PartnerRow,
    many=True,
    description="One row per partner and discipline (a row with partner null per singles discipline), "
    "most matches together first. Matches are finished draw matches, walkovers included.",
)
async def player_partners(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.partners, id=call.p.id, discipline=call.p.discipline)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [
        PartnerRow(
            partner=PlayerRef(id=r["partner"], name=r["partner_name"], country=r["partner_country"])
            if r["partner"]
            else None,
            discipline=r["discipline"],
            matches=r["matches"],
            wins=r["wins"],
            titles=r["titles"],
            first_year=r["first_year"],
            last_year=r["last_year"],
        )
        for r in rows
    ]
    return Answer(data, {"count": len(data)})


# -- /v1/players/{id}/opponents ------------------------------------------------------------


@attrs.frozen
class LastMeeting:
    match: str = attrs.field(metadata=doc("mt_ id"))
    date: dt.date | None
    tournament: TournamentRef
    discipline: Discipline
    result: Result = attrs.field(metadata=doc("W or L for the asked player"))
    games: list[list[int]] = attrs.field(metadata=doc("game scores, the asked player's side first"))
    outcome: Literal["played", "retired", "walkover"]


@attrs.frozen
class OpponentRow:
    opponent: PlayerRef
    meetings: int = attrs.field(
        metadata=doc("finished matches on opposite sides, singles and doubles, walkovers included")
    )
    wins: int
    losses: int
    last: LastMeeting = attrs.field(metadata=doc("the most recent meeting with its score"))


@attrs.frozen
class OpponentsParams(PlayerPath):
    discipline: str | None = discipline_param()
    limit: int = param("Opponents to return.", default=OPPONENTS_LIMIT, minimum=1, maximum=OPPONENTS_MAX)


def _opponent(r: Any) -> OpponentRow:
    return OpponentRow(
        opponent=PlayerRef(id=r["opponent"], name=r["opponent_name"], country=r["opponent_country"]),
        meetings=r["meetings"],
        wins=r["wins"],
        losses=r["losses"],
        last=LastMeeting(
            match=r["match_id"],
            date=r["day"],
            tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
            discipline=r["discipline"],
            result=result(r["winner"] == r["side"]),
            games=sided_games(r["g1"], r["g2"], r["side"]),
            outcome=r["outcome"],
        ),
    )


@endpoint(
    "/v1/players/{id}/opponents",
    plan="archive",
    summary="A player's opponents, met most often first",
    params=OpponentsParams,
    returns=OpponentRow,
    many=True,
    description="Each player who stood on the other side (in doubles both opponents count), met most often "
    "first, with wins, losses and the most recent meeting. Meetings agree with /v1/h2h.",
)
async def player_opponents(call: Call) -> Answer:
    rows = await call.db.fetch(
        Q.player_history.opponents, id=call.p.id, discipline=call.p.discipline, limit=call.p.limit
    )
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_opponent(r) for r in rows]
    return Answer(data, {"count": len(data)})


# -- /v1/players/{id}/titles ---------------------------------------------------------------


@attrs.frozen
class TitleRow:
    result: Result = attrs.field(metadata=doc("W: title won; L: runner-up"))
    tournament: TournamentRef
    level: str = attrs.field(metadata=doc("senior or junior"))
    discipline: Discipline
    sport_class: str | None = attrs.field(metadata=doc("para badminton only"))
    partner: PlayerRef | None = attrs.field(metadata=doc("null in singles"))
    opponents: list[PlayerRef]
    games: list[list[int]] = attrs.field(metadata=doc("game scores, this player's side first"))
    match: str = attrs.field(metadata=doc("mt_ id of the final"))


def _title(r: Any) -> TitleRow:
    return TitleRow(
        result=result(r["won"]),
        tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
        level=r["level"],
        discipline=r["discipline"],
        sport_class=r["sport_class"],
        partner=player_ref(r["partner"]) if r["partner"] else None,
        opponents=player_refs(r["opponents"]),
        games=[[a, b] for a, b in zip(r["gf"], r["ga"])],
        match=r["match_id"],
    )


def title_totals(rows: list[TitleRow], disciplines: tuple[str, ...]) -> dict[str, Any]:
    """meta: finals, titles and runner-up places, overall and by discipline."""
    by = {d: {"finals": 0, "titles": 0, "runner_up": 0} for d in disciplines}
    for t in rows:
        by[t.discipline]["finals"] += 1
        by[t.discipline]["titles" if t.result == "W" else "runner_up"] += 1
    return {"finals": len(rows), "titles": sum(t.result == "W" for t in rows), "by_discipline": by}


@endpoint(
    "/v1/players/{id}/titles",
    plan="archive",
    summary="Every final a player reached, newest first",
    params=DisciplineParams,
    returns=TitleRow,
    many=True,
    description="Every finished final of an individual event the player stood in (team-event ties are the "
    "team's), newest first: W for a title, L for runner-up. `meta` holds the totals: finals, "
    "titles and by_discipline (finals, titles, runner_up for each discipline asked); `meta.note` "
    "says how many finals are held only as results of public record (who won and lost, `games` "
    "empty: the real world's World Championships).",
)
async def player_titles(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.titles, id=call.p.id, discipline=call.p.discipline)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_title(r) for r in rows]
    meta = title_totals(data, (call.p.discipline,) if call.p.discipline else DISCIPLINES)
    # a final played but held without games is a result of public record, not a walkover
    unscored = sum(1 for r in rows if r["outcome"] == "played" and not r["gf"])
    if unscored:
        meta["note"] = (
            f"{unscored} of these finals are held as results of public record: who won and lost, "
            "without the score or the draw."
        )
    return Answer(data, meta)


FORM_LAST = 10  # interface.md: form last 1 to 50, default 10
FORM_MAX = 50


@attrs.frozen
class FormRow:
    result: Result = attrs.field(metadata=doc("W or L for this player"))
    tournament: TournamentRef
    date: dt.date | None = attrs.field(metadata=doc("day played; null when the edition has no dates"))
    discipline: Discipline
    round: str = attrs.field(metadata=doc("round as the draw names it"))
    opponents: list[PlayerRef]
    games: list[list[int]] = attrs.field(metadata=doc("game scores, this player's side first"))
    outcome: Literal["played", "retired", "walkover"]
    match: str = attrs.field(metadata=doc("mt_ id"))


@attrs.frozen
class FormParams(PlayerPath):
    discipline: str | None = discipline_param()
    last: int = param("Results to return.", default=FORM_LAST, minimum=1, maximum=FORM_MAX)


def _row(r: Any) -> FormRow:
    return FormRow(
        result=result(r["won"]),
        tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
        date=r["played_on"],
        discipline=r["discipline"],
        round=r["round_name"],
        opponents=player_refs(r["opponents"]),
        games=[[a, b] for a, b in zip(r["gf"], r["ga"])],
        outcome=r["outcome"],
        match=r["id"],
    )


def form_meta(rows: list[FormRow], run_length: int) -> dict[str, Any]:
    """The record over the results shown, and the current run (the newest streak, counted over
    every result of the player, so it may be longer than the list)."""
    wins = sum(r.result == "W" for r in rows)
    run = {"result": rows[0].result, "length": run_length} if rows else None
    return {"record": {"wins": wins, "losses": len(rows) - wins}, "current_run": run}


@endpoint(
    "/v1/players/{id}/form",
    plan="archive",
    summary="A player's latest results, newest first",
    params=FormParams,
    returns=FormRow,
    many=True,
    description="The player's `last` results (finished matches, walkovers included), newest first, games "
    "from the player's side. `meta.record` counts wins and losses over the results shown; "
    "`meta.current_run` is the newest streak (result W or L and its length over all results).",
)
async def player_form(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.form, id=call.p.id, discipline=call.p.discipline, last=call.p.last)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_row(r) for r in rows]
    return Answer(data, form_meta(data, rows[0]["run_length"] if rows else 0))


SCHEDULE_LAST = 20  # interface.md: schedule last 1 to 100, default 20
SCHEDULE_MAX = 100
BACK_TO_BACK_DAYS = 7  # interface.md: back_to_back when an event starts within a week of the previous ending
WINDOWS = (30, 60, 90)  # interface.md: meta holds events and matches in the last 30 to 90 days
Furthest = Literal["F", "SF", "QF", "R16", "R32", "R64", "R128"]


@attrs.frozen
class ScheduleRow:
    tournament: TournamentRef
    level: str = attrs.field(metadata=doc("senior or junior"))
    start: dt.date | None = attrs.field(metadata=doc("the edition's first day"))
    end: dt.date | None = attrs.field(metadata=doc("the edition's last day"))
    disciplines: list[str] = attrs.field(metadata=doc("disciplines the player entered"))
    matches: int = attrs.field(metadata=doc("finished matches up to the chosen date, walkovers included"))
    wins: int
    furthest: Furthest | None = attrs.field(
        metadata=doc("furthest knockout round reached (a bronze match counts as SF); null when only group matches")
    )
    title: bool = attrs.field(metadata=doc("won the final of an individual event"))
    rest_days: int | None = attrs.field(
        metadata=doc("free days between the previous event's end and this start; null for the first")
    )
    back_to_back: bool = attrs.field(metadata=doc("started within a week of the previous event's end"))
    week_run: int = attrs.field(metadata=doc("events in a row, ending with this one, played back to back"))


@attrs.frozen
class ScheduleParams(PlayerPath):
    discipline: str | None = discipline_param()
    date: dt.date | None = param(
        "The day to look from (YYYY-MM-DD); default today. Events starting later are left out "
        "and counts are as on that day."
    )
    last: int = param("Events to return.", default=SCHEDULE_LAST, minimum=1, maximum=SCHEDULE_MAX)


_RANK_TO_ROUND = {i + 1: code for i, code in enumerate(ROUND_CODES) if code != "3P"}  # round_rank() in SQL


def schedule_rows(rows: list[Any]) -> list[ScheduleRow]:
    """Rows of Q.player_history.schedule (oldest first) with rest, back-to-back and week runs; oldest first."""
    out: list[ScheduleRow] = []
    prev_end: dt.date | None = None
    run = 0
    for r in rows:
        start, end = r["start_date"], r["end_date"] or r["start_date"]
        rest = None
        if out and start is not None and prev_end is not None:
            rest = max(0, (start - prev_end).days - 1)  # overlapping events leave no free day
        back = rest is not None and (start - prev_end).days <= BACK_TO_BACK_DAYS
        run = run + 1 if back else 1
        out.append(
            ScheduleRow(
                tournament=TournamentRef(id=r["id"], name=r["name"], year=r["year"]),
                level=r["level"],
                start=r["start_date"],
                end=r["end_date"],
                disciplines=list(r["disciplines"]),
                matches=r["matches"],
                wins=r["wins"],
                furthest=_RANK_TO_ROUND.get(r["furthest_rank"]),
                title=r["title"],
                rest_days=rest,
                back_to_back=back,
                week_run=run,
            )
        )
        prev_end = end
    return out


def schedule_meta(rows: list[Any], day: dt.date) -> dict[str, Any]:
    """Days since the last event (0 while one is under way) and events and matches in the last
    30, 60 and 90 days, all as on `day`."""
    ends = [min(r["end_date"] or r["start_date"], day) for r in rows if r["start_date"]]
    meta: dict[str, Any] = {"date": day.isoformat(), "days_since_last_event": (day - max(ends)).days if ends else None}
    for n in WINDOWS:
        # the first days of year 1 have no 90 days before them (no event there either)
        since = day - dt.timedelta(days=n) if day > dt.date.min + dt.timedelta(days=n) else dt.date.min
        events = sum(1 for r in rows if r["start_date"] and (r["end_date"] or r["start_date"]) > since)
        meta[f"last_{n}_days"] = {"events": events, "matches": sum(r[f"matches_{n}"] for r in rows)}
    return meta


@endpoint(
    "/v1/players/{id}/schedule",
    plan="archive",
    summary="A player's events, newest first",
    params=ScheduleParams,
    returns=ScheduleRow,
    many=True,
    description="The `last` events (editions) the player played, newest first, as on `date` (default today): "
    "events starting later are left out and matches, wins, furthest round and title count only "
    "what was played by then. rest_days, back_to_back and week_run compare each event with the "
    "previous one in the list (of the discipline when given). `meta` holds days_since_last_event "
    "and last_30_days, last_60_days, last_90_days (events and matches).",
)
async def player_schedule(call: Call) -> Answer:
    day = call.p.date or call.clock.today()
    rows = await call.db.fetch(Q.player_history.schedule, id=call.p.id, discipline=call.p.discipline, day=day)
    if not rows:
        await require_player(call.db, call.p.id)
    data = schedule_rows(rows)[::-1][: call.p.last]
    return Answer(data, schedule_meta(rows, day))


@attrs.frozen
class StatsRate:
    played: int
    won: int
    rate: float | None = attrs.field(metadata=doc("won / played; null when none were played"))


@attrs.frozen
class StatsWonLost:
    won: int = attrs.field(metadata=doc("matches this player won that way (the opponent retired or gave a walkover)"))
    lost: int


@attrs.frozen
class StatsByDiscipline:
    matches: int
    wins: int
    win_rate: float | None
    game_win_rate: float | None
    point_share: float | None


@attrs.frozen
class StatsRow:
    player: PlayerRef
    filters: dict[str, str | int | None] = attrs.field(metadata=doc("discipline, from and to as applied (null: all)"))
    matches: int = attrs.field(metadata=doc("finished matches, walkovers and retirements included"))
    wins: int
    win_rate: float | None = attrs.field(metadata=doc("wins / matches"))
    game_win_rate: float | None = attrs.field(
        metadata=doc("games won / completed games (a retired match's unfinished game is left out)")
    )
    point_share: float | None = attrs.field(metadata=doc("points won / all points played"))
    deciding_games: StatsRate = attrs.field(metadata=doc("matches that went to a completed third game"))
    extended_games: StatsRate = attrs.field(
        metadata=doc("completed games in which the loser reached 20; 21-point rally scoring only (from 1 Aug 2006)")
    )
    after_losing_first_game: StatsRate = attrs.field(
        metadata=doc("matches in which this player lost the first game: how many they still won")
    )
    after_winning_first_game: StatsRate = attrs.field(
        metadata=doc("matches in which this player won the first game: how many they won")
    )
    retirements: StatsWonLost = attrs.field(metadata=doc("matches ended by a retirement"))
    walkovers: StatsWonLost = attrs.field(metadata=doc("matches given as walkovers"))
    by_discipline: dict[str, StatsByDiscipline] = attrs.field(
        metadata=doc("the headline figures per discipline played")
    )


@attrs.frozen
class StatsParams(PlayerPath):
    discipline: str | None = discipline_param()
    from_: int | None = year_param("First tournament year counted.", wire="from")
    to: int | None = year_param("Last tournament year counted.")


_SUMMED = (
    "matches",
    "wins",
    "games_won",
    "games_lost",
    "points_won",
    "points_lost",
    "deciding_played",
    "deciding_won",
    "extended_played",
    "extended_won",
    "after_losing_played",
    "after_losing_won",
    "after_winning_played",
    "after_winning_won",
    "retired_won",
    "retired_lost",
    "walkover_won",
    "walkover_lost",
)


def _headline(s: dict[str, int]) -> StatsByDiscipline:
    return StatsByDiscipline(
        matches=s["matches"],
        wins=s["wins"],
        win_rate=rate(s["wins"], s["matches"]),
        game_win_rate=rate(s["games_won"], s["games_won"] + s["games_lost"]),
        point_share=rate(s["points_won"], s["points_won"] + s["points_lost"]),
    )


def stats_row(player: PlayerRef, filters: dict[str, Any], per_discipline: list[Any]) -> StatsRow:
    total = {k: sum(r[k] for r in per_discipline) for k in _SUMMED}
    head = _headline(total)
    return StatsRow(
        player=player,
        filters=filters,
        matches=head.matches,
        wins=head.wins,
        win_rate=head.win_rate,
        game_win_rate=head.game_win_rate,
        point_share=head.point_share,
        deciding_games=StatsRate(
            total["deciding_played"], total["deciding_won"], rate(total["deciding_won"], total["deciding_played"])
        ),
        extended_games=StatsRate(
            total["extended_played"], total["extended_won"], rate(total["extended_won"], total["extended_played"])
        ),
        after_losing_first_game=StatsRate(
            total["after_losing_played"],
            total["after_losing_won"],
            rate(total["after_losing_won"], total["after_losing_played"]),
        ),
        after_winning_first_game=StatsRate(
            total["after_winning_played"],
            total["after_winning_won"],
            rate(total["after_winning_won"], total["after_winning_played"]),
        ),
        retirements=StatsWonLost(total["retired_won"], total["retired_lost"]),
        walkovers=StatsWonLost(total["walkover_won"], total["walkover_lost"]),
        by_discipline={r["discipline"]: _headline(r) for r in per_discipline},
    )


async def stats_plan(p: StatsParams, db: Any, clock: Any) -> str:
    # `from` after `to` is checked here, before the call is counted: a 422 is never counted.
    check_range(p)
    return "archive"


@endpoint(
    "/v1/players/{id}/stats",
    plan="archive",
    summary="A player's statistics over a range of years",
    params=StatsParams,
    returns=StatsRow,
    many=True,
    plan_for=stats_plan,
    description="One stats row for the player over tournament years `from` to `to` (both optional), in one "
    "discipline or all. Matches are finished draw matches, walkovers and retirements included "
    "(so wins equal the won matches of /v1/players/{id}/matches with the same filters); "
    "deciding_games are matches with a completed third game; extended_games are completed games "
    "the loser took to 20 or more under 21-point rally scoring (from 1 August 2006); "
    "after_losing/after_winning_first_game count matches whose first game was completed.",
)
async def player_stats(call: Call) -> Answer:
    p = call.p
    player = await require_player(call.db, p.id)
    rows = await call.db.fetch(
        Q.player_history.stats, id=p.id, discipline=p.discipline, from_year=p.from_, to_year=p.to
    )
    filters = {"discipline": p.discipline, "from": p.from_, "to": p.to}
    return Answer([stats_row(player_ref(player), filters, rows)])
