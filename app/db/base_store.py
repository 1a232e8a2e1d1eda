"""What every backend's store shares: the reads (SQLAlchemy Core, the same everywhere), the
move log's group commit, and the order of a batch's writes. Each backend writes with its own
statements (the abstract methods): app/db/sqlite_store.py, app/db/postgres_store.py."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db import jobs, matches, rooms, turns
from app.db.matches import MatchEnd, MatchRecord, MoveRow, start_rows
from app.db.movelog import MoveCommit, MoveLog
from app.db.ratings.model import Skill
from app.db.ratings.writes import Key, Rows, rated_or_not, record_matches
from app.db.rooms import PlayingRoom, RoomRecord, SeatChange
from app.db.turns import TurnRow
from app.timestamps import utcnow

C = TypeVar("C")  # the connection the backend writes on


class BaseStore(ABC, Generic[C]):
    def __init__(self, db: AsyncEngine) -> None:
        self.db = db
        self.movelog = MoveLog(self)

    async def open(self) -> None:
        self.movelog.start()

    async def close(self) -> None:
        await self.movelog.stop()

    # -- writes ---------------------------------------------------------------------------
    async def start_match(
        self,
        room: RoomRecord,
        *,
        seed: int,
        engine_version: str,
        from_status: str,
        at: datetime | None = None,
    ) -> MatchRecord | None:
        """Open a match for a room whose every seat is filled; ``None`` if the room moved on
        (no longer in ``from_status``, or a seat left); it started ``at`` (now if not given)."""
        at = utcnow() if at is None else at
        match, seats = start_rows(room, seed=seed, engine_version=engine_version, at=at)
        match_id = await self._start(match, seats, from_status)
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
            started_at=at,
        )

    async def append(self, commit: MoveCommit) -> bool:
        """Durably store one move (group commit); ``False`` if another process took that
        ``seq`` first."""
        return await self.movelog.append(commit)

    async def finish(self, end: MatchEnd) -> None:
        """End a match without a move (a forfeit, an abort)."""
        await rated_or_not(
            self._transaction, lambda conn, rate: self._finish_matches(conn, [end], rate=rate)
        )

    async def rerate(self, ends: Sequence[MatchEnd]) -> None:
        """Rate finished matches again, in order, without counting them (the rebuild)."""
        async with self._transaction() as conn:
            await record_matches(self, conn, ends, count=False)

    async def _write_batch(
        self, conn: C, rate: bool, *, batch: list[MoveCommit]
    ) -> set[tuple[int, int]]:
        """The moves of a batch, then the snapshots and match ends of those stored."""
        won = await self._insert_moves(conn, batch)
        stored = [c for c in batch if (c.match_id, c.seq) in won]
        snapshots = [c for c in stored if c.snapshot is not None]
        if snapshots:
            await self._save_snapshots(conn, snapshots)
        ends = [c.end for c in stored if c.end is not None]
        if ends:
            await self._finish_matches(conn, ends, rate=rate)
        return won

    async def _finish_matches(self, conn: C, ends: list[MatchEnd], *, rate: bool) -> None:
        """Close the matches, their seats and their rooms, then count and rate them if
        ``rate``, a few statements for all of them, in the caller's transaction."""
        await self._close(conn, ends, rate=rate)
        if rate:
            await record_matches(self, conn, ends)

    # -- reads ----------------------------------------------------------------------------
    async def load_room(self, room_id: str) -> RoomRecord | None:
        return await rooms.load_room(self.db, room_id)

    async def load_match(self, match_id: int) -> MatchRecord | None:
        return await matches.load_match(self.db, match_id)

    async def load_snapshot(self, match_id: int) -> tuple[int, dict[str, Any]] | None:
        return await matches.load_snapshot(self.db, match_id)

    async def load_moves(self, match_id: int, after_seq: int = 0) -> list[MoveRow]:
        return await matches.load_moves(self.db, match_id, after_seq)

    async def load_move_count(self, match_id: int) -> int:
        return await matches.load_move_count(self.db, match_id)

    async def load_own_moves(self, match_id: int, through_seq: int) -> dict[int, int]:
        return await matches.load_own_moves(self.db, match_id, through_seq)

    # -- rooms, seats and chat (the same statements on every backend) ---------------------
    async def create_room(
        self,
        *,
        room_id: str,
        game: str,
        options: dict[str, Any],
        table: dict[str, Any],
        seats: int,
        host_id: int,
        private: bool,
    ) -> None:
        await rooms.create_room(
            self.db,
            room_id=room_id,
            game=game,
            options=options,
            table=table,
            seats=seats,
            host_id=host_id,
            private=private,
        )

    async def list_open_rooms(self) -> list[RoomRecord]:
        return await rooms.list_open_rooms(self.db)

    async def set_table(self, room_id: str, table: dict[str, Any]) -> bool:
        return await rooms.set_table(self.db, room_id, table)

    async def playing_rooms(self) -> list[PlayingRoom]:
        return await rooms.playing_rooms(self.db)

    async def record_turns(self, rows: Sequence[TurnRow], now: datetime) -> None:
        await turns.record_turns(self.db, rows, now)

    async def keep_turns_of(self, playing: Sequence[PlayingRoom], due: datetime) -> None:
        async with self.db.begin() as conn:
            for room in playing:
                await jobs.keep_turns(conn, room.room_id, room.match_id, due, replace=False)

    async def open_rooms_of(self, host_id: int) -> int:
        return await rooms.open_rooms_of(self.db, host_id)

    async def bot_matches_of(self, host_id: int) -> int:
        return await rooms.bot_matches_of(self.db, host_id)

    async def claim_seat(self, room_id: str, seat: int, player_id: int) -> SeatChange:
        return await rooms.claim_seat(self.db, room_id, seat, player_id)

    async def put_bot(self, room_id: str, seat: int, level: str) -> SeatChange:
        return await rooms.put_bot(self.db, room_id, seat, level)

    async def clear_seat(self, room_id: str, seat: int) -> SeatChange:
        return await rooms.clear_seat(self.db, room_id, seat)

    async def add_chat(self, room_id: str, player_id: int, text: str, channel: str) -> datetime:
        return await rooms.add_chat(self.db, room_id, player_id, text, channel)

    async def recent_chat(
        self, room_id: str, *, players_only: bool, limit: int
    ) -> list[dict[str, Any]]:
        return await rooms.recent_chat(self.db, room_id, players_only=players_only, limit=limit)

    # -- the backend's statements ------------------------------------------------------------
    @abstractmethod
    async def _start(
        self, match: dict[str, Any], seats: list[dict[str, Any]], from_status: str
    ) -> int | None:
        """Claim the room (still in ``from_status``, every seat filled), insert the match and
        its seats: the match id, or ``None`` with nothing written."""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[C]:
        """A transaction on a pool connection."""

    async def renew(self) -> None:
        """See :class:`app.db.movelog.MoveWriter`: the pool is replaced, its idle
        connections closed (where SQLAlchemy has not done it itself)."""
        await self.db.dispose()

    @abstractmethod
    async def connect(self, atomic: bool) -> AsyncConnection:
        """A connection for a move log pipeline (see :class:`app.db.movelog.MoveWriter`)."""

    @abstractmethod
    async def write(
        self, conn: AsyncConnection, batch: list[MoveCommit], atomic: bool
    ) -> set[tuple[int, int]]:
        """Write a move log batch (see :class:`app.db.movelog.MoveWriter`), through
        :meth:`_write_batch` where it runs in a transaction."""

    @abstractmethod
    async def _insert_moves(self, conn: C, batch: list[MoveCommit]) -> set[tuple[int, int]]:
        """Insert the moves, a conflicting ``(match_id, seq)`` skipped: those inserted."""

    @abstractmethod
    async def _save_snapshots(self, conn: C, commits: list[MoveCommit]) -> None:
        """Put each commit's snapshot in place of its match's."""

    @abstractmethod
    async def _close(self, conn: C, ends: list[MatchEnd], *, rate: bool) -> None:
        """Mark the matches finished (outcome, move count, time, rated if ``rate`` and
        :attr:`MatchEnd.changes_ratings`), score their seats (who won, who abandoned), drop
        their snapshots (``has_snapshot``), mark their rooms finished."""

    @abstractmethod
    async def lock_ratings(self, conn: C, keys: list[Key], at: datetime) -> dict[Key, Skill]:
        """See :class:`app.db.ratings.writes.RatingRows`."""

    @abstractmethod
    async def write_ratings(self, conn: C, records: Rows, updates: Rows, changes: Rows) -> None:
        """See :class:`app.db.ratings.writes.RatingRows`."""


@asynccontextmanager
async def inside(conn: C, began: AbstractAsyncContextManager[Any]) -> AsyncIterator[C]:
    """``conn`` inside the transaction ``began`` opens (``conn.begin()``, or the driver's)."""
    async with began:
        yield conn
