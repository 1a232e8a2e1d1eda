"""The move log: appends moves with group commit.

Moves of many rooms that arrive while a commit is under way are written together
in the next transaction, so the database sees one commit per batch, not one per
move. ``append`` resolves only after the commit: an acknowledged move is durable.
The primary key ``(match_id, seq)`` is the lock between processes: a move whose
insert conflicts resolves to ``False`` and its room must catch up.

Two pipelines run side by side, each on its own connection: the moves that end a match
or carry a snapshot go in transactions (a finish writes the match, its seats, records
and ratings: several statements), the others (most) in one autocommitted INSERT a batch.
Neither waits for the other, so plain moves never queue behind a finish. A match has at
most one move in the log at a time (its room waits for the commit), so the two are
independent.

One move fails alone. Its JSON (action, snapshot, outcome) is encoded in ``append``, before it
joins a batch: one that does not encode is refused there with :class:`UnstorableMove`. A batch
the database refuses for what it holds (not for a lost connection) is written again in halves,
down to the move at fault, which alone hears :class:`UnstorableMove`. Each pipeline keeps its
connection until the connection is found lost, then closes it: none is ever left checked out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

import orjson
from asyncpg import Connection as AsyncpgConnection
from sqlalchemy import bindparam, delete, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.driver import (
    ConnectionLost,
    DriverConnection,
    Writer,
    connection_errors,
    driver_of,
    transaction,
)
from app.db.matches import MatchEnd
from app.db.models import Match, MatchSeat, Move, Room, Snapshot
from app.db.ratings.writes import rated_or_not, record_matches

log = logging.getLogger(__name__)

MAX_BATCH = 1000
W = TypeVar("W", bound=Writer)


class UnstorableMove(ValueError):
    """A move the database cannot store: nothing of it was written, and its room goes on
    without it. The message is for its player; the log has the details."""

    def __init__(self) -> None:
        super().__init__("This move could not be stored, so it was not made.")


@dataclass
class MoveCommit:
    room_id: str
    match_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    at: datetime
    end: MatchEnd | None = None  # the move ends the match
    snapshot: dict[str, Any] | None = None
    done: asyncio.Future[bool] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    action_json: str = field(init=False, default="")  # set by ``MoveLog.append``

    def encode(self) -> None:
        """Encode the action, and check the snapshot and the outcome encode (as the writers
        encode them); raises :class:`UnstorableMove`."""
        try:
            if self.snapshot is not None:
                orjson.dumps(self.snapshot)
            if self.end is not None:
                orjson.dumps(self.end.outcome, option=orjson.OPT_NON_STR_KEYS)
            self.action_json = orjson.dumps(self.action).decode()
        except (TypeError, RecursionError) as error:  # orjson.JSONEncodeError is a TypeError
            log.error("move %d of match %d does not encode: %s", self.seq, self.match_id, error)
            raise UnstorableMove() from error


class MoveLog:
    def __init__(self, db: AsyncEngine) -> None:
        self._db = db
        # by whether the pipeline runs transactions
        self._queues: dict[bool, asyncio.Queue[MoveCommit]] = {
            True: asyncio.Queue(),
            False: asyncio.Queue(),
        }
        self._tasks: list[asyncio.Task[None]] = []
        self._conns: dict[bool, AsyncConnection] = {}
        self._postgres = db.dialect.name == "postgresql"
        dialect = postgresql if self._postgres else sqlite
        self._insert = (
            dialect.insert(Move)
            .on_conflict_do_nothing(index_elements=["match_id", "seq"])
            .returning(Move.match_id, Move.seq)
        )
        snapshot = dialect.insert(Snapshot)
        self._snapshot = snapshot.on_conflict_do_update(
            index_elements=["match_id"],
            set_={"seq": snapshot.excluded.seq, "state": snapshot.excluded.state},
        )
        self.batches = 0
        self.moves = 0

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._run(atomic), name=f"movelog-{kind}")
            for atomic, kind in ((True, "transactions"), (False, "moves"))
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    async def append(self, commit: MoveCommit) -> bool:
        """Durably store one move; ``False`` if another process took that ``seq`` first."""
        if not self._tasks:
            raise RuntimeError("the move log is not running")
        commit.encode()
        self._queues[commit.end is not None or commit.snapshot is not None].put_nowait(commit)
        return await commit.done

    async def _run(self, atomic: bool) -> None:
        queue = self._queues[atomic]
        try:
            while True:
                batch = [await queue.get()]
                while not queue.empty() and len(batch) < MAX_BATCH:
                    batch.append(queue.get_nowait())
                await self._settle(atomic, batch)
        finally:
            conn = self._conns.pop(atomic, None)
            if conn is not None:
                await conn.close()

    async def _settle(self, atomic: bool, batch: list[MoveCommit]) -> None:
        """Commit a batch and tell each of its waiters how it went."""
        try:
            won = await self._commit_on(atomic, batch)
        except Exception as error:
            if _out_of_reach(error):  # the whole batch failed: every waiter hears why
                log.exception("move batch of %d failed", len(batch))
                self._fail(batch, error)
            elif len(batch) > 1:  # a move in it is at fault: the others are written
                log.warning(
                    "move batch of %d refused (%r): writing it in halves", len(batch), error
                )
                middle = len(batch) // 2
                await self._settle(atomic, batch[:middle])
                await self._settle(atomic, batch[middle:])
            else:
                log.error(
                    "move %d of match %d refused", batch[0].seq, batch[0].match_id, exc_info=error
                )
                self._fail(batch, UnstorableMove())
            return
        self.batches += 1
        self.moves += len(won)
        for commit in batch:
            if not commit.done.done():
                commit.done.set_result((commit.match_id, commit.seq) in won)

    @staticmethod
    def _fail(batch: list[MoveCommit], error: Exception) -> None:
        for commit in batch:
            if not commit.done.done():
                commit.done.set_exception(error)

    async def _commit_on(self, atomic: bool, batch: list[MoveCommit]) -> set[tuple[int, int]]:
        """Write on one of the log's own connections (kept between batches: no pool checkout
        and ping each time); a connection found dead (the database restarted) is replaced,
        once. The connection stays the log's whatever fails (its transaction rolled back), but
        for a lost one, which is closed: ``_run`` closes the rest when it stops."""
        conn = self._conns.get(atomic)
        if conn is not None:
            try:
                return await self._write_in_transaction(conn, batch, atomic)
            except DBAPIError as error:
                if not error.connection_invalidated:
                    raise
                del self._conns[atomic]
                await conn.close()
            except ConnectionLost:
                del self._conns[atomic]
                await conn.invalidate()
                await conn.close()
        try:
            conn = self._conns[atomic] = await self._db.connect()
        except Exception as error:  # whatever the driver says, nothing was the batch's fault
            raise ConnectionLost(f"cannot connect: {error}") from error
        if self._postgres or not atomic:
            # SQLAlchemy never opens a transaction on it: on Postgres the log drives its
            # transactions on the driver; moves alone are one INSERT, which commits by itself
            await conn.execution_options(isolation_level="AUTOCOMMIT")
        return await self._write_in_transaction(conn, batch, atomic)

    async def _write_in_transaction(
        self, conn: AsyncConnection, batch: list[MoveCommit], atomic: bool
    ) -> set[tuple[int, int]]:
        if not self._postgres:
            return await rated_or_not(
                lambda: _began(conn, conn.begin()), partial(self._write, batch=batch)
            )
        driver = await driver_of(conn)
        with connection_errors():
            if not atomic:
                return await _insert_on_driver(driver, batch)
            writer = DriverConnection(driver, conn.dialect)
            return await rated_or_not(
                lambda: _began(writer, driver.transaction()), partial(self._write, batch=batch)
            )

    async def _write(
        self, conn: Writer, rate: bool, *, batch: list[MoveCommit]
    ) -> set[tuple[int, int]]:
        """The moves of a batch, then the snapshots and match ends of those stored."""
        if isinstance(conn, DriverConnection):
            won = await _insert_on_driver(conn.driver, batch)
        else:
            rows = [
                {
                    "match_id": c.match_id,
                    "seq": c.seq,
                    "seat": c.seat,
                    "action": c.action,
                    "at": c.at,
                }
                for c in batch
            ]
            won = {(r.match_id, r.seq) for r in await conn.execute(self._insert, rows)}
        stored = [c for c in batch if (c.match_id, c.seq) in won]
        snapshots = [
            {"match_id": c.match_id, "seq": c.seq, "state": c.snapshot}
            for c in stored
            if c.snapshot is not None
        ]
        if snapshots:
            await conn.execute(self._snapshot, snapshots)
        ends = [c.end for c in stored if c.end is not None]
        if ends:
            await finish_matches(conn, ends, rate=rate)
        return won

    async def finish(self, end: MatchEnd) -> None:
        """End a match without a move (a forfeit)."""
        await rated_or_not(
            lambda: transaction(self._db), lambda conn, rate: finish_matches(conn, [end], rate=rate)
        )


# Moves on Postgres: one statement of the same text for any batch. Through SQLAlchemy a
# one-row batch cost 0.8 ms of CPU here (compiled and cached) against 0.3 ms for the whole
# asyncpg round trip: most of a light-load move's server time.
_INSERT_MOVES = (
    "INSERT INTO moves (match_id, seq, seat, action, at) "
    "SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::json[], "
    "$5::timestamptz[]) ON CONFLICT (match_id, seq) DO NOTHING RETURNING match_id, seq"
)


async def _insert_on_driver(
    driver: AsyncpgConnection, batch: list[MoveCommit]
) -> set[tuple[int, int]]:
    """Insert a batch of moves with asyncpg (the json codec SQLAlchemy installs takes the JSON
    text)."""
    rows = await driver.fetch(
        _INSERT_MOVES,
        [c.match_id for c in batch],
        [c.seq for c in batch],
        [c.seat for c in batch],
        [c.action_json for c in batch],
        [c.at for c in batch],
    )
    return {(match_id, seq) for match_id, seq in rows}


def _out_of_reach(error: BaseException) -> bool:
    """The database failed, not what was written: a lost connection, the pool, the server."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or isinstance(error, OperationalError | InterfaceError)
    return isinstance(error, ConnectionLost | OSError | PoolTimeout)


