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

What a batch writes, and how, is the backend's (:class:`MoveWriter`: app/db/sqlite_store.py,
app/db/postgres_store.py); the log only batches, retries and answers.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import orjson
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.driver import ConnectionLost
from app.db.matches import MatchEnd

log = logging.getLogger(__name__)

MAX_BATCH = 1000


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
    stand_in: bool = False  # a bot plays it for the seat's away player
    done: asyncio.Future[bool] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    action_json: str = field(init=False, default="")  # set by ``MoveLog.append``
    snapshot_json: str | None = field(init=False, default=None)  # likewise

    def encode(self) -> None:
        """Encode the action and the snapshot, and check the outcome encodes (as the writers
        encode it); raises :class:`UnstorableMove`."""
        try:
            if self.snapshot is not None:
                self.snapshot_json = orjson.dumps(self.snapshot).decode()
            if self.end is not None:
                orjson.dumps(self.end.outcome, option=orjson.OPT_NON_STR_KEYS)
            self.action_json = orjson.dumps(self.action).decode()
        except (TypeError, RecursionError) as error:  # orjson.JSONEncodeError is a TypeError
            log.error("move %d of match %d does not encode: %s", self.seq, self.match_id, error)
            raise UnstorableMove() from error


class MoveWriter(Protocol):
    """A backend's writes of the log's batches, on connections the log keeps."""

    async def connect(self, atomic: bool) -> AsyncConnection:
        """A new connection for a pipeline (``atomic``: the one whose batches are
        transactions)."""
        ...

    async def renew(self) -> None:
        """After a connection was lost below SQLAlchemy: the pool's idle connections may be
        dead too (a database restart drops them all), so none of them is lent again."""
        ...

    async def write(
        self, conn: AsyncConnection, batch: list[MoveCommit], atomic: bool
    ) -> set[tuple[int, int]]:
        """Write a batch: its moves, then the snapshots and match ends of those stored;
        ``(match_id, seq)`` of each move stored. A lost connection raises
        :class:`ConnectionLost` or SQLAlchemy's invalidated ``DBAPIError``."""
        ...


class MoveLog:
    def __init__(self, writer: MoveWriter) -> None:
        self._writer = writer
        # by whether the pipeline runs transactions
        self._queues: dict[bool, asyncio.Queue[MoveCommit]] = {
            True: asyncio.Queue(),
            False: asyncio.Queue(),
        }
        self._tasks: list[asyncio.Task[None]] = []
        self._conns: dict[bool, AsyncConnection] = {}
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
        and ping each time); a connection found dead (the database restarted), the log's own
        or one just taken from the pool, is replaced, once, the pool renewed first."""
        try:
            return await self._attempt(atomic, batch)
        except Exception as error:
            if not _lost(error):
                raise
        await self._writer.renew()
        return await self._attempt(atomic, batch)

    async def _attempt(self, atomic: bool, batch: list[MoveCommit]) -> set[tuple[int, int]]:
        """One write on the pipeline's connection, taken from the pool when it has none. The
        connection stays the log's whatever fails (its transaction rolled back), but for a
        lost one, which is closed: ``_run`` closes the rest when it stops."""
        conn = self._conns.get(atomic)
        if conn is None:
            try:
                conn = self._conns[atomic] = await self._writer.connect(atomic)
            except Exception as error:  # whatever the driver says, not the batch's fault
                raise ConnectionLost(f"cannot connect: {error}") from error
        try:
            return await self._writer.write(conn, batch, atomic)
        except Exception as error:
            if _lost(error):
                del self._conns[atomic]
                if isinstance(error, ConnectionLost):
                    await conn.invalidate()
                await conn.close()
            raise


def _lost(error: BaseException) -> bool:
    """The connection is gone (SQLAlchemy has invalidated it, or the driver found it lost)."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated
    return isinstance(error, ConnectionLost)


def _out_of_reach(error: BaseException) -> bool:
    """The database failed, not what was written: a lost connection, the pool, the server."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or isinstance(error, OperationalError | InterfaceError)
    return isinstance(error, ConnectionLost | OSError | PoolTimeout)
