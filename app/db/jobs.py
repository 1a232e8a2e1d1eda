"""Due jobs: work kept in the database until its time comes (a turn's deadline, a reminder, a
notification), claimed by one process at a time and done once.

A job is named by a ``key`` that says what it is for (``deadline:{match}:{seq}``, say):
scheduling it again changes nothing, so a command that schedules and then crashes before it
is acknowledged may run again safely. A process *claims* due jobs for a lease: on Postgres
``FOR UPDATE SKIP LOCKED`` lets several processes claim at once without taking each other's;
on SQLite the database's one write lock does the same. A claimed job is deleted when it is
done, or kept for a later time (:func:`finish` with ``again_at``); one whose process died is
claimed again after its lease, so its work must be idempotent (a deadline checks that the
match still waits at that move). A job rescheduled (:func:`reschedule`) while it was
claimed is left to its new time by the claim's end.
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
    lease_until: datetime  # the claim's end: the claim still holds while the row says so


async def schedule(
    conn: AsyncConnection, kind: str, key: str, due_at: datetime, payload: dict[str, Any]
) -> None:
    """Keep a job for ``due_at``; a job of that key already kept stays as it is."""
    statement = upsert(conn, JobRow).values(
        kind=kind, key=key, due_at=due_at, payload=payload, attempts=0
    )
    await conn.execute(statement.on_conflict_do_nothing(index_elements=["key"]))


async def reschedule(
    conn: AsyncConnection, kind: str, key: str, due_at: datetime, payload: dict[str, Any]
) -> None:
    """Keep the job for ``due_at``, whether or not it was kept already (a claim of it under
    way lets go: its end leaves the job to the new time)."""
    statement = upsert(conn, JobRow).values(
        kind=kind, key=key, due_at=due_at, payload=payload, attempts=0
    )
    await conn.execute(
        statement.on_conflict_do_update(
            index_elements=["key"],
            set_={"due_at": due_at, "payload": payload, "claimed_until": None, "attempts": 0},
        )
    )


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
    until = now + lease
    async with db.begin() as conn:
        chosen = select(JobRow.id).where(claimable).order_by(JobRow.due_at).limit(limit)
        if conn.dialect.name == "postgresql":
            chosen = chosen.with_for_update(skip_locked=True)
        claimed = await conn.execute(
            update(JobRow)
            .where(JobRow.id.in_(chosen.scalar_subquery()), claimable)
            .values(claimed_until=until, attempts=JobRow.attempts + 1)
            .returning(
                JobRow.id, JobRow.kind, JobRow.key, JobRow.due_at, JobRow.payload, JobRow.attempts
            )
        )
        jobs = [
            Job(id, kind, key, aware(due), payload, tries, until)
            for id, kind, key, due, payload, tries in claimed
        ]
    return sorted(jobs, key=lambda job: (job.due_at, job.id))


async def finish(db: AsyncEngine, job: Job, again_at: datetime | None = None) -> None:
    """The claimed job is done: deleted, or kept for ``again_at``; unless it was rescheduled
    meanwhile (its claim no longer holds), which leaves it to its new time."""
    ours = and_(JobRow.id == job.id, JobRow.claimed_until == job.lease_until)
    async with db.begin() as conn:
        if again_at is None:
            await conn.execute(delete(JobRow).where(ours))
        else:
            kept = {"due_at": again_at, "claimed_until": None, "attempts": 0}
            await conn.execute(update(JobRow).where(ours).values(**kept))


async def next_due(db: AsyncEngine) -> datetime | None:
    """When the earliest job falls due, or a claimed one's lease lapses."""
    async with db.connect() as conn:
        unclaimed = await conn.scalar(
            select(func.min(JobRow.due_at)).where(JobRow.claimed_until.is_(None))
        )
        leased = await conn.scalar(select(func.min(JobRow.claimed_until)))
    found = [aware(moment) for moment in (unclaimed, leased) if moment is not None]
    return min(found) if found else None


TURNS = "turns"  # a turn-based match's job (app/rooms/turns.py), one per match


async def keep_turns(
    conn: AsyncConnection, room_id: str, match_id: int, due: datetime, *, replace: bool
) -> None:
    """The match's turns job due at ``due``: moved there (``replace``), or only if missing."""
    keep = reschedule if replace else schedule
    await keep(conn, TURNS, f"{TURNS}:{match_id}", due, {"room_id": room_id, "match_id": match_id})
