"""``INSERT ... ON CONFLICT`` in the connection's own dialect (Postgres's or SQLite's)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection


def upsert(conn: AsyncConnection, table: Any) -> Any:
    """An insert into ``table`` that can say ``on_conflict_do_nothing``/``_do_update``."""
    return (pg_insert if conn.dialect.name == "postgresql" else sqlite_insert)(table)
