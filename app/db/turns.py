"""Whom each running match waits for (``match_turns``), and a player's running games from it:
what ``GET /api/me/games`` answers without loading a match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.bot_names import bot_name
from app.db import jobs
from app.db.models import Match, MatchTurn, Player, Room, RoomSeat
from app.db.upsert import upsert
from app.timestamps import aware, iso

FAR_OFF = datetime.max.replace(tzinfo=UTC)  # no deadline: after every deadline


@dataclass(frozen=True)
class TurnRow:
    match_id: int
    room_id: str
    seq: int
    waiting_for: list[int]  # the players to act
    deadline: datetime | None  # the soonest deadline of those players
    last_move_at: datetime
    turn_based: bool  # its turns job (app/rooms/turns.py) is due with the row


async def record_turns(db: AsyncEngine, rows: Sequence[TurnRow], now: datetime) -> None:
    """Write each match's row (one already at a later move stays: a late writer loses), and
    make each turn-based match's turns job due ``now``, in one transaction."""
    if not rows:
        return
    async with db.begin() as conn:
        if conn.dialect.name == "postgresql":
            # what a crash loses here the next move writes again (and a turns job lost keeps
            # its earlier time): no commit of this waits for the disk, nor holds a move's up
            await conn.execute(text("SET LOCAL synchronous_commit = off"))
        statement = upsert(conn, MatchTurn)
        changed = ("room_id", "seq", "waiting_for", "deadline", "last_move_at")
        await conn.execute(
            statement.on_conflict_do_update(
                index_elements=["match_id"],
                set_={name: statement.excluded[name] for name in changed},
                where=MatchTurn.seq <= statement.excluded.seq,
            ),
            [
                {
                    "match_id": row.match_id,
                    "room_id": row.room_id,
                    "seq": row.seq,
                    "waiting_for": row.waiting_for,
                    "deadline": row.deadline,
                    "last_move_at": row.last_move_at,
                }
                for row in rows
            ],
        )
        for row in rows:
            if row.turn_based:
                await jobs.keep_turns(conn, row.room_id, row.match_id, now, replace=True)


async def games_of(db: AsyncEngine, player_id: int) -> list[dict[str, Any]]:
    """Every running match the player is seated in: those waiting for them first, then by
    the nearest deadline, then the longest waiting."""
    async with db.connect() as conn:
        found = (
            await conn.execute(
                select(
                    Room.id,
                    Room.match_id,
                    Room.game,
                    Room.table,
                    Match.started_at,
                    MatchTurn.waiting_for,
                    MatchTurn.deadline,
                    MatchTurn.last_move_at,
                )
                .join(RoomSeat, RoomSeat.room_id == Room.id)
                .join(Match, Match.id == Room.match_id)
                .outerjoin(MatchTurn, MatchTurn.match_id == Room.match_id)
                .where(RoomSeat.player_id == player_id, Room.status == "playing")
            )
        ).all()
        room_ids = [row.id for row in found]
        seated = (
            await conn.execute(
                select(RoomSeat.room_id, RoomSeat.seat, RoomSeat.bot, Player.id, Player.name)
                .outerjoin(Player, Player.id == RoomSeat.player_id)
                .where(RoomSeat.room_id.in_(room_ids))
                .order_by(RoomSeat.room_id, RoomSeat.seat)
            )
        ).all()
    seats: dict[str, list[dict[str, Any]]] = {}
    for room_id, seat, bot, seated_id, name in seated:
        player = {"id": seated_id, "name": name} if seated_id is not None else None
        shown = {"seat": seat, "player": player, "bot": bot}
        if bot is not None:
            shown["name"] = bot_name(room_id, seat)
        seats.setdefault(room_id, []).append(shown)

    def order(row: Any) -> tuple[bool, datetime, datetime]:
        deadline = aware(row.deadline) if row.deadline is not None else FAR_OFF
        return (player_id not in (row.waiting_for or ()), deadline, last_move(row))

    return [
        {
            "room_id": row.id,
            "match_id": row.match_id,
            "game": row.game,
            "pace": (row.table or {}).get("pace", "live"),
            "your_turn": player_id in (row.waiting_for or ()),
            "waiting_for": row.waiting_for or [],
            "deadline": iso(row.deadline),
            "seats": seats.get(row.id, []),
            "last_move_at": iso(last_move(row)),
        }
        for row in sorted(found, key=order)
    ]


async def waiting_count(db: AsyncEngine, player_id: int) -> int:
    """How many of the player's running matches wait for them: the count of ``games_of``'s
    ``your_turn``, without the seats (what ``/ws/me`` sends)."""
    async with db.connect() as conn:
        waiting = await conn.scalars(
            select(MatchTurn.waiting_for)
            .join(Room, Room.match_id == MatchTurn.match_id)
            .join(RoomSeat, RoomSeat.room_id == Room.id)
            .where(RoomSeat.player_id == player_id, Room.status == "playing")
        )
        return sum(player_id in (players or ()) for players in waiting)


def last_move(row: Any) -> datetime:
    return aware(row.last_move_at or row.started_at)
