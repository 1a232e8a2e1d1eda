"""The asyncpg connection under a pool connection of SQLAlchemy's, for the Postgres store.

Measured on Postgres here: SQLAlchemy's execution layer costs about 0.5 ms of our CPU a
statement, compiled and cached, more than asyncpg's whole round trip. The writes every match
makes (its start, its moves, the commit that ends it, its ratings) are plain SQL run on the
driver (app/db/postgres_store.py); this module lends the connections and names their loss.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from asyncpg import Connection as AsyncpgConnection
from asyncpg.exceptions import (
    InterfaceError,
    InternalClientError,
    OperatorInterventionError,
    PostgresConnectionError,
    PostgresError,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

# A closed socket, a restart, a terminated backend. A backend's farewell error read before
# its end of stream leaves asyncpg's protocol waiting for a sync that never comes: the next
# statement then fails with InternalClientError ("another operation is in progress").
_LOST = (
    OSError,
    InterfaceError,
    InternalClientError,
    PostgresConnectionError,
    OperatorInterventionError,
)


class ConnectionLost(Exception):
    """The database connection under a driver-level statement is gone."""


@contextmanager
def connection_errors() -> Iterator[None]:
    """Turn the driver's lost-connection errors into :class:`ConnectionLost`."""
    try:
        yield
    except _LOST as error:
        raise ConnectionLost(str(error) or type(error).__name__) from error


async def driver_of(conn: AsyncConnection) -> AsyncpgConnection:
    return (await conn.get_raw_connection()).driver_connection


@asynccontextmanager
async def transaction(db: AsyncEngine) -> AsyncIterator[AsyncpgConnection]:
    """asyncpg's own transaction on a pool connection. A lost connection is invalidated (not
    pooled again) and raises :class:`ConnectionLost`."""
    async with pooled_driver(db) as driver, driver.transaction():
        yield driver


@asynccontextmanager
async def pooled_driver(db: AsyncEngine) -> AsyncIterator[AsyncpgConnection]:
    """The asyncpg connection of a Postgres pool connection, in no transaction (a statement
    commits by itself). A lost connection is invalidated (not pooled again) and raises
    :class:`ConnectionLost`."""
    async with db.connect() as conn:
        driver = await driver_of(conn)
        try:
            with connection_errors():
                yield driver
        except ConnectionLost:
            await conn.invalidate()
            raise


class HeldDriver:
    """A pool connection kept checked out, for a caller that runs one statement at a time:
    the match starts (app.db.postgres_store). Checking a connection out of SQLAlchemy's async
    pool and back costs about 200 µs of CPU here (greenlet switches, pool events, a shielded
    close): more than a start statement itself costs."""

    def __init__(self, db: AsyncEngine) -> None:
        self._db = db
        self._idle: _Held | None = None

    @asynccontextmanager
    async def driver(self) -> AsyncIterator[AsyncpgConnection]:
        """A connection in no transaction (a statement commits by itself). A lost one raises
        :class:`ConnectionLost` and is dropped (the next is opened anew), as is one left in
        doubt by anything but a database error."""
        held, self._idle = self._idle, None
        if held is None:
            conn = await self._db.connect()
            held = conn, await driver_of(conn)
        try:
            with connection_errors():
                yield held[1]
        except PostgresError:
            await self._give_back(held)
            raise
        except BaseException:  # lost, or cancelled mid-statement, say
            await held[0].invalidate()
            await held[0].close()
            raise
        await self._give_back(held)

    async def _give_back(self, held: _Held) -> None:
        if held[1].is_in_transaction():  # a caller left one open: never lend it out so
            await held[0].invalidate()
            await held[0].close()
        elif self._idle is None:
            self._idle = held
        else:  # a second caller at once had one of its own: back to the pool with it
            await held[0].close()

    async def close(self) -> None:
        idle, self._idle = self._idle, None
        if idle is not None:
            await idle[0].close()


_Held = tuple[AsyncConnection, AsyncpgConnection]
