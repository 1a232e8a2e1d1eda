"""Matches: starting one, loading it back, and the history queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.clock import utcnow
from app.db.driver import pooled_driver, transaction
from app.db.models import Match, MatchSeat, Move, Room, Snapshot
from app.db.rooms import RoomRecord
from app.db.startlog import StartLog, StartRequest, start_many


@dataclass(frozen=True)
class MatchRecord:
    id: int
    room_id: str
    game: str
    engine_version: str
    options: dict[str, Any]
    seed: int
    players: int
    status: str
    started_at: datetime
    outcome: dict[str, Any] | None = None


@dataclass(frozen=True)
class MoveRow:
    seq: int
    seat: int
    action: dict[str, Any]
    at: datetime


class RoomMovedOn(Exception):
    """The room was no longer in the status the start expected: roll the start back."""


async def start_match(
    db: AsyncEngine,
    room: RoomRecord,
    *,
    seed: int,
    engine_version: str,
    from_status: str,
    starts: StartLog | None = None,
    at: datetime | None = None,
) -> MatchRecord | None:
    """Open a match for a room whose every seat is filled, started ``at`` (now, if not
    given); ``None`` if the room moved on. On Postgres the start goes with others that
    ``starts`` has waiting, if given."""
    now = utcnow() if at is None else at
    match = {
        "room_id": room.id,
        "game": room.game,
        "engine_version": engine_version,
        "options": room.options,
        "seed": seed,
        "players": len(room.seats),
        "status": "playing",
        "has_bots": any(s.bot for s in room.seats),
        "move_count": 0,
        "started_at": now,
    }
    seats = [
        {
            "seat": s.seat,
            "player_id": s.player.id if s.player else None,
            "bot": s.bot,
            "name": s.player.name if s.player else f"Bot ({s.bot})",
        }
        for s in room.seats
    ]
    if db.dialect.name == "postgresql":
        match_id = await _start_on_postgres(db, match, seats, from_status, starts)
    else:
        match_id = await _start_in_transaction(db, match, seats, from_status)
    if match_id is None:
        return None
    return MatchRecord(
        id=match_id,
        room_id=room.id,
        game=room.game,
        engine_version=engine_version,
        options=room.options,
        seed=seed,
        players=len(room.seats),
        status="playing",
        started_at=now,
    )


async def _start_in_transaction(
    db: AsyncEngine, match: dict[str, Any], seats: list[dict[str, Any]], from_status: str
) -> int | None:
    try:
        async with transaction(db) as conn:
            match_id = (await conn.execute(_NEW_MATCH, match)).scalar_one()
            await conn.execute(_NEW_SEAT, [{"match_id": match_id, **seat} for seat in seats])
            claimed = await conn.execute(
                _CLAIM_ROOM,
                {
                    "room": match["room_id"],
                    "from_status": from_status,
                    "b_match": match_id,
                    "now": match["started_at"],
                },
            )
            if claimed.first() is None:
                raise RoomMovedOn
    except RoomMovedOn:
        return None
    return match_id


async def _start_on_postgres(
    db: AsyncEngine,
    match: dict[str, Any],
    seats: list[dict[str, Any]],
    from_status: str,
    starts: StartLog | None = None,
) -> int | None:
    if starts is not None:
        return await starts.start(match, seats, from_status)
    async with pooled_driver(db) as driver:
        started = await start_many(driver, [StartRequest(match, seats, from_status)])
    return started.get(match["room_id"])


@dataclass(frozen=True)
class MatchEnd:
    """Everything the commit that ends a match writes, known without reading it back."""

    room_id: str
    match_id: int
    game: str
    seats: tuple[tuple[int | None, str | None], ...]  # (player id, bot level) by seat
    move_count: int
    outcome: dict[str, Any]
    at: datetime
    has_snapshot: bool = True  # False when no snapshot row can exist: skips its delete
    rated: bool = True  # False for a match with no result (aborted): neither counted nor rated


_NEW_MATCH = insert(Match).returning(Match.id)
_NEW_SEAT = insert(MatchSeat)
_CLAIM_ROOM = (
    update(Room)
    .where(
        Room.id == bindparam("room"),
        Room.status == bindparam("from_status"),
        Room.filled == Room.seat_count,
    )
    .values(status="playing", match_id=bindparam("b_match"), updated_at=bindparam("now"))
    .returning(Room.id)
)


async def load_match(db: AsyncEngine, match_id: int) -> MatchRecord | None:
    async with db.connect() as conn:
        row = (await conn.execute(select(Match.__table__).where(Match.id == match_id))).first()
    if row is None:
        return None
    return MatchRecord(
        id=row.id,
        room_id=row.room_id,
        game=row.game,
        engine_version=row.engine_version,
        options=row.options,
        seed=row.seed,
        players=row.players,
        status=row.status,
        started_at=row.started_at,
        outcome=row.outcome,
    )


async def load_snapshot(db: AsyncEngine, match_id: int) -> tuple[int, dict[str, Any]] | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(
                select(Snapshot.seq, Snapshot.state).where(Snapshot.match_id == match_id)
            )
        ).first()
    return (row.seq, row.state) if row else None


async def load_moves(db: AsyncEngine, match_id: int, after_seq: int = 0) -> list[MoveRow]:
    async with db.connect() as conn:
        return await moves_after(conn, match_id, after_seq)


async def moves_after(conn: AsyncConnection, match_id: int, after_seq: int) -> list[MoveRow]:
    rows = await conn.execute(
        select(Move.seq, Move.seat, Move.action, Move.at)
        .where(Move.match_id == match_id, Move.seq > after_seq)
        .order_by(Move.seq)
    )
    return [MoveRow(r.seq, r.seat, r.action, r.at) for r in rows]


async def load_move_count(db: AsyncEngine, match_id: int) -> int:
    async with db.connect() as conn:
        return await move_count(conn, match_id)


async def move_count(conn: AsyncConnection, match_id: int) -> int:
    value = await conn.scalar(select(func.max(Move.seq)).where(Move.match_id == match_id))
    return int(value or 0)
