"""Rooms and their seats. Seat changes lock the room's row and are conditional updates, backed
by constraints (migration 0004), so races lose cleanly."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import ChatMessage, Player, Room, RoomSeat
from app.db.players import PlayerRecord
from app.timestamps import iso, utcnow


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
    status: str  # the room layer's RoomStatus
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


class SeatChange(Enum):
    """How a seat change went. The room's row is locked first, so the seat changes and starts
    of one room run one after the other, whichever process makes them."""

    DONE = "done"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEATED = "already_seated"
    ROOM_PLAYING = "room_playing"


async def claim_seat(db: AsyncEngine, room_id: str, seat: int, player_id: int) -> SeatChange:
    return await _change_seat(db, room_id, seat, {"player_id": player_id}, player_id)


async def put_bot(db: AsyncEngine, room_id: str, seat: int, level: str) -> SeatChange:
    return await _change_seat(db, room_id, seat, {"bot": level})


async def clear_seat(db: AsyncEngine, room_id: str, seat: int) -> SeatChange:
    return await _change_seat(db, room_id, seat, {"player_id": None, "bot": None})


async def _change_seat(
    db: AsyncEngine,
    room_id: str,
    seat: int,
    values: dict[str, Any],
    claimant: int | None = None,
) -> SeatChange:
    """Fill an empty seat with ``values``, or clear a seat (``values`` all None), in a room
    whose match is not running."""
    try:
        return await _seat_transaction(db, room_id, seat, values, claimant)
    except IntegrityError:  # another process's change won (SQLite does not lock the row)
        async with db.connect() as conn:
            status = await conn.scalar(select(Room.status).where(Room.id == room_id))
        if status == "playing":  # ck_rooms_full_when_playing
            return SeatChange.ROOM_PLAYING
        return SeatChange.ALREADY_SEATED  # ux_room_seats_room_player


async def _seat_transaction(
    db: AsyncEngine,
    room_id: str,
    seat: int,
    values: dict[str, Any],
    claimant: int | None,
) -> SeatChange:
    filling = any(v is not None for v in values.values())
    async with db.begin() as conn:
        room = await conn.execute(
            select(Room.id).where(Room.id == room_id, Room.status != "playing").with_for_update()
        )
        if room.first() is None:
            return SeatChange.ROOM_PLAYING
        if claimant is not None:
            held = await conn.execute(
                select(RoomSeat.seat).where(
                    RoomSeat.room_id == room_id, RoomSeat.player_id == claimant
                )
            )
            if held.first() is not None:
                return SeatChange.ALREADY_SEATED
        where = [RoomSeat.room_id == room_id, RoomSeat.seat == seat]
        if filling:
            where += [RoomSeat.player_id.is_(None), RoomSeat.bot.is_(None)]
        result = await conn.execute(update(RoomSeat).where(*where).values(**values))
        if result.rowcount != 1:
            return SeatChange.SEAT_TAKEN
        await conn.execute(
            update(Room)
            .where(Room.id == room_id)
            .values(updated_at=utcnow(), filled=_filled_seats(room_id))
        )
    return SeatChange.DONE


async def set_table(db: AsyncEngine, room_id: str, table: dict[str, Any]) -> bool:
    """The playing room's table settings changed (its pace, by agreement): ``False`` if the
    room is not playing any more."""
    async with db.begin() as conn:
        changed = await conn.execute(
            update(Room)
            .where(Room.id == room_id, Room.status == "playing")
            .values(table=table, updated_at=utcnow())
        )
    return changed.rowcount == 1


def _filled_seats(room_id: str) -> Any:
    return (
        select(func.count())
        .select_from(RoomSeat)
        .where(
            RoomSeat.room_id == room_id,
            or_(RoomSeat.player_id.is_not(None), RoomSeat.bot.is_not(None)),
        )
        .scalar_subquery()
    )


async def open_rooms_of(db: AsyncEngine, host_id: int) -> int:
    """Rooms the player hosts that are waiting or playing."""
    async with db.connect() as conn:
        count = await conn.scalar(
            select(func.count())
            .select_from(Room)
            .where(Room.host_id == host_id, Room.status.in_(("waiting", "playing")))
        )
    return int(count or 0)


async def bot_matches_of(db: AsyncEngine, host_id: int) -> int:
    """Running matches in rooms the player hosts where no seat is a person's."""
    person = (
        select(RoomSeat.seat)
        .where(RoomSeat.room_id == Room.id, RoomSeat.player_id.is_not(None))
        .exists()
    )
    async with db.connect() as conn:
        count = await conn.scalar(
            select(func.count())
            .select_from(Room)
            .where(Room.host_id == host_id, Room.status == "playing", ~person)
        )
    return int(count or 0)


CHAT_KEPT = 200
"""Chat messages kept a room and channel: the oldest beyond go as a new one comes (a reader
gets the latest 50 back, see app/rooms/chat.py)."""


async def add_chat(
    db: AsyncEngine, room_id: str, player_id: int, text: str, channel: str
) -> datetime:
    """Keep a message, and only the room's latest :data:`CHAT_KEPT` of its channel."""
    at = utcnow()
    same = (ChatMessage.room_id == room_id, ChatMessage.channel == channel)
    oldest_kept = (
        select(ChatMessage.id)
        .where(*same)
        .order_by(ChatMessage.id.desc())
        .offset(CHAT_KEPT - 1)
        .limit(1)
        .scalar_subquery()
    )
    async with db.begin() as conn:
        await conn.execute(
            insert(ChatMessage).values(
                room_id=room_id, player_id=player_id, text=text, channel=channel, at=at
            )
        )
        await conn.execute(delete(ChatMessage).where(*same, ChatMessage.id < oldest_kept))
    return at


async def recent_chat(
    db: AsyncEngine, room_id: str, *, players_only: bool, limit: int
) -> list[dict[str, Any]]:
    """The room's latest ``limit`` chat messages, oldest first, as ``chat`` messages
    (``players_only``: without the spectators' channel); served by ``ix_chat_room_id``."""
    query = (
        select(ChatMessage.text, ChatMessage.channel, ChatMessage.at, Player.id, Player.name)
        .join(Player, Player.id == ChatMessage.player_id)
        .where(ChatMessage.room_id == room_id)
    )
    if players_only:
        query = query.where(ChatMessage.channel == "players")
    async with db.connect() as conn:
        rows = list(await conn.execute(query.order_by(ChatMessage.id.desc()).limit(limit)))
    return [
        {
            "type": "chat",
            "from": {"id": row.id, "name": row.name},
            "text": row.text,
            "at": iso(row.at),
            "channel": row.channel,
        }
        for row in reversed(rows)
    ]


@dataclass(frozen=True)
class PlayingRoom:
    room_id: str
    match_id: int
    turn_based: bool


async def playing_rooms(db: AsyncEngine) -> list[PlayingRoom]:
    async with db.connect() as conn:
        rows = await conn.execute(
            select(Room.id, Room.match_id, Room.table).where(Room.status == "playing")
        )
        return [
            PlayingRoom(row.id, row.match_id, (row.table or {}).get("pace") == "turn_based")
            for row in rows
            if row.match_id is not None
        ]