async def finish_matches(conn: Writer, ends: list[MatchEnd], *, rate: bool) -> None:
    """Close the matches, their seats and their rooms, then count and rate them if ``rate``,
    a few statements for all of them, in the caller's transaction."""
    if isinstance(conn, DriverConnection):
        await _close_on_driver(conn.driver, ends)
    else:
        await _close(conn, ends)
    if rate:
        await record_matches(conn, ends)


@asynccontextmanager
async def _began(conn: W, began: AbstractAsyncContextManager[Any]) -> AsyncIterator[W]:
    """``conn`` inside the transaction ``began`` opens (``conn.begin()``, or the driver's)."""
    async with began:
        yield conn


def _seat_rows(ends: list[MatchEnd]) -> list[tuple[int, int, Any, bool]]:
    """(match id, seat, score, winner) for every scored seat."""
    return [
        (e.match_id, seat, score, seat in e.outcome.get("winners", []))
        for e in ends
        for seat, score in enumerate(e.outcome.get("scores", []))
    ]


async def _close(conn: AsyncConnection, ends: list[MatchEnd]) -> None:
    await conn.execute(
        _FINISH_MATCH,
        [
            {"b_id": e.match_id, "b_outcome": e.outcome, "b_moves": e.move_count, "b_at": e.at}
            for e in ends
        ],
    )
    seats = [
        {"mid": match_id, "s": seat, "b_score": score, "b_winner": winner}
        for match_id, seat, score, winner in _seat_rows(ends)
    ]
    if seats:
        await conn.execute(_FINISH_SEAT, seats)
    snapshots = [{"mid": e.match_id} for e in ends if e.has_snapshot]
    if snapshots:
        await conn.execute(_DROP_SNAPSHOT, snapshots)
    await conn.execute(_ROOM_FINISHED, [{"rid": e.room_id, "at": e.at} for e in ends])


