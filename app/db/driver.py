"""SQLAlchemy Core statements run on the asyncpg connection under an SQLAlchemy one.

Measured on Postgres here: SQLAlchemy's execution layer costs about 0.5 ms of our CPU a
statement, compiled and cached, more than asyncpg's whole round trip. The writes every match
makes (its start, the commit that ends it, its ratings) go through :class:`DriverConnection`
instead: each statement is compiled once by the engine's own dialect, then handed to asyncpg
with the dialect's bind processors applied.

It does only what those writes need: results are asyncpg records as they come (ids and
numbers, no result processing), no expanding parameters, no Python-side column defaults.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

from asyncpg import Connection as AsyncpgConnection
from asyncpg import Record
from asyncpg.exceptions import (
    InterfaceError,
    InternalClientError,
    OperatorInterventionError,
    PostgresConnectionError,
    PostgresError,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql import ClauseElement

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


@dataclass(frozen=True)
class _Bind:
    name: str
    required: bool
    default: Any  # a value bound in the statement itself (``values(status="finished")``)
    process: Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Compiled:
    sql: str
    returns: bool
    binds: tuple[_Bind, ...]  # in the order of the statement's $n

    def args(self, params: Mapping[str, Any]) -> list[Any]:
        values = []
        for bind in self.binds:
            value = params[bind.name] if bind.required else params.get(bind.name, bind.default)
            values.append(value if bind.process is None else bind.process(value))
        return values


_COMPILED: dict[tuple[ClauseElement, tuple[str, ...]], _Compiled] = {}


def _compile(dialect: Dialect, statement: ClauseElement, keys: tuple[str, ...]) -> _Compiled:
    compiled = _COMPILED.get((statement, keys))
    if compiled is None:
        done = statement.compile(dialect=dialect, column_keys=list(keys))
        if done.insert_prefetch or done.update_prefetch:
            raise ValueError("a statement with Python-side column defaults is not supported")
        processors = done._bind_processors  # what SQLAlchemy's own execution applies
        binds = tuple(
            _Bind(name, done.binds[name].required, done.binds[name].value, processors.get(name))
            for name in done.positiontup or ()
        )
        returns = statement.is_select or bool(done.effective_returning)
        compiled = _COMPILED[(statement, keys)] = _Compiled(done.string, returns, binds)
    return compiled


class DriverResult:
    """The rows a statement returned, with the few ``Result`` calls our writes make."""

    def __init__(self, rows: list[Record]) -> None:
        self._rows = rows

    def __iter__(self) -> Iterator[Record]:
        return iter(self._rows)

    def first(self) -> Record | None:
        return self._rows[0] if self._rows else None

    def scalar_one(self) -> Any:
        if len(self._rows) != 1:
            raise ValueError(f"expected one row, got {len(self._rows)}")
        return self._rows[0][0]


class DriverConnection:
    """The part of ``AsyncConnection`` that the start and finish of a match use, on asyncpg."""

    def __init__(self, driver: AsyncpgConnection, dialect: Dialect) -> None:
        self.driver = driver
        self.dialect = dialect

    async def execute(
        self, statement: ClauseElement, params: Mapping[str, Any] | Sequence[Mapping[str, Any]]
    ) -> DriverResult:
        rows = [params] if isinstance(params, Mapping) else params
        if not rows:
            return DriverResult([])
        compiled = _compile(self.dialect, statement, tuple(rows[0]))
        if len(rows) == 1:
            args = compiled.args(rows[0])
            if compiled.returns:
                return DriverResult(await self.driver.fetch(compiled.sql, *args))
            await self.driver.execute(compiled.sql, *args)
            return DriverResult([])
        if compiled.returns:
            raise ValueError("rows returned by a statement run for many rows are not kept")
        await self.driver.executemany(compiled.sql, [compiled.args(row) for row in rows])
        return DriverResult([])


Writer = AsyncConnection | DriverConnection  # what the match writes take


@asynccontextmanager
async def transaction(db: AsyncEngine) -> AsyncIterator[Writer]:
    """A transaction on a pool connection: asyncpg's own on Postgres, SQLAlchemy's elsewhere.
    On Postgres a lost connection is invalidated (not pooled again) and raises
    :class:`ConnectionLost`."""
    if db.dialect.name != "postgresql":
        async with db.begin() as conn:
            yield conn
        return
    async with pooled_driver(db) as driver, driver.transaction():
        yield DriverConnection(driver, db.dialect)


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
    the match starts (app.db.startlog). Checking a connection out of SQLAlchemy's async pool
    and back costs about 200 µs of CPU here (greenlet switches, pool events, a shielded
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
