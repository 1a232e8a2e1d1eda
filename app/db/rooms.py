"""Rooms and their seats. Seat changes are conditional updates, so races lose cleanly."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.clock import utcnow
from app.db.models import ChatMessage, Player, Room, RoomSeat
from app.db.players import PlayerRecord


@dataclass
class SeatRecord:
    seat: int
    player: PlayerRecord | None = None
    bot: str | None = None

    @property
    def filled(self) -> bool:
        return self.player is not None or self.bot is not None


@dataclass
class RoomRecord:
    id: str
    game: str
    options: dict[str, Any]
    table: dict[str, Any]
    status: str
    host: PlayerRecord
    private: bool
    match_id: int | None
    created_at: datetime
    seats: list[SeatRecord] = field(default_factory=list)

    def seat_of(self, player_id: int) -> int | None:
        for seat in self.seats:
            if seat.player is not None and seat.player.id == player_id:
                return seat.seat
        return None


async def create_room(
    db: AsyncEngine,
    *,
    room_id: str,
    game: str,
    options: dict[str, Any],
    table: dict[str, Any],
    seats: int,
    host_id: int,
    private: bool,
) -> None:
    now = utcnow()
    async with db.begin() as conn:
        await conn.execute(
            insert(Room).values(
                id=room_id,
                game=game,
                options=options,
                table=table,
                seat_count=seats,
                status="waiting",
                host_id=host_id,
                private=private,
                created_at=now,
                updated_at=now,
            )
        )
        await conn.execute(
            insert(RoomSeat), [{"room_id": room_id, "seat": s} for s in range(seats)]
        )


async def load_room(db: AsyncEngine, room_id: str) -> RoomRecord | None:
    async with db.connect() as conn:
        rooms = await _load_rooms(conn, [Room.id == room_id])
    return rooms[0] if rooms else None


async def list_open_rooms(db: AsyncEngine, limit: int = 100) -> list[RoomRecord]:
    async with db.connect() as conn:
        return await _load_rooms(
            conn,
            [Room.private.is_(False), Room.status.in_(("waiting", "playing"))],
            limit=limit,
        )


async def _load_rooms(conn: AsyncConnection, where: list[Any], limit: int = 1) -> list[RoomRecord]:
    rows = (
        await conn.execute(
            select(Room.__table__, Player.name.label("host_name"))
            .join(Player, Player.id == Room.host_id)
            .where(*where)
            .order_by(Room.created_at.desc(), Room.id)
            .limit(limit)
        )
    ).all()
    if not rows:
        return []
    records = {
        row.id: RoomRecord(
            id=row.id,
            game=row.game,
            options=row.options,
            table=row.table or {},
            status=row.status,
            host=PlayerRecord(row.host_id, row.host_name),
            private=row.private,
            match_id=row.match_id,
            created_at=row.created_at,
        )
        for row in rows
    }
    seat_rows = await conn.execute(
        select(RoomSeat.room_id, RoomSeat.seat, RoomSeat.bot, Player.id, Player.name)
        .outerjoin(Player, Player.id == RoomSeat.player_id)
        .where(RoomSeat.room_id.in_(list(records)))
        .order_by(RoomSeat.room_id, RoomSeat.seat)
    )
    for room_id, seat, bot, player_id, name in seat_rows:
        player = PlayerRecord(player_id, name) if player_id is not None else None
        records[room_id].seats.append(SeatRecord(seat, player, bot))
    return list(records.values())


def _empty_seat(room_id: str, seat: int) -> Any:
    return and_(
        RoomSeat.room_id == room_id,
        RoomSeat.seat == seat,
        RoomSeat.player_id.is_(None),
        RoomSeat.bot.is_(None),
    )


async def claim_seat(db: AsyncEngine, room_id: str, seat: int, player_id: int) -> bool:
    async with db.begin() as conn:
        held = await conn.execute(
            select(RoomSeat.seat).where(
                RoomSeat.room_id == room_id, RoomSeat.player_id == player_id
            )
        )
        if held.first() is not None:
            return False
        result = await conn.execute(
            update(RoomSeat).where(_empty_seat(room_id, seat)).values(player_id=player_id)
        )
        await _touch(conn, room_id)
        return result.rowcount == 1


async def put_bot(db: AsyncEngine, room_id: str, seat: int, level: str) -> bool:
    async with db.begin() as conn:
        result = await conn.execute(
            update(RoomSeat).where(_empty_seat(room_id, seat)).values(bot=level)
        )
        await _touch(conn, room_id)
        return result.rowcount == 1


async def clear_seat(db: AsyncEngine, room_id: str, seat: int) -> None:
    async with db.begin() as conn:
        await conn.execute(
            update(RoomSeat)
            .where(RoomSeat.room_id == room_id, RoomSeat.seat == seat)
            .values(player_id=None, bot=None)
        )
        await _touch(conn, room_id)


async def _touch(conn: AsyncConnection, room_id: str) -> None:
    await conn.execute(update(Room).where(Room.id == room_id).values(updated_at=utcnow()))


async def add_chat(db: AsyncEngine, room_id: str, player_id: int, text: str) -> datetime:
    at = utcnow()
    async with db.begin() as conn:
        await conn.execute(
            insert(ChatMessage).values(room_id=room_id, player_id=player_id, text=text, at=at)
        )
    return at


async def playing_rooms(db: AsyncEngine) -> list[str]:
    async with db.connect() as conn:
        rows = await conn.execute(select(Room.id).where(Room.status == "playing"))
        return [row.id for row in rows]
