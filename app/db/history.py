"""Match history queries, served by indexes (keyset pagination on the match id).

Every page is one ordered index range scan that stops after ``limit`` rows, however many
matches there are:

=================================  =========================================================
filter                             index walked (newest first)
=================================  =========================================================
none, ``status=finished``          the primary key ``matches.id``
``status=playing``                 ``ix_matches_status_id (status, id)``
``game``                           ``ix_matches_game_id (game, id)``
``player``                         ``ix_match_seats_player_match (player_id, match_id)``
``player`` + ``result``            ``ix_match_seats_player_winner_match (player_id, winner,
                                   match_id)``; a draw is a win shared with another seat
``since`` / ``until``              two ``LIMIT 1`` probes of ``ix_matches_started_at`` turn the
                                   dates into an id range (see :func:`id_range`), which
                                   bounds whichever scan above; ``started_at`` is also
                                   checked exactly
=================================  =========================================================

``before`` is the id of the oldest match already shown (older page), ``after`` the id of the
newest one (newer page); pages are always returned newest first.

A match of a private room (play-now rooms are private too) answers ``"room_id": null``, running
or finished: its room id is the key to watch and chat there, and only its invitation gives it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Row, Select, exists, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.orm import aliased

from app.db.models import Match, MatchSeat, Move, Player, PlayerGame, Room
from app.db.ratings.reads import player_ratings, seat_changes
from app.timestamps import iso

Result = Literal["win", "loss", "draw"]
Status = Literal["playing", "finished"]
LISTED = ("playing", "finished")

# Match ids and ``started_at`` grow together (``started_at`` is read just before the insert
# that draws the id). The date -> id bounds allow this much disorder between the two, so a
# stalled process or clocks a little apart between servers never hide a match.
CLOCK_SLACK = timedelta(minutes=10)


@dataclass(frozen=True)
class HistoryFilter:
    player_id: int | None = None
    game: str | None = None
    since: datetime | None = None  # started_at >= since
    until: datetime | None = None  # started_at < until
    result: Result | None = None  # needs player_id
    status: Status | None = None
    before: int | None = None  # match id < before (an older page)
    after: int | None = None  # match id > after (a newer page)

    def __post_init__(self) -> None:
        if self.result is not None and self.player_id is None:
            raise ValueError("a result filter needs a player")
        if self.before is not None and self.after is not None:
            raise ValueError("before and after do not go together")


async def list_matches(
    db: AsyncEngine,
    *,
    player_id: int | None = None,
    game: str | None = None,
    limit: int = 50,
    before: int | None = None,
    after: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    result: Result | None = None,
    status: Status | None = None,
) -> list[dict[str, Any]]:
    """One page of matches, newest first, with their seats (see the module docstring)."""
    wanted = HistoryFilter(player_id, game, since, until, result, status, before, after)
    async with db.connect() as conn:
        bounds = await id_range(conn, wanted.since, wanted.until)
        matches = list(await conn.execute(history_query(wanted, limit, bounds)))
        if wanted.after is not None:
            matches.reverse()
        return await _summaries(conn, matches)


def history_query(
    wanted: HistoryFilter, limit: int, bounds: tuple[int | None, int | None] = (None, None)
) -> Select[Any]:
    """The matches of one page (newest first; oldest first for an ``after`` page).

    Public so the benchmark can EXPLAIN exactly what the API runs.
    """
    low, high = bounds
    if wanted.player_id is not None:
        seat = MatchSeat
        key = seat.match_id
        query = (
            select(Match.__table__)
            .select_from(seat)
            .join(Match, Match.id == seat.match_id)
            .where(seat.player_id == wanted.player_id)
        )
        if wanted.result is not None:
            other = aliased(MatchSeat)
            shared = exists().where(
                other.match_id == seat.match_id, other.seat != seat.seat, other.winner.is_(True)
            )
            if wanted.result == "loss":
                query = query.where(seat.winner.is_(False))
            else:
                query = query.where(seat.winner.is_(True))
                query = query.where(shared if wanted.result == "draw" else ~shared)
    else:
        key = Match.id
        query = select(Match.__table__)
    if wanted.status is not None:
        query = query.where(Match.status == wanted.status)
    elif wanted.result is None:
        query = query.where(_checked(Match.status).in_(LISTED))
    if wanted.result is not None:
        query = query.where(Match.status == "finished")
    if wanted.game is not None:
        query = query.where(Match.game == wanted.game)
    if wanted.since is not None:
        query = query.where(_checked(Match.started_at) >= wanted.since)
    if wanted.until is not None:
        query = query.where(_checked(Match.started_at) < wanted.until)
    if low is not None:
        query = query.where(key > low)
    if high is not None:
        query = query.where(key < high)
    if wanted.before is not None:
        query = query.where(key < wanted.before)
    if wanted.after is not None:
        return query.where(key > wanted.after).order_by(key.asc()).limit(limit)
    return query.order_by(key.desc()).limit(limit)


def _checked(column: Any) -> Any:
    """``column`` wrapped so no index matches it: a condition that keeps nearly every row
    (the default status filter) or that the id range already narrows (the dates) is then
    checked on the rows of the page's ordered scan, instead of tempting a planner without
    statistics (SQLite's) to read every row it matches through another index and sort them."""
    return func.coalesce(column, column)


async def id_range(
    conn: AsyncConnection, since: datetime | None, until: datetime | None
) -> tuple[int | None, int | None]:
    """Match ids that can hold ``since <= started_at < until``: ``(low, high)`` with
    ``low < id < high``, either open (``None``).

    ``low`` is the id of the newest match started more than :data:`CLOCK_SLACK` before
    ``since``, ``high`` that of the oldest started more than that after ``until``: any match
    of the range started over the slack after the first and before the second, so it was
    stored after the first and before the second. Two ``LIMIT 1`` probes of the
    ``started_at`` index."""
    low = high = None
    if since is not None:
        low = await conn.scalar(
            select(Match.id)
            .where(Match.started_at < since - CLOCK_SLACK)
            .order_by(Match.started_at.desc())
            .limit(1)
        )
    if until is not None:
        high = await conn.scalar(
            select(Match.id)
            .where(Match.started_at >= until + CLOCK_SLACK)
            .order_by(Match.started_at)
            .limit(1)
        )
    return low, high


async def match_summary(db: AsyncEngine, match_id: int) -> dict[str, Any] | None:
    async with db.connect() as conn:
        match = (await conn.execute(select(Match.__table__).where(Match.id == match_id))).first()
        if match is None:
            return None
        return (await _summaries(conn, [match]))[0]


async def _summaries(conn: AsyncConnection, matches: list[Row[Any]]) -> list[dict[str, Any]]:
    if not matches:
        return []
    ids = [m.id for m in matches]
    seats: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    ratings = await seat_changes(conn, [m.id for m in matches if m.status == "finished"])
    rows = await conn.execute(
        select(MatchSeat.__table__).where(MatchSeat.match_id.in_(ids)).order_by(MatchSeat.seat)
    )
    for seat in rows:
        seats[seat.match_id].append(
            {
                "seat": seat.seat,
                "player": {"id": seat.player_id, "name": seat.name} if seat.player_id else None,
                "bot": seat.bot,
                "name": seat.name,
                "score": seat.score,
                "winner": seat.winner,
                "abandoned": seat.abandoned,
                "rating": ratings.get((seat.match_id, seat.seat)),
            }
        )
    running = [m.id for m in matches if m.status != "finished"]
    counts: dict[int, int] = {}
    if running:
        counted = await conn.execute(
            select(Move.match_id, func.max(Move.seq))
            .where(Move.match_id.in_(running))
            .group_by(Move.match_id)
        )
        counts = {match_id: seq for match_id, seq in counted}
    private = set(
        await conn.scalars(
            select(Room.id).where(Room.id.in_({m.room_id for m in matches}), Room.private)
        )
    )
    return [
        _summary(m, seats[m.id], counts.get(m.id, 0), shown_room=m.room_id not in private)
        for m in matches
    ]


def _summary(
    match: Row[Any], seats: list[dict[str, Any]], running_count: int, *, shown_room: bool
) -> dict[str, Any]:
    finished = match.status == "finished"
    outcome = match.outcome if finished else None  # says why it ended (migration 0008)
    return {
        "id": match.id,
        "room_id": match.room_id if shown_room else None,
        "game": match.game,
        "options": match.options,
        "status": match.status,
        "seats": seats,
        "scores": outcome["scores"] if outcome else None,
        "winners": outcome["winners"] if outcome else None,
        "outcome": outcome,
        "has_bots": match.has_bots,
        "rated": match.rated,
        "started_at": iso(match.started_at),
        "finished_at": iso(match.finished_at),
        "move_count": match.move_count if finished else running_count,
    }


# -- players ------------------------------------------------------------------------------------
async def search_players(db: AsyncEngine, prefix: str, limit: int = 10) -> list[dict[str, Any]]:
    """Players whose name starts with ``prefix`` (any case), by name; served by
    ``ix_players_name_lower``."""
    wanted = prefix.strip().lower()
    if not wanted:
        return []
    escaped = wanted.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    lowered = func.lower(Player.name)
    query = select(Player.id, Player.name).where(lowered.like(escaped + "%", escape="\\"))
    if db.dialect.name == "sqlite":  # SQLite's LIKE cannot use the expression index; a range can
        query = query.where(lowered >= wanted, lowered < wanted + "\U0010ffff")
    query = query.order_by(lowered, Player.id).limit(limit)
    async with db.connect() as conn:
        return [{"id": r.id, "name": r.name} for r in await conn.execute(query)]


async def player_stats(db: AsyncEngine, player_id: int) -> dict[str, Any] | None:
    """Per game: finished matches played, won, lost, drawn (a win shared with another seat;
    counted as matches finish, see app.db.ratings) and the rating (rank, trend, recent
    points); how many matches the player is in right now. ``None`` for an unknown player."""
    async with db.connect() as conn:
        player = (
            await conn.execute(select(Player.id, Player.name).where(Player.id == player_id))
        ).first()
        if player is None:
            return None
        records = {
            r.game: {
                "played": r.played,
                "won": r.won,
                "lost": r.lost,
                "drawn": r.drawn,
                "abandoned": r.abandoned,
                "last_match_id": r.last_match_id,
            }
            for r in await conn.execute(
                select(PlayerGame.__table__).where(PlayerGame.player_id == player_id)
            )
        }
        # seats get their winner flag when the match ends: the unfinished ones are the NULLs
        playing = await conn.scalar(
            select(func.count())
            .select_from(MatchSeat)
            .join(Match, Match.id == MatchSeat.match_id)
            .where(
                MatchSeat.player_id == player_id,
                MatchSeat.winner.is_(None),
                Match.status == "playing",
            )
        )
        ratings = await player_ratings(conn, player_id)
    games = []
    for game in sorted(set(records) | set(ratings)):
        record = records.get(game, {"played": 0, "won": 0, "lost": 0, "drawn": 0, "abandoned": 0})
        games.append({"game": game, **record, "rating": ratings.get(game)})
    counts = ("played", "won", "lost", "drawn", "abandoned")
    totals = {key: sum(g[key] for g in games) for key in counts}
    return {
        "player": {"id": player.id, "name": player.name},
        "games": games,
        "totals": totals,
        "playing": int(playing or 0),
    }
