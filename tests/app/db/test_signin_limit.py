"""The failed sign-in limit on its own, on a ManualClock: hit, then lifted as time passes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.signin_limit import SigninLimit, TooManyFailures
from app.rooms.clock import ManualClock
from tests.app.db.conftest import LoopThread

WINDOW = timedelta(minutes=15)


def test_the_limit_is_hit_and_lifted_by_the_clock(db: AsyncEngine, loop: LoopThread) -> None:
    clock = ManualClock()
    limit = SigninLimit(db, clock.now, WINDOW, per_username=3, per_address=5)

    async def run() -> None:
        for _ in range(2):
            await limit.failed("ada", "10.0.0.1")
            await clock.advance(60)
        await limit.check("ada", "10.0.0.1")  # two failures: still allowed
        await limit.failed("ada", "10.0.0.2")
        with pytest.raises(TooManyFailures) as refused:
            await limit.check("ada", "10.0.0.3")
        # the oldest of the three leaves the window 13 minutes from now
        assert refused.value.retry_after == 13 * 60
        await limit.check("bob", "10.0.0.1")  # another username from an address with 2
        await clock.advance(13 * 60 - 1)
        with pytest.raises(TooManyFailures) as still:
            await limit.check("ada", "10.0.0.3")
        assert still.value.retry_after == 1
        await clock.advance(1)
        await limit.check("ada", "10.0.0.3")
        for name in ("c", "d", "e", "f", "g"):
            await limit.failed(name, "10.9.9.9")
        with pytest.raises(TooManyFailures):
            await limit.check("someone-else", "10.9.9.9")  # the address's limit
        await limit.failed("ada", "10.0.0.4")
        await limit.succeeded("ada")  # a success forgets the username's failures
        await limit.check("ada", "10.0.0.4")

    loop.run_until_complete(run())
