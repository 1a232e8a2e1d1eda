"""Due jobs: work kept in the database until its time comes (a turn's deadline, a reminder, a
notification), claimed by one process at a time and done once.

A job is named by a ``key`` that says what it is for (``deadline:{match}:{seq}``, say):
scheduling it again changes nothing, so a command that schedules and then crashes before it
is acknowledged may run again safely. A process *claims* due jobs for a lease: on Postgres
``FOR UPDATE SKIP LOCKED`` lets several processes claim at once without taking each other's;
on SQLite the database's one write lock does the same. A claimed job is deleted when it is
done; one whose process died is claimed again after its lease, so its work must be
idempotent (a deadline checks that the match still waits at that move).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import Job as JobRow
from app.db.upsert import upsert
from app.timestamps import aware


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    key: str
    due_at: datetime
    payload: dict[str, Any]
    attempts: int


async def schedule(
    conn: AsyncConnection, kind: str, key: str, due_at: datetime, payload: dict[str, Any]
) -> None:
    """Keep a job for ``due_at``; a job of that key already kept stays as it is."""
    statement = upsert(conn, JobRow).values(
        kind=kind, key=key, due_at=due_at, payload=payload, attempts=0
    )
    await conn.execute(statement.on_conflict_do_nothing(index_elements=["key"]))


async def cancel(conn: AsyncConnection, keys: Iterable[str]) -> None:
    keys = list(keys)
    if keys:
        await conn.execute(delete(JobRow).where(JobRow.key.in_(keys)))


async def cancel_prefix(conn: AsyncConnection, prefix: str) -> None:
    """Drop every job whose key starts with ``prefix`` (a match's, when it ends)."""
    await conn.execute(delete(JobRow).where(JobRow.key.startswith(prefix, autoescape=True)))


async def claim_due(db: AsyncEngine, now: datetime, lease: timedelta, limit: int = 50) -> list[Job]:
    """The jobs due by ``now`` that no live lease holds, claimed until ``now + lease``,
    earliest first."""
    claimable = and_(
        JobRow.due_at <= now, or_(JobRow.claimed_until.is_(None), JobRow.claimed_until < now)
    )
    async with db.begin() as conn:
        chosen = select(JobRow.id).where(claimable).order_by(JobRow.due_at).limit(limit)
        if conn.dialect.name == "postgresql":
            chosen = chosen.with_for_update(skip_locked=True)
        claimed = await conn.execute(
            update(JobRow)
            .where(JobRow.id.in_(chosen.scalar_subquery()), claimable)
            .values(claimed_until=now + lease, attempts=JobRow.attempts + 1)
            .returning(
                JobRow.id, JobRow.kind, JobRow.key, JobRow.due_at, JobRow.payload, JobRow.attempts
            )
        )
        jobs = [
            Job(id, kind, key, aware(due), payload, tries)
            for id, kind, key, due, payload, tries in claimed
        ]
    return sorted(jobs, key=lambda job: (job.due_at, job.id))


async def finish(db: AsyncEngine, job: Job) -> None:
    async with db.begin() as conn:
        await conn.execute(delete(JobRow).where(JobRow.id == job.id))


async def next_due(db: AsyncEngine) -> datetime | None:
    """When the earliest job falls due, or a claimed one's lease lapses."""
    async with db.connect() as conn:
        unclaimed = await conn.scalar(
            select(func.min(JobRow.due_at)).where(JobRow.claimed_until.is_(None))
        )
        leased = await conn.scalar(select(func.min(JobRow.claimed_until)))
    found = [aware(moment) for moment in (unclaimed, leased) if moment is not None]
    return min(found) if found else None
