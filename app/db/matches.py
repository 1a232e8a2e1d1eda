"""Matches: the records of one, what its start and end write, and the reads that load it back
(the same SQLAlchemy Core on every backend)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.bot_names import bot_name
from app.db.models import Match, Move, Snapshot
from app.db.rooms import RoomRecord

MIN_OWN_MOVES = 3
"""The moves of its own every human seat must have made for a match to be rated: moves its
player sent, not a stand-in's nor a timer's for an absent player (``moves.stand_in``). A guest
who takes a seat and never plays gives nobody a rated win."""


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
    stand_in: bool = False  # a bot played it for the seat's away player


def start_rows(
    room: RoomRecord, *, seed: int, engine_version: str, at: datetime
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What a match's start writes: its ``matches`` row (without its id) and its seats' rows
    (without the match id)."""
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
        "started_at": at,
    }
    seats = [
        {
            "seat": s.seat,
            "player_id": s.player.id if s.player else None,
            "bot": s.bot,
            "name": s.player.name if s.player else bot_name(room.id, s.seat),
        }
        for s in room.seats
    ]
    return match, seats


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
    abandoned: frozenset[int] = frozenset()  # seats whose player was away at the end
    # each seat's moves of its own (not a stand-in's); None: not counted, no minimum asked
    own_moves: tuple[int, ...] | None = None

    @property
    def changes_ratings(self) -> bool:
        """Whether the match is rated: it has a result, two seats or more, every human seated
        once and having made ``MIN_OWN_MOVES`` moves of its own, and a human who did not
        abandon it."""
        humans = [player for player, _ in self.seats if player is not None]
        stayed = [s for s, (player, _) in enumerate(self.seats) if player is not None]
        return (
            self.rated
            and len(self.seats) >= 2
            and len(set(humans)) == len(humans)
            and any(seat not in self.abandoned for seat in stayed)
            and not self.idle_seats
        )

    @property
    def idle_seats(self) -> list[int]:
        """The human seats with fewer than ``MIN_OWN_MOVES`` moves of their own (none when
        the moves were not counted)."""
        if self.own_moves is None:
            return []
        return [
            seat
            for seat, (player, _) in enumerate(self.seats)
            if player is not None and self.own_moves[seat] < MIN_OWN_MOVES
        ]

    def won(self, seat: int) -> bool:
        """A seat among the winners that did not abandon the match."""
        return seat in self.outcome.get("winners", []) and seat not in self.abandoned


def seat_results(ends: list[MatchEnd]) -> list[tuple[int, int, Any, bool, bool]]:
    """(match id, seat, score, winner, abandoned) for every scored seat of the matches that
    end: an abandoned seat never wins."""
    return [
        (e.match_id, seat, score, e.won(seat), seat in e.abandoned)
        for e in ends
        for seat, score in enumerate(e.outcome.get("scores", []))
    ]


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
        select(Move.seq, Move.seat, Move.action, Move.at, Move.stand_in)
        .where(Move.match_id == match_id, Move.seq > after_seq)
        .order_by(Move.seq)
    )
    return [MoveRow(r.seq, r.seat, r.action, r.at, r.stand_in) for r in rows]


async def load_own_moves(db: AsyncEngine, match_id: int, through_seq: int) -> dict[int, int]:
    """Each seat's moves of its own (not a stand-in's) among moves 1 to ``through_seq``."""
    async with db.connect() as conn:
        counts = await own_move_counts(conn, [match_id], through_seq)
    return counts.get(match_id, {})


async def own_move_counts(
    conn: AsyncConnection, match_ids: list[int], through_seq: int | None = None
) -> dict[int, dict[int, int]]:
    """``match id -> seat -> moves of its own`` (not a stand-in's), through ``through_seq``."""
    if not match_ids:
        return {}
    query = (
        select(Move.match_id, Move.seat, func.count())
        .where(Move.match_id.in_(match_ids), Move.stand_in.is_(False))
        .group_by(Move.match_id, Move.seat)
    )
    if through_seq is not None:
        query = query.where(Move.seq <= through_seq)
    counts: dict[int, dict[int, int]] = {}
    for match_id, seat, count in await conn.execute(query):
        counts.setdefault(match_id, {})[seat] = int(count)
    return counts


async def load_move_count(db: AsyncEngine, match_id: int) -> int:
    async with db.connect() as conn:
        return await move_count(conn, match_id)


async def move_count(conn: AsyncConnection, match_id: int) -> int:
    value = await conn.scalar(select(func.max(Move.seq)).where(Move.match_id == match_id))
    return int(value or 0)
