"""The room core's clock: what time it is, and waiting for a time to come.

Seat holds and idle rooms are timed on :meth:`Clock.monotonic`; turn deadlines on
:meth:`Clock.now`, since they are stored with the moves and must survive a restart. Timers,
bots and the idle sweep wait with :meth:`Clock.sleep`. The server runs on
:data:`SYSTEM_CLOCK`; a test passes a :class:`ManualClock` and moves time itself with
:meth:`ManualClock.advance`, so no test of the room core waits for real time to pass.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["SYSTEM_CLOCK", "Clock", "ManualClock", "SystemClock"]


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds on a clock that never goes back; only differences mean anything."""

    def now(self) -> datetime:
        """The time of day, timezone-aware UTC: what moves and deadlines are stamped with."""

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""


class SystemClock:
    """The real time: ``time.monotonic`` (which the event loop counts in too) and UTC."""

    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK: Clock = SystemClock()

SETTLE_TIMEOUT_S = 10.0
"""How long :meth:`ManualClock.advance` lets a woken sleeper run before it gives up on it (a
guard against a test that hangs, not a wait anything depends on)."""
SETTLE_TURNS = 5
"""Turns of the event loop given to tasks just created, to reach their first sleep."""


@dataclass(order=True)
class _Sleeper:
    due: float
    order: int
    wake: asyncio.Future[None] = field(compare=False)
    task: asyncio.Task[object] | None = field(compare=False)


class ManualClock:
    """A clock that stands still until a test moves it.

    :meth:`advance` moves time on and wakes each sleeper whose time has come, earliest first
    (in the order they went to sleep when due together). Before time moves past a woken
    sleeper, its task runs until it finishes or sleeps on this clock again, and the tasks it
    started reach their first wait; so what a test sees after ``await clock.advance(s)`` is
    what ``s`` seconds do, whatever the event loop's timing. A ``sleep(0)`` waits for the next
    ``advance``, even ``advance(0)``.
    """

    def __init__(self, start: datetime = datetime(2026, 1, 1, tzinfo=UTC)) -> None:
        if start.tzinfo is None:
            raise ValueError(f"a ManualClock starts at an aware datetime, not {start!r}")
        self._start = start
        self._elapsed = 0.0
        self._sleepers: list[_Sleeper] = []
        self._order = itertools.count()
        self._asleep: dict[asyncio.Task[object], asyncio.Future[None]] = {}
        self._watching: dict[asyncio.Task[object], asyncio.Future[None]] = {}

    def monotonic(self) -> float:
        return self._elapsed

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._elapsed)

    @property
    def sleepers(self) -> int:
        """How many sleeps are waiting for their time."""
        return sum(not s.wake.done() for s in self._sleepers)

    async def sleep(self, seconds: float) -> None:
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = asyncio.current_task()
        heapq.heappush(
            self._sleepers,
            _Sleeper(self._elapsed + max(0.0, seconds), next(self._order), wake, task),
        )
        if task is not None:
            self._asleep[task] = wake
            self._settled(task)
        try:
            await wake
        finally:
            if task is not None and self._asleep.get(task) is wake:
                del self._asleep[task]

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every sleeper whose time comes meanwhile."""
        if seconds < 0:
            raise ValueError(f"time only moves forward, not by {seconds!r}")
        target = self._elapsed + seconds
        await self._let_new_tasks_start()
        while True:
            while self._sleepers and self._sleepers[0].wake.done():  # cancelled sleeps
                heapq.heappop(self._sleepers)
            if not self._sleepers or self._sleepers[0].due > target:
                break
            sleeper = heapq.heappop(self._sleepers)
            self._elapsed = max(self._elapsed, sleeper.due)
            if sleeper.task is not None:
                self._asleep.pop(sleeper.task, None)
            sleeper.wake.set_result(None)
            if sleeper.task is not None:
                await self._run_until_settled(sleeper.task)
            await self._let_new_tasks_start()
        self._elapsed = target

    async def _run_until_settled(self, task: asyncio.Task[object]) -> None:
        """Wait until ``task`` is done or asleep on this clock again."""
        settled: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._watching[task] = settled
        task.add_done_callback(self._settled)
        try:
            await asyncio.wait_for(asyncio.shield(settled), SETTLE_TIMEOUT_S)
        except TimeoutError:
            raise RuntimeError(f"{task!r} neither finished nor slept on the clock") from None
        finally:
            self._watching.pop(task, None)
            task.remove_done_callback(self._settled)

    def _settled(self, task: asyncio.Task[object]) -> None:
        settled = self._watching.pop(task, None)
        if settled is not None and not settled.done():
            settled.set_result(None)

    @staticmethod
    async def _let_new_tasks_start() -> None:
        for _ in range(SETTLE_TURNS):
            await asyncio.sleep(0)
