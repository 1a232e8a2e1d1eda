"""Fair turns at the bots' worker pool: rooms take turns, a few searches at a time.

A plain executor serves its queue first come, first served, so a room whose bots queued twenty
searches holds up every other room's next move by twenty searches. :class:`FairScheduler` sits
in front of the pool and queues each room's jobs apart. It is start-time fair queueing with
jobs of equal size: a job is numbered on arrival with the later of the number of the job last
started and one past its room's previous job, and a free slot goes to the lowest number
waiting (the earlier arrival on a tie). So a room that starts waiting goes after at most one
job of each other room, however many they have queued, and rooms with backlogs take turns one
job each. At most ``slots`` jobs run at once (the pool's workers, so nothing queues inside the
executor), and at most ``per_room`` of one room's.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import NamedTuple, TypeVar

__all__ = ["FairScheduler"]

T = TypeVar("T")


class _Turn(NamedTuple):
    number: int
    arrival: int
    granted: asyncio.Future[None]


class FairScheduler:
    """Runs jobs at most ``slots`` at a time and ``per_room`` at a time per room, rooms in turn."""

    def __init__(self, slots: int, *, per_room: int = 1) -> None:
        if slots < 1 or per_room < 1:
            raise ValueError(f"slots and per_room must be positive, not {slots} and {per_room}")
        self.slots = slots
        self.per_room = per_room
        self._waiting: dict[str, deque[_Turn]] = {}
        self._running: Counter[str] = Counter()
        self._next: dict[str, int] = {}  # the number of an active room's next job
        self._started = 0  # the highest number started so far
        self._arrivals = itertools.count()

    @property
    def running(self) -> int:
        """How many jobs hold a slot now."""
        return self._running.total()

    def waiting(self, room: str) -> int:
        """How many of ``room``'s jobs wait for a slot."""
        return len(self._waiting.get(room, ()))

    async def run(self, room: str, job: Callable[[], Awaitable[T]]) -> T:
        """``job()``'s result, started when ``room``'s turn comes.

        Cancelled while waiting, the job is dropped from the queue and never starts. Cancelled
        while running, the caller is released at once but the slot only when the job ends: a
        search in a worker process cannot be stopped, and the worker stays busy until then.
        """
        await self._turn(room)
        try:
            work = asyncio.ensure_future(job())
        except BaseException:
            self._release(room)
            raise
        work.add_done_callback(lambda _: self._release(room))
        return await asyncio.shield(work)

    async def _turn(self, room: str) -> None:
        number = max(self._started, self._next.get(room, 0))
        self._next[room] = number + 1
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        turn = _Turn(number, next(self._arrivals), granted)
        self._waiting.setdefault(room, deque()).append(turn)
        self._dispatch()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.cancelled():
                self._drop(room, turn)
            else:  # the slot was granted just as the caller was cancelled: hand it on
                self._release(room)
            raise

    def _dispatch(self) -> None:
        """Give free slots to the lowest-numbered waiting jobs of rooms below ``per_room``."""
        while self.running < self.slots:
            ready = [
                (queue[0][:2], room)
                for room, queue in self._waiting.items()
                if self._running[room] < self.per_room
            ]
            if not ready:
                return
            room = min(ready)[1]
            turn = self._waiting[room].popleft()
            if not turn.granted.cancelled():  # else its caller has not dropped it yet
                self._started = max(self._started, turn.number)
                self._running[room] += 1
                turn.granted.set_result(None)
            self._forget_if_idle(room)

    def _drop(self, room: str, turn: _Turn) -> None:
        queue = self._waiting.get(room)
        if queue is not None and turn in queue:
            queue.remove(turn)
            self._forget_if_idle(room)

    def _release(self, room: str) -> None:
        self._running[room] -= 1
        self._forget_if_idle(room)
        self._dispatch()

    def _forget_if_idle(self, room: str) -> None:
        if not self._waiting.get(room, True):
            del self._waiting[room]
        if room not in self._waiting and not self._running[room]:
            del self._running[room]
            self._next.pop(room, None)
