"""Reviews of finished matches (:mod:`games.review`), computed in the background, stored once.

A review weighs every decision of a match with the hard bot's search: seconds to minutes of
CPU. It must never slow live play, nor can a few players take the reviews from everyone else:

- it runs in a worker process of its own at the lowest CPU priority (``SCHED_IDLE``, and
  ``nice`` 19), apart from the live bots' pool, so the kernel serves the event loop and live
  searches first; a worker that dies is replaced, as the bots' pool is;
- a match with no play to review (no seat made ``MIN_OWN_MOVES`` moves of its own: a forfeit
  before anyone moved) is not queued (409 ``nothing_to_review``);
- the queue is bounded (``queue_size``, then 503 ``reviews_busy``), and so is each player's
  share of it: a match takes a place of the person at its table with the fewest matches
  waiting (the room's host for bots alone), and when each of them already has ``per_player``
  waiting it is turned away too;
- players take turns at the worker: a review is computed a part at a time (the plan, then
  ``PART`` decisions a part), and the parts are served by start-time fair queueing over the
  players whose places the reviews take, as the bots' scheduler serves rooms
  (:mod:`app.rooms.bot_scheduler`): a player whose review starts waiting goes after at most
  one part of each other player's, however many they have queued, and each player's reviews
  go first come, first served;
- each review has a budget (``Budget``): search iterations and playouts per decision, and at
  most ``Budget.decisions`` decisions, a longer match being reviewed on a sample of them spread
  over it (``sample`` in the review says so); no clock, so the result depends on the match
  alone and is computed once, whichever process stores it first.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.matches import MIN_OWN_MOVES, MatchRecord
from app.db.reviews import Claim, load_review, review_claims, save_review
from app.rooms.clock import Clock
from app.rooms.errors import ErrorCode, RoomError
from app.rooms.replays import Replays
from games.base import Action, Seat
from games.review import Budget, plan_part, sample_evenly, summary, weigh_part

log = logging.getLogger(__name__)

QUEUE_SIZE = 256
PER_PLAYER = 8
PART = 16
"""Decisions weighed per job: a few seconds of work, so closing never waits long for the worker,
and a review that starts waiting waits at most that long for each other player's part."""
ADMITTED_AT_ONCE = 200
"""Finished matches whose claims one query looks up."""
BREAKS_ALLOWED = 1
"""Worker deaths a review may see before it counts as failed (it may be what kills them)."""


def _lowest_priority() -> None:
    """Run only on CPU time nothing else wants (Linux's ``SCHED_IDLE``: a waking server or
    live bot preempts it at once); where that policy is missing, the lowest ``nice``."""
    os.nice(19)
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