# The same four writes on Postgres in one statement of one text for any batch: each of them
# was a round trip, and a busy server waits a turn of its event loop for every one.
_CLOSE_MATCHES = """
WITH ended AS (
    UPDATE matches AS m
    SET status = 'finished', outcome = x.outcome, move_count = x.moves, finished_at = x.at
    FROM unnest($1::integer[], $2::json[], $3::integer[], $4::timestamptz[])
        AS x(id, outcome, moves, at)
    WHERE m.id = x.id
), scored AS (
    UPDATE match_seats AS s SET score = x.score, winner = x.winner
    FROM unnest($5::integer[], $6::integer[], $7::float8[], $8::boolean[])
        AS x(match_id, seat, score, winner)
    WHERE s.match_id = x.match_id AND s.seat = x.seat
), dropped AS (
    DELETE FROM snapshots WHERE match_id = ANY($9::integer[])
)
UPDATE rooms AS r SET status = 'finished', updated_at = x.at
FROM unnest($10::text[], $11::timestamptz[]) AS x(id, at)
WHERE r.id = x.id AND r.id = ANY($10)
"""


async def _close_on_driver(driver: AsyncpgConnection, ends: list[MatchEnd]) -> None:
    seats = _seat_rows(ends)
    await driver.execute(
        _CLOSE_MATCHES,
        [e.match_id for e in ends],
        [orjson.dumps(e.outcome, option=orjson.OPT_NON_STR_KEYS).decode() for e in ends],
        [e.move_count for e in ends],
        [e.at for e in ends],
        [row[0] for row in seats],
        [row[1] for row in seats],
        [row[2] for row in seats],
        [row[3] for row in seats],
        [e.match_id for e in ends if e.has_snapshot],
        [e.room_id for e in ends],
        [e.at for e in ends],
    )


_FINISH_MATCH = (
    update(Match)
    .where(Match.id == bindparam("b_id"))
    .values(
        status="finished",
        outcome=bindparam("b_outcome", type_=Match.outcome.type),
        move_count=bindparam("b_moves"),
        finished_at=bindparam("b_at"),
    )
)
_FINISH_SEAT = (
    update(MatchSeat)
    .where(MatchSeat.match_id == bindparam("mid"), MatchSeat.seat == bindparam("s"))
    .values(score=bindparam("b_score"), winner=bindparam("b_winner"))
)
_DROP_SNAPSHOT = delete(Snapshot).where(Snapshot.match_id == bindparam("mid"))
_ROOM_FINISHED = (
    update(Room)
    .where(Room.id == bindparam("rid"))
    .values(status="finished", updated_at=bindparam("at"))
)
