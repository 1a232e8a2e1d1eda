"""The room core in process: a real :class:`Services` (RoomManager, move log, broker, hub) on a
real database (SQLite, or the Postgres named by CARDROOM_TEST_DATABASE_URL), on the clock a
test gives it."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from app.db.players import PlayerRecord, create_player
from app.rooms.clock import SYSTEM_CLOCK, Clock
from app.services import Services
from app.settings import Settings
from tests.support.server import run_on_own_loop


def with_services(
    database_url: str,
    work: Callable[[Services], Awaitable[Any]],
    *,
    clock: Clock = SYSTEM_CLOCK,
    **settings: Any,
) -> Any:
    """``work`` run against services started on ``clock`` with ``settings``, stopped after."""

    async def run() -> Any:
        # seat holds as short as a test likes (a new room's minimum is the shipped setting's)
        base = {"database_url": database_url, "redis_url": None, "min_seat_hold_seconds": 1}
        services = await Services.start(
            Settings(**{**base, **settings}),
            clock=clock,
        )
        try:
            return await work(services)
        finally:
            await services.stop()
            await none_left_running()

    return run_on_own_loop(run())


async def none_left_running(limit_s: float = 10.0) -> None:
    """After ``Services.stop``, every task still on the loop (a message being published, say)
    ends when cancelled. One that does not would hang ``asyncio.run`` for ever: fail instead,
    naming it and where it waits."""
    left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in left:
        task.cancel()
    if not left:
        return
    _, stuck = await asyncio.wait(left, timeout=limit_s)
    if stuck:
        where = f"tasks that outlive Services.stop and its cancel: {stuck!r}"
        print(where, file=sys.__stderr__)  # asyncio.run still waits for them: said at once
        raise AssertionError(where)


async def new_player(services: Services, name: str) -> PlayerRecord:
    player, _ = await create_player(services.db, name)
    return player
