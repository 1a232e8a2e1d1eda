"""Reviews of finished matches (:mod:`games.review`), computed in the background, stored once.

A review weighs every decision of a match with the hard bot's search: seconds to minutes of
CPU. It must never slow live play, so:

- it runs in a worker process of its own at the lowest CPU priority (``SCHED_IDLE``, and
  ``nice`` 19), apart from the live bots' pool, so the kernel serves the event loop and live
  searches first;
- matches wait in a bounded queue, first come, first served, one review at a time; a full
  queue turns further requests away (503 ``reviews_busy``) until it drains;
- each decision has a fixed budget of search iterations and playouts and no clock, so the
  result depends on the match alone and is computed once, whichever process stores it first.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.reviews import load_review, save_review
from app.rooms.clock import Clock
from app.rooms.errors import ErrorCode, RoomError
from app.rooms.replays import Replays
from games.review import Budget, review_part, summary

log = logging.getLogger(__name__)

QUEUE_SIZE = 256
PART = 16
"""Moves weighed per job: a few seconds of work, so closing never waits long for the worker."""


def _lowest_priority() -> None:
    """Run only on CPU time nothing else wants (Linux's ``SCHED_IDLE``: a waking server or
    live bot preempts it at once); where that policy is missing, the lowest ``nice``."""
    os.nice(19)
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


class Reviews:
    """The reviews of this process: the queue, its one worker, and the answers of
    ``GET /api/matches/{id}/review``."""

    def __init__(
        self,
        db: AsyncEngine,
        replays: Replays,
        clock: Clock,
        *,
        budget: Budget,
        queue_size: int = QUEUE_SIZE,
    ) -> None:
        self.db = db
        self.replays = replays
        self.clock = clock
        self.budget = budget
        self.queue_size = queue_size
        self._waiting: deque[int] = deque()
        self._current: int | None = None
        self._failed: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self.stored = 0
        """Reviews this process computed and stored."""

    def enqueue(self, match_id: int) -> int | None:
        """Queue ``match_id`` (once) and answer how many reviews are ahead of it; ``None``
        when the queue is full."""
        position = self.position(match_id)
        if position is not None:
            return position
        if len(self._waiting) >= self.queue_size or match_id in self._failed:
            return None
        self._waiting.append(match_id)
        self._wake.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._work(), name="reviews")
        return self.position(match_id)

    @property
    def waiting(self) -> int:
        """Matches queued for a review, the one being computed included."""
        return len(self._waiting)

    def position(self, match_id: int) -> int | None:
        if self._current == match_id:
            return 0
        if match_id in self._waiting:
            return self._waiting.index(match_id) + (self._current is not None)
        return None

    async def status(self, match_id: int) -> dict[str, Any]:
        """The stored review, or where the match stands in the queue (queued now if needed).
        404 for no match, 409 for a running one (its decisions must stay hidden)."""
        stored = await load_review(self.db, match_id)
        if stored is not None:
            return {"status": "done", **stored}
        await self.replays.of(match_id)  # refuses unknown, running and unreplayable matches
        if match_id in self._failed:
            raise RoomError(ErrorCode.REVIEW_FAILED, "This match could not be reviewed.", 503)
        position = self.enqueue(match_id)
        if position is None:
            raise RoomError(
                ErrorCode.REVIEWS_BUSY, "Too many matches are waiting for a review; try later.", 503
            )
        return {"status": "pending", "position": position}

    async def _work(self) -> None:
        while True:
            if not self._waiting:
                self._wake.clear()
                await self._wake.wait()
                continue
            self._current = self._waiting[0]
            try:
                await self._review(self._current)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the review of match %d failed", self._current)
                self._failed.add(self._current)
            finally:
                self._waiting.popleft()
                self._current = None

    async def _review(self, match_id: int) -> None:
        if await load_review(self.db, match_id) is not None:
            return
        replay = await self.replays.of(match_id)
        record = replay.record
        moves = [(move.seq, move.seat, move.action) for move in replay.moves]
        decisions: list[dict[str, Any]] = []
        for start in range(0, len(moves), PART):
            part = self._workers().submit(
                review_part,
                record.game,
                record.players,
                record.seed,
                record.options,
                moves,
                self.budget,
                record.id,
                start,
                start + PART,
            )
            decisions += await asyncio.wrap_future(part)
        body = {
            "seats": summary(decisions, record.players),
            "decisions": decisions,
            "budget": {"iterations": self.budget.iterations, "playouts": self.budget.playouts},
        }
        await save_review(self.db, match_id, body, self.clock.now())
        self.stored += 1

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lowest_priority,
            )
        return self._pool

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:  # ended before the database it may be writing to is closed
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
