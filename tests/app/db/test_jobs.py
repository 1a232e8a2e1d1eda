"""Due jobs (app/db/jobs.py) on a real database: kept once, claimed once per lease, claimed by
one of several engines at a time, claimed again when a lease lapses."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from app.db import jobs
from app.db.engine import make_engine
from app.db.migrate import upgrade_to_head
from tests.support.server import run_on_own_loop

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LEASE = timedelta(minutes=5)


def test_a_job_is_kept_once_claimed_once_per_lease_and_gone_when_done(database_url: str) -> None:
    async def scenario() -> None:
        db = make_engine(database_url)
        try:
            await upgrade_to_head(db)
            async with db.begin() as conn:
                await jobs.schedule(conn, "deadline", "deadline:1:4", NOW, {"seq": 4})
                # scheduled again (a command run twice): the first is kept as it was
                await jobs.schedule(conn, "deadline", "deadline:1:4", NOW + LEASE, {"seq": 9})
                await jobs.schedule(conn, "reminder", "reminder:1:4", NOW + LEASE, {})
            assert await jobs.next_due(db) == NOW
            assert await jobs.claim_due(db, NOW - timedelta(seconds=1), LEASE) == []
            [claimed] = await jobs.claim_due(db, NOW, LEASE)
            assert (claimed.kind, claimed.payload, claimed.attempts) == ("deadline", {"seq": 4}, 1)
            assert claimed.due_at == NOW
            # held by its lease: nobody claims it, the reminder is not due yet
            assert await jobs.claim_due(db, NOW + LEASE - timedelta(seconds=1), LEASE) == []
            assert await jobs.next_due(db) == NOW + LEASE
            # its process died: after the lease it is claimed again, with the reminder
            later = await jobs.claim_due(db, NOW + LEASE + timedelta(seconds=1), LEASE)
            assert [(j.key, j.attempts) for j in later] == [
                ("deadline:1:4", 2),
                ("reminder:1:4", 1),
            ]
            for job in later:
                await jobs.finish(db, job)
            assert await jobs.next_due(db) is None
            assert await jobs.claim_due(db, NOW + 10 * LEASE, LEASE) == []
        finally:
            await db.dispose()

    run_on_own_loop(scenario())


def test_several_engines_claiming_at_once_each_get_other_jobs(database_url: str) -> None:
    async def scenario() -> list[list[str]]:
        engines = [make_engine(database_url) for _ in range(3)]
        try:
            await upgrade_to_head(engines[0])
            async with engines[0].begin() as conn:
                for n in range(60):
                    due = NOW + timedelta(seconds=n)
                    await jobs.schedule(conn, "deadline", f"deadline:{n}", due, {})
            claims = await asyncio.gather(
                *(jobs.claim_due(db, NOW + LEASE, LEASE, limit=25) for db in engines)
            )
            return [[job.key for job in claimed] for claimed in claims]
        finally:
            for db in engines:
                await db.dispose()

    claims = run_on_own_loop(scenario())
    everything = [key for claimed in claims for key in claimed]
    assert len(everything) == len(set(everything)) == 60  # each job once, none left
    assert max(map(len, claims)) == 25


def test_a_matchs_jobs_are_cancelled_by_their_keys_prefix(database_url: str) -> None:
    async def scenario() -> list[str]:
        db = make_engine(database_url)
        try:
            await upgrade_to_head(db)
            async with db.begin() as conn:
                for key in ("deadline:7:1", "reminder:7:1", "deadline:70:1", "mail:7x"):
                    await jobs.schedule(conn, key.split(":")[0], key, NOW, {})
                await jobs.cancel_prefix(conn, "deadline:7:")
                await jobs.cancel(conn, ["reminder:7:1"])
                await jobs.cancel_prefix(conn, "mail:7_")  # "_" is no wildcard: mail:7x stays
            return [job.key for job in await jobs.claim_due(db, NOW, LEASE)]
        finally:
            await db.dispose()

    assert run_on_own_loop(scenario()) == ["deadline:70:1", "mail:7x"]


def test_a_job_kept_for_later_or_rescheduled_while_claimed_is_not_lost(
    database_url: str,
) -> None:
    async def scenario() -> None:
        db = make_engine(database_url)
        try:
            await upgrade_to_head(db)
            async with db.begin() as conn:
                await jobs.schedule(conn, "turns", "turns:1", NOW, {"room_id": "r"})
            [claimed] = await jobs.claim_due(db, NOW, LEASE)
            await jobs.finish(db, claimed, again_at=NOW + LEASE)  # its handler: not yet done
            assert await jobs.next_due(db) == NOW + LEASE
            [claimed] = await jobs.claim_due(db, NOW + LEASE, LEASE)
            assert claimed.attempts == 1
            # a move while the handler runs: the job is wanted again now, and its claim lets go
            async with db.begin() as conn:
                await jobs.reschedule(conn, "turns", "turns:1", NOW + LEASE, {"room_id": "r"})
            await jobs.finish(db, claimed)  # the handler's end, deciding on what it saw
            [again] = await jobs.claim_due(db, NOW + LEASE, LEASE)
            assert again.key == "turns:1"
            await jobs.finish(db, again)
            assert await jobs.next_due(db) is None
        finally:
            await db.dispose()

    run_on_own_loop(scenario())
