"""The limits on their own, on a ManualClock: hit, then lifted as time passes; attempts racing
for the last places never get more than the limit."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.limits import Limits, TooMany
from app.rooms.clock import ManualClock
from tests.app.db.conftest import LoopThread

WINDOW = timedelta(minutes=15)


def limits(db: AsyncEngine, clock: ManualClock, per_username: int, per_address: int) -> Limits:
    return Limits(db, clock.now, WINDOW, per_username, per_address)


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"


def test_the_limit_is_hit_and_lifted_by_the_clock(db: AsyncEngine, loop: LoopThread) -> None:
    clock = ManualClock()
    limit = limits(db, clock, per_username=3, per_address=5)
    ada, bob = unique("ada"), unique("bob")
    one, two, three, four, nine = (unique(f"10.0.0.{n}") for n in (1, 2, 3, 4, 9))

    async def run() -> None:
        for _ in range(2):
            await limit.signin(ada, one)  # failed: the attempt stays
            await clock.advance(60)
        await limit.signin(ada, two)
        with pytest.raises(TooMany) as refused:
            await limit.signin(ada, three)
        # the oldest of the three leaves the window 13 minutes from now
        assert refused.value.retry_after == 13 * 60
        await limit.signin(bob, one)  # another username from an address with 2
        await clock.advance(13 * 60 - 1)
        with pytest.raises(TooMany) as still:
            await limit.signin(ada, three)
        assert still.value.retry_after == 1
        await clock.advance(1)
        await limit.signin(ada, three)  # two left in the window, and this third one
        for name in ("c", "d", "e", "f", "g"):
            await limit.signin(unique(name), nine)
        with pytest.raises(TooMany):
            await limit.signin(unique("someone-else"), nine)  # the address's limit
        with pytest.raises(TooMany):
            await limit.signin(ada, four)
        await clock.advance(60)  # the failure at minute 1 leaves the window
        ticket = await limit.signin(ada, four)
        await limit.signin_succeeded(ada, ticket)  # a success forgets the username's failures
        for _ in range(3):
            await limit.signin(ada, four)

    loop.run_until_complete(run())


def test_attempts_racing_for_the_last_places_get_the_limit_and_no_more(
    db: AsyncEngine, loop: LoopThread
) -> None:
    clock = ManualClock()
    limit = limits(db, clock, per_username=5, per_address=1000)
    ada, address = unique("ada"), unique("address")

    async def attempt() -> bool:
        try:
            await limit.signin(ada, address)
        except TooMany:
            return False
        return True

    async def run() -> list[bool]:
        return list(await asyncio.gather(*(attempt() for _ in range(40))))

    assert sum(loop.run_until_complete(run())) == 5

    async def later() -> None:
        with pytest.raises(TooMany):
            await limit.signin(ada, address)
        await clock.advance(WINDOW.total_seconds())
        await limit.signin(ada, address)

    loop.run_until_complete(later())


def test_claims_guests_and_challenges_count_per_player_and_address(
    db: AsyncEngine, loop: LoopThread
) -> None:
    clock = ManualClock()
    limit = Limits(
        db,
        clock.now,
        WINDOW,
        5,
        50,
        claims_per_player=2,
        claims_per_address=3,
        guests_per_address=2,
        challenges_per_address=1,
    )
    here, there = unique("here"), unique("there")

    async def run() -> None:
        await limit.claim(1, here)
        await limit.claim(1, here)
        with pytest.raises(TooMany):
            await limit.claim(1, there)  # the player's
        await limit.claim(2, here)
        with pytest.raises(TooMany):
            await limit.claim(3, here)  # the address's
        await limit.new_guest(here)
        await limit.new_guest(here)
        with pytest.raises(TooMany):
            await limit.new_guest(here)
        await limit.new_guest(there)
        await limit.challenge(here)
        with pytest.raises(TooMany) as refused:
            await limit.challenge(here)
        assert refused.value.retry_after == 600  # the address window, ten minutes
        await clock.advance(600)
        await limit.challenge(here)
        await limit.new_guest(here)

    loop.run_until_complete(run())
