"""Waiting for an effect instead of sleeping a fixed time: poll until it shows, with a deadline.

:func:`until` looks again and again until a condition holds, :func:`play_until` makes moves
until a match is over, :func:`until_async` is :func:`until` inside an event loop. Each fails
with a ``TimeoutError`` naming what never happened, past its limit: the tests' deadline loops
are these (and ``RoomSocket.expect_until``, which waits on its socket). A test whose room core
runs on a ``ManualClock`` (app/rooms/clock.py), or whose page on Playwright's ``page.clock``,
moves time itself instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")

WAIT_LIMIT_S = 10.0
POLL_S = 0.02
"""How long :func:`until` pauses between two looks."""

What = str | Callable[[], str]
"""What was awaited, in words; or a function asked for them at the failure (to tell what was
seen by then)."""

Pause = Callable[[float], None]
"""Waits the seconds it is given. A browser test passes one that lets Playwright run the page's
handlers meanwhile (see tests/support/table_steps.py: a plain sleep holds them back)."""

_LOCK_WAITS = text(
    "SELECT count(*) FROM pg_stat_activity "
    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
)


class _Deadline:
    def __init__(self, what: What, limit_s: float) -> None:
        self.what, self.limit_s = what, limit_s
        self.at = time.monotonic() + limit_s

    def check(self) -> None:
        if time.monotonic() > self.at:
            what = self.what() if callable(self.what) else self.what
            raise TimeoutError(f"{what} did not happen within {self.limit_s} s")


def until(
    shown: Callable[[], T],
    what: What,
    limit_s: float = WAIT_LIMIT_S,
    *,
    every_s: float = POLL_S,
    pause: Pause = time.sleep,
) -> T:
    """``shown()``'s first true answer, asked every ``every_s``; fail with ``what`` past the
    limit."""
    deadline = _Deadline(what, limit_s)
    while not (answer := shown()):
        deadline.check()
        pause(every_s)
    return answer


def play_until(
    over: Callable[[], bool],
    play: Callable[[], bool],
    what: What,
    limit_s: float = WAIT_LIMIT_S,
    *,
    idle_s: float = POLL_S,
    pause: Pause = time.sleep,
) -> None:
    """Call ``play()`` until ``over()``. Each call makes the moves it can and says whether it
    made any; only after one that made none comes a pause of ``idle_s`` (a table that moves
    is never held up). Fail with ``what`` past the limit."""
    deadline = _Deadline(what, limit_s)
    while not over():
        deadline.check()
        if not play():
            pause(idle_s)


async def until_async(
    shown: Callable[[], Awaitable[T]],
    what: What,
    limit_s: float = WAIT_LIMIT_S,
    *,
    every_s: float = 0.01,
) -> T:
    """:func:`until` in an event loop: ``await shown()``'s first true answer."""
    deadline = _Deadline(what, limit_s)
    while not (answer := await shown()):
        deadline.check()
        await asyncio.sleep(every_s)
    return answer


async def until_waiting_on_a_lock(db: AsyncEngine) -> None:
    """Return once a session of ``db``'s (Postgres) database waits for a lock another holds."""

    async def lock_waits() -> int:
        async with db.connect() as conn:
            return int(await conn.scalar(_LOCK_WAITS) or 0)

    await until_async(lock_waits, "a session waiting for a lock")
