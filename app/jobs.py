"""Runs the due jobs of ``app/db/jobs.py`` in this process: each kind by its handler.

Every process runs one :class:`JobRunner`; they share the work through the database's claims.
A runner sleeps until the earliest job is due, or ``poll`` seconds at most (a job another
process scheduled is seen within that), and at once when this process schedules one sooner
(:meth:`JobRunner.wake`). A handler that fails leaves its job to be claimed again after its
lease; one that succeeds, or finds nothing left to do, has its job deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import jobs
from app.db.jobs import Job
from app.rooms.clock import Clock

log = logging.getLogger(__name__)

Handler = Callable[[Job], Awaitable[None]]
LEASE = timedelta(minutes=2)


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
        self._woken = asyncio.Event()

    def wake(self) -> None:
        """A job was scheduled here: look again now rather than at the next poll."""
        self._woken.set()

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
                    await handler(job)
                except Exception:
                    log.exception("due job %s failed; it is tried again after its lease", job.key)
                    continue
                await jobs.finish(self.db, job)
                ran += 1
        return ran

    async def run(self) -> None:
        """Run due jobs until cancelled."""
        while True:
            try:
                await self.run_due()
                upcoming = await jobs.next_due(self.db)
            except Exception:  # the database is out of reach for now
                log.exception("due jobs could not be read; trying again")
                upcoming = None
            wait = self.poll
            if upcoming is not None:
                wait = min(wait, max(0.0, (upcoming - self.clock.now()).total_seconds()))
            self._woken.clear()
            sleeping = asyncio.ensure_future(self.clock.sleep(wait))
            woken = asyncio.ensure_future(self._woken.wait())
            try:
                await asyncio.wait((sleeping, woken), return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeping.cancel()
                woken.cancel()
