"""Runs the due jobs of ``app/db/jobs.py`` in this process: each kind by its handler.

Every process runs one :class:`JobRunner`; they share the work through the database's claims.
A runner sleeps until the earliest job is due, or ``poll`` seconds at most (a job another
process scheduled is seen within that), and at once when this process schedules one sooner
(:meth:`JobRunner.wake`). A handler that fails leaves its job to be claimed again after its
lease; one that succeeds has its job deleted, or kept for the time it answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import jobs
from app.db.jobs import Job
from app.rooms.clock import Clock

log = logging.getLogger(__name__)

Handler = Callable[[Job], Awaitable[datetime | None]]  # when to run the job again, if ever
LEASE = timedelta(seconds=30)


class JobRunner:
    def __init__(
        self,
        db: AsyncEngine,
        clock: Clock,
        handlers: Mapping[str, Handler],
        *,
        poll: float = 5.0,
        lease: timedelta = LEASE,
    ) -> None:
        self.db, self.clock, self.handlers = db, clock, dict(handlers)
        self.poll, self.lease = poll, lease
        self._runner: asyncio.Task[None] | None = None
        self._sleeping = False  # the runner waits on the clock, and may be woken
        self._again = False  # woken while it ran jobs: it looks again before it sleeps

    @property
    def idle(self) -> bool:
        """Asleep until the next due job, with nothing to look at before."""
        return self._sleeping

    def wake(self) -> None:
        """A job was scheduled here: look again now rather than at the next poll. (The
        runner sleeps on the clock itself, so a test's ``ManualClock`` runs its jobs within
        ``advance``; a wake cancels that sleep.)"""
        if self._sleeping and self._runner is not None:
            self._sleeping = False
            self._runner.cancel("wake")
        else:
            self._again = True

    async def run_due(self) -> int:
        """Claim and run every job due now: how many ran."""
        ran = 0
        while claimed := await jobs.claim_due(self.db, self.clock.now(), self.lease):
            for job in claimed:
                handler = self.handlers.get(job.kind)
                if handler is None:
                    log.error("no handler for a due job of kind %r (%s)", job.kind, job.key)
                    continue
                try:
                    again_at = await handler(job)
                except Exception:
                    log.exception("due job %s failed; it is tried again after its lease", job.key)
                    continue
                await jobs.finish(self.db, job, again_at)
                ran += 1
        return ran

    async def run(self) -> None:
        """Run due jobs until cancelled."""
        self._runner = asyncio.current_task()
        while True:
            self._again = False
            try:
                await self.run_due()
                upcoming = await jobs.next_due(self.db)
            except Exception:  # the database is out of reach for now
                log.exception("due jobs could not be read; trying again")
                upcoming = None
            if self._again:
                continue
            wait = self.poll
            if upcoming is not None:
                wait = min(wait, max(0.0, (upcoming - self.clock.now()).total_seconds()))
            await self._sleep(wait)

    async def _sleep(self, seconds: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._sleeping = True
        try:
            await self.clock.sleep(seconds)
        except asyncio.CancelledError:
            if self._sleeping or task.cancelling() > 1:  # not (only) a wake: stopped
                raise
            task.uncancel()
        finally:
            self._sleeping = False
