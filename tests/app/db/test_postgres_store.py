"""What only the Postgres store has (app/db/postgres_store.py, app/db/driver.py): the asyncpg
connections it borrows and how it drops a lost one, the move log's pipelines side by side,
starts batched into one statement. A real database; tests/app/db/test_store_contract.py runs
what both stores share."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.driver import ConnectionLost, HeldDriver, connection_errors, transaction
from app.db.engine import make_engine
from app.db.matches import MatchEnd
from app.db.migrate import upgrade_to_head
from app.db.models import Match, Move, Player, Room
from app.db.movelog import MoveCommit
from app.db.postgres_store import PostgresStore
from tests.app.db.conftest import NOW, room_row
from tests.support.server import fresh_database, run_on_own_loop
from tests.support.waiting import until_waiting_on_a_lock

pytestmark = pytest.mark.skipif(
    not os.environ.get("CARDROOM_TEST_DATABASE_URL"), reason="the driver path is Postgres's"
)


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    with fresh_database(tmp_path) as url:
        yield url


async def _with_room(db: AsyncEngine) -> None:
    await upgrade_to_head(db)
    async with db.begin() as conn:
        await conn.execute(
            insert(Player), {"id": 1, "name": "Ada", "token_hash": "x" * 64, "created_at": NOW}
        )
        await conn.execute(insert(Room), room_row("r1"))


_NEW_MATCH = insert(Match).returning(Match.id)
# a match of room r1, started at $1
_NEW_MATCH_SQL = (
    "INSERT INTO matches (room_id, game, engine_version, options, seed, players, status,"
    " has_bots, move_count, started_at) VALUES ('r1', 'abstrac', '1', '{}', 1, 2, 'playing',"
    " false, 0, $1)"
)


def _match(**extra: object) -> dict[str, object]:
    return {
        "room_id": "r1",
        "game": "abstrac",
        "engine_version": "1",
        "options": {"target": 7},
        "seed": 2**62,
        "players": 2,
        "status": "playing",
        "has_bots": True,
        "move_count": 0,
        "started_at": NOW,
        **extra,
    }


def test_a_lost_connection_is_dropped_from_the_pool_and_the_next_start_works(
    database_url: str,
) -> None:
    async def run() -> tuple[int, int, int]:
        db = make_engine(database_url, pool_size=1, max_overflow=0)
        try:
            await _with_room(db)
            with pytest.raises(ConnectionLost):
                async with transaction(db) as conn:
                    lost = await conn.fetchval("SELECT pg_backend_pid()")
                    admin = await asyncpg.connect(database_url.replace("+asyncpg", ""))
                    await admin.execute("SELECT pg_terminate_backend($1)", lost)
                    await admin.close()
                    await conn.execute(_NEW_MATCH_SQL, NOW)
            async with transaction(db) as conn:  # the only pooled connection was replaced
                again = await conn.fetchval("SELECT pg_backend_pid()")
                await conn.execute(_NEW_MATCH_SQL, NOW)
            async with db.connect() as conn:
                return lost, again, await conn.scalar(select(func.count()).select_from(Match))
        finally:
            await db.dispose()

    lost, again, matches = run_on_own_loop(run())
    assert again != lost
    assert matches == 1


def test_the_held_driver_reuses_its_connection_and_drops_a_doubtful_one(
    database_url: str,
) -> None:
    """Starts run on a connection kept out of the pool: the same backend each time, kept
    after a database error, replaced after a lost connection or one left inside a
    transaction; a second user at once gets one of its own, and all go back on close."""

    async def run() -> tuple[list[int], list[int], list[int], int]:
        db = make_engine(database_url, pool_size=2, max_overflow=0)
        held = HeldDriver(db)
        pid = "SELECT pg_backend_pid()"
        try:
            await _with_room(db)
            pids = []
            for _ in range(2):
                async with held.driver() as driver:
                    pids.append(await driver.fetchval(pid))
            async with held.driver() as one, held.driver() as other:
                both = [await one.fetchval(pid), await other.fetchval(pid)]
                checked_out = [db.pool.checkedout()]
            checked_out.append(db.pool.checkedout())  # one of the two went back to the pool
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
            with pytest.raises(asyncpg.UniqueViolationError):
                async with held.driver() as driver:
                    await driver.execute("INSERT INTO rooms SELECT * FROM rooms")
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
                admin = await asyncpg.connect(database_url.replace("+asyncpg", ""))
                await admin.execute("SELECT pg_terminate_backend($1)", pids[-1])
                await admin.close()
            with pytest.raises(ConnectionLost):
                async with held.driver() as driver:
                    await driver.fetchval(pid)
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
                await driver.execute("BEGIN")
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
            checked_out.append(db.pool.checkedout())
            await held.close()
            checked_out.append(db.pool.checkedout())
            async with db.connect() as conn:  # the pool still serves
                rooms = await conn.scalar(select(func.count()).select_from(Room))
            return pids, both, checked_out, rooms
        finally:
            await db.dispose()

    pids, both, checked_out, rooms = run_on_own_loop(run())
    first, again, kept, after_error, after_lost, after_open_transaction = pids
    assert first == again == both[0] != both[1]
    assert kept in both and after_error == kept
    assert after_lost != kept and after_open_transaction != after_lost
    assert checked_out == [2, 1, 1, 0]
    assert rooms == 1


def test_a_backend_terminated_while_idle_is_always_a_lost_connection(database_url: str) -> None:
    """The backend's farewell can be read before its end of stream: asyncpg then fails the next
    statement with an internal protocol error, which must count as lost too (about one try in
    eight here; the move log retries only on a lost connection)."""

    async def run() -> int:
        plain = database_url.replace("+asyncpg", "")
        admin = await asyncpg.connect(plain)
        lost = 0
        try:
            for _ in range(40):
                conn = await asyncpg.connect(plain)
                await admin.execute("SELECT pg_terminate_backend($1)", conn.get_server_pid())
                with pytest.raises(ConnectionLost), connection_errors():
                    async with conn.transaction():
                        await conn.execute("SELECT 1")
                lost += 1
                conn.terminate()
        finally:
            await admin.close()
        return lost

    # asyncpg's own error varies with the race (closed, does not exist, internal): each is lost
    assert run_on_own_loop(run()) == 40


def test_a_plain_move_is_committed_while_a_finish_waits(database_url: str) -> None:
    """The move log's two pipelines: a finish held up (its match row locked by someone else)
    delays no other room's moves, and completes once the lock goes."""

    async def run() -> tuple[bool, bool, bool, int]:
        db = make_engine(database_url)
        try:
            await _with_room(db)
            async with db.begin() as conn:
                await conn.execute(insert(Room), room_row("r2"))
                ending = (await conn.execute(_NEW_MATCH, _match())).scalar_one()
                other = (await conn.execute(_NEW_MATCH, _match(room_id="r2"))).scalar_one()
            store = PostgresStore(db)
            await store.open()
            async with db.connect() as blocker:
                await blocker.execute(
                    text("SELECT id FROM matches WHERE id = :id FOR UPDATE"), {"id": ending}
                )
                end = MatchEnd("r1", ending, "abstrac", ((1, None), (None, "easy")), 1, {}, NOW)
                finish = asyncio.ensure_future(
                    store.append(MoveCommit("r1", ending, 1, 0, {"type": "pass"}, NOW, end))
                )
                await until_waiting_on_a_lock(db)
                held = not finish.done()
                plain = MoveCommit("r2", other, 1, 0, {"type": "pass"}, NOW)
                stored = await asyncio.wait_for(store.append(plain), 5)
                still_held = not finish.done()
                await blocker.rollback()
            finished = await asyncio.wait_for(finish, 5)
            await store.close()
            async with db.connect() as conn:
                moves = await conn.scalar(select(func.count()).select_from(Move))
            return held and still_held, stored, finished, moves
        finally:
            await db.dispose()

    held, stored, finished, moves = run_on_own_loop(run())
    assert held  # the finish waited for the lock all along
    assert stored and finished and moves == 2


