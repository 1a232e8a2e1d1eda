"""The manual clock the room core's tests run on: time moves only when a test moves it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.clock import SYSTEM_CLOCK, ManualClock
from tests.support.server import run_on_own_loop

START = datetime(2026, 1, 1, tzinfo=UTC)


def test_time_stands_still_until_advanced() -> None:
    async def run() -> None:
        clock = ManualClock(START)
        assert (clock.monotonic(), clock.now()) == (0.0, START)
        await clock.advance(2.5)
        assert (clock.monotonic(), clock.now()) == (2.5, START + timedelta(seconds=2.5))
        with pytest.raises(ValueError):
            await clock.advance(-1)

    run_on_own_loop(run())


def test_sleepers_wake_in_time_order_each_at_its_own_time() -> None:
    async def run() -> None:
        clock = ManualClock()
        woke: list[tuple[str, float]] = []

        async def sleeper(name: str, seconds: float) -> None:
            await clock.sleep(seconds)
            woke.append((name, clock.monotonic()))

        tasks = [asyncio.create_task(sleeper(n, s)) for n, s in [("c", 3), ("a", 1), ("b", 1)]]
        await clock.advance(0.5)
        assert woke == [] and clock.sleepers == 3
        await clock.advance(1)
        assert woke == [("a", 1.0), ("b", 1.0)]  # due together: in the order they slept
        await clock.advance(10)
        assert woke == [("a", 1.0), ("b", 1.0), ("c", 3.0)] and clock.monotonic() == 11.5
        assert all(task.done() for task in tasks)

    run_on_own_loop(run())


def test_a_sleeper_woken_runs_on_and_its_next_sleeps_come_due_in_the_same_advance() -> None:
    async def run() -> None:
        clock = ManualClock()
        ticks: list[float] = []
        children: list[asyncio.Task[None]] = []

        async def ticker() -> None:
            while True:
                await clock.sleep(1)
                await asyncio.sleep(0.01)  # real work between sleeps (I/O, say)
                ticks.append(clock.monotonic())
                if len(ticks) == 2:
                    children.append(asyncio.create_task(child()))  # started by a woken one

        async def child() -> None:
            await clock.sleep(0.5)
            ticks.append(-clock.monotonic())

        task = asyncio.create_task(ticker())
        await clock.advance(3)
        assert ticks == [1.0, 2.0, -2.5, 3.0] and children[0].done()
        task.cancel()

    run_on_own_loop(run())


def test_a_cancelled_sleep_is_never_woken_and_sleep_zero_waits_for_an_advance() -> None:
    async def run() -> None:
        clock = ManualClock()
        cancelled = asyncio.create_task(clock.sleep(1))
        now = asyncio.create_task(clock.sleep(0))
        await asyncio.sleep(0)
        cancelled.cancel()
        for _ in range(5):
            await asyncio.sleep(0)
        assert not now.done() and clock.sleepers == 1
        await clock.advance(0)
        assert now.done() and cancelled.cancelled() and clock.sleepers == 0
        await clock.advance(2)
        assert clock.monotonic() == 2

    run_on_own_loop(run())


def test_the_system_clock_tells_the_real_time() -> None:
    async def run() -> None:
        before = datetime.now(UTC)
        assert before <= SYSTEM_CLOCK.now() <= datetime.now(UTC)
        start = SYSTEM_CLOCK.monotonic()
        await SYSTEM_CLOCK.sleep(0.01)
        assert SYSTEM_CLOCK.monotonic() > start

    run_on_own_loop(run())
