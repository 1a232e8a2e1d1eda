"""The move log: appends moves with group commit.

Moves of many rooms that arrive while a commit is under way are written together
in the next transaction, so the database sees one commit per batch, not one per
move. ``append`` resolves only after the commit: an acknowledged move is durable.
The primary key ``(match_id, seq)`` is the lock between processes: a move whose
insert conflicts resolves to ``False`` and its room must catch up.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.clock import utcnow
from app.db.models import Match, MatchSeat, Move, Snapshot
from app.db.ratings import record_match
from app.db.rooms import set_status

log = logging.getLogger(__name__)

MAX_BATCH = 1000


@dataclass
class MoveCommit:
    room_id: str
    match_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    at: datetime
    outcome: dict[str, Any] | None = None
    snapshot: dict[str, Any] | None = None
    done: asyncio.Future[bool] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class MoveLog:
    def __init__(self, db: AsyncEngine) -> None:
        self._db = db
        self._queue: asyncio.Queue[MoveCommit] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        dialect = postgresql if db.dialect.name == "postgresql" else sqlite
        self._insert = (
            dialect.insert(Move)
            .on_conflict_do_nothing(index_elements=["match_id", "seq"])
            .returning(Move.match_id, Move.seq)
        )
        self.batches = 0
        self.moves = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="movelog")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def append(self, commit: MoveCommit) -> bool:
        """Durably store one move; ``False`` if another process took that ``seq`` first."""
        if self._task is None:
            raise RuntimeError("the move log is not running")
        self._queue.put_nowait(commit)
        return await commit.done

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < MAX_BATCH:
                batch.append(self._queue.get_nowait())
            try:
                async with self._db.begin() as conn:
                    won = await self._write(conn, batch)
            except Exception as error:  # the whole batch failed: every waiter hears why
                log.exception("move batch of %d failed", len(batch))
                for commit in batch:
                    if not commit.done.done():
                        commit.done.set_exception(error)
                continue
            self.batches += 1
            self.moves += len(won)
            for commit in batch:
                if not commit.done.done():
                    commit.done.set_result((commit.match_id, commit.seq) in won)

    async def _write(self, conn: AsyncConnection, batch: list[MoveCommit]) -> set[tuple[int, int]]:
        rows = [
            {"match_id": c.match_id, "seq": c.seq, "seat": c.seat, "action": c.action, "at": c.at}
            for c in batch
        ]
        won = {(r.match_id, r.seq) for r in await conn.execute(self._insert, rows)}
        for commit in batch:
            if (commit.match_id, commit.seq) not in won:
                continue
            if commit.snapshot is not None:
                await _save_snapshot(conn, commit)
            if commit.outcome is not None:
                await finish_match(
                    conn, commit.room_id, commit.match_id, commit.seq, commit.outcome, commit.at
                )
        return won

    async def finish(
        self, room_id: str, match_id: int, move_count: int, outcome: dict[str, Any]
    ) -> None:
        """End a match without a move (a forfeit)."""
        async with self._db.begin() as conn:
            await finish_match(conn, room_id, match_id, move_count, outcome, utcnow())


async def _save_snapshot(conn: AsyncConnection, commit: MoveCommit) -> None:
    await conn.execute(delete(Snapshot).where(Snapshot.match_id == commit.match_id))
    await conn.execute(
        insert(Snapshot).values(match_id=commit.match_id, seq=commit.seq, state=commit.snapshot)
    )


async def finish_match(
    conn: AsyncConnection,
    room_id: str,
    match_id: int,
    move_count: int,
    outcome: dict[str, Any],
    at: datetime,
) -> None:
    await conn.execute(
        update(Match)
        .where(Match.id == match_id)
        .values(status="finished", outcome=outcome, move_count=move_count, finished_at=at)
    )
    winners = set(outcome.get("winners", []))
    for seat, score in enumerate(outcome.get("scores", [])):
        await conn.execute(
            update(MatchSeat)
            .where(MatchSeat.match_id == match_id, MatchSeat.seat == seat)
            .values(score=score, winner=seat in winners)
        )
    await record_match(conn, match_id, outcome, at)
    await conn.execute(delete(Snapshot).where(Snapshot.match_id == match_id))
    await set_status(conn, room_id, "finished")