@dataclass(eq=False)
class _Job:
    """A match's review, queued or under way."""

    match_id: int
    owner: int  # the player whose share of the queue it takes
    arrival: int
    record: MatchRecord | None = None
    moves: list[tuple[int, Seat, Action]] = field(default_factory=list)
    parts: list[list[int]] | None = None  # the decisions still to weigh, a part each (planned)
    total: int = 0  # the match's decisions
    weighed: list[dict[str, Any]] = field(default_factory=list)
    breaks: int = 0


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
        per_player: int = PER_PLAYER,
    ) -> None:
        self.db = db
        self.replays = replays
        self.clock = clock
        self.budget = budget
        self.queue_size = queue_size
        self.per_player = per_player
        self._jobs: dict[int, _Job] = {}  # by match id: every review queued or under way
        self._queues: dict[int, deque[_Job]] = {}  # by owner, first come first served
        self._next: dict[int, int] = {}  # an owner's next part's number (fair queueing)
        self._started = 0  # the number of the part served last
        self._arrival = itertools.count()
        self._arrivals: deque[int] = deque()  # matches that ended here, claims not read yet
        self._current: int | None = None
        self._failed: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._admitting: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self.stored = 0
        """Reviews this process computed and stored."""

    # -- the queue ----------------------------------------------------------------------
    def enqueue(self, match_id: int) -> None:
        """A match just ended here: queue its review (once), when it has play to review and
        a place in the queue (see the module); what it takes is read in the background."""
        if match_id in self._jobs or match_id in self._failed or match_id in self._arrivals:
            return
        if len(self._jobs) + len(self._arrivals) >= self.queue_size:
            log.info("no place for the review of match %d: the queue is full", match_id)
            return
        self._arrivals.append(match_id)
        if self._admitting is None or self._admitting.done():
            loop = asyncio.get_running_loop()
            self._admitting = loop.create_task(self._admit_arrivals(), name="reviews admitted")

    async def _admit_arrivals(self) -> None:
        while self._arrivals:
            batch = [
                self._arrivals.popleft() for _ in range(min(ADMITTED_AT_ONCE, len(self._arrivals)))
            ]
            try:
                claims = await review_claims(self.db, batch)
            except Exception:
                log.exception("the reviews of matches %s could not be queued", batch)
                continue
            for match_id in batch:
                claim = claims.get(match_id)
                if claim is None:
                    continue
                try:
                    self._admit(match_id, claim)
                except RoomError as refused:
                    log.info("match %d is not reviewed: %s", match_id, refused.code)

    def _admit(self, match_id: int, claim: Claim) -> int:
        """Queue the finished match's review and answer its position, or refuse it."""
        position = self.position(match_id)
        if position is not None:
            return position
        if not claim.played:
            raise RoomError(
                ErrorCode.NOTHING_TO_REVIEW,
                f"Nobody made {MIN_OWN_MOVES} moves of their own in this match: there is no "
                "play to review.",
                409,
            )
        owner = min(claim.owners, key=lambda player: (len(self._queues.get(player, ())), player))
        if len(self._jobs) >= self.queue_size:
            raise RoomError(
                ErrorCode.REVIEWS_BUSY, "Too many matches are waiting for a review; try later.", 503
            )
        if len(self._queues.get(owner, ())) >= self.per_player:
            raise RoomError(
                ErrorCode.REVIEWS_BUSY,
                f"{self.per_player} matches of this match's players already wait for a review; "
                "try once they are done.",
                503,
            )
        job = _Job(match_id, owner, next(self._arrival))
        self._jobs[match_id] = job
        self._queues.setdefault(owner, deque()).append(job)
        self._wake.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._work(), name="reviews")
        position = self.position(match_id)
        assert position is not None
        return position

    @property
    def waiting(self) -> int:
        """Matches queued for a review, the one being computed included."""
        return len(self._jobs) + len(self._arrivals)

    def position(self, match_id: int) -> int | None:
        """How many reviews start or go on before this one starts: those of its owner queued
        before it, and as many of each other owner's (players take turns)."""
        if self._current == match_id:
            return 0
        job = self._jobs.get(match_id)
        if job is None:
            return None
        ahead = self._queues[job.owner].index(job)
        others = sum(
            min(len(queue), ahead + 1)
            for owner, queue in self._queues.items()
            if owner != job.owner
        )
        return ahead + others

    async def status(self, match_id: int) -> dict[str, Any]:
        """The stored review, or where the match stands in the queue (queued now if needed).
        404 for no match, 409 for a running one (its decisions must stay hidden) and for one
        with no play to review, 503 when the queue or the players' share of it is full."""
        stored = await load_review(self.db, match_id)
        if stored is not None:
            return {"status": "done", **stored}
        await self.replays.of(match_id)  # refuses unknown, running and unreplayable matches
        if match_id in self._failed:
            raise RoomError(ErrorCode.REVIEW_FAILED, "This match could not be reviewed.", 503)
        position = self.position(match_id)
        if position is None:
            claim = (await review_claims(self.db, [match_id]))[match_id]
            position = self._admit(match_id, claim)
        return {"status": "pending", "position": position}

    # -- the worker -----------------------------------------------------------------------
    def _turn(self) -> tuple[int, int]:
        """The owner whose part goes next, and that part's number: the lowest number, the
        earlier review on a tie."""
        number, _, owner = min(
            (max(self._started, self._next.get(owner, 0)), queue[0].arrival, owner)
            for owner, queue in self._queues.items()
        )
        return number, owner

    async def _work(self) -> None:
        while True:
            if not self._queues:
                self._wake.clear()
                await self._wake.wait()
                continue
            number, owner = self._turn()
            job = self._queues[owner][0]
            self._current = job.match_id
            try:
                done = await self._step(job)
            except asyncio.CancelledError:
                raise
            except BrokenProcessPool:
                job.breaks += 1
                done = job.breaks > BREAKS_ALLOWED
                log.exception("the review worker died; %s", "failed" if done else "it is replaced")
                if done:
                    self._failed.add(job.match_id)
            except Exception:
                log.exception("the review of match %d failed", job.match_id)
                self._failed.add(job.match_id)
                done = True
            finally:
                self._current = None
            self._started, self._next[owner] = number, number + 1
            if done:
                self._finished(job)

    def _finished(self, job: _Job) -> None:
        del self._jobs[job.match_id]
        queue = self._queues[job.owner]
        queue.popleft()
        if not queue:
            del self._queues[job.owner]
            self._next.pop(job.owner, None)

    async def _step(self, job: _Job) -> bool:
        """One part of ``job``'s review (its plan first); ``True`` once it is stored."""
        if job.parts is None:
            if await load_review(self.db, job.match_id) is not None:
                return True  # another process stored it
            replay = await self.replays.of(job.match_id)
            job.record = record = replay.record
            job.moves = [(move.seq, move.seat, move.action) for move in replay.moves]
            choices = await self._in_worker(
                plan_part, record.game, record.players, record.seed, record.options, job.moves
            )
            job.total = len(choices)
            sample = sample_evenly(choices, self.budget.decisions)
            job.parts = [sample[i : i + PART] for i in range(0, len(sample), PART)]
        else:
            record = job.record
            assert record is not None
            part = job.parts[0]
            job.weighed += await self._in_worker(
                weigh_part,
                record.game,
                record.players,
                record.seed,
                record.options,
                job.moves[: part[-1] + 1],
                self.budget,
                record.id,
                part,
            )
            job.parts.pop(0)
        if job.parts:
            return False
        await self._store(job)
        return True

    async def _store(self, job: _Job) -> None:
        assert job.record is not None
        budget = self.budget
        reviewed = len(job.weighed)
        body = {
            "seats": summary(job.weighed, job.record.players),
            "decisions": job.weighed,
            "budget": {
                "iterations": budget.iterations,
                "playouts": budget.playouts,
                "decisions": budget.decisions,
            },
            "sample": None if reviewed == job.total else {"of": job.total, "reviewed": reviewed},
        }
        await save_review(self.db, job.match_id, body, self.clock.now())
        self.stored += 1

    async def _in_worker(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` in the worker process; a dead worker is replaced for the next
        job (the pool is broken for good once one of its processes dies)."""
        pool = self._workers()
        try:
            return await asyncio.wrap_future(pool.submit(function, *args))
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lowest_priority,
            )
        return self._pool

    async def close(self) -> None:
        for name in ("_admitting", "_task"):
            task = getattr(self, name)
            setattr(self, name, None)
            if task is not None:  # ended before the database it may be writing to is closed
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
