"""Waiting for an effect instead of sleeping a fixed time: poll until it shows, with a deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

WAIT_LIMIT_S = 10.0

_LOCK_WAITS = text(
    "SELECT count(*) FROM pg_stat_activity "
    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
)


async def until_waiting_on_a_lock(db: AsyncEngine) -> None:
    """Return once a session of ``db``'s (Postgres) database waits for a lock another holds."""
    deadline = time.monotonic() + WAIT_LIMIT_S
    while True:
        async with db.connect() as conn:
            if await conn.scalar(_LOCK_WAITS):
                return
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing waited for a lock within {WAIT_LIMIT_S} s")
        await asyncio.sleep(0.01)


def until(shown: Callable[[], bool], what: str, limit_s: float = WAIT_LIMIT_S) -> None:
    """Return once ``shown()`` is true; fail with ``what`` past the limit."""
    deadline = time.monotonic() + limit_s
    while not shown():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not happen within {limit_s} s")
        time.sleep(0.02)
