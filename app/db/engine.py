"""The async database engine, with SQLite tuned for a server (WAL, busy timeout)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine


def make_engine(
    url: str, pool_size: int = 40, max_overflow: int = 0, pool_timeout: float = 10.0
) -> AsyncEngine:
    """``hide_parameters``: a statement's error (logged when a move batch is refused) never
    carries its values, which may be a snapshot's hidden hands and seed."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30}, hide_parameters=True)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    # No pre-ping: it would cost a round trip on every checkout. A connection the database
    # dropped (a restart) fails its statement once; SQLAlchemy then recycles the whole pool,
    # the move log retries on a new connection and a request answers 503 (see api/errors.py).
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=pool_timeout,
        hide_parameters=True,
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)