def _start(room_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What a start writes for a room of one player and one bot."""
    seats = [
        {"seat": 0, "player_id": 1, "bot": None, "name": "Ada"},
        {"seat": 1, "player_id": None, "bot": "hard", "name": "Bot (hard)"},
    ]
    return _match(room_id=room_id), seats


def test_starts_that_wait_go_together_in_one_statement(database_url: str) -> None:
    """Starts of several rooms made at once take one statement; a second start of a room
    waits for the next one and finds its room moved on, as does a room that had."""

    async def run() -> tuple[list[int | None], int, list[tuple[str, int | None]]]:
        db = make_engine(database_url)
        store = PostgresStore(db)
        starts = store.starts
        try:
            await _with_room(db)
            async with db.begin() as conn:
                await conn.execute(
                    insert(Room), [room_row("r2"), {**room_row("r3"), "status": "finished"}]
                )
            results = await asyncio.gather(
                *(starts.start(*_start(room_id), "waiting") for room_id in ("r1", "r2", "r3", "r1"))
            )
            async with db.connect() as conn:
                rooms = await conn.execute(select(Room.id, Room.match_id).order_by(Room.id))
                return list(results), starts.statements, [tuple(r) for r in rooms]
        finally:
            await store.close()
            await db.dispose()

    (first, second, moved_on, again), statements, rooms = run_on_own_loop(run())
    assert first is not None and second is not None and first != second
    assert moved_on is None and again is None
    assert statements == 2  # r1, r2 and r3 together, then r1 again
    assert rooms == [("r1", first), ("r2", second), ("r3", None)]
