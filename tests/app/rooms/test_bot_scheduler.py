"""FairScheduler (app/rooms/bot_scheduler.py): rooms take turns at the slots, one room's backlog
does not hold another's job up, and a cancelled caller gives its place back.

The jobs are futures the test finishes itself, and the test waits for each job to start, so
nothing here sleeps or starts a process; a job that never starts fails the wait after
``HANG_S`` instead of hanging the suite.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from app.rooms.bot_scheduler import FairScheduler
from tests.support.server import run_on_own_loop

HANG_S = 5.0


class Bench:
    """A scheduler and named fake jobs: each job is a future, and says when it starts."""

    def __init__(self, slots: int, per_room: int = 1) -> None:
        self.scheduler = FairScheduler(slots, per_room=per_room)
        self.jobs: dict[str, asyncio.Future[str]] = {}
        self.callers: dict[str, asyncio.Task[str]] = {}
        self._starts: asyncio.Queue[str] = asyncio.Queue()

    def submit(self, room: str, *names: str) -> None:
        """Callers for jobs ``names`` of ``room``, each queued in the order given."""
        for name in names:
            self.jobs[name] = asyncio.get_running_loop().create_future()
            self.callers[name] = asyncio.create_task(self.scheduler.run(room, self._job(name)))

    def _job(self, name: str) -> Callable[[], asyncio.Future[str]]:
        def start() -> asyncio.Future[str]:
            self._starts.put_nowait(name)
            return self.jobs[name]

        return start

    async def next_start(self) -> str:
        return await asyncio.wait_for(self._starts.get(), HANG_S)

    async def starts(self, count: int) -> list[str]:
        return [await self.next_start() for _ in range(count)]

    async def finish(self, name: str) -> None:
        """End job ``name`` and wait for its caller to have its result."""
        self.jobs[name].set_result(name)
        assert await self.callers[name] == name


def test_a_backlog_does_not_hold_up_a_room_that_starts_waiting() -> None:
    async def scenario() -> None:
        bench = Bench(slots=2, per_room=2)
        backlog = [f"A{i}" for i in range(1, 21)]
        bench.submit("A", *backlog)
        bench.submit("B", "B1")
        assert await bench.starts(2) == ["A1", "A2"]
        await bench.finish("A1")
        assert await bench.next_start() == "B1"  # first come, first served would run A3..A20
        assert bench.scheduler.waiting("A") == 18 and bench.scheduler.running == 2
        await bench.finish("A2")
        assert await bench.next_start() == "A3"

    run_on_own_loop(scenario())


def test_rooms_take_turns_one_job_each() -> None:
    async def scenario() -> None:
        bench = Bench(slots=1)
        for room in "ABC":
            bench.submit(room, *(f"{room}{i}" for i in range(1, 4)))
        order = []
        for _ in range(9):
            order.append(await bench.next_start())
            await bench.finish(order[-1])
        assert order == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]

    run_on_own_loop(scenario())


def test_no_more_than_slots_run_nor_per_room_of_one_room() -> None:
    async def scenario() -> None:
        bench = Bench(slots=3, per_room=2)
        bench.submit("A", "A1", "A2", "A3", "A4")
        bench.submit("B", "B1", "B2", "B3")
        assert sorted(await bench.starts(3)) == ["A1", "A2", "B1"]
        assert bench.scheduler.running == 3
        assert (bench.scheduler.waiting("A"), bench.scheduler.waiting("B")) == (2, 2)
        await bench.finish("B1")
        assert await bench.next_start() == "B2"  # A already holds its two slots

    run_on_own_loop(scenario())


def test_a_cancelled_waiting_job_leaves_the_queue_and_never_starts() -> None:
    async def scenario() -> None:
        bench = Bench(slots=1)
        bench.submit("A", "A1", "A2", "A3")
        assert await bench.next_start() == "A1"
        bench.callers["A2"].cancel()
        with pytest.raises(asyncio.CancelledError):
            await bench.callers["A2"]
        assert bench.scheduler.waiting("A") == 1
        await bench.finish("A1")
        assert await bench.next_start() == "A3"

    run_on_own_loop(scenario())


def test_a_turn_given_to_a_caller_cancelled_before_it_resumed_is_passed_on() -> None:
    async def scenario() -> None:
        bench = Bench(slots=1)
        bench.submit("A", "A1")
        bench.submit("B", "B1")
        bench.submit("C", "C1")
        assert await bench.next_start() == "A1"
        # Runs after the scheduler has given A1's slot to B1, before B1's caller resumes.
        bench.jobs["A1"].add_done_callback(lambda _: bench.callers["B1"].cancel())
        await bench.finish("A1")
        assert await bench.next_start() == "C1"
        assert bench.callers["B1"].cancelled() and bench.scheduler.running == 1

    run_on_own_loop(scenario())


def test_a_caller_cancelled_mid_job_holds_the_slot_until_the_job_ends() -> None:
    async def scenario() -> None:
        bench = Bench(slots=1)
        bench.submit("A", "A1")
        bench.submit("B", "B1")
        assert await bench.next_start() == "A1"
        bench.callers["A1"].cancel()
        with pytest.raises(asyncio.CancelledError):
            await bench.callers["A1"]
        assert bench.scheduler.running == 1 and bench.scheduler.waiting("B") == 1
        bench.jobs["A1"].set_result("A1")  # the worker is done: now B1 may start
        assert await bench.next_start() == "B1"

    run_on_own_loop(scenario())


def test_a_failing_job_fails_its_caller_and_frees_its_slot() -> None:
    async def scenario() -> None:
        bench = Bench(slots=1)
        bench.submit("A", "A1", "A2")
        assert await bench.next_start() == "A1"
        bench.jobs["A1"].set_exception(RuntimeError("the pool broke"))
        with pytest.raises(RuntimeError, match="the pool broke"):
            await bench.callers["A1"]
        assert await bench.next_start() == "A2"

    run_on_own_loop(scenario())


def test_a_job_that_cannot_start_frees_its_slot() -> None:
    async def scenario() -> None:
        scheduler = FairScheduler(1)

        def broken() -> asyncio.Future[None]:
            raise RuntimeError("no pool")

        with pytest.raises(RuntimeError, match="no pool"):
            await scheduler.run("A", broken)
        assert scheduler.running == 0

    run_on_own_loop(scenario())


def test_slots_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        FairScheduler(0)
