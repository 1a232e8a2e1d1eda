"""Match history queries, served by indexes (keyset pagination on the match id)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.clock import iso
from app.db.models import Match, MatchSeat, Move


async def list_matches(
    db: AsyncEngine,
    *,
    player_id: int | None = None,
    game: str | None = None,
    limit: int = 50,
    before: int | None = None,
) -> list[dict[str, Any]]:
    query = select(Match.__table__).where(Match.status.in_(("playing", "finished")))
    if game is not None:
        query = query.where(Match.game == game)
    if before is not None:
        query = query.where(Match.id < before)
    if player_id is not None:
        query = query.where(
            Match.id.in_(select(MatchSeat.match_id).where(MatchSeat.player_id == player_id))
        )
    query = query.order_by(Match.id.desc()).limit(limit)
    async with db.connect() as conn:
        matches = (await conn.execute(query)).all()
        return await _summaries(conn, list(matches))


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
    return [_summary(m, seats[m.id], counts.get(m.id, 0)) for m in matches]


def _summary(match: Row[Any], seats: list[dict[str, Any]], running_count: int) -> dict[str, Any]:
    finished = match.status == "finished"
    outcome = match.outcome if finished else None
    return {
        "id": match.id,
        "room_id": match.room_id,
        "game": match.game,
        "options": match.options,
        "status": match.status,
        "seats": seats,
        "scores": outcome["scores"] if outcome else None,
        "winners": outcome["winners"] if outcome else None,
        "outcome": outcome,
        "has_bots": match.has_bots,
        "started_at": iso(match.started_at),
        "finished_at": iso(match.finished_at),
        "move_count": match.move_count if finished else running_count,
    }
